"""Game input semantics: presses in first-touch order -> rules actions and feedback."""

import copy

import pytest
from helpers.positions import cards, position, snapshot
from spit import keys
from spit.contest import Contest
from spit.controls import (
    CALLED,
    LOST_RACE,
    MOVED,
    NO_CARD_IN_HAND,
    PICKED,
    PLAYED,
    PUT_BACK,
    REFUSED,
    SLAP_MARGIN,
    SLAPPED,
    SPAT,
    WITHDRAWN,
    Controls,
)
from spit.games import PHASE_PLAY, PHASE_READY, PHASE_SLAP
from spit.pen import CODED
from spit.rng import Rng
from spit.spit import Game

P1, P2 = 0, 1


def button(player, key):
    return keys.button_id(player, key)


class Table:
    """A position with its controls, recording every event."""

    def __init__(self, game):
        self.game = game
        self.events = []
        self.controls = Controls(game, lambda *event: self.events.append(event))

    def press(self, player, key, t=0, tie=False):
        self.controls.press(button(player, key), t, tie)
        return self.events[-1] if self.events else None


def simple(options="quick=off", **kw):
    # P1: C1 7H on a hidden 2C, C2 9D, C3 KS; P2: C1 5C, C2 QH. Piles: 6S (P1's), JD (P2's).
    return Table(
        position(["2C 7H", "9D", "KS"], ["5C", "QH"], ["6S", "JD"], options=options, **kw)
    )


def test_the_press_times_get_room_for_a_round_only_when_it_runs_short():
    controls = Controls(Game(1))
    assert not controls.room_for_a_round(), "made with the controls for the first round"
    controls.times.extend(range(70))
    assert controls.room_for_a_round(), "short after a long round: made now"
    assert not controls.room_for_a_round() and controls.times == list(range(70))


def test_pick_then_place_plays_the_card():
    table = simple()
    assert table.press(P1, keys.C1) == (PICKED, P1, 0)
    assert table.press(P1, keys.LEFT) == (PLAYED, P1, 0)
    assert table.game.top(0) == cards("7H")[0]
    assert table.game.stock_top(P1, 0) == cards("2C")[0]
    assert table.controls.hand[P1] == -1


def test_pressing_the_card_in_hand_puts_it_back():
    table = simple()
    table.press(P1, keys.C2)
    assert table.press(P1, keys.C2) == (PUT_BACK, P1, 1)
    assert table.press(P1, keys.LEFT) == (REFUSED, P1, NO_CARD_IN_HAND)


def test_another_card_changes_your_mind():
    table = simple()
    table.press(P1, keys.C1)
    table.press(P1, keys.C3)
    assert table.events[-2:] == [(PUT_BACK, P1, 0), (PICKED, P1, 2)]
    assert table.press(P1, keys.RIGHT) == (REFUSED, P1, "doesn't fit")
    assert table.controls.hand[P1] == 2, "a refused card stays in hand"


def test_refused_play_changes_nothing():
    table = simple()
    table.press(P1, keys.C2)
    before = snapshot(table.game)
    assert table.press(P1, keys.LEFT) == (REFUSED, P1, "doesn't fit")
    assert snapshot(table.game) == before


def test_gap_move_turns_up_the_card_beneath():
    table = simple()
    table.press(P1, keys.C1)
    assert table.press(P1, keys.C5) == (MOVED, P1, 4)
    assert table.game.stock_top(P1, 4) == cards("7H")[0]
    assert table.game.stock_top(P1, 0) == cards("2C")[0]
    assert table.game.face_up[P1][0] == 1


def test_same_rank_stacking_only_with_the_option():
    game_rows = (["2C 7H", "4D 7S"], ["5C"], ["6S", "JD"])
    off = Table(position(*game_rows, options="quick=off"))
    off.press(P1, keys.C1)
    off.press(P1, keys.C2)
    assert off.events[-1] == (PICKED, P1, 1)
    on = Table(position(*game_rows, options="quick=off stack=on"))
    on.press(P1, keys.C1)
    assert on.press(P1, keys.C2) == (MOVED, P1, 1)
    assert on.game.stock[P1][1] == cards("4D 7S 7H")


