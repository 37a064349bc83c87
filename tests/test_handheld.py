"""The main loop's pass on the MicroPython VM: with buttons held, released and bouncing,
with CPU seats waiting to act, a pass that commits nothing allocates nothing."""

from host_sim.vm_machine import VM_MACHINE

IDLE_PASSES = """
import gc, micropython, time
import machine
from drivers.buttons import IrqButtons
from handheld import Handheld
from spit.options import Options

pins = [machine.Pin(b) for b in range(16)]
now = [(1 << 30) - 20_000]  # across the ticks_us wrap
def clock():
    return now[0]

RELEASED = 0x3FFFFFFF
handheld = Handheld(IrqButtons(pins, clock), clock(), Options(), 9, LEVELS)

def press(button):
    machine.gpio_in[0] &= ~(1 << button)
    pins[button].handler(pins[button])

def release(button):
    machine.gpio_in[0] |= 1 << button

def run(passes):
    i = 0
    while i < passes:
        now[0] = time.ticks_add(now[0], 1000)
        handheld.step(now[0])
        i += 1

def locked_passes(passes):
    gc.collect()
    before = gc.mem_alloc()
    micropython.heap_lock()
    try:
        run(passes)
    finally:
        micropython.heap_unlock()
    return gc.mem_alloc() - before

press(7)    # P1 SPIT: committed, and held down
press(2)    # P1 C3: ignored in the ready phase, then let go
run(3)
release(2)
print(locked_passes(200))  # C3 disarmed and counting its quiet time; SPIT held
press(2)
release(2)
press(2)    # a bounce on C3 while it is disarmed: no press
run(3)
print(locked_passes(200), handheld.session.table.controls.called[0], handheld.overflows())
"""


def idle_allocations(mpvm, levels):
    out = mpvm(IDLE_PASSES.replace("LEVELS", levels), files=VM_MACHINE).split()
    return int(out[0]), int(out[1]), out[2], int(out[3])


def test_idle_passes_with_buttons_held_and_disarmed_allocate_nothing(mpvm):
    assert idle_allocations(mpvm, "(None, None)") == (0, 0, "True", 0)


def test_idle_passes_with_a_cpu_seat_waiting_allocate_nothing(mpvm):
    first, second, called, overflows = idle_allocations(mpvm, '(None, "relaxed")')
    assert (first, second, overflows) == (0, 0, 0)
