"""Frames on the heap: ``host_sim.bench.heap_frames`` reads each function's state size from
``mpy-cross``'s output; the emulated Pico confirms which of them MicroPython allocates;
the functions of every pass and of every press fit on the C stack."""

import pytest

from host_sim.bench.heap_frames import firmware_frames, frames
from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico, firmware_paths
from host_sim.emu.fs_image import board_files, compiled

# Each function reports the bytes allocated when its body begins: more than its
# caller saw just before the call if and only if its frame came from the heap.
_SHAPES = """
import gc


def eleven_words():
    a = b = c = d = e = f = g = h = i = gc.mem_alloc()
    return a


def twelve_words():
    a = b = c = d = e = f = g = h = i = j = gc.mem_alloc()
    return a


def a_try(x):
    try:
        return gc.mem_alloc()
    except ValueError:
        return x


def a_try_and_locals(x, y, z):
    try:
        return gc.mem_alloc()
    except ValueError:
        return x + y + z


def an_except_as(x):
    try:
        return gc.mem_alloc()
    except ValueError as error:
        return error


def an_except_as_and_an_argument(x, y):
    try:
        return gc.mem_alloc()
    except ValueError as error:
        return (error, x, y)


# Direct calls: a call through ``*args`` would allocate its arguments.
before = gc.mem_alloc()
print('eleven_words', eleven_words() > before)
before = gc.mem_alloc()
print('twelve_words', twelve_words() > before)
before = gc.mem_alloc()
print('a_try', a_try(1) > before)
before = gc.mem_alloc()
print('a_try_and_locals', a_try_and_locals(1, 2, 3) > before)
before = gc.mem_alloc()
print('an_except_as', an_except_as(1) > before)
before = gc.mem_alloc()
print('an_except_as_and_an_argument', an_except_as_and_an_argument(1, 2) > before)
"""

# The functions that run in every pass on the device.
EVERY_PASS = {
    "handheld.py": ["Handheld.run_pass"],
    "drivers/debounce.py": ["Debouncer.update"],
    "drivers/buzzer.py": ["Buzzer.update"],
    "spit/scheduler.py": [
        "Scheduler.begin",
        "Scheduler.now",
        "Scheduler.early",
        "Scheduler.turn",
        "Scheduler.run",
        "Scheduler.play",
        "Scheduler._due_by",
        "Scheduler._screen_up",
        "Scheduler.pending",
        "Scheduler._answer_now",
        "Scheduler._alone",
        "Scheduler._after",
        "Scheduler._show",
    ],
    "spit/controller.py": [
        "Controller.run",
        "Controller._note_holds",
        "Controller._note_hold",
    ],
    "spit/match_mode.py": [
        "MatchMode.run",
        "MatchMode._count_down",
        "MatchMode.draw",
    ],
    "spit/modes.py": [
        "Title.run",
        "Title.draw",
        "Attract.run",
        "Attract.draw",
        "Settings.run",
        "Error.run",
    ],
    "spit/render.py": ["Renderer.start", "Renderer.afford", "Renderer.take", "Renderer.cleared"],
    "spit/play_screen.py": [
        "PlayScreen.play",
        "PlayScreen._play",
        "PlayScreen._draw_pending",
    ],
    "spit/play_regions.py": ["Regions.draw"],
    "spit/static_screens.py": [
        "StaticScreens.step",
        "StaticScreens._show",
        "StaticScreens.title",
        "StaticScreens.settings",
        "StaticScreens.ready",
        "StaticScreens.countdown",
        "StaticScreens.round_result",
        "StaticScreens.game_over",
        "StaticScreens.match_result",
        "StaticScreens.error",
        "StaticScreens.self_test",
    ],
    "spit/session.py": ["Session.run"],
    # The CPU seats' part of a pass (``Table._run_cpus``) runs with the heap locked, its
    # frames on the C stack whatever their size: ``tests/test_table.py`` locks a whole game.
    "spit/table.py": ["Table.deal_step", "Table.cpus_wait"],
    "spit/arbiter.py": ["Arbiter.commit_due"],
    "spit/round_clocks.py": ["RoundClocks.update"],
    "spit/contest.py": ["Contest.settle", "Contest._write", "_put", "_put_number"],
    "spit/pen.py": [
        "Pen.set_message",
        "Pen.set_message_codes",
        "Pen.message_row",
        "Pen._codes_row",
    ],
}