def test_quick_play_plays_a_card_that_fits_exactly_one_pile():
    table = simple(options="quick=on")
    assert table.press(P1, keys.C1, t=500) == (PLAYED, P1, 0)
    assert table.controls.times[-1] == 500, "the card button's press is the touch"


def test_quick_play_picks_up_a_card_that_fits_both_or_none():
    table = Table(position(["7H", "9D"], ["5C"], ["6S", "8D"], options="quick=on"))
    assert table.press(P1, keys.C1) == (PICKED, P1, 0)
    table.press(P1, keys.C1)
    assert table.press(P1, keys.C2) == (PLAYED, P1, 1), "9D fits only 8D"
    table = Table(position(["KH"], ["5C"], ["6S", "8D"], options="quick=on"))
    assert table.press(P1, keys.C1) == (PICKED, P1, 0)


def test_empty_slot_is_refused():
    table = simple()
    assert table.press(P1, keys.C5) == (REFUSED, P1, "no card there")


def test_pile_buttons_are_seen_from_each_seat():
    table = simple()
    controls = table.controls
    assert [controls.pile_of(P1, keys.LEFT), controls.pile_of(P1, keys.RIGHT)] == [0, 1]
    assert [controls.pile_of(P2, keys.LEFT), controls.pile_of(P2, keys.RIGHT)] == [1, 0]
    lone = Controls(position(["7H"], ["5C"], ["6S"]))
    assert [lone.pile_of(p, k) for p in (P1, P2) for k in (keys.LEFT, keys.RIGHT)] == [0] * 4


def test_second_card_on_a_pile_loses_the_race_and_goes_back():
    table = simple()
    table.press(P2, keys.C1, t=100)  # 5C for the 6S pile
    table.press(P1, keys.C1, t=150)  # 7H for the same pile
    table.press(P1, keys.LEFT, t=1_000)
    assert table.press(P2, keys.RIGHT, t=1_310) == (LOST_RACE, P2, 0)
    assert table.controls.contest.text() == "P1 by 0.31 ms"
    assert table.controls.hand[P2] == -1
    assert table.game.stock_top(P2, 0) == cards("5C")[0], "the card is back in its slot"


def test_a_race_the_arbiter_called_a_tie_shows_the_rule():
    table = simple()
    table.press(P2, keys.C1)
    table.press(P1, keys.C1)
    table.press(P1, keys.LEFT, t=(1 << 30) - 30, tie=True)
    assert table.press(P2, keys.RIGHT, t=40, tie=True) == (LOST_RACE, P2, 0)
    assert table.controls.contest.text() == "TIE - P1 by rule"
    assert table.controls.contest.margin_us == 70, "measured across the tick wrap"


def test_the_tie_flag_comes_from_the_arbiter_not_the_gap():
    table = simple()
    table.press(P2, keys.C1)
    table.press(P1, keys.C1)
    table.press(P1, keys.LEFT, t=1000)
    assert table.press(P2, keys.RIGHT, t=1040) == (LOST_RACE, P2, 0)
    assert table.controls.contest.text() == "P1 by 0.04 ms"


def test_a_lost_race_in_quick_play_goes_back_and_shows_the_margin():
    # P2's 5C lands on the 6S; P1's 7H fitted only the 6S and arrives 150 µs later.
    table = simple(options="quick=on")
    assert table.press(P2, keys.C1, t=1000) == (PLAYED, P2, 0)
    assert table.press(P1, keys.C1, t=1150) == (LOST_RACE, P1, 0)
    assert table.controls.hand[P1] == -1, "not picked up: back in its slot"
    assert table.game.stock_top(P1, 0) == cards("7H")[0]
    assert table.controls.contest.text() == "P2 by 0.15 ms"


