"""The real firmware on an emulated Pico: MicroPython's RP2040 UF2 in rp2040js.

Runs when the UF2 and the boot ROM are there (``PICO_UF2``, ``PICO_BOOTROM``, or
``../shared/pico/``). Two boards at the REPL serve the input-path probes, one of them
with its timer started just before the 2**30 µs ``ticks_us`` wrap; ``make emu``'s own
entry point boots a third with ``main.py``.
"""

import importlib
import random
import sys

import pytest
from helpers import pio_emulator
from spit.modes import ATTRACT

from host_sim.bench import emulated as figures
from host_sim.bench.attract import attract_figures
from host_sim.bench.pass_profile import profile_files
from host_sim.bench.probe import TICKS_PERIOD, record, ticks_minus
from host_sim.display import VirtualDisplay
from host_sim.emu.__main__ import main as emu_main
from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico, firmware_paths
from host_sim.emu.fs_image import board_files, firmware_sources, read_image
from host_sim.emu.screen import Screen, chunks

pytestmark = pytest.mark.emulated_pico

if firmware_paths() is None:
    pytest.skip(
        "no MicroPython UF2 / RP2040 boot ROM (PICO_UF2, PICO_BOOTROM): emulated Pico skipped",
        allow_module_level=True,
    )

P1_L, P2_L, P1_SPIT = 5, 13, 7
WRAP_AHEAD_US = 400_000  # power-on this long before the wrap; the board is up in 0.15 s


@pytest.fixture(scope="module")
def board():
    with EmulatedPico(files=board_files(main=False)) as pico:
        pico.run_us(BOOT_US)
        pico.read()
        yield pico


@pytest.fixture(scope="module")
def wrap_board():
    """At the REPL, with the timer started just before the 2**30 µs ``ticks_us`` wrap."""
    with EmulatedPico(
        files=board_files(main=False), start_us=TICKS_PERIOD - WRAP_AHEAD_US
    ) as pico:
        pico.run_us(BOOT_US)
        yield pico


def test_firmware_reaches_the_board_and_imports(board):
    modules = [s[: -len(".py")].replace("/", ".") for s in firmware_sources() if s != "main.py"]
    code = (
        "import sys\n"
        "for name in %r:\n"
        "    __import__(name)\n"
        "    print(name, sys.modules[name].__file__)\n" % modules
    )
    imported = dict(line.split() for line in board.exec(code, within_us=5_000_000).splitlines())
    assert sorted(imported) == sorted(modules)
    for name, path in imported.items():
        assert path.endswith(name.replace(".", "/") + ".mpy")


def test_mpy_format_is_the_one_the_board_accepts(board):
    board_mpy = int(board.exec("import sys\nprint(sys.implementation._mpy)"))
    header = board_files(main=False)["spit/spit.mpy"][:4]
    assert header[:1] == b"M"
    assert header[1] == board_mpy & 0xFF  # the .mpy format version
    if header[2] >> 2:  # native code: the sub-version and architecture must match too
        assert header[2] & 3 == board_mpy >> 8 & 3
        assert header[2] >> 2 == board_mpy >> 10


def test_files_written_on_the_board_reach_the_flash(board):
    board.exec("f = open('note.txt', 'w')\nf.write('spit')\nf.close()")
    files = read_image(board.flash())
    assert files["note.txt"] == b"spit"
    assert "spit/arbiter.mpy" in files


def test_soft_reset_comes_back(board):
    board.raw_repl()
    board.write(b"\x04")  # Ctrl-D at the raw REPL's empty prompt: a soft reset
    board.expect(b"soft reboot", 500_000)
    board.expect(b"raw REPL; CTRL-B to exit\r\n>", 500_000)  # it comes back to the raw REPL
    assert board.exec("print('back')", enter=False) == "back\r\n"


def test_a_reset_starts_the_board_again_from_its_flash():
    with EmulatedPico(files={"main.py": b"print('main ran')\n"}) as pico:
        pico.expect(b"main ran", 3 * BOOT_US)
        pico.raw_repl()
        pico.write(b"import machine\nmachine.reset()\x04")  # what make flash ends with
        pico.expect(b"main ran", 3 * BOOT_US)
        assert pico.resets == 1
        pico.exec("import machine\nwdt = machine.WDT(timeout=500)")  # and never fed
        pico.expect(b"main ran", 500_000 + 3 * BOOT_US)
        assert pico.resets == 2
        assert pico.exec("print(1 + 1)") == "2\r\n"


def test_a_press_is_captured_with_its_button_id(board):
    t0, rec = record(board, [(0.0, 9, True), (3_000, 9, False)])
    assert rec.stamps[0][0] == 9
    assert 0 < ticks_minus(rec.stamps[0][1], t0) < 100
    assert rec.commits == [(9, rec.stamps[0][1], False)]
    assert rec.overflows == 0


