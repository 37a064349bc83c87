"""Input figures for ``make bench`` (SPEC 11): the hard IRQ handler, settle delay, ordering.

``figures()`` returns:

- ``isr_allocations``: bytes allocated by 20,000 calls of the real hard IRQ handler of
  ``drivers.buttons`` on the MicroPython VM (run under ``heap_lock``, where any allocation
  would raise instead); 0 means it allocates nothing.
- ``isr_handler_us``: mean time of one handler call on the VM, over 20,000 calls (the
  VM's clock ticks in whole ms, hence the count), loop overhead removed, best of five
  rounds. The VM runs on the host's CPU; on the RP2040 the handler is slower, and its
  latency from the edge is SPEC 4's ~31 µs.
- ``settle_us``: the arbiter's settle window, the wait before a press commits. The
  simulated runs check that no press commits sooner (a press tied with an earlier one
  commits with it, up to the tie window sooner) and report the longest wait seen in
  ``settle_observed_max_us``: settle plus the main loop's period (here up to 5 ms).
- ``min_ordered_gap_us`` (a model figure): the smallest gap between two players' presses
  that the pin-IRQ capture always stamps apart in the right order, from a sweep over gaps
  on ``input_model.DeviceIrq``'s model of the rp2 port's interrupts (0-50 µs of jitter,
  groups of eight GPIO read once per entry) with random bounce and a third button
  bouncing on release. Closer presses may share a stamp (one snapshot saw both); the tie
  window (``tie_us``) must be at least this figure so that every such pair is a tie
  settled by the fair rule, never given to the wrong player. The emulated RP2040
  measures the same thing on the real firmware (``emu_min_ordered_gap_us``).
"""

import random

from spit import keys
from spit.arbiter import SETTLE_US, TIE_US, Arbiter

from host_sim.bench.input_model import MAX_BOUNCE_US, DelayedDelivery, DeviceIrq, InputSim, Press
from host_sim.vm.machine_module import VM_MACHINE

ISR_CALLS = 20_000
TIMING_ROUNDS = 5
JITTER_US = 10  # 6 µs measured on the emulated RP2040 (SPEC 4), rounded up
SWEEP_MAX_GAP_US = 200
SWEEP_TRIALS = 60
HOLD_US = 30_000

_VM_ISR = """
import gc, micropython, time
import machine
from drivers.buttons import IrqButtons

pins = [machine.Pin(b) for b in range(16)]
buttons = IrqButtons(pins, time.ticks_us, %(calls)d)
handler = pins[9].handler
pin = pins[9]
machine.gpio_in[0] = 0x3FFFFFFF & ~(1 << 9)

def drop(button, t):
    pass

def call_handler(n):
    while n:
        handler(pin)
        n -= 1

def empty_loop(n):
    while n:
        n -= 1

def allocated(n):
    gc.collect()
    before = gc.mem_alloc()
    micropython.heap_lock()
    try:
        call_handler(n)
    finally:
        micropython.heap_unlock()
    return gc.mem_alloc() - before

def elapsed_us(function, n):
    start = time.ticks_us()
    function(n)
    return time.ticks_diff(time.ticks_us(), start)

print(allocated(%(calls)d), buttons.overflows)
best = None
for _ in range(%(rounds)d):
    buttons.drain(drop)
    spent = elapsed_us(call_handler, %(calls)d) - elapsed_us(empty_loop, %(calls)d)
    best = spent if best is None else min(best, spent)
print(best)
"""


def vm_isr_figures():
    """``(bytes allocated by ISR_CALLS calls, mean µs per call)`` on the MicroPython VM.

    The time is the best of ``TIMING_ROUNDS`` rounds, each ISR_CALLS calls less as many
    turns of an empty loop, so a busy host shows less in it.
    """
    from host_sim.vm.micropython_vm import run

    allocated, overflows, best_us = run(
        _VM_ISR % {"calls": ISR_CALLS, "rounds": TIMING_ROUNDS}, files=VM_MACHINE
    ).split()
    assert overflows == "0"
    return int(allocated), int(best_us) / ISR_CALLS


def settle_delays(runs=40, seed=1):
    """Longest and shortest commit wait seen for untied presses in simulated play."""
    rng = random.Random(seed)
    longest, shortest = 0, None
    for _ in range(runs):
        buttons = rng.sample(range(16), 4)
        presses = [Press(button, rng.randrange(200_000), HOLD_US) for button in buttons]
        sim = InputSim(DelayedDelivery(rng, SETTLE_US - TIE_US), rng=rng)
        for _, stamp, tie, committed_at in sim.run(presses):
            if not tie:
                waited = committed_at - stamp
                longest = max(longest, waited)
                shortest = waited if shortest is None else min(shortest, waited)
    return longest, shortest


class WorstCaseIrq(DeviceIrq):
    """SPEC 4's timing with the jitter at one of its ends two times in three, so that a
    short sweep meets the worst case."""

    def jitter(self):
        return self.rng.choice((0, self.jitter_us, super().jitter()))


def misordered(gap_us, trials, rng, jitter_us=JITTER_US):
    """How many of ``trials`` press pairs ``gap_us`` apart were not stamped apart in the right
    order: player 1's and player 2's pile buttons, either one first, half the time while
    player 1's C1 bounces on release (an edge every 50 µs), the case that once pushed a
    stamp 113 µs late."""
    wrong = 0
    for trial in range(trials):
        pair = [keys.button_id(0, rng.choice(_PILES)), keys.button_id(1, rng.choice(_PILES))]
        if trial % 2:
            pair.reverse()
        presses = [
            Press(pair[0], 1000, HOLD_US, _bounce(rng)),
            Press(pair[1], 1000 + gap_us, HOLD_US, _bounce(rng)),
        ]
        if trial % 4 >= 2:
            release = 1000 - rng.randrange(300)
            presses.append(Press(keys.C1, release - 5000, 5000, (), _RELEASE_BOUNCE))
        sim = InputSim(
            WorstCaseIrq(rng, jitter_us), rng=rng, arbiter=Arbiter(tie_us=0), loop_us=(2000, 5000)
        )
        stamps = {button: stamp for button, stamp, _, _ in sim.run(presses)}
        if not stamps[pair[0]] < stamps[pair[1]]:
            wrong += 1
    return wrong


_PILES = (keys.LEFT, keys.RIGHT)
_RELEASE_BOUNCE = tuple(range(50, 650, 50))


def _bounce(rng):
    return sorted(rng.sample(range(1, MAX_BOUNCE_US), rng.choice([0, 2, 4, 6])))


def min_ordered_gap(max_gap_us=SWEEP_MAX_GAP_US, trials=SWEEP_TRIALS, seed=2):
    """One more than the largest swept gap at which any pair was not stamped apart in order."""
    rng = random.Random(seed)
    largest_wrong = -1
    for gap in range(max_gap_us + 1):
        if misordered(gap, trials, rng):
            largest_wrong = gap
    assert largest_wrong < max_gap_us, "the sweep must reach gaps that are always right"
    return largest_wrong + 1


def figures():
    allocated, handler_us = vm_isr_figures()
    longest, shortest = settle_delays()
    assert shortest >= SETTLE_US, "a press committed before the settle window"
    return {
        "isr_allocations": allocated,
        "isr_handler_us": round(handler_us, 3),
        "settle_us": SETTLE_US,
        "settle_observed_max_us": longest,
        "min_ordered_gap_us": min_ordered_gap(),
        "tie_us": TIE_US,
    }
