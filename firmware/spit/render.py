"""Every screen of SPEC section 5, drawn through small windows onto the display.

Constructor: ``Renderer(display, framebuf)``. ``display`` has ``width``,
``height``, ``show(x, y, w, h, buf)`` (a window of RGB565 pixels, sent as they
are), ``fill(colour)`` and ``fill_rows(colour, y, h)`` (a band of whole rows);
``framebuf`` is the module to draw with (the real one on the device, the host's
fake in the simulator), so this module stays pure.

Methods: ``play(game, controls, cpus)`` draws the play screen, sending only the
windows whose content changed since the last call; ``invalidate()`` makes the
next call a full redraw; ``title``, ``settings``, ``ready``, ``countdown``,
``round_result``, ``game_over``, ``match_result``, ``error`` and ``self_test``
draw the other screens from plain values, and send nothing when called again
with the same values and nothing left to draw. Attributes: ``full_redraws`` counts
whole-screen clears; ``busy`` is true while the last call left something to draw
for the next ones (with ``regions_per_call`` set): calling the same screen again
carries on. (A plain attribute: with a property on the class, every attribute store
on the renderer measured several times slower on the chip.)

``regions_per_call`` (0, the default: no limit) caps the regions one call draws,
so that no pass of the main loop waits for a whole screen: with 1 (the device),
each call draws one region, aiming at under 0.8 ms on the chip with its SPI, and
the next calls of the same screen carry on, whether or not its values changed (new
values, or another screen, supersede what was left). The call that takes new values
or starts a clear draws nothing more, nor does a play-screen call that follows new
changes (at most four such calls in a row), unless ``answering`` is set: then it
draws its first region too (a new screen answering a press). A call with ``taking`` set
takes new values (or follows the play screen's changes) and draws nothing; ``carry_on()``
draws a static screen's next region without looking at its values. A region is a strip
of two rows of a clear (through ``fill_rows``), an eighth of a row of text (only the
eighths that the text reaches, or reached before; a row with nothing new is a step of
its own), a glyph row of big text, a colour bar or corner mark or an eighth of a
histogram row of the self-test, or one of the play screen's: a pile's thickness, two
edges at a time (the pile a card landed on first), a band of a pile's card, the pile's
count, a band of a stock slot's top card (``CARD_BANDS`` a card), the edges under it, a
pack, a name, a SPIT call. The play screen queues its regions in a ring as it follows
the actions (setting the table out is a sweep over every region rather than a queue); a
static screen's drawing is a generator that yields after each region. Either way the
pixels come out as drawn whole.

``lock_heap`` (False by default; True on the device) locks MicroPython's heap while
``play()`` runs, and while the other screens draw a piece of text: nothing there may
allocate, and every function's frame goes on the C stack (``_locked``, ``_HeapLock``).
The display's ``show`` and ``fill_rows`` must then allocate nothing either.

There is no frame buffer: one work buffer (8 KB) backs a few FrameBuffer
views of fixed shapes, made once, so an incremental ``play()``, and each of
the calls it is spread over, allocates nothing. Each region remembers what it
last showed as a small int in ``_keys``, and ``play()`` looks only at the regions
that the actions applied since the last frame (``game.history``) and the hands and
calls can have changed, so a frame where nothing happened costs a few comparisons.

Player 2's regions are drawn already turned 180 degrees: rectangles are
mirrored by arithmetic, and the ranks, suits and labels are 1-bit bitmaps
made once in both orientations and blitted in colour (a 1-bit bitmap in
``MONO_HLSB`` with its bytes in reverse order, read as ``MONO_HMSB``, is the
same bitmap turned 180 degrees, shifted by its row padding). Where the port runs
viper code, card glyphs are painted instead, as the rectangles they are made of
(``twins.ink``), upright or turned. A row of any other text and a player's line of
information (name, pack, SPIT call) are drawn upright and sent with ``show_turned``:
the panel writes them in the opposite address order, which is the window turned.
Big text is 8x8 text magnified: each run of set bits in a glyph row is one rectangle
(``twins.glyph_row_shape``), painted as a card's glyphs are, upright or turned.

Colours are RGB565 with their two bytes swapped: framebuf stores a pixel
little-endian and the panel reads it big-endian.
"""

from array import array

from micropython import const, heap_lock, heap_unlock

from spit.glyphs import RANKS, RED_SUITS, SUITS
from spit.keys import KEY_NAMES, KEYS_PER_PLAYER
from spit.layout import (
    BARS_H,
    BARS_Y,
    BIG_SCALE,
    BIG_TEXT_SCALE,
    CALL_X,
    CARD_H,
    CARD_W,
    COUNT_H,
    COUNT_Y,
    COUNTDOWN_SCALE,
    EDGE_STEP,
    EDGES_MAX,
    EDGES_W,
    ERROR_COLUMNS,
    ERROR_ROWS,
    FACE_H,
    FACE_W,
    HALF_Y,
    HEIGHT,
    HISTOGRAM_H,
    HISTOGRAM_Y,
    INDEX_INSET,
    INDEX_SCALE,
    INFO_H,
    INFO_W,
    INFO_Y,
    INSET,
    MARGIN,
    MESSAGE_H,
    MESSAGE_Y,
    NAME_X,
    PACK_X,
    PILE_Y,
    ROW_PITCH,
    SETTINGS_PITCH,
    SETTINGS_ROWS,
    STACK_STEP,
    STOCK_Y,
    WIDTH,
    WORK_BYTES,
    pile_x,
    slot_x,
    stack_max,
    stack_x,
)
from spit.options import WORDS
from spit.rules import MOVE, PHASE_PLAY, PHASE_READY, PHASE_SLAP, PLAY
from spit.twins import glyph_row_shape, ink


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

NAMES = ("P1", "P2")
# Texts made once: a new string takes about 0.2 ms on the Pico, where MicroPython looks
# it up among the interned ones. By player * 2 + (1 for the CPU), and then + 1 for ready.
_SEAT_NAMES = ("P1", "P1 CPU", "P2", "P2 CPU")
_STATES = (
    "P1 waiting",
    "P1 ready",
    "P1 CPU waiting",
    "P1 CPU ready",
    "P2 waiting",
    "P2 ready",
    "P2 CPU waiting",
    "P2 CPU ready",
)
_CLEARED = (
    "P1 cleared the stock",
    "P1 CPU cleared the stock",
    "P2 cleared the stock",
    "P2 CPU cleared the stock",
)
_SLAPPED = ("P1 slapped first", "P1 CPU slapped first", "P2 slapped first", "P2 CPU slapped first")
_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")

_EMPTY = const(63)  # the card key of an empty slot or pile
_SLOTS_MAX = const(5)  # the most stock slots a layout has: the keys and regions hold 5
_LINE_CHARS = const(40)  # a row of 8x8 text across the screen
_LINE_BYTES = const(_LINE_CHARS * 8)  # that row as a 1-bit bitmap
_NO_BITS = bytes(_LINE_BYTES)
# Drawing a region a call (``regions_per_call``), each region stays short on the RP2040
# with its SPI: a clear goes out 2 rows at a time (1.3 KB), or at once where DMA sends
# it, a row of text an eighth of a row at a time (player 2's turned too), big text a
# glyph row at a time.
_CLEAR_ROWS = const(2)
_PIECE_W = const(40)  # an eighth of WIDTH

# Screens: the one on the display decides whether the next one starts with a clear.
_NO_SCREEN = const(0)
_PLAY_SCREEN = const(1)
_TITLE = const(2)
_SETTINGS = const(3)
_READY = const(4)
_COUNTDOWN = const(5)
_ROUND = const(6)
_GAME_OVER = const(7)
_MATCH = const(8)
_ERROR = const(9)
_SELF_TEST = const(10)

# The self-test's colour bars: if the panel's byte order or colour order were wrong,
# these would come out in the wrong colours.
COLOUR_BARS = (
    0x00F8,  # red
    0xE007,  # green
    0x1F00,  # blue
    0xFF07,  # cyan
    0x1FF8,  # magenta
    0xE0FF,  # yellow
    0xFFFF,  # white
    0x0000,  # black
)

# The self-test's corner marks: top left, top right, bottom left, bottom right.
CORNER_MARKS = (0x00F8, 0xE007, 0x1F00, 0xFFFF)

# A card goes to the screen in bands of rows, from its owner's top down (the last band
# may be shorter): a whole card's window is over 1 ms on the chip.
CARD_BANDS = const(3)

# What each play-screen region last showed: one int per region, -1 for "redraw".
_K_FACE = const(0)  # + band * 10 + player * 5 + slot: card | selected << 6
_K_EDGES = const(CARD_BANDS * 10)  # + player * 5 + slot: cards under | face up under << 4
_K_TOP = const(_K_EDGES + 10)  # + band * 2 + pile
_K_COUNT = const(_K_TOP + CARD_BANDS * 2)  # + pile
_K_PACK = const(_K_COUNT + 2)  # + player
_K_CALL = const(_K_PACK + 2)  # + player
_K_NAME = const(_K_CALL + 2)  # + player
_K_MESSAGE = const(_K_NAME + 2)
_KEY_COUNT = const(_K_MESSAGE + 1)

