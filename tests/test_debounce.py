"""Debounce: one press per touch, whatever the contacts do, and nothing from held buttons."""

import random

from drivers.buttons import IrqButtons
from drivers.debounce import RELEASE_US, Debouncer
from helpers.press_strategies import presses_per_button
from helpers.same_on_cpython import run_on_cpython
from hypothesis import given
from hypothesis import strategies as st
from machine import Pin
from spit.ticks import TICKS_PERIOD

from host_sim.bench.input_model import DelayedDelivery, InputSim


class Rig:
    """16 fake pins, the IRQ backend and a debouncer on a clock the test moves."""

    def __init__(self, held=(), origin=0, release_us=RELEASE_US):
        self.origin = origin
        self.time = 0
        self.pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(16)]
        for button in held:
            self.pins[button].press()
        self.buttons = IrqButtons(self.pins, self.clock)
        self.presses = []
        self.debouncer = Debouncer(
            self.buttons, lambda b, t: self.presses.append((b, t)), self.clock(), release_us
        )

    def clock(self):
        return (self.origin + self.time) % TICKS_PERIOD

    def at(self, time):
        self.time = time
        return self

    def press(self, button):
        self.pins[button].press()

    def release(self, button):
        self.pins[button].release()

    def update(self):
        self.debouncer.update(self.clock())

    def run_until(self, end, step=1000):
        while self.time < end:
            self.at(self.time + step).update()


def test_first_edge_is_the_press_and_its_bounce_is_ignored():
    rig = Rig()
    rig.at(1000).press(3)
    rig.at(1040).release(3)  # 5 ms of bounce: open, close, open, close
    rig.at(1300).press(3)
    rig.at(2500).release(3)
    rig.at(5900).press(3)
    rig.run_until(40_000)
    assert rig.presses == [(3, 1000)]


def test_release_bounce_makes_no_press():
    rig = Rig()
    rig.at(1000).press(3)
    rig.run_until(30_000)
    rig.at(30_000).release(3)
    rig.at(30_100).press(3)  # the contact closes again twice while opening
    rig.at(30_400).release(3)
    rig.at(33_000).press(3)
    rig.at(36_000).release(3)
    rig.run_until(80_000)
    assert rig.presses == [(3, 1000)]


def test_held_button_never_repeats():
    rig = Rig()
    rig.at(500).press(9)
    rig.run_until(2_000_000, step=5000)
    assert rig.presses == [(9, 500)]


def test_press_after_the_quiet_time_counts_again():
    rig = Rig()
    rig.at(1000).press(0)
    rig.at(20_000).update()
    rig.at(21_000).release(0)
    rig.at(22_000).run_until(40_000)
    rig.at(41_000).press(0)
    rig.at(42_000).update()
    assert rig.presses == [(0, 1000), (0, 41_000)]


def test_edge_before_the_quiet_time_is_over_is_bounce():
    rig = Rig()
    rig.at(1000).press(0)
    rig.at(5000).release(0)
    rig.update()
    rig.at(5000 + RELEASE_US - 1000).update()
    rig.at(5000 + RELEASE_US - 500).press(0)
    rig.run_until(60_000)
    assert rig.presses == [(0, 1000)]


def test_release_time_is_settable():
    rig = Rig(release_us=2000)
    assert rig.debouncer.release_us == 2000
    rig.at(1000).press(0)
    rig.at(1500).release(0)
    rig.at(2000).update()
    rig.at(4000).update()
    rig.at(4100).press(0)
    rig.update()
    assert rig.presses == [(0, 1000), (0, 4100)]


def test_buttons_are_independent():
    rig = Rig()
    rig.at(1000).press(1)
    rig.at(1001).press(9)
    rig.at(1200).release(1)
    rig.at(1300).press(1)
    rig.at(1400).press(2)
    rig.run_until(20_000)
    assert rig.presses == [(1, 1000), (9, 1001), (2, 1400)]


def test_disarmed_buttons_of_both_players_re_arm_each_on_its_own_quiet_time():
    rig = Rig()
    both_ends = (15, 0, 8, 7)  # each player's lowest and highest button
    for button in both_ends:
        rig.press(button)
    rig.run_until(3_000)
    rig.release(0)
    rig.release(15)
    rig.run_until(9_000)
    rig.release(8)  # 8 and 7 were held longer
    rig.run_until(12_000)
    rig.release(7)
    rig.run_until(16_000)
    for button in both_ends:
        rig.press(button)
    rig.run_until(17_000)
    assert [b for b, _ in rig.presses] == [15, 0, 8, 7, 15, 0], "8 and 7 not quiet long enough"
    for button in (8, 7):
        rig.release(button)
    rig.run_until(40_000)
    for button in (8, 7):
        rig.press(button)
    rig.run_until(41_000)
    assert [b for b, _ in rig.presses][-2:] == [8, 7]


