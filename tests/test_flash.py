"""make flash / make repl and firmware/package.json (host_sim/board/).

The board is a fake whose filesystem and code run on the MicroPython VM
(tests/helpers/fake_board.py): the flash tool's board scripts, the SHA-256 checks and the import
of every staged .mpy file all happen on real MicroPython.
"""

import json
import os
import pty
import select
import subprocess
import sys
import time

import pytest
from helpers.fake_board import PICO_MPY, FakeBoard
from mpremote import mip
from mpremote.transport_serial import SerialTransport

from host_sim.board import (
    commands,
    compatibility,
    compiling,
    errors,
    flashing,
    package_json,
    scripts,
    serial_board,
)
from host_sim.emu.emulated_pico import EmulatedPico, firmware_paths
from host_sim.emu.fs_image import board_files
from host_sim.emu.serial_port import SerialPort

# What a board keeps that is not firmware: saved data, transcripts, the user's boot.py.
KEEP = {
    "/spit.json": b'{"format": "spit-save 1", "games": [1, 0]}',
    "/transcripts/0001.txt": b"spit-transcript 1\nseed 7\n",
    "/boot.py": b"# the owner's own boot script\n",
}


def quiet(_message):
    pass


@pytest.fixture(scope="module", name="built")
def built_fixture(tmp_path_factory):
    return compiling.build(str(tmp_path_factory.mktemp("mpy")), say=quiet)


@pytest.fixture(scope="module", name="built_py")
def built_py_fixture(tmp_path_factory):
    return compiling.build(str(tmp_path_factory.mktemp("py")), mpy=False, say=quiet)


# --- the build ----------------------------------------------------------------------------


def test_build_compiles_every_module_but_main(built):
    expected = {"/main.py"}
    for source in compiling.sources():
        if source != "main.py":
            expected.add("/" + source[:-3] + ".mpy" if source.endswith(".py") else source)
    assert set(built) == expected
    assert "/package.json" not in built
    with open(os.path.join(compiling.FIRMWARE, "main.py"), "rb") as f:
        assert built["/main.py"] == f.read()


def test_mpy_headers_name_the_format_the_board_needs(built):
    _release, version, sub = compiling.compiler_version()
    assert version == 6  # what MicroPython 1.19 and later load
    for path, data in built.items():
        if not path.endswith(".mpy"):
            continue
        # 'M', format version, sub-version and architecture (only set for native code),
        # small-int bits: bytecode-only files load on any 6.x board.
        assert data[:2] == b"M\x06", path
        assert compiling.mpy_header(data) in {(6, 0, None), (6, sub, "armv6m")}, path
        assert data[3] <= 31, path  # the RP2040's small ints are 31 bits


def test_plain_build_copies_sources(built_py):
    assert set(built_py) == {"/" + source for source in compiling.sources()}


def test_a_module_that_does_not_compile_stops_the_build(tmp_path, monkeypatch):
    firmware = tmp_path / "firmware"
    firmware.mkdir()
    (firmware / "main.py").write_text("import game\n")
    (firmware / "game.py").write_text("def broken(:\n")
    monkeypatch.setattr(compiling, "FIRMWARE", str(firmware))
    with pytest.raises(errors.FlashError, match="mpy-cross rejected game.py"):
        compiling.build(str(tmp_path / "out"), say=quiet)


# --- which board can take it --------------------------------------------------------------


def pico(version=(1, 28, 0), mpy=PICO_MPY, platform="rp2"):
    return {
        "version": version,
        "mpy": mpy,
        "platform": platform,
        "machine": "Raspberry Pi Pico with RP2040",
        "free": 1 << 20,
    }


def test_micropython_1_28_on_a_pico_takes_the_build(built):
    assert compatibility.board_format(pico()) == (6, 3, "armv6m")
    assert compatibility.incompatibility(pico(), built) is None
    # The Pico 2 (RP2350, armv7emsp) runs armv6m code too.
    assert compatibility.incompatibility(pico(mpy=6 | 3 << 8 | 7 << 10), built) is None


def test_an_old_micropython_is_told_which_firmware_to_install(built):
    message = compatibility.incompatibility(pico(version=(1, 18, 0), mpy=5 | 4 << 10), built)
    assert "MicroPython 1.18.0, which reads .mpy format 5.0" in message
    assert "install MicroPython 1.28" in message
    assert "any release from 1.23 on reads format 6.3" in message  # native code: 6.3
    assert "RPI_PICO" in message
    assert "make flash MPY=0" in message


