"""The emulated Pico's USB console on a pseudo-terminal: a serial port that mpremote (and
with it ``make flash``, ``make repl`` and ``make pull``) opens as a real board's.

    with EmulatedPico() as pico, SerialPort(pico) as port:
        serial_board.SerialBoard(port)             # the emulator runs in a thread meanwhile

    SerialPort(pico, paced=True).serve(stop)  # in the foreground (``make emu-port``)

Bytes go both ways as they are (the raw REPL's paste mode sends binary flow-control
bytes), and the emulator runs a slice at a time between them. ``paced`` keeps emulated
time from running ahead of the wall clock: a board idling at its REPL would otherwise
race through emulated hours on a whole core, and its timeouts with them.

Output that nobody reads waits here, as in a USB host's buffer, up to ``BACKLOG_BYTES``;
older bytes are dropped first, as a board whose console nobody opens drops them.
"""

import os
import pty
import select
import threading
import time
import tty

STEP_US = 2000
BACKLOG_BYTES = 1 << 20
_READ_BYTES = 4096


class SerialPort:
    """Constructor: ``SerialPort(pico, paced=False, after_step=None)``: ``pico`` is an
    ``EmulatedPico``; ``after_step()`` runs after every slice of emulated time (and may
    use ``pico``: it runs on the thread that runs the emulator).

    Methods: ``step()`` (one slice, bytes moved both ways), ``serve(stop)`` (slices
    until ``stop()`` is true), ``close()``; as a context manager it serves on a thread
    of its own and gives the port's path. Attributes: ``port`` (the path a program
    opens, e.g. ``/dev/pts/3``)."""

    def __init__(self, pico, paced=False, after_step=None):
        self._pico = pico
        self._paced = paced
        self._after_step = after_step
        self._master, self._slave = pty.openpty()
        # Raw: no echo, no line editing. The slave end stays open here, so the port
        # outlives every program that opens and closes it.
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        self._backlog = bytearray()
        self._start = None
        self._stop = threading.Event()
        self._thread = None

    def __enter__(self):
        self._thread = threading.Thread(target=self.serve, args=(self._stop.is_set,))
        self._thread.daemon = True
        self._thread.start()
        return self.port

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=30)
            self._thread = None
        if self._master is not None:
            os.close(self._master)
            os.close(self._slave)
            self._master = self._slave = None

    def serve(self, stop):
        self._pico.read()  # what it printed before anyone could be connected
        while not stop():
            self.step()

    def step(self):
        pico = self._pico
        self._wait_for_the_wall()
        try:
            data = os.read(self._master, _READ_BYTES)
        except BlockingIOError:
            data = b""
        if data:
            pico.write(data)
        pico.run_us(STEP_US)
        self._backlog += pico.read_bytes()
        self._send()
        if self._after_step is not None:
            self._after_step()

    def _wait_for_the_wall(self):
        """Paced: while emulated time is ahead of the wall clock, wait, but no longer
        than until bytes come in."""
        if not self._paced:
            return
        now = time.monotonic()
        if self._start is None:
            self._start = (now, self._pico.now_us)
        wall_us = (now - self._start[0]) * 1e6
        ahead_us = (self._pico.now_us - self._start[1]) - wall_us
        if ahead_us > 0:
            select.select([self._master], [], [], ahead_us / 1e6)

    def _send(self):
        if not self._backlog:
            return
        try:
            sent = os.write(self._master, self._backlog)
        except BlockingIOError:
            sent = 0
        del self._backlog[:sent]
        if len(self._backlog) > BACKLOG_BYTES:
            del self._backlog[: len(self._backlog) - BACKLOG_BYTES]