@pytest.mark.parametrize("first, second", [(P1_L, P2_L), (P2_L, P1_L)])
def test_presses_150us_apart_commit_in_order_either_pin_first(board, first, second):
    events = [(0.0, first, True), (150.0, second, True)]
    events += [(3_000, first, False), (3_000, second, False)]
    t0, rec = record(board, events)
    firsts = {}
    for button, t in rec.stamps:
        firsts.setdefault(button, t)
    assert ticks_minus(firsts[second], firsts[first]) > 0
    assert [c[0] for c in rec.commits] == [first, second]
    assert not any(tie for _, _, tie in rec.commits)


def test_presses_in_the_same_cycle_share_a_stamp_and_tie_settled_by_the_rule(board):
    events, trials = figures.pair_trials([0] * 3, False, random.Random(3))
    t0, rec = record(board, events)
    for base, _, first, second in trials:
        s1 = figures.first_in(rec.stamps, first, base - 1, t0)
        s2 = figures.first_in(rec.stamps, second, base - 1, t0)
        assert s1[1] == s2[1]
    results = figures.judge_pairs(rec, t0, trials)
    assert all(tie for *_, tie in results)
    winners = []
    for (_, _, committed_right, _), (_, _, first, _) in zip(results, trials, strict=True):
        winners.append(1 if (first == P1_L) == committed_right else 2)
    # Alternating priority from player 1, whatever pin went first: the pin order of the
    # six trials is P1, P2, P1, P2, P1, P2.
    assert winners == [1, 2, 1, 2, 1, 2]


def test_the_pio_model_assembles_what_micropython_1_28_assembles(board):
    # The program as the board's own rp2.asm_pio built it, and as the cycle model
    # that tests the capture on CPython builds it: the same fields, the same words.
    out = board.exec(
        "from drivers import pio_capture as pc\n"
        "p = pc.change_capture\n"
        "print(len(p), list(p[0]), p[4], p[5], p[6], p[7], p[8])"
    )
    sys.modules.pop("drivers.pio_capture", None)
    pio_emulator.install()
    try:
        model = importlib.import_module("drivers.pio_capture").change_capture
    finally:
        sys.modules.pop("drivers.pio_capture", None)
        sys.modules.pop("rp2", None)
    assert out.strip().split(" ", 1) == [
        str(len(model)),
        "%r %d %d None None None" % (list(model[0]), model[4], model[5]),
    ]


def test_pio_backend_stamps_within_a_microsecond(board):
    found = figures.pio_figures(board, random.Random(4))
    assert found["emu_pio_stamp_error_ns"] <= 1_000


def test_spi0_bytes_arrive_with_the_dc_level_and_take_their_time(board):
    board.exec(
        "from machine import Pin, SPI\n"
        "dc = Pin(20, Pin.OUT, value=0)\n"
        "spi = SPI(0, baudrate=24_000_000, sck=Pin(18), mosi=Pin(19))\n"
        "spi.write(b'\\x2a')\n"
        "dc(1)\n"
        "spi.write(b'\\x00\\x10\\x00\\x20')\n"
        "dc(0)\n"
        "spi.write(b'\\x2c')\n"
        "dc(1)\n"
        "spi.write(bytes(range(200)))\n"
    )
    log = board.spi_log()
    assert [(dc, data) for _, dc, data in chunks(log)] == [
        (0, b"\x2a"),
        (1, b"\x00\x10\x00\x20"),
        (0, b"\x2c"),
        (1, bytes(range(200))),
    ]
    # 8 bits at 24 MHz: a byte every 333 ns at best, so 200 bytes take at least 66 µs.
    data = log[-200:]
    gaps = [b[0] - a[0] for a, b in zip(data, data[1:], strict=False)]
    assert min(gaps) >= 0.332
    assert data[-1][0] - data[0][0] >= 199 * 0.332


def test_a_virtual_display_shows_what_the_board_sent(board):
    # A module reset, then the datasheet waits (120 ms before SLPOUT, 5 ms after it):
    # the display keeps emulated time and would ignore commands sent too early.
    screen = Screen(VirtualDisplay(strict_timing=True))
    board.exec(
        "import time\n"
        "from machine import Pin, SPI\n"
        "dc = Pin(20, Pin.OUT, value=0)\n"
        "rst = Pin(21, Pin.OUT, value=1)\n"
        "spi = SPI(0, baudrate=24_000_000, sck=Pin(18), mosi=Pin(19))\n"
        "def send(command, data=b''):\n"
        "    dc(0)\n"
        "    spi.write(bytes([command]))\n"
        "    dc(1)\n"
        "    spi.write(data)\n"
        "rst(0)\n"
        "time.sleep_us(20)\n"
        "rst(1)\n"
        "time.sleep_ms(125)\n"
        "send(0x11)\n"  # SLPOUT
        "time.sleep_ms(6)\n"
        "send(0x3a, b'\\x55')\n"  # COLMOD: 16-bit pixels
        "send(0x36, b'\\x08')\n"  # MADCTL: BGR, as the ILI9341's glass
        "send(0x29)\n",  # DISPON
        within_us=1_000_000,
    )
    screen.feed(board.spi_log())
    assert screen.display.showing and not screen.display.ignored
    screen.display.mark()
    board.exec(
        "send(0x2a, b'\\x00\\x0a\\x00\\x0b')\n"  # CASET 10-11
        "send(0x2b, b'\\x00\\x14\\x00\\x14')\n"  # RASET 20
        "send(0x2c, b'\\xf8\\x00\\x07\\xe0')\n"  # RAMWR: red, green
    )
    screen.feed(board.spi_log())
    changed = sorted(screen.display.changed())
    assert len(changed) == 2
    colours = sorted(screen.display.pixel(x, y) for x, y in changed)
    assert colours == [(0, 255, 0), (255, 0, 0)]