def test_a_quick_play_tie_shows_the_banner():
    table = simple(options="quick=on")
    table.press(P2, keys.C1, t=1000, tie=True)
    assert table.press(P1, keys.C1, t=970, tie=True) == (LOST_RACE, P1, 0)
    assert table.controls.contest.text() == "TIE - P2 by rule"


def test_a_quick_play_long_after_the_landing_just_picks_the_card_up():
    table = simple(options="quick=on")
    table.press(P2, keys.C1, t=0)
    assert table.press(P1, keys.C1, t=600_000) == (PICKED, P1, 0)


def test_a_pile_press_right_after_a_quick_play_is_absorbed():
    table = simple(options="quick=on")
    assert table.press(P2, keys.C1, t=0) == (PLAYED, P2, 0)
    events = len(table.events)
    table.press(P2, keys.LEFT, t=200_000)  # the taught "Cn then L"
    assert len(table.events) == events, "no 'pick a card first'"
    assert table.press(P2, keys.LEFT, t=300_000) == (REFUSED, P2, NO_CARD_IN_HAND)


def test_a_pile_press_long_after_a_quick_play_gets_its_feedback():
    table = simple(options="quick=on")
    table.press(P2, keys.C1, t=0)
    assert table.press(P2, keys.LEFT, t=2_000_000) == (REFUSED, P2, NO_CARD_IN_HAND)


def test_only_cards_landing_on_one_pile_or_two_slaps_are_contested():
    table = simple()
    contested = table.controls.contested
    # Picking up and spit calls race for nothing.
    assert not contested(button(P1, keys.C1), button(P2, keys.C1))
    assert not contested(button(P1, keys.SPIT), button(P2, keys.SPIT))
    table.press(P1, keys.C1)  # 7H in hand
    assert not contested(button(P1, keys.LEFT), button(P2, keys.SPIT))
    assert not contested(button(P1, keys.LEFT), button(P2, keys.C1))
    table.press(P2, keys.C1)  # 5C in hand
    assert contested(button(P1, keys.LEFT), button(P2, keys.RIGHT)), "both onto pile a"
    assert not contested(button(P1, keys.LEFT), button(P2, keys.LEFT)), "a and b"
    quick = simple(options="quick=on")
    # P1's 7H and P2's 5C each fit only the 6S: their card buttons land there.
    assert quick.controls.contested(button(P1, keys.C1), button(P2, keys.C1))
    assert not quick.controls.contested(button(P1, keys.C2), button(P2, keys.C1))
    slap = simple(phase=PHASE_SLAP)
    assert slap.controls.contested(button(P1, keys.LEFT), button(P2, keys.LEFT))
    winner = simple(options="pick=winner", phase=PHASE_SLAP)
    winner.game.cleared = P1
    assert not winner.controls.contested(button(P1, keys.LEFT), button(P2, keys.LEFT))


def test_late_or_unrelated_refusals_are_not_races():
    table = simple()
    table.press(P2, keys.C1)
    table.press(P1, keys.C1)
    table.press(P1, keys.LEFT, t=0)
    assert table.press(P2, keys.RIGHT, t=600_000) == (REFUSED, P2, "doesn't fit")
    table = simple()
    table.press(P2, keys.C2)  # QH never fitted 6S
    table.press(P1, keys.C1)
    table.press(P1, keys.LEFT, t=0)
    assert table.press(P2, keys.RIGHT, t=300) == (REFUSED, P2, "doesn't fit")


