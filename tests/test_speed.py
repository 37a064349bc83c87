"""Speed's rules (SPEC 13) on built positions, and a random game's cards conserved."""

import contextlib
import io
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spit import keys, speed
from spit.cards import parse_card
from spit.controls import CALLED, LOST_RACE, PICKED, PLAYED, REFUSED, SPAT, Controls
from spit.games import (
    NO_CARD,
    NO_FIT,
    NO_PILE,
    NOT_NOW,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_READY,
    IllegalActionError,
    InvalidActionError,
)
from spit.selfplay import play_game, run_lines
from spit.speed import CARDS_LEFT, FLIP_ACTION, NOT_STUCK, Game, out, play
from spit.speed_cpu import SpeedCpu
from spit.transcript import Transcript, TranscriptError

from host_sim.vm.micropython_vm import run


def cards(names):
    return [parse_card(name) for name in names.split()]


def position(hands, tops, draws=("", ""), spares=("", ""), under=("", "")):
    """A game in play: each hand (``-`` an empty slot), the centre piles' tops with the
    cards ``under`` them, the draw piles and replacement stacks (last named on top)."""
    game = Game(1)
    game.apply(FLIP_ACTION)
    for player in (0, 1):
        names = hands[player].split()
        for slot in range(speed.HAND):
            name = names[slot] if slot < len(names) else "-"
            game.stock[player][slot][:] = [] if name == "-" else [parse_card(name)]
        game.pack[player][:] = cards(draws[player])
        game.spares[player][:] = cards(spares[player])
        game.middle[player][:] = cards(under[player]) + cards(tops[player])
    return game


def hand(game, player):
    """A player's hand, a card or -1 (empty) a slot."""
    return [game.stock_top(player, slot) for slot in range(speed.HAND)]


def refused(game, action):
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    return caught.value.reason


def test_the_deal_gives_each_player_five_in_hand_fifteen_to_draw_and_five_replacements():
    game = Game(3)
    for player in (0, 1):
        assert -1 not in hand(game, player)
        assert len(game.pack[player]) == 15 and len(game.spares[player]) == 5
    assert game.middle == [[], []] and game.phase == PHASE_READY
    assert sorted(
        hand(game, 0) + hand(game, 1) + sum(game.pack, []) + sum(game.spares, []) + game._middle
    ) == list(range(52))


def test_the_opening_flip_turns_the_two_middle_cards_up():
    game = Game(3)
    middle = list(game._middle)
    assert refused(game, play(0, 0, 0)) == NOT_NOW
    game.apply(FLIP_ACTION)
    assert [game.top(0), game.top(1)] == middle and game.phase == PHASE_PLAY
    assert game.card_count() == 52


def test_a_card_one_rank_either_side_plays_round_the_ace_and_suits_are_never_read():
    game = position(("AS KD 5C - -", "9H"), ("2H", "KS"))
    game.apply(play(0, 0, 0))  # A on 2
    game.apply(play(0, 1, 0))  # K on A
    assert game.top(0) == parse_card("KD")
    assert refused(game, play(0, 2, 1)) == NO_FIT  # 5 on K
    assert refused(game, play(0, 3, 0)) == NO_CARD
    assert refused(game, play(0, 0, 2)) == NO_PILE
    with pytest.raises(InvalidActionError):
        game.apply(play(0, 7, 0))


def test_a_played_slot_is_filled_from_the_draw_pile_at_once_and_never_past_five():
    game = position(("3S 8D 8C 8H 8S", "9H"), ("4H", "KS"), draws=("2C 6D", ""))
    game.apply(play(0, 0, 0))
    assert hand(game, 0) == cards("6D 8D 8C 8H 8S") and game.pack[0] == cards("2C")


def test_with_the_draw_pile_spent_the_slot_stays_empty():
    game = position(("3S 8D", "9H"), ("4H", "KS"))
    game.apply(play(0, 0, 0))
    assert hand(game, 0)[0] == -1 and game.held(0) == 1


