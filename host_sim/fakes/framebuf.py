"""A CPython fake of MicroPython's ``framebuf``, pixel-exact with the real one.

Every primitive follows MicroPython's ``extmod/modframebuf.c`` step by step (clipping,
the line and ellipse walks, the polygon scan), so a scene drawn here has the same bytes
as on the device; ``tests/test_framebuf_fake.py`` checks that against the real module on
the MicroPython VM. Pixels sit in the given buffer exactly as there: RGB565 as
little-endian 16-bit words, the mono formats as bits. Text uses MicroPython's built-in
8x8 font, whose glyphs were taken from the real ``framebuf`` by drawing each character.
"""

MONO_VLSB = 0
MVLSB = MONO_VLSB
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

# Bits per pixel, for the buffer-size check the constructor makes.
_BPP = {MONO_VLSB: 1, RGB565: 16, GS4_HMSB: 4, MONO_HLSB: 1, MONO_HMSB: 1, GS2_HMSB: 2, GS8: 8}

_ELLIPSE_FILL = 0x10
_ELLIPSE_ALL = 0x0F

# Characters 32..127, eight bytes each: one byte a column, least significant bit at the top.
_FONT = bytes.fromhex(
    "00000000000000000000004f4f0000000007070000070700147f7f14147f7f14"  #  !"#
    "00242e6b6b3a1200006333180c66630000327f4d4d7772500000000406030100"  # $%&'
    "00001c3e63410000000041633e1c0000082a3e1c1c3e2a080008083e3e080800"  # ()*+
    "000080e0600000000008080808080800000000606000000000406030180c0602"  # ,-./
    "003e7f49457f3e000040447f7f40400000627351494f460000226349497f3600"  # 0123
    "00181814167f7f1000276745457d3900003e7f49497b3200000303797d070300"  # 4567
    "00367f49497f360000266f49497f3e000000002424000000000080e464000000"  # 89:;
    "00081c3663414100001414141414140000414163361c080000020351590f0600"  # <=>?
    "003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600003e7f4141632200"  # @ABC
    "007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00"  # DEFG
    "007f7f08087f7f000000417f7f410000002060417f3f0100007f7f1c36634100"  # HIJK
    "007f7f4040404000007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00"  # LMNO
    "007f7f09090f0600001e3f21617f5e00007f7f19396f460000266f49497b3200"  # PQRS
    "0001017f7f010100003f7f40407f3f00001f3f60603f1f00007f7f3018307f7f"  # TUVW
    "0063771c1c77630000070f78780f0700006171594d47430000007f7f41410000"  # XYZ[
    "0002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c0"  # \\]^_
    "000001030604000000207454547c7800007f7f44447c380000387c44446c2800"  # `abc
    "00387c44447f7f0000387c54545c580000087e7f090302000098bca4a4fc7c00"  # defg
    "007f7f04047c78000000007d7d0000000040c08080fd7d00007f7f30386c4400"  # hijk
    "0000417f7f400000007c7c1830187c7c007c7c04047c780000387c44447c3800"  # lmno
    "00fcfc24243c180000183c2424fcfc00007c7c04040c080000485c5454742000"  # pqrs
    "04043f7f44642000003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c"  # tuvw
    "00446c38386c4400009cbca0a0fc7c00004464745c4c44000008083e77414100"  # xyz{
    "000000ffff000000004141773e0808000002030103020301aa55aa55aa55aa55"  # |}~, fallback
)


