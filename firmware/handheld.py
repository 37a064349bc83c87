"""The device's main loop, one pass at a time: capture -> debounce -> the session.

The same on the Pico (``main.py``) and in the simulator, which hands it fake pins.
"""

from drivers.debounce import Debouncer
from spit.arbiter import Arbiter
from spit.session import Session


class Handheld:
    """Constructor: ``Handheld(capture, now, options, seed, levels=(None, None),
    listener=None, on_game_over=None)``: ``capture`` is a button capture backend
    (``IrqButtons`` or ``PioButtons``), ``now`` the time of the first pin reading;
    the rest is the ``Session``'s. The arbiter is the device's: built once here, at
    power-on, so the fair tie rule runs from power-on to power-off.
    Attributes: ``arbiter``, ``session``, ``debouncer``."""

    def __init__(
        self, capture, now, options, seed, levels=(None, None), listener=None, on_game_over=None
    ):
        self.capture = capture
        self.arbiter = Arbiter()
        self.session = Session(options, seed, levels, listener, on_game_over, self.arbiter)
        self.debouncer = Debouncer(capture, self.session.touch, now)

    def step(self, now):
        """One pass of the main loop at ``now`` (ticks_us)."""
        self.debouncer.update(now)
        self.session.run(now)

    def overflows(self):
        """Presses lost because a buffer was full (the capture ring or the arbiter)."""
        return self.capture.overflows + self.arbiter.overflows