def test_stuck_only_when_neither_player_can_play_and_then_both_flip_a_replacement():
    game = position(("8D", "8H"), ("2H", "KS"), spares=("4C 5C", "6C 7C"))
    assert game.is_stuck() and not game.can_play(0) and not game.can_play(1)
    game.apply(FLIP_ACTION)
    assert [game.top(0), game.top(1)] == cards("5C 7C")  # player 1's onto pile 0
    assert game.can_play(0) and game.can_play(1) and not game.is_stuck()
    assert refused(game, FLIP_ACTION) == NOT_STUCK


def test_spent_replacements_are_the_centre_piles_under_their_tops_shuffled_into_two_stacks():
    game = position(("8D", "8H"), ("2H", "KS"), under=("3C 4C 5C", "6C 7C"))
    assert game.spares == [[], []]
    count = game.card_count()
    game.apply(FLIP_ACTION)
    assert game.reshuffles == 1 and game.card_count() == count
    assert game.middle[0][0] == parse_card("2H") and game.middle[1][0] == parse_card("KS")
    middle = sorted(game.spares[0] + game.spares[1] + game.middle[0][1:] + game.middle[1][1:])
    assert middle == sorted(cards("3C 4C 5C 6C 7C")), "the tops stay, the rest reshuffled"
    assert [len(pile) for pile in game.middle] == [2, 2] and len(game.spares[0]) == 2


def test_too_few_cards_under_the_tops_is_a_stall_won_by_the_player_holding_fewer():
    game = position(("8D 8C", "8H"), ("2H", "KS"), under=("3C", ""))
    count = game.card_count()
    game.apply(FLIP_ACTION)
    assert game.phase == PHASE_OVER and game.card_count() == count
    assert (game.outcome().winner, game.outcome().reason) == (1, speed.FEWER_CARDS)


def spent_and_stuck():
    return position(("8D", "8H"), ("2H", "KS"), under=("3C 4C 5C 9S", "6C 7C"))


def test_the_gather_made_ahead_while_stuck_changes_nothing_until_the_flip_takes_it():
    ahead, at_flip = spent_and_stuck(), spent_and_stuck()
    table = [list(pile) for pile in ahead.middle + ahead.spares]
    count = ahead.card_count()
    steps = 0
    while ahead.prepare_spit():
        steps += 1
    assert steps == 3, "stuck with the replacements spent: copied, shuffled, split"
    assert not ahead.prepare_spit(), "done once an action"
    assert [list(pile) for pile in ahead.middle + ahead.spares] == table
    ahead.apply(FLIP_ACTION)
    at_flip.apply(FLIP_ACTION)
    assert ahead.middle == at_flip.middle and ahead.spares == at_flip.spares
    assert ahead.rng.state == at_flip.rng.state and ahead.reshuffles == 1
    assert ahead.card_count() == count


def test_nothing_is_made_ahead_while_someone_can_play_or_replacements_are_left():
    assert not position(("8D", "8H"), ("2H", "KS"), spares=("4C", "6C")).prepare_spit()
    assert not position(("3D", "8H"), ("2H", "KS"), under=("3C 4C", "6C")).prepare_spit()
    stall = position(("8D 8C", "8H"), ("2H", "KS"), under=("3C", ""))
    assert stall.prepare_spit(), "the cards copied: too few to shuffle"
    stall.apply(FLIP_ACTION)
    assert (stall.outcome().winner, stall.outcome().reason) == (1, speed.FEWER_CARDS)


