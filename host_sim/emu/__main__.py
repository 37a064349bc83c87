"""``make emu``: the firmware on an emulated Pico, with its USB console on this terminal.

    make emu ARGS="--script presses.json --ms 3000 --png 1500"

Boots MicroPython's official RP2040 UF2 in rp2040js with the firmware (as .mpy, plus
``main.py``) on its filesystem, runs it for ``--ms`` emulated milliseconds (1 or more)
and prints what the board prints, then saves the last screen as a PNG (``--screen``,
by default ``screenshots/emu.png``). ``--script`` is a JSON list of ``{"t_us": ...,
"button": ..., "down": true|false}`` (time from power-on, button b = GPIO b); ``--held``
buttons are down at power-on; ``--png`` also saves the screen at that emulated time
(ms); ``--spi`` writes every byte SPI0 sent as JSON lines
``[t_us, dc, byte]``; ``--repl`` then stops ``main.py`` (Ctrl-C) and sends each line
typed here to the board's REPL, until end of input (Ctrl-D). Times are emulated, so a run
without ``--repl`` repeats exactly.

A bad input is one line and exit status 2, before anything runs: a flag, a ``--script``
that is not such a list, a UF2 or boot ROM that is missing or is not one. A UF2 or boot
ROM other than the tested files is a one-line warning. A board that does not boot (nothing
on its console or display in ``BOOT_LIMIT_US``) is an error, exit status 1.
"""

import argparse
import json
import math
import os
import select
import sys
import time

from host_sim.command_line import OneLineParser
from host_sim.emu.emulated_pico import EmulatedPico, EmulatorError, firmware_usable
from host_sim.emu.fs_image import board_files
from host_sim.emu.screen import Screen
from host_sim.vm.micropython_vm import REPO

_SLICE_US = 20_000
_SHOTS = os.path.join(REPO, "screenshots")
DEFAULT_SCREEN = os.path.join(_SHOTS, "emu.png")
_GPIOS = 16  # buttons 0-15 are GPIO 0-15
_STEP_SHOWN = 60  # characters of a bad step quoted in its error
_JSON_KINDS = {
    dict: "an object",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true or false",
    type(None): "null",
}

# MicroPython is up 0.11 emulated s after power-on and the firmware, once imported, sends
# the display its first byte at about 0.95 s. A board that has printed nothing and sent
# nothing by BOOT_LIMIT_US never booted: the UF2 or the boot ROM is not what it claims.
# What such a board runs seldom sleeps and emulates at a few ms a wall second, so a wall
# clock limit ends the wait too. Until the board shows life it runs in short slices.
BOOT_LIMIT_US = 3_000_000
BOOT_WALL_S = 30
_BOOT_SLICE_US = 5_000
_NOT_BOOTED = "is the UF2 MicroPython's RPI_PICO build and the boot ROM the RP2040's B1?"


class ScriptError(ValueError):
    """A ``--script`` file that cannot be read or is not a list of presses."""


def _virtual_display():
    try:
        from host_sim.display import VirtualDisplay
    except ImportError:
        return None
    return VirtualDisplay(strict_timing=True)


def parse_script(path):
    """The presses in a ``--script`` file as ``(t_us, gpio, down)``; ScriptError says in
    one line why there are none."""
    try:
        with open(path, encoding="utf-8") as f:
            steps = json.load(f)
    except OSError as error:
        raise ScriptError(error.strerror or str(error)) from None
    except UnicodeDecodeError:
        raise ScriptError("not JSON: not UTF-8 text (a binary file?)") from None
    except ValueError as error:
        raise ScriptError("not JSON: %s" % error) from None
    if not isinstance(steps, list):
        raise ScriptError("expected a JSON list of presses, found %s" % _JSON_KINDS[type(steps)])
    return [_press(number, step) for number, step in enumerate(steps, 1)]


def _press(number, step):
    """Step ``number`` of a script as ``(t_us, gpio, down)``. (JSON's true is a Python
    int too: ``type(...) in`` keeps it out of the times and the buttons.)"""
    if isinstance(step, dict):
        t_us, button, down = step.get("t_us"), step.get("button"), step.get("down")
        if (
            type(t_us) in (int, float)
            and t_us >= 0
            and type(button) is int
            and 0 <= button < _GPIOS
            and isinstance(down, bool)
        ):
            return float(t_us), button, down
    shown = json.dumps(step)
    if len(shown) > _STEP_SHOWN:
        shown = shown[: _STEP_SHOWN - 3] + "..."
    raise ScriptError(
        'step %d is %s; expected {"t_us": microseconds from power-on, "button": 0-%d,'
        ' "down": true or false}' % (number, shown, _GPIOS - 1)
    )


def _run_ms(text):
    """``--ms``: a finite number of emulated milliseconds, at least 1."""
    try:
        ms = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("invalid float value: %r" % text) from None
    if not 1 <= ms < math.inf:
        raise argparse.ArgumentTypeError(
            "%s is no length of run: a number of emulated ms, 1 or more" % text
        )
    return ms


