"""``make flash``: the built firmware onto a board, safely.

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
"""

import hashlib
import json

from host_sim.board.compatibility import MADE_FOR, board_format, incompatibility
from host_sim.board.compiling import BOOT
from host_sim.board.errors import EXIT_INCOMPATIBLE, FlashError
from host_sim.board.scripts import (
    STAGING,
    hashes_script,
    import_script,
    listing_script,
    staging_script,
    swap_script,
)


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
