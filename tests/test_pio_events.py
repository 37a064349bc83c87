"""The PIO word decoder: exact tick-to-µs conversion, counter wrap, presses and levels."""

import random

from drivers.pio_events import COUNTER_MASK, CYCLES_PER_TICK, PioDecoder
from helpers.same_on_cpython import run_on_cpython
from hypothesis import given
from hypothesis import strategies as st
from spit.ticks import TICKS_PERIOD

RELEASED = 0xFFFF
TOP = COUNTER_MASK  # the counter's highest value; it counts down


def low(*bits):
    """A pins word with the given bits pressed (pulled low)."""
    word = RELEASED
    for bit in bits:
        word &= ~(1 << bit)
    return word


def decoder(pins=RELEASED, counter=TOP, t=0, **kwargs):
    d = PioDecoder(**kwargs)
    d.start(pins, counter, t)
    return d


def feed(d, pins, counter):
    went_down = d.feed(pins, counter)
    return [(b, d.t) for b in range(16) if went_down >> b & 1]


def test_one_tick_is_96_ns_at_125_mhz():
    assert CYCLES_PER_TICK == 12
    d = decoder(t=5000)
    assert feed(d, low(3), TOP - 125) == [(3, 5012)]  # 125 ticks = 12 µs exactly


def test_fractions_of_a_microsecond_carry_without_drift():
    d = decoder()
    stamps = []
    for k in range(1, 1001):
        word = low(0) if k % 2 else RELEASED
        stamps += [t for _, t in feed(d, word, TOP - k)]
    assert stamps == [k * 12 // 125 for k in range(1, 1001, 2)]


def test_several_pins_down_in_one_sample_share_its_stamp():
    d = decoder()
    assert feed(d, low(2, 9, 15), TOP - 1000) == [(2, 96), (9, 96), (15, 96)]


def test_releases_are_levels_not_presses():
    d = decoder()
    feed(d, low(4, 12), TOP - 10)
    assert d.pressed_mask() == (1 << 4) | (1 << 12)
    assert feed(d, low(12), TOP - 20) == []
    assert not d.is_pressed(4) and d.is_pressed(12)
    assert feed(d, low(4, 12), TOP - 30) == [(4, 2)]


def test_a_pin_pressed_at_the_start_reports_no_press_until_pressed_again():
    d = decoder(pins=low(7))
    assert d.is_pressed(7)
    assert feed(d, low(7, 8), TOP - 125) == [(8, 12)]
    feed(d, low(8), TOP - 250)
    assert feed(d, low(7, 8), TOP - 375) == [(7, 36)]


def test_counter_wrap_through_the_heartbeat_tick():
    # The counter runs 2, 1, 0, then the heartbeat tick, then 2**30 - 2: 5 ticks in all.
    d = decoder(counter=2, t=1000)
    assert feed(d, low(1), TOP - 1) == [(1, 1000 + 5 * 12 // 125)]
    assert feed(d, low(1, 2), TOP - 1 - 125) == [(2, 1012)]


def test_equal_counters_are_a_whole_period_apart():
    d = decoder(counter=77, t=0)
    feed(d, RELEASED, 77)  # a heartbeat one period (103 s) after the start
    elapsed_us = (COUNTER_MASK + 1 + 1) * 12 // 125
    assert feed(d, low(0), 76) == [(0, elapsed_us % TICKS_PERIOD)]


def test_stamps_wrap_like_ticks_us():
    d = decoder(t=TICKS_PERIOD - 10)
    assert feed(d, low(5), TOP - 250) == [(5, 14)]


def test_other_clock_rates_convert_exactly():
    d = decoder(sys_hz=150_000_000)  # RP2350 default: 80 ns per tick
    assert feed(d, low(0), TOP - 25) == [(0, 2)]
    d = decoder(sys_hz=133_000_000)
    assert feed(d, low(0), TOP - 133) == [(0, 12)]


def test_button_bits_map_pins_to_buttons():
    bits = [15 - b for b in range(16)]  # wired in reverse
    d = decoder(button_bits=bits)
    assert feed(d, low(15, 3), TOP - 1) == [(0, 0), (12, 0)]
    assert d.is_pressed(12) and not d.is_pressed(3)


@given(st.lists(st.tuples(st.integers(0, 0xFFFF), st.integers(1, 2**29)), max_size=60))
def test_stamps_match_the_total_elapsed_time(words):
    origin = TICKS_PERIOD - 1234
    d = decoder(t=origin)
    counter, elapsed, pins = TOP, 0, RELEASED
    for new_pins, ticks in words:
        counter = (counter - ticks) & COUNTER_MASK
        elapsed += ticks
        out = feed(d, new_pins, counter)
        expected_t = (origin + elapsed * 12 // 125) % TICKS_PERIOD
        went_down = ~new_pins & pins & 0xFFFF
        assert out == [(b, expected_t) for b in range(16) if went_down >> b & 1]
        assert d.pressed_mask() == ~new_pins & 0xFFFF
        pins = new_pins


VM_DECODE = """
from drivers.pio_events import PioDecoder
decoder = PioDecoder(SYS_HZ)
decoder.start(0xFFFF, WORDS[0][1], ORIGIN)
out = []
for pins, counter in WORDS[1:]:
    went_down = decoder.feed(pins, counter)
    out.append((went_down, decoder.t))
print(repr(out))
print(decoder.pressed_mask())
"""


VM_FEED_UNDER_HEAP_LOCK = """
import micropython
from drivers.pio_events import PioDecoder
decoder = PioDecoder(125_000_000, (15, 14, 3))
decoder.start(0xFFFF, (1 << 30) - 1, (1 << 30) - 50)

def feed_all():
    counter = (1 << 30) - 1
    i = 0
    while i < 200:
        counter = (counter - 125 * (i + 1)) & 0x3FFFFFFF
        decoder.feed(0xFFFF ^ (i & 0x8008), counter)
        i += 1

micropython.heap_lock()
try:
    feed_all()
finally:
    micropython.heap_unlock()
print(decoder.t)
"""


def test_vm_feed_allocates_nothing_for_the_hard_irq(mpvm):
    assert int(mpvm(VM_FEED_UNDER_HEAP_LOCK)) > 0


def test_vm_decodes_exactly_what_cpython_decodes(mpvm):
    rng = random.Random(7)
    counter = 40
    words = [(RELEASED, counter)]
    for _ in range(300):
        counter = (counter - rng.choice([1, 2, 124, 125, 126, 99_999, 2**29])) & COUNTER_MASK
        words.append((rng.getrandbits(16), counter))
    words.append((low(0), counter))  # a whole period later
    for sys_hz in (125_000_000, 150_000_000):
        code = "SYS_HZ = %d\nORIGIN = %d\nWORDS = %r\n%s" % (
            sys_hz,
            TICKS_PERIOD - 50,
            words,
            VM_DECODE,
        )
        assert mpvm(code) == run_on_cpython(code)
