"""ILI9341 and ST7789 320x240 SPI panels, in landscape.

Constructor: ``Display(bus, rst, panel="ili9341", rotation=0, sleep_ms=None, start=True)``
takes a bus (below: the pins', the registers' or DMA's; ``hardware_setup`` picks it) and
the RST line as a callable ``Pin``. ``rotation`` is 0, or 180 for a panel mounted upside
down. ``sleep_ms`` waits between init steps (``time.sleep_ms`` unless given). The
constructor resets the panel and, with ``start``, calls ``start()``: once the panel has
woken from the reset (120 ms), it sets it up, clears it and turns it on. The device
starts it later itself, and builds its other parts while the panel wakes; a ``fill``
asked for meanwhile is the colour ``start`` clears to (black unless one was).

Methods: ``show(x, y, w, h, buf)`` sends a window of RGB565 pixels: ``buf`` is exactly
``w * h * 2`` bytes as ``framebuf.FrameBuffer(buf, w, h, framebuf.RGB565)`` wrote them,
and goes out as it is, so the colours given to framebuf are byte-swapped RGB565 (the
panel reads each pixel big-endian). ``show_turned(x, y, w, h, buf)`` sends the same
window turned half a turn at ``x, y``: the panel writes it in the opposite address
order, so ``buf``'s first pixel lands at the bottom right. ``fill(colour)`` paints the
whole screen with a colour in that same form, and ``fill_rows(colour, y, h)`` paints
rows ``y`` to ``y + h - 1`` alone (``h`` even), so that a clear can go out a band at a
time. None of them allocates. With a bus that sends in the background (DMA) they return
once the transfer has started: ``busy()`` is True until its last byte is out, ``wait()``
waits for that, and the buffer given to ``show`` must stay as it is until then (the
next window waits itself).

Attributes: ``width``, ``height`` (320, 240); ``bytes_sent``, every byte put on the bus
so far, commands included; ``in_background``: the bus sends the pixels while the CPU
goes on; ``sending``: a transfer was started and not yet seen finished.

Both panels are 240x320 portrait controllers speaking MIPI DCS: MADCTL sets the address
order, so that column 0, row 0 is the top left as the player sees the screen; CASET and
RASET open a window and RAMWR fills it row by row. MADCTL's MX and MY bits mirror the
physical column and row order whatever MV is, and steer only the pixels written next
(docs/display.md). Where the panels differ (colour filter order, inversion, power
settings) is in ``_PANELS``.

What the panel holds is recorded in ``_held``, one ``array("i")`` whatever the bus: the
address order (slot ``_ORDER``, MADCTL's parameter), the column range (``_COLUMNS``) and
the row range (``_ROWS``), each range as ``start << 9 | end``. A window sends only what
differs from it: a row of text pieces shares its rows, a card's bands their columns.

The buses, one a transport, chosen once at construction. They share the panel's module,
as micropython-lib's ssd1306.py keeps its transports, because each module imported at
boot costs about 10 ms on the chip (docs/display.md):

- ``PinBus(spi, dc, cs)``: through a built ``machine.SPI`` and the DC and CS output pins
  (called with their level, as ``machine.Pin`` is); every port has it.
- ``RegisterBus(spi, dc, cs, registers)``: each window's commands straight into the
  RP2040's SPI and GPIO registers in one viper call (``drivers.window_viper``), its
  pixels through ``machine.SPI``; ``registers`` are the SPI block's base, SIO's base,
  the DC pin's mask and the CS pin's mask.
- ``DmaBus(spi, dc, cs, registers, channel, dreq)``: as ``RegisterBus``, and the pixels
  by an ``rp2.DMA`` channel paced by the SPI's transmit DREQ, while the CPU goes on.

Where the port has no viper code emitter, the last two raise the SyntaxError of
importing ``drivers.window_viper`` (``hardware_setup`` then takes the ``PinBus``).

A bus has ``held``, the panel's record, which the panel hands it at construction;
``command(command, params)``, one command and its parameter bytes; ``show(order,
columns, rows, buf)``, a window opened in that address order and over those ranges, and
``buf``'s pixels sent into it; ``fill(order, columns, rows, colour, height)``, the same
with ``height`` rows of one colour; ``in_background``, True where ``show`` and ``fill``
return once the transfer has started; ``finished(transfer)``, True once the last bytes
of its ``transfer`` are out: a function rather than a method, as the panel polls it in a
loop, where a method between would add a call to every poll (docs/display.md).
``show`` and ``fill`` send only what ``held`` does not hold already (and note it as
held), and return the command bytes they sent. None of them allocates.
"""