class FrameBuffer:
    """``FrameBuffer(buffer, width, height, format[, stride])`` drawing into ``buffer``."""

    def __init__(self, buffer, width, height, format, stride=None):
        if format not in _BPP:
            raise ValueError("invalid format")
        if stride is None:
            stride = width
        height_required = height
        if format == MONO_VLSB:
            height_required = (height + 7) & ~7
        elif format in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
        elif format == GS2_HMSB:
            stride = (stride + 3) & ~3
        elif format == GS4_HMSB:
            stride = (stride + 1) & ~1
        if height_required * stride * _BPP[format] // 8 > len(buffer):
            raise ValueError()
        self._buf = memoryview(buffer).cast("B")
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format

    # One pixel, coordinates already inside the buffer.

    def _set(self, x, y, c):
        buf = self._buf
        fmt = self.format
        if fmt == RGB565:
            i = (x + y * self.stride) * 2
            buf[i] = c & 0xFF
            buf[i + 1] = (c >> 8) & 0xFF
        elif fmt == GS8:
            buf[x + y * self.stride] = c & 0xFF
        elif fmt == MONO_VLSB:
            i = (y >> 3) * self.stride + x
            bit = 1 << (y & 7)
            buf[i] = (buf[i] | bit) if c else (buf[i] & ~bit & 0xFF)
        elif fmt in (MONO_HLSB, MONO_HMSB):
            i = (x + y * self.stride) >> 3
            bit = 1 << ((x & 7) if fmt == MONO_HMSB else 7 - (x & 7))
            buf[i] = (buf[i] | bit) if c else (buf[i] & ~bit & 0xFF)
        elif fmt == GS2_HMSB:
            i = (x + y * self.stride) >> 2
            shift = (x & 3) << 1
            buf[i] = ((c & 3) << shift) | (buf[i] & ~(3 << shift) & 0xFF)
        else:  # GS4_HMSB
            i = (x + y * self.stride) >> 1
            if x & 1:
                buf[i] = (c & 0x0F) | (buf[i] & 0xF0)
            else:
                buf[i] = ((c << 4) & 0xF0) | (buf[i] & 0x0F)

    def _get(self, x, y):
        buf = self._buf
        fmt = self.format
        if fmt == RGB565:
            i = (x + y * self.stride) * 2
            return buf[i] | (buf[i + 1] << 8)
        if fmt == GS8:
            return buf[x + y * self.stride]
        if fmt == MONO_VLSB:
            return (buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1
        if fmt in (MONO_HLSB, MONO_HMSB):
            shift = (x & 7) if fmt == MONO_HMSB else 7 - (x & 7)
            return (buf[(x + y * self.stride) >> 3] >> shift) & 1
        if fmt == GS2_HMSB:
            return (buf[(x + y * self.stride) >> 2] >> ((x & 3) << 1)) & 3
        if x & 1:
            return buf[(x + y * self.stride) >> 1] & 0x0F
        return buf[(x + y * self.stride) >> 1] >> 4

    def _set_checked(self, x, y, c, mask):
        if mask and 0 <= x < self.width and 0 <= y < self.height:
            self._set(x, y, c)

    def _fill_clipped(self, x, y, w, h, c):
        fmt = self.format
        if fmt == RGB565:
            row = bytes((c & 0xFF, (c >> 8) & 0xFF)) * w
            step = self.stride * 2
            start = (x + y * self.stride) * 2
            for _ in range(h):
                self._buf[start : start + 2 * w] = row
                start += step
        elif fmt == GS8:
            row = bytes((c & 0xFF,)) * w
            start = x + y * self.stride
            for _ in range(h):
                self._buf[start : start + w] = row
                start += self.stride
        else:
            for yy in range(y, y + h):
                for xx in range(x, x + w):
                    self._set(xx, yy, c)

    def _fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill_clipped(x, y, xend - x, yend - y, c)

    # The public methods, as on the device.

    def fill(self, c):
        self._fill_clipped(0, 0, self.width, self.height, c)

    def fill_rect(self, x, y, w, h, c):
        self._fill_rect(x, y, w, h, c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if c is None:
                return self._get(x, y)
            self._set(x, y, c)
        return None

    def hline(self, x, y, w, c):
        self._fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self._fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self._fill_rect(x, y, w, h, c)
        else:
            self._fill_rect(x, y, w, 1, c)
            self._fill_rect(x, y + h - 1, w, 1, c)
            self._fill_rect(x, y, 1, h, c)
            self._fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        dx = x2 - x1
        sx = 1
        if dx <= 0:
            dx = -dx
            sx = -1
        dy = y2 - y1
        sy = 1
        if dy <= 0:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < self.width and 0 <= x1 < self.height:
                    self._set(y1, x1, c)
            elif 0 <= x1 < self.width and 0 <= y1 < self.height:
                self._set(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < self.width and 0 <= y2 < self.height:
            self._set(x2, y2, c)

    def _ellipse_points(self, cx, cy, x, y, c, mask):
        if mask & _ELLIPSE_FILL:
            if mask & 1:
                self._fill_rect(cx, cy - y, x + 1, 1, c)
            if mask & 2:
                self._fill_rect(cx - x, cy - y, x + 1, 1, c)
            if mask & 4:
                self._fill_rect(cx - x, cy + y, x + 1, 1, c)
            if mask & 8:
                self._fill_rect(cx, cy + y, x + 1, 1, c)
        else:
            self._set_checked(cx + x, cy - y, c, mask & 1)
            self._set_checked(cx - x, cy - y, c, mask & 2)
            self._set_checked(cx - x, cy + y, c, mask & 4)
            self._set_checked(cx + x, cy + y, c, mask & 8)

    def ellipse(self, cx, cy, xr, yr, c, f=False, m=_ELLIPSE_ALL):
        """Quadrants in ``m``: bit 0 top right, then counter-clockwise."""
        mask = (_ELLIPSE_FILL if f else 0) | (m & _ELLIPSE_ALL)
        if xr == 0 and yr == 0:
            self._set_checked(cx, cy, c, mask & _ELLIPSE_ALL)
            return
        two_asquare = 2 * xr * xr
        two_bsquare = 2 * yr * yr
        # From the widest point up to where the slope passes -1.
        x, y = xr, 0
        xchange = yr * yr * (1 - 2 * xr)
        ychange = xr * xr
        error = 0
        stoppingx, stoppingy = two_bsquare * xr, 0
        while stoppingx >= stoppingy:
            self._ellipse_points(cx, cy, x, y, c, mask)
            y += 1
            stoppingy += two_asquare
            error += ychange
            ychange += two_asquare
            if 2 * error + xchange > 0:
                x -= 1
                stoppingx -= two_bsquare
                error += xchange
                xchange += two_bsquare
        # From the top down to the same point.
        x, y = 0, yr
        xchange = yr * yr
        ychange = xr * xr * (1 - 2 * yr)
        error = 0
        stoppingx, stoppingy = 0, two_asquare * yr
        while stoppingx <= stoppingy:
            self._ellipse_points(cx, cy, x, y, c, mask)
            x += 1
            stoppingx += two_bsquare
            error += xchange
            xchange += two_bsquare
            if 2 * error + ychange > 0:
                y -= 1
                stoppingy -= two_asquare
                error += ychange
                ychange += two_asquare

    def poly(self, x, y, coords, c, f=False):
        """``coords`` holds x0, y0, x1, y1, ... (an ``array``, as on the device)."""
        n = len(coords) // 2
        if n == 0:
            return
        if not f:
            px1, py1 = coords[0], coords[1]
            for i in range(n - 1, -1, -1):
                px2, py2 = coords[2 * i], coords[2 * i + 1]
                self.line(x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
            return
        ys = [coords[2 * i + 1] for i in range(n)]
        for row in range(min(ys), max(ys) + 1):
            nodes = []
            px1, py1 = coords[0], coords[1]
            for i in range(n - 1, -1, -1):
                px2, py2 = coords[2 * i], coords[2 * i + 1]
                # The bottom pixel of each edge is left out so that edges meeting at a
                # vertex count once; local minima are patched up pixel by pixel.
                if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                    num = 32 * (px2 - px1) * (row - py1)
                    node = _cdiv(32 * px1 + _cdiv(num, py2 - py1) + 16, 32)
                    nodes.append(node)
                elif row == max(py1, py2):
                    if py1 < py2:
                        self._set_checked(x + px2, y + py2, c, 1)
                    elif py2 < py1:
                        self._set_checked(x + px1, y + py1, c, 1)
                    else:
                        self.line(x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
            nodes.sort()
            for i in range(0, len(nodes) - 1, 2):
                self._fill_rect(x + nodes[i], y + row, nodes[i + 1] - nodes[i] + 1, 1, c)

    def blit(self, source, x, y, key=-1, palette=None):
        """``source`` is a FrameBuffer or ``(buffer, width, height, format[, stride])``."""
        if isinstance(source, (tuple, list)):
            source = FrameBuffer(*source)
        if x >= self.width or y >= self.height or -x >= source.width or -y >= source.height:
            return
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = max(0, -x), max(0, -y)
        x0end = min(self.width, x + source.width)
        y0end = min(self.height, y + source.height)
        key &= 0xFFFFFFFF
        for yy in range(y0, y0end):
            cx1 = x1
            for xx in range(x0, x0end):
                col = source._get(cx1, y1)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:
                    self._set(xx, yy, col)
                cx1 += 1
            y1 += 1

    def scroll(self, xstep, ystep):
        if xstep < 0:
            sx, xend, dx = 0, self.width + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = self.width - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, self.height + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = self.height - 1, ystep - 1, -1
            if yend >= y:
                return
        while y != yend:
            x = sx
            while x != xend:
                self._set(x, y, self._get(x - xstep, y - ystep))
                x += dx
            y += dy

    def text(self, s, x0, y0, c=1):
        # MicroPython's takes a str or bytes (``mp_obj_str_get_str``), not a bytearray.
        if type(s) is not bytes and type(s) is not str:
            raise TypeError("can't convert '%s' object to str implicitly" % type(s).__name__)
        for ch in s if type(s) is bytes else s.encode("utf-8"):
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < self.width:
                    column = _FONT[base + j]
                    y = y0
                    while column:
                        if column & 1 and 0 <= y < self.height:
                            self._set(x0, y, c)
                        column >>= 1
                        y += 1
                x0 += 1


def _cdiv(a, b):
    """C's integer division, which truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q
