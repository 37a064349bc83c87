"""The whole firmware path (pins, capture, debounce, arbiter, controls, rules, CPU seats,
renderer, display driver) on the MicroPython VM and on CPython."""

import framebuf
from drivers.buttons import IrqButtons
from handheld import Handheld
from machine import Pin
from spit import keys
from spit.controller import MATCH
from spit.render import Renderer
from spit.rules import PHASE_OVER, PHASE_PLAY
from spit.savedata import SaveData

from host_sim.display.wiring import wired_display
from host_sim.firmware_vm import DEVICE, idle_passes, whole_match
from host_sim.vm_machine import VM_MACHINE


def test_idle_passes_allocate_nothing_on_any_screen():
    allocated, mode, phase, errors, overflows = idle_passes()
    assert allocated == [0] * 6
    assert (mode, phase, errors, overflows) == (MATCH, PHASE_PLAY, 0, 0)


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


def test_the_device_loop_runs_pass_after_pass_until_one_fails():
    from spit.controller import ERROR

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
