"""The whole input path on bouncing fake pins: capture, debounce, arbiter, in simulated time."""

import random

from helpers.press_strategies import presses_per_button
from hypothesis import given
from hypothesis import strategies as st
from spit import keys
from spit.arbiter import SETTLE_US, TIE_US
from spit.keys import player_of
from spit.ticks import TICKS_PERIOD

from host_sim.bench import input_path as bench_input
from host_sim.bench.input_model import DelayedDelivery, DeviceIrq, InputSim, Press

# Buttons of both players, so that presses of different players land close together.
BOTH_PLAYERS = st.lists(st.integers(0, 15), min_size=2, max_size=6, unique=True).filter(
    lambda buttons: len({player_of(b) for b in buttons}) == 2
)


def play(per_button, origin, seed, max_delay_us=SETTLE_US - TIE_US, ring_size=64):
    rng = random.Random(seed)
    sim = InputSim(DelayedDelivery(rng, max_delay_us), origin=origin, rng=rng, ring_size=ring_size)
    presses = sorted((p for presses in per_button for p in presses), key=lambda p: p.at)
    return sim, presses, sim.run(presses)


def assert_true_order(presses, committed):
    """Each press committed once at its first edge; far pairs and each player in order."""
    assert sorted((b, t) for b, t, _, _ in committed) == sorted((p.button, p.at) for p in presses)
    for i, (a, ta, _, _) in enumerate(committed):
        for b, tb, _, _ in committed[i + 1 :]:
            if player_of(a) == player_of(b) or abs(ta - tb) >= TIE_US:
                assert ta <= tb, (a, ta, b, tb)


@given(presses_per_button(BOTH_PLAYERS, start_within_us=3000), st.integers(0, 2**32))
def test_bouncing_presses_commit_once_each_in_true_order(per_button, seed):
    sim, presses, committed = play(per_button, random.Random(seed).randrange(TICKS_PERIOD), seed)
    assert_true_order(presses, committed)
    assert sim.buttons.overflows == 0 and sim.arbiter.overflows == 0
    assert sim.arbiter.late == 0


@given(
    presses_per_button(BOTH_PLAYERS, start_within_us=3000),
    st.integers(0, 2**32),
    st.integers(1, 8000),
)
def test_the_same_a_few_ms_before_the_tick_wrap(per_button, seed, before_wrap_us):
    sim, presses, committed = play(per_button, TICKS_PERIOD - before_wrap_us, seed)
    assert_true_order(presses, committed)
    assert sim.arbiter.late == 0


def test_a_full_ring_counts_overflows_and_input_goes_on():
    rng = random.Random(4)
    bounce = list(range(100, 5000, 100))[:40]
    presses = [Press(b, 1000 + 10 * b, 20_000, bounce) for b in range(16)]
    sim = InputSim(DelayedDelivery(rng, 0), rng=rng, ring_size=8, loop_us=(8000, 8000))
    sim.run(presses + [Press(3, 200_000, 20_000)])
    assert sim.buttons.overflows > 0
    assert (3, 200_000) in [(b, t) for b, t, _, _ in sim.committed]


PILE_KEYS = st.sampled_from((keys.LEFT, keys.RIGHT))
def _offsets(steps):
    """Bounce offsets from the steps between the contact's changes, an even count."""
    offsets = [sum(steps[: i + 1]) for i in range(len(steps))]
    return offsets[: len(offsets) // 2 * 2]


# A racing button's bounce: changes 1-40 µs apart, each open spell shorter than one
# interrupt handler (the pin-IRQ path's limit: docs/architecture.md, "Who was first").
SHORT_BOUNCE = st.lists(st.integers(1, 40), max_size=6).map(_offsets)


@given(
    PILE_KEYS,
    PILE_KEYS,
    st.integers(0, 250),
    st.booleans(),
    SHORT_BOUNCE,
    SHORT_BOUNCE,
    st.sampled_from((None, 30, 50, 80)),
    st.integers(-400, 100),
    st.integers(0, 2**32),
)
def test_irq_capture_never_gives_a_race_to_the_wrong_player(
    p1_key, p2_key, gap_us, p2_first, bounce1, bounce2, third_period_us, third_at, seed
):
    # Both players' pile buttons, either first, with the rp2 port's group-by-group
    # interrupt service; often player 1's C1 is let go at the same moment and its
    # release bounces (a falling edge every period), the case that once stamped a press
    # 113 µs late and named the wrong winner.
    rng = random.Random(seed)
    buttons = [keys.button_id(0, p1_key), keys.button_id(1, p2_key)]
    if p2_first:
        buttons.reverse()
    first, second = buttons
    presses = [Press(first, 1000, 30_000, bounce1), Press(second, 1000 + gap_us, 30_000, bounce2)]
    if third_period_us is not None:
        train = tuple(range(third_period_us, 12 * third_period_us, third_period_us))
        presses.append(Press(keys.C1, 1000 + third_at - 20_000, 20_000, (), train))
    sim = InputSim(DeviceIrq(rng), rng=rng)
    committed = [c for c in sim.run(presses) if c[0] in buttons]
    assert [b for b, _, _, _ in committed] in ([first, second], [second, first])
    stamps = {b: stamp for b, stamp, _, _ in committed}
    # A bounce can hide the first press from a snapshot, but never for long enough that
    # the later press is stamped a whole tie window before it.
    assert stamps[first] - stamps[second] < TIE_US
    (winner, _, winner_tie, _), (_, _, loser_tie, _) = committed
    if winner != first:
        assert winner_tie and loser_tie, "only a tie may go to the later press"
    # Stamps are late by the entry latency, jitter and at worst one handler in front,
    # and the first press by as much as its bounce when that hides its first edge.
    hidden_us = bounce1[-1] if bounce1 else 0
    if gap_us >= TIE_US + DeviceIrq.HANDLER_US + sim.delivery.jitter_us + hidden_us:
        assert winner == first and not winner_tie


def test_min_ordered_gap_is_within_the_tie_window():
    gap = bench_input.min_ordered_gap(max_gap_us=120, trials=25)
    assert DeviceIrq.ENTRY_US < gap <= TIE_US


def test_a_bouncing_release_beside_the_race_never_names_the_wrong_winner():
    # The measured failure: player 1 lets go of C1 (its release bounces, an edge every
    # 50 µs) while hitting L, and player 2 hits L within 0-150 µs.
    p1, p2 = keys.button_id(0, keys.LEFT), keys.button_id(1, keys.LEFT)
    train = tuple(range(50, 600, 50))
    for seed in range(400):
        rng = random.Random(seed)
        gap_us = rng.randint(0, 150)
        release = 1000 + rng.randint(-400, 100)
        presses = [
            Press(p1, 1000, 30_000),
            Press(p2, 1000 + gap_us, 30_000),
            Press(keys.C1, release - 20_000, 20_000, (), train),
        ]
        committed = [c for c in InputSim(DeviceIrq(rng), rng=rng).run(presses) if c[0] != keys.C1]
        stamps = {b: stamp for b, stamp, _, _ in committed}
        assert stamps[p1] - stamps[p2] < TIE_US, seed
        winner, _, tie, _ = committed[0]
        assert winner == p1 or tie, seed
