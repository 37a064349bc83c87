"""The whole firmware path (pins, capture, debounce, arbiter, controls, rules, CPU seats,
renderer, display driver) on the MicroPython VM and on CPython."""

import framebuf
import pytest
from drivers.buttons import IrqButtons
from handheld import Handheld
from machine import Pin
from spit import keys
from spit.games import PHASE_OVER, PHASE_PLAY
from spit.modes import ERROR_US, MATCH
from spit.render import Renderer
from spit.savedata import SaveData

from host_sim.display.wiring import wired_display
from host_sim.vm.firmware_path import DEVICE, idle_passes, whole_match
from host_sim.vm.machine_module import VM_MACHINE


@pytest.mark.micropython_vm
def test_idle_passes_allocate_nothing_on_any_screen():
    allocated, mode, phase, errors, overflows = idle_passes()
    assert allocated == [0] * 6
    assert (mode, phase, errors, overflows) == (MATCH, PHASE_PLAY, 0, 0)


def test_idle_passes_with_a_cpu_seat_waiting_allocate_nothing(mpvm):
    code = DEVICE.replace("SEATS", '["person", "relaxed"]') + (
        "run(2)\ntap(7)\nprint(locked_passes(100), handheld.errors)\n"
    )
    assert mpvm(code, files=VM_MACHINE).split() == ["0", "0"]


# Every committed press of a whole match, from the opening spit to the last slap, run
# with the heap locked. Here and in the whole matches below, whatever allocates with the
# heap locked raises MemoryError, and the match ends on the error screen.
_LOCKED_PRESSES = """
from spit.controls import Controls
_press = Controls.press
presses = [0]


def locked_press(self, button, t, tie=False):
    presses[0] += 1
    micropython.heap_lock()
    try:
        return _press(self, button, t, tie)
    finally:
        micropython.heap_unlock()


Controls.press = locked_press
saved.options = Options.parse(OPTIONS)
controller.new_match(now[0])
session = controller.session
while session.match.winner() < 0 and handheld.errors == 0:
    run(2000, 2000)
print(session.match.winner(), handheld.errors, presses[0], session.match.games_played())
"""


@pytest.mark.parametrize(
    "options", ["match=single", "match=single middle=one stack=on", "score=points"]
)
def test_no_press_of_a_whole_cpu_match_allocates_on_micropython(mpvm, options):
    code = DEVICE.replace("SEATS", '["lightning", "quick"]')
    code += _LOCKED_PRESSES.replace("OPTIONS", repr(options))
    winner, errors, presses, games = (int(v) for v in mpvm(code, files=VM_MACHINE).split())
    assert errors == 0 and winner in (0, 1)
    assert presses > 40 * games


# Every pass of play of a whole CPU match (begun with the play screen up, the game in play
# or waiting for its slap) run with the heap locked, regions a call as on the device.
_LOCKED_PLAY = """
from spit.games import PHASE_PLAY, PHASE_SLAP
from spit.screens import PLAY

renderer.regions_per_call = 1
saved.options = Options.parse(OPTIONS)
controller.new_match(now[0])
session = controller.session
locked = [0]


def pass_of_play():
    now[0] = time.ticks_add(now[0], 2000)
    micropython.heap_lock()
    try:
        handheld.step(now[0])
    finally:
        micropython.heap_unlock()
    locked[0] += 1


while session.match.winner() < 0 and handheld.errors == 0:
    phase = session.table.game.phase
    if renderer.screen == PLAY and (phase == PHASE_PLAY or phase == PHASE_SLAP):
        pass_of_play()
    else:
        run(1, 2000)
print(session.match.winner(), handheld.errors, locked[0], session.match.games_played())
print(repr(handheld.last_error))
"""


