"""``make emu``: the firmware on an emulated Pico, with its USB console on this terminal.

    make emu ARGS="--script presses.json --ms 3000 --png 1500"

Boots MicroPython's official RP2040 UF2 in rp2040js with the firmware (as .mpy, plus
``main.py``) on its filesystem, runs it for ``--ms`` emulated milliseconds and prints
what the board prints. ``--script`` is a JSON list of ``{"t_us": ..., "button": ...,
"down": true|false}`` (time from power-on, button b = GPIO b); ``--held`` buttons are
down at power-on; ``--png`` saves the screen at that emulated time (ms) when the
virtual display exists; ``--spi`` writes every byte SPI0 sent as JSON lines
``[t_us, dc, byte]``; ``--repl`` then stops ``main.py`` (Ctrl-C) and sends each line
typed here to the board's REPL, until end of input (Ctrl-D). Times are emulated, so a run
without ``--repl`` repeats exactly.
"""

import argparse
import json
import os
import select
import sys

from host_sim.emu.board import EmulatedPico, EmulatorError, firmware_paths
from host_sim.emu.fs_image import board_files
from host_sim.emu.screen import Screen
from host_sim.micropython_vm import REPO

_SLICE_US = 20_000
_SHOTS = os.path.join(REPO, "screenshots")


def _virtual_display():
    try:
        from host_sim.display import VirtualDisplay
    except ImportError:
        return None
    return VirtualDisplay(strict_timing=True)


def parse_script(path):
    with open(path, encoding="utf-8") as f:
        steps = json.load(f)
    return [(float(s["t_us"]), int(s["button"]), bool(s["down"])) for s in steps]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="make emu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--script", help="JSON list of {t_us, button, down}")
    parser.add_argument("--ms", type=float, default=2000, help="emulated ms to run")
    parser.add_argument(
        "--held", type=int, action="append", default=[], help="GPIO held at power-on"
    )
    parser.add_argument("--png", type=float, action="append", default=[], help="screen at this ms")
    parser.add_argument("--spi", help="write SPI0's bytes here, one JSON line each")
    parser.add_argument("--start-us", type=int, default=0, help="the timer at power-on")
    parser.add_argument("--repl", action="store_true", help="then type to the board's REPL")
    args = parser.parse_args(argv)

    if firmware_paths() is None:
        print(
            "make emu needs MicroPython's RPI_PICO UF2 and the RP2040 B1 boot ROM:"
            " set PICO_UF2 and PICO_BOOTROM (see the README)",
            file=sys.stderr,
        )
        return 2
    events = parse_script(args.script) if args.script else []
    display = _virtual_display()
    if args.png and display is None:
        print("no virtual display (host_sim.display) yet: no PNGs", file=sys.stderr)
    spi_out = open(args.spi, "w", encoding="utf-8") if args.spi else None  # noqa: SIM115
    try:
        with EmulatedPico(
            files=board_files(),
            start_us=args.start_us,
            held=args.held,
            log_spi=bool(spi_out or display),
        ) as pico:
            start = pico.now_us
            pico.buttons([(start + t, gpio, down) for t, gpio, down in events])
            screen = Screen(display) if display is not None else None
            shots = sorted(args.png)
            end = start + args.ms * 1000
            while pico.now_us < end:
                until = min(end, pico.now_us + _SLICE_US)
                if shots and display is not None:
                    until = min(until, start + shots[0] * 1000)
                pico.run_until_us(until)
                sys.stdout.write(pico.read())
                sys.stdout.flush()
                if spi_out or screen:
                    _pass_spi(pico, screen, spi_out)
                while shots and pico.now_us >= start + shots[0] * 1000 and screen:
                    os.makedirs(_SHOTS, exist_ok=True)
                    path = os.path.join(_SHOTS, "emu-%06dms.png" % shots.pop(0))
                    screen.save_png(path)
                    print("\n[emu] screen saved to %s" % path, file=sys.stderr)
            if args.repl:
                _console(pico)
    except EmulatorError as exc:
        print("emulator: %s" % exc, file=sys.stderr)
        return 1
    finally:
        if spi_out:
            spi_out.close()
    print("\n[emu] %.0f emulated ms" % ((pico.now_us - start) / 1000), file=sys.stderr)
    return 0


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
    log = pico.spi_log()
    if spi_out:
        for entry in log:
            spi_out.write(json.dumps(entry) + "\n")
    if screen:
        screen.feed(log)


if __name__ == "__main__":
    sys.exit(main())
