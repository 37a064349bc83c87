"""Saved data (SPEC 7): its JSON form and validation, the save file under power cuts and
damage (on CPython and on the MicroPython VM's filesystem), and transcripts on flash."""

import json
import os
import subprocess

import pytest
from drivers.storage import Flash, Storage
from drivers.transcripts import Transcripts
from helpers import power_cut
from spit import keys
from spit.games import NAMES as GAMES
from spit.modes import MATCH
from spit.options import CHOICES, Options
from spit.savedata import (
    FORMAT,
    RECENT,
    SEAT_CHOICES,
    TIE_MAX_US,
    TIE_MIN_US,
    SaveData,
    SaveDataError,
)
from spit.selfplay import Race, game_seed
from spit.spit import Game
from spit.spit_cpu import SpitCpu
from spit.ticks import TICKS_PERIOD, ticks_add
from spit.transcript import Transcript

from host_sim.sim.replay import ENDS_EARLY
from host_sim.sim.simulated_device import Device, SimulatedClock
from host_sim.sim.simulator import load_transcript, replay_to_the_end
from host_sim.vm.firmware_path import DEVICE
from host_sim.vm.machine_module import VM_MACHINE

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPREMOTE = os.path.join(REPO, ".venv", "bin", "mpremote")


def raw_of(data):
    return json.loads(data.text())


def parsed(raw):
    return SaveData.parse(json.dumps(raw))


# -- the data ---------------------------------------------------------------------


def test_defaults_round_trip_through_text():
    data = SaveData.parse(SaveData().text())
    assert data.options.text() == SaveData().options.text()
    assert (data.seats, data.muted, data.tie_us) == (["person", "person"], False, 100)
    assert (data.games, data.matches, data.best_ms, data.recent_ms) == (
        [0, 0],
        [0, 0],
        [0, 0],
        [[], []],
    )


def test_every_setting_and_tally_round_trips():
    for index in (1, 2):
        data = SaveData()
        for name, values in CHOICES:
            data.options.set(name, values[index % len(values)])
        data.seats = [SEAT_CHOICES[index], SEAT_CHOICES[-1]]
        data.muted = True
        data.tie_us = 60 * index
        data.games = [7, 3 * index]
        data.matches = [2, index]
        data.best_ms = [180 + index, 240]
        data.recent_ms = [[300, 200 + index], list(range(400, 400 + RECENT))]
        again = SaveData.parse(data.text())
        assert raw_of(again) == raw_of(data)


def test_file_holds_every_option_by_name():
    settings = raw_of(SaveData())["settings"]
    assert {name for name, _ in CHOICES} | {"game", "seats", "mute", "tie_us"} == set(settings)
    assert raw_of(SaveData())["format"] == FORMAT


def test_levels_name_the_cpu_seats():
    data = SaveData()
    data.seats = ["person", "quick"]
    assert data.levels() == (None, "quick")


@pytest.mark.parametrize(
    "text",
    ["", "{", "[1, 2]", "17", '"spit"', '{"format": "spit-save 2"}', "{}", b"\xff\xfe{"],
)
def test_what_is_not_save_data_is_refused_whole(text):
    with pytest.raises(SaveDataError):
        SaveData.parse(text)


BAD_VALUES = [
    ("settings", "layout", "2-6"),
    ("settings", "layout", 3),
    ("settings", "quick", None),
    ("settings", "seats", ["person", "godlike"]),
    ("settings", "seats", ["person"]),
    ("settings", "seats", "quick"),
    ("settings", "mute", 1),
    ("settings", "mute", "yes"),
    ("settings", "tie_us", TIE_MIN_US - 1),
    ("settings", "tie_us", TIE_MAX_US + 1),
    ("settings", "tie_us", "100"),
    ("settings", "tie_us", 100.0),
    ("settings", "tie_us", True),
    (None, "games", [-1, 2]),
    (None, "games", [1, 2, 3]),
    (None, "games", [True, 2]),
    (None, "games", [1, 10**40]),
    (None, "matches", {"p1": 1}),
]


