"""Boot on fake hardware: the handheld's main loop and the USB console."""

import main
from drivers.buttons import IrqButtons
from handheld import Handheld
from machine import Pin
from spit import keys
from spit.options import Options


def build(held=()):
    pins = [Pin(i, Pin.IN, Pin.PULL_UP) for i in range(keys.BUTTON_COUNT)]
    for button in held:
        pins[button].press()
    clock = [0]
    handheld = Handheld(IrqButtons(pins, lambda: clock[0]), 0, Options(), 9)
    return handheld, pins, clock


def test_a_button_held_at_power_on_is_named_and_ignored_until_released():
    spit = keys.button_id(1, keys.SPIT)
    handheld, pins, clock = build(held=[spit])
    assert main.held_at_power_on(handheld.debouncer.held_since_start) == (
        "held at power-on, ignored until released: P2 SPIT"
    )
    for _ in range(50):
        clock[0] += 1000
        handheld.step(clock[0])
    assert handheld.session.table.controls.called == [False, False]
    pins[spit].release()
    for _ in range(50):
        clock[0] += 1000
        handheld.step(clock[0])
    pins[spit].press()
    for _ in range(5):
        clock[0] += 1000
        handheld.step(clock[0])
    assert handheld.session.table.controls.called == [False, True]


def test_the_console_prints_the_table_when_it_changes(capsys):
    handheld, pins, clock = build()
    console = main.Console()
    console.handheld = handheld
    handheld.session.table.controls.listener = console.on_event
    console.show()
    assert "Both press SPIT" in capsys.readouterr().out
    console.show()
    assert capsys.readouterr().out == ""
    for button in (keys.button_id(0, keys.SPIT), keys.button_id(1, keys.SPIT)):
        pins[button].press()
    for _ in range(5):
        clock[0] += 1000
        handheld.step(clock[0])
    console.show()
    out = capsys.readouterr().out
    assert "spat" in out and "pack 10" in out
    assert handheld.overflows() == 0
