"""``make emu-port``: an emulated Pico behind a serial port, for flashing without a board.

    make emu-port                                   # prints the port, e.g. /dev/pts/3
    make flash PORT=/dev/pts/3                      # in another terminal; then the title
    make emu-port ARGS="--fresh"                    # a board fresh from the UF2
    make emu-port ARGS="--flash other.img"          # another board's flash

The board is MicroPython's official RP2040 UF2 in rp2040js, its USB console on a
pseudo-terminal that ``make flash``, ``make repl`` and ``make pull`` open as they would
a real board's. It runs in step with the wall clock until Ctrl-C.

Its filesystem is kept in a file (``--flash``, by default ``.emu/board.img``) when the
command stops and at every reset of the chip, and the next run boots from it: stopping
and starting the command is a power-off and a power-on. With no such file yet, or with
``--fresh``, the board starts as a Pico fresh from its UF2, with an empty filesystem.
A reset (the ``machine.reset()`` that ``make flash`` ends with, ``mpremote reset``, or
the watchdog) starts it again from its flash, so the firmware just flashed boots to its
title. The screen, decoded from the bytes the firmware sends the display, is saved as a
PNG (``--screen``) whenever it has changed and then stayed still for a moment.
"""

import os
import signal
import sys

from host_sim.command_line import OneLineParser
from host_sim.display import VirtualDisplay
from host_sim.emu.emulated_pico import EmulatedPico, EmulatorError, firmware_usable
from host_sim.emu.fs_image import FS_BYTES
from host_sim.emu.screen import Screen
from host_sim.emu.serial_port import SerialPort
from host_sim.vm.micropython_vm import REPO

DEFAULT_SCREEN = os.path.join(REPO, "screenshots", "emu-port.png")
DEFAULT_FLASH = os.path.join(REPO, ".emu", "board.img")
_LOOK_US = 20_000  # how often the display's bytes are taken in
_STILL_US = 150_000  # a screen unchanged this long is saved


class ScreenFile:
    """The board's screen, kept in a PNG file: rewritten when it has changed and then
    stayed still for ``_STILL_US`` of emulated time."""

    def __init__(self, pico, path):
        self.pico = pico
        self.path = path
        self.screen = Screen(VirtualDisplay(strict_timing=True))
        self._looked_at = pico.now_us
        self._changed_at = None  # the last change not yet saved

    def look(self):
        now = self.pico.now_us
        if now - self._looked_at < _LOOK_US:
            return
        self._looked_at = now
        before = self.screen.bytes_sent
        self.screen.feed(self.pico.spi_log())
        if self.screen.bytes_sent != before:
            self._changed_at = now
        elif self._changed_at is not None and now - self._changed_at >= _STILL_US:
            self._changed_at = None
            _replace(self.path, self.screen.display.png())


class FlashFile:
    """The board's filesystem partition kept in a file between runs (``--flash``)."""

    def __init__(self, path):
        self.path = path

    def image(self, fresh=False):
        """The partition as the last run left it, or None (a fresh board: ``fresh``, or
        no file yet); raises ValueError when the file is something else."""
        if os.path.isdir(self.path):
            raise IsADirectoryError(0, "a folder, not a file")
        if fresh or not os.path.exists(self.path):
            return None
        with open(self.path, "rb") as f:
            image = f.read()
        if len(image) != FS_BYTES:
            raise ValueError(
                "%d bytes, where the board's filesystem is %d: not a file this command kept"
                " (--fresh starts a new board in it)" % (len(image), FS_BYTES)
            )
        return image

    def keep(self, pico):
        _replace(self.path, pico.flash())


class AfterEachSlice:
    """What the command does between two slices of emulated time: the screen's PNG, and
    at a reset of the chip, the filesystem kept and a line said."""

    def __init__(self, pico, screen, kept):
        self.pico = pico
        self.screen = screen
        self.kept = kept
        self._resets = 0

    def __call__(self):
        self.screen.look()
        if self.pico.resets != self._resets:
            self._resets = self.pico.resets
            self.kept.keep(self.pico)
            print("[emu-port] the board reset; it starts again from its flash", file=sys.stderr)


def _replace(path, data):
    """Write ``path`` whole or not at all: a viewer or the next run never reads half."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    partial = path + ".new"
    with open(partial, "wb") as f:
        f.write(data)
    os.replace(partial, path)


def _say(line):
    print("make emu-port: %s" % line, file=sys.stderr)


def main(argv=None):
    parser = OneLineParser(prog="make emu-port", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--flash", metavar="FILE", default=DEFAULT_FLASH, help="keep the filesystem in FILE"
    )
    parser.add_argument(
        "--fresh", action="store_true", help="a board fresh from the UF2 (FILE is replaced)"
    )
    parser.add_argument(
        "--screen", metavar="PNG", default=DEFAULT_SCREEN, help="the screen, as a PNG file"
    )
    args = parser.parse_args(argv)
    if not firmware_usable(_say):
        return 2
    kept = FlashFile(args.flash)
    try:
        image = kept.image(args.fresh)
        os.makedirs(os.path.dirname(os.path.abspath(args.flash)), exist_ok=True)
    except (OSError, ValueError) as error:
        _say("--flash %s: %s" % (args.flash, getattr(error, "strerror", None) or error))
        return 2
    try:
        os.makedirs(os.path.dirname(os.path.abspath(args.screen)), exist_ok=True)
    except OSError as error:
        _say("--screen %s: %s" % (args.screen, error.strerror or error))
        return 2

    stopping = []

    def stop(signum, frame):
        if stopping:  # asked twice: the emulator does not answer, so no waiting for it
            signal.signal(signal.SIGINT, signal.SIG_DFL)
        stopping.append(signum)

    # A flag rather than KeyboardInterrupt: the emulator is stopped between two slices,
    # never in the middle of a request, so that the filesystem can still be read.
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        with EmulatedPico(fs_image=image) as pico:
            after = AfterEachSlice(pico, ScreenFile(pico, args.screen), kept)
            port = SerialPort(pico, paced=True, after_step=after)
            print(
                "Emulated Pico on %s: make flash PORT=%s (make repl, make pull likewise);"
                " Ctrl-C stops it" % (port.port, port.port),
                flush=True,
            )
            print("[emu-port] %s; its screen: %s" % (_powered_on(image, args), args.screen),
                  file=sys.stderr)
            try:
                port.serve(lambda: bool(stopping))
            finally:
                port.close()
            kept.keep(pico)
    except EmulatorError as exc:
        _say("the emulator stopped: %s" % exc)
        return 1
    print("[emu-port] stopped; its filesystem is kept in %s: make emu-port powers it on again"
          % args.flash, file=sys.stderr)
    return 0


def _powered_on(image, args):
    """How the board came up, and where its flash goes."""
    if image is not None:
        return "powered on from its flash in %s (--fresh: a new board)" % args.flash
    return "a board fresh from the UF2; its flash is kept in %s" % args.flash


if __name__ == "__main__":
    sys.exit(main())
