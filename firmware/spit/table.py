"""One game at the device: presses in, first-touch order, the rules, the CPU seats.

The table joins the arbiter and the controls, and lets CPU seats press buttons, so
a CPU's press goes through the same arbitration as a person's. The main loop (on the
device or in the simulator) hands every debounced press to ``touch(button, t)`` and
calls ``run(now)`` on every pass.

A round's end and the next round's deal go in passes of their own: the game waits
in ``PHASE_DEALING`` through the rest of the pass that ended the round (no more
presses are committed in it), ``run`` shuffles the hands at the start of the next
and lays the round out at the start of the one after.

Every game clock (the automatic spit, the slap time limit, the CPU seats) runs at the
commit horizon, ``now`` less the settle window: the moment up to which every press is
known and committed. So a press made before a deadline always beats the deadline,
although it is committed a settle window later.
"""

from micropython import const

from spit.arbiter import Arbiter
from spit.controls import Controls
from spit.games import CALL_ACTION, PHASE_DEALING
from spit.keys import button_id
from spit.pace import DRAW, GLANCE, HEAP, Pace
from spit.ticks import ticks_add, ticks_diff

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len = len

_FAR_MS = const(60_000)  # a settled table with no action planned looks again this late


class Table:
    """Constructor: ``Table(game, listener=None, cpus=(None, None), arbiter=None,
    pace=None)``; ``cpus`` holds a ``Cpu`` for each seat the device plays, ``listener``
    gets the controls' events; pass the device's ``arbiter``, which outlives the game (a
    new one otherwise), and its ``pace``: the CPU seats glance at the table only while
    the pass has time. Attributes: ``game``, ``arbiter``, ``controls``."""

    def __init__(self, game, listener=None, cpus=(None, None), arbiter=None, pace=None):
        self.game = game
        game.deals_later = True
        self.pace = pace or Pace()
        self.arbiter = arbiter or Arbiter()
        self._reach_us = self.arbiter.settle_us - self.arbiter.tie_us  # ``_due_by``
        self.controls = Controls(game, listener)
        self.cpus = cpus
        # Bound once: run() is called every pass, and binding a method allocates.
        self._commit = self.controls.press
        self._contested = self.controls.contested
        self._cpus_turn = self._run_cpus
        self._seen = [-1, -1]  # the history length each CPU seat last looked at
        self._ms = 0  # the CPU seats' clock, in ms
        self._last_us = -1
        self._first = 0  # the seat that may look first in the next pass, flipped each pass
        # While nothing can happen at the CPU seats: the history length they have both
        # finished looking at (-1: not settled), and when a planned action is first due.
        self._settled = -1
        self._wake_us = 0
        # The CPU seats wait while this is set: a screen is being read (the round result).
        self.hold = False
        # The keys of a CPU seat's action (``Controls.keys_for``), pressed a pass apart as a
        # hand would (a person's press made meanwhile commits between them, not after
        # both): how many, the next to press, the seat, and the phase they were meant for.
        self._keys = bytearray(3)
        self._key_count = 0
        self._next_key = 0
        self._key_seat = 0
        self._key_phase = -1

    def touch(self, button, t):
        """A press of ``button`` at ``t`` (ticks_us), debounced, in any order."""
        self.arbiter.add(button, t)

    def run(self, now):
        """Commit the presses that are due, run the timers, let CPU seats act."""
        game = self.game
        if game.phase == PHASE_DEALING:
            # The shuffles and the room in the history for the round's actions, the room
            # for their press times when it runs short, then the layout: each in a pass of
            # its own that carries nothing else that can wait.
            if not game.shuffled:
                game.shuffle()
            elif not self.controls.room_for_a_round():
                game.deal()
                self.controls.changed()
            self.pace.spend()
            return
        arbiter = self.arbiter
        # The earliest due press, one a pass (a press and its commit take up to about 1.1
        # ms on the Pico), the rest in the passes that follow. The clocks and the CPU
        # seats wait for the next pass: a press before a deadline still beats it, since
        # the clocks run at the commit horizon.
        if arbiter.pending and arbiter.commit_due(
            self._due_by(now), self._commit, self._contested, 1
        ):
            self.pace.spend()
            return
        horizon = ticks_add(now, -arbiter.settle_us)
        if self.pace.waiting == GLANCE and not self.hold:
            # A CPU seat turned away in the last pass goes before the timers in this one:
            # after them the pass would be as late as the last (``spit.pace``).
            HEAP.call(self._cpus_turn, horizon)
            return
        if self.controls.update(horizon):
            self.pace.spend()  # what the last action left, or a timer's action: nothing else
            return
        if self._cpus_wait(horizon):
            return  # most passes: both seats are waiting for their reactions
        # With the heap locked (``spit.pace``): the CPU seats allocate nothing, and their
        # functions, some over 11 words, then take their frames from the C stack.
        HEAP.call(self._cpus_turn, horizon)

    def _due_by(self, now):
        """The time the presses are due by in the pass that began at ``now``: the time it
        reached the table (``Pace.now``), so that a press that fell due on the way commits
        in this pass, but at most the settle window less the tie window after ``now``, when
        the presses were taken in: one taken later is later than a due press by more than
        the tie window then."""
        reached = self.pace.now(now)
        if ticks_diff(reached, now) > self._reach_us:
            return ticks_add(now, self._reach_us)
        return reached

    def _cpus_wait(self, now):
        """Whether no CPU seat may act or look in this pass at ``now`` (the commit horizon):
        none at the table, the screen being read, the screen's turn (``spit.pace``: a
        glance would be refused anyway), or both seats settled until a reaction is due.
        The seats take turns to go first, a pass each."""
        if self.cpus[0] is None and self.cpus[1] is None or self.hold:
            return True
        if self.pace.waiting == DRAW:
            return True
        self._first = 1 - self._first
        return self._settled == len(self.game.history) and ticks_diff(now, self._wake_us) < 0

    def _run_cpus(self, now):
        if self._next_key < self._key_count:
            self._press_next_key(now)  # a pass's part for the CPU seats: no glance beside it
            return
        if self._last_us < 0:
            self._last_us = now
        whole_ms = ticks_diff(now, self._last_us) // 1000
        self._ms = ticks_add(self._ms, whole_ms)
        self._last_us = ticks_add(self._last_us, whole_ms * 1000)
        # A CPU seat's presses or glances while the pass has time, in their turn
        # (``spit.pace``); none glances in a pass where a CPU presses: a glance costs up
        # to a millisecond on the Pico.
        first = self.cpus[self._first]
        second = self.cpus[1 - self._first]
        # Each question asked once a pass: every call costs tens of µs on the Pico.
        acting = first if self._due(first) else second if self._due(second) else None
        if acting is None:
            looker = self._looker(first, second)
            if looker is None:
                self._settle()
                return
        if not self.pace.turn(GLANCE, self.arbiter):
            return
        if acting is not None:
            self._act(acting, now)
            return
        while looker is not None:
            self._glance(looker)
            if not self.pace.early(GLANCE):
                return
            looker = self._looker(first, second)
        self._settle()

    def _settle(self):
        """Both seats have looked at this table: note when the first of them acts."""
        self._settled = len(self.game.history)
        wake = ticks_add(self._ms, _FAR_MS)
        for cpu in self.cpus:
            if cpu is not None and cpu.action is not None and ticks_diff(cpu.due, wake) < 0:
                wake = cpu.due
        # On the pass clock: the passes that wait need not move the seats' clock.
        self._wake_us = ticks_add(self._last_us, ticks_diff(wake, self._ms) * 1000)

    def _due(self, cpu):
        """Whether ``cpu`` has an action planned and its time has come."""
        return cpu is not None and cpu.action is not None and ticks_diff(self._ms, cpu.due) >= 0

    def _act(self, cpu, now):
        """Press the buttons of ``cpu``'s planned action, which is due."""
        action = cpu.action
        self._settled = -1
        cpu.done()
        self._seen[cpu.seat] = -1
        if action == CALL_ACTION and not cpu.wants_spit(self.game):
            return  # the table moved on since the CPU reached for SPIT: no call
        count = self.controls.keys_for(cpu.seat, action, self._keys)
        if count > 0:
            self._key_count = count
            self._next_key = 0
            self._key_seat = cpu.seat
            self._key_phase = self.game.phase
            self._press_next_key(now)

    def _press_next_key(self, now):
        """The next key of a CPU seat's action, if the game is still in the phase that
        the action was meant for (a key left over from a round that ended is dropped)."""
        if self.game.phase == self._key_phase:
            self.arbiter.add(button_id(self._key_seat, self._keys[self._next_key]), now)
            self._next_key += 1
        else:
            self._next_key = self._key_count

    def _looker(self, first, second):
        """The seat that glances next: ``first`` if it wants a look, else ``second`` if
        it does, else None."""
        if self._wants_look(first):
            return first
        return second if self._wants_look(second) else None

    def _wants_look(self, cpu):
        """Whether ``cpu`` has a look to go on with, or the table changed since its last."""
        if cpu is None:
            return False
        return self._seen[cpu.seat] != len(self.game.history) or cpu.looking()

    def _glance(self, cpu):
        """Go on with ``cpu``'s look, or begin one on the table as it is now (unless the
        glance only drew the next reaction)."""
        if cpu.glance(self.game, self._ms) is not None:
            self._seen[cpu.seat] = len(self.game.history)
