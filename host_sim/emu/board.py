"""The emulated Pico from Python: MicroPython's own UF2 in rp2040js (``serve.mjs``).

    with EmulatedPico(files=board_files()) as pico:
        pico.run_us(500_000)                     # boot; main.py starts
        t = pico.now_us + 1000                   # player 1's L, 1 ms from now, for 40 ms
        pico.buttons([(t, 5, True), (t + 40_000, 5, False)])
        pico.run_us(100_000)
        print(pico.read())                       # the USB console

Times are emulated: ``now_us`` is the RP2040 timer's microsecond count (``ticks_us`` is
its low 30 bits). Button ``b`` is GPIO ``b``, wired to ground: ``down`` pulls it low.
``exec`` runs code through MicroPython's raw REPL (as ``mpremote exec`` does), after
interrupting whatever runs.

Where the UF2 and boot ROM come from: ``PICO_UF2`` and ``PICO_BOOTROM`` (paths), else
``../shared/pico/`` beside the repository when it holds them; ``firmware_paths()`` says
which, or None.
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile

from host_sim.emu.fs_image import FS_BYTES, FS_OFFSET, build_image
from host_sim.micropython_vm import REPO

SERVER = os.path.join(REPO, "host_sim", "emu", "serve.mjs")
_SHARED_PICO = os.path.join(os.path.dirname(REPO), "shared", "pico")
DEFAULT_UF2 = os.path.join(_SHARED_PICO, "RPI_PICO-v1.28.0.uf2")
DEFAULT_BOOTROM = os.path.join(_SHARED_PICO, "rp2040-bootrom-b1.bin")
BOOT_US = 150_000  # to the REPL prompt with the USB console connected: about 110 ms

_RAW_REPL = b"raw REPL; CTRL-B to exit\r\n>"
_CTRL_A, _CTRL_C, _CTRL_D = b"\x01", b"\x03", b"\x04"


class EmulatorError(RuntimeError):
    """The emulator failed, or the board did not answer in the emulated time allowed."""


class BoardError(AssertionError):
    """Code run on the board raised; the message holds MicroPython's traceback."""


def firmware_paths():
    """``(uf2, bootrom)`` paths, or None when either is missing."""
    uf2 = os.environ.get("PICO_UF2") or DEFAULT_UF2
    bootrom = os.environ.get("PICO_BOOTROM") or DEFAULT_BOOTROM
    if os.path.isfile(uf2) and os.path.isfile(bootrom):
        return uf2, bootrom
    return None


