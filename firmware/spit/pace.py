"""How much of one main-loop pass is already spent, so that work which can wait does.

Every pass must end within about 2 ms on the Pico. Capture and the earliest due press
run in every pass. The rest is work that can wait: more due presses, a CPU seat's press
or glance, a piece of drawing. Each runs only while the pass is early enough for it,
and a pass carries one piece at most: none after a press was committed in it
(``spend``), never a glance and a piece of drawing together. The kinds take turns: once
one has been turned away, no other runs before it, and after ``HOLD_PASSES`` passes it
runs in the next pass that carries nothing else, however late that pass is, so that
the screen and the CPU seats still move on when every pass is slow. On the device the
pace reads ``time.ticks_us``; without a clock (the tests, the simulator's stepped time)
every pass has time for everything, so runs stay exactly repeatable.

>>> pace = Pace()
>>> pace.begin(); pace.within(0)
True
>>> pace.turn(GLANCE, 0)
True
"""

from micropython import const

from spit.ticks import ticks_diff

HOLD_PASSES = const(3)  # after this many passes turned away, a kind runs however late
DRAW = const(0)
GLANCE = const(1)
_NOBODY = const(-1)


class Pace:
    """Constructor: ``Pace(clock=None)``: ``clock()`` reads ticks_us.

    Attributes, to read: ``carried``, the pass carries a piece of work (or a press)
    already; ``waiting``, the kind turned away that goes next (-1: none). A kind may
    skip the work of getting ready to ask when ``turn`` would refuse it anyway."""

    def __init__(self, clock=None):
        self.clock = clock
        self._start = 0
        self.carried = False  # this pass carries a piece of work already
        self.waiting = _NOBODY  # the kind of work turned away, which goes next
        self._waits = 0  # passes it has been turned away
        self._asked = False  # the waiting kind asked again in this pass

    def begin(self):
        """A pass begins. A kind that waited and did not ask again in the last pass
        has nothing left to do: it no longer holds the others up."""
        if not self._asked:
            self.waiting = _NOBODY
        self._asked = False
        self.carried = False
        if self.clock is not None:
            self._start = self.clock()

    def within(self, us):
        """True while the pass has run for less than ``us`` µs."""
        return self.clock is None or ticks_diff(self.clock(), self._start) < us

    def spend(self):
        """This pass carries work that could not wait (a committed press)."""
        self.carried = True

    def turn(self, kind, before_us):
        """Whether a piece of work of ``kind`` (``DRAW``, ``GLANCE``) runs now: the pass
        carries nothing yet, no other kind waits its turn, and the pass has run less
        than ``before_us`` (or this kind has waited ``HOLD_PASSES`` passes). Ask once a
        pass for each kind."""
        if self.clock is None:
            return True
        waiting = self.waiting
        if waiting != _NOBODY and waiting != kind:
            return False  # the other kind goes first
        if not self.carried and (
            self.within(before_us) or (waiting == kind and self._waits >= HOLD_PASSES)
        ):
            self.waiting = _NOBODY
            self.carried = True
            return True
        if waiting == _NOBODY:
            self.waiting = kind
            self._waits = 0
        self._asked = True
        self._waits += 1
        return False
