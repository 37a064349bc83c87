"""The one owner of a pass of the main loop: which job it does (docs/architecture.md, "The
pass contract").

Every pass must end within about 2 ms on the Pico. The caller takes the presses in
(capture, debounce) and the SPIT holds; ``run(now)`` then does the first job that is
wanted, in this order, and the pass ends with it:

1. the break (saving and collecting), once the screen that came with it is up and
   nobody races: a pass of its own;
2. the answer: the screen's first call after a mode's press was committed (in its pass:
   the press is light), after a person's press at the table (in the next pass) or when a
   new screen came, its values and the first region they change, whatever the pace once
   no press is due before it would end; in a race, the region is the next pass's answer
   when this one has no room left for it;
3. what the screen left, a region in a pass of its own when drawing has its turn (in a
   game, ``ALONE_MAX`` such passes in a row at most);
4. the mode's own part (its timeouts, the game's phase taken up), but while its game deals a
   round, or when a press of its game falls due before the part would end (the press
   goes first): the pass is the mode's alone when it moves to another mode or takes up a
   round's or a game's end;
5. the game's (``play``): a step of a round's dealing, the earliest due press, a CPU seat
   turned away in the last pass, what the last action left or a timer's action (the
   round's clocks), a CPU seat's press or glance; outside a game, the earliest due press,
   for the mode;
6. in a pass that carries nothing yet, a share of drawing (``after``), then a tone (the
   caller's, ``turn(SOUND)``).

Work that can wait (``DRAW``, ``GLANCE``, ``SOUND``) runs only while the pass is early
enough for it and no press will be due before it would end, one piece a pass, never
beside a committed press. The kinds take turns: once one has been turned away, no other
runs before it, and after ``HOLD_PASSES`` passes it runs in the next pass that carries
nothing else, however late, so that the screen and the CPU seats still move on when every
pass is slow. The parts ask for their turn when they have a piece to do (``turn``, and
``early`` between a CPU seat's glances) and say what they did by what they return; they
hold no flag about one another.

On the device the scheduler reads ``time.ticks_us``; without a clock (the tests, the
simulator's stepped time) every pass has time for everything, so runs stay exactly
repeatable.

>>> scheduler = Scheduler()
>>> scheduler.begin(); scheduler.early(GLANCE)
True
>>> scheduler.turn(GLANCE)
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
# in a game, a pass of its own, before the game's work.
_DRAW_BEFORE_US = const(450)
# Nor when a press will be due before this long, about the longest region: the pass ends
# sooner, and the next commits the press.
_DRAW_US = const(1_500)
# A CPU seat's press or glance starts only this early; a look is a few glances, over one
# pass or several.
_GLANCE_BEFORE_US = const(700)
_GLANCE_US = const(1_000)  # about the longest glance
# About a match mode's own part (its timeouts, the game's phase taken up: 0.3 ms in the
# emulated chip's passes): a press due before it would end is committed first.
_MODE_US = const(400)
# An answer (new values and the first region they change) is about as long as a region
# with its values: it waits for a press due before it would end. While a race is on, its
# region starts only this early in the pass (a region ends within 0.8 ms).
_ANSWER_US = const(1_500)
_ANSWER_REGION_BEFORE_US = const(900)
# A tone starts (about 0.3 ms on the Pico: the PWM's frequency and duty) this early.
_SOUND_BEFORE_US = const(1_100)
# Each kind's thresholds, by kind: how early in a pass it starts, and how long it may run.
_BEFORE_US = (_DRAW_BEFORE_US, _GLANCE_BEFORE_US, _SOUND_BEFORE_US)
_LONGEST_US = (_DRAW_US, _GLANCE_US, 0)
# After this many passes turned away, a kind runs however late, in a pass that carries
# nothing else: so the screen and the CPU seats move on when every pass is slow.
HOLD_PASSES = const(3)
# In a game, what the screen left goes in passes of its own: after this many in a row, a
# pass moves the game (the round's clocks and the CPU seats wait no longer).
ALONE_MAX = const(3)
# A break waits for the new screen to be drawn, this long at most.
BREAK_WAIT_US = const(100_000)

# A call of the play screen that follows changes spends its share on them; after this
# many in a row, following is free, so that a change in every pass (mashed buttons)
# still lets regions out.
FOLLOWS_MAX = const(4)

# A pass's share of the screen (``spit.render``): the regions it may draw, new values
# spending one.
TAKE = const(0)  # new values, nothing drawn: the passes that draw next need not look
REGION = const(1)  # a region, or the new values
ANSWER = const(2)  # new values and the first region they change: the answer to a press

# ``spit.modes``' and ``spit.games``' values, folded here (tests/test_scheduler.py).
_STAY = const(-1)
_SPENT = const(-2)
_PHASE_DEALING = const(4)


def _no_break():
    pass


class Scheduler:
    """Constructor: ``Scheduler(clock=None, flow=None, renderer=None, on_break=None)``:
    ``clock()`` reads ticks_us; ``flow`` the controller (``current``, the mode, and
    ``enter(code, now)``); ``renderer`` draws (None: nothing is); ``on_break()`` saves
    and collects. A game alone (a table with no modes) runs a pass of ``play``.

    Attributes, to read: ``carried``, the pass carries a piece of work (or a press)
    already; ``waiting``, the kind turned away that goes next (-1: none); ``answer``, the
    screen's next call answers a press or a new screen."""

    def __init__(self, clock=None, flow=None, renderer=None, on_break=None):
        self.clock = clock
        self.flow = flow
        self.renderer = renderer
        if renderer is not None:
            renderer.clock = clock
        self.on_break = on_break or _no_break
        self._start = 0
        self.carried = False  # this pass carries a piece of work already
        self.waiting = _NOBODY  # the kind of work turned away, which goes next
        self._waits = 0  # passes it has been turned away
        self._asked = False  # the waiting kind asked again in this pass
        self._alone_passes = 0  # passes in a row the screen had to itself
        self.answer = False  # the screen's next call answers a press, or a new screen
        self._region_left = False  # the answer's region had no room in its pass: next pass's
        self._undrawn = False  # a new screen came and the renderer has not seen it yet
        self._break_due = False  # a quiet moment came: save and collect in a pass of its own
        self._break_at = 0  # when the break became due
        # The play screen's controls, all drawn, and their ``changes`` then: the passes
        # leave the screen alone until they tell something new.
        self._still = None
        self._still_at = 0

    # -- the pass's clock and the turns of the work that can wait -------------------

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

    # -- a pass of the device ---------------------------------------------------------

    def run(self, now):
        """The pass's job, in the order of the module's docstring."""
        mode = self.flow.current
        if self._break_due and not mode.racing() and self._screen_up(now):
            # Saving and collecting take milliseconds: a pass of their own, once the new
            # screen is up and while nobody races.
            self._break_due = False
            self.carried = True
            self.on_break()
            return
        renderer = self.renderer
        if renderer is not None:
            if (self.answer or self._region_left) and not (
                mode.arbiter.pending and mode.arbiter.due(ticks_add(now, _ANSWER_US))
            ):
                self._answer_now(now, mode)  # whatever the pace, once no press is due
                return
            # What the screen left from its last call, or a piece of drawing turned away in
            # the last pass, goes first, in a pass of its own: a piece starts early.
            if (renderer.busy or self.waiting == DRAW) and self._alone(now, mode):
                return
        table = mode.table
        # The mode's own part waits for a deal, and for a press that is due: a pass commits
        # it first, and the mode's part comes in the next.
        if table is None or (table.game.phase != _PHASE_DEALING and not self._due(now, table)):
            code = mode.run(now)
            if code != _STAY:
                self.carried = True
                if code != _SPENT:
                    self.flow.enter(code, now)  # the new screen answers in the next pass
                return
        if mode.commit is not None and mode.arbiter.pending and self._commit(now, mode):
            pass  # attract mode's game waits for the next pass
        elif mode.table is not None:
            self.play(now, mode.table)
        if renderer is not None:
            self._after(now, self.flow.current)  # a press may have moved to another mode

    def _commit(self, now, mode):
        """A mode's press (title, settings, error, self-test; attract mode's game has an
        arbiter of its own), one a pass: a light one, so that the new screen it brings
        answers in this pass."""
        arbiter = mode.arbiter
        if arbiter.commit_due(self._due_by(now, arbiter), mode.commit, None, 1):
            self.answer = True
            return True
        return False

    def play(self, now, table):
        """The game's job in a pass (``spit.table``), the first that is wanted: a step of a
        round's dealing; the earliest due press, one a pass (a press and its commit take up
        to about 1.1 ms on the Pico); a CPU seat turned away in the last pass (after the
        clocks the pass would reach it as late as the last); what the last action left, or a
        timer's action; a CPU seat's press or glance, in its turn. The clocks and the seats
        run at the commit horizon, so a press before a deadline still beats it."""
        if table.game.phase == _PHASE_DEALING:
            table.deal_step()
            self.carried = True
            return
        arbiter = table.arbiter
        if arbiter.pending and arbiter.commit_due(
            self._due_by(now, arbiter), table.commit, table.contested, 1
        ):
            self.carried = True
            if table.cpus[arbiter.last_player] is None:
                self.answer = True  # a person's press: what it changed, first in the next pass
            return
        horizon = ticks_add(now, -arbiter.settle_us)
        if self.waiting == GLANCE and not table.hold:
            # With the heap locked (``spit.scheduler``): the CPU seats allocate nothing, and their
            # functions, some over 11 words, then take their frames from the C stack.
            HEAP.call(table.cpus_turn, horizon)
            return
        if table.clocks(horizon):
            self.carried = True  # what the last action left, or a timer's action
            return
        if self.waiting != DRAW and not table.cpus_wait(horizon):
            HEAP.call(table.cpus_turn, horizon)

    def _due(self, now, table):
        """A press of ``table``'s falls due in the pass that began at ``now`` before the
        mode's part would end (``_MODE_US``)."""
        arbiter = table.arbiter
        return arbiter.pending and arbiter.due(ticks_add(self._due_by(now, arbiter), _MODE_US))

    def _due_by(self, now, arbiter):
        """The time the presses are due by in the pass that began at ``now``: the time it
        reached them (``now(start)``), so that a press that fell due on the way commits in
        this pass, but at most the settle window less the tie window after ``now``, when
        the presses were taken in: one taken later is later than a due press by more than
        the tie window then."""
        reach_us = arbiter.settle_us - arbiter.tie_us
        reached = self.now(now)
        if ticks_diff(reached, now) > reach_us:
            return ticks_add(now, reach_us)
        return reached

    # -- the break ----------------------------------------------------------------------

    def new_screen(self, t, answer):
        """A new screen, or new values on one, came at ``t``: drawn first (as the answer
        to the press that brought it, with ``answer``), then the break."""
        if answer:
            self.answer = True
        self._undrawn = True
        self._break_due = True
        self._break_at = t

    def _screen_up(self, now):
        """The screen that came with the break is drawn, or has had long enough."""
        return not self.pending() or ticks_diff(now, self._break_at) >= BREAK_WAIT_US

    # -- the screen's share of the passes ---------------------------------------------

    def clear(self):
        """Another mode: its screen starts from a clear."""
        self._still = None
        self._region_left = False
        if self.renderer is not None:
            self.renderer.invalidate()

    def pending(self):
        """The screen is not drawn yet: still a piece a pass, or not begun."""
        return self.renderer is not None and (self._undrawn or self.renderer.busy)

    def _answer_now(self, now, mode):
        """The answer: new values and the first region they change; in a race, the region
        in the next pass when this one has no room left for it."""
        self.carried = True
        if self._region_left:  # a press committed since is answered in the next pass
            self._region_left = False
            self._region(now, mode)
            return
        self.answer = self._undrawn = False
        renderer = self.renderer
        renderer.hurry = self.clock is not None and mode.racing()
        if renderer.hurry:
            renderer.region_by = ticks_add(self._start, _ANSWER_REGION_BEFORE_US)
        self._show(now, mode, ANSWER)
        self._region_left = renderer.late

    def _alone(self, now, mode):
        """What the screen left, or a piece of drawing turned away, in a pass of its own
        when its turn has come; True if it was (the mode's work waits for the next)."""
        if mode.in_game:
            if self._alone_passes == ALONE_MAX or not self.turn(DRAW, mode.arbiter):
                self._alone_passes = 0
                return False
            self._alone_passes += 1
        elif mode.arbiter.due(now) or not self.turn(DRAW, mode.arbiter):
            return False
        self._region(now, mode)
        return True

    def _region(self, now, mode):
        """What the screen left, a region; or a call of the screen, when it left nothing."""
        renderer = self.renderer
        if renderer.busy and renderer.step(REGION):
            # A step does not look at the game: a change made while the screen was being
            # drawn is followed by the next call of the screen, so nothing is still yet.
            self._still = None
        else:
            self._show(now, mode, REGION)

    def _after(self, now, mode):
        """The screen's share of a pass that ran the mode: a busy play screen takes the new
        values (``TAKE``: the passes of its own need not look), any other screen is called
        unless it is the play screen all drawn and its controls told nothing new."""
        renderer = self.renderer
        if self.answer:
            if not self.carried:
                self._answer_now(now, mode)  # a new screen came in this pass; else the next's
        elif renderer.busy and mode.in_game:
            if self.turn(DRAW, mode.arbiter):
                mode.draw(renderer, now, TAKE)
        else:
            still = self._still
            if (
                still is None or still.changes != self._still_at or mode.controls is not still
            ) and self.turn(DRAW, mode.arbiter):
                self._undrawn = False
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
