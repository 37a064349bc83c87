"""``make emu`` with bad inputs: each answered in one line, and nothing run for nothing.

The checks on the files and flags need no emulator, so they run everywhere, with a UF2 and
a boot ROM made here. A board that does not boot needs Node and rp2040js; it boots a
few words of Thumb code that never start MicroPython.
"""

import hashlib
import json
import os
import shutil
import struct

import pytest

from host_sim.display.png import decode
from host_sim.emu import __main__ as emu
from host_sim.emu import emulated_pico as board
from host_sim.judging.reading import read_seed
from host_sim.vm.micropython_vm import REPO

FLASH = board.FLASH_BASE
WFI, BRANCH_TO_WFI, BRANCH_TO_SELF = 0xBF30, 0xE7FD, 0xE7FE
MOVS_R0_1, LDR_R1_FROM_R0 = 0x2001, 0x6801


def uf2_block(address=FLASH, code=b"", family=board.RP2040_FAMILY, size=256, end=0x0AB16F30):
    head = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, address, size, 0, 1, family)
    return head + code.ljust(476, b"\0") + struct.pack("<I", end)


def thumb(*halfwords):
    return struct.pack("<%dH" % len(halfwords), *halfwords)


def boot_rom():
    """16 KiB with the RP2040 boot ROM's magic and nothing else: the code under test
    starts in flash and never calls the ROM."""
    rom = bytearray(board.BOOTROM_BYTES)
    rom[0x10:0x14] = b"Mu\x01\x02"
    return bytes(rom)


SLEEPER = uf2_block(code=thumb(WFI, BRANCH_TO_WFI))  # a Pico program that only sleeps
ROM = boot_rom()


@pytest.fixture(name="given")
def given_fixture(tmp_path, monkeypatch):
    """Write the UF2 and boot ROM ``make emu`` is given (bytes, or None for no file);
    returns their paths."""

    def give(uf2=SLEEPER, rom=ROM):
        paths = tmp_path / "given.uf2", tmp_path / "given-rom.bin"
        for path, data, variable in zip(
            paths, (uf2, rom), ("PICO_UF2", "PICO_BOOTROM"), strict=True
        ):
            if data is not None:
                path.write_bytes(data)
            monkeypatch.setenv(variable, str(path))
        return tuple(str(path) for path in paths)

    return give


@pytest.fixture(name="no_emulator")
def no_emulator_fixture(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the emulator ran")

    monkeypatch.setattr(emu, "EmulatedPico", refuse)


def errors(capsys):
    return capsys.readouterr().err.splitlines()


# -- the UF2 and the boot ROM ------------------------------------------------------------


def test_a_file_that_is_no_uf2_is_named_in_one_line_and_nothing_runs(given, no_emulator, capsys):
    uf2, _ = given(uf2=b"hello, not a UF2\n")
    assert emu.main([]) == 2
    assert errors(capsys) == [
        "make emu: PICO_UF2=%s is not MicroPython's RPI_PICO UF2: it does not start with the"
        " UF2 magic numbers 0x0A324655 0x9E5D5157" % uf2
    ]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"", "it does not start with the UF2 magic numbers"),
        (uf2_block() + uf2_block()[:100], "612 bytes, not whole 512-byte UF2 blocks (cut short?)"),
        (uf2_block() + uf2_block(end=0), "block 1 (byte 512) lacks the UF2 magic numbers"),
        (uf2_block(family=0xE48BFF59), "block 0 (byte 0) is for UF2 family 0xE48BFF59, not"),
        (
            uf2_block() + uf2_block(address=FLASH + (2 << 20) - 128),
            "block 1 (byte 512) writes 256 bytes at 0x101FFF80, outside the Pico's 2 MiB flash",
        ),
        (uf2_block(size=1000), "block 0 (byte 0) claims 1000 bytes, more than a UF2 block holds"),
        (uf2_block(address=FLASH + 256), "no block at 0x10000000, where the RP2040 starts"),
    ],
    ids=[
        "empty",
        "cut short",
        "no end magic",
        "RP2350",
        "past the flash",
        "oversized",
        "no start",
    ],
)
def test_what_makes_a_file_no_pico_uf2(data, problem):
    assert board.uf2_problem(data).startswith(problem)


def test_a_pico_uf2_passes():
    assert board.uf2_problem(uf2_block() + uf2_block(address=FLASH + 256)) is None
    if board.firmware_paths() is not None:
        with open(board.firmware_paths()[0], "rb") as f:
            assert board.uf2_problem(f.read()) is None


