"""How much of one main-loop pass is already spent, so that work which can wait does.

Every pass must end within about 2 ms on the Pico. Capture, commits and the rules run
in every pass; a CPU seat's glance and a piece of drawing can wait, and do when the
pass is already late (a press was committed in it, say), for ``HOLD_PASSES`` passes at
most, so that the screen and the CPU seats still move on when every pass runs late. On
the device the pace reads ``time.ticks_us``; without a clock (the tests, the simulator's
stepped time) every pass has time for everything, so runs stay exactly repeatable.

>>> pace = Pace()
>>> pace.begin(); pace.within(0)
True
"""

from micropython import const

from spit.ticks import ticks_diff

HOLD_PASSES = const(3)  # what can wait waits this many passes in a row at most


class Pace:
    """Constructor: ``Pace(clock=None)``: ``clock()`` reads ticks_us."""

    def __init__(self, clock=None):
        self.clock = clock
        self._start = 0

    def begin(self):
        """A pass begins."""
        if self.clock is not None:
            self._start = self.clock()

    def within(self, us):
        """True while the pass has run for less than ``us`` µs."""
        return self.clock is None or ticks_diff(self.clock(), self._start) < us
