"""Self-play: whole games of CPU against CPU through the rules engine, as a race in time.

There are no turns in Spit, so a game is a discrete-event race. Each seat's CPU
plans an action that lands at a time (now plus its reaction). The earliest
planned action is tried: it is applied if it is still legal, and otherwise it
comes too late (a card that no longer fits goes back, a slap finds the pile
taken) and that seat plans again. After every change on the table both seats
look again; a seat whose choice changed starts a fresh reaction. A spit
happens when both seats call it, at the later of their times. Two actions
landing in the same millisecond are ordered by a fair rule: the seats take
turns to go first.

Times are in whole milliseconds from the deal. The same seed, options and
levels give the same game, on CPython and on MicroPython alike:

>>> result = play_game(11)
>>> result.winner in (1, 2) and result.cards[result.winner - 1]
0
>>> result_line(result) == result_line(play_game(11))
True
"""

from micropython import const

from spit.cpu import Cpu
from spit.options import Options
from spit.rng import derive
from spit.rules import SPIT_ACTION, Game
from spit.ticks import ticks_diff
from spit.transcript import Transcript

# A game gives up after this many tried actions; a capped game has no winner. The longest
# of 2,500 self-play games over the rule options took 2,388.
ACTION_CAP = const(20000)

_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = const(16777619)
_MASK = 0xFFFFFFFF
# Salt of the stream that turns a run's seed into its games' seeds.
_RUN_SALT = const(0x6A3E)


def fnv1a(text, h=_FNV_OFFSET):
    """The 32-bit FNV-1a hash of ``text``'s bytes, continuing from ``h``.

    >>> "%08x" % fnv1a("a")
    'e40c292c'
    """
    for byte in text.encode():
        h = ((h ^ byte) * _FNV_PRIME) & _MASK
    return h


def game_seed(run_seed, index):
    """The seed of game ``index`` (from 0) of a run started with ``run_seed``."""
    return derive(run_seed, _RUN_SALT + index).next()


class Race:
    """One game between two CPUs, advanced an action at a time by ``step()``.

    ``now`` is the game clock in ms, ``tries`` counts the actions tried and
    ``late`` those that came too late. ``stalled`` is set if neither seat has
    anything to do while the game is on (the CPUs never let that happen; it
    ends the race rather than spinning). ``call`` is the action both seats must
    make for it to happen (Spit's spit; Speed's flip, ``spit.speed_selfplay``).
    """

    def __init__(self, game, cpus, cap=ACTION_CAP, call=SPIT_ACTION):
        self.game = game
        self.cpus = cpus
        self.cap = cap
        self.call = call
        self.now = 0
        self.tries = 0
        self.late = 0
        self.stalled = False
        self._first = 0  # the seat that goes first on the next tie
        for cpu in cpus:
            cpu.look(game, 0)

    def capped(self):
        return self.tries >= self.cap

    def step(self):
        """Try the next action; False once the game is over, capped or stalled."""
        game = self.game
        if game.outcome() is not None or self.capped() or self.stalled:
            return False
        first, second = self.cpus
        call = self.call
        if first.action == call and second.action == call:
            later = first if ticks_diff(second.due, first.due) <= 0 else second
            self.now = later.due
            self.tries += 1
            if not game.is_legal(call):
                self.stalled = True
                return False
            game.apply(call)
            first.done()
            second.done()
        else:
            cpu = self._next()
            if cpu is None:
                self.stalled = True
                return False
            self.now = cpu.due
            self.tries += 1
            if game.is_legal(cpu.action):
                game.apply(cpu.action)
            else:
                self.late += 1
            cpu.done()
        for cpu in self.cpus:
            cpu.look(game, self.now)
        return True

    def _next(self):
        """The seat whose action lands first; a call waits for the other seat."""
        first, second = self.cpus
        if first.action is None or first.action == self.call:
            first = None
        if second.action is None or second.action == self.call:
            second = None
        if first is None or second is None:
            return first or second
        wait = ticks_diff(second.due, first.due)
        if wait:
            return first if wait > 0 else second
        chosen = self.cpus[self._first]
        self._first ^= 1
        return chosen


