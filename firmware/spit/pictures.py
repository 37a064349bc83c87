"""What a card looks like: its glyphs, their pictures made once, and a card painted from them.

The ranks and suits are drawn below as rows of ``X`` (ink) and ``.`` (card), bigger than
the built-in 8x8 font, and kept as their horizontal runs (``RANKS``, ``SUITS``). Strokes
are two pixels wide so that the cards read at arm's length.

Constructor: ``Pictures(pen)``: the glyphs as pictures (``spit.pen``) at two scales, a
stock card's and a spit pile's index. Attributes: ``index_h``, the tallest index glyph;
``highlight``, the hand's frame around a stock card, as a shape. Methods paint onto the
pen's window: ``stock_card(card, x, y, top, bottom)`` (a big rank top left, a big suit
bottom right, as its owner reads it, over a blank card already in the window, in rows
``top`` to ``bottom`` of it), ``index(card, x, y)``
(rank and suit along the card's bottom edge; the pen's turn gives the copy along the
top), ``empty_place(x, y)``. A 6 and a 9 are underlined (``UNDERLINED``), so that a card
turned over cannot be misread: the stock card's rank keeps its top, the index's rests
on the bar.
"""

from micropython import const

from spit.layout import (
    BIG_SCALE,
    CARD_H,
    CARD_W,
    FACE_H,
    FACE_W,
    INDEX_INSET,
    INDEX_SCALE,
    INSET,
    MARGIN,
)
from spit.pen import (
    DIM,
    INK,
    PICTURE_H,
    PICTURE_W,
    RED,
    picture,
    shaped,
)

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len, max = len, max

NAMES = ("P1", "P2")
_RANKS = const(13)
# 6 and 9 read the same turned over: as on printed cards, a bar under each tells them
# apart, a pixel below the glyph, under all but its outer columns.
UNDERLINED = (5, 8)  # the ranks of 6 and 9
_UNDERLINE_GAP = const(1)
_UNDERLINE_H = const(2)
# A glyph: its width and height, then a run of pixels (left, top, length) after another.
_GLYPH_W = const(0)
_GLYPH_H = const(1)
_RUNS_MAX = const(4 * 9)  # the most a glyph can have: four runs a row of 7, 9 rows

_RANK_ART = (
    # A
    (
        "..XXX..",
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        "XXXXXXX",
        "XXXXXXX",
        "XX...XX",
        "XX...XX",
        "XX...XX",
    ),
    # 2
    (
        ".XXXXX.",
        "XX...XX",
        ".....XX",
        "....XX.",
        "...XX..",
        "..XX...",
        ".XX....",
        "XX.....",
        "XXXXXXX",
    ),
    # 3
    (
        "XXXXXX.",
        ".....XX",
        ".....XX",
        "..XXXX.",
        ".....XX",
        ".....XX",
        ".....XX",
        "XX...XX",
        ".XXXXX.",
    ),
    # 4
    (
        "....XX.",
        "...XXX.",
        "..XXXX.",
        ".XX.XX.",
        "XX..XX.",
        "XXXXXXX",
        "....XX.",
        "....XX.",
        "....XX.",
    ),
    # 5
    (
        "XXXXXXX",
        "XX.....",
        "XX.....",
        "XXXXXX.",
        ".....XX",
        ".....XX",
        ".....XX",
        "XX...XX",
        ".XXXXX.",
    ),
    # 6
    (
        "..XXXX.",
        ".XX....",
        "XX.....",
        "XXXXXX.",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        ".XXXXX.",
    ),
    # 7
    (
        "XXXXXXX",
        ".....XX",
        "....XX.",
        "....XX.",
        "...XX..",
        "...XX..",
        "..XX...",
        "..XX...",
        "..XX...",
    ),
    # 8
    (
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        ".XXXXX.",
    ),
    # 9
    (
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        ".XXXXXX",
        ".....XX",
        ".....XX",
        "....XX.",
        ".XXXX..",
    ),
    # 10
    (
        ".XX..XXX.",
        "XXX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        "XXXX.XXX.",
    ),
    # J
    (
        "..XXXXX",
        "....XX.",
        "....XX.",
        "....XX.",
        "....XX.",
        "....XX.",
        "XX..XX.",
        "XX..XX.",
        ".XXXX..",
    ),
    # Q
    (
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        "XX.X.XX",
        "XX.XXX.",
        ".XXXXX.",
        "....XXX",
    ),
    # K
    (
        "XX...XX",
        "XX..XX.",
        "XX.XX..",
        "XXXX...",
        "XXX....",
        "XXXX...",
        "XX.XX..",
        "XX..XX.",
        "XX...XX",
    ),
)

# In the order of ``cards.SUIT_NAMES``: clubs, diamonds, hearts, spades.
_SUIT_ART = (
    ("..XXX..", "..XXX..", "XX.X.XX", "XXXXXXX", "XX.X.XX", "...X...", "..XXX.."),
    ("...X...", "..XXX..", ".XXXXX.", "XXXXXXX", ".XXXXX.", "..XXX..", "...X..."),
    (".XX.XX.", "XXXXXXX", "XXXXXXX", "XXXXXXX", ".XXXXX.", "..XXX..", "...X..."),
    ("...X...", "..XXX..", ".XXXXX.", "XXXXXXX", "XXXXXXX", ".X.X.X.", "..XXX.."),
)

# Diamonds and hearts are red.
RED_SUITS = (False, True, True, False)


