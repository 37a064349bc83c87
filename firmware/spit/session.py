"""Games one after another at the device: the match, each game's table, the pause
after a game, and who plays each seat (a person, or the CPU at a level).

A match counts the games won per seat, best of three or a single game (option
``match``); seats are kept from game to game. Its games are any of ``spit.games``.

The main loop hands every debounced press to ``touch(button, t)`` and calls
``run(now)`` on every pass, on the device and in the simulator alike.
"""

from micropython import const

from spit import games
from spit.arbiter import Arbiter
from spit.games import PHASE_OVER
from spit.rng import derive
from spit.table import Table
from spit.ticks import ticks_diff

# How long the game-over and the match-result screens stay before the next game is
# laid out: long enough to read them (README, "Screens that leave by themselves").
NEXT_GAME_US = const(5_000_000)
NEXT_MATCH_US = const(8_000_000)
_SEED_SALT = const(0x3A7C)  # a match's games' seeds


NO_WINS = (0, 0)


def games_to_win(options):
    return 2 if options.match == "bo3" else 1


def resumed(wins, options):
    """A saved tally as a match resumes it: one that already decides the match (a
    damaged save, or one edited from best of three to single) starts a new one."""
    return NO_WINS if max(wins) >= games_to_win(options) else wins


class Match:
    """Constructor: ``Match(options, seed, wins=None, game="spit")``; ``wins`` resumes a
    saved tally, copied (one that already has a winner starts a new match): the device
    writes the saved one in place at each game's end;
    ``game`` names the game played (``spit.games``). Attributes: ``name`` (that name),
    ``rules`` and ``cpu``, the game's ``Game`` and CPU player classes.

    >>> from spit.options import Options
    >>> from spit.games import Outcome
    >>> match = Match(Options(), 5)
    >>> match.record(Outcome(1, "out of cards")); match.winner()
    -1
    """

    def __init__(self, options, seed, wins=None, game="spit"):
        self.options = options
        self.seed = seed
        self.wins = list(resumed(wins or NO_WINS, options))
        self.name = game
        self.rules, self.cpu = games.rules(game).Game, games.cpu_player(game)

    def games_to_win(self):
        return games_to_win(self.options)

    def games_played(self):
        return self.wins[0] + self.wins[1]

    def new_game(self):
        """The next game, its seed drawn from the match seed and the games played."""
        seed = derive(self.seed, _SEED_SALT + self.games_played()).next()
        return self.rules(seed, self.options)

    def record(self, outcome):
        self.wins[outcome.winner] += 1

    def winner(self):
        """The seat that has won the match, or -1 while it goes on."""
        for seat in (0, 1):
            if self.wins[seat] >= self.games_to_win():
                return seat
        return -1


class Session:
    """Constructor: ``Session(options, seed, levels=(None, None), listener=None,
    on_game_over=None, arbiter=None, countdown_us=0, wins=None, scheduler=None,
    game="spit")``; ``game`` names the game of the match (``spit.games``); ``levels`` names the
    CPU level of each seat the device plays (None for a person), ``listener`` gets the
    controls' events and ``on_game_over(game, match)`` is called once per finished game.
    Every game's table uses ``arbiter`` (the device's, which lives from power-on; a new
    one otherwise), so the tie priority carries across games and matches. Each round
    opens ``countdown_us`` after both have called; ``wins`` resumes a match's tally;
    ``scheduler`` (``spit.scheduler``) lets the CPU seats wait when a pass runs late.
    Its ``run(now)`` takes up a game's end; the table's work is the scheduler's.
    Attributes: ``match``, ``table`` (the current game's), ``arbiter``."""

    def __init__(
        self,
        options,
        seed,
        levels=(None, None),
        listener=None,
        on_game_over=None,
        arbiter=None,
        countdown_us=0,
        wins=None,
        scheduler=None,
        game="spit",
    ):
        self.arbiter = arbiter or Arbiter()
        self.scheduler = scheduler
        self.countdown_us = countdown_us
        self.match = Match(options, seed, wins, game)
        self.levels = levels
        self.listener = listener
        self.on_game_over = on_game_over
        self._over_at = -1
        self._new_game()

    def touch(self, button, t):
        self.table.touch(button, t)

    def run(self, now):
        """Take up a game's end: its tally and ``on_game_over`` when it comes, the next
        game laid out once it has been shown. True when this pass did: a pass of its own."""
        game = self.table.game
        if game.phase != PHASE_OVER:
            return False
        if self._over_at < 0:
            self._over_at = now
            self.match.record(game.outcome())
            if self.on_game_over is not None:
                self.on_game_over(game, self.match)
            return True
        if ticks_diff(now, self._over_at) >= self._shown_us():
            self._new_game()
            return True
        return False

    def _shown_us(self):
        return NEXT_MATCH_US if self.match.winner() >= 0 else NEXT_GAME_US

    def _new_game(self):
        """The match's next game laid out, or the next match's first once it is won."""
        if self.match.winner() >= 0:
            self.match = Match(self.match.options, self.table.game.seed, None, self.match.name)
        game = self.match.new_game()
        cpu = self.match.cpu
        cpus = tuple(
            None if level is None else cpu(seat, level, game.seed)
            for seat, level in enumerate(self.levels)
        )
        self.lay_out(game, cpus)

    def lay_out(self, game, cpus=(None, None)):
        """Play ``game`` as the match's next game, the seats in ``cpus`` played by the
        CPU (a replay lays out a transcript's deal, with nobody but the buttons)."""
        self.table = Table(game, self.listener, cpus, self.arbiter, self.scheduler)
        self.table.controls.countdown_us = self.countdown_us
        self._over_at = -1
