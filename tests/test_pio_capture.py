"""The PIO capture program and its driver, run on a cycle-counting model of the PIO."""

import importlib
import random
import sys

from helpers import pio_emulator
from machine import Pin

SYS_HZ = 125_000_000
ORIGIN_US = 1 << 29
RELEASED = 0xFFFF
NOISE = 0xABCD0000  # GPIO 16-31 (display, buzzer) are busy; the capture must ignore them


class Inputs:
    """GPIO levels over cycles: ``change(cycle, pressed_mask)`` from that cycle on."""

    def __init__(self, noise=True):
        self.changes = [(0, 0)]
        self.noise = noise

    def change(self, cycle, pressed):
        assert cycle > self.changes[-1][0]
        self.changes.append((cycle, pressed))

    def __call__(self, cycle):
        pressed = 0
        for at, mask in self.changes:
            if at > cycle:
                break
            pressed = mask
        high = (NOISE ^ (cycle * 0x9E3779B1)) & 0xFFFF0000 if self.noise else 0xFFFF0000
        return high | (~pressed & 0xFFFF)


def start(rp2, inputs, ring_size=64):
    rp2.levels = inputs
    capture = importlib.import_module("drivers.pio_capture")
    buttons = capture.PioButtons(Pin(0), lambda: ORIGIN_US, SYS_HZ, ring_size=ring_size)
    return buttons, rp2.machines[-1].machine


def pc_of(machine, text):
    """Where the instruction ``text`` is (a jmp written with target 0 matches any target)."""
    word = pio_emulator.encode(text)
    jump = word >> 13 == 0
    return next(i for i, w in enumerate(machine.code) if (w & ~0x1F if jump else w) == word)


def sample_cycles(machine):
    return machine.pc_cycles[pc_of(machine, "in_(pins, 16)")]


def expected_stamp(machine, change_cycle):
    """The stamp of the first sample at or after ``change_cycle``, counted from the first."""
    samples = sample_cycles(machine)
    seen = next(c for c in samples if c >= change_cycle)
    return ORIGIN_US + (seen - samples[0]) // 125  # 125 cycles per µs


def drained(buttons):
    out = []
    buttons.drain(lambda b, t: out.append((b, t)))
    return out


def test_program_fits_and_status_tests_rx_room_for_a_pair(rp2):
    capture = importlib.import_module("drivers.pio_capture")
    program = capture.change_capture
    assert len(program) == pio_emulator.PROG_FIELDS
    assert len(program[pio_emulator.PROG_DATA]) <= 32
    assert capture.execctrl_index(program) == pio_emulator.PROG_EXECCTRL
    assert program[pio_emulator.PROG_EXECCTRL] & 0x1F == 1 << 4 | 7  # RP2040: RX level < 7
    assert program[pio_emulator.PROG_SHIFTCTRL] >> 30 == 2, "the RX FIFO joined, 8 words"


def test_execctrl_follows_the_layout_of_the_running_micropython(rp2):
    capture = importlib.import_module("drivers.pio_capture")
    up_to_1_25 = [[], -1, -1, 0, 0, None, None, None]
    assert capture.execctrl_index(up_to_1_25) == 3
    assert capture.execctrl_index(capture.change_capture) == 4