class Result:
    """How one self-play game went. ``winner`` is 1 or 2 (0: capped or stalled),
    ``cards`` and ``points`` are per player, ``ms`` the game's length in game time,
    ``hash`` the FNV-1a of its transcript text."""

    def __init__(self, seed, race):
        game = race.game
        outcome = game.outcome()
        self.seed = seed
        self.winner = 0 if outcome is None else outcome.winner + 1
        self.rounds = game.round
        self.plays = game.plays
        self.spits = game.spits
        self.slaps = game.slaps
        self.late = race.late
        self.cards = (game.held(0), game.held(1))
        self.points = (game.points[0], game.points[1])
        self.ms = race.now
        self.capped = race.capped()
        self.hash = fnv1a(Transcript.of(game).text())


def play_game(seed, options=None, levels=("steady", "steady"), cap=ACTION_CAP):
    """Play one game of CPU against CPU; the CPUs draw from side streams of ``seed``."""
    game = Game(seed, options or Options())
    race = Race(game, (Cpu(0, levels[0], seed), Cpu(1, levels[1], seed)), cap)
    while race.step():
        pass
    return Result(seed, race)


def result_line(result):
    """One game as a JSON line, keys always in this order."""
    return (
        '{"seed": %d, "winner": %d, "rounds": %d, "plays": %d, "spits": %d, "slaps": %d, '
        '"late": %d, "cards": [%d, %d], "points": [%d, %d], "ms": %d, "capped": %s, '
        '"hash": "%08x"}'
        % (
            result.seed,
            result.winner,
            result.rounds,
            result.plays,
            result.spits,
            result.slaps,
            result.late,
            result.cards[0],
            result.cards[1],
            result.points[0],
            result.points[1],
            result.ms,
            "true" if result.capped else "false",
            result.hash,
        )
    )


class Tally:
    """Totals over a run of games, for the summary line."""

    def __init__(self):
        self.games = 0
        self.wins = [0, 0]
        self.unfinished = 0
        self.rounds = 0
        self.plays = 0
        self.spits = 0
        self.slaps = 0
        self.late = 0
        self.ms = 0
        self.hash = _FNV_OFFSET

    def add(self, result, line):
        self.games += 1
        if result.winner:
            self.wins[result.winner - 1] += 1
        else:
            self.unfinished += 1
        self.rounds += result.rounds
        self.plays += result.plays
        self.spits += result.spits
        self.slaps += result.slaps
        self.late += result.late
        self.ms += result.ms
        # The hash of every game line (with its newline): equal runs have equal hashes.
        self.hash = fnv1a(line + "\n", self.hash)


def summary_line(tally):
    """The run as one JSON line: wins per seat, means per game, totals, the run's hash."""
    games = tally.games or 1
    return (
        '{"games": %d, "wins": [%d, %d], "unfinished": %d, "rounds_mean": %s, '
        '"plays": %d, "spits": %d, "slaps": %d, "late": %d, "ms_mean": %d, "hash": "%08x"}'
        % (
            tally.games,
            tally.wins[0],
            tally.wins[1],
            tally.unfinished,
            _hundredths(tally.rounds * 100 // games),
            tally.plays,
            tally.spits,
            tally.slaps,
            tally.late,
            tally.ms // games,
            tally.hash,
        )
    )


def run_lines(run_seed, games, options=None, levels=("steady", "steady")):
    """Play a run of games, yielding one JSON line per game and then the summary line."""
    tally = Tally()
    for index in range(games):
        result = play_game(game_seed(run_seed, index), options, levels)
        line = result_line(result)
        tally.add(result, line)
        yield line
    yield summary_line(tally)


def _hundredths(value):
    """An integer count of hundredths as a decimal, formatted without floats."""
    return "%d.%02d" % (value // 100, value % 100)