@pytest.mark.parametrize("options", ["match=single", "match=single middle=one stack=on"])
def test_no_pass_of_play_of_a_whole_cpu_match_allocates_on_micropython(mpvm, options):
    code = DEVICE.replace("SEATS", '["lightning", "quick"]')
    code += _LOCKED_PLAY.replace("OPTIONS", repr(options))
    counts, error = mpvm(code, files=VM_MACHINE).strip().split("\n")
    winner, errors, passes, games = (int(v) for v in counts.split())
    assert errors == 0, error
    assert winner in (0, 1) and passes > 1000 * games


# Every pass of a whole CPU match and of the next match's first game, run with the heap
# locked, regions a call as on the device. The heap is unlocked inside three calls alone,
# the game's joints that make objects: laying a new game out, a break (it writes the save
# and collects) and a deal whose game outgrew the room its record had
# (``rules.room_for_a_round``).
_LOCKED_MATCH = """
import spit.games
import spit.round_clocks
import spit.spit
from spit.scheduler import HEAP
from spit.session import Session

HEAP.on = True  # the screens and the CPU seats' glances lock it too, inside
renderer.regions_per_call = 1
saved.options = Options.parse(OPTIONS)
saved.game = GAME
locked = [False]
unlocked = {"game": 0, "break": 0, "room": 0}


def unlocked_call(name, f, a=None, b=None):  # no *args: a tuple, made while locked
    micropython.heap_unlock()
    locked[0] = False
    unlocked[name] += 1
    try:
        return f() if a is None else f(a) if b is None else f(a, b)
    finally:
        locked[0] = True
        micropython.heap_lock()


_new_game, _room = Session._new_game, spit.spit.room_for_a_round
_break = controller.scheduler.on_break


def new_game(session):
    return unlocked_call("game", _new_game, session) if locked[0] else _new_game(session)


def take_break():
    return unlocked_call("break", _break) if locked[0] else _break()


def room(items, had):
    if not locked[0] or had - len(items) >= spit.games.ROUND_ACTIONS:
        return _room(items, had)
    return unlocked_call("room", _room, items, had)


Session._new_game = new_game
controller.scheduler.on_break = take_break
spit.spit.room_for_a_round = spit.round_clocks.room_for_a_round = room
passes = {}


def one_pass():
    now[0] = time.ticks_add(now[0], 2000)
    name = controller.screen_name()
    micropython.heap_lock()
    locked[0] = True
    try:
        handheld.step(now[0])
    finally:
        locked[0] = False
        micropython.heap_unlock()
    passes[name] = passes.get(name, 0) + 1


controller.new_match(now[0])
first = controller.session.match
while handheld.errors == 0 and controller.session.match is first:
    one_pass()
for _ in range(1000):  # into the next match's first game
    one_pass()
for name in passes:
    print(name.replace(" ", "_"), passes[name])
print("unlocked", unlocked["game"], unlocked["break"], handheld.errors)
print(repr(handheld.last_error), first.winner())
"""


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("spit", "match=single"),
        ("spit", "match=single middle=one stack=on"),
        ("spit", "score=points"),
        ("speed", "match=bo3"),
    ],
)
def test_every_pass_of_a_whole_cpu_match_runs_with_the_heap_locked_on_micropython(
    mpvm, game, options
):
    code = DEVICE.replace("SEATS", '["lightning", "quick"]')
    code += _LOCKED_MATCH.replace("OPTIONS", repr(options)).replace("GAME", repr(game))
    *screens, counts, ending = mpvm(code, files=VM_MACHINE).strip().split("\n")
    passes = {name: int(count) for name, count in (line.split() for line in screens)}
    games, breaks, errors = (int(v) for v in counts.split()[1:])
    error, winner = ending.rsplit(" ", 1)
    assert errors == 0, error
    assert int(winner) in (0, 1)
    # Speed has no round result: a game is one round.
    shown = ("round_result",) if game == "spit" else ("game_over",)
    for name in ("ready", "countdown", "play", "match_result") + shown:
        assert passes[name] > 100, name
    assert games >= 1 and breaks >= 3, "the next match's game laid out, the breaks taken"


