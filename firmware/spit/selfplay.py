"""Self-play: whole games of CPU against CPU through a game's rules alone, as a race in time.

Any game of the registry (``spit.games``) plays, by its name: its ``Game`` and its CPU
player (``cpu_player()``), both seats pressing SPIT for its call (``CALL_ACTION``: Spit's
spit, Speed's flip).

There are no turns in Spit, nor in Speed, so a game is a discrete-event race. Each
seat's CPU plans an action that lands at a time (now plus its reaction). The earliest
planned action is tried: it is applied if it is still legal, and otherwise it
comes too late (a card that no longer fits goes back, a slap finds the pile
taken) and that seat plans again. After every change on the table both seats
look again; a seat whose choice changed starts a fresh reaction. A call
happens when both seats make it, at the later of their times. Two actions
landing in the same millisecond are ordered by a fair rule: the seats take
turns to go first.

Times are in whole milliseconds from the deal. The same game name, seed, options and
levels give the same game, on CPython and on MicroPython alike:

>>> result = play_game(11)
>>> result.winner in (1, 2) and result.cards[result.winner - 1]
0
>>> result_line(result) == result_line(play_game(11))
True
>>> '"why": "out of cards"' in result_line(play_game(11, name="speed"))
True
"""

from micropython import const

from spit import games
from spit.games import CALL_ACTION
from spit.options import Options
from spit.rng import derive
from spit.ticks import ticks_diff
from spit.transcript import Transcript

# A game gives up after this many tried actions; a capped game has no winner. The longest
# of 2,500 self-play games of Spit over the rule options took 2,388; of Speed's, under 100.
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
    ends the race rather than spinning). A call (``CALL_ACTION``) happens once
    both seats make it.
    """

    def __init__(self, game, cpus, cap=ACTION_CAP):
        self.game = game
        self.cpus = cpus
        self.cap = cap
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
        if first.action == CALL_ACTION and second.action == CALL_ACTION:
            later = first if ticks_diff(second.due, first.due) <= 0 else second
            self.now = later.due
            self.tries += 1
            if not game.is_legal(CALL_ACTION):
                self.stalled = True
                return False
            game.apply(CALL_ACTION)
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
        if first.action is None or first.action == CALL_ACTION:
            first = None
        if second.action is None or second.action == CALL_ACTION:
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
    """How one self-play game went. ``winner`` is 1 or 2 (0: capped or stalled) and ``why``
    the reason it ended; ``rounds``, ``plays`` and the game's ``COUNTED`` figures, each by
    its name; ``cards`` and ``points`` are per player, ``ms`` the game's length in game
    time, ``hash`` the FNV-1a of its transcript text, and ``game`` the game played."""

    def __init__(self, seed, race):
        game = race.game
        rules = games.rules(game.NAME)
        outcome = game.outcome()
        self.game = game
        self.seed = seed
        self.winner = 0 if outcome is None else outcome.winner + 1
        self.why = "" if outcome is None else outcome.reason
        self.one_round = rules.ONE_ROUND
        self.rounds = game.round
        self.plays = game.plays
        self.counted = rules.COUNTED
        for name in rules.COUNTED:
            setattr(self, name, getattr(game, name))
        self.late = race.late
        self.cards = (game.held(0), game.held(1))
        self.points = (0, 0) if rules.ONE_ROUND else (game.points[0], game.points[1])
        self.ms = race.now
        self.capped = race.capped()
        self.hash = fnv1a(Transcript.of(game).text())


def play_game(seed, options=None, levels=("steady", "steady"), cap=ACTION_CAP, name="spit"):
    """Play one game of ``name`` CPU against CPU; the CPUs draw from side streams of
    ``seed``."""
    rules = games.rules(name)
    player = rules.cpu_player()
    cpus = (player(0, levels[0], seed), player(1, levels[1], seed))
    race = Race(rules.Game(seed, options or Options()), cpus, cap)
    while race.step():
        pass
    return Result(seed, race)


def result_line(result):
    """One game as a JSON line, keys always in this order. A game of rounds reports its
    rounds, its points and whether it was capped (and a run of it ends with a summary
    line); a game of one round (``ONE_ROUND``), why it ended."""
    one_round = result.one_round
    line = '{"seed": %d, "winner": %d, ' % (result.seed, result.winner)
    if one_round:
        line += '"why": "%s", ' % result.why
    else:
        line += '"rounds": %d, ' % result.rounds
    line += '"plays": %d, ' % result.plays
    for name in result.counted:
        line += '"%s": %d, ' % (name, getattr(result, name))
    line += '"late": %d, "cards": [%d, %d], ' % (result.late, result.cards[0], result.cards[1])
    if not one_round:
        line += '"points": [%d, %d], ' % (result.points[0], result.points[1])
    line += '"ms": %d, ' % result.ms
    if not one_round:
        line += '"capped": %s, ' % ("true" if result.capped else "false")
    return line + '"hash": "%08x"}' % result.hash


class Tally:
    """Totals over a run of games of ``name``, for the summary line."""

    def __init__(self, name="spit"):
        self.counted = games.rules(name).COUNTED
        self.games = 0
        self.wins = [0, 0]
        self.unfinished = 0
        self.rounds = 0
        self.plays = 0
        self.totals = [0] * len(self.counted)  # of the ``COUNTED`` figures
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
        for index in range(len(self.counted)):
            self.totals[index] += getattr(result, self.counted[index])
        self.late += result.late
        self.ms += result.ms
        # The hash of every game line (with its newline): equal runs have equal hashes.
        self.hash = fnv1a(line + "\n", self.hash)


def summary_line(tally):
    """The run as one JSON line: wins per seat, means per game, totals, the run's hash."""
    games_played = tally.games or 1
    line = '{"games": %d, "wins": [%d, %d], "unfinished": %d, "rounds_mean": %s, ' % (
        tally.games,
        tally.wins[0],
        tally.wins[1],
        tally.unfinished,
        _hundredths(tally.rounds * 100 // games_played),
    )
    line += '"plays": %d, ' % tally.plays
    for index in range(len(tally.counted)):
        line += '"%s": %d, ' % (tally.counted[index], tally.totals[index])
    return line + '"late": %d, "ms_mean": %d, "hash": "%08x"}' % (
        tally.late,
        tally.ms // games_played,
        tally.hash,
    )


def run_lines(run_seed, count, options=None, levels=("steady", "steady"), name="spit"):
    """Play a run of ``count`` games of ``name``, yielding one JSON line per game and then,
    for a game of rounds, the summary line."""
    tally = Tally(name)
    for index in range(count):
        result = play_game(game_seed(run_seed, index), options, levels, name=name)
        line = result_line(result)
        tally.add(result, line)
        yield line
    if not games.rules(name).ONE_ROUND:
        yield summary_line(tally)


def _hundredths(value):
    """An integer count of hundredths as a decimal, formatted without floats."""
    return "%d.%02d" % (value // 100, value % 100)
