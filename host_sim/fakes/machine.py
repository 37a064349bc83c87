"""A fake of MicroPython's ``machine`` module for the host simulator and the tests.

Each class takes the device's constructor and methods, as far as the firmware uses them,
plus helpers that play the outside world (a finger on a button, a wire); those helpers
are the only names a device class lacks. Constants have the rp2 port's values.
"""


SIO_GPIO_IN = 0xD0000004  # the SIO register with the level of GPIO 0-29 in bits 0-29

_wired = {}  # GPIO number -> the last Pin built for it


class Pin:
    """A GPIO. As an input it reads what the outside drives, else its pull resistor.

    World helpers: ``drive(level)`` (0, 1, or None for nothing driving), ``press()`` and
    ``release()`` for a button wired to ground, and ``fire()``. Like the device, a
    registered handler runs on each edge that matches its trigger, immediately, with
    the pin as argument; pass ``fire=False`` to ``drive`` to deliver it later yourself,
    as a model of interrupt latency does.
    """

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        _wired[id] = self  # the GPIO that mem32[GPIO_IN] reads, as on the device
        self.mode = Pin.IN
        self.pull = None
        self.hard = False
        self._output = 0
        self._outside = None
        self._handler = None
        self._trigger = 0
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self._output = 1 if value else 0

    def value(self, x=None):
        if x is None:
            return self._level()
        self._output = 1 if x else 0
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    low = off
    high = on

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self._handler = handler
        self._trigger = trigger if handler is not None else 0
        self.hard = hard

    def __repr__(self):
        return "Pin(%r)" % (self.id,)

    # The outside world.

    def drive(self, level, fire=True):
        """Set what the outside drives (0, 1 or None); returns the IRQ trigger that matched.

        Returns ``IRQ_FALLING`` or ``IRQ_RISING`` when the level changed in a direction the
        handler listens for, else 0; with ``fire`` the handler has then already run.
        """
        before = self._level()
        self._outside = level
        after = self._level()
        if before == after:
            return 0
        edge = Pin.IRQ_FALLING if after == 0 else Pin.IRQ_RISING
        matched = edge & self._trigger
        if matched and fire:
            self.fire()
        return matched

    def press(self, fire=True):
        """Close a button contact to ground."""
        return self.drive(0, fire)

    def release(self, fire=True):
        """Open the contact: the pull resistor sets the level again."""
        return self.drive(None, fire)

    def fire(self):
        """Run the registered handler as the device's interrupt would."""
        if self._handler is not None:
            self._handler(self)

    def _level(self):
        if self.mode == Pin.OUT:
            return self._output
        if self._outside is not None:
            return self._outside
        return 1 if self.pull == Pin.PULL_UP else 0


class _Mem32:
    """``machine.mem32``, for the one register the firmware reads: SIO ``GPIO_IN``."""

    def __getitem__(self, address):
        if address != SIO_GPIO_IN:
            raise ValueError("no fake register at 0x%08x" % address)
        word = 0
        for gpio, pin in _wired.items():
            if gpio < 30 and pin.value():
                word |= 1 << gpio
        return word


mem32 = _Mem32()


# Clocks, as the rp2 port sets them: clk_sys runs the CPU; clk_peri clocks SPI and UART
# and stays on the 48 MHz USB PLL unless freq()'s second argument ties it to clk_sys.
_USB_HZ = 48_000_000
_clocks = {"cpu": 125_000_000, "peri": _USB_HZ}


def freq(hz=None, peripheral_hz=None):
    """``freq()`` is the CPU clock; ``freq(hz[, peripheral_hz])`` sets it, as rp2 does.

    The peripheral clock may only be 48 MHz (left where it is) or the CPU clock.
    """
    if hz is None:
        return _clocks["cpu"]
    tied = _clocks["peri"] == _clocks["cpu"] and _clocks["peri"] != _USB_HZ
    if peripheral_hz is not None and peripheral_hz not in (_USB_HZ, hz):
        raise ValueError("peripheral freq must be 48_000_000 or the same as the MCU freq")
    _clocks["cpu"] = hz
    if tied or (peripheral_hz is not None and peripheral_hz != _USB_HZ):
        _clocks["peri"] = hz
    return None


