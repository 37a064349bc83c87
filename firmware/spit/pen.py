"""The pen: paints one small window at a time and sends it to the display.

Constructor: ``Pen(display, framebuf)``. ``display`` has ``show(x, y, w, h, buf)`` (a
window of RGB565 pixels, sent as they are), ``show_turned`` (the same window turned
half a turn: the panel writes it in the opposite address order) and, where its pixels
go out by DMA, ``in_background``, ``sending`` and ``wait()``; ``framebuf`` is the module
to draw with (the real one on the device, the host's fake in the simulator), so this
module stays pure.

There is no frame buffer: one work buffer (``WORK_BYTES``) backs FrameBuffer views of
fixed shapes (``view``), made once, so painting allocates nothing. A window is begun at
a position as player 1 sees it (``begin``: filled with a colour, or copied from a
picture of the same shape), painted, and sent (``end``, or ``end_turned``).

Player 2's copies are painted turned 180 degrees about the frame: the screen, or the
rectangle ``frame`` names for the next window. Rectangles are mirrored by arithmetic.
A picture (``picture``) is a 1-bit bitmap made once both ways up (a ``MONO_HLSB``
bitmap with its bytes in reverse order, read as ``MONO_HMSB``, is the same bitmap
turned 180 degrees, shifted by its row padding), and the rectangles it is made of:
where the port runs viper code, those are painted (``twins.ink``), upright or turned,
else the bitmap is blitted in colour. Text is 8x8 text: player 2's short texts are
labels (pictures made once, ``label``), a row across the screen is drawn upright and
sent turned (``text_row``), and big text is 8x8 text magnified, each run of set bits in
a glyph row one rectangle (``twins.glyph_row_shape``), painted as a glyph is.

Colours are RGB565 with their two bytes swapped: framebuf stores a pixel little-endian
and the panel reads it big-endian.
"""

from array import array

from micropython import const

from spit.layout import HEIGHT, MESSAGE_H, MESSAGE_Y, WIDTH, WORK_BYTES
from spit.twins import glyph_row_shape, ink

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
isinstance, len = isinstance, len


def colour(r, g, b):
    """The framebuf value of an 8-bit-per-channel colour (RGB565, bytes swapped)."""
    value = (r & 0xF8) << 8 | (g & 0xFC) << 3 | b >> 3
    return (value & 0xFF) << 8 | value >> 8


# The palette, as ``colour()`` gives it (tests check each one).
FELT = const(0x2603)  # (0, 100, 50): the table
FACE = const(0xDEFF)  # (250, 250, 240): a card's face
INK = const(0x0000)  # black suits
RED = const(0x00C8)  # (200, 0, 0): red suits
BACK = const(0xF519)  # (30, 60, 170): a hidden card's edge
OUTLINE = const(0xE210)  # (20, 30, 20)
EDGE = const(0x5BEF)  # (235, 235, 220): a card's edge in a spit pile
SHADOW = const(0x273A)  # (60, 70, 60)
HIGHLIGHT = const(0x80FE)  # (255, 210, 0): the selected card, prompts, a SPIT call
WHITE = const(0xFFFF)
DIM = const(0x6D5C)  # (90, 140, 110): empty places
CPU_TAG = const(0x5F7E)  # (120, 200, 255)

# A picture: ``(upright, turned, width, height, pad, shape)`` (``picture``).
_UPRIGHT = const(0)
_TURNED = const(1)
PICTURE_W = const(2)
PICTURE_H = const(3)
_PAD = const(4)  # the turned bitmap's row padding, which lies on its left
_SHAPE = const(5)  # ``ink``'s: the size, then left, top, width, height a rectangle
# A view: ``(FrameBuffer, buffer, width, height)`` (``view``).
_FB = const(0)
_BUF = const(1)
_VIEW_W = const(2)
_VIEW_H = const(3)
# ``ink``'s spec: the window's size, the shape's top left in it, the colour, turned.
_SPEC_W = const(0)
_SPEC_H = const(1)
_SPEC_X = const(2)
_SPEC_Y = const(3)
_SPEC_COLOUR = const(4)
_SPEC_TURNED = const(5)
# ``glyph_row_shape``'s spec: the glyph row, the characters, the scale.
_BIG_ROW = const(0)
_BIG_CHARS = const(1)
_BIG_SCALE = const(2)

