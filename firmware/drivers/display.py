"""ILI9341 and ST7789 320x240 SPI panels, in landscape.

Constructor: ``Display(spi, dc, cs, rst, panel="ili9341", rotation=0, sleep_ms=None,
registers=None, dma=None)`` takes a built ``machine.SPI`` and three output ``Pin``s. ``rotation``
is 0, or 180 for a panel mounted upside down. ``sleep_ms`` waits between init steps
(``time.sleep_ms`` unless given). ``registers``, on an RP2040, is ``(SPI block base, SIO
base, DC pin mask, CS pin mask)``: windows are then opened through them in viper code
(``drivers.window_viper``), where the port compiles it; ``dma``, with them, is an
``rp2.DMA`` channel and the SPI's transmit DREQ as a pair: pixels then go out by DMA
while the CPU goes on. The constructor resets the panel, sets it up, clears it to
black and turns it on.

Methods: ``show(x, y, w, h, buf)`` sends a window of RGB565 pixels: ``buf`` is exactly
``w * h * 2`` bytes as ``framebuf.FrameBuffer(buf, w, h, framebuf.RGB565)`` wrote them,
and goes out as it is, so the colours given to framebuf are byte-swapped RGB565 (the
panel reads each pixel big-endian). ``fill(colour)`` paints the whole screen with a
colour in that same form, through one small strip buffer, and ``fill_rows(colour, y, h)``
paints rows ``y`` to ``y + h - 1`` alone (``h`` even), so that a clear can go out a band
at a time. None of them allocates. With DMA they return once the transfer has started:
``busy()`` is True until its last byte is out, ``wait()`` waits for that, and the
buffer given to ``show`` must stay as it is until then (the next window waits itself).

Attributes: ``width``, ``height`` (320, 240); ``bytes_sent``, every byte put on the bus
so far, commands included; ``in_background``: pixels go out by DMA; ``sending``: a
transfer was started and not yet seen finished.

Both panels are 240x320 portrait controllers speaking MIPI DCS: MADCTL turns the
address space so that column 0, row 0 is the top left as the player sees the screen,
CASET/RASET open a window and RAMWR fills it row by row. Where the panels differ
(colour filter order, inversion, power settings) is in ``_PANELS``.
"""

from array import array
from struct import pack_into

import framebuf
from micropython import const

_SWRESET = const(0x01)
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
_STRIP_ROWS = const(4)  # rows per write in fill(): 2,560 bytes of buffer
_NO_RANGE = 0xFFFFFFFF  # no column or row range sent yet (beyond a small int: no const)

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


def _system_sleep_ms():
    import time

    try:
        return time.sleep_ms
    except AttributeError:  # CPython
        return lambda ms: time.sleep(ms / 1000)