def test_spit_needs_both_calls_and_can_be_withdrawn():
    table = simple(packs=(10, 10))
    packs = [len(p) for p in table.game.pack]
    assert table.press(P1, keys.SPIT) == (CALLED, P1, 0)
    assert table.press(P1, keys.SPIT) == (WITHDRAWN, P1, 0)
    table.press(P1, keys.SPIT)
    assert table.press(P2, keys.SPIT) == (SPAT, -1, 2)
    assert [len(p) for p in table.game.pack] == [packs[0] - 1, packs[1] - 1]
    assert table.controls.called == [False, False]


def test_presses_in_the_wrong_phase_are_ignored():
    game = Game(5)
    table = Table(game)
    before = snapshot(game)
    for key in (keys.C1, keys.C3, keys.LEFT, keys.RIGHT):
        table.press(P1, key)
        table.press(P2, key)
    assert table.events == [] and snapshot(game) == before and game.phase == PHASE_READY


def test_first_slap_takes_the_pile_and_the_second_shows_the_margin():
    table = simple(phase=PHASE_SLAP)
    sizes = [len(pile) for pile in table.game.middle]
    assert table.press(P2, keys.RIGHT, t=5_000) == (SLAPPED, P2, 0)
    assert table.game.last_round.slapper == P2
    assert table.game.last_round.took[P2] == sizes[0]
    assert table.press(P1, keys.LEFT, t=5_300) == (SLAP_MARGIN, P1, 0)
    assert table.controls.contest.text() == "P2 by 0.30 ms"
    assert table.game.phase == PHASE_READY
    table.press(P1, keys.SPIT)
    table.press(P2, keys.SPIT)
    assert table.game.phase == PHASE_PLAY
    assert table.controls.contest.text() == "", "the banner clears with the next round"


def test_winner_picks_refuses_the_other_players_slap():
    table = simple(options="pick=winner", phase=PHASE_SLAP)
    table.game.cleared = P1
    assert table.press(P2, keys.LEFT) == (REFUSED, P2, "winner picks")
    assert table.press(P1, keys.RIGHT) == (SLAPPED, P1, 1)


def test_auto_spit_after_everybody_is_stuck():
    table = Table(position(["KH"], ["KC"], ["6S", "8D"], options="spit=auto", packs=(5, 5)))
    table.press(P1, keys.C1, t=0)
    table.press(P1, keys.C2, t=10)  # an empty slot: a pointless move, but it notes the stall
    assert table.game.is_stuck()
    table.controls.update(999_000)
    assert table.game.spits == 0
    table.controls.update(1_000_010)
    assert table.events[-1] == (SPAT, -1, 2) and table.game.phase == PHASE_PLAY


def test_the_stall_is_timed_from_the_press_that_made_it_though_worked_out_later():
    table = Table(position(["KH"], ["KC"], ["6S", "8D"], options="spit=auto", packs=(5, 5)))
    table.press(P1, keys.C1, t=0)
    table.press(P1, keys.C2, t=10)  # the press that leaves everybody stuck
    table.controls.update(500_000)  # first look at the table, half a second later
    table.controls.update(1_000_009)
    assert table.game.spits == 0
    table.controls.update(1_000_010)
    assert table.game.spits == 1, "a second after the press, not after the look"


def test_a_lost_race_leaves_its_banner_to_the_next_update():
    table = simple(options="quick=on")
    table.press(P2, keys.C1, t=1000)
    changes = table.controls.changes
    assert table.press(P1, keys.C1, t=1150) == (LOST_RACE, P1, 0)
    contest = table.controls.contest
    assert (contest.winner, contest.margin_us, contest.unsettled) == (P2, 150, True)
    assert table.controls.update(2000), "first, whether P2's play left anybody stuck"
    assert contest.unsettled and contest.banner_len == 0
    table.controls.update(2000)
    assert bytes(contest.banner[: contest.banner_len]) == b"P2 by 0.15 ms"
    assert not contest.unsettled
    assert table.controls.changes == changes + 2, "the lost race, then its banner"