@pytest.mark.parametrize("where, name, value", BAD_VALUES)
def test_a_bad_value_gets_its_default_and_the_rest_is_kept(where, name, value):
    good = SaveData()
    good.options.set("layout", "1-4")
    good.options.set("quick", "off")
    good.seats = ["steady", "person"]
    good.muted = True
    good.tie_us = 80
    good.games = [4, 5]
    good.matches = [1, 2]
    raw = raw_of(good)
    (raw[where] if where else raw)[name] = value
    data = parsed(raw)
    default = raw_of(SaveData())
    expected = raw_of(good)
    (expected[where] if where else expected)[name] = (default[where] if where else default)[name]
    assert raw_of(data) == expected


VM_PARSE = """
import json
from spit.savedata import SaveData
for text in TEXTS:
    print(json.dumps(SaveData.parse(text).to_dict()))
"""


def test_values_are_checked_alike_on_micropython(mpvm):
    texts = []
    for where, name, value in BAD_VALUES:
        raw = raw_of(SaveData())
        (raw[where] if where else raw)[name] = value
        texts.append(json.dumps(raw))
    lines = mpvm(VM_PARSE.replace("TEXTS", repr(texts))).splitlines()
    assert [json.loads(line) for line in lines] == [raw_of(SaveData.parse(t)) for t in texts]
    assert all(json.loads(line) == raw_of(SaveData()) for line in lines)


def test_missing_fields_and_sections_get_defaults():
    data = parsed({"format": FORMAT, "games": [3, 4]})
    assert data.games == [3, 4]
    assert raw_of(data)["settings"] == raw_of(SaveData())["settings"]
    assert parsed({"format": FORMAT, "settings": [1], "reactions": "x"}).tie_us == 100


def test_reactions_keep_only_valid_times_and_the_last_recent():
    raw = raw_of(SaveData())
    raw["reactions"] = [
        {"best_ms": 20, "recent_ms": [300, "fast", 50, 99_999, 410.5, 420]},
        {"best_ms": 250, "recent_ms": list(range(1000, 1000 + RECENT + 5))},
    ]
    data = parsed(raw)
    assert data.best_ms == [0, 250]  # 20 ms is faster than anyone reacts
    assert data.recent_ms[0] == [300, 420]
    assert data.recent_ms[1] == list(range(1005, 1000 + RECENT + 5))
    raw["reactions"] = [{"best_ms": 300}]
    assert parsed(raw).best_ms == [0, 0]


# -- the save file ------------------------------------------------------------------


def check_cut_runs(runs):
    """Every cut leaves the old or the new data; the uncut saves leave the new."""
    for torn in (False, True):
        firsts = [run for run in runs if run[1] == torn]
        assert [run[0] for run in firsts] == [0, 1, 2, 3, 4]  # open, write, 2 renames, none
        assert [run[2] for run in firsts] == [1, 1, 1, 2, 2]
        for first, _, after_first, seconds in firsts:
            assert len(seconds) >= 5, first
            assert all(wins in (after_first, 3) for wins in seconds), (first, torn, seconds)
            assert seconds[-1] == 3


def check_damaged(results):
    cases = {}
    for case, wins, layout in results:
        cases.setdefault(case, []).append((wins, layout))
    assert cases["missing"] == [(-1, "1-5")]
    assert cases["good"] == [(2, "3x5")]
    # Every truncation of the current file falls back to the previous good copy.
    assert set(cases["truncated"]) == {(1, "3x5")}
    assert len(cases["truncated"]) > 300
    assert set(cases["garbage"]) == {(1, "3x5")}
    # One bad byte either spoils the JSON (the copy loads) or a value (its default).
    assert {wins for wins, _ in cases["one bad byte"]} <= {1, 2}
    assert cases["both garbage"] == [(-1, "1-5")]


def test_a_save_cut_at_any_step_leaves_old_or_new_data(tmp_path):
    check_cut_runs(power_cut.cut_every_step(str(tmp_path)))


