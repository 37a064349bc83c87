"""How much of one main-loop pass is spent, and what the rest of it may carry.

Every pass must end within about 2 ms on the Pico. Capture and the earliest due press
(one a pass) run in every pass, and so does what the last action left to work out
(``spit.controls``: whether everybody is stuck), in a pass that then carries nothing
else. The rest is work that can wait: a CPU seat's press or glance (``GLANCE``), a piece
of drawing (``DRAW``), the start of a tone (``SOUND``). Each runs only while
the pass is early enough for it and no press will be due before it would end, and a
pass carries one piece at most: none after a press was committed in it (``spend``),
never a glance and a piece of drawing together. The kinds take turns: once one has been
turned away, no other runs before it, and after ``HOLD_PASSES`` passes it runs in the
next pass that carries nothing else, however late that pass is, so that the screen and
the CPU seats still move on when every pass is slow.

What a pass gives the screen is a share of regions (``spit.render``): ``TAKE`` (new
values only), ``REGION`` (one region, new values spending it), ``ANSWER`` (a new
screen's values and its first region). In a game, what the screen leaves goes in passes of its
own (``alone``), up to ``ALONE_MAX`` in a row, so a pass carries a region or the game's
own work, not both.

On the device the pace reads ``time.ticks_us``; without a clock (the tests, the
simulator's stepped time) every pass has time for everything, so runs stay exactly
repeatable.

>>> pace = Pace()
>>> pace.begin(); pace.early(GLANCE)
True
>>> pace.turn(GLANCE)
True
"""

from micropython import const, heap_lock, heap_unlock

from spit.ticks import ticks_add, ticks_diff

# The kinds of work that can wait.
DRAW = const(0)
GLANCE = const(1)
SOUND = const(2)
_NOBODY = const(-1)

# A piece of drawing (a region: 0.5-1.1 ms on the Pico) starts only this early in a pass:
# in a game, a pass of its own (``Drawing``), before the game's work.
_DRAW_BEFORE_US = const(450)
# Nor when a press will be due before this long, about the longest region: the pass ends
# sooner, and the next commits the press.
_DRAW_US = const(1_500)
# A CPU seat's press or glance starts only this early; a look is a few glances, over one
# pass or several.
_GLANCE_BEFORE_US = const(700)
_GLANCE_US = const(1_000)  # about the longest glance
# A tone starts (about 0.3 ms on the Pico: the PWM's frequency and duty) this early.
_SOUND_BEFORE_US = const(1_100)
# Each kind's thresholds, by kind: how early in a pass it starts, and how long it may run.
_BEFORE_US = (_DRAW_BEFORE_US, _GLANCE_BEFORE_US, _SOUND_BEFORE_US)
_LONGEST_US = (_DRAW_US, _GLANCE_US, 0)
# After this many passes turned away, a kind runs however late, in a pass that carries
# nothing else: so the screen and the CPU seats move on when every pass is slow.
HOLD_PASSES = const(3)
# In a game, what the screen left goes in passes of its own: after this many in a row, a
# pass moves the game (the rules' timers and the CPU seats wait no longer).
ALONE_MAX = const(3)
# A call of the play screen that follows changes spends its share on them; after this
# many in a row, following is free, so that a change in every pass (mashed buttons)
# still lets regions out.
FOLLOWS_MAX = const(4)

# A pass's share of the screen (``spit.render``): the regions it may draw, new values
# spending one.
TAKE = const(0)  # new values, nothing drawn: the passes that draw next need not look
REGION = const(1)  # a region, or the new values
ANSWER = const(2)  # a new screen's values and its first region: the answer to a press


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
        self._alone = 0  # passes in a row the screen had to itself

    def begin(self):
        """A pass begins. A kind that waited and did not ask again in the last pass
        has nothing left to do: it no longer holds the others up."""
        if not self._asked:
            self.waiting = _NOBODY
        self._asked = False
        self.carried = False
        if self.clock is not None:
            self._start = self.clock()

    def now(self, start):
        """The time now, on the clock of ``start`` (the pass's, as its caller read it just
        before ``begin``): ``start`` and the time since ``begin``; ``start`` without a
        clock."""
        if self.clock is None:
            return start
        return ticks_add(start, ticks_diff(self.clock(), self._start))

    def early(self, kind):
        """True while the pass is early enough for a piece of ``kind``."""
        if self.clock is None:
            return True
        return ticks_diff(self.clock(), self._start) < _BEFORE_US[kind]

    def spend(self):
        """This pass carries work that could not wait (a committed press, what an action
        left to work out, a deal)."""
        self.carried = True

    def turn(self, kind, arbiter=None):
        """Whether a piece of work of ``kind`` runs now: the pass carries nothing yet,
        no press of ``arbiter``'s will be due before the piece would end, no other kind
        waits its turn, and the pass is early enough (or this kind has waited
        ``HOLD_PASSES`` passes). Ask once a pass for each kind."""
        if self.clock is None:
            return True
        waiting = self.waiting
        if waiting != _NOBODY and waiting != kind:
            return False  # the other kind goes first
        if not self.carried:
            now = self.clock()  # read once: each reading is a call
            if (
                arbiter is not None
                and arbiter.pending  # a call less in most passes
                and arbiter.due(ticks_add(now, _LONGEST_US[kind]))
            ):
                return False  # the pass ends sooner, and the next commits the press
            if ticks_diff(now, self._start) < _BEFORE_US[kind] or (
                waiting == kind and self._waits >= HOLD_PASSES and not self._asked
            ):
                self.waiting = _NOBODY
                self.carried = True
                return True
        if waiting == _NOBODY:
            self.waiting = kind
            self._waits = 0
        if not self._asked:  # passes turned away, however often a pass asks
            self._waits += 1
        self._asked = True
        return False

    def alone(self, arbiter):
        """Whether what the screen left goes in this pass, a pass of its own (before the
        game moves): in its turn, and not after ``ALONE_MAX`` such passes in a row."""
        if self._alone == ALONE_MAX or not self.turn(DRAW, arbiter):
            self._alone = 0
            return False
        self._alone += 1
        return True