# The menus' screens through the loop, the heap locked where the device locks it: what
# the passes of each stretch allocated, the stretch's first pass apart (it takes the
# screen's values: the error screen wraps its message, the self-test imports its code).
_MENU_PASSES = """
from spit.scheduler import HEAP

HEAP.on = True  # as the device runs, a region a call
renderer.regions_per_call = 1


def stretch(passes, *buttons):
    run(1)
    before = gc.mem_alloc()
    for button in buttons:
        tap(button)
    run(passes)
    return gc.mem_alloc() - before


P1_SPIT, P1_L, P1_R, P1_C1 = 7, 5, 6, 0
run(5)
title = stretch(300)
press(P1_SPIT)
run(2100)  # held two seconds: the settings
release(P1_SPIT)
settings = stretch(300, P1_L, P1_L, P1_C1, P1_R, P1_C1)
opened = controller.mode
controller.fail("MemoryError: memory allocation failed, allocating 4096 bytes", now[0])
error = stretch(600)
controller.self_test(now[0])
self_test = stretch(600, P1_C1, P1_C1, 9)
print(title, settings, error, self_test, opened, controller.mode, handheld.errors)
"""


def test_the_menus_screens_allocate_nothing_after_taking_their_values_on_micropython(mpvm):
    from spit.modes import SELF_TEST, SETTINGS

    code = DEVICE.replace("SEATS", '["person", "person"]') + _MENU_PASSES
    *allocated, opened, mode, errors = (int(v) for v in mpvm(code, files=VM_MACHINE).split())
    assert (opened, mode, errors) == (SETTINGS, SELF_TEST, 0)
    assert allocated == [0, 0, 0, 0]


@pytest.mark.micropython_vm
def test_a_whole_cpu_match_on_micropython_ends_on_the_match_result():
    result = whole_match()
    assert result["mode"] == MATCH and result["phase"] == PHASE_OVER
    assert result["winner"] in (0, 1) and result["errors"] == 0
    assert result["heap_peak_bytes"] <= 96 * 1024


def test_a_whole_cpu_match_on_cpython_shows_the_match_result():
    display, virtual = wired_display()
    pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(keys.BUTTON_COUNT)]
    now = [0]
    saved = SaveData()
    saved.seats = ["lightning", "lightning"]
    saved.options.set("match", "single")
    renderer = Renderer(display, framebuf)
    handheld = Handheld(IrqButtons(pins, lambda: now[0]), 0, saved, 1, renderer)
    handheld.controller.new_match(0)
    session = handheld.session
    while session.table.game.phase != PHASE_OVER:
        now[0] += 2000
        handheld.step(now[0])
    for _ in range(3):  # the game's end taken up, then its screen drawn
        now[0] += 1000
        handheld.step(now[0])
    assert handheld.errors == 0 and saved.matches[session.match.winner()] == 1
    expected, expected_view = wired_display()
    winner = session.match.winner()
    Renderer(expected, framebuf).match_result(
        winner, session.match.wins, (True, True), (), session.match.seed
    )
    assert virtual.rgb() == expected_view.rgb()


def test_a_tone_starts_at_the_next_pass_timed_from_when_it_was_asked_for():
    from drivers.buzzer import Buzzer
    from spit.sounds import SOUNDS
    from test_sound import RecordingPwm

    pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(keys.BUTTON_COUNT)]
    pwm = RecordingPwm()
    saved = SaveData()
    handheld = Handheld(IrqButtons(pins, lambda: 0), 0, saved, 1, buzzer=Buzzer(pwm))
    handheld.controller.sound("go", 10_000)  # as an event in a pass at 10 ms does
    assert pwm.sounding() == 0  # nothing yet: the pass that asked has a press to commit
    handheld.step(12_000)
    assert pwm.sounding() == SOUNDS["go"][0]
    ends = 10_000 + SOUNDS["go"][1] * 1000  # one note, timed from 10 ms
    handheld.step(ends - 1)
    assert pwm.sounding() == SOUNDS["go"][0]
    handheld.step(ends)
    assert handheld.buzzer.playing is None and pwm.sounding() == 0


