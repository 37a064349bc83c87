"""The native and viper twins on the emulated Pico: the RP2040 port loads every one of
them, each gives its plain twin's answers on the host for the same inputs
(``twin_cases``), they draw what framebuf draws (the same pixels, the same bytes on the
display's bus), and they are faster.

Runs when the UF2 and the boot ROM are there (see ``host_sim/emu/emulated_pico.py``); one
board at the REPL, about fifteen seconds of wall time.
"""

import importlib
import json
import random

import pytest
from helpers import twin_cases

from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico, firmware_paths
from host_sim.emu.fs_image import board_files

pytestmark = pytest.mark.emulated_pico

if firmware_paths() is None:
    pytest.skip(
        "no MicroPython UF2 / RP2040 boot ROM (PICO_UF2, PICO_BOOTROM): emulated Pico skipped",
        allow_module_level=True,
    )

# A call's answer a line, as it comes: the board's heap holds one job's calls at a time.
_PAIRS = """
import gc, json
from spit import twins

for job, emitter in %(pairs)r:
    gc.collect()
    with open("cases/" + job + ".json") as f:
        calls = json.load(f)
    twin = twins.fast(job, emitter)
    print(json.dumps([job, twins.LOADED[job]]))
    for call in calls:
        print(json.dumps(answer(twin, call)))
    calls = None
"""


def test_the_pico_loads_every_fast_twin_and_it_answers_as_the_plain_twin_here(pico):
    pairs = sorted(twin_cases.pairs().items())
    out = pico.exec(twin_cases.RUNNER + _PAIRS % {"pairs": pairs}, within_us=120_000_000)
    lines = [json.loads(line) for line in out.splitlines()]
    for (job, emitter), calls in zip(pairs, twin_cases.cases().values(), strict=True):
        assert lines[0] == [job, emitter]
        answers, lines = lines[1 : 1 + len(calls)], lines[1 + len(calls) :]
        assert answers == twin_cases.run(importlib.import_module(job), calls), job
    assert lines == []


_CHECK = """
import sys, time
from spit import fits, fits_native, twins

ABOVE = bytes((face + 1) %% 13 for face in range(13))
BELOW = bytes((face - 1) %% 13 for face in range(13))


def answers(module, positions):
    found = []
    counts = bytearray(13)
    for stock, middle in positions:
        ranks = module.fitting_ranks(middle)
        module.count_fits(stock, counts, ABOVE, BELOW)
        found.append((ranks, module.can_play(stock, ranks), bytes(counts)))
    return found


def timed(module, positions):
    start = time.ticks_us()
    answers(module, positions)
    return time.ticks_diff(time.ticks_us(), start)


positions = %(positions)r
print(twins.LOADED["spit.fits"], twins.can_play is fits_native.can_play)
print(sys.implementation._mpy >> 10)
print(answers(fits, positions) == answers(fits_native, positions))
print(timed(fits, positions), timed(fits_native, positions))
"""


def _positions(count, seed=3):
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        stock = [[deck.pop() for _ in range(rng.choice((0, 1, 3)))] for _ in range(5)]
        middle = [[deck.pop()] for _ in range(rng.choice((1, 2)))]
        found.append((stock, middle))
    return found


@pytest.fixture(scope="module")
def pico():
    cases = twin_cases.cases()
    files = {"cases/%s.json" % job: json.dumps(calls).encode() for job, calls in cases.items()}
    with EmulatedPico(files=board_files(main=False, extra=files)) as board:
        board.run_us(BOOT_US)
        yield board


def test_the_pico_runs_the_native_twins_and_they_agree_faster(pico):
    out = pico.exec(_CHECK % {"positions": _positions(40)}, within_us=20_000_000)
    lines = out.split()
    # sys.implementation._mpy >> 10 is the native architecture; 4 is armv6m (Cortex-M0+).
    assert lines[:4] == ["native", "True", "4", "True"]
    plain_us, native_us = int(lines[4]), int(lines[5])
    assert native_us < plain_us  # about half, measured; the margin is for heap layouts


