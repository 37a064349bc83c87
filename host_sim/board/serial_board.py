"""Talking to a real board: the serial port of the first MicroPython board found, and a
``SerialBoard`` that runs code on it and reads and writes its files through mpremote.

Everything that talks to the board goes through a ``Board`` (``SerialBoard`` here; the
tests hand ``flash`` and ``pull`` a fake with the same five methods and ``info``)."""

import contextlib
import os

from mpremote.transport import TransportError

from host_sim.board.errors import EXIT_NO_BOARD, BoardError, FlashError
from host_sim.board.scripts import PROBE, parse_probe

# Raspberry Pi's USB vendor id: MicroPython on a Pico enumerates with it.
RASPBERRY_PI_VID = 0x2E8A
_SCRIPT_TIMEOUT_S = 120


def find_port(ports=None):
    """The serial port of the first MicroPython board found, or None.

    Like ``mpremote connect auto`` (the first USB serial port), but a port with Raspberry
    Pi's vendor id comes first.
    """
    if ports is None:
        import serial.tools.list_ports

        ports = serial.tools.list_ports.comports()
    usb = sorted((p for p in ports if p.vid is not None and p.pid is not None),
                 key=lambda p: (p.vid != RASPBERRY_PI_VID, p.device))
    return usb[0].device if usb else None


class SerialBoard:
    """A MicroPython board on a serial port, through mpremote's transport.

    Connecting interrupts whatever the board runs and enters the raw REPL with a soft
    reset, so ``main.py`` is not running while files change.
    """

    def __init__(self, port):
        from mpremote.transport_serial import SerialTransport

        self.port = port
        try:
            self._transport = SerialTransport(port, baudrate=115200)
            self._transport.enter_raw_repl(soft_reset=True)
        except TransportError as error:
            raise FlashError("cannot talk to the board on %s: %s"
                             % (port, _why_not(port, error.args[0])), EXIT_NO_BOARD) from None

    def info(self):
        return parse_probe(self.run(PROBE))

    def run(self, code):
        # mpremote's own exec gives up after 10 s; hashing and importing take longer.
        out, err = self._transport.exec_raw(code, timeout=_SCRIPT_TIMEOUT_S)
        if err:
            raise BoardError(err.decode("utf-8", "replace"))
        return out.decode("utf-8", "replace")

    def write(self, path, data):
        self._transport.fs_writefile(path, data)

    def read(self, path):
        return self._transport.fs_readfile(path)

    def soft_reset(self):
        self._transport.enter_raw_repl(soft_reset=True)

    def reset(self):
        self._transport.exec_raw_no_follow("import machine; machine.reset()")
        with contextlib.suppress(OSError):  # the board may have left the USB bus already
            self._transport.close()


def _why_not(port, error):
    """Why a port did not answer, in the words a person acts on."""
    if port.startswith("/") and not os.path.exists(port):
        return "nothing is connected there: plug the Pico in, or leave PORT out to find it"
    return ("%s; is that the board's port, and is no other program, such as a serial "
            "monitor, holding it?" % error)
