"""The play screen's regions: a code each, what each last showed, and how each is painted.

A region is one window's worth of the play screen: a pile's thickness (its edges, two
at a time), a band of a pile's top card (its index both ways up), a pile's count
(counts=on), a band of a stock slot's top card with the hand's highlight, the edges
under it, a player's pack, name and SPIT call, and the message row. Each has a code;
the codes run in the order a sweep draws them, and the table filled once at import
says what each is: its kind, player, pile, slot and band. ``SWEPT`` is the first code a
sweep leaves out: the names, calls and message, which every call looks at instead.

Constructor: ``Regions(pen)``, which makes the regions' pictures: a blank card on the
felt in ``CARD_BANDS`` bands of rows (upright, and as each band lies on player 2's
turned card), copied into a window rather than drawn each time; a spit pile's card edge
and the felt where one went; the edges under a stock card as shapes; the cards' own
(``spit.pictures``). Attributes:
``keys``, what each region last showed as one small int (-1: redraw), by code; ``piles``
and ``slots``, the layout shown; and the codes an action can change, as bytes made once,
the pile a card landed on first (what the players watch): ``played[player][slot][pile]``,
``moved[player][slot]`` (a slot's card and edges), ``faces[player][slot]`` (a hand's
highlight), ``spat[piles - 1]``. Methods: ``forget()`` (after a clear), ``lay_out(piles,
slots)``, ``in_layout(code)``, ``draw(game, controls, code)`` (True when the region has
more to send: queue it again), ``name(player, cpu)`` and ``call(player, called, text)``.

Player 2's regions are painted turned. A player's line of information is painted upright
at player 1's place and sent turned (``Pen.end_for``): text in C, where turned labels
would be blitted pixel by pixel.
"""

from micropython import const

from spit.layout import (
    CALL_X,
    CARD_BANDS,
    CARD_H,
    CARD_W,
    COUNT_H,
    COUNT_Y,
    EDGE_STEP,
    EDGES_MAX,
    EDGES_W,
    FACE_H,
    FACE_W,
    HEIGHT,
    INDEX_INSET,
    INFO_H,
    INFO_W,
    INFO_Y,
    MARGIN,
    NAME_X,
    PACK_X,
    PILE_Y,
    STACK_STEP,
    STOCK_Y,
    WIDTH,
    pile_x,
    slot_x,
    stack_max,
    stack_x,
)
from spit.pen import (
    BACK,
    CPU_TAG,
    EDGE,
    FACE,
    FELT,
    HIGHLIGHT,
    INK,
    OUTLINE,
    SHADOW,
    WHITE,
    shaped,
)
from spit.pictures import NAMES, Pictures

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len, min = len, min

_SLOTS_MAX = const(5)  # the most stock slots a layout has
_PILES_MAX = const(2)
_EMPTY = const(63)  # the card key of an empty slot or pile
_SELECTED = const(64)  # a stock card's key, in the hand
_EDGES_A_CALL = const(2)  # a pile's edges sent by one region: each is a window
# A stock slot's edges key: the edges under the top, and the face-up cards among them.
_UP_SHIFT = const(4)
_UNDER = const(15)

# Kinds of region.
_STACK = const(0)
_PILE_CARD = const(1)
_COUNT = const(2)
_FACE = const(3)
_EDGES = const(4)
_PACK = const(5)
_NAME = const(6)
_CALL_BADGE = const(7)  # a player's call (SPIT!)
_MESSAGE = const(8)

# The table: a region's fields at ``code * _FIELDS``.
_KIND = const(0)
_PLAYER = const(1)
_PILE = const(2)
_SLOT = const(3)
_BAND = const(4)
_FIELDS = const(5)
_CODES_MAX = const(96)  # room for every region's code: 45 with two bands a card
_TABLE = bytearray(_CODES_MAX * _FIELDS)


REGIONS = 0  # the codes given so far