from array import array
from struct import pack_into

import framebuf
from micropython import const

_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVON = const(0x21)
_DISPON = const(0x29)
_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)

# MADCTL bits: row order, column order, row/column exchange, BGR colour filter.
_MY = const(0x80)
_MX = const(0x40)
_MV = const(0x20)
_BGR = const(0x08)

_COLMOD_16BIT = const(0x55)  # 65k colours, 16 bits a pixel, on both interfaces
_WIDTH = const(320)
_HEIGHT = const(240)
_STRIP_ROWS = const(4)  # rows per write in a fill through the pins: 2,560 bytes of buffer

# ``_held``'s slots, and the value of one the panel was never sent.
_ORDER = const(0)
_COLUMNS = const(1)
_ROWS = const(2)
_UNKNOWN = const(-1)
_WAKE_MS = const(121)  # from a reset to sleep out: 120 ms, and a hair

_DMA = const(4)  # the DMA channel's slot in ``drivers.window_viper``'s ``registers``

_ALL_COLUMNS = const(_WIDTH - 1)  # columns 0 to 319 as a range, ``start << 9 | end``

# Per panel: MADCTL for rotation 0, whether the glass needs inversion on, and the
# power settings sent after sleep out. Both modules show landscape right way up with
# the exchange bit set; they differ by a mirrored column order on the glass.
_PANELS = {
    # ILI9341 modules have a BGR colour filter. Power control 1 and 2 and VCOM control
    # 1 and 2: the module makers' values, which the widely used drivers all send.
    "ili9341": (
        _MY | _MX | _MV | _BGR,
        False,
        ((0xC0, b"\x23"), (0xC1, b"\x10"), (0xC5, b"\x3e\x28"), (0xC7, b"\x86")),
    ),
    # ST7789 IPS glass is normally black: without INVON every colour shows inverted.
    "st7789": (_MY | _MV, True, ()),
}


def _sent(transfer):
    """The pins' ``finished``: their bytes are out when the call that sent them returns."""
    return True


try:
    from time import ticks_diff as _ticks_diff
    from time import ticks_ms as _ticks_ms
except ImportError:  # CPython: the waits are all the time there is

    def _ticks_ms():
        return 0

    def _ticks_diff(end, start):
        return end - start


def _system_sleep_ms():
    import time

    try:
        return time.sleep_ms
    except AttributeError:  # CPython
        return lambda ms: time.sleep(ms / 1000)


