"""The table (arbiter + controls + CPU seats), the session and the match, on CPython and
on the MicroPython VM."""

import pytest
from helpers.positions import position
from machine import Pin
from spit import keys
from spit.controls import PLAYED, Controls
from spit.cpu import LEVEL_NAMES
from spit.games import (
    PHASE_DEALING,
    PHASE_PLAY,
    PHASE_READY,
    PHASE_SLAP,
    Outcome,
    move,
    play,
    slap,
)
from spit.options import Options
from spit.session import Match, Session
from spit.spit import SPIT_ACTION, Game
from spit.spit_cpu import SpitCpu
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
    session.run(now) or session.table.scheduler.play(now, session.table)
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
    table = Table(game, lambda *e: events.append(e), (SpitCpu(0, "lightning", 8), None))
    now = 0
    table.touch(keys.button_id(1, keys.SPIT), now)
    while game.plays == 0:
        now += 1000
        table.scheduler.play(now, table)
    assert (PLAYED, 0, events[-1][2]) == events[-1]
    assert table.arbiter.overflows == 0


def test_a_cpu_seat_presses_its_keys_a_pass_apart_so_a_press_made_between_commits_between():
    game = position(["8H", "KC"], ["5C", "9S", "7D"], ["6S", "JD"], options="quick=off")
    table = Table(game, cpus=(None, SpitCpu(1, "lightning")))
    committed = []
    commit = table.commit
    table.commit = lambda button, t, tie=False: (committed.append(button), commit(button, t, tie))
    now = 1_000_000
    while not table.arbiter.pending:
        now += 1000
        table.scheduler.play(now, table)
    assert table.arbiter.pending == 1, "the CPU seat's card first, its pile in a later pass"
    person = keys.button_id(0, keys.C2)
    table.touch(person, now - 500)  # after the card's stamp (the horizon), before the pile's
    for _ in range(6):
        now += 1000
        table.scheduler.play(now, table)
    cpu_card, cpu_pile = keys.button_id(1, keys.C1), keys.button_id(1, keys.RIGHT)
    assert committed == [cpu_card, person, cpu_pile]
    assert game.history[-1] == play(1, 0, 0)


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
        session.run(now) or session.table.scheduler.play(now, session.table)
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


@pytest.mark.parametrize("options", ["", "middle=one quick=off", "stack=on spit=auto"])
def test_the_cpu_seats_play_with_the_heap_locked_on_micropython(mpvm, options):
    # As on the device: the CPU seats' part of every pass of a whole game (their glances,
    # and their presses through ``Controls.keys_for``) runs with the heap locked, so any
    # allocation there would end the game in a MemoryError.
    locked = mpvm("from spit.scheduler import HEAP\nHEAP.on = True\n" + SESSION_GAME % options)
    assert locked == mpvm(SESSION_GAME % options)


def test_hardware_setup_builds_the_buttons_in_button_order(monkeypatch):
    import hardware_setup
    from drivers.buttons import IrqButtons

    built = []

    class RecordedPin(Pin):
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            built.append(self)

    monkeypatch.setattr(hardware_setup, "Pin", RecordedPin)
    capture = hardware_setup.buttons(lambda: 0, "irq")
    assert isinstance(capture, IrqButtons)
    assert [pin.id for pin in built] == list(range(keys.BUTTON_COUNT))
    assert all(pin.pull == pin.PULL_UP and pin.hard for pin in built)
    spit = keys.button_id(1, keys.SPIT)
    built[spit].press()
    assert capture.pressed_mask() == 1 << spit
    drained = []
    capture.drain(lambda button, t: drained.append(button))
    assert drained == [spit]


def test_a_slap_made_before_the_time_limit_beats_it_though_committed_after_it():
    table = Table(position(["7H"], ["5C"], ["6S", "JD 10D"], phase=PHASE_SLAP))
    limit = table.controls.clocks.slap_limit_us
    table.touch(keys.button_id(1, keys.LEFT), limit - 500)
    # The slap is not committed yet, and the limit has passed.
    table.scheduler.play(limit + 100, table)
    assert table.game.phase == PHASE_SLAP
    table.scheduler.play(limit + 600, table)
    assert table.game.history[-1] == slap(1, 1), "the player's slap, not the device's"