@settings(max_examples=30)
@given(st.integers(0, 2**31 - 1), st.randoms(use_true_random=False))
def test_a_game_with_its_gathers_made_ahead_is_the_game_without(seed, chooser):
    ahead, plain = Game(seed), Game(seed)
    while ahead.phase != PHASE_OVER and len(ahead.history) < 300:
        for _ in range(chooser.randrange(4)):  # the gather made ahead, in part or whole
            ahead.prepare_spit()
        action = chooser.choice(ahead.legal_actions())
        ahead.apply(action)
        plain.apply(action)
        assert (ahead.middle, ahead.spares) == (plain.middle, plain.spares)
        assert ahead.stock == plain.stock
    assert ahead.rng.state == plain.rng.state


def test_a_call_with_cards_left_is_refused_and_with_none_wins():
    game = position(("3S", "8H 9H"), ("4H", "KS"))
    assert refused(game, out(0)) == CARDS_LEFT
    game.apply(play(0, 0, 0))
    assert refused(game, out(1)) == CARDS_LEFT
    assert not game.is_stuck(), "an empty-handed player calls: nobody flips"
    game.apply(out(0))
    assert (game.outcome().winner, game.outcome().reason) == (0, speed.CALLED)
    assert refused(game, play(1, 0, 0)) == NOT_NOW


@settings(max_examples=60)
@given(st.integers(0, 2**31 - 1), st.randoms(use_true_random=False))
def test_random_play_conserves_the_52_cards_and_ends(seed, chooser):
    game = Game(seed)
    for _ in range(2000):
        actions = game.legal_actions()
        if not actions:
            break
        game.apply(chooser.choice(actions))
        assert game.card_count() == 52
    assert game.phase == PHASE_OVER or game.legal_actions()


def test_a_speed_game_written_as_a_transcript_replays_to_the_same_table():
    game = Game(11)
    chooser = random.Random(4)
    while game.phase != PHASE_OVER and len(game.history) < 400:
        game.apply(chooser.choice(game.legal_actions()))
    text = Transcript.of(game).text()
    assert text.startswith("speed-transcript 1\nseed 11\n") and "options" not in text
    again = Transcript.parse(text)
    assert again.game == "speed" and again.actions == game.history
    replayed = again.replay()
    assert replayed.middle == game.middle and replayed.stock == game.stock
    assert replayed.phase == game.phase


@pytest.mark.parametrize("word", ["F", "1c1a", "2c5b", "1*", "2*"])
def test_speed_words_round_trip(word):
    assert speed.action_word(speed.parse_action_word(word)) == word


@pytest.mark.parametrize("word", ["S", "1c6a", "3c1a", "1!a", "1c1c2", "1*x"])
def test_a_word_that_is_no_speed_action_names_its_place(word):
    with pytest.raises(TranscriptError, match="line 3, word 1"):
        Transcript.parse("speed-transcript 1\nseed 1\n%s\n" % word)


# -- the CPU and self-play ------------------------------------------------------------


def test_a_careful_cpu_plays_the_card_that_leaves_it_another_and_a_careless_one_the_first():
    game = position(("QD 5D 6C", "8H"), ("4H", "KS"))  # Q onto K opens nothing; 5 onto 4, the 6
    cpu = SpeedCpu(0)
    assert cpu.careful and cpu.choose(game) == play(0, 1, 0)
    cpu.careful = False
    assert cpu.choose(game) == play(0, 0, 1)


def test_the_cpu_calls_for_the_flip_when_stuck_and_calls_the_game_when_out():
    game = position(("8D", "8H"), ("2H", "KS"), spares=("4C", "6C"))
    assert SpeedCpu(0).choose(game) == FLIP_ACTION
    game = position(("3S", "8H"), ("4H", "KS"))
    game.apply(play(0, 0, 0))
    assert SpeedCpu(0).choose(game) == out(0) and SpeedCpu(1).choose(game) is None


def test_a_cpu_keeps_its_time_for_the_same_choice_and_redraws_for_a_new_one():
    game = position(("3S 9D", "8H"), ("4H", "KS"))
    cpu = SpeedCpu(0, "steady", seed=5)
    assert cpu.look(game, 0) and cpu.due >= cpu.level.floor_ms
    due = cpu.due
    assert not cpu.look(game, 10) and cpu.due == due