class Display:
    width = _WIDTH
    height = _HEIGHT

    def __init__(self, bus, rst, panel="ili9341", rotation=0, sleep_ms=None, start=True):
        if panel not in _PANELS:
            raise ValueError("panel is 'ili9341' or 'st7789'")
        if rotation not in (0, 180):
            raise ValueError("rotation is 0 or 180")
        self._bus = bus
        self.bytes_sent = 0
        self.in_background = bus.in_background
        self.sending = False
        self._held = bus.held = array("i", (_UNKNOWN, _UNKNOWN, _UNKNOWN))
        self._finished = bus.finished
        self._transfer = bus.transfer
        order, invert, power = _PANELS[panel]
        if rotation == 180:
            order ^= _MX | _MY
        self._upright = order
        self._turned = order ^ (_MX | _MY)
        self._invert = invert
        self._power = power
        self._sleep_ms = sleep_ms or _system_sleep_ms()
        # A hardware reset (a low pulse of at least 10 us) does all a software one would.
        # Sleep out may follow it only after 120 ms (the reset may have found the panel
        # awake), and other commands 5 ms after sleep out. Each wait has a margin: sleep_ms
        # can end a hair early.
        rst(0)
        self._sleep_ms(1)
        rst(1)
        # Where the clock runs (MicroPython), the time the panel has had to wake counts;
        # elsewhere it is all waited, as a simulated panel counts only the waits.
        self._reset_at = _ticks_ms()
        self._started = False
        self._first_colour = 0  # what ``start`` clears to
        if start:
            self.start()

    def busy(self):
        """True while pixels sent in the background are still going out."""
        if self.sending and self._finished(self._transfer):
            self.sending = False
        return self.sending

    def wait(self):
        """Until the last pixel sent in the background is out."""
        if self.sending:
            while not self._finished(self._transfer):
                pass
            self.sending = False

    def start(self):
        """Once the panel has woken from its reset: set it up, clear it, turn it on."""
        left = _WAKE_MS - _ticks_diff(_ticks_ms(), self._reset_at)
        if left > 0:
            self._sleep_ms(left)
        self._command(_SLPOUT)
        self._sleep_ms(6)
        self._command(_COLMOD, bytes((_COLMOD_16BIT,)))
        for command, params in self._power:
            self._command(command, params)
        if self._invert:
            self._command(_INVON)
        self._command(_NORON)
        # Clear before the glass turns on, so the memory's power-on noise never shows.
        # (The clear's window sets the address order.)
        self._started = True
        self.fill(self._first_colour)
        self._command(_DISPON)

    def _command(self, command, params=b""):
        self.wait()
        self._bus.command(command, params)
        self.bytes_sent += 1 + len(params)

    def show(self, x, y, w, h, buf):
        if x < 0 or y < 0 or w < 1 or h < 1 or x + w > _WIDTH or y + h > _HEIGHT:
            raise ValueError("window is off the screen")
        if len(buf) != w * h * 2:
            raise ValueError("buffer is not w * h * 2 bytes")
        if self.sending:
            self.wait()
        sent = self._bus.show(self._upright, x << 9 | (x + w - 1), y << 9 | (y + h - 1), buf)
        self.bytes_sent += sent + len(buf)
        self.sending = self.in_background

    def show_turned(self, x, y, w, h, buf):
        # ``show`` written out again: a call more would cost about 17 µs a window on the
        # chip (docs/display.md).
        if x < 0 or y < 0 or w < 1 or h < 1 or x + w > _WIDTH or y + h > _HEIGHT:
            raise ValueError("window is off the screen")
        if len(buf) != w * h * 2:
            raise ValueError("buffer is not w * h * 2 bytes")
        if self.sending:
            self.wait()
        # In the turned order the panel counts columns and rows from the opposite corner.
        x = _WIDTH - x - w
        y = _HEIGHT - y - h
        sent = self._bus.show(self._turned, x << 9 | (x + w - 1), y << 9 | (y + h - 1), buf)
        self.bytes_sent += sent + len(buf)
        self.sending = self.in_background

    def fill(self, colour):
        if not self._started:
            self._first_colour = colour  # the panel sleeps: ``start`` clears to it
            return
        self.fill_rows(colour, 0, _HEIGHT)

    def fill_rows(self, colour, y, h):
        if y < 0 or h < 1 or y + h > _HEIGHT or h % 2:
            raise ValueError("rows are off the screen or not an even number")
        if self.sending:
            self.wait()
        rows = y << 9 | (y + h - 1)
        sent = self._bus.fill(self._upright, _ALL_COLUMNS, rows, colour, h)
        self.bytes_sent += sent + _WIDTH * h * 2
        self.sending = self.in_background


