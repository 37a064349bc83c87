"""Button capture through pin interrupts: the first edge of a press, stamped in a hard IRQ.

Each button pin gets a hard ``Pin.irq`` on its falling edge (buttons pull to ground
against the internal pull-ups). The handler only stores the button id and ``clock()``
in a preallocated ring and returns; the main loop drains the ring. Timestamps are in
the ``ticks_us`` domain and wrap at 2**30 µs.

Constructor
    ``IrqButtons(pins, clock, ring_size=64)``: ``pins`` are 16 built ``Pin`` objects in
    button-id order (inputs with pull-ups), ``clock`` is ``time.ticks_us`` on the device.

Methods
    ``drain(consumer)``: calls ``consumer(button, t)`` for every captured edge, in
    arrival order, and empties the ring.
    ``is_pressed(button)``, ``pressed_mask()``: the pins' levels now.

Class variables
    ``overflows``: edges dropped because the ring was full.

Timing on the device (SPEC 4): the handler reads the clock about 31 µs after the
edge, with tens of µs of jitter, and two pins pending together are served lower GPIO
first, 46 µs apart. The arbiter's tie window absorbs that skew.
"""

from micropython import const

from drivers.ring import Ring

_DEFAULT_RING = const(64)


def reserve_emergency_exception_buffer(size=100):
    """Call once at boot, before any hard handler is registered (device only).

    A hard handler cannot allocate, so without this buffer an exception inside one
    reports nothing useful. The MicroPython VM used by the tests has no such call.
    """
    import micropython

    micropython.alloc_emergency_exception_buf(size)


class IrqButtons:
    def __init__(self, pins, clock, ring_size=_DEFAULT_RING):
        self._pins = pins
        self._clock = clock
        self._ring = Ring(ring_size, "B")
        for button, pin in enumerate(pins):
            pin.irq(trigger=pin.IRQ_FALLING, handler=self._handler_for(button), hard=True)

    @property
    def overflows(self):
        return self._ring.overflows

    def _handler_for(self, button):
        # A closure over just (self, button): MicroPython calls a closure with up to five
        # words of captured values and arguments from the C stack, allocating nothing.
        # ticks_us values are below 2**30, small ints on the RP2040: no allocation either.
        def on_edge(_pin):
            self._ring.put(button, self._clock())

        return on_edge

    def drain(self, consumer):
        """Pass every captured ``(button, t)`` to ``consumer``, oldest first."""
        self._ring.drain(consumer)

    def is_pressed(self, button):
        return not self._pins[button].value()

    def pressed_mask(self):
        """Bit ``b`` is set when button ``b`` reads pressed now."""
        mask = 0
        for button, pin in enumerate(self._pins):
            if not pin.value():
                mask |= 1 << button
        return mask
