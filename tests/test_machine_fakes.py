"""The fake ``machine``'s clocks, SPI, PWM and WDT behave as the rp2 port's do."""

import machine
import pytest


@pytest.fixture(autouse=True)
def fresh_board():
    machine.reset_clocks()
    machine.SPI.forget()
    yield
    machine.reset_clocks()
    machine.SPI.forget()


def test_peripheral_clock_stays_at_48_mhz_unless_tied_to_the_cpu():
    machine.freq(125_000_000)
    assert machine.freq() == 125_000_000
    assert machine.peripheral_freq() == 48_000_000
    machine.freq(125_000_000, 125_000_000)
    assert machine.peripheral_freq() == 125_000_000
    # Tied to clk_sys, it follows a later CPU change.
    machine.freq(100_000_000)
    assert machine.peripheral_freq() == 100_000_000


def test_peripheral_clock_must_be_48_mhz_or_the_cpu_clock():
    with pytest.raises(ValueError):
        machine.freq(125_000_000, 62_500_000)
    assert machine.peripheral_freq() == 48_000_000


@pytest.mark.parametrize(
    ("peri_hz", "asked", "got"),
    [
        (48_000_000, 62_500_000, 24_000_000),
        (125_000_000, 62_500_000, 62_500_000),
        (150_000_000, 75_000_000, 75_000_000),
        (125_000_000, 40_000_000, 31_250_000),
        (48_000_000, 1_000_000, 1_000_000),
    ],
)
def test_spi_reaches_the_rate_the_sdk_dividers_give(peri_hz, asked, got):
    machine.reset_clocks(cpu_hz=max(peri_hz, 125_000_000), peripheral_hz=peri_hz)
    bus = machine.SPI(0, baudrate=asked, sck=18, mosi=19)
    assert bus.baudrate == got
    assert "baudrate=%d" % got in repr(bus)


def test_spi_rate_moves_when_the_clock_changes_after_setup():
    bus = machine.SPI(0, baudrate=62_500_000)
    machine.freq(125_000_000, 125_000_000)
    assert bus.baudrate == 24_000_000  # what was reported at setup
    assert bus.actual_baudrate() == 62_500_000


def test_spi_checks_pins_like_rp2():
    with pytest.raises(ValueError, match="bad SCK pin"):
        machine.SPI(0, sck=machine.Pin(10))  # SPI1's
    with pytest.raises(ValueError, match="bad MOSI pin"):
        machine.SPI(0, mosi=18)
    with pytest.raises(ValueError):
        machine.SPI(2)
    bus = machine.SPI(1, sck=14, mosi=15)
    assert (bus.sck, bus.mosi) == (14, 15)


def test_spi_is_one_object_per_bus_and_hands_its_bytes_to_the_sink():
    seen = []
    first = machine.SPI(0)
    first.sink = seen.append
    again = machine.SPI(0, baudrate=10_000_000)
    assert again is first
    again.write(bytearray(b"\x2a\x00"))
    again.write(memoryview(b"\x01\x3f"))
    assert seen == [b"\x2a\x00", b"\x01\x3f"]
    assert again.bytes_written == 4
    bare = machine.SPI(0)  # a bare SPI(n) leaves the bus as it was set up
    assert bare.baudrate == 8_000_000


def test_spi_refuses_lsb_first():
    with pytest.raises(NotImplementedError):
        machine.SPI(0, firstbit=machine.SPI.LSB)


def test_pwm_records_what_it_was_set_to():
    pwm = machine.PWM(machine.Pin(16), freq=880, duty_u16=32768)
    assert (pwm.freq(), pwm.duty_u16()) == (880, 32768)
    pwm.freq(440)
    pwm.duty_u16(0)
    pwm.deinit()
    assert pwm.history == [(880, 0), (880, 32768), (440, 32768), (440, 0), (440, 0)]
    assert not pwm.running
    assert pwm.duty_u16() == 0


def test_pwm_refuses_what_the_rp2040_cannot_do():
    pwm = machine.PWM(machine.Pin(16))
    with pytest.raises(ValueError):
        pwm.freq(5)  # below 125 MHz / (256 * 65536)
    with pytest.raises(ValueError):
        pwm.duty_u16(70_000)


def test_pwm_duty_ns_is_a_share_of_the_period():
    pwm = machine.PWM(machine.Pin(16), freq=1000)
    pwm.duty_ns(250_000)
    assert pwm.duty_u16() == 65535 // 4
    assert abs(pwm.duty_ns() - 250_000) < 20


def test_watchdog_resets_the_board_unless_fed_in_time():
    wdt = machine.WDT(timeout=1000)
    assert not wdt.advance(600)
    wdt.feed()
    assert not wdt.advance(999)
    assert wdt.advance(1)
    assert wdt.expired
    wdt.feed()
    assert wdt.expired  # a reset that happened stays happened


def test_watchdog_timeout_is_limited_like_the_rp2040():
    with pytest.raises(ValueError, match="8388"):
        machine.WDT(timeout=8389)
    with pytest.raises(ValueError):
        machine.WDT(id=1)
    machine.WDT(timeout=8388)
