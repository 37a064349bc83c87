"""Tie-window calibration statistics from given press pairs."""

import random

import pytest
from spit.calibration import CAPACITY, MIN_PAIRS, TOGETHER_US, Calibration
from spit.savedata import TIE_MAX_US, TIE_MIN_US
from spit.ticks import TICKS_PERIOD, ticks_add


def filled(diffs):
    calibration = Calibration()
    for diff in diffs:
        assert calibration.add(diff)
    return calibration


def test_pairs_are_made_from_each_players_press():
    calibration = Calibration()
    assert calibration.press(0, 1_000) is None
    assert calibration.press(1, 1_040) == 40
    assert calibration.press(1, 5_000) is None
    assert calibration.press(0, 4_970) == 30  # player 2 first: player 2 minus player 1
    assert calibration.press(0, 9_000) is None
    assert calibration.press(0, 9_500) is None  # pressed twice: the later press waits
    assert calibration.press(1, 9_480) == -20
    assert calibration.count == 3


def test_pairs_across_the_tick_wrap():
    calibration = Calibration()
    calibration.press(1, TICKS_PERIOD - 10)
    assert calibration.press(0, ticks_add(TICKS_PERIOD - 10, 25)) == -25


def test_presses_too_far_apart_are_not_a_pair():
    calibration = Calibration()
    calibration.press(0, 0)
    assert calibration.press(1, TOGETHER_US + 1) is None
    assert (calibration.count, calibration.rejected) == (0, 1)
    assert calibration.press(0, 100_000) is None  # a fresh start after a rejected pair
    assert calibration.press(1, 100_000 + TOGETHER_US) == TOGETHER_US


def test_nearest_rank_percentiles():
    calibration = filled(range(1, 1001))
    assert calibration.percentile_us(999) == 999
    assert calibration.percentile_us(500) == 500
    assert calibration.percentile_us(1000) == 1000
    assert calibration.percentile_us(1) == 1
    # Under a thousand pairs the 99.9th percentile is the largest difference seen.
    assert filled([-70, 5, 12, 3]).percentile_us(999) == 70
    assert Calibration().percentile_us(999) == 0


def test_no_proposal_before_enough_pairs():
    calibration = filled([10] * (MIN_PAIRS - 1))
    assert calibration.proposal() == 0
    calibration.add(-10)
    assert calibration.proposal() == 30  # 10 * 5/4 + 10 = 22.5, up to 30


def test_proposal_is_the_tail_plus_margin_rounded_up():
    # Mostly within 30 µs, one pair in a thousand at 56 µs (like two pins pending
    # together, served lower GPIO first).
    diffs = [(i * 7) % 61 - 30 for i in range(999)] + [56]
    calibration = filled(diffs)
    assert calibration.percentile_us(999) == 30
    assert calibration.proposal() == 50  # 30 * 5/4 + 10 = 47.5, up to 50
    calibration.add(56)  # a second 56 in 1001 pairs: overwrites the oldest
    assert calibration.count == CAPACITY
    assert calibration.percentile_us(999) == 56
    assert calibration.proposal() == 80  # 70 + 10


def test_proposal_stays_within_the_limits():
    assert filled([0] * MIN_PAIRS).proposal() == TIE_MIN_US
    assert filled([12_000, -9_000] * MIN_PAIRS).proposal() == TIE_MAX_US


def test_the_buffer_keeps_the_latest_pairs():
    calibration = Calibration(capacity=4)
    for diff in (900, 800, 1, 2, 3, 4):
        calibration.add(diff)
    assert calibration.count == 4
    assert calibration.percentile_us(1000) == 4


def test_histogram_bins_and_overflow_bin():
    calibration = filled([0, 9, -10, 19, 25, -31, 400, -1000])
    counts = calibration.histogram([7] * 4, 10)
    assert counts == [2, 2, 1, 3]


def test_histogram_fills_the_callers_bins_in_place():
    from array import array

    bins = array("H", [0] * 8)
    calibration = filled([3, -3, 17])
    assert calibration.histogram(bins, 5) is bins
    assert list(bins) == [2, 0, 0, 1, 0, 0, 0, 0]


def test_bias_shows_which_side_is_stamped_later():
    assert filled([50, 60, 40]).bias_us() == 50
    assert filled([-56, -56, 0]).bias_us() == -38
    assert Calibration().bias_us() == 0


@pytest.mark.parametrize("seed", range(5))
def test_statistics_match_a_sorted_list(seed):
    rng = random.Random(seed)
    diffs = [round(rng.gauss(0, 20)) for _ in range(rng.randrange(MIN_PAIRS, CAPACITY))]
    calibration = filled(diffs)
    ordered = sorted(abs(d) for d in diffs)
    rank = -(-999 * len(diffs) // 1000)
    assert calibration.percentile_us(999) == ordered[rank - 1]
    assert sum(calibration.histogram([0] * 6, 10)) == len(diffs)
    proposal = calibration.proposal()
    assert proposal % 10 == 0
    assert proposal >= ordered[rank - 1] * 5 / 4 + 10
    assert proposal - 10 < ordered[rank - 1] * 5 / 4 + 10 or proposal == TIE_MIN_US


VM_CALIBRATION = """
from spit.calibration import Calibration
c = Calibration()
for i in range(999):
    c.add((i * 7) % 61 - 30)
c.add(56)
print(c.count, c.percentile_us(999), c.proposal(), c.histogram([0] * 4, 10), c.bias_us())
"""


def test_same_statistics_on_micropython(mpvm):
    calibration = Calibration()
    for i in range(999):
        calibration.add((i * 7) % 61 - 30)
    calibration.add(56)
    line = "%d %d %d %s %d\n" % (
        calibration.count,
        calibration.percentile_us(999),
        calibration.proposal(),
        calibration.histogram([0] * 4, 10),
        calibration.bias_us(),
    )
    assert mpvm(VM_CALIBRATION) == line