def test_a_look_whose_table_moves_on_while_it_chooses_again_starts_again():
    # As Spit's (``tests/test_cpu.py``): the machinery is the same. A new reaction whose
    # care differs chooses again in the next glance; the table moving on before then
    # starts the look again, and its new choice a new reaction, timed from then.
    for seed in range(50):
        game = position(("3S 9D", "QD"), ("4H", "KS"))
        cpu = SpeedCpu(0, "relaxed", seed)
        assert cpu.glance(game, 0) is None, "the reaction drawn ahead"
        if cpu.glance(game, 0) is False:
            break
    drawn = cpu.due
    assert cpu.looking() and cpu.action is None, "to choose again with the care drawn"
    game.apply(play(1, 0, 1))  # QD onto KS
    while not cpu.glance(game, 100):
        pass
    assert cpu.action == play(0, 0, 0) and cpu.due != drawn
    assert cpu.due >= 100 + cpu.level.floor_ms


def test_a_race_ends_with_every_card_accounted_for_and_the_caller_out():
    game = play_game(7, levels=("quick", "relaxed"), name="speed").game
    assert game.card_count() == 52 and game.outcome() is not None
    winner = game.outcome().winner
    assert game.held(winner) == 0 and game.history[-1] == out(winner)
    assert Transcript.parse(Transcript.of(game).text()).replay().outcome().winner == winner


def test_a_faster_level_beats_a_slower_one():
    wins = [
        json.loads(line)["winner"]
        for line in run_lines(3, 40, levels=("quick", "relaxed"), name="speed")
    ]
    assert wins.count(1) > 30


