"""Button capture through pin interrupts: every new press stamped from one snapshot.

Each button pin gets a hard ``Pin.irq`` on its falling edge (buttons pull to ground
against the internal pull-ups). The handler reads the clock and then the SIO
``GPIO_IN`` register once, and stores ``(button, t)`` in a preallocated ring for
its own button and for every other button that reads pressed now but did not at
the previous snapshot. The main loop drains the ring. Timestamps are in the
``ticks_us`` domain and wrap at 2**30 µs.

Why a snapshot: MicroPython's rp2 port reads the interrupt status of GPIO 0-7, then
of GPIO 8-15, once per interrupt entry, and calls the handler of each pending pin in
turn (SPEC 4). A pin that goes pending after its bank was read waits for the next
entry, behind every handler still to run: measured on the emulated chip, a
bouncing release on another pin pushed a press 113 µs late, past the tie window.
With the snapshot, the first handler that runs after an edge stamps it, whichever
pin it serves; and since a held button still reads pressed, a later press can never
be stamped before an earlier one: near presses get the same stamp (a tie) instead
of the wrong order.

A button's own edge is always recorded, even if an earlier snapshot already saw it
pressed (it may have been released and pressed again between two snapshots); the
debouncer drops such repeats. Releases raise no interrupt, so each ``drain`` (every
main-loop pass) forgets the buttons that read released. The buttons must be GPIO
0-15 in button-id order, which the PIO backend needs too.

Constructor
    ``IrqButtons(pins, clock, ring_size=64)``: ``pins`` are 16 built ``Pin`` objects in
    button-id order (inputs with pull-ups), ``clock`` is ``time.ticks_us`` on the device.

Methods
    ``drain(consumer)``: calls ``consumer(button, t)`` for every captured press, in
    arrival order, and empties the ring.
    ``is_pressed(button)``, ``pressed_mask()``: the pins' levels now.

Class variables
    ``overflows``: presses dropped because the ring was full.
"""

from machine import mem32
from micropython import const

from drivers.ring import Ring

_DEFAULT_RING = const(64)
_BUTTONS = const(0xFFFF)  # GPIO 0-15
# SIO GPIO_IN: bit n is the level of GPIO n (bits 0-29, so a small int on the device).
_GPIO_IN = 0xD0000004


def reserve_emergency_exception_buffer(size=100):
    """Call once at boot, before any hard handler is registered (device only).

    A hard handler cannot allocate, so without this buffer an exception inside one
    reports nothing useful. The MicroPython VM used by the tests has no such call.
    """
    import micropython

    micropython.alloc_emergency_exception_buf(size)


class IrqButtons:
    def __init__(self, pins, clock, ring_size=_DEFAULT_RING):
        self._clock = clock
        self._ring = Ring(ring_size, "B")
        self._pressed = self.pressed_mask()  # the previous snapshot
        for button, pin in enumerate(pins):
            pin.irq(trigger=pin.IRQ_FALLING, handler=self._handler_for(button), hard=True)

    @property
    def overflows(self):
        return self._ring.overflows

    def _handler_for(self, button):
        # A closure over (self, button, bit): MicroPython calls a closure with up to five
        # words of captured values and arguments from the C stack, allocating nothing.
        bit = 1 << button

        def on_edge(_pin):
            self._snapshot(button, bit)

        return on_edge

    def _snapshot(self, button, bit):
        # Hard IRQ: small ints only (ticks_us < 2**30, GPIO_IN < 2**30), no allocation.
        t = self._clock()
        pressed = ~mem32[_GPIO_IN] & _BUTTONS
        new = (pressed & ~self._pressed) | bit
        self._pressed = pressed
        if new == bit:
            self._ring.put(button, t)
            return
        other = 0
        while new:
            if new & 1:
                self._ring.put(other, t)
            new >>= 1
            other += 1

    def drain(self, consumer):
        """Pass every captured ``(button, t)`` to ``consumer``, oldest first."""
        # A release raises no interrupt, so forget the buttons let go since the last
        # snapshot: pressed again, they are new to the next handler's snapshot. (A
        # handler running between this read and write may leave a button to be
        # recorded twice; the debouncer drops the repeat.)
        self._pressed &= self.pressed_mask()
        self._ring.drain(consumer)

    def is_pressed(self, button):
        return bool(self.pressed_mask() >> button & 1)

    def pressed_mask(self):
        """Bit ``b`` is set when button ``b`` reads pressed now."""
        return ~mem32[_GPIO_IN] & _BUTTONS