def test_button_held_at_power_on_is_reported_and_ignored_until_released():
    rig = Rig(held=(7, 12))
    assert rig.debouncer.held_since_start == (1 << 7) | (1 << 12)
    assert not rig.debouncer.is_armed(7)
    rig.at(5000).release(7)  # release bounce: a falling edge, still no press
    rig.at(5200).press(7)
    rig.at(5400).release(7)
    rig.run_until(30_000)
    assert rig.presses == []
    assert rig.debouncer.held_since_start == 1 << 12
    rig.at(31_000).press(7)
    rig.update()
    assert rig.presses == [(7, 31_000)]
    assert rig.debouncer.held_since_start == 1 << 12


def test_edges_are_drained_before_levels_decide_re_arming():
    # A bounce edge waiting in the ring while its pin reads released again must restart
    # the quiet time; reading the levels first would re-arm and take it as a press.
    rig = Rig()
    rig.at(1000).press(4)
    rig.at(2000).release(4)
    rig.at(3000).update()  # quiet since 3000
    rig.at(3100).press(4)
    rig.at(3150).release(4)  # edge waits in the ring, level reads released
    rig.at(3000 + RELEASE_US).update()  # drains the edge first: quiet restarts
    assert not rig.debouncer.is_armed(4)
    rig.at(3000 + RELEASE_US + 10).press(4)
    rig.update()
    assert rig.presses == [(4, 1000)]


def test_quiet_time_spans_the_tick_wrap():
    rig = Rig(origin=TICKS_PERIOD - 15_000)
    rig.at(1000).press(5)
    rig.at(2000).release(5)
    rig.run_until(30_000)  # re-arms across the wrap at 15 ms
    rig.at(31_000).press(5)
    rig.update()
    assert [b for b, _ in rig.presses] == [5, 5]
    assert rig.presses[1][1] == 31_000 - 15_000


@given(
    presses_per_button(st.lists(st.integers(0, 15), min_size=1, max_size=4, unique=True)),
    st.integers(0, TICKS_PERIOD - 1),
    st.integers(0, 2**32),
)
def test_every_touch_is_one_press_at_its_first_edge(per_button, origin, seed):
    presses = [p for presses in per_button for p in presses]
    rng = random.Random(seed)
    sim = InputSim(DelayedDelivery(rng, 0), origin=origin, rng=rng, loop_us=(200, 10_000))
    sim.run(presses)
    for button_presses in per_button:
        button = button_presses[0].button
        committed = [stamp for b, stamp, _, _ in sim.committed if b == button]
        assert committed == [p.at for p in button_presses]


VM_DEBOUNCE = """
from drivers.debounce import Debouncer

class Source:
    def __init__(self):
        self.edges = []
        self.mask = HELD
    def drain(self, consumer):
        edges, self.edges = self.edges, []
        for button, t in edges:
            consumer(button, t)
    def pressed_mask(self):
        return self.mask

source = Source()
presses = []
debouncer = Debouncer(source, lambda b, t: presses.append((b, t)), ORIGIN, 2000)
for kind, a, b in STEPS:
    if kind == 0:
        source.edges.append((a, b))
        source.mask |= 1 << a
    elif kind == 1:
        source.mask &= ~(1 << a)
    else:
        debouncer.update(a)
print(repr(presses))
print(debouncer.held_since_start)
"""


def test_vm_debounces_exactly_what_cpython_debounces(mpvm):
    rng = random.Random(11)
    origin = TICKS_PERIOD - 30_000
    steps = []
    for time in range(0, 80_000, 250):
        now = (origin + time) % TICKS_PERIOD
        button = rng.randrange(4)
        roll = rng.random()
        if roll < 0.2:
            steps.append((0, button, now))  # a falling edge, the pin reads pressed
        elif roll < 0.5:
            steps.append((1, button, 0))  # the pin reads released
        if time % 1000 == 0:
            steps.append((2, now, 0))
    code = "HELD = %d\nORIGIN = %d\nSTEPS = %r\n%s" % (1 << 2, origin, steps, VM_DEBOUNCE)
    host = run_on_cpython(code)
    assert host.count(",") > 10  # some presses got through
    assert mpvm(code) == host