def test_make_emu_runs_main_and_reports_a_button_held_at_power_on(capsys):
    assert emu_main(["--ms", "1600", "--held", str(P1_SPIT)]) == 0
    console = capsys.readouterr().out
    assert "held at power-on, ignored until released: P1 SPIT" in console
    assert "Traceback" not in console


def test_presses_across_the_ticks_us_wrap_commit_in_order(wrap_board):
    wrap = TICKS_PERIOD
    assert wrap_board.now_us < wrap - 60_000
    events = [(-100.0, P1_L, True), (50.0, P2_L, True), (3_000, P1_L, False), (3_000, P2_L, False)]
    t0, rec = record(wrap_board, events, t0_us=wrap)
    stamps = dict(reversed(rec.stamps))
    assert stamps[P1_L] > TICKS_PERIOD - 1_000  # stamped before the wrap
    assert stamps[P2_L] < 1_000  # and after it
    assert [c[0] for c in rec.commits if c[0] in (P1_L, P2_L)] == [P1_L, P2_L]
    assert not any(tie for _, _, tie in rec.commits)


@pytest.mark.soak
def test_two_minutes_of_attract_mode_never_run_out_of_memory():
    found = attract_figures()  # raises if the game loop failed once
    assert found["emu_attract_mode"] == ATTRACT
    assert found["emu_heap_low_water_bytes"] > 8 * 1024


def test_a_tone_never_holds_up_the_loop(board):
    # The game's longest sound lasts 760 ms; starting it and running it to its end
    # must cost each main-loop pass microseconds, on the chip itself.
    out = board.exec(
        "import time\n"
        "import hardware_setup\n"
        "from drivers.buzzer import Buzzer\n"
        "buzzer = Buzzer(hardware_setup.buzzer_pwm())\n"
        "start = time.ticks_us()\n"
        "buzzer.play('game', start)\n"
        "started = time.ticks_diff(time.ticks_us(), start)\n"
        "worst = 0\n"
        "now = start\n"
        "while time.ticks_diff(now, start) < 900_000:\n"
        "    before = time.ticks_us()\n"
        "    buzzer.update(before)\n"
        "    now = time.ticks_us()\n"
        "    worst = max(worst, time.ticks_diff(now, before))\n"
        "print(started, worst, buzzer.playing)\n",
        within_us=2_000_000,
    )
    started, worst, playing = out.split()
    assert int(started) < 1_000 and int(worst) < 500
    assert playing == "None", "the sound ran to its end by the loop's clock"


# A whole CPU-against-CPU match through the device's own loop, booted as ``main.py``
# boots (the imports' garbage collected first), its clock running 25 ms ahead a pass.
WHOLE_MATCH = """
import gc, os, time
from device import boot
gc.collect()
handheld = boot()
controller = handheld.controller
handheld.saved.seats = ["lightning", "lightning"]
controller.new_match(time.ticks_us())


def play():
    now = time.ticks_us()
    games = 0
    for passes in range(60_000):
        if handheld.errors or controller.session is None:
            break
        games = sum(controller.session.match.wins)
        if controller.session.match.winner() >= 0 and not handheld.transcript_due:
            break
        start = time.ticks_us()
        handheld.step(now)
        now = time.ticks_add(now, time.ticks_diff(time.ticks_us(), start) + 25_000)
    print(handheld.errors, games, len(os.listdir("/transcripts")))
    print(repr(handheld.last_error))


play()
"""


@pytest.mark.soak
def test_a_whole_cpu_match_plays_and_writes_its_transcripts_on_the_chip():
    # The heap after boot holds no block of a few KB: a game's transcript (about 4 KB
    # for 300 actions) is written a line at a time.
    if firmware_paths() is None:
        pytest.skip("no MicroPython UF2 and RP2040 boot ROM")
    with EmulatedPico(files=profile_files()) as pico:
        pico.run_us(BOOT_US)
        out = pico.exec(WHOLE_MATCH, within_us=3_000_000_000)
    errors, games, transcripts = (int(n) for n in out.split("\n")[0].split())
    assert errors == 0, out
    assert games >= 2 and transcripts == games, out
