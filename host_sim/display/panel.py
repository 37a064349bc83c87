"""A 320x240 ILI9341 or ST7789 display module, decoded from the bytes on its SPI wires.

The model follows the controllers' datasheets (MIPI DCS), not our driver:

- Frame memory is 240 columns x 320 rows of 18-bit pixels. 16-bit writes (COLMOD
  0x55) widen each 5- or 6-bit component to 6 bits by repeating its top bits; 18-bit
  writes (COLMOD 0x66, the reset value) take the top 6 bits of three bytes.
- MADCTL: MV sends CASET's address to the physical row and RASET's to the column; MX
  then reverses the physical column order and MY the row order, whatever MV is. BGR
  says which filter order the glass has.
- CASET/RASET set the window (start after end is refused); RAMWR starts at the
  window's first column and row, fills a row of the window, then the next, wraps from
  the last back to the first, and keeps going across data chunks until any other
  command. Pixels whose address falls outside the memory are dropped.
- SWRESET and a hardware reset restore MADCTL 0, COLMOD 0x66, the full window,
  INVOFF, sleep in and display off; frame memory keeps its contents (noise at power on).
- With ``strict_timing`` (the clock moves only through ``elapse_ms``), a command sent
  within 5 ms of a reset or of SLPOUT, or a SLPOUT within 120 ms of a reset, is
  ignored, as the datasheets allow; the module lists each in ``ignored``.

The module (the glass, not the controller) decides what a viewer sees: ILI9341
modules have a BGR filter and their columns wired mirrored (such a module shows a
portrait picture right way up with MADCTL MX, the libraries' default), ST7789 modules
have an RGB filter, columns in order, and normally-black IPS glass that shows every
colour inverted unless INVON. The device mounts the module in landscape with the
portrait top edge on the viewer's right; ``mounted=180`` turns the module over.
"""

import random

from host_sim.display import png

COLUMNS = 240  # frame memory, in the controller's portrait terms
ROWS = 320
WIDTH = 320  # what the viewer sees
HEIGHT = 240

SWRESET = 0x01
SLPIN = 0x10
SLPOUT = 0x11
INVOFF = 0x20
INVON = 0x21
DISPOFF = 0x28
DISPON = 0x29
CASET = 0x2A
RASET = 0x2B
RAMWR = 0x2C
MADCTL = 0x36
COLMOD = 0x3A

_MY, _MX, _MV, _BGR = 0x80, 0x40, 0x20, 0x08
_PARAMS = {CASET: 4, RASET: 4, MADCTL: 1, COLMOD: 1}

# The glass of each module: (BGR filter, columns mirrored, normally black).
MODULES = {"ili9341": (True, True, False), "st7789": (False, False, True)}

# Component widening: 5 bits (top of a byte) or 6 bits to 8, repeating the top bits.
_R5 = bytes(((v >> 3) << 3 | (v >> 5)) for v in range(256))
_B5 = bytes(((v & 31) << 3 | (v & 31) >> 2) for v in range(256))
_G_HI = bytes(((v & 7) << 5 | (v & 7) >> 1) for v in range(256))  # green's top 3 bits
_G_LO = bytes(((v >> 5) << 2) for v in range(256))  # and its low 3, disjoint bits
_C6 = bytes(((v & 0xFC) | (v >> 6)) for v in range(256))
_INVERT = bytes(255 - v for v in range(256))


def _add_bytes(a, b):
    """Elementwise sum of two byte strings whose set bits never overlap."""
    total = int.from_bytes(a, "big") + int.from_bytes(b, "big")
    return total.to_bytes(len(a), "big")


