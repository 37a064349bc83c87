"""Boot on fake hardware: device.py (what main.py runs) builds every part from
hardware_setup, and the screen shows what the renderer drew, through the real display
driver and the fake SPI wires."""


import framebuf
import hardware_setup
import machine
import pytest
from drivers.storage import Storage
from drivers.transcripts import Transcripts
from handheld import Handheld
from spit import keys
from spit.match_mode import EAGER_US
from spit.modes import MATCH, SELF_TEST, TITLE
from spit.render import Renderer

from host_sim.display.panel import VirtualDisplay
from host_sim.display.wiring import wired_display


class Board:
    """A fresh fake Pico with the panel on its SPI wires and a clock to step."""

    def __init__(self, monkeypatch, tmp_path, capture):
        machine.SPI.forget()
        machine.reset_clocks()
        self.virtual = VirtualDisplay(hardware_setup.PANEL)
        cs = hardware_setup.DISPLAY_CS_PIN
        dc = hardware_setup.DISPLAY_DC_PIN

        def wire(data):
            if machine.wired(cs).value() == 0:
                self.virtual.receive(machine.wired(dc).value(), data)

        machine.SPI(hardware_setup.DISPLAY_SPI).sink = wire
        original = hardware_setup.buttons
        monkeypatch.setattr(hardware_setup, "buttons", lambda clock: original(clock, capture))
        monkeypatch.setattr(device_module(), "Storage", lambda: Storage(str(tmp_path / "s.json")))
        monkeypatch.setattr(
            device_module(), "Transcripts", lambda: Transcripts(str(tmp_path / "transcripts"))
        )
        self.now = 5_000
        self.handheld = device_module().boot(lambda: self.now)

    def run(self, ms):
        for _ in range(ms):
            self.now += 1000
            self.handheld.step(self.now)

    def settle(self):
        """Passes until the screen is drawn: the device draws a region a pass."""
        renderer = self.handheld.controller.scheduler.renderer
        for _ in range(500):
            if not renderer.busy:
                return
            self.run(1)
        raise AssertionError("the screen is still being drawn")


def hold_at_power_on(monkeypatch, *buttons):
    """The board's buttons are built with these already pressed."""
    original = hardware_setup.button_pins

    def pins():
        built = original()
        for button in buttons:
            built[button].press()
        return built

    monkeypatch.setattr(hardware_setup, "button_pins", pins)


def device_module():
    import device

    return device


def test_boot_with_the_default_capture_shows_the_title(monkeypatch, tmp_path, rp2):
    board = Board(monkeypatch, tmp_path, hardware_setup.CAPTURE)
    board.run(5)
    board.settle()
    handheld = board.handheld
    assert type(handheld.capture).__name__ == "PioButtons"
    assert handheld.controller.mode == TITLE
    assert machine.peripheral_freq() == machine.freq() == 125_000_000
    assert board.virtual.showing
    expected, virtual = wired_display()
    Renderer(expected, framebuf).title("SPIT", handheld.controller.seed)
    assert board.virtual.rgb() == virtual.rgb(), "the title, pixel for pixel"


def test_two_power_ons_deal_different_games():
    seeds = {device_module().power_on_seed() for _ in range(8)}
    assert len(seeds) > 1 and all(0 <= seed < 1 << 24 for seed in seeds)


