"""One game at the device: presses in, first-touch order, the rules, the CPU seats.

The table joins the arbiter and the controls, and lets CPU seats press buttons, so
a CPU's press goes through the same arbitration as a person's. The main loop (on the
device or in the simulator) hands every debounced press to ``touch(button, t)``; which of
the table's jobs a pass does is the scheduler's (``Scheduler.play``): a step of a round's
dealing (``deal_step``), the earliest due press (``commit``, ``contested``: the
controls'), the round's clocks (``clocks``: the controls' ``update``) or the CPU seats
(``cpus_wait``, ``cpus_turn``).

A round's end and the next round's deal go in passes of their own: the game waits
in ``PHASE_DEALING`` through the rest of the pass that ended the round (no more
presses are committed in it), then shuffles the hands a pass each and lays the round
out in the pass after.

Every game clock (the automatic spit, the slap time limit, the CPU seats) runs at the
commit horizon, ``now`` less the settle window: the moment up to which every press is
known and committed. So a press made before a deadline always beats the deadline,
although it is committed a settle window later.
"""

from micropython import const

from spit.arbiter import Arbiter
from spit.controls import Controls
from spit.games import CALL_ACTION
from spit.keys import button_id
from spit.scheduler import GLANCE, Scheduler
from spit.ticks import ticks_add, ticks_diff

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len = len

_FAR_MS = const(60_000)  # a settled table with no action planned looks again this late


class Table:
    """Constructor: ``Table(game, listener=None, cpus=(None, None), arbiter=None,
    scheduler=None)``; ``cpus`` holds a ``Cpu`` for each seat the device plays,
    ``listener`` gets the controls' events; pass the device's ``arbiter``, which outlives
    the game (a new one otherwise), and its ``scheduler``: the CPU seats glance at the
    table only while the pass has time. Attributes: ``game``, ``arbiter``, ``controls``,
    ``hold``."""

    def __init__(self, game, listener=None, cpus=(None, None), arbiter=None, scheduler=None):
        self.game = game
        game.deals_later = True
        self.scheduler = scheduler or Scheduler()
        self.arbiter = arbiter or Arbiter()
        self.controls = Controls(game, listener)
        self.cpus = cpus
        # Bound once: the scheduler calls them every pass, and binding a method allocates.
        self.commit = self.controls.press
        self.contested = self.controls.contested
        self.clocks = self.controls.update
        self.cpus_turn = self._run_cpus
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

    def deal_step(self):
        """A step of a round's dealing, a pass each: the shuffles, the room in the history
        for the round's actions, the room for their press times when it runs short, then
        the layout."""
        game = self.game
        if not game.shuffled:
            game.shuffle()
        elif not self.controls.room_for_a_round():
            game.deal()
            self.controls.changed()

    def cpus_wait(self, now):
        """Whether no CPU seat may act or look in this pass at ``now`` (the commit horizon):
        none at the table, the screen being read, or both seats settled until a reaction
        is due. The seats take turns to go first, a pass each."""
        if self.cpus[0] is None and self.cpus[1] is None or self.hold:
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
        # (``spit.scheduler``); none glances in a pass where a CPU presses: a glance costs up
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
        if not self.scheduler.turn(GLANCE, self.arbiter):
            return
        if acting is not None:
            self._act(acting, now)
            return
        while looker is not None:
            self._glance(looker)
            if not self.scheduler.early(GLANCE):
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