def peripheral_freq():
    """World helper: clk_peri, which the device does not report."""
    return _clocks["peri"]


def reset_clocks(cpu_hz=125_000_000, peripheral_hz=_USB_HZ):
    """World helper: the clocks after a power-on (a test's fresh board)."""
    _clocks["cpu"] = cpu_hz
    _clocks["peri"] = peripheral_hz


def _spi_dividers(baudrate, clock_hz):
    """The pico-sdk's ``spi_set_baudrate``: the smallest even prescale that fits the
    post-divider, then the largest post-divider whose rate is not above ``baudrate``."""
    prescale = 2
    while prescale <= 254 and clock_hz >= (prescale + 2) * 256 * baudrate:
        prescale += 2
    postdiv = 256
    while postdiv > 1 and clock_hz // (prescale * (postdiv - 1)) <= baudrate:
        postdiv -= 1
    return prescale * postdiv


def _pin_number(pin):
    return pin if isinstance(pin, int) else pin.id


class SPI:
    """A hardware SPI bus: ``SPI(id, baudrate=1_000_000, *, polarity=0, phase=0, bits=8,
    firstbit=SPI.MSB, sck=None, mosi=None, miso=None)``, checking pins as rp2 does.

    The clock divider is chosen from clk_peri when the bus is set up, as on the device,
    so ``baudrate`` (what the device's repr reports) is the rate really reached, and a
    later change of clk_peri moves the real rate (``actual_baudrate()``).

    World helpers: ``sink``, a callable given each written chunk as ``bytes`` (the wire),
    ``bytes_written``, and ``SPI.forget()`` (a fresh board). As on the device, ``SPI(0)``
    is the same object each time, so a test can attach a sink before the firmware
    builds the bus.
    """

    MSB = 0
    LSB = 1
    _buses = {}  # like the device, SPI(n) is one object for the life of the board

    def __new__(cls, id, *args, **kwargs):
        if id not in (0, 1):
            raise ValueError("SPI(%d) doesn't exist" % id)
        if id not in cls._buses:
            bus = super().__new__(cls)
            bus.sink = None
            bus.bytes_written = 0
            bus.baudrate = 0
            # The Pico's default pins, kept until a constructor names others.
            bus.sck, bus.mosi, bus.miso = (18, 19, 16) if id == 0 else (10, 11, 8)
            bus.polarity = bus.phase = 0
            bus.bits = 8
            cls._buses[id] = bus
        return cls._buses[id]

    def __init__(
        self,
        id,
        baudrate=None,
        *,
        polarity=0,
        phase=0,
        bits=8,
        firstbit=MSB,
        sck=None,
        mosi=None,
        miso=None,
    ):
        self.id = id
        for name, pin, lane in (("SCK", sck, 2), ("MOSI", mosi, 3), ("MISO", miso, 0)):
            if pin is None:
                continue
            number = _pin_number(pin)
            # SPI0 has GPIO 0-7 and 16-23, SPI1 8-15 and 24-29; each lane every 4th pin.
            if number & 3 != lane or (number & 8) >> 3 != id:
                raise ValueError("bad %s pin" % name)
            setattr(self, name.lower(), number)
        # Like the device: a bare SPI(n) of a bus already set up leaves it as it is.
        given = (baudrate, sck, mosi, miso) != (None,) * 4 or (polarity, phase, bits) != (0, 0, 8)
        if given or self.baudrate == 0:
            self.init(
                baudrate=1_000_000 if baudrate is None else baudrate,
                polarity=polarity,
                phase=phase,
                bits=bits,
                firstbit=firstbit,
            )

    def init(self, baudrate=None, *, polarity=None, phase=None, bits=None, firstbit=None):
        if firstbit == SPI.LSB:
            raise NotImplementedError("LSB")
        if baudrate is not None:
            self._divider = _spi_dividers(baudrate, _clocks["peri"])
            self.baudrate = _clocks["peri"] // self._divider
        self.polarity = self.polarity if polarity is None else polarity
        self.phase = self.phase if phase is None else phase
        self.bits = self.bits if bits is None else bits

    @classmethod
    def forget(cls):
        cls._buses.clear()

    def actual_baudrate(self):
        """World helper: the rate on the wire now, after any later clock change."""
        return _clocks["peri"] // self._divider

    def write(self, buf):
        data = bytes(buf)
        self.bytes_written += len(data)
        if self.sink is not None:
            self.sink(data)

    def deinit(self):
        self.baudrate = 0

    def __repr__(self):
        return "SPI(%d, baudrate=%d, polarity=%d, phase=%d, bits=%d, sck=%s, mosi=%s, miso=%s)" % (
            self.id,
            self.baudrate,
            self.polarity,
            self.phase,
            self.bits,
            self.sck,
            self.mosi,
            self.miso,
        )