# The functions a press or an action runs through, from its edge to the rules.
EVERY_PRESS = {
    "drivers/debounce.py": ["Debouncer._on_edge", "Debouncer._rearm", "Debouncer._released"],
    "spit/arbiter.py": [
        "Arbiter.add",
        "Arbiter._commit_next",
        "Arbiter._winner",
        "Arbiter._note_commit",
        "Arbiter._remove",
    ],
    "spit/controls.py": [
        "Controls.press",
        "Controls.catch_up",
        "Controls._tell",
        "Controls._card",
        "Controls._move_held",
        "Controls._quick_play",
        "Controls.only_fit",
        "Controls._pile_press",
        "Controls._land",
        "Controls._not_landed",
        "Controls._apply",
        "Controls._applied",
    ],
    "spit/contest.py": [
        "Contest.raced_pile",
        "Contest.race_margin",
        "Contest.slapped",
        "Contest.late_slap",
        "Contest.note",
    ],
    "spit/round_clocks.py": ["RoundClocks._note_stuck"],
    "spit/spit.py": [
        "Game.apply",
        "Game.try_play",
        "Game.move_if_allowed",
        "Game._take_top",
        "Game._has_stock",
        "Game.play_refusal",
        "Game._note_stall",
        "Game._move",
        "Game.is_stuck",
        "Game.can_play",
        "Game._know",
        "Game._can_dig",
    ],
    "spit/speed.py": [
        "Game.apply",
        "Game.check",
        "Game.try_play",
        "Game.play_refusal",
        "Game.own_call",
        "Game._play",
        "Game._flip",
        "Game._gather_step",
        "Game._take_ready",
        "Game.prepare_spit",
        "Game.is_stuck",
        "Game.is_out",
        "Game.can_play",
        "Game._know",
    ],
    "spit/games.py": [
        "Rules.top",
        "Rules.stock_top",
        "Rules.stock_count",
        "Rules.held",
        "Rules.move_if_allowed",
    ],
    "spit/controller.py": ["Controller.touch", "Controller._take"],
    "spit/modes.py": ["Title.press", "Attract.press", "Settings.press", "Error.press"],
    "spit/match_mode.py": ["MatchMode.enter"],
    "spit/listener.py": ["Listener.hear", "Listener._owe", "Listener._time"],
    "spit/reactions.py": ["Reactions.look", "Reactions._look", "Reactions.played"],
}


@pytest.mark.emulated_pico
def test_the_heap_frames_read_from_the_compiled_code_are_those_the_pico_allocates():
    if firmware_paths() is None:
        pytest.skip("no MicroPython UF2 / RP2040 boot ROM: emulated Pico skipped")
    expected = {frame.name: frame.on_heap for frame in frames(_SHAPES, "shapes")}
    files = board_files(main=False, extra={"shapes.mpy": compiled("shapes", _SHAPES)})
    with EmulatedPico(files=files) as pico:
        pico.run_us(BOOT_US)
        out = pico.exec("import shapes\n")
    measured = {}
    for line in out.strip().splitlines():
        name, flag = line.split()
        measured[name] = flag == "True"
    assert measured == {name: expected[name] for name in measured}
    assert not measured["eleven_words"] and measured["twelve_words"]
    assert not measured["a_try"] and measured["a_try_and_locals"]
    assert measured["an_except_as"], "an except ... as keeps two try entries open"


@pytest.mark.parametrize("functions", [EVERY_PASS, EVERY_PRESS], ids=["pass", "press"])
def test_the_functions_of_every_pass_and_press_keep_their_frames_off_the_heap(functions):
    on_heap = []
    for source, names in functions.items():
        found = {frame.name: frame for frame in firmware_frames(source)}
        for name in names:
            assert name in found, "%s has no %s" % (source, name)
            if found[name].on_heap:
                on_heap.append("%s: %r" % (source, found[name]))
    assert on_heap == []
