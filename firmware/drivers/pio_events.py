"""Decode the PIO capture's FIFO words into presses and pin levels (pure, host-testable).

The state machine in ``drivers.pio_capture`` pushes a pair of words whenever the 16
button pins change, and once per counter period as a heartbeat:

- ``pins``: the 16 pin levels, bit ``i`` = GPIO ``in_base + i``, 1 = released (pull-up);
- ``counter``: a tick counter that counts down by one every ``CYCLES_PER_TICK`` system
  clock cycles from ``2**30 - 1`` to 0 and wraps; so elapsed ticks between two pairs
  are ``(earlier - later) mod 2**30``, and equal values mean a whole period.

A heartbeat every period means two pairs are never more than one period apart
(``2**30 * 96 ns`` = 103 s at 125 MHz), as long as no pair is dropped.

The decoder maps ticks to the ``ticks_us`` domain (2**30 µs wrap) from an origin taken
when capture starts, with exact integer arithmetic (a remainder carries the fraction of
a microsecond), so timestamps never drift. It reports the buttons that went from
released to pressed (several in one sample share ``t``: the arbiter sees a tie), and
keeps the levels, releases included.

Constructor
    ``PioDecoder(sys_hz=125_000_000, button_bits=None)``: ``button_bits[b]`` is the bit
    of button ``b`` in the pins word (default: bit ``b``).

Methods
    ``start(pins, counter, t)``: the first pair, which becomes the origin (time ``t``) and
    the initial levels; buttons held then report no press.
    ``feed(pins, counter)``: one later pair; returns the mask of buttons that went
    down in it, all stamped ``t``. Allocates nothing (the PIO's hard IRQ calls it).
    ``is_pressed(button)``, ``pressed_mask()``: levels as of the last pair.

Attributes
    ``t``: the stamp of the last pair, in ``ticks_us``.
"""

from micropython import const
from spit.ticks import ticks_add

CYCLES_PER_TICK = const(12)
COUNTER_MASK = const(0x3FFFFFFF)  # the counter period is 2**30 ticks
_PIN_MASK = const(0xFFFF)


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


class PioDecoder:
    def __init__(self, sys_hz=125_000_000, button_bits=None):
        # One tick lasts CYCLES_PER_TICK / sys_hz s = num / den µs, in lowest terms.
        num = CYCLES_PER_TICK * 1_000_000
        common = _gcd(num, sys_hz)
        self._num = num // common
        self._den = sys_hz // common
        self._period_ticks_q = (COUNTER_MASK + 1) // self._den
        self._period_ticks_r = (COUNTER_MASK + 1) % self._den
        self._bits = button_bits
        self._counter = 0
        self.t = 0
        self._frac = 0  # in 1/den µs
        self._pressed = 0

    def start(self, pins, counter, t):
        self._counter = counter
        self.t = t
        self._frac = 0
        self._pressed = self._pressed_of(pins)

    def feed(self, pins, counter):
        ticks = (self._counter - counter) & COUNTER_MASK
        self._counter = counter
        if ticks:
            whole = ticks // self._den
            part = ticks % self._den
        else:
            whole = self._period_ticks_q
            part = self._period_ticks_r
        # ticks * num / den split so every product stays a small int on the device.
        fraction = part * self._num + self._frac
        self.t = ticks_add(self.t, whole * self._num + fraction // self._den)
        self._frac = fraction % self._den
        pressed = self._pressed_of(pins)
        went_down = pressed & ~self._pressed
        self._pressed = pressed
        return went_down

    def is_pressed(self, button):
        return bool(self._pressed >> button & 1)

    def pressed_mask(self):
        return self._pressed

    def _pressed_of(self, pins):
        low = ~pins & _PIN_MASK
        if self._bits is None:
            return low
        mask = 0
        for button in range(len(self._bits)):
            if low >> self._bits[button] & 1:
                mask |= 1 << button
        return mask