class PinBus:
    in_background = False

    def __init__(self, spi, dc, cs):
        self._spi = spi
        self._dc = dc
        self._cs = cs
        self._byte = bytearray(1)
        self._params = bytearray(4)
        self._strip = None  # made by the first fill (the panel's first clear)
        self.held = None  # the panel's, handed over at its construction
        self.finished = _sent  # each call returns with its bytes out
        self.transfer = None
        cs(1)
        dc(0)

    def command(self, command, params):
        """One command and its parameters, with CS held low for both."""
        self._byte[0] = command
        self._cs(0)
        self._dc(0)
        self._spi.write(self._byte)
        if params:
            self._dc(1)
            self._spi.write(params)
        self._cs(1)

    def show(self, order, columns, rows, buf):
        sent = self._open(order, columns, rows)
        self._spi.write(buf)
        self._cs(1)
        return sent

    def fill(self, order, columns, rows, colour, height):
        if self._strip is None:
            self._make_strip()
        sent = self._open(order, columns, rows)
        if colour != self._strip_colour:
            self._strip_fb.fill(colour)
            self._strip_colour = colour
        # One RAMWR: the panel's address counter runs on from strip to strip.
        for _ in range(height // _STRIP_ROWS):
            self._spi.write(self._strip)
        if height % _STRIP_ROWS:
            self._spi.write(self._half_strip)
        self._cs(1)
        return sent

    def _make_strip(self):
        self._strip = bytearray(_WIDTH * _STRIP_ROWS * 2)
        self._strip_fb = framebuf.FrameBuffer(self._strip, _WIDTH, _STRIP_ROWS, framebuf.RGB565)
        self._half_strip = memoryview(self._strip)[: _WIDTH * _STRIP_ROWS]  # 2 rows
        self._strip_colour = -1  # what the strip holds (filling it is 0.1 ms on the chip)

    def _open(self, order, columns, rows):
        """Take CS low, send what the panel does not hold of the window and RAMWR, and
        leave DC high for the pixels; returns the bytes sent. CS stays low across the
        commands: the panel tells commands from parameters by DC alone, and each Pin
        call costs microseconds here."""
        held = self.held
        sent = 1
        self._cs(0)
        if held[_ORDER] != order:
            held[_ORDER] = order
            self._send(_MADCTL)
            self._byte[0] = order
            self._spi.write(self._byte)
            sent += 2
        if held[_COLUMNS] != columns:
            held[_COLUMNS] = columns
            self._range(_CASET, columns)
            sent += 5
        if held[_ROWS] != rows:
            held[_ROWS] = rows
            self._range(_RASET, rows)
            sent += 5
        self._send(_RAMWR)
        return sent

    def _send(self, command):
        """A command byte, and DC high for what follows."""
        self._dc(0)
        self._byte[0] = command
        self._spi.write(self._byte)
        self._dc(1)

    def _range(self, command, span):
        self._send(command)
        pack_into(">HH", self._params, 0, span >> 9, span & 0x1FF)
        self._spi.write(self._params)


class RegisterBus(PinBus):
    def __init__(self, spi, dc, cs, registers):
        from drivers import window_viper

        super().__init__(spi, dc, cs)
        self._open_window = window_viper.open_window
        self._registers = array("I", tuple(registers) + (0,))  # no DMA channel

    def _open(self, order, columns, rows):
        # Opening a window through the pins takes about 270 µs on the chip: seven pin
        # changes and four writes, each a call. This is one call of a few tens of µs.
        return self._open_window(self._registers, self.held, order, columns, rows, None, 0, 0)


class DmaBus(RegisterBus):
    in_background = True

    def __init__(self, spi, dc, cs, registers, channel, dreq):
        from drivers import window_viper

        super().__init__(spi, dc, cs, registers)
        self.finished = window_viper.finished
        self.transfer = self._registers
        self._channel = channel  # held: a channel is freed when its object is collected
        self._registers[_DMA] = window_viper.channel_base(channel.channel)
        # Bytes into the data register, paced by its DREQ; a fill reads its 4 colour
        # bytes over and over (the read address wraps on 2**2 bytes).
        self._pixels_ctrl = channel.pack_ctrl(size=0, inc_write=False, treq_sel=dreq)
        self._fill_ctrl = channel.pack_ctrl(size=0, inc_write=False, treq_sel=dreq, ring_size=2)
        self._colour = bytearray(4)  # block-aligned on the heap, as the wrap needs

    def show(self, order, columns, rows, buf):
        return self._open_window(
            self._registers, self.held, order, columns, rows, buf, len(buf), self._pixels_ctrl
        )

    def fill(self, order, columns, rows, colour, height):
        pack_into("<HH", self._colour, 0, colour, colour)  # as framebuf stores it
        count = height * _WIDTH * 2
        return self._open_window(
            self._registers, self.held, order, columns, rows, self._colour, count, self._fill_ctrl
        )
