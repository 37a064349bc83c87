"""The emulated Pico from Python: MicroPython's own UF2 in rp2040js (``serve.mjs``).

    with EmulatedPico(files=board_files()) as pico:
        pico.run_us(500_000)                     # boot; main.py starts
        t = pico.now_us + 1000                   # player 1's L, 1 ms from now, for 40 ms
        pico.buttons([(t, 5, True), (t + 40_000, 5, False)])
        pico.run_us(100_000)
        print(pico.read())                       # the USB console

Times are emulated: ``now_us`` is the RP2040 timer's microsecond count (``ticks_us`` is
its low 30 bits). Button ``b`` is GPIO ``b``, wired to ground: ``down`` pulls it low.
A reset of the chip (``machine.reset()``, the watchdog) restarts it from its flash, as
on a Pico, with the clock running on; ``resets`` counts them.
``exec`` runs code through MicroPython's raw REPL (as ``mpremote exec`` does), after
interrupting whatever runs.

Where the UF2 and boot ROM come from: ``PICO_UF2`` and ``PICO_BOOTROM`` (paths), else
``../shared/pico/`` beside the repository when it holds them; ``firmware_paths()`` says
which, or None. ``firmware_problem()`` says in one line what is missing or wrong with them
before anything runs, and ``untested_firmware()`` which of them are not the files the
project is tested with.
"""

import base64
import hashlib
import json
import os
import shutil
import struct
import subprocess
import tempfile

from host_sim.emu.fs_image import FS_BYTES, FS_OFFSET, build_image
from host_sim.vm.micropython_vm import REPO

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


class FirmwareFile:
    """One of the two files the emulated Pico needs: ``what`` it is, the ``variable``
    that names it, its ``default`` path, what it must be (``wanted``), and the build the
    project is tested with (``tested``) with its ``sha256``."""

    def __init__(self, what, variable, default, wanted, tested, sha256):
        self.what = what
        self.variable = variable
        self.default = default
        self.wanted = wanted
        self.tested = tested
        self.sha256 = sha256

    def path(self):
        return os.environ.get(self.variable) or self.default

    def name(self):
        """The file as a message names it: with the variable that set it, or as the
        default."""
        if os.environ.get(self.variable):
            return "%s=%s" % (self.variable, self.path())
        return "the default %s %s" % (self.what, self.default)

    def read(self):
        with open(self.path(), "rb") as f:
            return f.read()


# The tested files are those in ../shared/pico/. Another build of the same release may
# differ byte for byte and still work: a difference is only a warning.
UF2_FILE = FirmwareFile(
    "UF2",
    "PICO_UF2",
    DEFAULT_UF2,
    "MicroPython's RPI_PICO UF2",
    "MicroPython v1.28.0 RPI_PICO",
    "5daa8e5fcdb37f1d81ff1a720b6c632113a5b11336564c62db7cd0005354cd87",
)
BOOTROM_FILE = FirmwareFile(
    "boot ROM",
    "PICO_BOOTROM",
    DEFAULT_BOOTROM,
    "the RP2040's B1 boot ROM",
    "RP2040 B1",
    "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae",
)

FLASH_BASE = 0x10000000
FLASH_BYTES = 2 * 1024 * 1024  # the Pico's flash
RP2040_FAMILY = 0xE48BFF56  # the UF2 family id of RP2040 programs
UF2_BLOCK = 512
_UF2_START = (0x0A324655, 0x9E5D5157)  # a block's first two words
_UF2_END = 0x0AB16F30  # and its last
_UF2_HAS_FAMILY = 0x2000  # a flag: the block's eighth word is its family id
_UF2_PAYLOAD = 476  # the most bytes a block carries
BOOTROM_BYTES = 16 * 1024
_BOOTROM_MAGIC = (0x10, b"Mu\x01")  # where the RP2040's ROM has its magic, and what


def firmware_problem():
    """One line on what keeps the UF2 and the boot ROM from booting the emulated Pico: a
    file missing (each one named, with the variable that sets it) or one that is no UF2
    or no RP2040 boot ROM; None when both look right."""
    missing = [
        "%s: no such file (%s names %s)" % (file.name(), file.variable, file.wanted)
        for file in (UF2_FILE, BOOTROM_FILE)
        if not os.path.isfile(file.path())
    ]
    if missing:
        return "; ".join(missing) + "; see the README"
    for file, check in ((UF2_FILE, uf2_problem), (BOOTROM_FILE, bootrom_problem)):
        problem = check(file.read())
        if problem:
            return "%s is not %s: %s" % (file.name(), file.wanted, problem)
    return None