_RNG_CHECK = """
import time
from array import array
from spit import rng, rng_viper, twins

plain = array("H", (0x1234, 0x5678))
viper = array("H", plain)
print(twins.LOADED["spit.rng"], rng._shuffle is rng_viper.shuffle)
deck = list(range(52))
start = time.ticks_us()
rng.shuffle(plain, deck)
plain_us = time.ticks_diff(time.ticks_us(), start)
start = time.ticks_us()
rng_viper.shuffle(viper, deck)
print(plain_us, time.ticks_diff(time.ticks_us(), start))
"""


def test_the_pico_shuffles_in_viper_faster(pico):
    out = pico.exec(_RNG_CHECK, within_us=20_000_000).split()
    assert out[:2] == ["viper", "True"]
    plain_us, viper_us = int(out[2]), int(out[3])
    assert viper_us * 3 < plain_us  # 1 ms against 7, measured


_INK_CHECK = """
import framebuf, gc, hashlib, time
from spit import big_text, pen, twins
from spit.controls import Controls
from spit.render import Renderer
from spit.spit import Game


class Digest:
    width = 320
    height = 240

    def __init__(self):
        self.sha = hashlib.sha256()

    def show(self, x, y, w, h, buf):
        self.sha.update(b"%d %d %d %d" % (x, y, w, h))
        self.sha.update(buf)

    def show_turned(self, x, y, w, h, buf):
        self.sha.update(b"turned")
        self.show(x, y, w, h, buf)

    def fill(self, colour):
        self.fill_rows(colour, 0, 240)

    def fill_rows(self, colour, y, h):
        self.sha.update(b"%d %d %d" % (colour, y, h))


def frames():
    # The play screen set out, then a dozen actions followed, both players' cards.
    gc.collect()
    game = Game(12345)
    game.apply(game.legal_actions()[0])
    controls = Controls(game)
    display = Digest()
    renderer = Renderer(display, framebuf)
    spent = 0
    for _ in range(12):
        start = time.ticks_us()
        renderer.play(game, controls, (False, True))
        spent += time.ticks_diff(time.ticks_us(), start)
        game.apply(game.legal_actions()[0])
    return display.sha.digest(), spent


def static_screens():
    # Big text both ways up: the title, a ready screen, the countdown.
    display = Digest()
    renderer = Renderer(display, framebuf)
    renderer.title("SPIT", 42)
    renderer.ready("SLAM", [True, False], (False, True), "")
    renderer.countdown(2)
    return display.sha.digest()


print(twins.ink is not None, twins.glyph_row_shape is not big_text.glyph_row_shape)
viper = frames()
viper_static = static_screens()
pen.ink = None
pen.glyph_row_shape = big_text.glyph_row_shape
plain = frames()
plain_static = static_screens()
pen.ink = twins.ink
pen.glyph_row_shape = twins.glyph_row_shape
print(viper[0] == plain[0] and viper_static == plain_static, plain[1], viper[1])
"""


def test_the_pico_paints_glyphs_and_big_text_in_viper_as_framebuf_does(pico):
    out = pico.exec(_INK_CHECK, within_us=60_000_000).split()
    assert out[:3] == ["True", "True", "True"]
    plain_us, viper_us = int(out[3]), int(out[4])
    assert viper_us < plain_us


_WINDOWS = """
import hardware_setup
pixels = bytearray(i & 255 for i in range(1024))
windows = ((0, 0, 4, 2, 0), (10, 20, 4, 2, 0), (10, 30, 4, 2, 1), (10, 30, 4, 2, 1),
           (306, 208, 4, 2, 0), (300, 230, 20, 10, 0))


def send():
    before = display.bytes_sent
    for x, y, w, h, turned in windows:
        show = display.show_turned if turned else display.show
        show(x, y, w, h, memoryview(pixels)[: w * h * 2])
    display.fill_rows(0x1234, 100, 6)
    display.wait()
    return type(display._bus).__name__, display.bytes_sent - before
"""