def _parser():
    parser = OneLineParser(prog="make emu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--script", help="JSON list of {t_us, button, down}")
    parser.add_argument("--ms", type=_run_ms, default=2000, help="emulated ms to run")
    parser.add_argument(
        "--held", type=int, action="append", default=[], help="GPIO held at power-on"
    )
    parser.add_argument("--png", type=float, action="append", default=[], help="screen at this ms")
    parser.add_argument(
        "--screen", metavar="PNG", default=DEFAULT_SCREEN, help="the last screen, as a PNG file"
    )
    parser.add_argument("--spi", help="write SPI0's bytes here, one JSON line each")
    parser.add_argument("--start-us", type=int, default=0, help="the timer at power-on")
    parser.add_argument("--repl", action="store_true", help="then type to the board's REPL")
    return parser


def _say(line):
    print("make emu: %s" % line, file=sys.stderr)


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        events = parse_script(args.script) if args.script else []
    except ScriptError as error:
        _say("--script %s: %s" % (args.script, error))
        return 2
    if not firmware_usable(_say):
        return 2
    display = _virtual_display()
    if display is None:
        print("no virtual display (host_sim.display) yet: no PNGs", file=sys.stderr)
    try:
        if os.path.isdir(args.screen):
            raise IsADirectoryError(0, "a folder, not a file")
        os.makedirs(os.path.dirname(os.path.abspath(args.screen)), exist_ok=True)
    except OSError as error:
        _say("--screen %s: %s" % (args.screen, error.strerror or error))
        return 2
    try:
        spi_out = open(args.spi, "w", encoding="utf-8") if args.spi else None  # noqa: SIM115
    except OSError as error:
        _say("--spi %s: %s" % (args.spi, error.strerror or error))
        return 2
    try:
        # SPI0's log is kept whatever is asked: the board's first byte to the display is
        # how a silent firmware shows it booted.
        with EmulatedPico(
            files=board_files(), start_us=args.start_us, held=args.held, log_spi=True
        ) as pico:
            start = pico.now_us
            pico.buttons([(start + t, gpio, down) for t, gpio, down in events])
            _run(pico, args, Screen(display) if display is not None else None, spi_out)
            if args.repl:
                _console(pico)
    except EmulatorError as exc:
        _say(str(exc).split("\n", 1)[0])
        return 1
    finally:
        if spi_out:
            spi_out.close()
    print("\n[emu] %.0f emulated ms" % ((pico.now_us - start) / 1000), file=sys.stderr)
    return 0


def _run(pico, args, screen, spi_out):
    """Run for ``--ms``, passing on what the board prints and sends its display, and
    saving the screens asked for and the last; EmulatorError if the board does not boot."""
    start = pico.now_us
    end = start + args.ms * 1000
    shots = sorted(args.png)
    boot = _Boot(start)
    while pico.now_us < end:
        until = min(end, pico.now_us + boot.slice_us())
        if shots and screen:
            until = min(until, start + shots[0] * 1000)
        boot.run_until_us(pico, until)
        printed = pico.read()
        sys.stdout.write(printed)
        sys.stdout.flush()
        sent = _pass_spi(pico, screen, spi_out)
        boot.saw(pico.now_us, printed or sent)
        while shots and pico.now_us >= start + shots[0] * 1000 and screen:
            os.makedirs(_SHOTS, exist_ok=True)
            _save(screen, os.path.join(_SHOTS, "emu-%06dms.png" % shots.pop(0)))
    if screen:
        _save(screen, args.screen)


def _save(screen, path):
    screen.save_png(path)
    print("\n[emu] screen saved to %s" % path, file=sys.stderr)


class _Boot:
    """Watches for the board's first sign of life: output on its console or a byte to
    its display. Without one in time, or when the emulator stops first, the error says
    the board did not boot."""

    def __init__(self, start_us):
        self.start_us = start_us
        self.wall_start = time.monotonic()
        self.booted = False

    def slice_us(self):
        return _SLICE_US if self.booted else _BOOT_SLICE_US

    def run_until_us(self, pico, until):
        try:
            pico.run_until_us(until)
        except EmulatorError as error:
            if self.booted:
                raise
            first = str(error).split("\n", 1)[0]
            raise EmulatorError(
                "%s; the board had not booted: %s" % (first, _NOT_BOOTED)
            ) from None

    def saw(self, now_us, life):
        self.booted = self.booted or bool(life)
        if self.booted:
            return
        emulated_us = now_us - self.start_us
        wall_s = time.monotonic() - self.wall_start
        if emulated_us >= BOOT_LIMIT_US or wall_s >= BOOT_WALL_S:
            raise EmulatorError(
                "the board did not boot: nothing on its console or display after %.2f"
                " emulated s (%.0f s here); %s" % (emulated_us / 1e6, wall_s, _NOT_BOOTED)
            )


def _console(pico):
    """Stop main.py, then forward typed lines to the REPL until end of input."""
    pico.write(b"\x03")
    while True:
        pico.run_us(_SLICE_US)
        sys.stdout.write(pico.read())
        sys.stdout.flush()
        if select.select([sys.stdin], [], [], 0)[0]:
            line = sys.stdin.readline()
            if not line:
                return
            pico.write(line.rstrip("\n").encode() + b"\r")


def _pass_spi(pico, screen, spi_out):
    """SPI0's bytes since the last pass, to the screen and the ``--spi`` file."""
    log = pico.spi_log()
    if spi_out:
        for entry in log:
            spi_out.write(json.dumps(entry) + "\n")
    if screen:
        screen.feed(log)
    return log


if __name__ == "__main__":
    sys.exit(main())