class Drawing:
    """The screen's share of the passes, for the mode shown (``spit.modes``' ``draw``).

    A new screen's first call (``ANSWER``: its values and its first region) is the next
    pass's work, whatever the pace, as the answer to the press that brought it
    (``answer_now``). What the screen leaves from a call, or a piece of drawing turned
    away, goes first in a pass of its own (``alone``): in a game at most ``ALONE_MAX`` in
    a row, outside one whenever drawing has its turn. The pass that moved the game lets a
    busy screen take the new values (``TAKE``) or draws a region (``after``). Once the
    play screen is all drawn, the passes leave it alone until its controls tell something
    new (``changes``).

    Constructor: ``Drawing(pace, arbiter, renderer)``. Attributes: ``renderer`` (None:
    nothing is drawn), ``answer`` (a new screen's first call is due)."""

    def __init__(self, pace, arbiter, renderer):
        self.pace = pace
        self.arbiter = arbiter
        self.renderer = renderer
        self.answer = False
        self.undrawn = False  # a new screen came and the renderer has not seen it yet
        # The play screen's controls, all drawn, and their ``changes`` then.
        self._still = None
        self._still_at = 0

    def new_screen(self, answer):
        """A new screen, or new values on one: drawn first, as the answer to the press
        that brought it with ``answer``."""
        if answer:
            self.answer = True
        self.undrawn = True

    def clear(self):
        """Another mode: its screen starts from a clear."""
        self._still = None
        if self.renderer is not None:
            self.renderer.invalidate()

    def pending(self):
        """The screen is not drawn yet: still a piece a pass, or not begun."""
        return self.renderer is not None and (self.undrawn or self.renderer.busy)

    def answer_now(self, now, mode):
        self.pace.spend()
        self.answer = self.undrawn = False
        self._show(now, mode, ANSWER)

    def alone(self, now, mode):
        """What the screen left, or a piece of drawing turned away, in a pass of its own
        when its turn has come; True if it was (the mode's work waits for the next)."""
        if mode.in_game:
            if not self.pace.alone(self.arbiter):
                return False
        elif self.arbiter.due(now) or not self.pace.turn(DRAW, self.arbiter):
            return False
        renderer = self.renderer
        if renderer.busy and renderer.step(REGION):
            # A step does not look at the game: a change made while the screen was being
            # drawn is followed by the next call of the screen, so nothing is still yet.
            self._still = None
        else:
            self._show(now, mode, REGION)
        return True

    def after(self, now, mode):
        """The screen's share of a pass that ran the mode."""
        renderer = self.renderer
        if self.answer:
            if not self.pace.carried:
                self.answer_now(now, mode)  # a new screen came in this pass; else the next's
        elif renderer.busy and mode.in_game:
            if self.pace.turn(DRAW, self.arbiter):
                # What the screen left goes in passes of its own: this one takes the new
                # values (follows the game's changes), so that those need not look.
                mode.draw(renderer, now, TAKE)
        else:
            still = self._still
            if (
                still is None or still.changes != self._still_at or mode.controls is not still
            ) and self.pace.turn(DRAW, self.arbiter):
                self.undrawn = False
                self._show(now, mode, REGION)

    def _show(self, now, mode, share):
        """A call of the mode's screen; then the play screen's controls if it is all
        drawn, else None."""
        still = mode.draw(self.renderer, now, share)
        if still is not None and not self.renderer.busy:
            self._still_at = still.changes
        else:
            still = None
        self._still = still


# -- the heap locked around the work of a pass that allocates nothing -------------------
#
# While MicroPython's heap is locked, every function's frame goes on the C stack, even one of
# more than 11 words, which otherwise takes its frame from the heap at every call: finding
# room there takes from 25 to 600 µs on the Pico, depending on how the heap lies
# (``docs/performance.md``), so a pass's time would depend on it. The work that allocates
# nothing (the screens' drawing, the CPU seats' part of a pass) runs with the heap locked on
# the device, which also proves that it allocates nothing: an allocation there raises
# ``MemoryError``. ``HEAP`` is the device's lock; ``device.boot`` turns it ``on`` (the
# simulator and the tests on CPython leave it off). ``with HEAP:`` runs a block locked;
# ``HEAP.call(fn, arg)`` runs ``fn(arg)`` locked, a call less than the ``with`` on a hot path.
# (Here rather than in a module of its own: every module imported at boot costs 10-25 ms.)


class HeapLock:
    def __init__(self):
        self.on = False
        self._held = False

    def __enter__(self):
        if self.on:
            heap_lock()
            self._held = True

    def __exit__(self, kind, value, trace):
        if self._held:
            self._held = False
            heap_unlock()

    def call(self, fn, arg):
        if not self.on:
            return fn(arg)
        heap_lock()
        try:
            return fn(arg)
        finally:
            heap_unlock()


HEAP = HeapLock()
