"""Self-play of Speed: whole games of CPU against CPU through its rules alone, as a race in
time, the same way ``spit.selfplay`` races Spit's.

Each seat's CPU plans an action that lands at a time (now plus its reaction). The earliest
planned action is tried: it is applied if it is still legal, and otherwise it came too
late and that seat plans again. After every change on the table both seats look again.
A flip happens when both seats call for it, at the later of their times. Two actions
landing in the same millisecond are ordered by a fair rule: the seats take turns to go
first. The same seed and levels give the same game on CPython and on MicroPython alike
(``tests/test_speed.py`` compares them).

>>> line = result_line(play_game(11))
>>> line == result_line(play_game(11)) and '"winner": ' in line
True
"""

from micropython import const

from spit.selfplay import fnv1a, game_seed
from spit.speed import FLIP_ACTION, Game
from spit.speed_cpu import SpeedCpu
from spit.transcript import Transcript

# A game gives up after this many tried actions; a capped game has no winner.
ACTION_CAP = const(4000)


class Race:
    """One game between two CPUs, advanced an action at a time by ``step()``; ``now`` is
    the game's time (ms), ``late`` how many actions came too late."""

    def __init__(self, game, cpus, cap=ACTION_CAP):
        self.game = game
        self.cpus = cpus
        self.cap = cap
        self.now = 0
        self.late = 0
        self.tries = 0
        self._first = 0  # the seat that goes first in a tie
        self._look()

    def step(self):
        """Try the next action; False once the game is over or capped."""
        game = self.game
        if game.outcome() is not None or self.tries >= self.cap:
            return False
        self.tries += 1
        a, b = self.cpus
        if a.action == FLIP_ACTION and b.action == FLIP_ACTION:
            self.now = max(a.due, b.due)
            a.done()
            b.done()
            game.apply(FLIP_ACTION)
            self._look()
            return True
        cpu = self._earliest()
        if cpu is None:
            return False  # nobody has anything to do (a flip called by one seat alone)
        self.now = cpu.due
        action = cpu.action
        cpu.done()
        if game.is_legal(action):
            game.apply(action)
            self._look()
        else:
            self.late += 1
            cpu.look(game, self.now)
        return True

    def _earliest(self):
        chosen = None
        for i in (self._first, 1 - self._first):
            cpu = self.cpus[i]
            if cpu.action is None or cpu.action == FLIP_ACTION:
                continue
            if chosen is None or cpu.due < chosen.due:
                chosen = cpu
        if chosen is not None:
            self._first = 1 - self._first
        return chosen

    def _look(self):
        for cpu in self.cpus:
            cpu.look(self.game, self.now)


def play_game(seed, levels=("steady", "steady"), cap=ACTION_CAP):
    """One game of CPU against CPU; the CPUs draw from side streams of ``seed``."""
    game = Game(seed)
    race = Race(game, (SpeedCpu(0, levels[0], seed), SpeedCpu(1, levels[1], seed)), cap)
    while race.step():
        pass
    return race


def result_line(race):
    """One game as a JSON line, keys always in this order."""
    game = race.game
    outcome = game.outcome()
    return '{"seed": %d, "winner": %d, "why": "%s", "plays": %d, "flips": %d, ' % (
        game.seed,
        0 if outcome is None else outcome.winner + 1,
        "" if outcome is None else outcome.reason,
        game.plays,
        game.flips,
    ) + '"reshuffles": %d, "late": %d, "cards": [%d, %d], "ms": %d, "hash": "%08x"}' % (
        game.reshuffles,
        race.late,
        game.held(0),
        game.held(1),
        race.now,
        fnv1a(Transcript.of(game).text()),
    )


def run_lines(run_seed, games, levels=("steady", "steady")):
    """A run's games, a line each."""
    for index in range(games):
        yield result_line(play_game(game_seed(run_seed, index), levels))
