"""The native and viper twins on the emulated Pico: the RP2040 port loads them, they
agree with the plain twins there, and they are faster.

Runs when the UF2 and the boot ROM are there (see ``host_sim/emu/board.py``); one
board at the REPL, about fifteen seconds of wall time.
"""

import random

import pytest

from host_sim.emu.board import BOOT_US, EmulatedPico, firmware_paths
from host_sim.emu.fs_image import board_files

if firmware_paths() is None:
    pytest.skip(
        "no MicroPython UF2 / RP2040 boot ROM (PICO_UF2, PICO_BOOTROM): emulated Pico skipped",
        allow_module_level=True,
    )

_CHECK = """
import sys, time
from spit import fast, fast_native, hot

ABOVE = bytes((face + 1) %% 13 for face in range(13))
BELOW = bytes((face - 1) %% 13 for face in range(13))
ZEROS = bytes(13)


def answers(module, positions):
    found = []
    counts = bytearray(13)
    for stock, middle in positions:
        ranks = module.fitting_ranks(middle)
        module.count_fits(stock, counts, ZEROS, ABOVE, BELOW)
        found.append((ranks, module.can_play(stock, ranks), bytes(counts)))
    return found


def timed(module, positions):
    start = time.ticks_us()
    answers(module, positions)
    return time.ticks_diff(time.ticks_us(), start)


positions = %(positions)r
print(hot.NATIVE, hot.can_play is fast_native.can_play, sys.implementation._mpy >> 10)
print(answers(fast, positions) == answers(fast_native, positions))
print(timed(fast, positions), timed(fast_native, positions))
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
    with EmulatedPico(files=board_files(main=False), log_spi=False) as board:
        board.run_us(BOOT_US)
        yield board


def test_the_pico_runs_the_native_twins_and_they_agree_faster(pico):
    out = pico.exec(_CHECK % {"positions": _positions(40)}, within_us=20_000_000)
    lines = out.split()
    # sys.implementation._mpy >> 10 is the native architecture; 4 is armv6m (Cortex-M0+).
    assert lines[:4] == ["True", "True", "4", "True"]
    plain_us, native_us = int(lines[4]), int(lines[5])
    assert native_us < plain_us  # about half, measured; the margin is for heap layouts


_RNG_CHECK = """
import time
from array import array
from spit import rng, rng_viper

plain = array("H", (0x1234, 0x5678))
viper = array("H", plain)
same = True
for n in (1, 2, 3, 7, 13, 52, 1000, 16383):
    for _ in range(40):
        same = same and rng.plain_below(plain, n) == rng_viper.below(viper, n)
print(rng.VIPER, rng.below is rng_viper.below, same and plain == viper)


def shuffled(below, shuffle, state, count):
    items = list(range(count))
    shuffle(state, items)
    return items, below(state, 1000)


agree = True
for count in (0, 1, 2, 26, 52):
    agree = agree and shuffled(rng.plain_below, rng.plain_shuffle, plain, count) == shuffled(
        rng_viper.below, rng_viper.shuffle, viper, count)
print(agree)
deck = list(range(52))
start = time.ticks_us()
rng.plain_shuffle(plain, deck)
plain_us = time.ticks_diff(time.ticks_us(), start)
start = time.ticks_us()
rng_viper.shuffle(viper, deck)
print(plain_us, time.ticks_diff(time.ticks_us(), start))
"""


def test_the_pico_draws_and_shuffles_in_viper_as_the_plain_twins_do(pico):
    out = pico.exec(_RNG_CHECK, within_us=20_000_000).split()
    assert out[:4] == ["True", "True", "True", "True"]
    plain_us, viper_us = int(out[4]), int(out[5])
    assert viper_us * 3 < plain_us  # 1 ms against 7, measured
