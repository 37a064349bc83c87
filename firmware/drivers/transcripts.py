"""Finished games' transcripts on flash, for ``make pull`` to copy off with ``mpremote``.

Each game is one file, ``/transcripts/game-<n>.txt``, in the text form of
``spit.transcript`` (with the ``@`` press times), numbered on from the newest file
there. The folder keeps the last ``KEEP`` games within ``MAX_BYTES`` in all, the
oldest removed first. A game is written to ``next.tmp`` and renamed into place, so
a power cut never leaves half a transcript under a game's name. A transcript longer
than the whole budget is not kept.

Flash writes stop interrupts on the RP2040: only the game flow adds a transcript,
after a game.

Constructor
    ``Transcripts(folder="/transcripts", fs=None, keep=KEEP, max_bytes=MAX_BYTES)``;
    ``fs`` as for ``drivers.storage.Storage``.

Methods
    ``add(text)``: the new file's name, or None if it was not written (never raises
    for a filesystem error); ``text`` whole, or a list of its lines. ``names()``: the
    kept files' names, oldest first.
"""

from micropython import const

from drivers.storage import Flash

# The median self-play game's transcript is about 3 KiB and the longest of 200 was
# 21 KiB, so 64 KiB keeps eight ordinary games and always the longest one; the Pico's
# filesystem has well over a megabyte.
KEEP = const(8)
MAX_BYTES = const(65536)

_PREFIX = "game-"
_SUFFIX = ".txt"
_TEMP = "next.tmp"


class Transcripts:
    def __init__(self, folder="/transcripts", fs=None, keep=KEEP, max_bytes=MAX_BYTES):
        self.folder = folder
        self.fs = fs or Flash()
        self.keep = keep
        self.max_bytes = max_bytes

    def names(self):
        try:
            entries = self.fs.listdir(self.folder)
        except OSError:
            return []
        numbered = [(_number(name), name) for name in entries]
        return [name for number, name in sorted(numbered) if number >= 0]

    def add(self, text):
        # A list of lines is written one by one: a long game's whole text may find no
        # block on the device's heap.
        lines = (text,) if isinstance(text, str) else text
        size = 0
        for line in lines:
            size += len(line)
        if size > self.max_bytes:
            return None
        fs = self.fs
        try:
            if fs.size(self.folder) < 0:
                fs.mkdir(self.folder)
            names = self.names()
            sizes = [fs.size(self._path(name)) for name in names]
            while names and (len(names) >= self.keep or sum(sizes) + size > self.max_bytes):
                fs.remove(self._path(names.pop(0)))
                sizes.pop(0)
            name = "%s%d%s" % (_PREFIX, _number(names[-1]) + 1 if names else 1, _SUFFIX)
            temp = self._path(_TEMP)
            with fs.open(temp, "w") as f:
                for line in lines:
                    f.write(line)
            fs.rename(temp, self._path(name))
        except OSError:
            return None
        return name

    def _path(self, name):
        return self.folder + "/" + name


def _number(name):
    """The game number in a transcript's file name, or -1 for any other file."""
    digits = name[len(_PREFIX) : -len(_SUFFIX)]
    if name.startswith(_PREFIX) and name.endswith(_SUFFIX) and digits.isdigit():
        return int(digits)
    return -1