def test_native_code_needs_the_same_sub_version():
    native = {"/fast.mpy": b"M\x06\x13\x1f"}  # 6.3, armv6m
    assert compatibility.incompatibility(pico(), native) is None
    message = compatibility.incompatibility(
        pico(version=(1, 22, 2), mpy=6 | 2 << 8 | 4 << 10), native
    )
    assert "format 6.3 with armv6m code" in message
    assert "from 1.23 on" in message


def test_a_board_that_is_not_a_pico_is_refused(built_py):
    message = compatibility.incompatibility(pico(platform="esp32"), built_py)
    assert "not a Raspberry Pi Pico" in message


def test_the_probe_runs_on_micropython(mpvm):
    info = scripts.parse_probe(mpvm(scripts.PROBE))
    assert info["version"] == (1, 27, 0)  # the VM's own release
    assert compatibility.board_format(info) == (6, 3, None)


# --- what changes on the board ------------------------------------------------------------


def test_plan_copies_changed_files_and_removes_only_stale_firmware():
    files = {
        "/main.py": b"main",
        "/spit/spit.mpy": b"rules",
        "/spit/cards.mpy": b"cards",
        "/hardware_setup.mpy": b"pins",
    }
    on_board = {
        "/main.py": flashing.sha256(b"old main"),
        "/spit/spit.mpy": flashing.sha256(b"rules"),
        "/spit/gone.mpy": "aa",  # a module the firmware no longer has
        "/spit/cards.py": "bb",  # would shadow the new cards.mpy
        "/hardware_setup.py": "cc",  # likewise, at the top level
        "/handheld.mpy": "dd",  # installed by the last flash (manifest), gone now
        "/boot.py": "ee",  # the owner's
        "/notes.py": "ff",  # not ours either
    }
    upload, unchanged, remove = flashing.plan(files, on_board, ["/handheld.mpy", "/main.py"])
    assert upload == ["/hardware_setup.mpy", "/main.py", "/spit/cards.mpy"]
    assert unchanged == ["/spit/spit.mpy"]
    assert remove == ["/handheld.mpy", "/hardware_setup.py", "/spit/cards.py", "/spit/gone.mpy"]


def test_module_names_leave_out_main_and_the_fast_twins():
    files = ["/main.py", "/spit/__init__.mpy", "/spit/spit.mpy", "/hardware_setup.py"]
    files += ["/spit/fits.mpy", "/spit/fits_native.mpy", "/drivers/window_viper.mpy"]
    assert flashing.module_names(files) == ["hardware_setup", "spit", "spit.fits", "spit.spit"]


# --- flashing a board ---------------------------------------------------------------------


@pytest.mark.micropython_vm
def test_flash_installs_verifies_and_keeps_saved_data(built):
    stale = {
        "/main.py": b"print('old game')\n",
        "/hardware_setup.py": b"BUZZER_PIN = 16\n",  # copied by hand once; shadows .mpy
        "/spit/old_module.mpy": b"M\x06\x00\x1f",
    }
    board = FakeBoard({**KEEP, **stale})
    lines = []
    upload, remove = flashing.flash(board, built, say=lines.append)

    assert upload == sorted(built)
    assert sorted(remove) == ["/hardware_setup.py", "/spit/old_module.mpy"]
    for path, data in built.items():
        assert board.files[path] == data, path
    for path, data in KEEP.items():
        assert board.files[path] == data, path
    assert not any(p.startswith(scripts.STAGING) for p in board.files)
    assert board.files[scripts.MANIFEST].decode().split() == sorted(built)
    assert set(board.files) == set(built) | set(KEEP) | {scripts.MANIFEST}
    assert board.resets == 1
    assert "Copying %d changed files (0 unchanged):" % len(built) in lines
    assert any(line.startswith("  [1/%d] " % len(built)) for line in lines)

    # Flashing the same build again copies nothing and changes nothing.
    before = dict(board.files)
    board.writes.clear()
    upload, remove = flashing.flash(board, built, say=quiet)
    assert (upload, remove, board.writes) == ([], [], [])
    assert board.files == before


