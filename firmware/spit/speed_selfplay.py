"""Speed played out through its rules alone: two seeded players, each action drawn from
the legal ones, until a call or a stall. The same seed gives the same game on CPython and
on MicroPython alike (``tests/test_speed.py`` compares them).

>>> line = result_line(play_game(11))
>>> line == result_line(play_game(11)) and '"winner": ' in line
True
"""

from micropython import const

from spit.rng import derive
from spit.selfplay import fnv1a, game_seed
from spit.speed import Game
from spit.transcript import Transcript

# A game gives up after this many actions; a capped game has no winner.
ACTION_CAP = const(4000)
_CHOICE_SALT = const(0x5EED)


def play_game(seed, cap=ACTION_CAP):
    """One game, the players' choices drawn from a side stream of ``seed``."""
    game = Game(seed)
    choices = derive(seed, _CHOICE_SALT)
    while game.outcome() is None and len(game.history) < cap:
        actions = game.legal_actions()
        game.apply(actions[choices.below(len(actions))])
    return game


def result_line(game):
    """One game as a JSON line, keys always in this order."""
    outcome = game.outcome()
    return '{"seed": %d, "winner": %d, "why": "%s", "plays": %d, "flips": %d, ' % (
        game.seed,
        0 if outcome is None else outcome.winner + 1,
        "" if outcome is None else outcome.reason,
        game.plays,
        game.flips,
    ) + '"reshuffles": %d, "cards": [%d, %d], "hash": "%08x"}' % (
        game.reshuffles,
        game.held(0),
        game.held(1),
        fnv1a(Transcript.of(game).text()),
    )


def run_lines(run_seed, games):
    """A run's games, a line each."""
    for index in range(games):
        yield result_line(play_game(game_seed(run_seed, index)))