def test_the_next_round_is_scored_shuffled_and_dealt_in_the_five_passes_after_the_slap():
    game = position(["7H"], ["5C"], ["6S", "JD 10D"], packs=(5, 5), phase=PHASE_SLAP)
    table = Table(game)
    settle = table.arbiter.settle_us
    table.touch(keys.button_id(1, keys.LEFT), 0)
    table.touch(keys.button_id(0, keys.SPIT), 10)  # a call for the next round, at once
    table.scheduler.play(settle + 100, table)
    assert game.phase == PHASE_DEALING and game.history[-1] == slap(1, 1)
    assert not table.controls.called[0], "no press is committed after the slap in its pass"
    assert game.last_round is None
    table.scheduler.play(settle + 200, table)
    assert game.phase == PHASE_DEALING and not game.shuffled, "a pass to score the round"
    assert game.last_round.slapper == 1
    table.scheduler.play(settle + 230, table)
    assert game.phase == PHASE_DEALING and not game.shuffled, "a pass to shuffle P1's"
    table.scheduler.play(settle + 250, table)
    assert game.phase == PHASE_DEALING and not game.shuffled, "a pass to shuffle P2's"
    table.scheduler.play(settle + 270, table)
    assert game.phase == PHASE_DEALING and game.shuffled, "a pass to make room"
    assert game.last_round.slapper == 1
    assert not table.controls.called[0]
    changes = table.controls.changes
    table.scheduler.play(settle + 300, table)
    assert game.phase == PHASE_READY and not table.controls.called[0], "a pass to deal"
    assert table.controls.changes == changes + 1, "the new round told to the screens"
    table.scheduler.play(settle + 400, table)
    assert table.controls.called[0], "the call counts in the new round"


def test_the_automatic_spit_waits_for_presses_made_before_it():
    game = position(["KH"], ["KC"], ["6S", "8D"], options="spit=auto", packs=(5, 5))
    table = Table(game)
    table.controls.press(keys.button_id(0, keys.C1), 0)
    table.controls.press(keys.button_id(0, keys.C2), 0)  # everybody stuck from t=0
    due = table.controls.clocks.auto_spit_us
    table.touch(keys.button_id(1, keys.SPIT), due - 300)  # a call just before the spit
    table.scheduler.play(due + 200, table)
    assert game.spits == 0, "the device waits until that press is committed"
    table.scheduler.play(due + 999, table)
    assert game.spits == 0 and table.controls.called[1], "the call is in first"
    table.scheduler.play(due + 1000, table)
    assert game.spits == 1


def clocked_table(game):
    """A table whose scheduler reads a clock, and ``a_pass(now, late)``: a pass that begins
    at ``now`` and reaches the table ``late`` µs later."""
    from spit.scheduler import Scheduler

    clock = [0]
    scheduler = Scheduler(lambda: clock[0])
    table = Table(game, scheduler=scheduler)

    def a_pass(now, late=0):
        clock[0] = now
        scheduler.begin()
        clock[0] = now + late
        table.scheduler.play(now, table)

    return table, a_pass


def stuck_table():
    game = position(["KH"], ["KC"], ["6S", "8D"], options="spit=auto", packs=(5, 5))
    table, a_pass = clocked_table(game)
    table.controls.press(keys.button_id(0, keys.C1), 0)
    table.controls.press(keys.button_id(0, keys.C2), 0)  # everybody stuck from t=0
    return game, table, a_pass


def test_a_late_pass_commits_one_press_and_the_clocks_wait_for_a_pass_without_one():
    game, table, a_pass = stuck_table()
    due = table.controls.clocks.auto_spit_us
    table.touch(keys.button_id(0, keys.C2), due - 300)  # picks the king up again
    table.touch(keys.button_id(1, keys.SPIT), due - 400)
    a_pass(due + 1500, late=5_000)  # the pass is late from its first press on
    assert table.controls.called[1] and table.controls.hand[0] < 0, "the earliest only"
    assert game.spits == 0, "the automatic spit waits for the press still due"
    a_pass(due + 2500)
    assert table.controls.hand[0] == 1 and game.spits == 0, "a pass with a press in it"
    a_pass(due + 3500)
    assert game.spits == 0, "a pass works out whether the last action left everybody stuck"
    a_pass(due + 4500)
    assert game.spits == 1, "then the clocks run on"