def test_damaged_files_load_the_last_good_copy_or_defaults(tmp_path):
    check_damaged(power_cut.damaged_files(str(tmp_path)))


VM_SCENARIOS = """
import json, os
os.mkdir('/save')
import power_cut
print(json.dumps([power_cut.cut_every_step('/save'), power_cut.damaged_files('/save')]))
"""


def test_save_file_on_the_micropython_vm_filesystem(mpvm, tmp_path):
    with open(power_cut.__file__, encoding="utf-8") as f:
        helper = f.read()
    runs, damaged = json.loads(mpvm(VM_SCENARIOS, files={"/lib/power_cut.py": helper}))
    check_cut_runs(runs)
    check_damaged(damaged)
    # The same steps give the same outcomes as on CPython.
    assert runs == [list(run) for run in power_cut.cut_every_step(str(tmp_path))]


class RefusingFlash(power_cut.CuttingFlash):
    """A full flash: from change ``budget`` on, every change fails as the device's do."""

    def change(self):
        if self.changes >= self.budget:
            raise OSError(28)  # ENOSPC
        self.changes += 1


@pytest.mark.parametrize("budget", range(4))  # the open, the write, either rename
def test_a_refused_save_returns_false_and_keeps_the_old_data(tmp_path, budget):
    path = str(tmp_path / "spit.json")
    Storage(path).save(power_cut.tally(4))
    Storage(path).save(power_cut.tally(5))
    storage = Storage(path, RefusingFlash(Flash(), budget))
    assert storage.load().games == [5, 0]
    assert storage.save(power_cut.tally(6)) is False
    # As after a power cut: the old data, or the new once it was complete (the last
    # rename failed).
    assert Storage(path).load().games == [6 if budget == 3 else 5, 0]
    storage.fs.budget = 1000  # room again: the next save goes through
    assert storage.save(power_cut.tally(7)) is True
    assert Storage(path).load().games == [7, 0]


def test_an_unchanged_save_writes_nothing_and_a_changed_one_writes(tmp_path):
    path = str(tmp_path / "spit.json")
    storage = Storage(path, RefusingFlash(Flash(), 1000))
    data = power_cut.tally(3)
    assert storage.save(data) is True
    changes = storage.fs.changes
    assert storage.save(data) is True and storage.fs.changes == changes, "nothing written"
    data.games = [4, 0]
    assert storage.save(data) is True and storage.fs.changes > changes
    after_boot = Storage(path, RefusingFlash(Flash(), 0))  # refuses any write
    assert after_boot.load().games == [4, 0]
    assert after_boot.save(after_boot.load()) is True, "what was loaded is not written again"


def test_a_folder_or_huge_file_in_the_way_loads_defaults(tmp_path):
    path = tmp_path / "spit.json"
    path.mkdir()
    assert Storage(str(path)).load().games == [0, 0]
    huge = tmp_path / "huge.json"
    huge.write_text('{"format": "spit-save 1", "games": [9, 9]}' + " " * 10_000)
    storage = Storage(str(huge))
    assert storage.load().games == [0, 0]
    assert storage.loaded_from is None


class ScatteredHeap(Flash):
    """A flash whose first ``misses`` reads find no block of the heap for their bytes, as
    on a Pico whose heap the imports at boot left scattered."""

    def __init__(self, misses):
        self.misses = misses

    def open(self, path, mode):
        file = super().open(path, mode)
        if self.misses:
            self.misses -= 1
            file.read = _no_memory
        return file


def _no_memory(size):
    raise MemoryError("memory allocation failed, allocating %d bytes" % size)


def test_a_save_read_without_memory_is_read_again_not_taken_for_damaged(tmp_path):
    path = str(tmp_path / "spit.json")
    Storage(path).save(power_cut.tally(1))
    storage = Storage(path, ScatteredHeap(misses=1))
    assert storage.load().games == [1, 0]
    assert storage.loaded_from == path
    assert Storage(path, ScatteredHeap(misses=6)).load().games == [0, 0], "never raises"


