"""Power cuts and damaged files for the save file, on CPython and on the MicroPython VM.

``CuttingFlash`` wraps the device's ``Flash`` and cuts the power after a set number of
changes to the filesystem; the scenarios below run ``Storage`` over it in a folder and
return plain values, so the same code runs on CPython (in a temporary folder) and on
the MicroPython VM's filesystem (``tests/test_savedata.py`` runs both). MicroPython
code: no f-strings, no CPython-only calls.
"""

from drivers.storage import Flash, Storage
from spit.savedata import SaveData


class PowerCut(Exception):
    """The power went off: nothing after this reaches the flash."""


class CuttingFlash:
    """A filesystem that loses power at change number ``budget`` (0 for the first; -1
    never). Each open for writing, write, rename, remove and mkdir is one change; the
    change that meets the cut does not happen, except a write when ``torn``: the first
    half of its data reaches the file."""

    def __init__(self, fs, budget=-1, torn=False):
        self.fs = fs
        self.budget = budget
        self.torn = torn
        self.changes = 0

    def change(self):
        if self.changes == self.budget:
            raise PowerCut()
        self.changes += 1

    def open(self, path, mode):
        if "w" not in mode:
            return self.fs.open(path, mode)
        self.change()
        return _CutFile(self, self.fs.open(path, mode))

    def rename(self, old, new):
        self.change()
        self.fs.rename(old, new)

    def remove(self, path):
        self.change()
        self.fs.remove(path)

    def mkdir(self, path):
        self.change()
        self.fs.mkdir(path)

    def size(self, path):
        return self.fs.size(path)

    def listdir(self, path):
        return self.fs.listdir(path)


class _CutFile:
    def __init__(self, flash, file):
        self.flash = flash
        self.file = file

    def write(self, data):
        try:
            self.flash.change()
        except PowerCut:
            if self.flash.torn:
                self.file.write(data[: len(data) // 2])
            self.file.close()  # what reached the file stays; nothing more will
            raise
        return self.file.write(data)

    def close(self):
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def tally(wins):
    data = SaveData()
    data.games = [wins, 0]
    data.options.set("layout", "3x5")
    return data


def loaded_wins(path):
    """Player 1's games won in the data a fresh boot loads (-1: the defaults)."""
    storage = Storage(path)
    data = storage.load()
    return data.games[0] if storage.loaded_from else -1


def clear(folder):
    fs = Flash()
    for name in fs.listdir(folder):
        fs.remove(folder + "/" + name)


def cut_save(path, wins, budget, torn):
    """Save ``tally(wins)`` after a fresh load, cutting the power at change ``budget``;
    True if the save finished before the cut."""
    storage = Storage(path, CuttingFlash(Flash(), budget, torn))
    storage.load()
    try:
        return storage.save(tally(wins))
    except PowerCut:
        return False


def cut_every_step(folder):
    """Saves of 2 over 1 (with 0 in the backup), cut at every change, torn or not, each
    followed by a boot, a cut save of 3 at every change and a boot. Returns
    ``[budget, torn, wins after the first cut, [wins after each second cut]]`` per cut
    of the first save, the last being the uncut save."""
    path = folder + "/spit.json"
    runs = []
    for torn in (False, True):
        first = 0
        while True:
            clear(folder)
            Storage(path).save(tally(0))
            Storage(path).save(tally(1))
            finished = cut_save(path, 2, first, torn)
            after_first = loaded_wins(path)
            seconds = []
            second = 0
            while True:
                clear(folder)
                Storage(path).save(tally(0))
                Storage(path).save(tally(1))
                cut_save(path, 2, first, torn)
                done = cut_save(path, 3, second, torn)
                seconds.append(loaded_wins(path))
                if done:
                    break
                second += 1
            runs.append([first, torn, after_first, seconds])
            if finished:
                break
            first += 1
    return runs


def damaged_files(folder):
    """What a boot loads from damaged files: a list of ``[case, wins, layout]``."""
    path = folder + "/spit.json"
    fs = Flash()
    results = []

    def boot(case):
        storage = Storage(path)
        data = storage.load()
        wins = data.games[0] if storage.loaded_from else -1
        results.append([case, wins, data.options.layout])

    def write(name, data):
        with fs.open(name, "wb") as f:
            f.write(data)

    def good_pair():
        clear(folder)
        Storage(path).save(tally(1))
        Storage(path).save(tally(2))

    clear(folder)
    boot("missing")
    good_pair()
    boot("good")
    whole = fs.open(path, "rb").read()
    for cut in range(len(whole)):
        write(path, whole[:cut])
        boot("truncated")
    good_pair()
    seed = 12345
    for attempt in range(20):
        junk = bytearray(len(whole))
        for i in range(len(junk)):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            junk[i] = seed >> 16 & 255
        write(path, bytes(junk))
        boot("garbage")
        damaged = bytearray(whole)
        damaged[attempt * 7 % len(damaged)] = 0xFF
        write(path, bytes(damaged))
        boot("one bad byte")
    write(path + ".bak", b"\x00" * 64)
    boot("both garbage")
    return results