def test_a_press_that_falls_due_on_the_way_to_the_table_commits_in_that_pass():
    game, table, a_pass = stuck_table()
    settle = table.arbiter.settle_us
    table.touch(keys.button_id(1, keys.SPIT), 10_000)
    a_pass(10_000 + settle - 300, late=299)
    assert not table.controls.called[1], "not due yet when the pass reaches the table"
    a_pass(10_000 + settle - 200, late=200)
    assert table.controls.called[1], "due by the time the pass reaches the table"


def test_a_late_pass_commits_no_press_that_a_press_not_taken_in_yet_could_tie():
    game, table, a_pass = stuck_table()
    settle, tie = table.arbiter.settle_us, table.arbiter.tie_us
    table.touch(keys.button_id(1, keys.SPIT), 10_000)  # taken in as the pass began
    a_pass(10_000 + tie - 1, late=5_000)
    assert not table.controls.called[1], "a press within the tie window may still come"
    a_pass(10_000 + tie, late=settle)
    assert table.controls.called[1], "the tie window has passed since the pass began"


def test_a_cpu_seat_waits_to_glance_while_a_press_is_about_to_be_due():
    from spit.scheduler import Scheduler

    clock = [0]
    scheduler = Scheduler(lambda: clock[0])
    game = Game(3)
    table = Table(game, cpus=(None, SpitCpu(1, "lightning")), scheduler=scheduler)
    table.touch(keys.button_id(0, keys.C1), 0)  # due at 1 ms: after the pass's glance
    scheduler.begin()
    table._run_cpus(0)
    assert table._seen[1] == -1, "no glance: the pass ends sooner"
    clock[0] = 5_000
    table.arbiter.commit_due(5_000, table.controls.press)
    scheduler.begin()
    table._run_cpus(5_000)
    assert table._seen[1] == len(game.history), "the seat glances once the press is in"


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_the_cpu_calls_spit_only_when_nobody_can_move(level):
    # A person opens the round at a random moment; the CPU's own call may be on its way.
    for seed in range(100):
        game = Game(seed)
        table = Table(game, cpus=(SpitCpu(0, level, seed), None))
        opening = (seed * 7919) % 3_000_000
        table.touch(keys.button_id(1, keys.SPIT), opening)
        now = 0
        while now < opening + 3_000_000:
            now += 1000
            table.scheduler.play(now, table)
            if game.phase == PHASE_PLAY and table.controls.called[0]:
                assert game.is_stuck(), (seed, now)
        assert game.spits >= 1


def test_the_tie_priority_lasts_across_games_and_matches():
    session = Session(Options.parse("match=single"), 3, ("lightning", "lightning"))
    first_table = session.table
    session.arbiter.priority = 1
    now = 0
    while session.table is first_table or session.match.winner() >= 0:
        session.run(now) or session.table.scheduler.play(now, session.table)
        now += 2000
    assert session.table.arbiter is session.arbiter is first_table.arbiter
    assert session.match.wins == [0, 0], "a new match"
    assert session.arbiter.ties == 0 and session.arbiter.priority == 1


def mixed_play(session, seconds, rng, keys_pressed):
    """Both seats played by the CPU while two hands press ``keys_pressed`` for both players
    at the same instant now and then: near presses of both players, often contested."""
    now = 0
    while now < seconds * 1_000_000:
        if rng.random() < 0.01:
            key = rng.choice(keys_pressed)
            session.touch(keys.button_id(0, key), now)
            session.touch(keys.button_id(1, key), now + rng.randrange(99))
        session.run(now) or session.table.scheduler.play(now, session.table)
        now += 1000


def test_contested_ties_split_within_one_over_many_games():
    import random

    games = []
    session = Session(
        Options.parse("match=single"),
        5,
        ("lightning", "lightning"),
        None,
        lambda game, match: games.append(game),
    )
    mixed_play(session, 450, random.Random(5), (keys.LEFT, keys.RIGHT, keys.C1, keys.C2))
    arbiter = session.arbiter
    assert len(games) >= 3 and arbiter.ties >= 20
    assert abs(arbiter.tie_wins[0] - arbiter.tie_wins[1]) <= 1


def test_near_presses_that_race_for_nothing_never_move_the_priority():
    import random

    session = Session(Options.parse("quick=off match=single"), 6, ("lightning", "lightning"))
    mixed_play(session, 120, random.Random(6), (keys.SPIT, keys.C3, keys.C4))
    assert session.arbiter.ties == 0 and session.arbiter.priority == 0