def test_what_makes_a_file_no_rp2040_boot_rom(given, no_emulator, capsys):
    assert board.bootrom_problem(boot_rom()) is None
    assert board.bootrom_problem(boot_rom()[:4096]) == (
        "4096 bytes, where the RP2040's boot ROM is 16384"
    )
    _, rom = given(rom=bytes(board.BOOTROM_BYTES))
    assert emu.main([]) == 2
    assert errors(capsys) == [
        "make emu: PICO_BOOTROM=%s is not the RP2040's B1 boot ROM: no RP2040 boot ROM magic"
        " (b'Mu\\x01') at byte 0x10" % rom
    ]


def test_a_missing_file_is_named_with_the_variable_that_named_it(given, no_emulator, capsys):
    uf2, rom = given(uf2=None, rom=None)
    assert emu.main([]) == 2
    assert errors(capsys) == [
        "make emu: PICO_UF2=%s: no such file (PICO_UF2 names MicroPython's RPI_PICO UF2);"
        " PICO_BOOTROM=%s: no such file (PICO_BOOTROM names the RP2040's B1 boot ROM);"
        " see the README" % (uf2, rom)
    ]
    given(rom=None)
    assert emu.main([]) == 2
    assert errors(capsys) == [
        "make emu: PICO_BOOTROM=%s: no such file (PICO_BOOTROM names the RP2040's B1 boot"
        " ROM); see the README" % rom
    ]


def test_a_missing_default_is_named_as_the_default(given, no_emulator, monkeypatch, capsys):
    given()
    missing = os.path.join(REPO, "no-such-dir", "RPI_PICO-v1.28.0.uf2")
    monkeypatch.delenv("PICO_UF2")
    monkeypatch.setattr(board.UF2_FILE, "default", missing)
    assert emu.main([]) == 2
    assert errors(capsys) == [
        "make emu: the default UF2 %s: no such file (PICO_UF2 names MicroPython's RPI_PICO"
        " UF2); see the README" % missing
    ]


def test_a_file_other_than_the_tested_one_is_a_one_line_warning(given):
    uf2, rom = given()
    warnings = board.untested_firmware()
    assert len(warnings) == 2
    assert warnings[0].startswith(
        "PICO_UF2=%s is not the tested UF2, MicroPython v1.28.0 RPI_PICO (sha256 " % uf2
    )
    assert warnings[0].endswith("..., not 5daa8e5fcdb3...); another build may behave differently")
    assert warnings[1].startswith("PICO_BOOTROM=%s is not the tested boot ROM, RP2040 B1" % rom)


