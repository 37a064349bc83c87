"""The rules engine gives the same games on CPython and on the MicroPython VM.

The same playout code runs on both: games of sensible actions with a few arbitrary
ints thrown in, every choice drawn from the engine's own generator (not Python's
``random``), and one digest line per game (the transcript text, the final table and
every refusal hashed). The lines must match exactly. Also: the doctests of the
firmware modules pass on CPython.
"""

import contextlib
import doctest
import importlib
import io
import os

import pytest

from host_sim.vm.micropython_vm import run

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")

PLAYOUT = r"""
from spit.options import Options
from spit.rng import Rng
from spit.games import PHASE_PLAY, IllegalActionError, InvalidActionError
from spit.spit import SPIT_ACTION, Game
from spit.transcript import Transcript


def fnv(text, h=0x811C9DC5):
    for char in text:
        h = ((h ^ ord(char)) * 16777619) & 0xFFFFFFFF
    return h


def table_text(game):
    return repr((game.stock, game.face_up, game.pack, game.middle, game.phase, game.round,
                 game.cleared, game.spit_turn, game.points, game.plays, game.spits,
                 game.slaps, game.rng.state))


def sensible(game, rng):
    actions = game.legal_actions()
    plays = [a for a in actions if a >> 9 == 0]
    if plays:
        return plays[rng.below(len(plays))]
    if game.phase == PHASE_PLAY:
        digs = [game.dig_move(p) for p in (0, 1)]
        digs = [a for a in digs if a >= 0]
        if digs:
            return digs[rng.below(len(digs))]
    if SPIT_ACTION in actions:
        return SPIT_ACTION
    return actions[rng.below(len(actions))]


def playout(seed, options_text, limit):
    game = Game(seed, Options.parse(options_text))
    rng = Rng(seed ^ 0x5EED)
    refusals = fnv("")
    while game.outcome() is None and len(game.history) < limit:
        if rng.below(6) == 0:
            junk = rng.below(2080) - 16
            try:
                game.apply(junk)
            except IllegalActionError as error:
                refusals = fnv("%d illegal %s;" % (junk, error.reason), refusals)
            except InvalidActionError:
                refusals = fnv("%d invalid;" % junk, refusals)
            continue
        game.apply(sensible(game, rng))
        if len(game.history) % 97 == 0:
            refusals = fnv(table_text(game), refusals)
    print("%d %s | %d %r r%d %r %08x %08x %08x" % (
        seed, game.options.text(), len(game.history), game.outcome(), game.round,
        game.points, fnv(Transcript.of(game).text()), fnv(table_text(game)), refusals))


for seed, options_text, limit in GAMES:
    playout(seed, options_text, limit)
"""

# Every value of every option in at least one game; the rule options in many pairs.
GAMES = [
    (1, "", 700),
    (2, "layout=3x5 middle=one pick=winner stack=on score=points", 700),
    (3, "layout=1-4 middle=two pick=winner stack=on score=out match=single", 700),
    (4, "layout=1-4 middle=one pick=slap stack=off score=points word=SLAM", 700),
    (5, "layout=3x5 middle=two pick=slap stack=off score=out spit=auto quick=off", 700),
    (6, "layout=1-5 middle=one pick=winner stack=on score=out counts=on", 700),
    (0xFFFFFFFF, "layout=1-5 middle=two pick=slap stack=on score=points", 100000),
    (8, "middle=one", 100000),
]


def on_cpython(games):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(PLAYOUT.replace("GAMES", repr(games)), {"__name__": "playout"})  # noqa: S102
    return out.getvalue()


@pytest.mark.micropython_vm
def test_the_same_games_on_cpython_and_micropython():
    here = on_cpython(GAMES)
    assert len(here.splitlines()) == len(GAMES)
    assert "Outcome(" in here.splitlines()[-1], "the long games are played to the end"
    there = run(PLAYOUT.replace("GAMES", repr(GAMES)), heap_kib=2048)
    assert there.splitlines() == here.splitlines()


@pytest.mark.micropython_vm
@pytest.mark.soak
def test_soak_every_rule_class_on_both():
    import itertools

    from spit.options import CHOICES

    names = ("layout", "middle", "pick", "stack", "score")
    games = [
        (
            seed,
            " ".join(f"{name}={value}" for name, value in zip(names, values, strict=True)),
            100000,
        )
        for seed, values in enumerate(itertools.product(*(dict(CHOICES)[n] for n in names)))
    ]
    assert run(PLAYOUT.replace("GAMES", repr(games)), heap_kib=4096) == on_cpython(games)


# Viper modules do not import on the host (nor on the VM): their plain twins do.
MODULES = sorted(
    name[:-3]
    for name in os.listdir(os.path.join(FIRMWARE, "spit"))
    if name.endswith(".py") and name != "__init__.py" and not name.endswith("_viper.py")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass_on_cpython(name):
    module = importlib.import_module("spit." + name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


# Between rounds on the device: the score, the shuffles and the deal, each in a pass of
# its own, with the heap locked but for the room made in the history (``room_for_a_round``)
# and the deal that ends the game (its ``Outcome``).
_ROUND_ENDS_LOCKED = (
    PLAYOUT.split("for seed, options_text")[0]
    + r"""
import micropython


def between_rounds(game):
    micropython.heap_lock()
    try:
        game.shuffle()  # player 1's cards
        game.shuffle()  # player 2's
    finally:
        micropython.heap_unlock()
    game.shuffle()  # the room in the history
    ends = 0 in game.last_round.held or game.options.score == "points"
    if not ends:
        micropython.heap_lock()
    try:
        game.deal()
    finally:
        if not ends:
            micropython.heap_unlock()


for seed, options_text in SETS:
    game = Game(seed, Options.parse(options_text))
    game.deals_later = True
    rng = Rng(seed)
    rounds = 0
    while game.outcome() is None and len(game.history) < 3000:
        if game.phase == PHASE_DEALING:
            micropython.heap_lock()
            try:
                game.shuffle()  # the round scored
            finally:
                micropython.heap_unlock()
            between_rounds(game)
            rounds += 1
            continue
        game.apply(sensible(game, rng))
    print(seed, rounds, game.card_count())
"""
)


def test_a_rounds_end_and_the_next_deal_allocate_nothing_on_micropython(mpvm):
    sets = [(11, ""), (12, "layout=3x5 middle=one pick=winner"), (13, "layout=1-4 stack=on")]
    script = _ROUND_ENDS_LOCKED.replace("SETS", repr(sets)).replace(
        "from spit.games import PHASE_PLAY,", "from spit.games import PHASE_DEALING, PHASE_PLAY,"
    )
    lines = mpvm(script, heap_kib=2048).split()
    rounds = [int(n) for n in lines[1::3]]
    assert all(n >= 2 for n in rounds), lines  # rounds ended and were dealt, locked
    assert lines[2::3] == ["52"] * len(sets)