def test_the_command_line_plays_speed_and_refuses_spits_rule_options(capsys):
    from host_sim import cpu_vs_cpu as selfplay

    selfplay.main(["--game", "speed", "--games", "2", "--p1", "lightning"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["winner"] in (1, 2) for line in lines)
    with pytest.raises(SystemExit) as exit:
        selfplay.main(["--game", "speed", "--stack", "on"])
    assert exit.value.code == 2
    assert capsys.readouterr().err == (
        "host_sim.cpu_vs_cpu: error: --game speed takes no rule options (given: --stack)\n"
    )


_SELF_PLAY = """
from spit.selfplay import run_lines

for line in run_lines(%d, %d, None, %r, "speed"):
    print(line)
"""


@pytest.mark.micropython_vm
def test_two_hundred_speed_games_are_the_same_on_micropython():
    program = _SELF_PLAY % (2026, 200, ("quick", "steady"))
    on_cpython = io.StringIO()
    with contextlib.redirect_stdout(on_cpython):
        exec(program, {})
    lines = on_cpython.getvalue().splitlines()
    assert run(program) == on_cpython.getvalue()
    results = [json.loads(line) for line in lines]
    assert len(results) == 200 and all(result["winner"] in (1, 2) for result in results)
    assert {result["why"] for result in results} <= {speed.CALLED, speed.FEWER_CARDS}
    assert sum(result["reshuffles"] for result in results) > 0, "replacements ran out"


# -- at the device's buttons (``spit.controls``, as for Spit) ---------------------------


class Buttons:
    """A Speed position at the device's controls, recording every event."""

    def __init__(self, game):
        self.game = game
        self.events = []
        self.controls = Controls(game, lambda *event: self.events.append(event))

    def press(self, player, key, t=0):
        self.controls.press(keys.button_id(player, key), t)
        return self.events[-1] if self.events else None


def test_a_card_that_fits_one_pile_plays_with_its_button_and_the_slot_refills_at_once():
    table = Buttons(position(("5C 9D", "JH"), ("4H", "KS"), draws=("2C", "")))
    assert table.press(0, keys.C1) == (PLAYED, 0, 0)
    assert table.game.top(0) == parse_card("5C") and hand(table.game, 0)[0] == parse_card("2C")
    assert table.press(0, keys.C2) == (PICKED, 0, 1), "9D fits no pile: picked up, as in Spit"


def test_a_card_that_fits_both_piles_is_picked_up_then_played_with_l_or_r():
    table = Buttons(position(("5C", "JH"), ("4H", "6S")))
    assert table.press(0, keys.C1) == (PICKED, 0, 0)
    assert table.press(0, keys.RIGHT) == (PLAYED, 0, 1)
    assert table.game.top(1) == parse_card("5C")
    # Player 2 sees the piles from the other side: their L is pile b.
    table = Buttons(position(("9D", "5C"), ("4H", "6S")))
    table.press(1, keys.C1)
    assert table.press(1, keys.LEFT) == (PLAYED, 1, 1)


def test_spit_calls_the_flip_when_both_are_stuck_and_is_refused_while_someone_can_play():
    stuck = Buttons(position(("8D", "8H"), ("2H", "KS"), spares=("4C", "6C")))
    assert stuck.press(0, keys.SPIT) == (CALLED, 0, 0)
    assert stuck.press(1, keys.SPIT) == (SPAT, -1, 2)
    assert [stuck.game.top(0), stuck.game.top(1)] == cards("4C 6C")
    playing = Buttons(position(("3H", "8H"), ("2H", "KS"), spares=("4C", "6C")))
    playing.press(0, keys.SPIT)
    assert playing.press(1, keys.SPIT) == (REFUSED, 1, NOT_STUCK)
    assert playing.game.top(0) == parse_card("2H"), "nothing changed"


def test_the_timers_pass_after_the_stuck_check_gathers_ahead_and_the_flip_takes_it():
    table = Buttons(spent_and_stuck())
    table.controls.clocks.stuck_check_at = 0  # as an action leaves it
    assert table.controls.update(0), "the stuck check fills a pass"
    assert [table.controls.update(0) for _ in range(4)] == [True, True, True, False]
    assert not table.game.prepare_spit(), "the gather's three steps are done"
    assert len(table.game.middle[0]) == 5, "the piles stay until the flip"
    table.press(0, keys.SPIT)
    assert table.press(1, keys.SPIT) == (SPAT, -1, 2)
    assert table.game.reshuffles == 1 and len(table.game.middle[0]) == 2


def test_a_player_out_of_cards_calls_the_game_with_spit_alone_and_wins():
    table = Buttons(position(("3H", "8H 9C"), ("2H", "KS")))
    table.press(0, keys.C1)  # the last card
    assert table.controls.presses_for(0, out(0)) == [keys.SPIT]
    assert table.controls.presses_for(1, out(1)) is None, "cards left: no button calls it"
    assert table.press(0, keys.SPIT) == (CALLED, 0, 0)
    assert table.game.phase == PHASE_OVER and table.game.outcome().winner == 0


def test_a_card_beaten_to_its_pile_goes_back_and_shows_the_margin():
    table = Buttons(position(("5C", "5D"), ("4H", "KS")))
    table.press(1, keys.C1, t=1_000)  # player 2's 5D lands on 4H first
    assert table.press(0, keys.C1, t=1_420) == (LOST_RACE, 0, 0)
    assert table.controls.contest.text() == "P2 by 0.42 ms"
    assert hand(table.game, 0)[0] == parse_card("5C"), "back in its slot"


_REPLAY = """
from spit.transcript import Transcript

game = Transcript.parse(%r).replay()
print(game.NAME, game.plays, game.flips, game.outcome().winner, game.card_count())
"""


@pytest.mark.micropython_vm
def test_a_speed_transcript_replays_on_micropython_as_on_cpython():
    game = play_game(7, levels=("quick", "lightning"), name="speed").game
    text = Transcript.of(game).text()
    expected = "speed %d %d %d 52\n" % (game.plays, game.flips, game.outcome().winner)
    assert run(_REPLAY % text) == expected
