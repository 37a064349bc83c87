"""Microsecond tick arithmetic with the device's wrap at 2**30.

On MicroPython these are the built-in ``time`` functions; on CPython (the host
simulator and the tests) the same arithmetic is done here, so code that is right
across the wrap on the laptop is right on the Pico.
"""

try:
    from time import ticks_add, ticks_diff
except ImportError:
    _PERIOD = 1 << 30
    _HALF = 1 << 29

    def ticks_add(ticks, delta):
        return (ticks + delta) & (_PERIOD - 1)

    def ticks_diff(end, start):
        return ((end - start + _HALF) & (_PERIOD - 1)) - _HALF

TICKS_PERIOD = 1 << 30