class FullHeap(power_cut.CuttingFlash):
    """A heap with no room for a file's buffers: every open for writing fails."""

    def change(self):
        raise MemoryError("memory allocation failed, allocating 1148 bytes")


def test_a_save_without_memory_returns_false_says_so_and_keeps_the_data(tmp_path):
    path = str(tmp_path / "spit.json")
    Storage(path).save(power_cut.tally(1))
    storage = Storage(path, FullHeap(Flash()))
    assert storage.save(power_cut.tally(2)) is False
    assert storage.problem == "not saved: out of memory"
    assert Storage(path).load().games == [1, 0]


def test_save_without_load_keeps_the_previous_copy(tmp_path):
    path = str(tmp_path / "spit.json")
    Storage(path).save(power_cut.tally(1))
    Storage(path).save(power_cut.tally(2))
    assert Storage(path).load().games == [2, 0]
    assert SaveData.parse((tmp_path / "spit.json.bak").read_text()).games == [1, 0]


def test_the_first_save_that_fails_says_why_and_stays_said(tmp_path):
    path = str(tmp_path / "spit.json")
    storage = Storage(path, RefusingFlash(Flash(), 0))
    assert storage.problem is None
    assert storage.save(power_cut.tally(1)) is False
    assert storage.problem == "not saved: the flash is full"
    storage.fs.budget = 1000
    assert storage.save(power_cut.tally(2)) is True
    assert storage.problem == "not saved: the flash is full", "for the screen to show once"


def check_folders_in_the_way(results, folder):
    """An empty folder is removed and every save goes through; a full one is kept: at
    ``.bak`` the saves go through without a backup, elsewhere none can be made and the
    first failure says why."""
    for suffix, full, saved, wins, problem, kept in results:
        case = (suffix, full)
        if full and suffix != ".bak":
            assert saved == [False, False] and kept, case
            assert problem == "not saved: %s/spit.json%s is a folder" % (folder, suffix), case
            assert wins == (1 if suffix == "" else 2), "the last good copy loads"
        else:
            assert saved == [True, True] and wins == 4 and problem is None, case
            assert kept == full, case


def check_cut_without_backup(wins):
    assert wins[-1] == 3 and set(wins) == {2, 3}, "the old data or the new after any cut"
    assert wins == sorted(wins)


def check_unwritable(saved_one, saved_two, problem):
    assert (saved_one, saved_two) == (False, False)
    assert problem.startswith("not saved: flash error "), "the first failure is kept"


def test_a_folder_in_the_way_is_removed_if_empty_or_the_save_says_why(tmp_path):
    folder = str(tmp_path)
    check_folders_in_the_way(power_cut.folders_in_the_way(folder), folder)
    check_cut_without_backup(power_cut.cut_without_backup(folder))
    (tmp_path / "other").mkdir()
    check_unwritable(*power_cut.unwritable(str(tmp_path / "other")))


VM_IN_THE_WAY = """
import json, os
os.mkdir('/save')
os.mkdir('/other')
import power_cut
print(json.dumps([
    power_cut.folders_in_the_way('/save'),
    power_cut.cut_without_backup('/save'),
    power_cut.unwritable('/other'),
]))
"""


def test_a_folder_in_the_way_on_the_micropython_vm_filesystem(mpvm):
    with open(power_cut.__file__, encoding="utf-8") as f:
        helper = f.read()
    in_the_way, cuts, unwritable = json.loads(
        mpvm(VM_IN_THE_WAY, files={"/lib/power_cut.py": helper})
    )
    check_folders_in_the_way(in_the_way, "/save")
    check_cut_without_backup(cuts)
    check_unwritable(*unwritable)


# -- transcripts ----------------------------------------------------------------------


def transcript_text(n, size=100):
    head = "spit-transcript 1\nseed %d\n" % n
    return head + "#" * (size - len(head) - 1) + "\n"