def test_buttons_reach_the_game_and_the_screen(monkeypatch, tmp_path):
    board = Board(monkeypatch, tmp_path, "irq")
    spit = machine.wired(keys.button_id(1, keys.SPIT))
    spit.press()
    board.run(20)
    spit.release()
    board.run(20)
    assert board.handheld.controller.mode == MATCH
    board.settle()  # the ready screen, then the deal
    board.run(EAGER_US // 1000)  # a person's time to answer it
    board.virtual.mark()
    spit.press()
    board.run(20)
    assert board.handheld.session.table.controls.called == [False, True]
    assert board.virtual.changed(), "the ready screen shows player 2 ready"


def test_a_button_held_at_power_on_is_named_and_ignored_until_released(
    monkeypatch, tmp_path, capsys
):
    hold_at_power_on(monkeypatch, keys.button_id(1, keys.SPIT))
    board = Board(monkeypatch, tmp_path, "irq")
    assert "held at power-on, ignored until released: P2 SPIT" in capsys.readouterr().out
    held = machine.wired(keys.button_id(1, keys.SPIT))
    board.run(50)
    assert board.handheld.controller.mode == TITLE
    held.release()
    board.run(50)
    held.press()
    board.run(20)
    assert board.handheld.controller.mode == MATCH


def test_both_spit_held_at_power_on_start_the_self_test(monkeypatch, tmp_path):
    spits = (keys.button_id(0, keys.SPIT), keys.button_id(1, keys.SPIT))
    hold_at_power_on(monkeypatch, *spits)
    board = Board(monkeypatch, tmp_path, "irq")
    board.run(5)
    assert board.handheld.controller.mode == SELF_TEST
    assert board.handheld.buzzer.playing, "the scale"


class _Stop(BaseException):
    """Ends main()'s endless loop from the test's clock (the loop catches Exception)."""


def test_main_runs_the_loop_with_a_fed_watchdog(monkeypatch, tmp_path):
    board = Board(monkeypatch, tmp_path, "irq")  # the fakes wired; main() builds its own
    device = device_module()
    ticks = [0]

    def ticks_us():
        ticks[0] += 1000
        if ticks[0] > 200_000:
            raise _Stop
        return ticks[0]

    monkeypatch.setattr(device, "time", type("Time", (), {"ticks_us": staticmethod(ticks_us)}))
    watchdogs = []
    real_watchdog = machine.WDT

    def watchdog(timeout):
        watchdogs.append(real_watchdog(0, timeout))
        return watchdogs[-1]

    monkeypatch.setattr(machine, "WDT", watchdog)
    passes = []
    run_pass = Handheld.run_pass

    def counted_pass(handheld, now):
        passes.append(now)
        run_pass(handheld, now)

    monkeypatch.setattr(Handheld, "run_pass", counted_pass)
    import main

    with pytest.raises(_Stop):
        main.main()  # main.py's own entry: device.main
    (watchdog,) = watchdogs
    assert watchdog.timeout == device.WATCHDOG_MS
    assert len(passes) > 20 and watchdog.feeds >= len(passes) - 1  # the last pass stopped
    assert board.virtual.showing


def test_in_the_self_test_every_button_counts_in_its_own_cell(monkeypatch, tmp_path):
    spits = (keys.button_id(0, keys.SPIT), keys.button_id(1, keys.SPIT))
    hold_at_power_on(monkeypatch, *spits)
    board = Board(monkeypatch, tmp_path, "irq")
    for button in spits:
        machine.wired(button).release()
    board.run(30)  # the held SPITs re-arm once released
    controller = board.handheld.controller
    for button in range(keys.BUTTON_COUNT):
        machine.wired(button).press()
        board.run(20)
        machine.wired(button).release()
        board.run(20)
        counts = controller.current.presses
        assert counts[: button + 1] == [1] * (button + 1) and sum(counts) == button + 1
    board.settle()
    expected, view = wired_display()
    test = controller.current
    Renderer(expected, framebuf).self_test(test.presses, test.ages, test.bins, test.lines)
    assert board.virtual.rgb() == view.rgb(), "the screen shows each count in its cell"


class _Unprintable(Exception):
    """An error whose message cannot be had: its ``__str__`` raises."""

    def __str__(self):
        raise RuntimeError("no message")


def test_main_shows_an_error_whose_message_raises_and_runs_on(monkeypatch, tmp_path, capsys):
    import sys

    from spit.modes import ERROR

    board = Board(monkeypatch, tmp_path, "irq")
    device = device_module()
    ticks = [0]

    def ticks_us():
        ticks[0] += 1000
        if ticks[0] > 4_000_000:  # the error screen is drawn, and still up
            raise _Stop
        return ticks[0]

    monkeypatch.setattr(device, "time", type("Time", (), {"ticks_us": staticmethod(ticks_us)}))
    handhelds = []
    run_pass = Handheld.run_pass

    def fifth_fails(handheld, now):
        handhelds.append(handheld)
        if len(handhelds) == 5:
            raise _Unprintable()
        run_pass(handheld, now)

    def print_exception(error):  # MicroPython's: the traceback, then the message
        print("Traceback (most recent call last):")
        print("%s: %s" % (type(error).__name__, error))

    monkeypatch.setattr(Handheld, "run_pass", fifth_fails)
    monkeypatch.setattr(sys, "print_exception", print_exception, raising=False)
    import main

    with pytest.raises(_Stop):
        main.main()
    handheld = handhelds[-1]
    assert handheld.errors == 1 and len(handhelds) > 50, "the loop ran on"
    controller = handheld.controller
    assert controller.mode == ERROR and controller.modes[ERROR].message == "_Unprintable"
    assert capsys.readouterr().out.endswith("_Unprintable (its message cannot be printed)\n")
    assert not controller.scheduler.renderer.busy
    expected, view = wired_display()
    Renderer(expected, framebuf).error("_Unprintable")
    assert board.virtual.rgb() == view.rgb()


def test_a_save_that_cannot_be_made_is_shown_once_on_the_ready_screen(monkeypatch, tmp_path):
    (tmp_path / "s.json.new").mkdir()
    (tmp_path / "s.json.new" / "kept").write_text("x")  # a full folder in the way
    board = Board(monkeypatch, tmp_path, "irq")
    board.run(50)
    controller = board.handheld.controller
    spit = machine.wired(keys.button_id(0, keys.SPIT))
    spit.press()
    board.run(30)
    spit.release()
    board.run(200)  # the ready screen, then the break that saves
    notice = "not saved: %s/s.json.new is a folder" % tmp_path
    assert controller.modes[MATCH].notice == notice[:40]
    board.settle()
    board.run(1)  # the cards are dealt once the ready screen is drawn
    expected, view = wired_display()
    called = controller.session.table.controls.called
    Renderer(expected, framebuf).ready("SPIT", called, controller.modes[MATCH].cpus, notice[:40])
    assert len(notice) > 40, "the hint line holds 40 characters"
    assert board.virtual.rgb() == view.rgb(), "the ready screen says the save failed"
    board.run(EAGER_US // 1000)
    for button in (keys.button_id(0, keys.SPIT), keys.button_id(1, keys.SPIT)):
        machine.wired(button).press()
    board.run(30)
    for button in (keys.button_id(0, keys.SPIT), keys.button_id(1, keys.SPIT)):
        machine.wired(button).release()
    board.run(3_300)
    assert controller.modes[MATCH].notice == "", "said once"
    assert board.handheld._told, "a later failure is not said again"