def the_tested_files_found():
    """The UF2 and boot ROM found here (``PICO_UF2``, ``PICO_BOOTROM`` or ``../shared/pico/``)
    when their SHA-256 sums are the tested files' sums; else None."""
    paths = board.firmware_paths()
    if paths is None:
        return None
    for path, file in zip(paths, (board.UF2_FILE, board.BOOTROM_FILE), strict=True):
        with open(path, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != file.sha256:
                return None
    return paths


@pytest.mark.skipif(
    the_tested_files_found() is None, reason="the tested UF2 and boot ROM are not here"
)
def test_the_tested_files_raise_no_warning_wherever_they_are(tmp_path, monkeypatch):
    # Named as a download names them, in a folder of the builder's own.
    copies = (str(tmp_path / "RPI_PICO-20260101-v1.28.0.uf2"), str(tmp_path / "bootrom.bin"))
    for found, copy, file in zip(
        the_tested_files_found(), copies, (board.UF2_FILE, board.BOOTROM_FILE), strict=True
    ):
        shutil.copyfile(found, copy)
        monkeypatch.setenv(file.variable, copy)
    assert board.firmware_paths() == copies
    assert board.firmware_problem() is None
    assert board.untested_firmware() == []


# -- flags and --script ------------------------------------------------------------------


def test_a_bad_flag_is_one_line(capsys):
    with pytest.raises(SystemExit) as exited:
        emu.main(["--ms", "soon"])
    assert exited.value.code == 2
    assert errors(capsys) == ["make emu: error: --ms: invalid float value: 'soon'"]


@pytest.mark.parametrize("ms", ["-5", "0", "0.5", "nan", "inf"])
def test_a_run_shorter_than_a_millisecond_is_one_line(ms, no_emulator, capsys):
    with pytest.raises(SystemExit) as exited:
        emu.main(["--ms", ms])
    assert exited.value.code == 2
    assert errors(capsys) == [
        "make emu: error: --ms: %s is no length of run: a number of emulated ms, 1 or more" % ms
    ]


STEP = {"t_us": 700000, "button": 7, "down": True}
EXPECTED_STEP = (
    'expected {"t_us": microseconds from power-on, "button": 0-15, "down": true or false}'
)


@pytest.mark.parametrize(
    ("contents", "problem"),
    [
        (None, "No such file or directory"),
        ("[1,\n", "not JSON: Expecting value: line 2 column 1 (char 4)"),
        (b"\x89PNG\r\n\x1a\n\xff", "not JSON: not UTF-8 text (a binary file?)"),
        (json.dumps(STEP), "expected a JSON list of presses, found an object"),
        (
            json.dumps([STEP, {"t_us": 9, "button": 16, "down": True}]),
            'step 2 is {"t_us": 9, "button": 16, "down": true}; ' + EXPECTED_STEP,
        ),
        (json.dumps([{"t_us": -1, "button": 3, "down": False}]), "step 1 is {"),
        (json.dumps([{"t_us": 1, "button": 3}]), "step 1 is {"),
        (json.dumps([{"t_us": 1, "button": True, "down": True}]), "step 1 is {"),
        (json.dumps(["press"]), 'step 1 is "press"; ' + EXPECTED_STEP),
    ],
    ids=[
        "missing",
        "broken JSON",
        "binary",
        "not a list",
        "no such button",
        "negative time",
        "no down",
        "true as a button",
        "a string",
    ],
)
def test_a_bad_script_is_one_line_and_nothing_runs(contents, problem, tmp_path, capsys):
    path = tmp_path / "presses.json"
    if isinstance(contents, str):
        path.write_text(contents)
    elif contents is not None:
        path.write_bytes(contents)
    # No emulator stub: the script is checked before the firmware files are even looked at.
    assert emu.main(["--script", str(path)]) == 2
    [line] = errors(capsys)
    assert line.startswith("make emu: --script %s: %s" % (path, problem))


def test_a_good_script_reads_as_presses(tmp_path):
    path = tmp_path / "presses.json"
    path.write_text(json.dumps([STEP, {"t_us": 2.5, "button": 0, "down": False, "note": "x"}]))
    assert emu.parse_script(str(path)) == [(700000.0, 7, True), (2.5, 0, False)]


# -- a board that does not boot ----------------------------------------------------------

needs_node = pytest.mark.skipif(
    shutil.which("node") is None
    or not os.path.isdir(os.path.join(REPO, "node_modules", "rp2040js")),
    reason="no Node or no rp2040js (npm ci)",
)


@pytest.mark.emulated_pico
@needs_node
def test_a_board_that_sleeps_for_ever_did_not_boot(given, capsys):
    given(uf2=SLEEPER)
    assert emu.main(["--ms", "10000"]) == 1
    last = errors(capsys)[-1]
    assert last.startswith(
        "make emu: the board did not boot: nothing on its console or display after 3.00"
        " emulated s ("
    )
    assert last.endswith(
        "s here); is the UF2 MicroPython's RPI_PICO build and the boot ROM the RP2040's B1?"
    )


@pytest.mark.emulated_pico
@needs_node
def test_a_board_that_never_sleeps_is_given_up_on_by_the_wall_clock(given, monkeypatch, capsys):
    given(uf2=uf2_block(code=thumb(BRANCH_TO_SELF)))
    monkeypatch.setattr(emu, "BOOT_WALL_S", 0.5)
    assert emu.main(["--ms", "10000"]) == 1
    last = errors(capsys)[-1]
    assert last.startswith("make emu: the board did not boot: nothing on its console or display")
    emulated_s = float(last.split(" after ")[1].split()[0])
    assert emulated_s < emu.BOOT_LIMIT_US / 1e6


@pytest.mark.emulated_pico
@needs_node
def test_an_emulator_stopped_by_the_code_says_so_in_one_line(given, capsys):
    given(uf2=uf2_block(code=thumb(MOVS_R0_1, LDR_R1_FROM_R0, BRANCH_TO_SELF)))
    assert emu.main([]) == 1
    assert errors(capsys)[-1] == (
        "make emu: Error: [RP2040] read from address 1, which is not 32 bit aligned; the board"
        " had not booted: is the UF2 MicroPython's RPI_PICO build and the boot ROM the"
        " RP2040's B1?"
    )


# -- the screen, saved ---------------------------------------------------------------------


@pytest.mark.emulated_pico
@pytest.mark.skipif(board.firmware_paths() is None, reason="no MicroPython UF2 / RP2040 boot ROM")
@needs_node
def test_make_emu_as_first_shown_saves_the_last_screen(tmp_path, monkeypatch, capsys):
    default = tmp_path / "screenshots" / "emu.png"
    monkeypatch.setattr(emu, "DEFAULT_SCREEN", str(default))
    assert emu.main([]) == 0
    assert "[emu] screen saved to %s" % default in errors(capsys)
    # After 2 emulated seconds the firmware shows its title, with the seed on it.
    assert read_seed(decode(default.read_bytes())[2]) is not None


def test_a_screen_file_that_cannot_be_written_is_one_line(tmp_path, no_emulator, capsys):
    assert emu.main(["--screen", str(tmp_path)]) == 2
    [line] = errors(capsys)[-1:]
    assert line == "make emu: --screen %s: a folder, not a file" % tmp_path
