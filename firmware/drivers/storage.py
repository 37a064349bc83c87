"""The save file on flash: written so that a power cut at any moment keeps good data.

A save writes the whole text to ``<path>.new``, renames the current file to
``<path>.bak`` (the previous good copy) and renames ``.new`` to the current file. A
cut while ``.new`` is written leaves the current file untouched; a cut between the
renames leaves no current file but a complete ``.new`` and ``.bak``. So ``load``
tries the current file, then ``.new``, then ``.bak``, and takes the first that is
save data; with none, the defaults. A torn ``.new`` is never taken: a JSON object cut
short does not parse. A current file that did not load is removed rather than
renamed over the good ``.bak``, and a save that finds its data came from ``.new`` (an
earlier save cut between its renames) first renames it into place.

A folder where one of the three files goes (MicroPython cannot write one, rename a file
over it or, on every port, ``os.remove`` it) is removed by the save if it is empty. A
folder with something in it is never touched: at ``.bak``, the save goes on without a
backup copy (the current file is removed once ``.new`` is complete, so a cut between
still leaves the new data in ``.new``); at the file's own name or at ``.new``, no save
can be made.

Flash writes stop interrupts on the RP2040: only the game flow saves, between rounds.

Constructor
    ``Storage(path="/spit.json", fs=None)``: ``fs`` is the filesystem (``Flash()``, the
    device's own, by default; tests pass one that cuts the power).

Methods
    ``load()``: the ``SaveData``; never raises. ``save(data)``: True once the new data is
    the current file, False if the filesystem refused a step (full, worn out) or a
    folder is in the way; a boot then loads the old data or the new, as after a power
    cut at that step. Data the same as the last save's is not written again (flash
    wears, and a write holds up the loop for milliseconds).

Class variables
    ``loaded_from``: which file the data in use came from (``path``, ``.new``, ``.bak``),
    or None for the defaults.
    ``problem``: None until a save fails; then one line saying why (``not saved:
    /spit.json.new is a folder``), for the screen to show once. Set by the first failed
    save of the power-on and kept, whatever the saves after it do.
"""

import gc
import os

from micropython import const
from spit.savedata import SaveData

# A save is under 1 KiB; anything much bigger is not one, and reading it could
# exhaust the heap.
_MAX_BYTES = const(4096)
# ``os.stat``'s mode bit of a folder.
_S_IFDIR = const(0x4000)
# MicroPython's errno for a full filesystem (LittleFS's LFS_ERR_NOSPC).
_ENOSPC = const(28)


def _why(error):
    """A refused step of a save, in a few words: the text of an ``OSError`` raised with
    one, else its errno (how MicroPython names it varies with the port)."""
    if isinstance(error, MemoryError):
        return "out of memory"
    reason = error.args[0] if error.args else -1
    if reason == _ENOSPC:
        return "the flash is full"
    if isinstance(reason, int):
        return "flash error %d" % reason
    return str(reason)


class Flash:
    """The device's filesystem, as the storage and the transcripts use it."""

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)

    def size(self, path):
        """The file's size in bytes, or -1 if there is no such file."""
        try:
            return os.stat(path)[6]
        except OSError:
            return -1

    def is_folder(self, path):
        try:
            return bool(os.stat(path)[0] & _S_IFDIR)
        except OSError:
            return False

    def rmdir(self, path):
        """Removes an empty folder (``OSError`` if it holds something)."""
        os.rmdir(path)

    def listdir(self, path):
        return os.listdir(path)

    def mkdir(self, path):
        os.mkdir(path)


class Storage:
    def __init__(self, path="/spit.json", fs=None):
        self.path = path
        self.fs = fs or Flash()
        self.loaded_from = None
        self.problem = None
        self._loaded = False
        self._written = None  # the text of the last save: an unchanged save writes nothing

    def load(self):
        self._loaded = True
        for path in (self.path, self.path + ".new", self.path + ".bak"):
            data = self._read(path)
            if data is not None:
                self.loaded_from = path
                self._written = data.text() if path == self.path else None
                return data
        self.loaded_from = None
        return SaveData()

    def save(self, data):
        fs = self.fs
        path = self.path
        new = path + ".new"
        text = data.text()
        if text == self._written:
            return True
        if not self._loaded:
            self.load()
        try:
            backup = self._clear_the_way()
            if self.loaded_from == new:
                # Finish the interrupted save first: the next write to .new would
                # otherwise destroy the only copy of the data in use.
                fs.rename(new, path)
                self.loaded_from = path
            with fs.open(new, "w") as f:
                f.write(text)
            if self.loaded_from == path and backup is not None:
                fs.rename(path, backup)
            elif fs.size(path) >= 0:
                fs.remove(path)  # damaged (keep the good .bak), or no place for a backup
            fs.rename(new, path)
        except (OSError, MemoryError) as error:
            self._loaded = False  # which files are good is unknown now: look again
            self._written = None
            if self.problem is None:
                self.problem = "not saved: " + _why(error)
            return False
        self.loaded_from = path
        self._written = text
        return True

    def _clear_the_way(self):
        """Removes an empty folder from where each file of a save goes. Returns the
        backup's name, or None if a folder that holds something is there; raises
        ``OSError`` saying which if one is at the file's own name or at ``.new``."""
        fs = self.fs
        backup = self.path + ".bak"
        for name in (self.path, self.path + ".new", backup):
            if not fs.is_folder(name):
                continue
            try:
                fs.rmdir(name)
            except OSError:
                if name == backup:
                    return None
                raise OSError(name + " is a folder") from None
        return backup

    def _read(self, path):
        size = self.fs.size(path)
        if not 0 < size <= _MAX_BYTES:
            return None
        for _ in range(2):
            try:
                with self.fs.open(path, "rb") as f:
                    return SaveData.parse(f.read(size))
            except MemoryError:
                # Not a damaged file: the heap, scattered by the imports at boot, had no
                # block for it. Taken as damaged, good data would give way to defaults.
                gc.collect()
            except Exception:  # whatever a damaged file does, the device boots
                return None
        return None