def uf2_problem(data):
    """What makes ``data`` no UF2 of a program for the Pico's flash, or None."""
    if len(data) < UF2_BLOCK or struct.unpack_from("<2I", data) != _UF2_START:
        return "it does not start with the UF2 magic numbers 0x%08X 0x%08X" % _UF2_START
    if len(data) % UF2_BLOCK:
        return "%d bytes, not whole %d-byte UF2 blocks (cut short?)" % (len(data), UF2_BLOCK)
    boots = False
    for at in range(0, len(data), UF2_BLOCK):
        start0, start1, flags, address, size, _, _, family = struct.unpack_from("<8I", data, at)
        (end,) = struct.unpack_from("<I", data, at + UF2_BLOCK - 4)
        block = "block %d (byte %d)" % (at // UF2_BLOCK, at)
        if (start0, start1) != _UF2_START or end != _UF2_END:
            return "%s lacks the UF2 magic numbers" % block
        if flags & _UF2_HAS_FAMILY and family != RP2040_FAMILY:
            return "%s is for UF2 family 0x%08X, not the RP2040's" % (block, family)
        if size > _UF2_PAYLOAD:
            return "%s claims %d bytes, more than a UF2 block holds (%d)" % (
                block,
                size,
                _UF2_PAYLOAD,
            )
        if not FLASH_BASE <= address <= FLASH_BASE + FLASH_BYTES - size:
            where = (block, size, address)
            return "%s writes %d bytes at 0x%08X, outside the Pico's 2 MiB flash" % where
        boots = boots or address == FLASH_BASE
    return None if boots else "no block at 0x%08X, where the RP2040 starts" % FLASH_BASE


def bootrom_problem(data):
    """What makes ``data`` no RP2040 boot ROM, or None."""
    if len(data) != BOOTROM_BYTES:
        return "%d bytes, where the RP2040's boot ROM is %d" % (len(data), BOOTROM_BYTES)
    at, magic = _BOOTROM_MAGIC
    if data[at : at + len(magic)] != magic:
        return "no RP2040 boot ROM magic (%r) at byte 0x%X" % (magic, at)
    return None


def firmware_usable(say):
    """Whether the UF2 and the boot ROM can boot the emulated Pico: ``say`` gets the
    one line on what keeps them from it, or a warning for each untested file."""
    problem = firmware_problem()
    if problem:
        say(problem)
        return False
    for line in untested_firmware():
        say("warning: " + line)
    return True


def untested_firmware():
    """A line for each of the UF2 and the boot ROM that is not the file the project is
    tested with (compared by SHA-256); for files ``firmware_problem()`` accepted."""
    lines = []
    for file in (UF2_FILE, BOOTROM_FILE):
        found = hashlib.sha256(file.read()).hexdigest()
        if found != file.sha256:
            lines.append(
                "%s is not the tested %s, %s (sha256 %s..., not %s...); another build may"
                " behave differently"
                % (file.name(), file.what, file.tested, found[:12], file.sha256[:12])
            )
    return lines


class EmulatedPico:
    """Constructor: ``EmulatedPico(files=None, start_us=0, held=(), paths=None,
    log_spi=True, fs_image=None)``: ``files`` (board path -> bytes) become the filesystem
    (None leaves the flash erased, and MicroPython formats it at boot), or ``fs_image``
    is the filesystem partition's bytes as an earlier run left them (``flash()``); the
    timer starts at
    ``start_us``; GPIOs in ``held`` are pressed at power-on; ``paths`` is ``(uf2,
    bootrom)``, by default ``firmware_paths()``; without ``log_spi`` the emulator keeps no
    SPI0 bytes for ``spi_log``.

    Methods: ``run_us``, ``run_until_us``, ``expect``, ``read``, ``write``, ``buttons``,
    ``spi_log``, ``flash``, ``raw_repl``, ``exec``, ``close``. Attributes: ``now_us``
    (float), ``console`` (everything the board printed, as text), ``resets`` (chip
    resets so far)."""

    def __init__(
        self, files=None, start_us=0, held=(), paths=None, log_spi=True, fs_image=None
    ):
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
            fs_image = build_image(files)
        if fs_image is not None:
            image = os.path.join(self._tmp.name, "fs.img")
            with open(image, "wb") as f:
                f.write(fs_image)
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
            # Ctrl-C in a terminal is for the Python side, which then stops the emulator
            # in order (``make emu-port`` saves the flash first).
            start_new_session=True,
        )
        self.now_us = start_us
        self.resets = 0
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
        self.resets = answer["resets"]
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
