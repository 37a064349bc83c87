"""``make flash``, ``make repl`` and ``make pull`` (``python -m host_sim.board``): the
firmware onto a Pico over USB, its REPL, and its finished games' transcripts off it,
through mpremote.

    make flash                      # compile to .mpy, copy, verify, restart
    make flash PORT=/dev/ttyACM0    # a given serial port instead of the first one found
    make flash MPY=0                # plain .py files (any MicroPython version)
    make repl                       # the board's REPL
    make pull                       # /transcripts/*.txt into ./transcripts, then restart
    .venv/bin/python -m host_sim.board package-json   # rewrite firmware/package.json
"""

import os
import subprocess
import sys

from mpremote.transport import TransportError

from host_sim.board.compiling import FIRMWARE, MIP_MANIFEST, build
from host_sim.board.errors import EXIT_FAILED, EXIT_NO_BOARD, BoardError, FlashError
from host_sim.board.flashing import flash
from host_sim.board.package_json import mip_manifest
from host_sim.board.pulling import PULLED, pull
from host_sim.board.scripts import STOP_WATCHDOG
from host_sim.board.serial_board import SerialBoard, find_port

# make repl interrupts the game; a soft reset at the REPL runs main.py again, as a reset
# of the chip or a power-on does.
REPL_NOTE = ("The game is stopped while the REPL is open, and stays stopped after Ctrl-X "
             "leaves it: Ctrl-D (a soft reset) or machine.reset() starts it again, or unplug "
             "the board and plug it back in.")


def _port_or_fail(port, command):
    port = port or find_port()
    if port:
        return port
    raise FlashError(
        "No board found: no MicroPython board is connected by USB.\n"
        "Plug the Pico in with a data cable (not a charge-only one), or name its port: "
        "make %s PORT=/dev/ttyACM0 (COM3 on Windows).\nA Pico that shows up as a "
        "drive called RPI-RP2 has no MicroPython yet: copy the MicroPython UF2 onto it."
        % command,
        EXIT_NO_BOARD,
    )


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv else "flash"
    if command not in ("flash", "repl", "pull", "package-json"):
        usage = "usage: python -m host_sim.board [flash | repl | pull | package-json]"
        print(usage, file=sys.stderr)
        return EXIT_FAILED
    port = os.environ.get("PORT") or None
    try:
        if command == "package-json":
            with open(os.path.join(FIRMWARE, MIP_MANIFEST), "w", encoding="utf-8") as f:
                f.write(mip_manifest())
            return 0
        if command == "repl":
            port = _port_or_fail(port, command)
            print(REPL_NOTE, flush=True)
            return subprocess.call([sys.executable, "-m", "mpremote", "connect", port,
                                    "exec", STOP_WATCHDOG, "repl"])
        if command == "pull":
            pull(SerialBoard(_port_or_fail(port, command)), os.path.abspath(PULLED))
            return 0
        mpy = os.environ.get("MPY", "1") != "0"
        port = _port_or_fail(port, command)
        board = SerialBoard(port)  # first: with no board there, that is all there is to say
        print("Board on %s" % port)
        flash(board, build(mpy=mpy))
    except FlashError as error:
        print(error, file=sys.stderr)
        return error.code
    except BoardError as error:
        print("The board raised an error:\n%s" % error, file=sys.stderr)
        return EXIT_FAILED
    except (OSError, TransportError) as error:
        again = "Run make %s again" % command
        if command == "flash":
            again += (": a flash cut short leaves the old firmware, or at worst a board that "
                      "boots to the REPL")
        print("Lost the board: %s\n%s." % (error, again), file=sys.stderr)
        return EXIT_FAILED
    return 0