class PWM:
    """``PWM(pin, *, freq=..., duty_u16=..., invert=False)``; ``freq()``, ``duty_u16()``
    and ``duty_ns()`` read or set, ``deinit()`` stops the output.

    World helpers: ``running`` and ``history``, every ``(freq, duty_u16)`` the output
    was set to, in order. Reads give back what was set (the device rounds the duty to
    its counter's resolution, a few parts in 65,536 at buzzer frequencies).
    """

    # The RP2040's PWM counts 16 bits with an 8.4-bit divider: about 8 Hz at 125 MHz.
    _SLOWEST_DIVIDER = 256 * 65536

    def __init__(self, pin, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        self.pin = pin
        self.invert = invert
        self._freq = 0
        self._duty = 0
        self.running = False
        self.history = []
        self.init(freq=freq, duty_u16=duty_u16, duty_ns=duty_ns)

    def init(self, *, freq=None, duty_u16=None, duty_ns=None):
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)
        if duty_ns is not None:
            self.duty_ns(duty_ns)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if value * self._SLOWEST_DIVIDER < _clocks["cpu"]:
            raise ValueError("freq too small")
        if value > _clocks["cpu"] // 2:
            raise ValueError("freq too large")
        self._freq = value
        self._set()
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty if self.running else 0
        if not 0 <= value <= 65535:
            raise ValueError("duty_u16 must be from 0 to 65535")
        self._duty = value
        self._set()
        return None

    def duty_ns(self, value=None):
        period_ns = 1_000_000_000 // self._freq if self._freq else 0
        if value is None:
            return self._duty * period_ns // 65535 if self.running else 0
        self.duty_u16(min(65535, value * 65535 // period_ns) if period_ns else 0)
        return None

    def deinit(self):
        self.running = False
        self.history.append((self._freq, 0))

    def _set(self):
        self.running = True
        self.history.append((self._freq, self._duty))


class WDT:
    """``WDT(id=0, timeout=5000)``: once started it cannot be stopped; ``feed()``.

    The fake has no clock of its own. World helpers: ``advance(ms)`` moves time on and
    returns whether the board would have reset by then (``expired`` stays set).
    """

    # 24-bit counter, two ticks a microsecond on the RP2040.
    TIMEOUT_MAX_MS = 8388

    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%d) doesn't exist" % id)
        if timeout > self.TIMEOUT_MAX_MS:
            raise ValueError("timeout exceeds %d" % self.TIMEOUT_MAX_MS)
        self.timeout = timeout
        self.since_feed_ms = 0
        self.feeds = 0
        self.expired = False

    def feed(self):
        self.since_feed_ms = 0
        self.feeds += 1

    def advance(self, ms):
        self.since_feed_ms += ms
        if self.since_feed_ms >= self.timeout:
            self.expired = True
        return self.expired


def wired(gpio):
    """World helper: the Pin last built for ``gpio`` (what a probe on that wire sees)."""
    return _wired[gpio]
