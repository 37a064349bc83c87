"""The emulated Pico's USB console on a pseudo-terminal, so that mpremote (and with it
``make flash``) can open it as the serial port of a real board.

    with EmulatedPico() as pico, SerialBridge(pico) as port:
        flash.SerialBoard(port)

A thread moves bytes both ways and runs the emulator 2 ms at a time.
"""

import os
import pty
import select
import threading
import tty

_STEP_US = 2000


class SerialBridge:
    def __init__(self, pico):
        self._pico = pico
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: bytes pass as they are
        self.port = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._pump, daemon=True)

    def __enter__(self):
        self._pico.read()  # what it printed before anyone was connected
        self._thread.start()
        return self.port

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=30)
        os.close(self._master)
        os.close(self._slave)

    def _pump(self):
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0)
            if ready:
                self._pico.write(os.read(self._master, 4096))
            self._pico.run_us(_STEP_US)
            # Raw bytes: the raw REPL's paste mode sends binary flow-control bytes.
            out = self._pico.read_bytes()
            if out:
                os.write(self._master, out)