def test_slap_time_limit_settles_the_round():
    stalled = simple(phase=PHASE_SLAP)
    sizes = [len(pile) for pile in stalled.game.middle]
    stalled.controls.update(9_999_999)
    assert stalled.game.phase == PHASE_SLAP
    stalled.controls.update(10_000_000)
    assert stalled.events[-1] == (SLAPPED, -1, 0)
    assert stalled.game.last_round.took == sizes, "after a stall each takes their own pile"
    cleared = simple(phase=PHASE_SLAP, packs=(10, 10))
    cleared.game.cleared = P2
    sizes = [len(pile) for pile in cleared.game.middle]
    cleared.controls.update(10_000_000)
    assert sizes[1] < sizes[0]
    assert cleared.game.last_round.took[P2] == sizes[1], "the one out gets the smaller pile"


@pytest.mark.parametrize(
    "us, text",
    [
        (0, "0.00 ms"),
        (310, "0.31 ms"),
        (9_999, "9.99 ms"),
        (12_345, "12.3 ms"),
        (150_000, "150 ms"),
        ((1 << 30) - 1, "1073741 ms"),
    ],
)
def test_margins_read_in_milliseconds(us, text):
    contest = Contest(None)
    contest.set(1, -us, False)
    assert contest.text() == "P2 by " + text
    assert bytes(contest.banner[: contest.banner_len]).decode() == contest.text()
    assert set(contest.banner[: contest.banner_len]) <= set(CODED), "the screen lays it out"


def test_a_tie_banner_names_the_rule_in_characters_the_screen_lays_out():
    contest = Contest(None)
    contest.set(0, 40, True)
    assert contest.text() == "TIE - P1 by rule"
    assert set(contest.banner[: contest.banner_len]) <= set(CODED)


_BANNER_LOCKED = """
import micropython
from spit.contest import Contest
contest = Contest(None)
out = []
for winner, us, tie in ((0, 310, False), (1, 12_345, False), (0, 150_000, False), (1, 70, True)):
    contest.note(winner, us, tie)
    micropython.heap_lock()
    contest.settle()
    micropython.heap_unlock()
    out.append(bytes(contest.banner[: contest.banner_len]).decode())
print("|".join(out))
"""


def test_the_banner_is_written_without_allocating_on_micropython(mpvm):
    expected = "P1 by 0.31 ms|P2 by 12.3 ms|P1 by 150 ms|TIE - P2 by rule"
    assert mpvm(_BANNER_LOCKED).strip() == expected


def test_a_players_buttons_never_touch_the_other_players_cards():
    rng = Rng(2024)
    for seed in range(20):
        game = Game(seed)
        controls = Controls(game)
        controls.press(button(P1, keys.SPIT), 0)
        controls.press(button(P2, keys.SPIT), 0)
        for t in range(400):
            theirs = copy.deepcopy(game.stock[P2])
            phase = game.phase
            controls.press(button(P1, rng.below(keys.KEYS_PER_PLAYER)), t * 1000)
            if phase == PHASE_PLAY and game.phase == PHASE_PLAY:
                assert game.stock[P2] == theirs
            assert game.card_count() == 52


def test_the_device_counts_down_before_a_round_opens():
    table = Table(Game(5))
    table.controls.countdown_us = 3_000_000
    table.press(P1, keys.SPIT, t=100)
    table.press(P2, keys.SPIT, t=500)
    assert table.controls.counting and table.game.phase == PHASE_READY
    table.press(P1, keys.SPIT, t=900)  # no withdrawing now
    assert table.controls.called == [True, True]
    table.controls.update(3_000_499)
    assert table.game.phase == PHASE_READY
    assert table.controls.countdown_left(2_000_500) == 1_000_000
    table.controls.update(3_000_500)
    assert table.game.phase == PHASE_PLAY and not table.controls.counting
    assert table.events[-1] == (SPAT, -1, 2)
    assert table.controls.times[-1] == 3_000_500, "the round opens when the count ends"
    assert table.controls.called == [False, False]