PIECE_W = const(40)  # an eighth of a row across the screen: a region of text
_LINE_CHARS = const(40)  # a row of 8x8 text across the screen
_LINE_BYTES = const(_LINE_CHARS * 8)  # that row as a 1-bit bitmap
_NO_BITS = bytes(_LINE_BYTES)
DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
# The characters a text given by its codes may hold (the margin banner's), as bytes, which
# framebuf's text takes as it takes a string: drawn without making a string.
CODED = b" -.0123456789EIPTbelmrsuy"


def picture(framebuf, buf, width, height, shape):
    """A 1-bit bitmap ``buf`` and its 180-degree turn, and the bitmap as ``ink`` paints it
    (``shape``: its size, then left, top, width and height a rectangle), or None (a label
    of 8x8 text, which is blitted: finding its rectangles would cost more than blitting it)."""
    turned = bytearray(reversed(buf))
    stride = (width + 7) & ~7
    return (
        framebuf.FrameBuffer(buf, width, height, framebuf.MONO_HLSB),
        framebuf.FrameBuffer(turned, stride, height, framebuf.MONO_HMSB),
        width,
        height,
        stride - width,
        shape,
    )


def shaped(width, height, rects):
    """A picture that is only its shape, painted as a glyph is: ``rects`` (bytes, or a
    bytearray rewritten between paintings) after its size."""
    return (None, None, width, height, 0, rects)