def runs(art):
    """The runs of a glyph drawn as rows of ``X`` and ``.``: its width and height, then
    a run (left, top, length) after another. Written in place: the boot makes every
    glyph at import, and garbage made then would scatter the firmware over the heap."""
    packed = bytearray(2 + 3 * _RUNS_MAX)
    packed[_GLYPH_W] = len(art[0])
    packed[_GLYPH_H] = len(art)
    at = 2
    for y in range(len(art)):
        row = art[y]
        start = row.find("X")  # find() walks the row in C
        while start >= 0:
            end = row.find(".", start)
            if end < 0:
                end = len(row)
            packed[at] = start
            packed[at + 1] = y
            packed[at + 2] = end - start
            at += 3
            start = row.find("X", end)
    return bytes(packed[:at])


RANKS = tuple([runs(art) for art in _RANK_ART])
SUITS = tuple([runs(art) for art in _SUIT_ART])


class Pictures:
    def __init__(self, pen):
        self.pen = pen
        self._glyph = pen.glyph  # bound once: a glyph a band of a card
        self._big_ranks = [self._rank(rank, BIG_SCALE) for rank in range(_RANKS)]
        self._big_suits = [self._bitmap(glyph, BIG_SCALE) for glyph in SUITS]
        self._index_ranks = [self._rank(rank, INDEX_SCALE) for rank in range(_RANKS)]
        self._index_suits = [self._bitmap(glyph, INDEX_SCALE) for glyph in SUITS]
        self.index_h = max(glyph[PICTURE_H] for glyph in self._index_ranks + self._index_suits)
        # One ``ink`` call each rather than four rectangles.
        self._empty_shape = _frame_shape(CARD_W, CARD_H, 1)
        self.highlight = _frame_shape(FACE_W, FACE_H, MARGIN)

    def _rank(self, rank, scale):
        """A rank's glyph as a picture, 6 and 9 underlined."""
        return self._bitmap(RANKS[rank], scale, rank in UNDERLINED)

    def _bitmap(self, glyph, scale, underlined=False):
        """A glyph magnified ``scale`` times, as a picture: a run of pixels a rectangle,
        and with ``underlined`` the bar under it."""
        fbm = self.pen.framebuf
        width = glyph[_GLYPH_W] * scale
        height = glyph[_GLYPH_H] * scale
        bar = 1 if underlined else 0
        if underlined:
            height += _UNDERLINE_GAP + _UNDERLINE_H
        buf = bytearray((width + 7) // 8 * height)
        fb = fbm.FrameBuffer(buf, width, height, fbm.MONO_HLSB)
        # Written in place: little garbage.
        shape = bytearray(2 + ((len(glyph) - 2) // 3 + bar) * 4)
        shape[0] = width
        shape[1] = height
        at = 2
        for i in range(2, len(glyph), 3):
            shape[at] = glyph[i] * scale
            shape[at + 1] = glyph[i + 1] * scale
            shape[at + 2] = glyph[i + 2] * scale
            shape[at + 3] = scale
            fb.fill_rect(shape[at], shape[at + 1], shape[at + 2], scale, 1)
            at += 4
        if underlined:
            shape[at] = scale
            shape[at + 1] = height - _UNDERLINE_H
            shape[at + 2] = width - 2 * scale
            shape[at + 3] = _UNDERLINE_H
            fb.fill_rect(shape[at], shape[at + 1], shape[at + 2], _UNDERLINE_H, 1)
        return picture(fbm, buf, width, height, bytes(shape))

    def stock_card(self, card, x, y, top, bottom):
        """A card as its owner reads it, over a blank card already in the window: the
        glyphs that reach into its rows ``top`` to ``bottom`` (a band), the others not
        even asked for."""
        suit = card // _RANKS
        colour = RED if RED_SUITS[suit] else INK
        rank = self._big_ranks[card % _RANKS]
        if top < INSET + rank[PICTURE_H]:
            self._glyph(rank, x + INSET, y + INSET, colour)
        mark = self._big_suits[suit]
        if bottom > CARD_H - INSET - mark[PICTURE_H]:
            right = x + CARD_W - INSET - mark[PICTURE_W]
            self._glyph(mark, right, y + CARD_H - INSET - mark[PICTURE_H], colour)

    def index(self, card, x, y):
        """Rank and suit along the card's bottom edge (the near edge for its reader)."""
        suit = card // _RANKS
        colour = RED if RED_SUITS[suit] else INK
        rank = self._index_ranks[card % _RANKS]
        bottom = y + CARD_H - INDEX_INSET
        self._glyph(rank, x + INDEX_INSET, bottom - rank[PICTURE_H], colour)
        mark = self._index_suits[suit]
        right = x + CARD_W - INDEX_INSET - mark[PICTURE_W]
        self._glyph(mark, right, bottom - mark[PICTURE_H], colour)

    def empty_place(self, x, y):
        self.pen.shape(self._empty_shape, x, y, DIM)


def _frame_shape(w, h, thickness):
    """A ``w`` by ``h`` frame ``thickness`` pixels wide, as a shape: top, bottom, then
    the sides."""
    inside = h - 2 * thickness
    rects = (0, 0, w, thickness, 0, h - thickness, w, thickness)
    rects += (0, thickness, thickness, inside, w - thickness, thickness, thickness, inside)
    return shaped(w, h, bytes((w, h) + rects))
