"""Self-play of Speed: whole games of CPU against CPU through its rules alone, raced in
time by Spit's ``spit.selfplay.Race``, the flip being the call both seats make. The same
seed and levels give the same game on CPython and on MicroPython alike
(``tests/test_speed.py`` compares them).

>>> line = result_line(play_game(11))
>>> line == result_line(play_game(11)) and '"winner": ' in line
True
"""

from micropython import const

from spit.selfplay import Race, fnv1a, game_seed
from spit.speed import FLIP_ACTION, Game
from spit.speed_cpu import SpeedCpu
from spit.transcript import Transcript

# A game gives up after this many tried actions; a capped game has no winner.
ACTION_CAP = const(4000)


def play_game(seed, levels=("steady", "steady"), cap=ACTION_CAP):
    """One game of CPU against CPU; the CPUs draw from side streams of ``seed``."""
    cpus = (SpeedCpu(0, levels[0], seed), SpeedCpu(1, levels[1], seed))
    race = Race(Game(seed), cpus, cap, FLIP_ACTION)
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