class Pen:
    def __init__(self, display, framebuf):
        self.display = display
        self.framebuf = framebuf
        # Pixels that go out by DMA (the device) leave the bus busy after a window: the
        # next one waits for them before it reuses the buffer.
        self._background = getattr(display, "in_background", False)
        self._work = memoryview(bytearray(WORK_BYTES))
        self._views = {}  # by shape (``view``)
        self._ink_spec = array("i", (0, 0, 0, 0, 0, 0))
        self._big_spec = array("i", (0, 0, 1))
        # The window being painted, its screen origin, and the mirror that turns a
        # player-1 position into player 2's (about the frame's centre).
        self._fb = None
        self._buf = None
        self._x = 0
        self._y = 0
        self._w = 0
        self._h = 0
        self._flip = False
        self._mx = WIDTH
        self._my = HEIGHT
        # A glyph or a shape is painted where viper code runs, else blitted or filled
        # rectangle by rectangle: bound once, not asked at each call.
        self.glyph = self.blit if ink is None else self._ink
        self.shape = self._rects if ink is None else self._ink
        self._palettes = {}
        self._labels = {}  # made once each (``label``), before they are drawn
        self._mono = None
        self._mono_fb = None
        self._message_row = None
        self._row_piece = None
        self.glyphs = ()  # ``CODED``'s characters, one bytes each, by code less 32
        # The message row's text (``set_message``): a string, or None and codes.
        self._message_text = ""
        self._message_codes = b""
        self._message_count = 0
        self._message_x = 0
        self._message_colour = 0

    def make_text(self):
        """Make what text needs, once: after the biggest pictures, which need the heap
        in one piece. Palettes blit a 1-bit bitmap in one colour, leaving the rest as it
        was; 8x8 text is laid out in a 1-bit row to magnify (``big``); rows of text go
        across the screen, or an eighth of it."""
        for colour in (INK, RED, WHITE, HIGHLIGHT, DIM, CPU_TAG):
            self._palette(colour)
        self._mono = bytearray(_LINE_BYTES)
        self._mono_fb = self.framebuf.FrameBuffer(self._mono, WIDTH, 8, self.framebuf.MONO_HLSB)
        self._message_row = self.view(WIDTH, MESSAGE_H)
        self._row_piece = self.view(PIECE_W, MESSAGE_H)
        glyphs = [None] * 95
        for i in range(len(CODED)):
            glyphs[CODED[i] - 32] = CODED[i : i + 1]
        self.glyphs = glyphs

    # -- made once ----------------------------------------------------------------

    def view(self, w, h):
        """A FrameBuffer of ``w`` by ``h`` pixels on the work buffer, made once for each
        shape."""
        key = w << 10 | h
        view = self._views.get(key)
        if view is None:
            buf = self._work[: w * h * 2]
            fb = self.framebuf.FrameBuffer(buf, w, h, self.framebuf.RGB565)
            view = self._views[key] = (fb, buf, w, h)
        return view

    def row_view(self, width):
        """The view of a row of text across the screen, or of a piece of it."""
        return self._message_row if width == WIDTH else self._row_piece

    def label(self, text):
        """A short text as a picture both ways up, made once and kept."""
        label = self._labels.get(text)
        if label is None:
            fbm = self.framebuf
            width = 8 * len(text)
            buf = bytearray(width)
            fbm.FrameBuffer(buf, width, 8, fbm.MONO_HLSB).text(text, 0, 0, 1)
            label = picture(fbm, buf, width, 8, None)
            self._labels[text] = label
        return label

    def _palette(self, colour):
        fbm = self.framebuf
        palette = fbm.FrameBuffer(bytearray(4), 2, 1, fbm.RGB565)
        palette.pixel(0, 0, colour ^ 0xFFFF)  # any colour but the ink: the key
        palette.pixel(1, 0, colour)
        self._palettes[colour] = palette

    # -- a window ---------------------------------------------------------------

    def frame(self, x, y, w, h, turned=False):
        """Player 2's copies in the next window (or, ``turned``, what follows in this one:
        a spit pile's card carries both copies of its index) turn about this rectangle's
        centre rather than the screen's."""
        self._mx = 2 * x + w
        self._my = 2 * y + h
        if turned:
            self._flip = True
            self._ink_spec[_SPEC_TURNED] = True

    def begin(self, view, x, y, flip, background):
        """Start a window of ``view``'s shape at player-1 position ``x, y`` (player 2's
        copy when ``flip``), filled with a colour or copied from a picture of the same
        shape (bytes)."""
        if flip:
            x = self._mx - x - view[_VIEW_W]
            y = self._my - y - view[_VIEW_H]
        self._fb = view[_FB]
        self._buf = view[_BUF]
        self._x = x
        self._y = y
        self._w = view[_VIEW_W]
        self._h = view[_VIEW_H]
        self._flip = flip
        spec = self._ink_spec  # the window's, for the glyphs painted in it
        spec[_SPEC_W] = self._w
        spec[_SPEC_H] = self._h
        spec[_SPEC_TURNED] = flip
        if self._background and self.display.sending:
            self.display.wait()  # the last window's pixels still come from this buffer
        if isinstance(background, int):
            view[_FB].fill(background)
        else:
            view[_BUF][:] = background  # a copy in C, and no allocation

    def end(self):
        self.display.show(self._x, self._y, self._w, self._h, self._buf)
        self._mx = WIDTH
        self._my = HEIGHT

    def end_turned(self):
        """The window, painted upright at player 1's position, as player 2's copy: sent
        turned (``show_turned``) to the mirror of that position."""
        x = self._mx - self._x - self._w
        self.display.show_turned(x, self._my - self._y - self._h, self._w, self._h, self._buf)
        self._mx = WIDTH
        self._my = HEIGHT

    def end_for(self, player):
        """A window painted upright at player 1's place, sent as ``player``'s."""
        if player == 1:
            self.end_turned()
        else:
            self.end()

    # -- painting -----------------------------------------------------------------

    def rect(self, x, y, w, h, c):
        if self._flip:
            x = self._mx - x - w
            y = self._my - y - h
        self._fb.fill_rect(x - self._x, y - self._y, w, h, c)

    def blit(self, bitmap, x, y, colour):
        """A picture's bitmap in ``colour``, its top left at ``x, y`` as player 1 sees it."""
        ink_key = colour ^ 0xFFFF
        palette = self._palettes[colour]
        if self._flip:
            x = self._mx - x - bitmap[PICTURE_W] - bitmap[_PAD]
            y = self._my - y - bitmap[PICTURE_H]
            self._fb.blit(bitmap[_TURNED], x - self._x, y - self._y, ink_key, palette)
        else:
            self._fb.blit(bitmap[_UPRIGHT], x - self._x, y - self._y, ink_key, palette)

    def _ink(self, bitmap, x, y, colour):
        """``ink``'s painting of a picture's shape in ``colour``, its top left at ``x, y``
        as player 1 sees it; nothing when it lies above or below the window (a band)."""
        if self._flip:
            x = self._mx - x - bitmap[PICTURE_W]
            y = self._my - y - bitmap[PICTURE_H]
        y -= self._y
        if y >= self._h or y + bitmap[PICTURE_H] <= 0:
            return
        spec = self._ink_spec
        spec[_SPEC_X] = x - self._x
        spec[_SPEC_Y] = y
        spec[_SPEC_COLOUR] = colour
        ink(self._buf, bitmap[_SHAPE], spec)

    def _rects(self, shape, x, y, colour):
        """A picture's shape in ``colour``, its top left at ``x, y``, rectangle by
        rectangle (``shape`` where viper code cannot run)."""
        rects = shape[_SHAPE]
        for i in range(2, len(rects), 4):
            self.rect(x + rects[i], y + rects[i + 1], rects[i + 2], rects[i + 3], colour)

    def text(self, text, x, y, colour):
        """8x8 text with its top left at ``x, y`` (as player 1 reads it); player 2's copy
        is a label's turned bitmap."""
        if self._flip:
            self.blit(self._labels[text], x, y, colour)
        else:
            self._fb.text(text, x - self._x, y - self._y, colour)

    def number(self, n, x, y, colour):
        """``n`` (0 to 999) in 8x8 digits, without building a string (player 2's copy
        from the digits' labels)."""
        place = 1 if n < 10 else 10 if n < 100 else 100
        while place:
            self.text(DIGITS[n // place % 10], x, y, colour)
            x += 8
            place //= 10

    def text_row(self, player, texts, columns, count, x, y, colour, left, width):
        """Columns ``left`` to ``left + width`` of a row of 8x8 text across the screen made of
        ``count`` pieces of text (``texts``, each beginning at its character ``columns``),
        ``x, y`` as player 1 sees their own, sent as ``player``'s: player 2's copy is drawn
        upright and the panel turns it, cheaper than turning the text."""
        self.begin(self.row_view(width), left, y, False, FELT)
        fb = self._fb
        i = 0
        while i < count:
            at = x + 8 * columns[i] - left
            if at < width and at + 8 * len(texts[i]) > 0:  # the piece reaches the window
                fb.text(texts[i], at, 0, colour)
            i += 1
        self.end_for(player)

    def set_message(self, text):
        """The message row's text (``message_row``): each piece draws the characters that
        reach it, so a new message costs no pass of its own before its first piece."""
        self._message_text = text

    def set_message_codes(self, codes, count):
        """``set_message`` for a text of ``count`` characters given by their codes (bytes,
        each one of ``CODED``): read as the pieces are drawn."""
        self._message_text = None
        self._message_codes = codes
        self._message_count = count

    def place_message(self, x, colour):
        """Where in the message row the text set goes (its left as player 1 reads it)
        and in what colour."""
        self._message_x = x
        self._message_colour = colour

    def message_row(self, player, left, width):
        """``text_row`` for the message set and placed (``set_message``, ``place_message``)."""
        self.begin(self.row_view(width), left, MESSAGE_Y, False, FELT)
        if self._message_text is not None:
            self._fb.text(self._message_text, self._message_x - left, 0, self._message_colour)
        else:
            self._codes_row(self._message_x - left, width)
        self.end_for(player)

    def _codes_row(self, at, width):
        """The coded message's characters that reach a window ``width`` wide, the text's
        left at ``at`` in it."""
        i = -at // 8 if at < 0 else 0
        end = (width - at + 7) // 8
        if end > self._message_count:
            end = self._message_count
        while i < end:
            self._fb.text(
                self.glyphs[self._message_codes[i] - 32], at + 8 * i, 0, self._message_colour
            )
            i += 1

    def big_text(self, texts, columns, count, chars, scale):
        """Lay a text of ``chars`` characters out for ``big``: its 8x8 glyphs side by side
        in a 1-bit row, from ``count`` pieces (``texts``, each at its character ``columns``)."""
        self._mono[:] = _NO_BITS  # a copy in C: filling a 1-bit FrameBuffer goes pixel by pixel
        i = 0
        while i < count:
            self._mono_fb.text(texts[i], 8 * columns[i], 0, 1)
            i += 1
        self._big_spec[_BIG_CHARS] = chars
        self._big_spec[_BIG_SCALE] = scale

    def big(self, shape, x, y, colour, first, last):
        """Glyph rows ``first`` to ``last - 1`` of the text ``big_text`` laid out,
        magnified into ``shape`` (``shaped``, its rectangles rewritten for each row),
        their top left at ``x, y`` as player 1 sees it."""
        spec = self._big_spec
        scale = spec[_BIG_SCALE]
        for row in range(first, last):
            spec[_BIG_ROW] = row
            glyph_row_shape(self._mono, shape[_SHAPE], spec)
            self.shape(shape, x, y + row * scale, colour)
