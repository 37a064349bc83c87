"""Rows of text, each made of pieces, kept, and redrawn where they changed: what the
static screens are made of (``spit.static_screens``).

Constructor: ``Rows(renderer, pen)``: the renderer gives a call's share and the width of
a region (``piece_width``), the pen paints.

A screen makes its rows in the same order each time (``begin``, ``put`` and the like,
``end``): row after row of small text across the screen (player 1's copy, player 2's, or
both), or big text (8x8 text magnified) on one half. A piece is a text made once (a
name, a word, a digit): making a row copies nothing and allocates nothing. Each row is
kept in lists made here and compared, piece by piece, with what the same row showed:
``end`` leaves only the regions that changed to draw, a region a call of ``draw_region``
(an eighth of a row of small text, a glyph row of big text), while ``drawing`` is not -1.
``forget()`` after a clear: every row bare felt. ``restart()`` when new values come:
the screen makes its rows again, and a row cut short in its drawing is drawn whole.

A row whose values fit in a key (its one text, or a small int made of them) can be passed
over at the cost of a call (``unchanged(key)``) when the key is the one it was last made
with: making a row costs about 0.6 ms on the chip, so a screen drawn in place finds the
row that changed without making those before it.
"""

from array import array

from micropython import const

from spit.layout import WIDTH, WORK_BYTES
from spit.pen import DIGITS, FELT, shaped

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len, max, min = len, max, min

_ROWS = const(11)  # the most rows a screen makes (the settings: a heading and 10 rows)
_PIECES = const(32)  # the most pieces of text a row makes (the self-test's: 8 cells of 4)
_BOTH = const(2)  # a row's player: both copies, player 2's turned
_SHAPE_MAX_W = const(255)  # a shape's width is a byte
_NONE = bytes(_ROWS)