class Display:
    width = _WIDTH
    height = _HEIGHT

    def __init__(
        self,
        spi,
        dc,
        cs,
        rst,
        panel="ili9341",
        rotation=0,
        sleep_ms=None,
        registers=None,
        dma=None,
    ):
        if panel not in _PANELS:
            raise ValueError("panel is 'ili9341' or 'st7789'")
        if rotation not in (0, 180):
            raise ValueError("rotation is 0 or 180")
        self._spi = spi
        self._dc = dc
        self._cs = cs
        self._rst = rst
        self.bytes_sent = 0
        self._command = bytearray(1)
        self._params = bytearray(4)
        self._strip = bytearray(_WIDTH * _STRIP_ROWS * 2)
        self._strip_fb = framebuf.FrameBuffer(self._strip, _WIDTH, _STRIP_ROWS, framebuf.RGB565)
        self._half_strip = memoryview(self._strip)[: _WIDTH * _STRIP_ROWS]  # 2 rows
        self._strip_colour = -1  # what the strip holds (filling it is 0.1 ms on the chip)
        self._columns = -1  # the column and row ranges the panel holds, as start << 9 | end
        self._rows = -1
        self._registers = None
        self._open = None
        self._show = None
        self.in_background = False
        self.sending = False
        if registers is not None:
            try:
                from drivers import window_viper

                self._open = window_viper.open_window
                if dma is not None:
                    self._take_dma(window_viper, registers, dma)
                else:
                    self._registers = array("I", registers)
            except (ImportError, SyntaxError, ValueError):
                pass  # no viper here: the pins and the bus serve
        self._ranges = bytearray((_CASET, 0, 0, 0, 0, _RASET, 0, 0, 0, 0))
        madctl, invert, power = _PANELS[panel]
        if rotation == 180:
            madctl ^= _MX | _MY
        self._init(madctl, invert, power, sleep_ms or _system_sleep_ms())

    def _take_dma(self, window_viper, registers, dma):
        channel, dreq = dma
        self._channel = channel  # held: a channel is freed when its object is collected
        base = window_viper.channel_base(channel.channel)
        # The column and row ranges the panel holds live here, for ``window_viper.show``.
        self._registers = array("I", tuple(registers) + (base, _NO_RANGE, _NO_RANGE))
        self._show = window_viper.show
        self._finished = window_viper.finished
        # Bytes into the data register, paced by its DREQ; a fill reads its 4 colour
        # bytes over and over (the read address wraps on 2**2 bytes).
        self._pixels_ctrl = channel.pack_ctrl(size=0, inc_write=False, treq_sel=dreq)
        self._fill_ctrl = channel.pack_ctrl(size=0, inc_write=False, treq_sel=dreq, ring_size=2)
        self._colour = bytearray(4)  # block-aligned on the heap, as the wrap needs
        self.in_background = True

    def busy(self):
        """True while pixels sent by DMA are still going out."""
        if self.sending and self._finished(self._registers):
            self.sending = False
        return self.sending

    def wait(self):
        """Until the last pixel sent by DMA is out."""
        while self.sending:
            self.busy()

    def _init(self, madctl, invert, power, wait):
        self._cs(1)
        self._dc(0)
        # Hardware reset (a low pulse of at least 10 us; commands 5 ms after it), then
        # a software one, after which sleep out must wait 120 ms. Each wait has a margin:
        # sleep_ms can end a hair early.
        self._rst(0)
        wait(1)
        self._rst(1)
        wait(10)
        self._send(_SWRESET)
        wait(125)
        self._send(_SLPOUT)
        wait(120)  # the supplies settle; 5 ms is the minimum before the next command
        self._send(_COLMOD, bytes((_COLMOD_16BIT,)))
        self._send(_MADCTL, bytes((madctl,)))
        for command, params in power:
            self._send(command, params)
        if invert:
            self._send(_INVON)
        self._send(_NORON)
        # Clear before the glass turns on, so the memory's power-on noise never shows.
        self.fill(0)
        self._send(_DISPON)

    def _send(self, command, params=None):
        """One command and its parameters, with CS held low for both."""
        self.wait()
        self._command[0] = command
        self._cs(0)
        self._dc(0)
        self._spi.write(self._command)
        count = 1
        if params is not None:
            self._dc(1)
            self._spi.write(params)
            count += len(params)
        self._cs(1)
        self.bytes_sent += count

    def _window(self, x, y, w, h):
        """Open the window and start RAMWR, leaving CS low and DC high for the pixels.

        CS stays low across the commands: the panel tells commands from parameters by
        DC alone, and each Pin call costs microseconds here. The panel keeps its column
        and row range until told otherwise, so a range the last window had is not sent
        again (a row of text pieces shares its rows, a card's bands their columns)."""
        if self.sending:
            self.wait()
        which = 0  # bit 0: the column range changed, bit 1: the row range
        columns = x << 9 | (x + w - 1)
        if columns != self._columns:
            self._columns = columns
            which = 1
        rows = y << 9 | (y + h - 1)
        if rows != self._rows:
            self._rows = rows
            which |= 2
        self.bytes_sent += 1 + 5 * (which & 1) + 5 * (which >> 1)
        if self._open is not None:  # the same bytes through the registers, one call
            if which & 1:
                pack_into(">HH", self._ranges, 1, x, x + w - 1)
            if which & 2:
                pack_into(">HH", self._ranges, 6, y, y + h - 1)
            self._open(self._registers, self._ranges, which)
            return
        self._cs(0)
        if which & 1:
            self._range(_CASET, x, x + w - 1)
        if which & 2:
            self._range(_RASET, y, y + h - 1)
        self._dc(0)
        self._command[0] = _RAMWR
        self._spi.write(self._command)
        self._dc(1)

    def _send_window(self, x, y, w, h, pixels, count, ctrl):
        """A window's commands and its ``count`` bytes from ``pixels`` by DMA, in one
        viper call: a window a call costs about 0.2 ms on the chip through ``_window``."""
        if self.sending:
            self.wait()
        self.bytes_sent += count + self._show(
            self._registers, x << 9 | (x + w - 1), y << 9 | (y + h - 1), pixels, count, ctrl
        )
        self.sending = True

    def _range(self, command, start, end):
        self._dc(0)
        self._command[0] = command
        self._spi.write(self._command)
        pack_into(">HH", self._params, 0, start, end)
        self._dc(1)
        self._spi.write(self._params)

    def show(self, x, y, w, h, buf):
        if x < 0 or y < 0 or w < 1 or h < 1 or x + w > _WIDTH or y + h > _HEIGHT:
            raise ValueError("window is off the screen")
        if len(buf) != w * h * 2:
            raise ValueError("buffer is not w * h * 2 bytes")
        if self.in_background:
            self._send_window(x, y, w, h, buf, len(buf), self._pixels_ctrl)
            return
        self._window(x, y, w, h)
        self.bytes_sent += len(buf)
        self._spi.write(buf)
        self._cs(1)

    def fill(self, colour):
        self.fill_rows(colour, 0, _HEIGHT)

    def fill_rows(self, colour, y, h):
        if y < 0 or h < 1 or y + h > _HEIGHT or h % 2:
            raise ValueError("rows are off the screen or not an even number")
        if self.in_background:
            pack_into("<HH", self._colour, 0, colour, colour)  # as framebuf stores it
            self._send_window(0, y, _WIDTH, h, self._colour, _WIDTH * h * 2, self._fill_ctrl)
            return
        self._window(0, y, _WIDTH, h)
        self.bytes_sent += _WIDTH * h * 2
        if colour != self._strip_colour:
            self._strip_fb.fill(colour)
            self._strip_colour = colour
        # One RAMWR: the panel's address counter runs on from strip to strip.
        for _ in range(h // _STRIP_ROWS):
            self._spi.write(self._strip)
        if h % _STRIP_ROWS:
            self._spi.write(self._half_strip)
        self._cs(1)