def test_the_three_buses_send_the_same_bytes_on_the_pico(pico):
    pico.exec(_WINDOWS, within_us=5_000_000)
    sent = {}
    for bus in ("dma", "registers", "pins"):
        pico.exec("display = hardware_setup.display(bus=%r)" % bus, within_us=5_000_000)
        pico.spi_log()  # the panel's set-up
        name, count = pico.exec("print(*send())").split()
        sent[name] = (int(count), [(dc, byte) for _, dc, byte in pico.spi_log()])
    assert sorted(sent) == ["DmaBus", "PinBus", "RegisterBus"]
    assert sent["DmaBus"] == sent["RegisterBus"] == sent["PinBus"]
    count, log = sent["PinBus"]
    assert count == len(log)
    commands = [byte for dc, byte in log if dc == 0]
    # Each window's RAMWR; the order or a range only where it changed (the turned window
    # at 10, 30 has the ranges of the upright one at 306, 208 after it; the set-up's
    # clear left the order upright and the columns whole).
    assert [commands.count(c) for c in (0x2C, 0x36, 0x2A, 0x2B)] == [7, 2, 5, 5]


_PLAY_SCREEN = """
import framebuf
import hardware_setup
from spit.controls import Controls
from spit.render import Renderer
from spit.spit import Game

game = Game(%(seed)d)
for _ in range(%(steps)d):
    game.apply(game.legal_actions()[0])
controls = Controls(game)
display = hardware_setup.display()
renderer = Renderer(display, framebuf)
renderer.regions_per_call = 1


def drawn():
    renderer.play(game, controls)
    calls = 1
    while renderer.busy or display.busy():
        renderer.play(game, controls)
        calls += 1
    return calls


print(display.in_background, drawn())
game.apply(game.legal_actions()[0])
controls.changed()  # the game moved outside the controls: they tell the screen
print(drawn())
"""


def _play_screen_on_the_host(seed, steps):
    import framebuf
    from spit.controls import Controls
    from spit.render import Renderer
    from spit.spit import Game

    from host_sim.display.wiring import wired_display

    game = Game(seed)
    for _ in range(steps + 1):
        game.apply(game.legal_actions()[0])
    display, panel = wired_display()
    Renderer(display, framebuf).play(game, Controls(game))
    return panel


def test_the_pico_draws_the_play_screen_a_region_a_call_by_dma_as_the_host_draws_it(pico):
    from host_sim.display.panel import VirtualDisplay
    from host_sim.emu.screen import Screen

    pico.spi_log()
    out = pico.exec(_PLAY_SCREEN % {"seed": 41, "steps": 6}, within_us=30_000_000).split()
    screen = Screen(VirtualDisplay(strict_timing=True))
    screen.feed(pico.spi_log())
    # The whole screen a region a call, then the regions one action changed; each call
    # starting while the bus still took the last region's pixels found the DMA busy.
    assert out[0] == "True" and int(out[1]) > 60 and int(out[2]) > 3
    host = _play_screen_on_the_host(41, 6)
    size = range(320), range(240)
    assert [screen.display.pixel(x, y) for x in size[0] for y in size[1]] == [
        host.pixel(x, y) for x in size[0] for y in size[1]
    ]


_LOCKED = """
import micropython
from spit import fits_native

ABOVE = bytes((face + 1) %% 13 for face in range(13))
BELOW = bytes((face - 1) %% 13 for face in range(13))
counts = bytearray(13)
positions = %(positions)r
allocated = []
for stock, middle in positions:
    micropython.heap_lock()
    try:
        fits_native.can_play(stock, fits_native.fitting_ranks(middle))
        fits_native.count_fits(stock, counts, ABOVE, BELOW)
    except MemoryError:
        allocated.append(stock)
    micropython.heap_unlock()
print(len(allocated))
"""


def test_the_native_twins_allocate_nothing_as_a_glance_runs_them_with_the_heap_locked(pico):
    # Native code builds a slice object on the heap where the bytecode VM does not: a
    # ``counts[:] = ...`` there allocated 16 bytes a call.
    out = pico.exec(_LOCKED % {"positions": _positions(20)}, within_us=20_000_000).split()
    assert out == ["0"]