def test_transcripts_keep_the_last_games_oldest_removed_first(tmp_path):
    folder = str(tmp_path / "transcripts")
    transcripts = Transcripts(folder, keep=3)
    names = [transcripts.add(transcript_text(n)) for n in range(5)]
    assert names == ["game-1.txt", "game-2.txt", "game-3.txt", "game-4.txt", "game-5.txt"]
    assert transcripts.names() == ["game-3.txt", "game-4.txt", "game-5.txt"]
    assert sorted(os.listdir(folder)) == ["game-3.txt", "game-4.txt", "game-5.txt"]
    with open(os.path.join(folder, "game-5.txt"), encoding="utf-8") as f:
        assert f.read() == transcript_text(4)


def test_transcripts_stay_within_their_bytes(tmp_path):
    folder = str(tmp_path / "t")
    transcripts = Transcripts(folder, keep=8, max_bytes=1000)
    for n in range(6):
        transcripts.add(transcript_text(n, 300))
    assert transcripts.names() == ["game-4.txt", "game-5.txt", "game-6.txt"]
    assert sum(os.path.getsize(os.path.join(folder, n)) for n in os.listdir(folder)) <= 1000
    assert transcripts.add(transcript_text(9, 1001)) is None
    assert transcripts.names() == ["game-4.txt", "game-5.txt", "game-6.txt"]


def test_transcripts_number_on_past_ten_and_ignore_other_files(tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "game-9.txt").write_text("x")
    (folder / "notes.txt").write_text("y")
    (folder / "next.tmp").write_text("half a gam")
    transcripts = Transcripts(str(folder), keep=2)
    assert transcripts.add(transcript_text(1)) == "game-10.txt"
    assert transcripts.add(transcript_text(2)) == "game-11.txt"
    assert transcripts.names() == ["game-10.txt", "game-11.txt"]
    assert (folder / "notes.txt").exists()


def test_a_cut_transcript_write_leaves_no_half_game(tmp_path):
    folder = str(tmp_path / "t")
    Transcripts(folder).add(transcript_text(0))
    for budget in range(3):  # the temporary file's open, its write, the rename
        flash = power_cut.CuttingFlash(Flash(), budget, torn=True)
        with pytest.raises(power_cut.PowerCut):
            Transcripts(folder, fs=flash).add(transcript_text(1))
        texts = []
        for name in Transcripts(folder).names():
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                texts.append(f.read())
        assert texts == [transcript_text(0)]
    assert Transcripts(folder).add(transcript_text(1)) == "game-2.txt"


def test_a_kept_transcript_replays_the_game(tmp_path):
    seed = game_seed(1, 0)
    game = Game(seed, Options())
    race = Race(game, (SpitCpu(0, "steady", seed), SpitCpu(1, "steady", seed)))
    while race.step():
        pass
    times = [ticks_add(TICKS_PERIOD - 5_000, 977 * i) for i in range(len(game.history))]
    transcript = Transcript(seed, game.options, list(game.history), times)
    transcripts = Transcripts(str(tmp_path / "t"))
    # As the device writes it: line by line, never the whole text at once.
    lines = list(transcript.lines())
    assert len(lines) > 3 and all(line.count("\n") == 1 for line in lines)
    name = transcripts.add(lines)
    with open(os.path.join(str(tmp_path / "t"), name), encoding="utf-8") as f:
        written = f.read()
    assert written == transcript.text()
    kept = Transcript.parse(written)
    assert kept.times == times
    replayed = kept.replay()
    assert replayed.history == game.history and replayed.outcome() is not None


VM_TRANSCRIPTS = """
from drivers.transcripts import Transcripts
t = Transcripts('/transcripts', keep=2, max_bytes=300)
print([t.add('spit-transcript 1\\nseed %d\\n' % n + 'x' * 90) for n in range(4)])
print(t.names(), repr(open('/transcripts/' + t.names()[-1]).read()[:25]))
"""


