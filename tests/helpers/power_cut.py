"""Power cuts, damaged files and folders in the way of the save file, on CPython and on
the MicroPython VM.

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
    never). Each open for writing, write, rename, remove, mkdir and rmdir is one change; the
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

    def rmdir(self, path):
        self.change()
        self.fs.rmdir(path)

    def size(self, path):
        return self.fs.size(path)

    def is_folder(self, path):
        return self.fs.is_folder(path)

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
    for name in Flash().listdir(folder):
        remove_all(folder + "/" + name)


def remove_all(path):
    """A file, or a folder and everything in it."""
    fs = Flash()
    if fs.is_folder(path):
        for name in fs.listdir(path):
            remove_all(path + "/" + name)
        fs.rmdir(path)
    elif fs.size(path) >= 0:
        fs.remove(path)


def with_folder_at(folder, suffix, full):
    """Saves of 2 over 1 in ``folder``, then a folder made where ``spit.json`` +
    ``suffix`` goes (``full``: with a file in it); returns the save file's path."""
    path = folder + "/spit.json"
    clear(folder)
    Storage(path).save(tally(1))
    Storage(path).save(tally(2))
    remove_all(path + suffix)
    fs = Flash()
    fs.mkdir(path + suffix)
    if full:
        with fs.open(path + suffix + "/keep.txt", "w") as f:
            f.write("kept")
    return path


def folders_in_the_way(folder):
    """Two saves (of 3, then 4) after a boot, with an empty or a full folder at each
    file's place. Returns ``[suffix, full, [saved 3, saved 4], wins a boot loads then,
    problem, the folder and its file kept]`` per case."""
    results = []
    for suffix in ("", ".new", ".bak"):
        for full in (False, True):
            path = with_folder_at(folder, suffix, full)
            storage = Storage(path)
            storage.load()
            saved = [storage.save(tally(3)), storage.save(tally(4))]
            fs = Flash()
            kept = fs.is_folder(path + suffix) and fs.size(path + suffix + "/keep.txt") == 4
            results.append([suffix, full, saved, loaded_wins(path), storage.problem, kept])
    return results


def cut_without_backup(folder):
    """Saves of 3 over 2 with a full folder at ``.bak``, cut at every change: the wins a
    boot loads after each cut, the last after the uncut save."""
    wins = []
    for budget in range(10):  # a save takes five changes
        path = with_folder_at(folder, ".bak", True)
        done = cut_save(path, 3, budget, False)
        wins.append(loaded_wins(path))
        if done:
            break
    return wins


def unwritable(folder):
    """Saves where no file can be written: into a folder that does not exist, then
    (once it does) with a full folder at ``.new``. Returns ``[saved, saved, problem]``."""
    path = folder + "/missing/spit.json"
    storage = Storage(path)
    saved = storage.save(tally(1))
    fs = Flash()
    fs.mkdir(folder + "/missing")
    fs.mkdir(path + ".new")
    with fs.open(path + ".new/keep.txt", "w") as f:
        f.write("kept")
    return [saved, storage.save(tally(2)), storage.problem]


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