class EmulatedPico:
    """Constructor: ``EmulatedPico(files=None, start_us=0, held=(), paths=None,
    log_spi=True)``: ``files`` (board path -> bytes) become the filesystem (None leaves
    the flash erased, and MicroPython formats it at boot); the timer starts at
    ``start_us``; GPIOs in ``held`` are pressed at power-on; ``paths`` is ``(uf2,
    bootrom)``, by default ``firmware_paths()``; without ``log_spi`` the emulator keeps no
    SPI0 bytes for ``spi_log``.

    Methods: ``run_us``, ``run_until_us``, ``expect``, ``read``, ``write``, ``buttons``,
    ``spi_log``, ``flash``, ``raw_repl``, ``exec``, ``close``. Attributes: ``now_us``
    (float), ``console`` (everything the board printed, as text)."""

    def __init__(self, files=None, start_us=0, held=(), paths=None, log_spi=True):
        paths = paths or firmware_paths()
        if paths is None:
            raise EmulatorError(
                "no MicroPython UF2 and RP2040 boot ROM (set PICO_UF2, PICO_BOOTROM)"
            )
        node = shutil.which("node")
        if node is None:
            raise EmulatorError("node is not on PATH; rp2040js runs under Node")
        self._tmp = tempfile.TemporaryDirectory()
        image = None
        if files is not None:
            image = os.path.join(self._tmp.name, "fs.img")
            with open(image, "wb") as f:
                f.write(build_image(files))
        options = {
            "uf2": paths[0],
            "bootrom": paths[1],
            "fsImage": image,
            "startUs": start_us,
            "held": list(held),
            "logSpi": log_spi,
        }
        self._proc = subprocess.Popen(
            [node, SERVER, json.dumps(options)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=REPO,
        )
        self.now_us = start_us
        self.console = ""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self._proc.poll() is None:
            self._proc.stdin.close()
            self._proc.wait(timeout=10)
        self._tmp.cleanup()

    def _call(self, op, **args):
        args["op"] = op
        try:
            self._proc.stdin.write(json.dumps(args).encode() + b"\n")
            self._proc.stdin.flush()
            line = self._proc.stdout.readline()
        except BrokenPipeError:
            line = b""
        if not line:
            raise EmulatorError("the emulator exited (code %s)" % self._proc.poll())
        answer = json.loads(line)
        if not answer["ok"]:
            raise EmulatorError(answer["error"])
        self.now_us = answer["now_ns"] / 1000
        return answer

    def run_until_us(self, t_us):
        self._call("run", until_ns=round(t_us * 1000))

    def run_us(self, duration_us):
        self.run_until_us(self.now_us + duration_us)

    def expect(self, text, within_us, fail=None):
        """Run until the console output not yet read holds ``text`` (bytes); return all
        of that output, consuming it. Raises EmulatorError if ``within_us`` passes first,
        or if ``fail`` (bytes) shows up before ``text``."""
        answer = self._call(
            "expect",
            text=base64.b64encode(text).decode(),
            fail=base64.b64encode(fail).decode() if fail else None,
            until_ns=round((self.now_us + within_us) * 1000),
        )
        output = self.read_bytes()
        if answer["failed"] or not answer["found"]:
            printed = output.decode(errors="replace")
            raise EmulatorError(
                "no %r within %d µs; the board printed:\n%s" % (text, within_us, printed)
            )
        return output

    def read_bytes(self):
        """The console's new bytes, as the board sent them (mpremote's paste mode needs
        them undecoded)."""
        data = base64.b64decode(self._call("read")["console"])
        self.console += data.decode(errors="replace")
        return data

    def read(self):
        """Console output since the last read, as text."""
        return self.read_bytes().decode(errors="replace")

    def write(self, data):
        self._call("write", data=base64.b64encode(data).decode())

    def buttons(self, events):
        """Schedule ``(t_us, gpio, down)`` edges at emulated times (fractions of a µs
        allowed)."""
        self._call("buttons", events=[[round(t * 1000), g, bool(d)] for t, g, d in events])

    def spi_log(self):
        """``(t_us, dc, byte)`` for every byte SPI0 sent since the last call."""
        return [(t / 1000, dc, b) for t, dc, b in self._call("spi")["log"]]

    def flash(self, offset=FS_OFFSET, length=FS_BYTES):
        return base64.b64decode(self._call("flash", offset=offset, length=length)["data"])

    def raw_repl(self, within_us=500_000):
        """Stop whatever runs and enter the raw REPL."""
        self.write(_CTRL_C + _CTRL_C + b"\r" + _CTRL_A)
        self.expect(_RAW_REPL, within_us)

    def exec(self, code, within_us=2_000_000, enter=True):
        """Run ``code`` on the board and return what it printed; raise BoardError with the
        traceback if it raised. ``enter=False`` when already at the raw REPL's prompt."""
        if enter:
            self.raw_repl()
        self.write(code.encode() + _CTRL_D)
        output = self.expect(_CTRL_D + b">", within_us)
        if not output.startswith(b"OK"):
            raise EmulatorError("the raw REPL refused the code: %r" % output)
        out, _, err = output[len(b"OK") : -len(b"\x04>")].partition(_CTRL_D)
        if err:
            raise BoardError(err.decode(errors="replace") + "\n--- output ---\n" + out.decode())
        return out.decode(errors="replace")
