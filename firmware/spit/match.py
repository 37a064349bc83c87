"""A match: games won per seat, best of three or a single game (option ``match``).

Seats are kept from game to game. ``wins`` is a plain list, so a saved tally
can be handed back in.

>>> from spit.options import Options
>>> from spit.rules import Outcome
>>> match = Match(Options(), 5)
>>> match.record(Outcome(1, "out of cards")); match.winner()
-1
"""

from spit.rng import derive
from spit.rules import Game

_SEED_SALT = 0x3A7C


class Match:
    def __init__(self, options, seed, wins=None):
        self.options = options
        self.seed = seed
        self.wins = wins or [0, 0]

    def games_to_win(self):
        return 2 if self.options.match == "bo3" else 1

    def games_played(self):
        return self.wins[0] + self.wins[1]

    def new_game(self):
        """The next game, its seed drawn from the match seed and the games played."""
        seed = derive(self.seed, _SEED_SALT + self.games_played()).next()
        return Game(seed, self.options)

    def record(self, outcome):
        self.wins[outcome.winner] += 1

    def winner(self):
        """The seat that has won the match, or -1 while it goes on."""
        for seat in (0, 1):
            if self.wins[seat] >= self.games_to_win():
                return seat
        return -1
