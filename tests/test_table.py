"""The table (arbiter + controls + CPU seats), the session and the match, on CPython and
on the MicroPython VM."""

import pytest
from positions import position
from spit import keys
from spit.controls import PLAYED, Controls
from spit.match import Match
from spit.options import Options
from spit.rules import SPIT_ACTION, Game, Outcome, move, play, slap
from spit.session import Session
from spit.table import Table

# A whole CPU-against-CPU game through the session, in simulated time; prints a digest.
SESSION_GAME = """
from spit.options import Options
from spit.session import Session
from spit import textview
done = []
session = Session(Options.parse(%r), 42, ("quick", "lightning"), None,
                  lambda game, match: done.append(game))
now = (1 << 30) - 5_000_000
while not done:
    session.run(now)
    now = (now + 1000) & ((1 << 30) - 1)
game = done[0]
print(game.outcome().winner, game.round, game.plays, game.spits, game.slaps, len(game.history))
print(" ".join(str(a) for a in game.history))
print("\\n".join(textview.lines(game, session.table.controls)))
"""


def test_presses_for_each_action_make_that_action():
    game = position(["2C 7H", "9D", "", "KS"], ["5C", "QH"], ["6S", "10D"], options="quick=off")
    controls = Controls(game)
    assert controls.presses_for(0, play(0, 0, 0)) == [keys.C1, keys.LEFT]
    assert controls.presses_for(1, play(1, 0, 0)) == [keys.C1, keys.RIGHT]
    assert controls.presses_for(0, move(0, 0, 2)) == [keys.C1, keys.C3]
    assert controls.presses_for(0, SPIT_ACTION) == [keys.SPIT]
    controls.press(keys.button_id(0, keys.C2), 0)  # 9D in hand
    assert controls.presses_for(0, play(0, 0, 0)) == [keys.C2, keys.C1, keys.LEFT]
    assert controls.presses_for(0, play(0, 1, 1)) == [keys.RIGHT]
    quick = Controls(position(["7H"], ["5C"], ["6S", "JD"]))
    assert quick.presses_for(0, play(0, 0, 0)) == [keys.C1]
    assert quick.presses_for(0, move(0, 0, 2)) is None, "quick play would play it"
    slapping = Controls(position(["7H"], ["5C"], ["6S", "JD"]))
    assert slapping.presses_for(1, slap(1, 1)) == [keys.LEFT]


def test_every_cpu_action_pressed_through_the_controls_is_applied():
    for seed in range(30):
        game = Game(seed, Options.parse(["", "quick=off", "stack=on"][seed % 3]))
        controls = Controls(game)
        for _ in range(300):
            actions = [a for a in game.legal_actions() if a != SPIT_ACTION]
            if not actions:
                break
            action = actions[seed * 7 % len(actions)]
            player = (action >> 8) & 1
            presses = controls.presses_for(player, action)
            if presses is None:
                continue
            before = len(game.history)
            for key in presses:
                controls.press(keys.button_id(player, key), 0)
            assert game.history[before:] == [action]


def test_cpu_presses_go_through_the_arbiter():
    game = Game(8)
    events = []
    from spit.cpu import Cpu

    table = Table(game, lambda *e: events.append(e), (Cpu(0, "lightning", 8), None))
    now = 0
    table.touch(keys.button_id(1, keys.SPIT), now)
    while game.plays == 0:
        now += 1000
        table.run(now)
    assert (PLAYED, 0, events[-1][2]) == events[-1]
    assert table.arbiter.overflows == 0


def test_session_plays_games_one_after_another_and_starts_a_new_match():
    games = []
    session = Session(
        Options.parse("match=single"),
        3,
        ("lightning", "lightning"),
        None,
        lambda game, match: games.append((game, list(match.wins))),
    )
    now = 0
    while len(games) < 2:
        session.run(now)
        now += 2000
    assert games[0][1] in ([1, 0], [0, 1])
    assert sorted(games[1][1]) == [0, 1], "a single-game match starts afresh"


def test_match_is_best_of_three_or_single():
    match = Match(Options(), 1)
    seeds = set()
    for winner in (0, 1, 0):
        assert match.winner() == -1
        seeds.add(match.new_game().seed)
        match.record(Outcome(winner, "out of cards"))
    assert match.winner() == 0 and match.wins == [2, 1] and len(seeds) == 3
    single = Match(Options.parse("match=single"), 1)
    single.record(Outcome(1, "out of cards"))
    assert single.winner() == 1


@pytest.mark.parametrize("options", ["", "middle=one quick=off", "stack=on spit=auto"])
def test_a_session_game_is_the_same_on_micropython(mpvm, options):
    on_vm = mpvm(SESSION_GAME % options)
    namespace = {}
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(SESSION_GAME % options, namespace)
    assert on_vm == out.getvalue()
    assert int(on_vm.split()[2]) > 0, "the game had plays"


def test_hardware_setup_builds_the_buttons_in_button_order():
    import hardware_setup
    from drivers.buttons import IrqButtons

    capture = hardware_setup.buttons(lambda: 0)
    assert isinstance(capture, IrqButtons)
    assert [pin.id for pin in capture._pins] == list(range(keys.BUTTON_COUNT))
    assert all(pin.pull == pin.PULL_UP and pin.hard for pin in capture._pins)
    capture._pins[keys.button_id(1, keys.SPIT)].press()
    assert capture.pressed_mask() == 1 << keys.button_id(1, keys.SPIT)
