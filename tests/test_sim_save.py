"""The simulator keeps the device's save between runs: the game chosen, the settings, the
games won in the match being played, the matches won and the reaction records, in
``spit.json`` in a folder of the user's (here each test's own: ``conftest.py``)."""

import json
import os

import pytest
from spit import keys
from spit.cards import adjacent
from spit.modes import TITLE
from spit.savedata import SaveData

from host_sim.sim import flags as sim_flags
from host_sim.sim import simulator as sim
from host_sim.sim.simulated_device import save_path

pytestmark = pytest.mark.person_path

P1 = 0


def run(*argv):
    """``make sim`` with ``argv``, its window or terminal left aside."""
    args = sim_flags.parse_args(list(argv) + ["--seed", "5", "--record", ""])
    return sim.Play(args, screen=False)


def passes(play, ms):
    for _ in range(ms):
        play.pacer.pass_once()


def tap(play, key, ms=150):
    """Player 1 taps ``key`` and waits ``ms``."""
    play.device.tap(keys.button_id(P1, key))
    passes(play, ms)


def play_speed_game(play):
    """Player 1 plays a game of Speed against the CPU to its end: a card that fits a
    pile goes onto it, else SPIT."""
    device = play.device
    tap(play, keys.SPIT, 300)  # a match, from the title
    for _ in range(3000):
        if device.finished:
            break
        game = device.session.table.game
        fits = [
            (slot, pile)
            for slot in range(5)
            for pile in (0, 1)
            if game.stock_top(P1, slot) >= 0 and adjacent(game.stock_top(P1, slot), game.top(pile))
        ]
        if fits and device.screen_name() == "play":
            slot, pile = fits[0]
            tap(play, keys.C1 + slot, 60)
            tap(play, (keys.LEFT, keys.RIGHT)[pile], 200)
        else:
            tap(play, keys.SPIT, 300)
    assert device.finished, "the game never ended"
    passes(play, 2000)  # the break after the game over screen saves


def saved_file():
    with open(save_path()) as f:
        return SaveData.parse(f.read())


def test_the_save_is_in_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert save_path() == str(tmp_path / "spit-handheld" / "spit.json")
    monkeypatch.setenv("HOME", str(tmp_path / "me"))
    home_data = tmp_path / "me" / ".local" / "share"
    for unusable in ("", "relative/data"):  # the XDG rules: a relative one is ignored
        monkeypatch.setenv("XDG_DATA_HOME", unusable)
        assert save_path() == str(home_data / "spit-handheld" / "spit.json")


def test_the_game_chosen_on_the_title_and_the_tallies_are_there_at_the_next_run():
    first = run()
    passes(first, 200)
    assert first.device.controller.mode == TITLE
    tap(first, keys.LEFT, 300)  # L on the title: Speed
    assert first.device.controller.word() == "SPEED"
    play_speed_game(first)
    won = first.device.finished[0]["match"]
    assert sum(won) == 1
    reactions = first.device.handheld.saved.recent_ms[P1]
    assert reactions, "player 1's reactions were timed"

    kept = saved_file()
    assert (kept.game, kept.games, kept.recent_ms[P1]) == ("speed", won, reactions)
    second = run()
    passes(second, 200)
    saved = second.device.handheld.saved
    assert second.device.controller.mode == TITLE
    assert second.device.controller.word() == "SPEED", "Speed chosen, as the last run left it"
    assert "game: Speed" in second.status()
    assert saved.games == won and saved.recent_ms[P1] == reactions
    tap(second, keys.SPIT, 300)  # the match goes on: its next game
    assert second.device.session.match.wins == won


def test_fresh_starts_from_the_defaults_and_keeps_the_old_save_as_bak():
    first = run()
    passes(first, 200)
    tap(first, keys.LEFT, 300)
    assert saved_file().game == "speed"
    fresh = run("--fresh")
    passes(fresh, 300)
    assert fresh.device.controller.word() == "SPIT"
    assert fresh.device.seats == ("human", "steady")
    assert saved_file().game == "spit", "the defaults, saved over the old save"
    with open(save_path() + ".bak") as f:
        assert json.load(f)["settings"]["game"] == "speed"


def test_a_damaged_save_still_starts_from_the_defaults():
    os.makedirs(os.path.dirname(save_path()))
    for damaged in (b"\x00\xff{not json", b'{"format": "spit-save 0"}', b"[1, 2]", b""):
        for name in os.listdir(os.path.dirname(save_path())):
            os.remove(os.path.join(os.path.dirname(save_path()), name))
        with open(save_path(), "wb") as f:
            f.write(damaged)
        play = run()
        passes(play, 300)
        assert play.device.controller.mode == TITLE and play.device.handheld.errors == 0
        assert play.device.controller.word() == "SPIT"
        assert play.device.seats == ("human", "steady")
        tap(play, keys.LEFT, 300)
        assert saved_file().game == "speed", "a good save written over the damaged one"


def test_a_flag_holds_for_its_run_and_the_save_keeps_its_own_setting():
    first = run()
    passes(first, 200)
    tap(first, keys.LEFT, 300)  # Speed, saved
    flagged = run("--game", "spit", "--p2", "cpu:quick")
    passes(flagged, 300)
    assert flagged.device.controller.word() == "SPIT"
    assert flagged.device.seats == ("human", "quick")
    kept = saved_file()
    assert (kept.game, kept.seats) == ("speed", ["person", "steady"])
    tap(flagged, keys.RIGHT, 300)  # Speed chosen on the device, over the flag
    tap(flagged, keys.RIGHT, 300)  # and Spit again: the person's choice is saved
    assert saved_file().game == "spit" and saved_file().seats == ["person", "steady"]
    again = run()
    passes(again, 200)
    assert again.device.controller.word() == "SPIT" and again.device.seats == ("human", "steady")


def test_headless_games_and_replays_keep_no_save(capsys):
    args = sim_flags.parse_args(["--headless", "--seed", "3", "--layout", "3x5"])
    sim.run_headless(args)
    assert not os.path.exists(save_path())
    for argv in (["--headless", "--fresh"], ["--replay", "game.txt", "--fresh"]):
        try:
            sim_flags.parse_args(argv)
        except SystemExit as stop:
            assert stop.code == 2
        assert "--fresh" in capsys.readouterr().err