def test_every_path_takes_twelve_cycles(rp2):
    rng = random.Random(3)
    inputs = Inputs()
    cycle = 0
    for _ in range(300):
        cycle += rng.choice([1, 5, 12, 13, 30, 200])
        inputs.change(cycle, rng.getrandbits(16))
    buttons, machine = start(rp2, inputs)
    rp2.run(cycle // 3, irq=False)  # the FIFO fills: the "full" path runs
    assert len(machine.fifo) == 8
    machine.y = 5  # a heartbeat within six ticks
    rp2.run(cycle + 500)
    ticks = machine.pc_cycles[0]
    assert {ticks[i + 1] - ticks[i] for i in range(len(ticks) - 1)} == {12}
    paths = {pc_of(machine, "jmp(0)[4]"), pc_of(machine, "mov(x, status)")}
    assert all(pc in machine.pc_cycles for pc in paths)
    assert pc_of(machine, "in_(null, 2)") in machine.pc_cycles  # the heartbeat ran
    # Pins words then counter words, all below 2**30: small ints, so the handler cannot
    # allocate, and counters within the decoder's 2**30 period.
    assert all(word <= 0xFFFF for word in machine.pushed[::2])
    assert max(machine.pushed[1::2]) == (1 << 30) - 2


def test_presses_are_stamped_at_their_sample_in_ticks_us(rp2):
    inputs = Inputs()
    inputs.change(10_000, 1 << 3)
    inputs.change(10_001, 1 << 3 | 1 << 11)  # same tick as the line above
    inputs.change(20_000, 1 << 11)  # 3 released
    inputs.change(130_007, 1 << 11 | 1 << 3 | 1 << 0)
    buttons, machine = start(rp2, inputs)
    rp2.run(200_000)
    assert drained(buttons) == [
        (3, expected_stamp(machine, 10_000)),
        (11, expected_stamp(machine, 10_001)),
        (0, expected_stamp(machine, 130_007)),
        (3, expected_stamp(machine, 130_007)),
    ]
    assert buttons.pressed_mask() == 1 << 0 | 1 << 3 | 1 << 11
    assert buttons.overflows == 0


def test_buttons_held_at_start_are_levels_not_presses(rp2):
    inputs = Inputs()
    inputs.changes = [(0, 1 << 6)]
    inputs.change(5000, 1 << 6 | 1 << 9)
    buttons, machine = start(rp2, inputs)
    assert buttons.is_pressed(6)
    rp2.run(10_000)
    assert drained(buttons) == [(9, expected_stamp(machine, 5000))]


def test_stamps_stay_exact_across_the_counter_wrap(rp2):
    inputs = Inputs()
    inputs.change(50_000, 1 << 1)
    inputs.change(50_100, 0)
    inputs.change(90_000, 1 << 2)
    buttons, machine = start(rp2, inputs)
    rp2.run(40_000)
    machine.y = 2000  # runs out between the two presses
    rp2.run(100_000)
    assert drained(buttons) == [
        (1, expected_stamp(machine, 50_000)),
        (2, expected_stamp(machine, 90_000)),
    ]
    assert (1 << 29) < machine.y < (1 << 30)  # it did wrap and reload


def test_a_full_fifo_delays_a_change_but_never_splits_a_pair(rp2):
    inputs = Inputs()
    for i in range(12):
        inputs.change(1000 + 100 * i, (1 << (i % 2)) if i % 3 else 0)
    inputs.change(5000, 1 << 15)
    buttons, machine = start(rp2, inputs)
    rp2.run(6000, irq=False)  # nobody drains: four pairs fit, later changes wait
    assert len(machine.fifo) == 8
    rp2.run(7000)
    presses = drained(buttons)
    assert buttons.pressed_mask() == 1 << 15
    assert presses[-1][0] == 15
    assert presses[-1][1] >= expected_stamp(machine, 6000)  # stamped when finally pushed


def test_ring_overflow_is_counted(rp2):
    inputs = Inputs()
    for i in range(10):
        inputs.change(1000 + 200 * i, 1 << i if i % 2 == 0 else 0)
    buttons, machine = start(rp2, inputs, ring_size=3)
    rp2.run(5000)
    assert buttons.overflows == 5 - 3  # five presses; releases take no room
    assert [b for b, _ in drained(buttons)] == [0, 2, 4]


def test_the_ring_holds_presses_only_so_a_burst_keeps_them_all(rp2):
    inputs = Inputs()
    for i in range(64):
        inputs.change(1000 + 300 * i, 1 << (i % 16))
        inputs.change(1150 + 300 * i, 0)
    buttons, machine = start(rp2, inputs)
    rp2.run(25_000)
    assert buttons.overflows == 0
    assert [b for b, _ in drained(buttons)] == [i % 16 for i in range(64)]


def test_a_full_fifo_is_counted_and_drained_a_fifo_at_a_time(rp2):
    inputs = Inputs()
    for i in range(12):
        inputs.change(1000 + 100 * i, 1 << (i % 4))
    buttons, machine = start(rp2, inputs)
    rp2.run(3000, irq=False)
    assert len(machine.fifo) == 8
    handler = rp2.irq_handlers[0][0]
    handler(None)
    assert buttons.fifo_full == 1
    assert len(machine.fifo) == 0, "four pairs per call: one whole FIFO"
    handler(None)
    assert buttons.fifo_full == 1


def test_the_origin_is_the_clock_around_the_start_of_the_state_machine(rp2):
    readings = iter([7000, 7040])  # before and after sm.active(1)
    rp2.levels = Inputs()
    rp2.levels.change(12_500, 1 << 4)  # 100 µs after the start
    capture = importlib.import_module("drivers.pio_capture")
    buttons = capture.PioButtons(Pin(0), lambda: next(readings), SYS_HZ)
    machine = rp2.machines[-1].machine
    rp2.run(20_000)
    (press,) = drained(buttons)
    samples = sample_cycles(machine)
    seen = next(c for c in samples if c >= 12_500)
    assert press == (4, 7020 + (seen - samples[0]) // 125)
    assert press[1] - 7020 in range(99, 102)


def test_status_selects_the_rp2350_layout_there(rp2, monkeypatch):
    capture = importlib.import_module("drivers.pio_capture")
    assert capture.status_rx_below(7) == 1 << 4 | 7
    monkeypatch.setattr(sys.implementation, "_machine", "Raspberry Pi Pico 2 with RP2350", False)
    assert capture.status_rx_below(7) == 1 << 5 | 7