def test_transcripts_on_the_micropython_vm_filesystem(mpvm):
    lines = mpvm(VM_TRANSCRIPTS).splitlines()
    assert lines[0] == "['game-1.txt', 'game-2.txt', 'game-3.txt', 'game-4.txt']"
    assert lines[1] == "['game-3.txt', 'game-4.txt'] 'spit-transcript 1\\nseed 3\\n'"


def usb_boards():
    """Serial ports with a USB vendor id, the ones ``mpremote connect auto`` tries."""
    listing = subprocess.run([MPREMOTE, "devs"], capture_output=True, text=True, timeout=60)
    return [line for line in listing.stdout.splitlines() if " 0000:0000 " not in line]


@pytest.mark.skipif(not os.path.exists(MPREMOTE), reason="no .venv (make test builds it)")
def test_make_pull_without_a_board_says_so_and_fails():
    if usb_boards():
        pytest.skip("a board is connected")
    proc = subprocess.run(
        # -o: never reinstall .venv from here, whatever its stamp says.
        ["make", "--no-print-directory", "-o", ".venv/.installed", "pull"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "No board found" in proc.stdout + proc.stderr


# -- a saved tally that already decides the match -----------------------------------


# (the game, the match option, a saved tally that already decides that match)
DECIDED = [
    (game, match, games)
    for game in GAMES
    for match, games in (("bo3", [2, 0]), ("single", [1, 0]), ("bo3", [5, 7]))
]
DECIDED_IDS = ["%s-%s-%d-%d" % (game, match, *games) for game, match, games in DECIDED]


def decided_save(game, match, games):
    settings = {"game": game, "match": match, "seats": ["person", "person"]}
    return json.dumps({"format": FORMAT, "settings": settings, "games": games})


VM_DECIDED = """
run(2)
tap(7)  # P1 SPIT on the title: a match
run(300)
session = controller.session
wins = session.match.wins if session else None
print(controller.mode, handheld.errors, wins, session.table.game.NAME if session else None)
"""


@pytest.mark.parametrize(("game", "match", "games"), DECIDED, ids=DECIDED_IDS)
def test_a_decided_tally_starts_a_new_match_on_the_micropython_vm(mpvm, game, match, games):
    code = DEVICE.replace("SEATS", '["person", "person"]')
    code = code.replace(
        "saved = SaveData()", "saved = SaveData.parse(%r)" % decided_save(game, match, games)
    )
    out = mpvm(code + VM_DECIDED, files=VM_MACHINE).split(" ", 2)
    assert out == [str(MATCH), "0", "[0, 0] " + game + "\n"]


@pytest.mark.parametrize(("game", "match", "games"), DECIDED, ids=DECIDED_IDS)
def test_a_decided_tally_starts_a_new_match_on_the_device(game, match, games):
    clock = SimulatedClock()
    device = Device(clock, Options(), 7, title=True)
    loaded = SaveData.parse(decided_save(game, match, games))
    saved = device.controller.saved
    saved.game, saved.options, saved.games = loaded.game, loaded.options, loaded.games
    device.tap(keys.button_id(0, keys.SPIT))  # a person starts a match from the title
    for _ in range(300):
        device.step()
        clock.advance(1000)
    assert device.controller.mode == MATCH and device.handheld.errors == 0
    match_now = device.session.match
    assert match_now.wins == [0, 0] and match_now.name == game


@pytest.mark.parametrize("game", GAMES)
def test_a_transcript_noting_a_decided_tally_replays_as_a_new_match(game, tmp_path):
    if game == "spit":
        header = "spit-transcript 1\nseed 11\noptions layout=1-5\n"
    else:
        header = "speed-transcript 1\nseed 11\n"
    path = tmp_path / "decided.txt"
    path.write_text(header + "# simulator seats human human games 2-0 match 3\n")
    device, replay = replay_to_the_end(load_transcript(str(path)))
    assert device.handheld.errors == 0 and device.session.match.wins == [0, 0]
    assert replay.error == ENDS_EARLY, "the header alone: the words run out at once"