def test_the_pass_that_starts_a_tone_carries_nothing_that_can_wait():
    from drivers.buzzer import Buzzer
    from spit.sounds import SOUNDS
    from test_sound import RecordingPwm

    pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(keys.BUTTON_COUNT)]
    pwm = RecordingPwm()
    now = [0]
    clock = lambda: now[0]  # noqa: E731
    handheld = Handheld(IrqButtons(pins, clock), 0, SaveData(), 1, buzzer=Buzzer(pwm), clock=clock)
    now[0] = 1_000
    handheld.step(now[0])
    assert not handheld.scheduler.carried, "a quiet pass on the title"
    handheld.controller.sound("go", now[0])
    now[0] = 2_000
    handheld.step(now[0])
    assert pwm.sounding() == SOUNDS["go"][0]
    assert handheld.scheduler.carried, "no region, glance or second press after the tone"


def test_the_device_loop_runs_pass_after_pass_until_one_fails():
    from spit.modes import ERROR

    pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(keys.BUTTON_COUNT)]
    now = [0]
    handheld = Handheld(IrqButtons(pins, lambda: now[0]), 0, SaveData(), 1)
    passes = []
    steady = handheld.debouncer.update

    def update(at):
        passes.append(at)
        if len(passes) == 5:
            raise ValueError("the fifth pass fails")
        steady(at)

    handheld.debouncer.update = update

    def clock():
        now[0] += 1000
        return now[0]

    handheld.run(clock)
    assert passes == [1000, 2000, 3000, 4000, 5000], "one pass at each reading of the clock"
    assert handheld.errors == 1 and str(handheld.last_error) == "the fifth pass fails"
    assert handheld.controller.mode == ERROR
    handheld.step(clock())
    assert handheld.errors == 1, "the passes after it run on"


# -- the error path itself ----------------------------------------------------------------


class Unprintable(Exception):
    """An error whose message cannot be had: its ``__str__`` raises."""

    def __str__(self):
        raise RuntimeError("no message")


def bare_handheld(**kwargs):
    pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(keys.BUTTON_COUNT)]
    return Handheld(IrqButtons(pins, lambda: 0), 0, SaveData(), 1, **kwargs)


def failing_at(handheld, passes, error):
    """The debouncer raises ``error`` at each pass number in ``passes`` (from 1); returns
    a list whose item counts the passes."""
    count = [0]
    steady = handheld.debouncer.update

    def update(at):
        count[0] += 1
        if count[0] in passes:
            raise error
        steady(at)

    handheld.debouncer.update = update
    return count


def device_loop(handheld, watchdog, ms):
    """``device.main``'s loop, a millisecond a reading of the clock, for ``ms`` ms:
    returns how many faults it reported; fails if the watchdog would have reset the
    board."""
    now = [0]

    def clock():
        assert not watchdog.advance(1), "the watchdog reset the board"
        now[0] += 1000
        if now[0] > ms * 1000:
            raise _Stop
        return now[0]

    reported = 0
    try:
        while True:
            if handheld.run(clock):
                reported += 1
    except _Stop:
        return reported


class _Stop(BaseException):
    """Ends the device's endless loop from the test's clock (the loop catches Exception)."""


def counted_fails(handheld):
    calls = []
    fail = handheld.controller.fail

    def counted(message, now):
        calls.append(message)
        fail(message, now)

    handheld.controller.fail = counted
    return calls


def test_an_error_whose_message_raises_shows_its_name_and_the_loop_goes_on():
    from spit.modes import ERROR

    handheld = bare_handheld()
    failing_at(handheld, {3}, Unprintable())
    now = [0]

    def clock():
        now[0] += 1000
        return now[0]

    assert handheld.run(clock) is True
    controller = handheld.controller
    assert controller.mode == ERROR and controller.modes[ERROR].message == "Unprintable"
    handheld.step(clock())
    assert handheld.errors == 1


