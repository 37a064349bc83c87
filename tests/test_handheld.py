"""The whole firmware path (pins, capture, debounce, arbiter, controls, rules, CPU seats,
renderer, display driver) on the MicroPython VM and on CPython."""

import framebuf
from drivers.buttons import IrqButtons
from handheld import Handheld
from machine import Pin
from spit import keys
from spit.controller import MATCH
from spit.render import Renderer
from spit.rules import PHASE_OVER
from spit.savedata import SaveData

from host_sim.display.wiring import wired_display
from host_sim.firmware_vm import DEVICE, whole_match
from host_sim.vm_machine import VM_MACHINE

IDLE_PASSES = """
run(2)
print(locked_passes(200))  # the title
press(2)  # P1 C3: the title ignores it; it stays down
run(3)
release(2)  # C3 disarmed, counting its quiet time
print(locked_passes(200))
tap(7)  # P1 SPIT: a match
print(controller.mode, locked_passes(200))  # the ready screen
press(7)
press(15)
run(30)
print(locked_passes(200))  # the countdown, both SPIT held
release(7)
release(15)
run(3200)
print(handheld.session.table.game.phase, locked_passes(300))  # play: nobody moves
press(2)
release(2)
press(2)  # a bounce while C3 is disarmed: no press
run(3)
print(locked_passes(200), handheld.errors, handheld.overflows())
"""


def test_idle_passes_allocate_nothing_on_any_screen(mpvm):
    code = DEVICE.replace("SEATS", '["person", "person"]') + IDLE_PASSES
    assert mpvm(code, files=VM_MACHINE).split() == (
        ["0", "0", str(MATCH), "0", "0", "1", "0", "0", "0", "0"]
    )


def test_idle_passes_with_a_cpu_seat_waiting_allocate_nothing(mpvm):
    code = DEVICE.replace("SEATS", '["person", "relaxed"]') + (
        "run(2)\ntap(7)\nprint(locked_passes(100), handheld.errors)\n"
    )
    assert mpvm(code, files=VM_MACHINE).split() == ["0", "0"]


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
    handheld.step(now[0] + 1000)
    assert handheld.errors == 0 and saved.matches[session.match.winner()] == 1
    expected, expected_view = wired_display()
    winner = session.match.winner()
    Renderer(expected, framebuf).match_result(
        winner, session.match.wins, (True, True), (), session.match.seed
    )
    assert virtual.rgb() == expected_view.rgb()