@pytest.mark.micropython_vm
def test_a_module_that_fails_to_import_leaves_the_old_firmware(built_py):
    old = {"/main.py": b"print('old game')\n", "/spit/__init__.py": b""}
    board = FakeBoard({**KEEP, **old})
    broken = dict(built_py)
    broken["/spit/spit.py"] = b"raise ImportError('rules are missing')\n"
    with pytest.raises(errors.FlashError, match="spit.spit: ImportError: rules are missing"):
        flashing.flash(board, broken, say=quiet)
    live = {p: d for p, d in board.files.items() if not p.startswith(scripts.STAGING)}
    assert live == {**KEEP, **old}
    assert board.resets == 0


@pytest.mark.micropython_vm
def test_a_swap_cut_short_leaves_no_main_py_to_fail():
    # The staged rules module is missing, so moving it into place raises half-way: by then
    # main.py is gone and the board boots to the REPL instead of into a mixed firmware.
    staged = {scripts.STAGING + "/main.py": b"new", scripts.STAGING + "/spit/cards.mpy": b"new"}
    board = FakeBoard({**KEEP, "/main.py": b"old", "/spit/cards.mpy": b"old", **staged})
    paths = ["/main.py", "/spit/cards.mpy", "/spit/spit.mpy"]
    with pytest.raises(errors.BoardError, match="OSError"):
        board.run(scripts.swap_script(paths, []))
    assert "/main.py" not in board.files
    assert board.files["/spit/cards.mpy"] == b"new"
    assert all(board.files[path] == data for path, data in KEEP.items())


class DamagingBoard(FakeBoard):
    """Loses a byte of one file on the way, as a flaky cable might."""

    def write(self, path, data):
        super().write(path, data[:-1] if path.endswith("/spit/spit.mpy") else data)


@pytest.mark.micropython_vm
def test_a_file_damaged_on_the_wire_is_caught_before_install(built):
    board = DamagingBoard(dict(KEEP), version=(1, 26, 0))
    lines = []
    with pytest.raises(errors.FlashError, match="arrived damaged: spit/spit.mpy"):
        flashing.flash(board, built, say=lines.append)
    assert "/main.py" not in board.files and board.resets == 0
    # 1.26 reads the same format; the tool only notes the release the firmware is made for.
    assert "Note: the firmware is made for MicroPython 1.28; this board runs 1.26.0." in lines


def test_a_version_mismatch_changes_nothing(built):
    board = FakeBoard(dict(KEEP), version=(1, 18, 0), mpy=5 | 4 << 10)
    with pytest.raises(errors.FlashError) as caught:
        flashing.flash(board, built, say=quiet)
    assert caught.value.code == errors.EXIT_INCOMPATIBLE
    assert "make flash MPY=0" in str(caught.value)
    assert board.files == KEEP and board.writes == [] and board.resets == 0


# --- make pull ----------------------------------------------------------------------------

NO_GAMES_YET = "No finished games on the board yet; restarting the board.\n"
NOT_GAMES = {path: data for path, data in KEEP.items() if not path.startswith("/transcripts/")}
GAMES = {
    "/transcripts/game-2.txt": b"spit-transcript 1\nseed 7\n1c3a@100\n",
    "/transcripts/game-10.txt": b"spit-transcript 1\nseed 8\n",
    "/transcripts/next.tmp": b"spit-transcript 1\nseed",  # a game cut short by a power-off
}


@pytest.fixture(name="plugged_in")
def plugged_in_fixture(tmp_path, monkeypatch):
    """``make pull`` run in ``tmp_path`` with ``board`` on its USB port."""

    def plug(board):
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("PORT", "/dev/ttyACM0")
        monkeypatch.setattr(commands, "SerialBoard", lambda port: board)
        return tmp_path / "transcripts"

    return plug


