"""One game at the device: presses in, first-touch order, the rules, the CPU seats.

The table joins the arbiter and the controls, and lets CPU seats press buttons, so
a CPU's press goes through the same arbitration as a person's. The main loop (on the
device or in the simulator) hands every debounced press to ``touch(button, t)`` and
calls ``run(now)`` on every pass.

Every game clock (the automatic spit, the slap time limit, the CPU seats) runs at the
commit horizon, ``now`` less the settle window: the moment up to which every press is
known and committed. So a press made before a deadline always beats the deadline,
although it is committed a settle window later.
"""

from spit.arbiter import Arbiter
from spit.controls import Controls
from spit.keys import button_id
from spit.rules import SPIT_ACTION
from spit.ticks import ticks_add, ticks_diff


class Table:
    """Constructor: ``Table(game, listener=None, cpus=(None, None), arbiter=None)``;
    ``cpus`` holds a ``Cpu`` for each seat the device plays, ``listener`` gets the
    controls' events; pass the device's ``arbiter``, which outlives the game (a new
    one otherwise). Attributes: ``game``, ``arbiter``, ``controls``."""

    def __init__(self, game, listener=None, cpus=(None, None), arbiter=None):
        self.game = game
        self.arbiter = arbiter or Arbiter()
        self.controls = Controls(game, listener)
        self.cpus = cpus
        # Bound once: run() is called every pass.
        self._commit = self.controls.press
        self._contested = self.controls.contested
        self._seen = [-1, -1]  # the history length each CPU seat last looked at
        self._ms = 0  # the CPU seats' clock, in ms
        self._last_us = -1
        self._first = 0  # the seat that may look first in the next pass, flipped each pass

    def touch(self, button, t):
        """A press of ``button`` at ``t`` (ticks_us), debounced, in any order."""
        self.arbiter.add(button, t)

    def run(self, now):
        """Commit the presses that are due, run the timers, let CPU seats act."""
        self.arbiter.commit_due(now, self._commit, self._contested)
        horizon = ticks_add(now, -self.arbiter.settle_us)
        self.controls.update(horizon)
        if self.cpus[0] is not None or self.cpus[1] is not None:
            self._run_cpus(horizon)

    def _run_cpus(self, now):
        if self._last_us < 0:
            self._last_us = now
        whole_ms = ticks_diff(now, self._last_us) // 1000
        self._ms = ticks_add(self._ms, whole_ms)
        self._last_us = ticks_add(self._last_us, whole_ms * 1000)
        game = self.game
        seen = len(game.history)
        # One look a pass at most, the seats taking turns to go first: a look costs
        # milliseconds on the Pico, and two in one pass would hold up the loop.
        self._first = 1 - self._first
        looked = False
        for turn in (0, 1):
            cpu = self.cpus[self._first ^ turn]
            if cpu is None:
                continue
            if self._seen[cpu.seat] != seen and not looked:
                self._seen[cpu.seat] = seen
                cpu.look(game, self._ms)
                looked = True
            if cpu.action is None or ticks_diff(self._ms, cpu.due) < 0:
                continue
            action = cpu.action
            cpu.done()
            self._seen[cpu.seat] = -1
            if action == SPIT_ACTION and not cpu.wants_spit(game):
                continue  # the table moved on since the CPU reached for SPIT: no call
            for key in self.controls.presses_for(cpu.seat, action) or ():
                self.arbiter.add(button_id(cpu.seat, key), now)