class Rows:
    def __init__(self, renderer, pen):
        self.renderer = renderer
        self.pen = pen
        self._shapes = {}  # big text's, by size (``_shape``)
        # The rows made since the last clear, in the order the screen makes them: each
        # row's pieces of text, the column each begins at, and the row's look.
        self._texts = [[None] * _PIECES for _ in range(_ROWS)]
        self._columns = [bytearray(_PIECES) for _ in range(_ROWS)]
        self._count = bytearray(_ROWS)
        self._chars = bytearray(_ROWS)
        self._player = bytearray(_ROWS)
        self._scale = bytearray(_ROWS)  # 0: small text
        self._window = bytearray(_ROWS)  # big text's window, in characters
        self._x = array("h", bytes(2 * _ROWS))
        self._y = array("h", bytes(2 * _ROWS))
        self._colour = array("H", bytes(2 * _ROWS))
        self._stale = bytearray(_ROWS)  # a row whose drawing was cut short: all of it again
        self._keys = [None] * _ROWS  # each row's key (``unchanged``), and its flag
        self._key_flags = bytearray(_ROWS)
        self.passed_over = False  # the last row was passed over (``unchanged``)
        self._made = 0  # rows made since the screen's values changed
        # The row being made (``begin``): its look until ``end`` keeps it, and what
        # changed so far.
        self._row_player = 0
        self._row_y = 0
        self._row_colour = 0
        self._row_scale = 0
        self._row_window = 0
        self._row_count = 0
        self._row_chars = 0
        self._old_pieces = 0  # regions that the row's old texts left
        # The columns its new pieces of text span, from the first to the end of the last
        # (0: none yet): one span to draw, worked out once at ``end``, not a piece at a time.
        self._fresh_first = 0
        self._fresh_end = 0
        # The row being drawn (-1: none): the regions left, the copy, big text's next
        # glyph row.
        self.drawing = -1
        self._regions = 0
        self._drawn_regions = 0  # all of them, for player 2's copy
        self._copy = 0
        self._glyph = 0

    def forget(self):
        """After a clear: every row bare felt."""
        self._count[:] = _NONE
        self._chars[:] = _NONE
        self._stale[:] = _NONE
        keys = self._keys
        for row in range(_ROWS):
            keys[row] = None
        self.drawing = -1

    def restart(self):
        """The screen makes its rows again, from the first: a row cut short in its
        drawing is drawn whole then (what the display shows there is unsure)."""
        if self.drawing >= 0:
            self._stale[self.drawing] = 1
        self.drawing = -1
        self._made = 0

    def unchanged(self, key, flag=0):
        """Whether the screen's next row shows what it showed: made since the last clear,
        drawn whole, and last made with the same ``key`` and ``flag`` (a small int). It is
        passed over then (``passed_over``); else the caller makes it, and the key is kept."""
        row = self._made
        keys = self._keys
        if (
            keys[row] is not None
            and not self._stale[row]
            and self._key_flags[row] == flag
            and (keys[row] is key or keys[row] == key)
        ):
            self._made = row + 1
            self.passed_over = True
            return True
        keys[row] = key
        self._key_flags[row] = flag
        return False

    def big_size(self, chars, scale, window=0):
        """Make the shape and windows of big text of ``chars`` characters at ``scale``
        (``begin``): made later, with the heap locked, they could not be."""
        self._shape(chars, scale)
        # A glyph row a window, as on the device; all eight, where a call draws a screen
        # whole, made when first drawn (``_big_region``).
        self.pen.view(8 * max(chars, window) * scale, scale)

    def draw_region(self):
        """The next region of the row being drawn (``drawing``: -1 after its last)."""
        row = self.drawing
        if self._scale[row]:
            self._big_region(row)
            return
        width = self.renderer.piece_width()
        regions = self._regions
        piece = 0
        while not regions >> piece & 1:
            piece += 1
        self._regions = regions & ~(1 << piece)
        copy = self._copy
        self.pen.text_row(
            copy,
            self._texts[row],
            self._columns[row],
            self._count[row],
            self._x[row],
            self._y[row],
            self._colour[row],
            piece * width,
            width,
        )
        if self._regions:
            return
        if copy == 0 and self._player[row] == _BOTH:
            self._copy = 1  # player 2's copy: the same regions
            self._regions = self._drawn_regions
            return
        self.drawing = -1

    def _big_region(self, row):
        """A window of big text: a glyph row on the device, where regions are small,
        else all eight, or half of them as often as the work buffer needs (the text
        laid out with the first)."""
        pen = self.pen
        scale = self._scale[row]
        chars = self._chars[row]
        window = 8 * max(chars, self._window[row]) * scale
        rows = 1 if self.renderer.regions_per_call else 8
        while 2 * window * rows * scale > WORK_BYTES:
            rows //= 2
        first = self._glyph
        if first == 0:
            pen.big_text(self._texts[row], self._columns[row], self._count[row], chars, scale)
        y = self._y[row]
        view = pen.view(window, rows * scale)
        pen.begin(view, (WIDTH - window) // 2, y + first * scale, self._player[row] == 1, FELT)
        pen.big(self._shape(chars, scale), self._x[row], y, self._colour[row], first, first + rows)
        pen.end()
        self._glyph = first + rows
        if self._glyph >= 8:
            self.drawing = -1

    def _shape(self, chars, scale):
        """The shape of a glyph row of ``chars`` characters of big text, made once for
        each size (``big_size`` makes those the screens show): its rectangles, at
        most 4 a character (runs of set bits in 8), are rewritten for each row."""
        key = chars << 4 | scale
        shape = self._shapes.get(key)
        if shape is None:
            if 8 * chars * scale > _SHAPE_MAX_W:
                raise ValueError("big text wider than a shape holds: %d x %d" % (chars, scale))
            shape = self._shapes[key] = shaped(8 * chars * scale, scale, bytearray(2 + 16 * chars))
        return shape

    # -- making a row -------------------------------------------------------------

    def begin(self, player, y, colour, scale=0, window=0):
        """Start the screen's next row: ``player``'s (-1: both copies, small text
        only), ``y`` as player 1 sees theirs; big text (8x8 text magnified ``scale``
        times) when ``scale`` is set, in a window ``window`` characters wide at least."""
        row = self._made
        self._row_player = _BOTH if player < 0 else player
        self._row_y = y
        self._row_colour = colour
        self._row_scale = scale
        self._row_window = window
        self._row_count = 0
        self._row_chars = 0
        self._old_pieces = 0
        self._fresh_end = 0
        if row == _ROWS:
            raise ValueError("more rows than a screen holds")

    def put(self, text):
        """The row's next piece of text (a text made once: no copy is made)."""
        if not text:
            return
        row = self._made
        i = self._row_count
        texts = self._texts[row]
        columns = self._columns[row]
        fresh = i >= self._count[row] or columns[i] != self._row_chars or texts[i] != text
        if fresh:
            if i < self._count[row]:
                self._old_pieces |= self._spanned(row, columns[i], len(texts[i]))
            texts[i] = text
            columns[i] = self._row_chars
            if not self._fresh_end:
                self._fresh_first = self._row_chars
            self._fresh_end = self._row_chars + len(text)
        self._row_count = i + 1
        self._row_chars += len(text)

    def put_codes(self, codes):
        """A text given by its characters' codes (``codes``, up to a zero), a character a
        piece: the pen's ``glyphs``. ``put``'s work, in one call rather than one a
        character (a call costs 15-25 µs on the Pico, and a banner has 20 characters)."""
        glyphs = self.pen.glyphs
        row = self._made
        texts = self._texts[row]
        columns = self._columns[row]
        i = self._row_count
        while i - self._row_count < len(codes) and codes[i - self._row_count]:
            text = glyphs[codes[i - self._row_count] - 32]
            at = self._row_chars + i - self._row_count
            if i >= self._count[row] or columns[i] != at or texts[i] != text:
                if i < self._count[row]:
                    self._old_pieces |= self._spanned(row, columns[i], len(texts[i]))
                texts[i] = text
                columns[i] = at
                if not self._fresh_end:
                    self._fresh_first = at
                self._fresh_end = at + 1
            i += 1
        self._row_chars += i - self._row_count
        self._row_count = i

    def put_number(self, n):
        """``n`` (0 or more), a digit a piece."""
        place = 1
        while place * 10 <= n:
            place *= 10
        while place:
            self.put(DIGITS[n // place % 10])
            place //= 10

    def skip_to(self, column):
        """The row's next piece begins at ``column`` (a table's column)."""
        self._row_chars = max(self._row_chars, column)

    def end(self, x=-1):
        """Keep the row made, at ``x`` (-1: centred), and draw what changed in it."""
        row = self._made
        self._made = row + 1
        chars = self._row_chars
        scale = self._row_scale or 1
        if x < 0:
            x = (WIDTH - 8 * chars * scale) // 2
        same_look = (
            self._x[row] == x
            and self._y[row] == self._row_y
            and self._colour[row] == self._row_colour
            and self._player[row] == self._row_player
            and self._scale[row] == self._row_scale
            and self._window[row] == self._row_window
        )
        regions = self._spanned(row, 0, self._chars[row])  # the old row's: all of it
        if self._stale[row]:
            self._stale[row] = 0
            same_look = False
            regions = (1 << WIDTH // self.renderer.piece_width()) - 1
        if same_look:
            regions = self._old_pieces
            i = self._row_count
            while i < self._count[row]:  # old pieces of text beyond the new ones
                regions |= self._spanned(row, self._columns[row][i], len(self._texts[row][i]))
                i += 1
        self._x[row] = x
        self._y[row] = self._row_y
        self._colour[row] = self._row_colour
        self._player[row] = self._row_player
        self._scale[row] = self._row_scale
        self._window[row] = self._row_window
        self._count[row] = self._row_count
        self._chars[row] = chars
        if same_look and self._fresh_end:
            first = self._fresh_first
            regions |= self._spanned(row, first, self._fresh_end - first)
        elif not same_look:
            regions |= self._spanned(row, 0, chars)
        self._start_drawing(row, regions)

    def _spanned(self, row, column, chars):
        """The regions of row ``row`` (at its ``x``) that ``chars`` characters from
        ``column`` reach, a bit each (big text: one)."""
        if not chars:
            return 0
        if self._scale[row]:
            return 1
        width = self.renderer.piece_width()
        left = self._x[row] + 8 * column
        first = max(left, 0) // width
        last = min(left + 8 * chars - 1, WIDTH - 1) // width
        return (1 << last + 1) - (1 << first)

    def _start_drawing(self, row, regions):
        if not regions:
            return
        self.drawing = row
        self._copy = 0 if self._row_player == _BOTH else self._row_player
        self._regions = regions
        self._drawn_regions = regions
        self._glyph = 0


def wrap(text, columns):
    """``text`` as lines of at most ``columns`` characters, broken between words
    where possible."""
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            while len(word) > columns:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:columns])
                word = word[columns:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= columns:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines
