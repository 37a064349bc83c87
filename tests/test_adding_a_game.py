"""A game comes into the device through the registry and nothing else: Fives, written for
the tests (``tests/helpers/fives.py``), registered here, is offered on the title, played
through the device's own loop on the fakes from the title to its game over, with its
screen read back and checked against the game; its transcripts are written and replayed;
the simulator plays it headless. ``docs/architecture.md`` ("Adding a game") names the steps
this file follows."""

import pytest
from helpers import fives
from spit import games, keys
from spit.games import CALL_ACTION, PHASE_OVER, PHASE_PLAY, IllegalActionError, play
from spit.options import Options
from spit.screens import COUNTDOWN, GAME_OVER, PLAY, READY, TITLE
from spit.transcript import Transcript, TranscriptError
from test_replay_check import check_agrees, headless_games
from test_screen_truth import play_and_check

from host_sim.sim.simulated_device import Device, SimulatedClock


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """Fives among the device's games for one test, as a line in ``spit/games.py`` would
    put it."""
    monkeypatch.setattr(games, "NAMES", list(games.NAMES))
    monkeypatch.setattr(games, "_MODULES", dict(games._MODULES))
    monkeypatch.setattr(games, "_CALLS", dict(games._CALLS))
    monkeypatch.setattr(games, "_LOADED", dict(games._LOADED))
    games.register("fives", "helpers.fives")


def sensible(game):
    """The first legal play, else the turn of the stack."""
    actions = game.legal_actions()
    plays = [action for action in actions if action != CALL_ACTION]
    return plays[0] if plays else actions[0]


def test_fives_plays_to_an_outcome_with_every_card_somewhere():
    for seed in range(40):
        game = games.rules("fives").Game(seed)
        while game.outcome() is None:
            game.apply(sensible(game))
            assert game.card_count() == 52
        assert game.phase == PHASE_OVER and game.round == 1


def test_a_refused_play_changes_nothing_and_says_why():
    game = fives.Game(3)
    with pytest.raises(IllegalActionError, match="not now"):
        game.apply(play(0, 0, 0))  # before the opening turn
    game.apply(CALL_ACTION)
    assert game.phase == PHASE_PLAY
    misfit = [slot for slot in range(5) if game.play_refusal(play(0, slot, 0)) == "doesn't fit"]
    before = (list(game.history), [list(c) for c in game.stock[0]], list(game.middle[0]))
    with pytest.raises(IllegalActionError, match="doesn't fit"):
        game.apply(play(0, misfit[0], 0))
    assert before == (list(game.history), [list(c) for c in game.stock[0]], list(game.middle[0]))


def test_its_transcripts_are_written_read_and_replayed_in_its_own_words():
    game = fives.Game(11)
    while game.outcome() is None:
        game.apply(sensible(game))
    text = Transcript.of(game).text()
    assert text.startswith("fives-transcript 1\nseed 11\nT ")
    assert "options" not in text  # its options change nothing in its rules
    again = Transcript.parse(text).replay()
    assert again.history == game.history and again.outcome().winner == game.outcome().winner
    with pytest.raises(TranscriptError, match=r"expected an action: T \(turn\), 1c3a \(play\)"):
        Transcript.parse("fives-transcript 1\nseed 1\nS\n")


def passes(device, clock, count):
    for _ in range(count):
        device.step()
        clock.advance(1000)
        assert device.handheld.errors == 0, device.handheld.last_error


def test_the_title_offers_it_and_the_settings_keep_it():
    clock = SimulatedClock()
    device = Device(clock, Options(), 5, title=True, screen=True)
    chosen = []
    for _ in games.NAMES:
        device.tap(keys.button_id(0, keys.RIGHT))
        passes(device, clock, 300)
        chosen.append(device.controller.saved.game)
    assert chosen == ["speed", "fives", "spit"]


def test_a_match_of_fives_runs_through_the_device_loop_from_the_title_to_its_game_over():
    """Two CPU seats (a person's SPIT starts it from the title), the screens in the order a
    person sees them, no fault in any pass."""
    clock = SimulatedClock()
    device = Device(
        clock, Options(), 21, ("steady", "quick"), screen=True, title=True, game="fives"
    )
    seen = []
    device.tap(keys.button_id(0, keys.SPIT))
    for _ in range(400_000):
        passes(device, clock, 1)
        screen = device.controller.screen()
        if not seen or seen[-1] != screen:
            seen.append(screen)
        if device.finished:
            break
    assert device.finished, "no game of Fives ended: %s" % seen
    assert seen[:4] == [TITLE, READY, COUNTDOWN, PLAY] and GAME_OVER in seen
    result = device.finished[0]
    assert result["game_name"] == "fives" and result["turns"] >= 1


def test_the_play_screen_shows_what_a_game_of_fives_holds():
    play_and_check(4, "fives", 6_000)


def test_the_simulator_plays_it_headless_and_its_transcripts_replay_to_the_same_figures(
    tmp_path,
):
    played = headless_games(tmp_path, 3, "fives", [], games=2)
    assert [line["game_name"] for line, _ in played] == ["fives", "fives"]
    for line, path in played:
        with open(path) as recorded:
            assert recorded.readline() == "fives-transcript 1\n"
        check_agrees(line, path)