# Message keys; a margin banner is _MSG_BANNER plus its contest key.
_MSG_NONE = const(0)
_MSG_READY = const(1)
_MSG_STUCK = const(2)
_MSG_SLAP = const(3)
_MSG_PICK = const(4)  # + the player who picks
_MSG_WAIT = const(6)  # stuck, with spit=auto
_MSG_SLAP_LONE = const(7)  # a stalled one-pile round
_MSG_BANNER = const(8)

# How many actions since the last frame are followed one by one; after more, every
# region is checked.
_FOLLOW_MAX = const(8)
# How many calls in a row may only follow changes; the next one draws a region too.
_FOLLOWS_MAX = const(4)
# The regions that followed actions leave to draw: a pile's thickness (a few of its edges
# at a time), a band of a pile's card, a pile's counts, a band of a stock slot's top
# card, the edges of the cards under it, a pack.
_R_STACK = const(0)  # + pile
_R_PILE = const(2)  # + band * 2 + pile
_R_PILE_COUNT = const(_R_PILE + CARD_BANDS * 2)  # + pile
_R_FACE = const(_R_PILE_COUNT + 2)  # + band * 10 + player * 5 + slot
_R_EDGES = const(_R_FACE + CARD_BANDS * 10)  # + player * 5 + slot
_R_PACK = const(_R_EDGES + 10)  # + player
_R_COUNT = const(_R_PACK + 2)
# At most, per action: a spit's two piles (thickness, bands and counts) and two packs.
_REGIONS_PER_ACTION = const(2 * (CARD_BANDS + 2) + 2)
_EDGES_A_CALL = const(2)  # a pile's edges sent by one region: each is a window
_HAND_REGIONS = const(4 * CARD_BANDS)  # queued at most by one call's change of hands
_QUEUE_SIZE = const(2 * _FOLLOW_MAX * _REGIONS_PER_ACTION + _HAND_REGIONS)



def wrap(text, columns):
    """``text`` as lines of at most ``columns`` characters, broken between words
    where possible."""
    return list(_wrapped(text, columns))