class VirtualDisplay:
    """Constructor: ``VirtualDisplay(panel="ili9341", mounted=0, strict_timing=False)``.

    Feeding: ``receive(dc, data)`` (dc 0 a command byte or bytes, 1 data), ``reset()``
    (the RST line released after a low pulse), ``elapse_ms(ms)``.

    Reading: ``pixel(x, y)`` -> ``(r, g, b)`` as the viewer sees it, ``rgb()`` (the
    whole view, rows top down), ``png(scale=1)``, ``save_png(path, scale=1)``,
    ``mark()`` then ``changed()`` (viewer pixels whose colour changed since) and
    ``changed_box()``; ``showing`` (awake and on), ``revision`` (counts every change
    that can alter the view, so a window redraws only when it moved), ``bytes_received``,
    ``commands`` (every command byte in order), ``ignored``.
    """

    def __init__(self, panel="ili9341", mounted=0, strict_timing=False):
        if panel not in MODULES:
            raise ValueError("panel is one of %s" % sorted(MODULES))
        if mounted not in (0, 180):
            raise ValueError("mounted is 0 or 180")
        self.panel = panel
        self.mounted = mounted
        self._bgr_glass, self._mirrored, self._normally_black = MODULES[panel]
        self.strict_timing = strict_timing
        noise = random.Random(panel).randbytes(COLUMNS * ROWS * 3)
        self._planes = [bytearray(noise[i::3]) for i in range(3)]
        self._view_index = self._viewer_to_memory()
        self.bytes_received = 0
        self.commands = []
        self.ignored = []
        self.now_ms = 0.0
        self.revision = 0
        self._marked = None
        self._power_on()

    # The wires.

    def reset(self):
        """RST released after a low pulse: the controller restarts, and the datasheet's
        waits count from now. Frame memory is kept."""
        self._power_on()
        self._busy_until = self.now_ms + 5
        self._reset_at = self.now_ms

    def elapse_ms(self, ms):
        self.now_ms += ms

    def receive(self, dc, data):
        data = bytes(data)
        self.bytes_received += len(data)
        if not data:
            return
        if dc == 0:
            for command in data:
                self._command(command)
            return
        if self._current == RAMWR:
            self._pixels(data)
        elif self._current in _PARAMS:
            self._params.extend(data)
            need = _PARAMS[self._current]
            if len(self._params) >= need:
                self._apply(self._current, bytes(self._params[:need]))
                self._current = None
        # Parameters of commands outside the model (power, gamma) change no pixel.

    # What the viewer sees.

    @property
    def showing(self):
        return self._awake and self._on

    def rgb(self):
        """The view: ``WIDTH * HEIGHT * 3`` bytes, rows top down; black while not showing."""
        if not self.showing:
            return bytes(WIDTH * HEIGHT * 3)
        index = self._view_index
        planes = [bytes(map(plane.__getitem__, index)) for plane in self._planes]
        if self._bgr != self._bgr_glass:
            planes.reverse()
        if self._inverted != self._normally_black:
            planes = [p.translate(_INVERT) for p in planes]
        out = bytearray(WIDTH * HEIGHT * 3)
        for i in range(3):
            out[i::3] = planes[i]
        return bytes(out)

    def pixel(self, x, y):
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            raise IndexError("(%d, %d) is off the %dx%d screen" % (x, y, WIDTH, HEIGHT))
        if not self.showing:
            return (0, 0, 0)
        i = self._view_index[y * WIDTH + x]
        rgb = [plane[i] for plane in self._planes]
        if self._bgr != self._bgr_glass:
            rgb.reverse()
        if self._inverted != self._normally_black:
            rgb = [255 - v for v in rgb]
        return tuple(rgb)

    def png(self, scale=1):
        return png.encode(WIDTH, HEIGHT, self.rgb(), scale)

    def save_png(self, path, scale=1):
        with open(path, "wb") as f:
            f.write(self.png(scale))

    def mark(self):
        """Remember the view, for ``changed()``."""
        self._marked = self.rgb()

    def changed(self):
        """The set of viewer ``(x, y)`` whose colour differs from the last ``mark()``."""
        if self._marked is None:
            raise RuntimeError("mark() first")
        now = self.rgb()
        row = WIDTH * 3
        out = set()
        for y in range(HEIGHT):
            a = self._marked[y * row : (y + 1) * row]
            b = now[y * row : (y + 1) * row]
            if a != b:
                out.update(
                    (x, y) for x in range(WIDTH) if a[x * 3 : x * 3 + 3] != b[x * 3 : x * 3 + 3]
                )
        return out

    def changed_box(self):
        """``(x, y, w, h)`` around every changed pixel, or None."""
        points = self.changed()
        if not points:
            return None
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)

    # The controller.

    def _power_on(self):
        self.revision += 1
        self._madctl = 0
        self._colmod = 0x66
        self._bgr = False
        self._inverted = False
        self._awake = False
        self._on = False
        self._columns = (0, COLUMNS - 1)
        self._rows = (0, ROWS - 1)
        self._current = None
        self._params = bytearray()
        self._pending = b""
        self._busy_until = float("-inf")
        self._reset_at = float("-inf")

    def _command(self, command):
        self.commands.append(command)
        if self.strict_timing and (
            self.now_ms < self._busy_until
            or (command == SLPOUT and self.now_ms < self._reset_at + 120)
        ):
            self.ignored.append((self.now_ms, command))
            self._current = None
            return
        self._current = command
        self._params = bytearray()
        self.revision += 1
        if command == SWRESET:
            self._power_on()
            self._busy_until = self.now_ms + 5
            self._reset_at = self.now_ms
        elif command == SLPOUT:
            self._awake = True
            self._busy_until = self.now_ms + 5
        elif command == SLPIN:
            self._awake = False
            self._busy_until = self.now_ms + 5
        elif command in (INVON, INVOFF):
            self._inverted = command == INVON
        elif command in (DISPON, DISPOFF):
            self._on = command == DISPON
        elif command == RAMWR:
            self._column, self._row = self._columns[0], self._rows[0]
            self._pending = b""

    def _apply(self, command, params):
        self.revision += 1
        if command == MADCTL:
            self._madctl = params[0]
            self._bgr = bool(params[0] & _BGR)
        elif command == COLMOD:
            self._colmod = params[0]
        else:
            start = params[0] << 8 | params[1]
            end = params[2] << 8 | params[3]
            if start > end:
                self.ignored.append((self.now_ms, command))
            elif command == CASET:
                self._columns = (start, end)
            else:
                self._rows = (start, end)

    def _pixels(self, data):
        bpp = 2 if self._colmod & 0x07 == 0x05 else 3
        if self._colmod & 0x07 not in (0x05, 0x06):
            raise NotImplementedError("COLMOD 0x%02x: only 16- and 18-bit pixels" % self._colmod)
        data = self._pending + data
        whole = len(data) - len(data) % bpp
        self._pending = data[whole:]
        pos = 0
        first_col, last_col = self._columns
        while pos < whole:
            run = min((whole - pos) // bpp, last_col - self._column + 1)
            self._store_run(data[pos : pos + run * bpp], bpp, run)
            pos += run * bpp
            self._column += run
            if self._column > last_col:
                self._column = first_col
                self._row += 1
                if self._row > self._rows[1]:
                    self._row = self._rows[0]

    def _store_run(self, data, bpp, count):
        """Pixels at the window's current row, from the current column on."""
        if bpp == 2:
            hi, lo = data[0::2], data[1::2]
            components = (
                hi.translate(_R5),
                _add_bytes(hi.translate(_G_HI), lo.translate(_G_LO)),
                lo.translate(_B5),
            )
        else:
            components = tuple(data[i::3].translate(_C6) for i in range(3))
        mv = self._madctl & _MV
        # The address space the MCU writes in: MV swaps which of CASET/RASET is the row.
        max_col, max_row = (ROWS - 1, COLUMNS - 1) if mv else (COLUMNS - 1, ROWS - 1)
        row = self._row
        if row > max_row:
            return
        first = self._column
        last = min(first + count - 1, max_col)
        if last < first:
            return
        n = last - first + 1
        components = tuple(c[:n] for c in components)
        start = self._memory_index(first, row)
        step = self._memory_index(first + 1, row) - start if n > 1 else 1
        stop = start + step * (n - 1) + (1 if step > 0 else -1)
        self.revision += 1
        for plane, values in zip(self._planes, components, strict=True):
            plane[start : stop if stop >= 0 else None : step] = values

    def _memory_index(self, column, row):
        """Frame memory index of the MCU's (CASET, RASET) address under MADCTL."""
        madctl = self._madctl
        pc, pr = (row, column) if madctl & _MV else (column, row)
        if madctl & _MX:
            pc = COLUMNS - 1 - pc
        if madctl & _MY:
            pr = ROWS - 1 - pr
        return pr * COLUMNS + pc

    def _viewer_to_memory(self):
        """For each viewer pixel, rows top down, the frame memory index it shows."""
        index = []
        for y in range(HEIGHT):
            for x in range(WIDTH):
                lx, ly = (WIDTH - 1 - x, HEIGHT - 1 - y) if self.mounted == 180 else (x, y)
                # Landscape: the portrait top edge is on the right.
                vx, vy = ly, WIDTH - 1 - lx
                pc = COLUMNS - 1 - vx if self._mirrored else vx
                index.append(vy * COLUMNS + pc)
        return index