def test_an_error_whose_message_raises_on_micropython(mpvm):
    code = DEVICE.replace("SEATS", '["person", "person"]') + (
        "class Unprintable(Exception):\n"
        "    def __str__(self):\n"
        "        raise RuntimeError('no message')\n"
        "def fail(at):\n"
        "    raise Unprintable()\n"
        "handheld.debouncer.update = fail\n"
        "print(handheld.run(clock), controller.mode, controller.current.message,"
        " handheld.errors)\n"
    )
    assert mpvm(code, files=VM_MACHINE).split() == ["True", "4", "Unprintable", "1"]


def test_a_fault_inside_fail_still_brings_the_error_screen_up():
    from spit.modes import ERROR

    display, virtual = wired_display()
    renderer = Renderer(display, framebuf)
    renderer.regions_per_call = 1

    def invalidate():
        raise OSError(5)  # EIO: the display's driver, say

    renderer.invalidate = invalidate
    handheld = bare_handheld(renderer=renderer)
    for at in range(1, 50):
        handheld.step(at * 1000)  # the title, drawn
    failing_at(handheld, {1}, ValueError("a fault"))
    handheld.step(50_000)
    assert handheld.controller.mode == ERROR and handheld.errors == 1
    for at in range(51, 400):
        handheld.step(at * 1000)
    assert handheld.errors == 1 and not renderer.busy
    expected, expected_view = wired_display()
    Renderer(expected, framebuf).error("ValueError: a fault")
    assert virtual.rgb() == expected_view.rgb()


def test_a_tone_that_fails_to_start_shows_once_and_the_watchdog_is_fed():
    from machine import WDT
    from spit.modes import ERROR

    class BrokenBuzzer:
        muted = False
        playing = None
        tries = 0

        def play(self, name, now):
            self.tries += 1
            raise OSError(5)

        def update(self, now):
            pass

    buzzer = BrokenBuzzer()
    watchdog = WDT(timeout=4000)
    handheld = bare_handheld(buzzer=buzzer, watchdog=watchdog)
    handheld.controller.sound("go", 0)
    assert device_loop(handheld, watchdog, ERROR_US // 1000 + 2_000) == 1
    assert handheld.errors == 1 and buzzer.tries == 1
    assert handheld.controller.mode != ERROR, "the title came back"
    handheld.controller.sound("play", 12_000_000)  # a later sound: the buzzer is left out
    assert device_loop(handheld, watchdog, 100) == 0
    assert handheld.errors == 1 and buzzer.tries == 1


def test_a_fault_at_every_pass_shows_once_and_backs_off():
    from machine import WDT
    from spit.modes import ERROR

    watchdog = WDT(timeout=4000)
    handheld = bare_handheld(watchdog=watchdog)
    fails = counted_fails(handheld)
    passes = failing_at(handheld, set(range(10, 10**6)), IndexError("every pass"))
    assert device_loop(handheld, watchdog, 6000) == 1
    assert fails == ["IndexError: every pass"]
    # Every failed pass is counted (the last but for the clock that ended the test).
    assert handheld.errors == passes[0] - 10
    assert watchdog.feeds == passes[0] > 2000
    # A pass that goes through ends the repeat: the next fault shows.
    del handheld.debouncer.update  # mended
    failing_at(handheld, {5}, KeyError("another"))
    assert device_loop(handheld, watchdog, 10) == 1
    assert fails[1:] == ["KeyError: 'another'"] and handheld.controller.mode == ERROR


def test_a_fault_that_comes_back_while_its_error_screen_is_up_is_not_shown_again():
    handheld = bare_handheld()
    fails = counted_fails(handheld)
    failing_at(handheld, set(range(2, 3000, 2)), ValueError("every other pass"))
    for at in range(1, 3000):
        handheld.step(at * 1000)
    assert fails == ["ValueError: every other pass"] and handheld.errors == 1499