def _wrapped(text, columns):
    """``wrap``'s lines one at a time, so that the error screen spreads the work."""
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            while len(word) > columns:
                if line:
                    yield line
                    line = ""
                yield word[:columns]
                word = word[columns:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= columns:
                line += " " + word
            else:
                yield line
                line = word
        yield line


def _pile_regions(pile):
    # The thickness first: the quickest sign that a card landed.
    return [_R_STACK + pile] + [_R_PILE + band * 2 + pile for band in range(CARD_BANDS)]


def _slot_regions(seat_slot):
    """A stock slot's top card's bands, then the edges under it; ``seat_slot`` is
    player * _SLOTS_MAX + slot."""
    face = _R_FACE + seat_slot  # player * 5 + slot, as _SLOTS_MAX is 5
    return [face + band * 10 for band in range(CARD_BANDS)] + [_R_EDGES + seat_slot]


def _spit_regions(piles):
    regions = []
    for pile in range(piles):
        regions += _pile_regions(pile) + [_R_PILE_COUNT + pile]
    return regions + [_R_PACK, _R_PACK + 1]


def _touches(start, end, left, width):
    """Whether columns ``start`` to ``end - 1`` reach into ``left`` to ``left + width - 1``."""
    return start < left + width and end > left


def _frame_shape(w, h, thickness):
    """A ``w`` by ``h`` frame ``thickness`` pixels wide, as ``ink``'s shape of a bitmap
    from ``Renderer._turn``: top, bottom, then the sides between them."""
    inside = h - 2 * thickness
    rects = (0, 0, w, thickness, 0, h - thickness, w, thickness)
    rects += (0, thickness, thickness, inside, w - thickness, thickness, thickness, inside)
    return (None, None, w, h, 0, bytes((w, h) + rects))


def _contest_key(contest):
    """A contested outcome as one small int (-1 for none), to notice a new one."""
    if contest.winner < 0:
        return -1
    return contest.margin_us << 2 | contest.tie << 1 | contest.winner


def _prompts(word):
    """The message row's prompts, in the order of the _MSG_ keys, the call, and the
    "press" line of the title and the ready screen."""
    prompts = (
        "",
        "both press " + word,
        "nobody can move - press " + word,
        "SLAP the smaller pile",
        "P1 picks a pile",
        "P2 picks a pile",
        "nobody can move",
        "SLAP the pile",
    )
    return prompts, word + "!", "press " + word


def _locked(draw, renderer, game, controls):
    """``draw(renderer, game, controls)`` with the heap locked. Drawing allocates nothing,
    and while the heap is locked MicroPython gives every function its frame on the C
    stack: a function with many locals otherwise takes its frame from the heap, where
    finding room can take hundreds of microseconds once the heap is fragmented. (Few
    arguments here: this function's own frame must stay off the heap.)"""
    heap_lock()
    try:
        draw(renderer, game, controls)
    finally:
        heap_unlock()


class _HeapLock:
    """``with``: the heap locked inside when the renderer's ``lock_heap`` is set, as
    ``_locked`` does for ``play()``; for the other screens' pieces of text, drawn from
    generators that allocate between them."""

    def __init__(self, renderer):
        self.renderer = renderer
        self.held = False

    def __enter__(self):
        if self.renderer.lock_heap:
            heap_lock()
            self.held = True

    def __exit__(self, kind, value, trace):
        if self.held:
            self.held = False
            heap_unlock()


class Renderer:
    """Draws the screens onto ``display`` with the ``framebuf`` module given; see the
    module's docstring."""

    def __init__(self, display, framebuf):
        self.display = display
        # Pixels that go out by DMA (the device) leave the bus busy after a call; a
        # display without (the simulator, the tests) takes them before it returns.
        self._background = getattr(display, "in_background", False)
        self._clear_step = HEIGHT if self._background else _CLEAR_ROWS
        self.full_redraws = 0
        self._framebuf = framebuf
        self._work = memoryview(bytearray(WORK_BYTES))
        # Blank cards on the felt, whole and in bands, copied into a window rather than
        # drawn each time; made first, while the heap still has room in one piece.
        self._ink_spec = array("i", (0, 0, 0, 0, 0, 0))  # ``ink``'s: see ``_ink``
        self._mx = WIDTH
        self._my = HEIGHT
        self._face_bands = self._bands(FACE_W, FACE_H, MARGIN)
        self._pile_bands = self._bands(CARD_W, CARD_H, 0)
        self._edges = self._view(EDGES_W, FACE_H)
        self._count = self._view(CARD_W, COUNT_H)
        self._info = self._view(INFO_W, INFO_H)
        self._message_row = self._view(WIDTH, MESSAGE_H)
        self._row_piece = self._view(_PIECE_W, MESSAGE_H)
        # One card's edge in a spit pile, and the felt where an edge went.
        self._edge_column = self._column(True, CARD_H)
        self._felt_column = self._column(False, CARD_H)
        self._felt_edge = self._column(False, FACE_H)  # where a stock edge went
        self._edge_y = (STOCK_Y, HEIGHT - STOCK_Y - FACE_H)
        # For ``ink``: the outlines of the first k edges under a stock card, and their
        # insides, as shapes the size of the edges' window (held as ``_turn`` holds a
        # bitmap's: its size at 2 and 3, the shape at 5).
        self._edge_outlines = []
        self._edge_fills = []
        outlines = [EDGES_W, FACE_H]
        fills = [EDGES_W, FACE_H]
        for i in range(EDGES_MAX + 1):
            self._edge_outlines.append((None, None, EDGES_W, FACE_H, 0, bytes(outlines)))
            self._edge_fills.append((None, None, EDGES_W, FACE_H, 0, bytes(fills)))
            height = CARD_H - 2 * (i + 1)
            outlines += (EDGE_STEP * i, MARGIN + i + 1, EDGE_STEP, height)
            fills += (EDGE_STEP * i, MARGIN + i + 2, 1, height - 2)
        # The empty place and the hand's highlight as shapes (``_shape``): one ``ink``
        # call each rather than four rectangles.
        self._empty_shape = _frame_shape(CARD_W, CARD_H, 1)
        self._highlight_shape = _frame_shape(FACE_W, FACE_H, MARGIN)
        # Palettes that blit a 1-bit bitmap in one colour, leaving the rest as it was.
        self._palettes = {}
        for colour in (INK, RED, WHITE, HIGHLIGHT, DIM, CPU_TAG):
            self._palette(colour)
        self._big_ranks = [self._bitmap(glyph, BIG_SCALE) for glyph in RANKS]
        self._big_suits = [self._bitmap(glyph, BIG_SCALE) for glyph in SUITS]
        self._index_ranks = [self._bitmap(glyph, INDEX_SCALE) for glyph in RANKS]
        self._index_suits = [self._bitmap(glyph, INDEX_SCALE) for glyph in SUITS]
        self._index_h = max(bitmap[3] for bitmap in self._index_ranks + self._index_suits)
        # 8x8 text: a row to magnify, and the labels player 2 reads in play.
        self._mono = bytearray(_LINE_BYTES)
        self._mono_fb = framebuf.FrameBuffer(self._mono, WIDTH, 8, framebuf.MONO_HLSB)
        # Big text's glyph row to shape: the row, the characters, the scale (``_big``).
        self._big_spec = array("i", (0, 0, 1))
        self._labels = {}
        for label in _DIGITS + NAMES + ("CPU", "pack"):
            self._label(label)
        # Each word's prompts and call, made once: the play screen allocates nothing.
        self._words = {}
        for word in WORDS:
            self._words[word] = _prompts(word)
            self._label(word + "!")
        # The pen: the window being drawn, its screen origin, and the mirror that
        # turns a player-1 position into player 2's (about the frame's centre).
        self._fb = None
        self._buf = None
        self._x = 0
        self._y = 0
        self._w = 0
        self._h = 0
        self._flip = False
        # A card's glyph (which has its shape): painted where viper code runs, else
        # blitted; a call fewer a glyph than ``_blit``, which asks each time.
        self._glyph = self._blit_fb if ink is None else self._ink
        # What is still to draw, and what this call may still draw.
        self.regions_per_call = 0
        self.lock_heap = False  # the device's: see ``_locked``
        self._heap_locked = _HeapLock(self)
        self._asked_cpus = (False, False)  # ``play``'s ``cpus``, for ``_play``
        self._left = -1  # regions this call may still draw; below 0, any number
        self.busy = False  # the last call left something for the next ones
        self._clear_row = HEIGHT  # the next strip of a clear going out
        self._steps = None  # a static screen's drawing, a region a step
        self._fresh = False  # new values taken this call: drawing starts with the next
        self.answering = False  # set by the caller: this call sends its first region too
        self.taking = False  # set by the caller: this call takes new values, draws nothing
        self._backdrop_due = False  # the self-test's bars and corners, after a clear
        self._drawn = {}  # what each piece of a static screen's rows shows
        # The play screen as last drawn.
        self._screen = _NO_SCREEN
        self._shown = [None, None, None, None, None]  # the values a static screen shows
        self._keys = [-1] * _KEY_COUNT
        self._stacks = [0, 0]
        self._hands = [-1, -1]
        self._calls = [None, None]
        self._cpus = None  # the ``cpus`` tuple last drawn
        self._piles = 0
        self._slots = 0
        # Left edges of the stock slots and the spit piles in the layout being shown,
        # filled in place when it changes (``_place``).
        self._slot_x = array("h", bytes(2 * _SLOTS_MAX))
        self._pile_x = array("h", bytes(2 * 2))  # two piles at most
        self._game = None
        self._round = -1
        self._done = 0
        self._queue = bytearray(_QUEUE_SIZE)  # a ring of _R_ region codes
        # The regions an action can change, queued in one go: a card's bands (the
        # hand's highlight), a stock slot's, a card played, a spit or a slap.
        piles = [_pile_regions(pile) for pile in (0, 1)]
        slots = [_slot_regions(i) for i in range(2 * _SLOTS_MAX)]  # player * _SLOTS_MAX + slot
        self._face_regions = [bytes(regions[:CARD_BANDS]) for regions in slots]
        self._slot_regions = [bytes(regions) for regions in slots]
        # A card played: its pile's regions first, the card landing there being what the
        # players watch for. By (player * _SLOTS_MAX + slot) * 2 + pile.
        self._play_regions = [
            bytes(piles[i % 2] + slots[i // 2] + [_R_PILE_COUNT + i % 2])
            for i in range(4 * _SLOTS_MAX)
        ]
        self._spit_regions = [bytes(_spit_regions(count)) for count in (1, 2)]
        self._head = 0
        self._pending = 0
        self._sweep = _R_COUNT  # the next region of a sweep over them all
        self._baseline = -1
        # What the message row was decided from: history length, phase, the contest.
        self._seen = [-1, -1, -2, -1]
        # The phase and contest as the last ``_play_changed`` followed them: the message
        # row's ``_seen`` waits until the regions before it are drawn.
        self._followed = [-1, -2, -1]
        self._only_followed = 0  # calls in a row that followed changes and drew nothing
        self._word = None
        self._prompts = None
        self._called_text = ""
        # The message row being drawn, and how far: columns of player 1's copy, then
        # player 2's (2 * WIDTH: all drawn).
        self._message_text = ""
        self._message_x = 0
        self._message_ink = HIGHLIGHT
        self._message_at = 2 * WIDTH
        self._message_from = 0  # the columns that pieces of it must cover
        self._message_to = 0

    def _view(self, w, h):
        size = w * h * 2
        buf = self._work[:size]
        return (self._framebuf.FrameBuffer(buf, w, h, self._framebuf.RGB565), buf, w, h)

    def _bands(self, w, h, margin):
        """A blank card on the felt (``margin`` of felt around it) as bands of rows:
        ``(view, top, picture, turned picture)`` each, a picture being that band of the
        blank card, and the turned one the band that lies there on player 2's screen.
        The pictures are copied into a window rather than drawn each time."""
        view = self._view(w, h)
        self._begin(view, 0, 0, False, FELT)
        self._blank_card(margin, margin)
        picture = memoryview(bytes(view[1]))
        band_h = (h + CARD_BANDS - 1) // CARD_BANDS
        bands = []
        for top in range(0, h, band_h):
            bottom = min(top + band_h, h)
            bands.append((
                self._view(w, bottom - top),
                top,
                picture[top * w * 2 : bottom * w * 2],
                picture[(h - bottom) * w * 2 : (h - top) * w * 2],
            ))
        return bands

    def _column(self, edge, height):
        """A 2-pixel column: one card's edge in a spit pile, or bare felt."""
        buf = bytearray(STACK_STEP * height * 2)
        fb = self._framebuf.FrameBuffer(buf, STACK_STEP, height, self._framebuf.RGB565)
        fb.fill(FELT)
        if edge:
            fb.fill_rect(0, 0, 1, height, EDGE)
            fb.fill_rect(1, 1, 1, height - 2, SHADOW)
        return buf

    def _palette(self, ink):
        palette = self._palettes.get(ink)
        if palette is None:
            palette = self._framebuf.FrameBuffer(bytearray(4), 2, 1, self._framebuf.RGB565)
            palette.pixel(0, 0, ink ^ 0xFFFF)  # any colour but the ink: the key
            palette.pixel(1, 0, ink)
            self._palettes[ink] = palette
        return palette

    def _turn(self, buf, width, height, rects):
        """``(upright, turned, width, height, pad, shape)``: a 1-bit bitmap and its
        180-degree turn, whose ``pad`` columns of row padding now lie on the left, and
        the bitmap as ``ink`` paints it: its size, then ``rects`` (left, top, width,
        height each), or None (a label of 8x8 text, which is blitted: finding its
        rectangles would cost more than blitting it)."""
        fbm = self._framebuf
        turned = bytearray(reversed(buf))
        stride = (width + 7) & ~7
        return (
            fbm.FrameBuffer(buf, width, height, fbm.MONO_HLSB),
            fbm.FrameBuffer(turned, stride, height, fbm.MONO_HMSB),
            width,
            height,
            stride - width,
            None if rects is None else bytes([width, height] + rects),
        )

    def _bitmap(self, glyph, scale):
        width = glyph[0] * scale
        height = glyph[1] * scale
        buf = bytearray((width + 7) // 8 * height)
        fb = self._framebuf.FrameBuffer(buf, width, height, self._framebuf.MONO_HLSB)
        rects = []
        for i in range(2, len(glyph), 3):
            rect = [glyph[i] * scale, glyph[i + 1] * scale, glyph[i + 2] * scale, scale]
            fb.fill_rect(rect[0], rect[1], rect[2], rect[3], 1)
            rects += rect
        return self._turn(buf, width, height, rects)

    def _label(self, text):
        """A short text as a bitmap both ways up, made once and kept."""
        label = self._labels.get(text)
        if label is None:
            width = 8 * len(text)
            buf = bytearray(width)
            self._framebuf.FrameBuffer(buf, width, 8, self._framebuf.MONO_HLSB).text(text, 0, 0, 1)
            label = self._turn(buf, width, 8, None)
            self._labels[text] = label
        return label

    # -- the pen ----------------------------------------------------------------

    def _frame(self, x, y, w, h):
        """Player 2's copies of what follows turn about this rectangle's centre."""
        self._mx = 2 * x + w
        self._my = 2 * y + h

    def _begin(self, view, x, y, flip, background):
        """Start a window of ``view``'s shape at player-1 position ``x, y``, filled
        with a colour or copied from a picture of the same shape (bytes).

        The pen's helpers keep to a few locals: on MicroPython a function with more
        than 11 words of locals and stack gets its frame from the heap at every call."""
        if flip:
            x = self._mx - x - view[2]
            y = self._my - y - view[3]
        self._fb = view[0]
        self._buf = view[1]
        self._x = x
        self._y = y
        self._w = view[2]
        self._h = view[3]
        self._flip = flip
        if self._background and self.display.sending:
            self.display.wait()  # the last window's pixels still come from this buffer
        if isinstance(background, int):
            view[0].fill(background)
        else:
            view[1][:] = background  # a copy in C, and no allocation

    def _end(self):
        self.display.show(self._x, self._y, self._w, self._h, self._buf)

    def _rect(self, x, y, w, h, c):
        if self._flip:
            x = self._mx - x - w
            y = self._my - y - h
        self._fb.fill_rect(x - self._x, y - self._y, w, h, c)

    def _blit(self, bitmap, x, y, colour):
        """A bitmap from ``_turn`` in ``colour``, its top left at ``x, y`` as player 1
        sees it."""
        if ink is not None and bitmap[5] is not None:  # viper: framebuf's blit is slower
            self._ink(bitmap, x, y, colour)
        else:
            self._blit_fb(bitmap, x, y, colour)

    def _blit_fb(self, bitmap, x, y, colour):
        ink_key = colour ^ 0xFFFF
        palette = self._palettes[colour]
        if self._flip:
            x = self._mx - x - bitmap[2]
            y = self._my - y - bitmap[3]
            self._fb.blit(bitmap[1], x - bitmap[4] - self._x, y - self._y, ink_key, palette)
        else:
            self._fb.blit(bitmap[0], x - self._x, y - self._y, ink_key, palette)

    def _ink(self, bitmap, x, y, colour):
        """``ink``'s shape of a bitmap from ``_turn`` (or a shape as one) in ``colour``,
        its top left at ``x, y`` as player 1 sees it; nothing when it lies above or
        below the window (a band)."""
        spec = self._ink_spec
        spec[5] = self._flip
        if self._flip:
            x = self._mx - x - bitmap[2]
            y = self._my - y - bitmap[3]
        y -= self._y
        if y >= self._h or y + bitmap[3] <= 0:
            return
        spec[0] = self._w
        spec[1] = self._h
        spec[2] = x - self._x
        spec[3] = y
        spec[4] = colour
        ink(self._buf, bitmap[5], spec)

    def _text(self, text, x, y, ink):
        """8x8 text with its top left at ``x, y`` (as player 1 reads it); player 2's
        copy is a label's (``_label``) turned bitmap."""
        if self._flip:
            self._blit(self._labels[text], x, y, ink)
        else:
            self._fb.text(text, x - self._x, y - self._y, ink)

    def _text_row(self, player, text, x, y, ink, left, width):
        """Columns ``left`` to ``left + width`` of a row of 8x8 text across the screen,
        ``x, y`` as player 1 sees their own. Player 2's copy is drawn upright and the
        panel turns it: cheaper than turning the text as a bitmap."""
        view = self._message_row if width == WIDTH else self._row_piece
        self._begin(view, left, y, False, FELT)
        self._fb.text(text, x - left, 0, ink)
        if player == 1:
            self._end_turned()
        else:
            self._end()

    def _end_turned(self):
        """The window, drawn upright at player 1's position, as player 2's copy: sent
        turned (``show_turned``) to the mirror of that position."""
        x = self._mx - self._x - self._w
        self.display.show_turned(x, self._my - self._y - self._h, self._w, self._h, self._buf)

    def _piece_width(self):
        """How wide a piece of a text row one region is: the whole row, or an eighth
        of it when drawing a region a call."""
        return _PIECE_W if self.regions_per_call else WIDTH

    def _number(self, n, x, y, ink):
        """``n`` (0 to 999) in 8x8 digits, without building a string."""
        place = 1 if n < 10 else 10 if n < 100 else 100
        while place:
            digit = _DIGITS[n // place % 10]
            if self._flip:
                self._blit(self._labels[digit], x, y, ink)
            else:
                self._fb.text(digit, x - self._x, y - self._y, ink)
            x += 8
            place //= 10

    def _glyphs(self, text):
        """The 8x8 glyphs of ``text`` side by side in the 1-bit row ``_big`` paints from."""
        self._mono[:] = _NO_BITS  # a copy in C: filling a 1-bit FrameBuffer goes pixel by pixel
        self._mono_fb.text(text, 0, 0, 1)

    def _big(self, shape, x, y, ink, first, last):
        """Glyph rows ``first`` to ``last - 1`` of the text ``_glyphs`` laid out,
        magnified as ``shape`` (a bitmap tuple whose shape ``glyph_row_shape`` rewrites
        for each row), their top left at ``x, y`` as player 1 sees it: each run of set
        bits in a glyph row is one rectangle, painted upright or turned."""
        spec = self._big_spec
        scale = spec[2]
        for row in range(first, last):
            spec[0] = row
            glyph_row_shape(self._mono, shape[5], spec)
            self._shape(shape, x, y + row * scale, ink)

    # -- cards --------------------------------------------------------------------

    def _blank_card(self, x, y):
        # Outline with its corners cut, so the card looks rounded.
        self._rect(x + 1, y, CARD_W - 2, CARD_H, OUTLINE)
        self._rect(x, y + 1, CARD_W, CARD_H - 2, OUTLINE)
        self._rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2, FACE)

    def _shape(self, shape, x, y, colour):
        """A shape made for ``ink`` in ``colour``, its top left at ``x, y``: one call
        where viper code runs, its rectangles one by one elsewhere."""
        if ink is not None:
            self._ink(shape, x, y, colour)
            return
        rects = shape[5]
        for i in range(2, len(rects), 4):
            self._rect(x + rects[i], y + rects[i + 1], rects[i + 2], rects[i + 3], colour)

    def _empty_place(self, x, y):
        self._shape(self._empty_shape, x, y, DIM)

    def _stock_card(self, card, x, y):
        """A card as its owner reads it: a big rank top left, a big suit bottom right,
        over a blank card already in the window."""
        suit = card // 13
        ink = RED if RED_SUITS[suit] else INK
        self._glyph(self._big_ranks[card % 13], x + INSET, y + INSET, ink)
        mark = self._big_suits[suit]
        self._glyph(mark, x + CARD_W - INSET - mark[2], y + CARD_H - INSET - mark[3], ink)

    def _index(self, card, x, y):
        """Rank and suit along the card's bottom edge (the near edge for its reader)."""
        suit = card // 13
        ink = RED if RED_SUITS[suit] else INK
        rank = self._index_ranks[card % 13]
        bottom = y + CARD_H - INDEX_INSET
        self._glyph(rank, x + INDEX_INSET, bottom - rank[3], ink)
        mark = self._index_suits[suit]
        self._glyph(mark, x + CARD_W - INDEX_INSET - mark[2], bottom - mark[3], ink)

    # -- the play screen ------------------------------------------------------------

    def carry_on(self):
        """Go on drawing the static screen being drawn, without looking at its values
        again (the last call did); False when none is being drawn (the play screen, or
        nothing left): call the screen itself then."""
        if self._steps is None:
            return False
        self._draw_steps()
        return True

    def invalidate(self):
        """The next ``play()`` redraws the whole screen."""
        self._screen = _NO_SCREEN

    def _start_call(self):
        self._left = self.regions_per_call or -1
        self.busy = False
        if self._left > 0 and self._background and self.display.busy():
            self._left = 0  # the bus still takes the last region: nothing waits for it

    def _afford(self):
        """Whether this call may draw one more region; counts it if so."""
        if self._left == 0:
            self.busy = True
            return False
        self._left -= 1
        return True

    def _clear_strips(self):
        """The next strips of a clear going out; True once the screen is clear."""
        row = self._clear_row
        while row < HEIGHT:
            if self._left == 0:  # ``_afford``, inlined: a call costs tens of microseconds
                self.busy = True
                return False
            self._left -= 1
            self.display.fill_rows(FELT, row, self._clear_step)
            row += self._clear_step
            self._clear_row = row
        return True

    def play(self, game, controls, cpus=(False, False)):
        """Draw the play screen of ``game`` (a ``rules.Game``) with the hands and
        calls of ``controls``; ``cpus[p]`` is true when seat p is the CPU. Only the
        regions that changed since the last call are sent."""
        self._asked_cpus = cpus
        if self.lock_heap:
            _locked(Renderer._play, self, game, controls)
        else:
            self._play(game, controls)

    def _play(self, game, controls):
        # Few locals here: on MicroPython a function with more than 11 words of locals
        # and stack gets its frame from the heap at every call, and this runs every pass.
        cpus = self._asked_cpus
        followed = self._followed
        if (
            # Most frames: nothing happened since the last one. Lists compare in C.
            game is self._game
            and len(game.history) == self._done
            and controls.hand == self._hands
            and controls.called == self._calls
            and game.phase == followed[0]
            and controls.contest.winner == followed[1]
            and controls.contest.margin_us == followed[2]
            and game.round == self._round
            and self._screen == _PLAY_SCREEN
            and cpus == self._cpus
        ):
            if self.busy and not self.taking:  # only what earlier calls left
                self._only_followed = 0
                # ``_start_call``, inlined: this is the path of every region drawn.
                self._left = self.regions_per_call or -1
                self.busy = False
                if self._left > 0 and self._background and self.display.busy():
                    self._left = 0
                self._draw_pending(game, controls)
            return
        self._play_changed(game, controls, cpus)

    def _play_changed(self, game, controls, cpus):
        """``play`` when something changed: follow it, queue its regions, draw."""
        calls = self._calls
        self._start_call()
        self._cpus = cpus
        calls[0] = controls.called[0]
        calls[1] = controls.called[1]
        piles = game.pile_count()
        slots = game.slots
        everything = False
        if self._screen != _PLAY_SCREEN or piles != self._piles or slots != self._slots:
            self._clear(_PLAY_SCREEN)
            self._place(piles, slots)
            everything = True
        if game is not self._game or game.round != self._round:
            # A banner belongs to the round it happened in.
            self._game = game
            self._round = game.round
            self._baseline = _contest_key(controls.contest)
            everything = True
        word = game.options.word
        if word != self._word:
            self._set_word(word)
        history = game.history
        done = len(history)
        new = done - self._done
        queued = self._pending + _REGIONS_PER_ACTION * new + _HAND_REGIONS
        if new < 0 or new > _FOLLOW_MAX or queued > _QUEUE_SIZE:
            everything = True
        if everything:
            self._queue_everything(piles, slots)
        else:
            for i in range(self._done, done):
                self._follow(history[i])
        self._done = done
        followed = self._followed
        followed[0] = game.phase
        followed[1] = controls.contest.winner
        followed[2] = controls.contest.margin_us
        self._follow_hands(controls)
        if self.taking:
            self.busy = True  # followed: the regions go from a call that draws
            return
        if (
            self.regions_per_call
            and not self.answering
            and (self._fresh or self._only_followed < _FOLLOWS_MAX)
        ):
            # Following the change was this call's share (after a clear, setting the
            # table out): the regions go from the next call. Not in every call, so that
            # a change in every call (mashed buttons) still lets regions out.
            self._fresh = False
            self._only_followed += 1
            self.busy = True
            return
        self._only_followed = 0
        self._draw_pending(game, controls)

    def _draw_pending(self, game, controls):
        # In this order, each a region at a time; what this call cannot draw waits
        # for the next. The labels and the message row are looked at only by a call
        # that has its region still to spend, and a new message's pieces go from the
        # next call: deciding the message takes about 0.3 ms on the chip.
        if not (
            (self._clear_row >= HEIGHT or self._clear_strips())
            and self._draw_queued(game, controls)
        ):
            return
        # Its region spent on the queue, or on a label: the rest waits for the next call.
        if self._left == 0 or not self._draw_labels(controls, self._cpus) or self._left == 0:
            self.busy = True
            return
        if self._decide_message(game, controls, len(game.history)) and self.regions_per_call:
            self.busy = True
            return
        self._draw_message()

    def _place(self, piles, slots):
        if piles == self._piles and slots == self._slots:
            return
        self._piles = piles
        self._slots = slots
        for slot in range(slots):
            self._slot_x[slot] = slot_x(slots, slot)
        for pile in range(piles):
            self._pile_x[pile] = pile_x(piles, pile)

    def _queue_everything(self, piles, slots):
        """Every region, in the order of their codes, after what is queued: a sweep
        rather than a queue, so that setting the table out costs one store."""
        self._pending = 0
        self._seen[0] = -1
        self._sweep = 0

    def _follow_hands(self, controls):
        """Queue the top cards a hand left and went to (their highlight)."""
        for player in (0, 1):
            hand = controls.hand[player]
            if hand != self._hands[player]:
                if self._hands[player] >= 0:
                    self._queue_face(player, self._hands[player])
                if hand >= 0:
                    self._queue_face(player, hand)
                self._hands[player] = hand

    def _follow(self, action):
        """Queue the regions that ``action`` can have changed."""
        kind = action >> 9
        seat = (action >> 8 & 1) * _SLOTS_MAX
        first = seat + (action >> 4 & 15)  # the slot the card leaves
        if kind == PLAY:
            self._queue_regions(self._play_regions[first * 2 + (action & 15)])
        elif kind == MOVE:
            self._queue_regions(self._slot_regions[first])
            self._queue_regions(self._slot_regions[seat + (action & 15)])
        else:
            self._queue_regions(self._spit_regions[self._piles - 1])

    def _queue_face(self, player, slot):
        self._queue_regions(self._face_regions[player * _SLOTS_MAX + slot])

    def _queue_regions(self, regions):
        """Queue ``regions`` (bytes of region codes), in order: a loop here rather than
        a call a region (a call takes tens of microseconds on the chip)."""
        queue = self._queue
        at = self._head + self._pending
        for region in regions:
            queue[at % _QUEUE_SIZE] = region
            at += 1
        self._pending += len(regions)

    def _queue_region(self, region):
        self._queue[(self._head + self._pending) % _QUEUE_SIZE] = region
        self._pending += 1

    def _draw_queued(self, game, controls):
        """Draw queued regions, then those of a sweep, while this call may; True once
        none is left. A region may queue itself again (a pile's thickness)."""
        while True:
            if self._pending:
                if self._left == 0:  # ``_afford``, inlined: a call costs tens of microseconds
                    self.busy = True
                    return False
                self._left -= 1
                region = self._queue[self._head]
                self._head = (self._head + 1) % _QUEUE_SIZE
                self._pending -= 1
            elif self._sweep < _R_COUNT:
                region = self._sweep
                if not self._in_layout(region):
                    self._sweep = region + 1
                    continue
                if not self._afford():
                    return False
                self._sweep = region + 1
            else:
                return True
            self._draw_region(game, controls, region)

    def _in_layout(self, region):
        if region < _R_FACE:
            return region % 2 < self._piles
        if region < _R_PACK:
            return (region - _R_FACE) % 5 < self._slots
        return True

    def _draw_region(self, game, controls, region):
        if region < _R_PILE:
            self._thickness(region, len(game.middle[region]))
        elif region < _R_PILE_COUNT:
            region -= _R_PILE
            self._pile(game, region % 2, region // 2)
        elif region < _R_FACE:
            self._pile_count(game, region - _R_PILE_COUNT)
        elif region < _R_EDGES:
            region -= _R_FACE
            self._slot_face(game, controls, region // 5 % 2, region % 5, region // 10)
        elif region < _R_PACK:
            region -= _R_EDGES
            self._slot_edges(game, region // 5, region % 5)
        else:
            self._pack(game, region - _R_PACK)

    def _draw_labels(self, controls, cpus):
        """Each player's name and SPIT call where they changed; True once drawn."""
        keys = self._keys
        for player in (0, 1):
            name = 1 if cpus[player] else 0
            if keys[_K_NAME + player] != name:
                if not self._afford():
                    return False
                self._draw_name(player, name)
            called = 1 if controls.called[player] else 0
            if keys[_K_CALL + player] != called:
                if not self._afford():
                    return False
                self._draw_call(player, called)
        return True

    def _clear(self, screen):
        """Start a new screen on a clear one (a strip a region when drawing a call at a
        time); whatever the old screen still had to draw is dropped."""
        self.full_redraws += 1
        self._screen = screen
        if self.regions_per_call:
            self._clear_row = 0
        else:
            self._clear_row = HEIGHT
            self.display.fill(FELT)
        if screen == _PLAY_SCREEN:  # only the play screen's regions keep keys
            keys = self._keys
            for k in range(_KEY_COUNT):  # a slice assignment would allocate
                keys[k] = -1
        self._stacks[0] = self._stacks[1] = 0
        self._pending = 0
        self._sweep = _R_COUNT
        self._message_at = 2 * WIDTH
        self._message_text = ""  # the clear took it away
        self._fresh = bool(self.regions_per_call)
        self._steps = None
        self._backdrop_due = True
        self._drawn.clear()

    def _set_word(self, word):
        self._word = word
        self._prompts, self._called_text, _ = self._words[word]
        self._keys[_K_MESSAGE] = -1
        self._seen[0] = -1
        self._keys[_K_CALL] = self._keys[_K_CALL + 1] = -1

    # A player's line of information is drawn upright at player 1's place and the window
    # sent turned for player 2 (``_end_info``): text in C, where turned labels would be
    # blitted pixel by pixel.

    def _draw_name(self, player, cpu):
        self._keys[_K_NAME + player] = cpu
        self._begin(self._info, NAME_X, INFO_Y, False, FELT)
        self._text(NAMES[player], NAME_X, INFO_Y + 2, WHITE)
        if cpu:
            self._text("CPU", NAME_X + 24, INFO_Y + 2, CPU_TAG)
        self._end_info(player)

    def _pack(self, game, player):
        pack = len(game.pack[player])
        if self._keys[_K_PACK + player] == pack:
            return
        self._keys[_K_PACK + player] = pack
        self._begin(self._info, PACK_X, INFO_Y, False, FELT)
        self._text("pack", PACK_X, INFO_Y + 2, WHITE)
        self._number(pack, PACK_X + 40, INFO_Y + 2, WHITE)
        self._end_info(player)

    def _draw_call(self, player, called):
        self._keys[_K_CALL + player] = called
        self._begin(self._info, CALL_X, INFO_Y, False, FELT)
        if called:
            width = 8 * len(self._called_text) + 4
            self._rect(CALL_X, INFO_Y, width, INFO_H, HIGHLIGHT)
            self._text(self._called_text, CALL_X + 2, INFO_Y + 2, INK)
        self._end_info(player)

    def _end_info(self, player):
        if player == 1:
            self._end_turned()
        else:
            self._end()

    def _slot_face(self, game, controls, player, slot, band):
        """A band of a stock slot's top card, or of its empty place, and the hand's
        highlight: whatever of the card falls in the band is clipped to it."""
        keys = self._keys
        cards = game.stock[player][slot]
        n = len(cards)
        selected = 64 if controls.hand[player] == slot else 0
        face = (cards[-1] if n else _EMPTY) | selected
        k = _K_FACE + band * 10 + player * 5 + slot
        if keys[k] == face:
            return
        keys[k] = face
        x = self._slot_x[slot]
        flip = player == 1
        view, top, picture, turned = self._face_bands[band]
        if n:
            self._begin(view, x, STOCK_Y + top, flip, turned if flip else picture)
            if selected:
                self._shape(self._highlight_shape, x, STOCK_Y, HIGHLIGHT)
            self._stock_card(cards[-1], x + MARGIN, STOCK_Y + MARGIN)
        else:
            self._begin(view, x, STOCK_Y + top, flip, FELT)
            self._empty_place(x + MARGIN, STOCK_Y + MARGIN)
        self._end()

    def _slot_edges(self, game, player, slot):
        """The edges of the cards under a stock slot's top, to its right."""
        keys = self._keys
        cards = game.stock[player][slot]
        n = len(cards)
        x = self._slot_x[slot]
        flip = player == 1
        under = n - 1 if n else 0
        if under > EDGES_MAX:
            under = EDGES_MAX
        up = game.face_up[player][slot] - 1 if n else 0
        edges = under | up << 4
        k = _K_EDGES + player * 5 + slot
        shown = keys[k]
        if shown == edges:
            return
        keys[k] = edges
        ex = x + FACE_W
        if shown >= 0 and shown >> 4 == up and shown & 15 > under:
            # Only the deepest edges went (a card played off the pile): felt over them.
            for i in range(under, shown & 15):
                sx = ex + EDGE_STEP * i
                if flip:
                    sx = WIDTH - sx - EDGE_STEP
                self.display.show(sx, self._edge_y[player], EDGE_STEP, FACE_H, self._felt_edge)
        elif ink is not None:  # three shapes painted rather than two rectangles an edge
            self._begin(self._edges, ex, STOCK_Y, flip, FELT)
            self._ink(self._edge_outlines[under], ex, STOCK_Y, OUTLINE)
            self._ink(self._edge_fills[under], ex, STOCK_Y, BACK)
            if up:  # face-up cards under the top (stack=on)
                self._ink(self._edge_fills[up if up < under else under], ex, STOCK_Y, FACE)
            self._end()
        else:
            self._begin(self._edges, ex, STOCK_Y, flip, FELT)
            for i in range(under):
                # Face-up cards (stacked with stack=on) lie right under the top.
                height = CARD_H - 2 * (i + 1)
                ey = STOCK_Y + MARGIN + i + 1
                self._rect(ex + EDGE_STEP * i, ey, EDGE_STEP, height, OUTLINE)
                self._rect(ex + EDGE_STEP * i, ey + 1, 1, height - 2, FACE if i < up else BACK)
            self._end()

    def _pile(self, game, pile, band):
        """A band of a pile's top card (its index both ways up, clipped to the band)."""
        keys = self._keys
        cards = game.middle[pile]
        n = len(cards)
        top = cards[-1] if n else _EMPTY
        x = self._pile_x[pile]
        k = _K_TOP + band * 2 + pile
        if keys[k] == top:
            return
        keys[k] = top
        # ``_frame(x, PILE_Y, CARD_W, CARD_H)``, inlined: the turned index turns about
        # the card's centre.
        self._mx = 2 * x + CARD_W
        self._my = 2 * PILE_Y + CARD_H
        view, y, picture, _ = self._pile_bands[band]
        if n:
            # Only the indexes that reach into the band: the upright one along the
            # card's bottom, the turned one along its top.
            self._begin(view, x, PILE_Y + y, False, picture)
            if y + view[3] > CARD_H - INDEX_INSET - self._index_h:
                self._index(top, x, PILE_Y)
            if y < INDEX_INSET + self._index_h:
                self._flip = True
                self._index(top, x, PILE_Y)
        else:
            self._begin(view, x, PILE_Y + y, False, FELT)
            self._empty_place(x, PILE_Y)
        self._end()
        self._mx = WIDTH  # ``_frame(0, 0, WIDTH, HEIGHT)``
        self._my = HEIGHT

    def _pile_count(self, game, pile):
        """The number of cards in a pile, both ways up (with counts=on)."""
        keys = self._keys
        n = len(game.middle[pile])
        x = self._pile_x[pile]
        count = n if game.options.counts == "on" else -1
        if keys[_K_COUNT + pile] != count:
            keys[_K_COUNT + pile] = count
            self._frame(x, 0, CARD_W, HEIGHT)
            for flip in (False, True):
                self._begin(self._count, x, COUNT_Y, flip, FELT)
                if count >= 0:
                    digits = 1 if count < 10 else 2
                    self._number(count, x + (CARD_W - 8 * digits) // 2, COUNT_Y, WHITE)
                self._end()
            self._frame(0, 0, WIDTH, HEIGHT)

    def _thickness(self, pile, n):
        """Send the edges that appeared or went since the last frame, a few at a time:
        the region is queued again for the rest."""
        piles = self._piles
        shown = self._stacks[pile]
        limit = stack_max(piles)
        if n > limit:
            n = limit
        if n == shown:
            return
        if n > shown + _EDGES_A_CALL:
            n = shown + _EDGES_A_CALL
            self._queue_region(_R_STACK + pile)
        elif n < shown - _EDGES_A_CALL:
            n = shown - _EDGES_A_CALL
            self._queue_region(_R_STACK + pile)
        self._stacks[pile] = n
        low = shown if shown < n else n
        high = n if shown < n else shown
        column = self._edge_column if shown < n else self._felt_column
        for i in range(low, high):
            self.display.show(stack_x(piles, pile, i), PILE_Y, STACK_STEP, CARD_H, column)

    def _decide_message(self, game, controls, done):
        """What the message row shows; True when a new message starts being drawn."""
        contest = controls.contest
        if contest.banner is None:
            self.busy = True  # a margin whose banner the controls' next update makes
            return
        seen = self._seen
        if (
            seen[0] == done
            and seen[1] == game.phase
            and seen[2] == contest.winner
            and seen[3] == contest.margin_us
        ):
            return
        seen[0] = done
        seen[1] = game.phase
        seen[2] = contest.winner
        seen[3] = contest.margin_us
        phase = game.phase
        key = _MSG_NONE
        if phase == PHASE_SLAP:
            if game.options.pick == "winner" and game.cleared >= 0:
                key = _MSG_PICK + game.cleared
            else:
                key = _MSG_SLAP_LONE if game.one_pile() else _MSG_SLAP
        elif phase == PHASE_READY:
            key = _MSG_READY
        elif phase == PHASE_PLAY and game.is_stuck():  # worked out once per action
            key = _MSG_WAIT if game.options.spit == "auto" else _MSG_STUCK
            # Whatever happened before everybody got stuck is old news after the spit.
            self._baseline = _contest_key(controls.contest)
        else:
            contest = _contest_key(controls.contest)
            if contest >= 0 and contest != self._baseline:
                key = _MSG_BANNER + contest
        if self._keys[_K_MESSAGE] == key:
            return
        self._keys[_K_MESSAGE] = key
        ink = HIGHLIGHT
        if key >= _MSG_BANNER:
            text = controls.contest.banner
            ink = WHITE
        else:
            text = self._prompts[key]
        # The pieces to draw: those the old text or the new one reach into.
        x = (WIDTH - 8 * len(text)) // 2
        start = self._message_x
        end = start + 8 * len(self._message_text)
        if self._message_at < 2 * WIDTH and self._message_from < self._message_to:
            # The old text was not all drawn: the pieces it had to cover still need it.
            start = min(start, self._message_from) if start < end else self._message_from
            end = max(end, self._message_to)
        if start == end:  # nothing to cover but the new text
            start = end = x
        self._message_from = min(start, x)
        self._message_to = max(end, x + 8 * len(text))
        self._message_text = text
        self._message_x = x
        self._message_ink = ink
        self._message_at = 0
        return True

    def _draw_message(self):
        """The message row's pieces still to draw while this call may: player 1's
        copy, then player 2's."""
        width = self._piece_width()
        while self._message_at < 2 * WIDTH:
            at = self._message_at
            if _touches(self._message_from, self._message_to, at % WIDTH, width):
                if not self._afford():
                    return
                self._text_row(
                    at // WIDTH,
                    self._message_text,
                    self._message_x,
                    MESSAGE_Y,
                    self._message_ink,
                    at % WIDTH,
                    width,
                )
            self._message_at = at + width

    # -- the other screens -------------------------------------------------------
    #
    # Each screen's drawing is a generator that yields after each region it draws, so
    # that with ``regions_per_call`` set it can stop where the call's share ends and
    # carry on at the next call, whatever values that call brings.

    def _static(self, screen, in_place, a, b=None, c=None, d=None, e=None):
        """Start drawing ``screen`` from the values ``a`` to ``e``; False when it
        already shows, or is drawing, exactly those values (checked without
        allocating, so a game loop may call a screen on every pass).

        A screen drawn ``in_place`` redraws its rows over themselves when its values
        change (the settings cursor, who is ready, the countdown); any other change
        starts from a clear screen, so nothing of the old one is left over."""
        # No local besides the arguments: with one more, the frame would come from the
        # heap at every call (``host_sim.frames``).
        if (
            # ``is`` first: most values come again as the same objects, and a call
            # costs tens of microseconds on the chip.
            self._screen == screen
            and (self._shown[0] is a or _same(self._shown[0], a))
            and (self._shown[1] is b or _same(self._shown[1], b))
            and (self._shown[2] is c or _same(self._shown[2], c))
            and (self._shown[3] is d or _same(self._shown[3], d))
            and (self._shown[4] is e or _same(self._shown[4], e))
        ):
            return False
        if self._screen != screen or not in_place:
            self._clear(screen)
        # Copies: a caller may change its list in place (controls.called, match.wins).
        self._shown[0] = _kept(a)
        self._shown[1] = _kept(b)
        self._shown[2] = _kept(c)
        self._shown[3] = _kept(d)
        self._shown[4] = _kept(e)
        self._fresh = bool(self.regions_per_call)
        return True

    def _row_pieces(self, player, y):
        """What each piece of a static screen's row shows (None: bare felt). New
        values redraw only the pieces that changed, so that a screen whose values
        change every few passes (the self-test's ages) still gets to its last rows.
        A list a row, not an entry a piece: the heap may hold no big free block."""
        row = player << 8 | y
        pieces = self._drawn.get(row)
        if pieces is None:
            pieces = self._drawn[row] = [None] * (WIDTH // _PIECE_W)
        return pieces

    def _draw_steps(self):
        """The static screen's clear, then its steps, while this call may draw."""
        steps = self._steps
        if steps is None:
            return
        if self.taking:
            self.busy = True  # its values taken: the steps go from a call that draws
            return
        self._start_call()
        if self._fresh:
            self._fresh = False
            if not self.answering:
                # The call that took new values has spent its share comparing and copying.
                self.busy = True
                return
        if not self._clear_strips():
            return
        while self._afford():
            try:
                next(steps)
            except StopIteration:
                self._steps = None
                return

    def _line(self, player, text, y, ink, scale=1, x=-1, chars=0):
        """Steps drawing a row of text on ``player``'s half, ``y`` as player 1 sees
        theirs.

        Scale-1 rows span the screen, so a new text covers the old; bigger text
        gets a window ``chars`` characters wide (at least the text's own width)."""
        if x < 0:
            x = (WIDTH - 8 * len(text) * scale) // 2
        if scale == 1:
            yield from self._pieces(player, text, x, y, ink)
            return
        if 8 * len(text) * scale > 255:
            raise ValueError("big text wider than a shape holds: %r" % text)
        shown = self._row_pieces(player, y)
        content = (text, ink, x, scale)
        if shown[0] == content:
            yield  # a screen redrawn in place, this row unchanged: its look is a step
            return
        shown[0] = content
        window = 8 * max(len(text), chars) * scale
        wx = (WIDTH - window) // 2
        rows = 1 if self.regions_per_call else 8  # glyph rows a window
        view = self._view(window, rows * scale)
        # A glyph row's rectangles: at most 4 a character (runs of set bits in 8).
        shape = (None, None, 8 * len(text) * scale, scale, 0, bytearray(2 + 16 * len(text)))
        self._glyphs(text)
        self._big_spec[1] = len(text)
        self._big_spec[2] = scale
        if rows == 1:
            yield  # setting the row up was this call's share
        for first in range(0, 8, rows):
            with self._heap_locked:
                self._begin(view, wx, y + first * scale, player == 1, FELT)
                self._big(shape, x, y, ink, first, first + rows)
                self._end()
            yield

    def _pieces(self, player, text, x, y, ink):
        """Steps drawing the pieces of a scale-1 row that show something, or showed
        something before (a piece of bare felt stays as it is)."""
        width = self._piece_width()
        end = x + 8 * len(text)
        content = (text, ink, x)
        pieces = self._row_pieces(player, y)
        drew = False
        for left in range(0, WIDTH, width):
            was = pieces[left // width]
            if was == content:
                continue
            pieces[left // width] = content
            # ``_touches`` inlined, for the new text and the old: a step that passes over
            # pieces of bare felt costs a few microseconds a piece, not two calls.
            right = left + width
            if (x < right and end > left) or (
                was is not None and was[2] < right and was[2] + 8 * len(was[0]) > left
            ):
                with self._heap_locked:
                    self._text_row(player, text, x, y, ink, left, width)
                drew = True
                yield
        if not drew:
            yield  # nothing new in this row: looking at it was a step (rows a step at most)

    def _cells(self, player, cells, y, ink):
        """Steps drawing a row of eight texts of up to five characters, each in a piece
        of its own (as a row of the texts padded to five would show them), so that a
        text that changes redraws its piece alone: the self-test's counts and ages."""
        if self._piece_width() == WIDTH:
            yield from self._pieces(player, "".join("%-5s" % cell for cell in cells), 0, y, ink)
            return
        pieces = self._row_pieces(player, y)
        drew = False
        for i in range(len(cells)):
            content = (cells[i], ink, i * _PIECE_W)
            if pieces[i] != content:
                pieces[i] = content
                with self._heap_locked:
                    self._text_row(player, cells[i], i * _PIECE_W, y, ink, i * _PIECE_W, _PIECE_W)
                drew = True
                yield
        if not drew:
            yield  # as in ``_pieces``: a row a step at most

    def _both(self, text, y, ink, scale=1):
        yield from self._line(0, text, y, ink, scale)
        yield from self._line(1, text, y, ink, scale)

    def title(self, word, seed):
        """The title: the game's name, "press SPIT" and the match seed."""
        if self._static(_TITLE, False, word, seed):
            self._steps = self._title(word, seed)
        self._draw_steps()

    def _title(self, word, seed):
        yield from self._both(word, HALF_Y + 8, HIGHLIGHT, BIG_TEXT_SCALE)
        yield from self._both(self._words[word][2], HALF_Y + 56, WHITE)
        yield from self._both("seed %d" % seed, HALF_Y + 56 + 2 * ROW_PITCH, DIM)

    def settings(self, rows, cursor):
        """The settings menu: ``rows`` of ``(name, value)`` with the cursor on row
        ``cursor``; the rows around the cursor show when they do not all fit."""
        if self._static(_SETTINGS, True, rows, cursor):
            self._steps = self._settings(rows, cursor)
        self._draw_steps()

    def _settings(self, rows, cursor):
        first = min(max(0, cursor - SETTINGS_ROWS // 2), max(0, len(rows) - SETTINGS_ROWS))
        for player in (0, 1):
            yield from self._line(player, "settings", HALF_Y, HIGHLIGHT)
            for i in range(SETTINGS_ROWS):
                index = first + i
                text = ""
                ink = WHITE
                if index < len(rows):
                    name, value = rows[index]
                    mark = ">" if index == cursor else " "
                    text = "%s %-12s %s" % (mark, name, value)
                    ink = HIGHLIGHT if index == cursor else WHITE
                yield from self._line(player, text, HALF_Y + 14 + i * SETTINGS_PITCH, ink, 1, 48)

    def ready(self, word, ready_flags, cpu_seats=(False, False), hint=""):
        """Before a round: each player presses SPIT; who is ready shows on both halves,
        with a ``hint`` line under it (how quick play works, when it is on)."""
        if self._static(_READY, True, word, ready_flags, cpu_seats, hint):
            self._steps = self._ready(word, ready_flags, cpu_seats, hint)
        self._draw_steps()

    def _ready(self, word, ready_flags, cpu_seats, hint):
        for player in (0, 1):
            other = 1 - player
            yield from self._line(player, _name(player, cpu_seats), HALF_Y + 8, WHITE, 2, -1, 6)
            if ready_flags[player]:
                yield from self._line(player, "ready!", HALF_Y + 40, HIGHLIGHT)
            else:
                yield from self._line(player, self._words[word][2], HALF_Y + 40, HIGHLIGHT)
            state = _STATES[(other * 2 + _seat(other, cpu_seats)) * 2 + bool(ready_flags[other])]
            yield from self._line(player, state, HALF_Y + 64, DIM)
            yield from self._line(player, hint, HALF_Y + 88, DIM)

    def countdown(self, n):
        """3, 2, 1: a big digit on each half."""
        if self._static(_COUNTDOWN, True, n):
            self._steps = self._both(str(n), HALF_Y + 20, HIGHLIGHT, COUNTDOWN_SCALE)
        self._draw_steps()

    def round_result(self, end, margin="", cpu_seats=(False, False), reactions=()):
        """After a round: ``end`` is the ``rules.RoundEnd`` (who cleared, who slapped,
        the cards each took from the middle and holds now); ``margin`` the slap's
        banner text; ``reactions`` a line per person on their reaction times."""
        if self._static(_ROUND, False, end, margin, cpu_seats, reactions):
            self._steps = self._round_result(end, margin, cpu_seats, reactions)
        self._draw_steps()

    def _round_result(self, end, margin, cpu_seats, reactions):
        if end.cleared >= 0:
            how = _CLEARED[end.cleared * 2 + _seat(end.cleared, cpu_seats)]
        else:
            how = "nobody could move"
        rows = ["round over", how]
        if end.slapper >= 0:
            rows.append(_SLAPPED[end.slapper * 2 + _seat(end.slapper, cpu_seats)])
        rows.append(margin)
        for player in (0, 1):
            rows.append(
                "%s took %d, holds %d"
                % (_name(player, cpu_seats), end.took[player], end.held[player])
            )
        rows += reactions
        yield  # making the texts was this call's share: they allocate, on a full heap
        yield from self._rows(rows)

    def game_over(self, winner, reason, games, cpu_seats=(False, False), seed=-1):
        """A game won: the winner, why (``Outcome.reason``), games won by each player,
        and the match's seed (which deals the same games again)."""
        if self._static(_GAME_OVER, False, winner, reason, games, cpu_seats, seed):
            self._steps = self._game_over(winner, reason, games, cpu_seats, seed)
        self._draw_steps()

    def _game_over(self, winner, reason, games, cpu_seats, seed):
        yield from self._both(NAMES[winner] + " WINS", HALF_Y + 4, HIGHLIGHT, 3)
        rows = [_name(winner, cpu_seats) + ": " + reason, _score(games, cpu_seats)]
        yield from self._rows(rows + _seed_row(seed), 3)

    def match_result(self, winner, games, cpu_seats=(False, False), reactions=(), seed=-1):
        """The match won: the winner, the games score, a line per person on their
        reaction times, and the match's seed."""
        if self._static(_MATCH, False, winner, games, cpu_seats, reactions, seed):
            self._steps = self._match_result(winner, games, cpu_seats, reactions, seed)
        self._draw_steps()

    def _match_result(self, winner, games, cpu_seats, reactions, seed):
        yield from self._both(NAMES[winner] + " WINS", HALF_Y + 4, HIGHLIGHT, 3)
        rows = [_name(winner, cpu_seats) + " wins the match", _score(games, cpu_seats)]
        yield from self._rows(rows + list(reactions) + _seed_row(seed), 3)

    def error(self, message):
        """Something went wrong: the message, wrapped, on both halves."""
        if self._static(_ERROR, False, message):
            self._steps = self._error(message)
        self._draw_steps()

    def _error(self, message):
        yield from self._both("error", HALF_Y + 4, HIGHLIGHT)
        row = 1
        for line in _wrapped(message, ERROR_COLUMNS):
            if row > ERROR_ROWS:
                return
            yield  # wrapping the line was this call's share
            yield from self._both(line, HALF_Y + 4 + row * ROW_PITCH, WHITE)
            row += 1

    def self_test(self, presses, ages, bins, lines=()):
        """The self-test: every button's press count (``presses[button_id]``) and the
        time since its last press (``ages[button_id]``, text) on its player's half,
        colour bars across the middle, a colour mark in each corner, the tie-window
        calibration's histogram (``bins``: pairs per bin) and two ``lines`` of text."""
        if self._static(_SELF_TEST, True, presses, ages, bins, lines):
            self._steps = self._self_test(presses, ages, bins, lines)
        self._draw_steps()

    def _self_test(self, presses, ages, bins, lines):
        if self._backdrop_due:
            yield from self._bars()
            yield from self._corners()
            self._backdrop_due = False
        for player in (0, 1):
            first = player * KEYS_PER_PLAYER
            counts = ["%d" % presses[first + button] for button in range(KEYS_PER_PLAYER)]
            yield from self._cells(player, KEY_NAMES, HALF_Y + 10, HIGHLIGHT)
            yield from self._cells(player, counts, HALF_Y + 22, WHITE)
            yield from self._cells(player, ages[first : first + KEYS_PER_PLAYER], HALF_Y + 34, DIM)
            yield from self._histogram(player, bins)
            for i in range(2):
                text = lines[i] if i < len(lines) else ""
                yield from self._line(player, text, HALF_Y + 84 + i * ROW_PITCH, WHITE)

    def _corners(self):
        """Red top left, green top right, blue bottom left, white bottom right, as
        player 1 sees the screen: a panel turned or mirrored, or with red and blue
        swapped, shows them elsewhere."""
        mark = self._view(MESSAGE_H, MESSAGE_H)
        for i, c in enumerate(CORNER_MARKS):
            self._begin(mark, i % 2 * (WIDTH - MESSAGE_H), i // 2 * (HEIGHT - MESSAGE_H), False, c)
            self._end()
            yield

    def _bars(self):
        width = WIDTH // len(COLOUR_BARS)
        bar = self._view(width, BARS_H)
        for i, c in enumerate(COLOUR_BARS):
            self._begin(bar, i * width, BARS_Y, False, c)
            self._end()
            yield

    def _histogram(self, player, bins):
        """Bars as tall as their share of the fullest bin, in rows of 8 pixels."""
        most = max(bins) if bins else 0
        width = WIDTH // len(bins) if bins else WIDTH
        piece = self._piece_width()
        content = tuple(bins)
        for y in range(HISTOGRAM_Y, HISTOGRAM_Y + HISTOGRAM_H, MESSAGE_H):
            pieces = self._row_pieces(player, y)
            for left in range(0, WIDTH, piece):
                if pieces[left // piece] == content:
                    continue
                pieces[left // piece] = content
                self._begin(
                    self._row_piece if piece < WIDTH else self._message_row,
                    left,
                    y,
                    player == 1,
                    FELT,
                )
                # Only the bins whose bars reach into this piece.
                for i in range(left // width, min(len(bins), (left + piece - 1) // width + 1)):
                    height = bins[i] * HISTOGRAM_H // most if most else 0
                    top = HISTOGRAM_Y + HISTOGRAM_H - height
                    self._rect(i * width + 1, top, width - 2, height, DIM)
                self._end()
                yield

    def _rows(self, rows, first=0):
        """Rows of text from row ``first`` down; a heading (row 0) is highlighted."""
        for i, text in enumerate(rows):
            row = first + i
            ink = HIGHLIGHT if row == 0 else WHITE
            yield from self._both(text, HALF_Y + 4 + row * ROW_PITCH, ink)


_SEQUENCES = (list, tuple)  # built once: a tuple written in a call would be allocated


def _is_sequence(value):
    return isinstance(value, _SEQUENCES)


def _same(kept, value):
    """``value`` equals what ``_kept`` made of the value shown, item by item for a
    sequence (a list and a tuple of the same items are equal here)."""
    # Most calls: the same object again, or a copy of the same types, compared in C.
    if kept is value or kept == value:
        return True
    if not _is_sequence(value) or not _is_sequence(kept) or len(kept) != len(value):
        return False
    i = 0  # a loop, not all(): a generator would be allocated
    while i < len(value) and _same(kept[i], value[i]):
        i += 1
    return i == len(value)


def _kept(value):
    """A value to compare later calls with: sequences copied deeply, each keeping its
    type, so that comparing it with an unchanged value is one ``==`` in C."""
    if not isinstance(value, _SEQUENCES):
        return value  # most values: a text or a number, asked about once
    for item in value:
        if isinstance(item, _SEQUENCES):
            kept = [_kept(item) for item in value]
            return kept if isinstance(value, list) else tuple(kept)
    # Flat: a list copied in C; a tuple that nothing in can change (the seats, say)
    # kept as it is.
    return list(value) if isinstance(value, list) else value


def _seed_row(seed):
    return ["seed %d" % seed] if seed >= 0 else []


def _seat(player, cpu_seats):
    return 1 if cpu_seats[player] else 0


def _name(player, cpu_seats):
    return _SEAT_NAMES[player * 2 + _seat(player, cpu_seats)]


def _score(games, cpu_seats):
    return "games %s %d - %s %d" % (
        _name(0, cpu_seats),
        games[0],
        _name(1, cpu_seats),
        games[1],
    )
