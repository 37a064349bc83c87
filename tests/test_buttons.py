"""The pin-IRQ capture backend: its hard handler, ring, overflow count and levels."""

import pytest
from drivers.buttons import IrqButtons
from machine import Pin
from spit.ticks import TICKS_PERIOD

from host_sim.vm.machine_module import VM_MACHINE


class FakeClock:
    def __init__(self, now=0):
        self.now = now

    def __call__(self):
        return self.now


def make_buttons(ring_size=64, now=0):
    pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(16)]
    clock = FakeClock(now)
    return IrqButtons(pins, clock, ring_size), pins, clock


def drained(buttons):
    edges = []
    buttons.drain(lambda button, t: edges.append((button, t)))
    return edges


def test_registers_a_hard_falling_edge_handler_on_every_pin():
    _, pins, _ = make_buttons()
    for pin in pins:
        assert pin.hard
        assert pin.press() == Pin.IRQ_FALLING
        assert pin.release() == 0  # rising edges are not listened for


def test_records_button_and_clock_of_each_falling_edge_in_arrival_order():
    buttons, pins, clock = make_buttons()
    for button, t in [(9, 100), (2, 150), (9, 151)]:
        clock.now = t
        pins[button].release()
        pins[button].press()
    assert drained(buttons) == [(9, 100), (2, 150), (9, 151)]
    assert drained(buttons) == []


def test_rising_edges_are_not_recorded():
    buttons, pins, clock = make_buttons()
    pins[4].press()
    drained(buttons)
    pins[4].release()
    assert drained(buttons) == []


def test_stamps_keep_the_tick_wrap():
    buttons, pins, clock = make_buttons(now=TICKS_PERIOD - 1)
    pins[0].press()
    clock.now = 0
    pins[1].press()
    assert drained(buttons) == [(0, TICKS_PERIOD - 1), (1, 0)]


def test_full_ring_counts_overflows_and_keeps_the_oldest_edges():
    buttons, pins, clock = make_buttons(ring_size=4)
    for t in range(7):
        clock.now = t
        pins[t].press()
    assert buttons.overflows == 3
    assert drained(buttons) == [(0, 0), (1, 1), (2, 2), (3, 3)]
    clock.now = 10
    pins[15].press()
    assert drained(buttons) == [(15, 10)]


def test_ring_wraps_around_many_times():
    buttons, pins, clock = make_buttons(ring_size=3)
    seen = []
    for t in range(50):
        clock.now = t
        pins[t % 16].release()
        pins[t % 16].press()
        if t % 2:
            seen += drained(buttons)
    seen += drained(buttons)
    assert seen == [(t % 16, t) for t in range(50)]
    assert buttons.overflows == 0


def test_levels_read_the_pins_now():
    buttons, pins, _ = make_buttons()
    pins[3].press()
    pins[12].press()
    assert buttons.is_pressed(3) and buttons.is_pressed(12)
    assert not buttons.is_pressed(4)
    assert buttons.pressed_mask() == (1 << 3) | (1 << 12)


VM_HANDLER_UNDER_HEAP_LOCK = """
import gc, micropython
import machine
from drivers.buttons import IrqButtons

pins = [machine.Pin(b) for b in range(16)]
now = [0]
def clock():
    return now[0]

buttons = IrqButtons(pins, clock, 8)
handlers = [pin.handler for pin in pins]
stamps = [(1 << 29) + i * 7919 for i in range(12)]
stamps[5] = (1 << 30) - 1  # the largest ticks_us value


def fire_all():
    i = 0
    while i < 12:  # range() would allocate
        button = (i * 5) % 16
        now[0] = stamps[i]
        machine.gpio_in[0] = 0x3FFFFFFF & ~(1 << button)  # only this button down
        handlers[button](pins[button])
        i += 1
    # Three buttons down in one snapshot: all three recorded by one handler.
    machine.gpio_in[0] = 0x3FFFFFFF & ~(1 << 1 | 1 << 9 | 1 << 14)
    handlers[9](pins[9])


def allocated_by_handlers():
    # In a function: a new global name would grow the module's dict, an allocation.
    gc.collect()
    before = gc.mem_alloc()
    micropython.heap_lock()
    try:
        fire_all()
    finally:
        micropython.heap_unlock()
    return gc.mem_alloc() - before


allocated = allocated_by_handlers()
edges = []
buttons.drain(lambda b, t: edges.append((b, t)))
print(allocated, buttons.overflows)
print(edges == [((i * 5) % 16, stamps[i]) for i in range(8)])
"""


def test_vm_handler_allocates_nothing_under_heap_lock(mpvm):
    allocated, overflows, ring_right = mpvm(VM_HANDLER_UNDER_HEAP_LOCK, files=VM_MACHINE).split()
    assert allocated == "0"
    assert overflows == "7"  # 15 presses into a ring of 8, still under the lock
    assert ring_right == "True"


@pytest.mark.parametrize("size", [1, 2, 64])
def test_ring_holds_exactly_its_size(size):
    buttons, pins, clock = make_buttons(ring_size=size)
    for t in range(size + 1):
        clock.now = t
        pins[t % 16].release()
        pins[t % 16].press()
    assert len(drained(buttons)) == size
    assert buttons.overflows == 1


def test_one_snapshot_stamps_every_new_press_it_sees():
    buttons, pins, clock = make_buttons()
    pins[13].press(fire=False)  # pending behind GPIO 5's handler: not served yet
    clock.now = 500
    pins[5].press()
    assert drained(buttons) == [(5, 500), (13, 500)]
    clock.now = 560
    pins[13].fire()  # its own handler runs later: a repeat the debouncer drops
    assert drained(buttons) == [(13, 560)]


def test_a_button_still_held_is_not_stamped_again_by_another_handler():
    buttons, pins, clock = make_buttons()
    pins[2].press()
    drained(buttons)
    clock.now = 900
    pins[10].press()
    assert drained(buttons) == [(10, 900)]


def test_a_press_released_and_pressed_between_snapshots_is_recorded():
    buttons, pins, clock = make_buttons()
    clock.now = 10
    pins[4].press()
    pins[4].release()
    pins[4].press(fire=False)
    clock.now = 30
    pins[4].fire()
    assert drained(buttons) == [(4, 10), (4, 30)]


def test_levels_come_from_the_gpio_input_register():
    buttons, pins, _ = make_buttons()
    pins[7].press(fire=False)
    assert buttons.pressed_mask() == 1 << 7  # no handler needed to read a level


def test_a_button_let_go_is_new_again_to_the_next_snapshot():
    buttons, pins, clock = make_buttons()
    clock.now = 100
    pins[5].press()
    pins[5].release()  # no interrupt on a release
    drained(buttons)  # the main loop's pass forgets it
    pins[5].press(fire=False)  # pressed again in the same cycle as GPIO 13
    clock.now = 400
    pins[13].press()
    assert drained(buttons) == [(5, 400), (13, 400)]