def _add(kind, player, pile, slot, band):
    """A region's fields into the table; its code."""
    global REGIONS
    at = REGIONS * _FIELDS
    _TABLE[at + _KIND] = kind
    _TABLE[at + _PLAYER] = player
    _TABLE[at + _PILE] = pile
    _TABLE[at + _SLOT] = slot
    _TABLE[at + _BAND] = band
    REGIONS += 1
    return REGIONS - 1


# Filled in the order a sweep draws the regions: the piles' thickness, cards and counts,
# the stock slots' cards and edges, the packs; then the regions a sweep leaves out. Each
# code is kept where the tables of what an action changes (``Regions``) find it. Written
# in place: garbage made while the firmware is imported would scatter its code over the
# heap.
_THICKNESS = bytearray(_PILES_MAX)  # by pile
_PILE_BANDS = [bytearray(CARD_BANDS) for _ in range(_PILES_MAX)]  # by pile, then band
_COUNTS = bytearray(_PILES_MAX)
_FACE_BANDS = [[bytearray(CARD_BANDS) for _ in range(_SLOTS_MAX)] for _ in (0, 1)]
_UNDERS = [bytearray(_SLOTS_MAX) for _ in (0, 1)]  # the edges under a slot's top card
PACK_CODES = bytearray(2)
NAME_CODES = bytearray(2)
CALL_CODES = bytearray(2)
for pile in range(_PILES_MAX):
    _THICKNESS[pile] = _add(_STACK, 0, pile, 0, 0)
for band in range(CARD_BANDS):
    for pile in range(_PILES_MAX):
        _PILE_BANDS[pile][band] = _add(_PILE_CARD, 0, pile, 0, band)
for pile in range(_PILES_MAX):
    _COUNTS[pile] = _add(_COUNT, 0, pile, 0, 0)
for band in range(CARD_BANDS):
    for player in (0, 1):
        for slot in range(_SLOTS_MAX):
            _FACE_BANDS[player][slot][band] = _add(_FACE, player, 0, slot, band)
for player in (0, 1):
    for slot in range(_SLOTS_MAX):
        _UNDERS[player][slot] = _add(_EDGES, player, 0, slot, 0)
for player in (0, 1):
    PACK_CODES[player] = _add(_PACK, player, 0, 0, 0)
SWEPT = REGIONS
for player in (0, 1):
    NAME_CODES[player] = _add(_NAME, player, 0, 0, 0)
for player in (0, 1):
    CALL_CODES[player] = _add(_CALL_BADGE, player, 0, 0, 0)
MESSAGE_CODE = _add(_MESSAGE, 0, 0, 0, 0)


# The codes an action can change, made once from pieces shared between them, with little
# garbage: made on a heap in pieces, it would leave no room in one piece.


def _pile_regions(pile):
    """A pile's thickness (the quickest sign that a card landed), then its card's bands."""
    return bytes((_THICKNESS[pile],)) + _PILE_BANDS[pile]


def _face_regions(player, slot):
    """A stock slot's top card's bands."""
    return bytes(_FACE_BANDS[player][slot])


def _by_slot(regions, *pieces):
    """``regions(player, slot, *pieces)`` for every stock slot, ``[player][slot]``."""
    return [[regions(player, slot, *pieces) for slot in range(_SLOTS_MAX)] for player in (0, 1)]


def _slot_regions(player, slot, faces):
    """A stock slot's top card's bands, then the edges under it."""
    return faces[player][slot] + _UNDERS[player][slot : slot + 1]


def _play_regions(player, slot, piles, moved):
    """A card played from a stock slot onto each pile: the pile's regions, the slot's,
    then the pile's count."""
    return [piles[pile] + moved[player][slot] + _COUNTS[pile : pile + 1] for pile in (0, 1)]


def _spit_regions(piles, count):
    """A spit: each pile's regions and count (the packs are followed by their sizes)."""
    found = b""
    for pile in range(count):
        found += piles[pile] + _COUNTS[pile : pile + 1]
    return found