@pytest.mark.micropython_vm
def test_make_pull_copies_the_finished_games_and_says_where(plugged_in, capsys):
    board = FakeBoard({**NOT_GAMES, **GAMES})
    folder = plugged_in(board)
    assert commands.main(["pull"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines() == [
        "Copied 2 finished games' transcripts from the board into transcripts/: game-2.txt,"
        " game-10.txt",
        'Replay one: make sim ARGS="--replay transcripts/game-10.txt"',
        "Restarting the board.",
    ]
    assert sorted(os.listdir(folder)) == ["game-10.txt", "game-2.txt"]
    for name in ("game-2.txt", "game-10.txt"):
        assert (folder / name).read_bytes() == GAMES["/transcripts/" + name]
    assert board.resets == 1  # the game starts again

    # Pulled again: nothing new, and nothing already pulled is written over.
    (folder / "game-2.txt").write_bytes(b"a game of another board\n")
    assert commands.main(["pull"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "Copied 1 finished game's transcript from the board into transcripts/: game-2-2.txt"
        " (1 was there already)"
    )
    assert (folder / "game-2.txt").read_bytes() == b"a game of another board\n"
    assert (folder / "game-2-2.txt").read_bytes() == GAMES["/transcripts/game-2.txt"]
    assert commands.main(["pull"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Nothing new: the board's 2 finished games are in transcripts/ already.",
        "Restarting the board.",
    ]


@pytest.mark.micropython_vm
@pytest.mark.parametrize(
    "files",
    [NOT_GAMES, {**NOT_GAMES, "/transcripts/next.tmp": b"spit"}, {}],
    ids=["no folder", "only a game cut short", "an empty board"],
)
def test_make_pull_with_no_finished_game_says_so_in_one_line(files, plugged_in, capsys):
    board = FakeBoard(files)
    folder = plugged_in(board)
    assert commands.main(["pull"]) == 0
    assert capsys.readouterr() == (NO_GAMES_YET, "")
    assert not folder.exists()
    assert board.resets == 1


@pytest.mark.micropython_vm
def test_make_pull_into_a_folder_that_cannot_be_one_is_one_line(plugged_in, capsys):
    folder = plugged_in(FakeBoard(GAMES))
    folder.write_text("a file where the folder goes")
    assert commands.main(["pull"]) == errors.EXIT_FAILED
    out, err = capsys.readouterr()
    assert out == ""
    [line] = err.splitlines()
    assert line.startswith("cannot copy the transcripts into transcripts/: ")


# --- make repl ----------------------------------------------------------------------------


def test_make_repl_says_how_the_game_comes_back(monkeypatch, capsys):
    calls = []
    monkeypatch.setenv("PORT", "/dev/ttyACM0")
    monkeypatch.setattr(commands.subprocess, "call", lambda command: calls.append(command) or 0)
    assert commands.main(["repl"]) == 0
    [command] = calls
    assert command[-1] == "repl"
    assert capsys.readouterr().out == commands.REPL_NOTE + "\n"
    # Before the REPL, and in the words a person types.
    assert "stopped while the REPL is open" in commands.REPL_NOTE
    for way in ("Ctrl-D", "machine.reset()", "unplug"):
        assert way in commands.REPL_NOTE


# --- no board -----------------------------------------------------------------------------


def _no_board_here():
    if serial_board.find_port() is not None:
        pytest.skip("a serial device is connected to this machine")


class Port:
    def __init__(self, device, vid, pid):
        self.device, self.vid, self.pid = device, vid, pid


def test_find_port_prefers_a_raspberry_pi_device():
    ports = [
        Port("/dev/ttyS0", None, None),
        Port("/dev/ttyACM0", 0x2341, 0x43),
        Port("/dev/ttyACM1", 0x2E8A, 0x0005),
    ]
    assert serial_board.find_port(ports) == "/dev/ttyACM1"
    assert serial_board.find_port(ports[:2]) == "/dev/ttyACM0"
    assert serial_board.find_port(ports[:1]) is None


@pytest.mark.parametrize("target", ["flash", "repl", "pull"])
def test_make_target_without_a_board_says_so(target):
    _no_board_here()
    env = {k: v for k, v in os.environ.items() if k not in ("PORT", "MAKEFLAGS")}
    proc = subprocess.run(
        ["make", "-s", target],
        cwd=compiling.REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "No board found: no MicroPython board is connected by USB." in proc.stderr
    assert "make %s PORT=/dev/ttyACM0" % target in proc.stderr


def test_no_board_exit_status():
    _no_board_here()
    env = {k: v for k, v in os.environ.items() if k != "PORT"}
    proc = subprocess.run(
        [sys.executable, "-m", "host_sim.board"],
        cwd=compiling.REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == errors.EXIT_NO_BOARD
    assert proc.stdout == ""


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("ttyACM0", "nothing is connected there: plug the Pico in, or leave PORT out"),
        ("not-a-port", "failed to access"),
    ],
    ids=["nothing there", "not a serial port"],
)
def test_a_port_that_does_not_answer_is_one_line_and_nothing_else(
    name, reason, tmp_path, monkeypatch, capsys
):
    port = tmp_path / name
    if name == "not-a-port":
        port.write_text("")
    monkeypatch.setenv("PORT", str(port))
    assert commands.main(["flash"]) == errors.EXIT_NO_BOARD
    out, err = capsys.readouterr()
    assert out == ""  # neither "Board on ..." nor the build's lines
    [line] = err.splitlines()
    assert line.startswith("cannot talk to the board on %s: %s" % (port, reason))


# --- firmware/package.json ----------------------------------------------------------------


def test_package_json_lists_every_firmware_file():
    with open(os.path.join(compiling.FIRMWARE, "package.json"), encoding="utf-8") as f:
        text = f.read()
    assert text == package_json.mip_manifest(), (
        "run .venv/bin/python -m host_sim.board package-json"
    )
    manifest = json.loads(text)
    assert sorted(target for target, _ in manifest["urls"]) == sorted(compiling.sources())
    assert manifest["version"]


class MipTransport:
    """The three calls mpremote's mip makes of a board's filesystem."""

    def __init__(self):
        self.files, self.dirs = {}, set()

    def fs_exists(self, path):
        return path in self.dirs or path in self.files

    def fs_mkdir(self, path):
        self.dirs.add(path)

    def fs_writefile(self, path, data, progress_callback=None):
        assert path.rsplit("/", 1)[0] in self.dirs | {""}, path
        self.files[path] = data


def test_mpremote_mip_installs_the_firmware_at_the_board_root():
    board = MipTransport()
    manifest = os.path.join(compiling.FIRMWARE, "package.json")
    # What `mpremote mip install --target= firmware/package.json` does.
    mip._install_json(board, manifest, "unused-index", "", None, False)
    assert set(board.files) == {"/" + source for source in compiling.sources()}
    with open(os.path.join(compiling.FIRMWARE, "spit", "spit.py"), "rb") as f:
        assert board.files["/spit/spit.py"] == f.read()


# --- MicroPython 1.28 itself, on the emulated Pico, through mpremote ----------------------

needs_emulator = pytest.mark.skipif(
    firmware_paths() is None, reason="no MicroPython UF2 and RP2040 boot ROM"
)
_WATCHDOG_ENABLED = "import machine\nprint(machine.mem32[0x40058000] >> 30 & 1)"


@pytest.mark.emulated_pico
@needs_emulator
def test_micropython_1_28_reads_what_mpy_cross_writes_and_the_probe_stops_the_watchdog(built):
    with EmulatedPico() as pico:
        pico.run_us(200_000)
        pico.exec("import machine\nwdt = machine.WDT(timeout=8000)")  # as the game does
        with SerialPort(pico) as port:
            board = serial_board.SerialBoard(port)
            # Connecting interrupted the game and soft-reset the board, but the hardware
            # watchdog still runs: it would reset the board in the middle of a flash.
            still_running = board.run(_WATCHDOG_ENABLED).strip()
            info = board.info()
            stopped = board.run(_WATCHDOG_ENABLED).strip()
    assert (still_running, stopped) == ("1", "0")
    assert info["version"] == (1, 28, 0)
    assert info["machine"] == "Raspberry Pi Pico with RP2040"
    assert compatibility.board_format(info) == (6, 3, "armv6m")
    assert info["free"] > 1_000_000
    assert compatibility.incompatibility(info, built) is None


@pytest.mark.emulated_pico
@needs_emulator
def test_make_pull_from_micropython_1_28_over_a_serial_port(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with EmulatedPico(files={**NOT_GAMES, **GAMES}) as pico:
        pico.run_us(200_000)
        with SerialPort(pico) as port:
            monkeypatch.setenv("PORT", port)
            assert commands.main(["pull"]) == 0
    assert capsys.readouterr().out.startswith(
        "Copied 2 finished games' transcripts from the board into transcripts/: game-2.txt,"
        " game-10.txt\n"
    )
    for name in ("game-2.txt", "game-10.txt"):
        assert (tmp_path / "transcripts" / name).read_bytes() == GAMES["/transcripts/" + name]


@pytest.mark.emulated_pico
@needs_emulator
def test_make_pull_from_a_board_with_no_finished_game(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with EmulatedPico(files=NOT_GAMES) as pico:
        pico.run_us(200_000)
        with SerialPort(pico) as port:
            monkeypatch.setenv("PORT", port)
            assert commands.main(["pull"]) == 0
    assert capsys.readouterr() == (NO_GAMES_YET, "")
    assert not (tmp_path / "transcripts").exists()


class DisplayBytes:
    """Counts the bytes the board sends its display, on the emulator's own thread."""

    def __init__(self, pico):
        self.pico = pico
        self.count = 0

    def __call__(self):
        self.count += len(self.pico.spi_log())


def _read_until(fd, text, within_s):
    seen = b""
    deadline = time.monotonic() + within_s
    while text not in seen:
        assert time.monotonic() < deadline, "no %r within %d s: %r" % (text, within_s, seen)
        if select.select([fd], [], [], 0.2)[0]:
            seen += os.read(fd, 4096)
    return seen


@pytest.mark.emulated_pico
@needs_emulator
def test_ctrl_d_in_make_repl_starts_the_game_again():
    with EmulatedPico(files=board_files()) as pico:
        pico.run_us(1_500_000)  # the game is up and drawing
        pico.spi_log()
        display = DisplayBytes(pico)
        port = SerialPort(pico, after_step=display)
        with port as path:
            terminal, side = pty.openpty()
            env = {k: v for k, v in os.environ.items() if k != "MAKEFLAGS"}
            env["PORT"] = path
            repl = subprocess.Popen(
                [sys.executable, "-m", "host_sim.board", "repl"],
                cwd=compiling.REPO,
                env=env,
                stdin=side,
                stdout=side,
                stderr=side,
            )
            os.close(side)
            try:
                said = _read_until(terminal, b">>> ", 120)
                drawn_while_stopped = display.count
                time.sleep(1)
                assert display.count == drawn_while_stopped  # the game is stopped
                os.write(terminal, b"\x04")  # Ctrl-D
                _read_until(terminal, b"soft reboot", 60)
                deadline = time.monotonic() + 120
                while display.count == drawn_while_stopped and time.monotonic() < deadline:
                    time.sleep(0.2)
                os.write(terminal, b"\x18")  # Ctrl-X
                assert repl.wait(timeout=60) == 0
            finally:
                if repl.poll() is None:
                    repl.kill()
                os.close(terminal)
    assert commands.REPL_NOTE.encode() in said
    assert display.count > drawn_while_stopped  # main.py ran again: the game draws


@pytest.mark.emulated_pico
@pytest.mark.soak
@needs_emulator
def test_make_flash_onto_micropython_1_28_over_a_serial_port(monkeypatch, capsys):
    with EmulatedPico(files={"/spit.json": b"{}"}) as pico:
        pico.run_us(200_000)
        with SerialPort(pico) as port:
            monkeypatch.setenv("PORT", port)
            assert commands.main(["flash"]) == 0
            # machine.reset() restarts the chip from its flash: main.py imports the new
            # firmware and starts the game.
            deadline = time.monotonic() + 120
            while pico.resets == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            reset_at = pico.now_us
            while pico.now_us < reset_at + 1_500_000 and time.monotonic() < deadline:
                time.sleep(0.05)
            transport = SerialTransport(port, baudrate=115200)
            try:
                transport.enter_raw_repl(soft_reset=False)  # interrupts the game
                transport.exec(scripts.STOP_WATCHDOG)
                listing = transport.exec("import os\nprint(sorted(os.listdir('/')))").decode()
                loaded = transport.exec(
                    "import sys\nprint(sys.modules['hardware_setup'].__file__)"
                ).decode()
            finally:
                transport.close()
    assert pico.resets == 1
    assert "Importing every module on the board ..." in capsys.readouterr().out
    assert "'spit.json'" in listing and "'.spit_flash'" not in listing
    assert "'main.py'" in listing and "'hardware_setup.mpy'" in listing
    # main.py ran after the reset and imported the firmware from the new .mpy files.
    assert loaded.strip() == "hardware_setup.mpy"
