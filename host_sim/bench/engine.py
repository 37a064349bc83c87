"""Budgets of the rules engine and the CPU players (SPEC section 11), for ``make bench``.

``figures()`` returns:

- ``engine_step_us``: the time of one action applied with its legality check
  (``Game.apply``), on CPython and on MicroPython, replaying recorded self-play
  games so that only the engine is timed, not the CPUs choosing.
- ``selfplay_games_per_s``: whole CPU-against-CPU games per second on CPython,
  engine and CPUs only (no display, no input path).
- ``engine_heap_peak_bytes``: the most heap a whole CPU-against-CPU game needs on
  MicroPython, rules engine and CPU players alone (see ``_HEAP_SETUP``).
"""

import time

from spit.selfplay import Race, game_seed, play_game
from spit.spit import Game
from spit.spit_cpu import SpitCpu

from host_sim.vm.micropython_vm import run as run_in_vm

# Games measured: the first few of the run with seed 1, steady against steady.
_RUN_SEED = 1
_GAMES = 5
_LEVEL = "steady"
_SELFPLAY_GAMES = 40
# Replays go on until this much time has passed, on either interpreter.
_TIMED_MS = 1500

# The MicroPython side. This VM collects garbage only between top-level calls from Node
# (inside one call ``gc.collect()`` merely asks for a collection), so the heap is read
# across calls: ``_HEAP_SETUP`` first, then one call per action. Each call applies one
# action, reads ``gc.mem_alloc()`` and asks for a collection (which happens as the call
# returns). The reading after the action is what
# the game holds (its state, the CPUs, the history so far) plus everything that one
# action allocated, garbage included: the peak over a game is the heap it needs when the
# collector runs between actions. The base is read with no game alive, so the figure is
# the game's alone (plus the few hundred bytes each call costs to compile).
_HEAP_SETUP = """
import gc
from spit.spit_cpu import SpitCpu
from spit.spit import Game
from spit.selfplay import Race

class Probe:
    def __init__(self):
        self.race = None
        self.base = 0
        self.peak = 0

    def begin(self):
        self.race = None
        gc.collect()

    def deal(self, seed):
        self.base = gc.mem_alloc()
        game = Game(seed)
        self.race = Race(game, (SpitCpu(0, %(level)r, seed), SpitCpu(1, %(level)r, seed)))
        gc.collect()

    def step(self):
        self.race.step()
        self.peak = max(self.peak, gc.mem_alloc() - self.base)
        gc.collect()

probe = Probe()
"""

# Time: the VM's ticks are whole milliseconds, so recorded games are replayed until
# ``_TIMED_MS`` have passed. Each replay starts with a deal; a game deals again at the end
# of every round anyway, so this adds little.
_TIMING_PROGRAM = """
import time
from spit.spit import Game

games = %(games)r
steps = 0
start = time.ticks_ms()
elapsed = 0
while elapsed < %(timed_ms)d:
    for seed, history in games:
        game = Game(seed)
        for action in history:
            game.apply(action)
        steps += len(history)
    elapsed = time.ticks_diff(time.ticks_ms(), start)
print(elapsed, steps)
"""


def _games():
    """The measured games: (seed, actions applied, actions tried) each."""
    games = []
    for index in range(_GAMES):
        seed = game_seed(_RUN_SEED, index)
        game = Game(seed)
        race = Race(game, (SpitCpu(0, _LEVEL, seed), SpitCpu(1, _LEVEL, seed)))
        while race.step():
            pass
        games.append((seed, game.history, race.tries))
    return games


def engine_step_us_cpython(games):
    steps = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < _TIMED_MS / 1000:
        for seed, history, _ in games:
            game = Game(seed)
            for action in history:
                game.apply(action)
            steps += len(history)
        elapsed = time.perf_counter() - start
    return elapsed * 1e6 / steps


def selfplay_games_per_s():
    start = time.perf_counter()
    for index in range(_SELFPLAY_GAMES):
        play_game(game_seed(_RUN_SEED, index), levels=(_LEVEL, _LEVEL))
    return _SELFPLAY_GAMES / (time.perf_counter() - start)


def engine_heap_peak_bytes(games):
    """The most heap one of the games needs on MicroPython."""
    calls = []
    for seed, _, tries in games:
        calls.append("probe.begin()")
        calls.append("probe.deal(%d)" % seed)
        calls.extend(["probe.step()"] * tries)
    calls.append("print(probe.peak)")
    return int(run_in_vm(_HEAP_SETUP % {"level": _LEVEL}, calls=calls))


def engine_step_us_micropython(games):
    recorded = [(seed, list(history)) for seed, history, _ in games]
    out = run_in_vm(_TIMING_PROGRAM % {"games": recorded, "timed_ms": _TIMED_MS})
    elapsed_ms, steps = (int(word) for word in out.split())
    return elapsed_ms * 1000 / steps


def figures():
    games = _games()
    return {
        "engine_step_us": {
            "cpython": round(engine_step_us_cpython(games), 2),
            "micropython": round(engine_step_us_micropython(games), 1),
        },
        "selfplay_games_per_s": round(selfplay_games_per_s(), 1),
        "engine_heap_peak_bytes": engine_heap_peak_bytes(games),
    }


if __name__ == "__main__":
    print(figures())