class Regions:
    def __init__(self, pen):
        self.pen = pen
        self.display = pen.display  # a picture made once goes to it as it is
        # First, while the heap still has room in one piece.
        self._face_bands = self._bands(FACE_W, FACE_H, MARGIN)
        self._pile_bands = self._bands(CARD_W, CARD_H, 0)
        self.pictures = Pictures(pen)
        for digit in "0123456789":  # a pile's count, turned
            pen.label(digit)
        self._edge_column = self._column(True, CARD_H)
        self._felt_column = self._column(False, CARD_H)
        self._felt_edge = self._column(False, FACE_H)  # where a stock edge went
        # The outlines of the first k edges under a stock card, and their insides, as
        # shapes the size of the edges' window.
        self._edge_outlines = []
        self._edge_fills = []
        outlines = [EDGES_W, FACE_H]
        fills = [EDGES_W, FACE_H]
        for i in range(EDGES_MAX + 1):
            self._edge_outlines.append(shaped(EDGES_W, FACE_H, bytes(outlines)))
            self._edge_fills.append(shaped(EDGES_W, FACE_H, bytes(fills)))
            height = CARD_H - 2 * (i + 1)
            outlines += (EDGE_STEP * i, MARGIN + i + 1, EDGE_STEP, height)
            fills += (EDGE_STEP * i, MARGIN + i + 2, 1, height - 2)
        self._edges = pen.view(EDGES_W, FACE_H)
        self._count = pen.view(CARD_W, COUNT_H)
        self._info = pen.view(INFO_W, INFO_H)
        self._edge_y = (STOCK_Y, HEIGHT - STOCK_Y - FACE_H)
        piles = [_pile_regions(pile) for pile in range(_PILES_MAX)]
        self.faces = _by_slot(_face_regions)
        self.moved = _by_slot(_slot_regions, self.faces)
        self.played = _by_slot(_play_regions, piles, self.moved)
        self.spat = [_spit_regions(piles, count) for count in range(1, _PILES_MAX + 1)]
        self.keys = [-1] * REGIONS
        self.piles = 0
        self.slots = 0
        # Left edges of the stock slots and the spit piles in the layout shown.
        self._slot_x = [0] * _SLOTS_MAX
        self._pile_x = [0] * _PILES_MAX

    def _bands(self, w, h, margin):
        """A blank card on the felt, ``margin`` of felt around it, as bands of rows:
        ``(view, top, bottom, upright, turned)`` each."""
        pen = self.pen
        view = pen.view(w, h)
        pen.begin(view, 0, 0, False, FELT)
        # Outline with its corners cut, so the card looks rounded.
        pen.rect(margin + 1, margin, CARD_W - 2, CARD_H, OUTLINE)
        pen.rect(margin, margin + 1, CARD_W, CARD_H - 2, OUTLINE)
        pen.rect(margin + 1, margin + 1, CARD_W - 2, CARD_H - 2, FACE)
        _, window, _, _ = view
        card = memoryview(bytes(window))
        band_h = (h + CARD_BANDS - 1) // CARD_BANDS
        bands = []
        for top in range(0, h, band_h):
            bottom = min(top + band_h, h)
            bands.append((
                pen.view(w, bottom - top),
                top,
                bottom,
                card[top * w * 2 : bottom * w * 2],
                card[(h - bottom) * w * 2 : (h - top) * w * 2],
            ))
        return bands

    def _column(self, edge, height):
        """A 2-pixel column: one card's edge in a spit pile, or bare felt."""
        fbm = self.pen.framebuf
        buf = bytearray(STACK_STEP * height * 2)
        fb = fbm.FrameBuffer(buf, STACK_STEP, height, fbm.RGB565)
        fb.fill(FELT)
        if edge:
            fb.fill_rect(0, 0, 1, height, EDGE)
            fb.fill_rect(1, 1, 1, height - 2, SHADOW)
        return buf

    def forget(self):
        """The display was cleared: every region is to draw."""
        keys = self.keys
        for i in range(REGIONS):  # a slice assignment would allocate
            keys[i] = -1

    def lay_out(self, piles, slots):
        if piles == self.piles and slots == self.slots:
            return
        self.piles = piles
        self.slots = slots
        for slot in range(slots):
            self._slot_x[slot] = slot_x(slots, slot)
        for pile in range(piles):
            self._pile_x[pile] = pile_x(piles, pile)

    def in_layout(self, code):
        at = code * _FIELDS
        return _TABLE[at + _PILE] < self.piles and _TABLE[at + _SLOT] < self.slots

    def draw(self, game, controls, code):
        """Paint region ``code`` if what it shows changed; True when it has more to send."""
        kind = _TABLE[code * _FIELDS + _KIND]
        if kind == _FACE:
            self._slot_face(game, controls, code)
        elif kind == _PILE_CARD:
            self._pile(game, code)
        elif kind == _EDGES:
            self._slot_edges(game, code)
        elif kind == _STACK:
            return self._thickness(game, code)
        elif kind == _COUNT:
            self._pile_count(game, code)
        else:
            self._pack(game, code)
        return False

    def _slot_face(self, game, controls, code):
        """A band of a stock slot's top card, or of its empty place, and the hand's
        highlight: whatever of the card falls in the band is clipped to it."""
        at = code * _FIELDS
        player = _TABLE[at + _PLAYER]
        slot = _TABLE[at + _SLOT]
        cards = game.stock[player][slot]
        n = len(cards)
        selected = _SELECTED if controls.hand[player] == slot else 0
        face = (cards[-1] if n else _EMPTY) | selected
        if self.keys[code] == face:
            return
        self.keys[code] = face
        x = self._slot_x[slot]
        flip = player == 1
        view, top, bottom, upright, turned = self._face_bands[_TABLE[at + _BAND]]
        pen = self.pen
        if n:
            pen.begin(view, x, STOCK_Y + top, flip, turned if flip else upright)
            if selected:
                pen.shape(self.pictures.highlight, x, STOCK_Y, HIGHLIGHT)
            self.pictures.stock_card(
                cards[-1], x + MARGIN, STOCK_Y + MARGIN, top - MARGIN, bottom - MARGIN
            )
        else:
            pen.begin(view, x, STOCK_Y + top, flip, FELT)
            self.pictures.empty_place(x + MARGIN, STOCK_Y + MARGIN)
        pen.end()

    def _slot_edges(self, game, code):
        """The edges of the cards under a stock slot's top, to its right."""
        at = code * _FIELDS
        player = _TABLE[at + _PLAYER]
        slot = _TABLE[at + _SLOT]
        n = len(game.stock[player][slot])
        under = n - 1 if n else 0
        if under > EDGES_MAX:
            under = EDGES_MAX
        up = game.face_up[player][slot] - 1 if n else 0  # face up under the top (stack=on)
        edges = under | up << _UP_SHIFT
        shown = self.keys[code]
        if shown == edges:
            return
        self.keys[code] = edges
        x = self._slot_x[slot] + FACE_W
        if shown >= 0 and shown >> _UP_SHIFT == up and shown & _UNDER > under:
            # Only the deepest edges went (a card played off the pile): felt over them.
            for i in range(under, shown & _UNDER):
                left = x + EDGE_STEP * i
                if player == 1:
                    left = WIDTH - left - EDGE_STEP
                self.display.show(left, self._edge_y[player], EDGE_STEP, FACE_H, self._felt_edge)
            return
        pen = self.pen
        pen.begin(self._edges, x, STOCK_Y, player == 1, FELT)
        pen.shape(self._edge_outlines[under], x, STOCK_Y, OUTLINE)
        pen.shape(self._edge_fills[under], x, STOCK_Y, BACK)
        if up:
            pen.shape(self._edge_fills[up if up < under else under], x, STOCK_Y, FACE)
        pen.end()

    def _pile(self, game, code):
        """A band of a pile's top card: its index both ways up, clipped to the band."""
        at = code * _FIELDS
        pile = _TABLE[at + _PILE]
        cards = game.middle[pile]
        n = len(cards)
        top = cards[-1] if n else _EMPTY
        if self.keys[code] == top:
            return
        self.keys[code] = top
        x = self._pile_x[pile]
        view, y, bottom, upright, _ = self._pile_bands[_TABLE[at + _BAND]]
        pen = self.pen
        pictures = self.pictures
        if n:
            # Only the indexes that reach into the band: the upright one along the card's
            # bottom, the turned one along its top.
            pen.begin(view, x, PILE_Y + y, False, upright)
            if bottom > CARD_H - INDEX_INSET - pictures.index_h:
                pictures.index(top, x, PILE_Y)
            if y < INDEX_INSET + pictures.index_h:
                pen.frame(x, PILE_Y, CARD_W, CARD_H, True)
                pictures.index(top, x, PILE_Y)
        else:
            pen.begin(view, x, PILE_Y + y, False, FELT)
            pictures.empty_place(x, PILE_Y)
        pen.end()

    def _pile_count(self, game, code):
        """The number of cards in a pile, both ways up (with counts=on)."""
        pile = _TABLE[code * _FIELDS + _PILE]
        count = len(game.middle[pile]) if game.options.counts == "on" else -1
        if self.keys[code] == count:
            return
        self.keys[code] = count
        x = self._pile_x[pile]
        pen = self.pen
        for flip in (False, True):
            pen.frame(x, 0, CARD_W, HEIGHT)  # player 2's copy in the pile's column
            pen.begin(self._count, x, COUNT_Y, flip, FELT)
            if count >= 0:
                digits = 1 if count < 10 else 2
                pen.number(count, x + (CARD_W - 8 * digits) // 2, COUNT_Y, WHITE)
            pen.end()

    def _thickness(self, game, code):
        """The edges that appeared or went since the last call, a few at a time; True
        while some are left for the next time."""
        pile = _TABLE[code * _FIELDS + _PILE]
        piles = self.piles
        n = len(game.middle[pile])
        limit = stack_max(piles)
        if n > limit:
            n = limit
        shown = self.keys[code]
        if shown < 0:
            shown = 0  # after a clear, none
        if n == shown:
            return False
        more = True
        if n > shown + _EDGES_A_CALL:
            n = shown + _EDGES_A_CALL
        elif n < shown - _EDGES_A_CALL:
            n = shown - _EDGES_A_CALL
        else:
            more = False
        self.keys[code] = n
        low = shown if shown < n else n
        high = n if shown < n else shown
        column = self._edge_column if shown < n else self._felt_column
        for i in range(low, high):
            self.display.show(stack_x(piles, pile, i), PILE_Y, STACK_STEP, CARD_H, column)
        return more

    def _pack(self, game, code):
        player = _TABLE[code * _FIELDS + _PLAYER]
        pack = len(game.pack[player])
        if self.keys[code] == pack:
            return
        self.keys[code] = pack
        pen = self.pen
        pen.begin(self._info, PACK_X, INFO_Y, False, FELT)
        pen.text("pack", PACK_X, INFO_Y + 2, WHITE)
        pen.number(pack, PACK_X + 40, INFO_Y + 2, WHITE)
        pen.end_for(player)

    def name(self, player, cpu):
        """A player's name, tagged when the CPU plays the seat."""
        self.keys[NAME_CODES[player]] = cpu
        pen = self.pen
        pen.begin(self._info, NAME_X, INFO_Y, False, FELT)
        pen.text(NAMES[player], NAME_X, INFO_Y + 2, WHITE)
        if cpu:
            pen.text("CPU", NAME_X + 24, INFO_Y + 2, CPU_TAG)
        pen.end_for(player)

    def call(self, player, called, text):
        """A player's SPIT call (``text``), or the felt where it stood."""
        self.keys[CALL_CODES[player]] = called
        pen = self.pen
        pen.begin(self._info, CALL_X, INFO_Y, False, FELT)
        if called:
            pen.rect(CALL_X, INFO_Y, 8 * len(text) + 4, INFO_H, HIGHLIGHT)
            pen.text(text, CALL_X + 2, INFO_Y + 2, INK)
        pen.end_for(player)