def test_hardware_setup_captures_with_the_pio_by_default(monkeypatch):
    import sys

    import hardware_setup
    import machine
    from helpers import pio_emulator

    monkeypatch.setattr(machine, "freq", lambda *hz: 125_000_000, raising=False)
    pio_emulator.install()
    monkeypatch.delitem(sys.modules, "drivers.pio_capture", raising=False)
    try:
        capture = hardware_setup.buttons(lambda: 0)
        assert type(capture).__name__ == "PioButtons"
    finally:
        sys.modules.pop("rp2", None)
        sys.modules.pop("drivers.pio_capture", None)


def test_cpu_glances_go_on_while_the_pass_has_time():
    from spit.scheduler import HOLD_PASSES, Scheduler

    clock = [0]

    def ticks_us():
        clock[0] += 300  # every reading finds the pass 300 µs on
        return clock[0]

    scheduler = Scheduler(ticks_us)
    game = position(["8H", "KC"], ["5C", "9S", "7D"], ["6S", "JD"])
    table = Table(game, cpus=(None, SpitCpu(1, "lightning")), scheduler=scheduler)
    cpu = table.cpus[1]
    drawn = cpu.rng.state  # its first glance draws its first reaction
    for _ in range(HOLD_PASSES):
        scheduler.begin()
        clock[0] += 5_000  # what the pass spent before the CPU seats' turn
        table.scheduler.play(1_000_000, table)
        assert cpu.rng.state == drawn and cpu.action is None, "a late pass leaves the look"
    scheduler.begin()
    clock[0] += 5_000
    table.scheduler.play(1_000_000, table)
    assert cpu.rng.state != drawn, "but the one after that glances, late or not"
    passes = 0
    while cpu.action is None:
        scheduler.begin()
        table.scheduler.play(1_000_000, table)
        passes += 1
    assert passes > 1, "a glance or two a pass"
    assert cpu.action == play(1, 0, 0)


def test_the_cpu_seats_leave_a_pass_to_the_screen_whose_turn_it_is():
    from spit.scheduler import DRAW, Scheduler

    clock = [0]
    scheduler = Scheduler(lambda: clock[0])
    game = position(["8H", "KC"], ["5C", "9S", "7D"], ["6S", "JD"])
    table = Table(game, cpus=(None, SpitCpu(1, "lightning")), scheduler=scheduler)
    cpu = table.cpus[1]
    drawn = cpu.rng.state  # its first glance draws its first reaction
    scheduler.begin()
    clock[0] += 5_000
    assert not scheduler.turn(DRAW)  # a late pass: the screen waits, and goes next
    scheduler.begin()
    table.scheduler.play(1_000_000, table)
    assert cpu.rng.state == drawn and cpu.action is None, "no glance in the screen's pass"
    assert scheduler.turn(DRAW), "and the pass still has its time for the screen"
    scheduler.begin()
    table.scheduler.play(1_000_000, table)
    assert cpu.rng.state != drawn, "the pass after it is the seats'"


def test_without_a_clock_a_look_ends_in_its_pass():
    game = position(["8H", "KC"], ["5C", "9S", "7D"], ["6S", "JD"])
    table = Table(game, cpus=(None, SpitCpu(1, "lightning")))
    table.scheduler.play(1_000_000, table)
    assert not table.cpus[1].looking() and table.cpus[1].action == play(1, 0, 0)


def test_a_cpu_seat_turned_away_in_a_late_pass_glances_before_the_timers_in_the_next():
    from spit.scheduler import GLANCE

    game = Game(3)
    table, a_pass = clocked_table(game)
    table.cpus = (None, SpitCpu(1, "lightning"))
    updates = []
    update = table.clocks
    table.clocks = lambda now: updates.append(now) or update(now)
    a_pass(10_000, late=5_000)  # too late in its pass for a glance
    assert table._seen[1] == -1 and table.scheduler.waiting == GLANCE and len(updates) == 1
    a_pass(11_500)
    assert table._seen[1] == len(game.history), "the seat turned away glanced"
    assert len(updates) == 1, "before the timers, which wait for the next pass"
    a_pass(13_000)
    assert len(updates) == 2
