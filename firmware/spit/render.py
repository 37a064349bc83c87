"""Every screen of SPEC section 5, drawn through small windows onto the display.

Constructor: ``Renderer(display, framebuf)``. ``display`` has ``width``,
``height``, ``show(x, y, w, h, buf)`` (a window of RGB565 pixels, sent as they
are) and ``fill(colour)``; ``framebuf`` is the module to draw with (the real one
on the device, the host's fake in the simulator), so this module stays pure.

Methods: ``play(game, controls, cpus)`` draws the play screen, sending only the
windows whose content changed since the last call; ``invalidate()`` makes the
next call a full redraw; ``title``, ``settings``, ``ready``, ``countdown``,
``round_result``, ``game_over``, ``match_result``, ``error`` and ``self_test``
draw the other screens from plain values, and send nothing when called again
with the same values. Attributes: ``full_redraws`` counts whole-screen clears;
``regions_per_call`` (0: no limit) caps the regions one ``play()`` call draws for
the actions it follows, so a busy frame spreads over several passes of the main loop;
the pile a card landed on always goes first, in the pass that applied the card.

There is no frame buffer: one work buffer (8 KB) backs a few FrameBuffer
views of fixed shapes, made once, so an incremental ``play()`` allocates
nothing. Each region remembers what it last showed as a small int in
``_keys``, and ``play()`` looks only at the regions that the actions applied
since the last frame (``game.history``) and the hands and calls can have
changed, so a frame where nothing happened costs a few comparisons.

Player 2's regions are drawn already turned 180 degrees: rectangles are
mirrored by arithmetic, and the ranks, suits and 8x8 text are 1-bit bitmaps
made once in both orientations and blitted in colour. A 1-bit bitmap in
``MONO_HLSB`` with its bytes in reverse order, read as ``MONO_HMSB``, is the
same bitmap turned 180 degrees (shifted by its row padding), so turning one
costs a C-speed ``reversed()``, not a loop over pixels.

Colours are RGB565 with their two bytes swapped: framebuf stores a pixel
little-endian and the panel reads it big-endian.
"""

from micropython import const

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
from spit.rules import MOVE, PHASE_PLAY, PHASE_READY, PHASE_SLAP, PLAY


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
_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")

_EMPTY = const(63)  # the card key of an empty slot or pile
_LINE_CHARS = const(40)  # a row of 8x8 text across the screen
_LINE_BYTES = const(_LINE_CHARS * 8)  # that row as a 1-bit bitmap

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

# What each play-screen region last showed: one int per region, -1 for "redraw".
_K_FACE = const(0)  # + player * 5 + slot: card | selected << 6
_K_EDGES = const(10)  # + player * 5 + slot: cards under the top | face up under << 4
_K_TOP = const(20)  # + pile
_K_COUNT = const(22)  # + pile
_K_PACK = const(24)  # + player
_K_CALL = const(26)  # + player
_K_NAME = const(28)  # + player
_K_MESSAGE = const(30)
_KEY_COUNT = const(31)

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
# The regions that followed actions leave to draw: a pile, a stock slot, a pack.
_R_PILE = const(0)  # + pile
_R_SLOT = const(2)  # + player * 5 + slot
_R_PACK = const(12)  # + player
_QUEUE_SIZE = const(64)  # a whole follow (8 actions, at most 4 regions each) twice over


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


def _contest_key(contest):
    """A contested outcome as one small int (-1 for none), to notice a new one."""
    if contest.winner < 0:
        return -1
    return contest.margin_us << 2 | contest.tie << 1 | contest.winner


class Renderer:
    """Draws the screens onto ``display`` with the ``framebuf`` module given; see the
    module's docstring."""

    def __init__(self, display, framebuf):
        self.display = display
        self.full_redraws = 0
        self._framebuf = framebuf
        self._work = memoryview(bytearray(WORK_BYTES))
        self._face = self._view(FACE_W, FACE_H)
        self._edges = self._view(EDGES_W, FACE_H)
        self._pile_card = self._view(CARD_W, CARD_H)
        self._count = self._view(CARD_W, COUNT_H)
        self._info = self._view(INFO_W, INFO_H)
        self._message_row = self._view(WIDTH, MESSAGE_H)
        # One card's edge in a spit pile, and the felt where an edge went.
        self._edge_column = self._column(True, CARD_H)
        self._felt_column = self._column(False, CARD_H)
        self._felt_edge = self._column(False, FACE_H)  # where a stock edge went
        self._edge_y = (STOCK_Y, HEIGHT - STOCK_Y - FACE_H)
        # Palettes that blit a 1-bit bitmap in one colour, leaving the rest as it was.
        self._palettes = {}
        for ink in (INK, RED, WHITE, HIGHLIGHT, DIM, CPU_TAG):
            self._palette(ink)
        self._big_ranks = [self._bitmap(glyph, BIG_SCALE) for glyph in RANKS]
        self._big_suits = [self._bitmap(glyph, BIG_SCALE) for glyph in SUITS]
        self._index_ranks = [self._bitmap(glyph, INDEX_SCALE) for glyph in RANKS]
        self._index_suits = [self._bitmap(glyph, INDEX_SCALE) for glyph in SUITS]
        # 8x8 text: a row for text of any length, and the labels player 2 reads in play.
        mono = framebuf.MONO_HLSB
        self._mono = bytearray(_LINE_BYTES)
        self._mono_fb = framebuf.FrameBuffer(self._mono, WIDTH, 8, mono)
        self._turned = bytearray(_LINE_BYTES)
        self._turned_fb = framebuf.FrameBuffer(self._turned, WIDTH, 8, framebuf.MONO_HMSB)
        self._labels = {}
        for label in _DIGITS + NAMES + ("CPU", "pack"):
            self._label(label)
        # The pen: the window being drawn, its screen origin, and the mirror that
        # turns a player-1 position into player 2's (about the frame's centre).
        self._fb = None
        self._buf = None
        self._x = 0
        self._y = 0
        self._w = 0
        self._h = 0
        self._flip = False
        self._mx = WIDTH
        self._my = HEIGHT
        # The play screen as last drawn.
        self._screen = _NO_SCREEN
        self._shown = [None, None, None, None, None]  # the values a static screen shows
        self._screen_new = False
        self._keys = [-1] * _KEY_COUNT
        self._stacks = [0, 0]
        self._hands = [-1, -1]
        self._calls = [None, None]
        self._cpus = None  # the ``cpus`` tuple last drawn
        self._piles = 0
        self._slots = 0
        self._slot_x = ()
        self._pile_x = ()
        self._game = None
        self._round = -1
        self._done = 0
        self.regions_per_call = 0
        self._queue = bytearray(_QUEUE_SIZE)  # a ring of _R_ region codes
        self._head = 0
        self._pending = 0
        self._baseline = -1
        self._stuck = False
        self._stuck_at = -1
        # What the message row was decided from: history length, phase, the contest.
        self._seen = [-1, -1, -2, -1]
        self._word = None
        self._prompts = None
        self._called_text = ""
        # Blank cards on the felt, copied into a window rather than drawn each time.
        self._blank_face = self._blank(self._face, MARGIN)
        self._blank_pile = self._blank(self._pile_card, 0)

    def _view(self, w, h):
        size = w * h * 2
        buf = self._work[:size]
        return (self._framebuf.FrameBuffer(buf, w, h, self._framebuf.RGB565), buf, w, h)

    def _blank(self, view, margin):
        self._begin(view, 0, 0, False, FELT)
        self._blank_card(margin, margin)
        return bytes(view[1])

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

    def _turn(self, buf, width, height):
        """``(upright, turned, width, height, pad)``: a 1-bit bitmap and its 180-degree
        turn, whose ``pad`` columns of row padding now lie on the left."""
        fbm = self._framebuf
        turned = bytearray(reversed(buf))
        stride = (width + 7) & ~7
        return (
            fbm.FrameBuffer(buf, width, height, fbm.MONO_HLSB),
            fbm.FrameBuffer(turned, stride, height, fbm.MONO_HMSB),
            width,
            height,
            stride - width,
        )

    def _bitmap(self, glyph, scale):
        width = glyph[0] * scale
        height = glyph[1] * scale
        buf = bytearray((width + 7) // 8 * height)
        fb = self._framebuf.FrameBuffer(buf, width, height, self._framebuf.MONO_HLSB)
        for i in range(2, len(glyph), 3):
            fb.fill_rect(glyph[i] * scale, glyph[i + 1] * scale, glyph[i + 2] * scale, scale, 1)
        return self._turn(buf, width, height)

    def _label(self, text):
        """A short text as a bitmap both ways up, made once and kept."""
        label = self._labels.get(text)
        if label is None:
            width = 8 * len(text)
            buf = bytearray(width)
            self._framebuf.FrameBuffer(buf, width, 8, self._framebuf.MONO_HLSB).text(text, 0, 0, 1)
            label = self._turn(buf, width, 8)
            self._labels[text] = label
        return label

    # -- the pen ----------------------------------------------------------------

    def _frame(self, x, y, w, h):
        """Player 2's copies of what follows turn about this rectangle's centre."""
        self._mx = 2 * x + w
        self._my = 2 * y + h

    def _begin(self, view, x, y, flip, background):
        """Start a window of ``view``'s shape at player-1 position ``x, y``, filled
        with a colour or copied from a picture of the same shape (bytes)."""
        fb, buf, w, h = view
        if flip:
            x = self._mx - x - w
            y = self._my - y - h
        self._fb = fb
        self._buf = buf
        self._x = x
        self._y = y
        self._w = w
        self._h = h
        self._flip = flip
        if isinstance(background, int):
            fb.fill(background)
        else:
            buf[:] = background  # a copy in C, and no allocation

    def _end(self):
        self.display.show(self._x, self._y, self._w, self._h, self._buf)

    def _rect(self, x, y, w, h, c):
        if self._flip:
            x = self._mx - x - w
            y = self._my - y - h
        self._fb.fill_rect(x - self._x, y - self._y, w, h, c)

    def _blit(self, bitmap, x, y, ink):
        """A bitmap from ``_turn`` in ``ink``, its top left at ``x, y`` as player 1
        sees it."""
        palette = self._palettes[ink]
        if self._flip:
            x = self._mx - x - bitmap[2]
            y = self._my - y - bitmap[3]
            self._fb.blit(bitmap[1], x - bitmap[4] - self._x, y - self._y, ink ^ 0xFFFF, palette)
        else:
            self._fb.blit(bitmap[0], x - self._x, y - self._y, ink ^ 0xFFFF, palette)

    def _text(self, text, x, y, ink):
        """8x8 text with its top left at ``x, y`` (as player 1 reads it)."""
        if not self._flip:
            self._fb.text(text, x - self._x, y - self._y, ink)
            return
        label = self._labels.get(text)
        if label is not None:
            self._blit(label, x, y, ink)
            return
        # Any other text (a message, a static screen): turn a whole row.
        self._mono_fb.fill(0)
        self._mono_fb.text(text, 0, 0, 1)
        self._turned[:] = bytes(reversed(self._mono))
        width = 8 * len(text)
        x = self._mx - x - width
        y = self._my - y - 8
        pad = WIDTH - width
        self._fb.blit(
            self._turned_fb, x - pad - self._x, y - self._y, ink ^ 0xFFFF, self._palette(ink)
        )

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

    def _big(self, text, x, y, scale, c):
        """8x8 text magnified ``scale`` times, as rectangles (static screens only)."""
        self._mono_fb.fill(0)
        self._mono_fb.text(text, 0, 0, 1)
        width = 8 * len(text)
        for row in range(8):
            base = row * _LINE_CHARS
            col = 0
            while col < width:
                if self._mono[base + (col >> 3)] >> (7 - (col & 7)) & 1:
                    start = col
                    while col < width and self._mono[base + (col >> 3)] >> (7 - (col & 7)) & 1:
                        col += 1
                    self._rect(x + start * scale, y + row * scale, (col - start) * scale, scale, c)
                else:
                    col += 1

    # -- cards --------------------------------------------------------------------

    def _blank_card(self, x, y):
        # Outline with its corners cut, so the card looks rounded.
        self._rect(x + 1, y, CARD_W - 2, CARD_H, OUTLINE)
        self._rect(x, y + 1, CARD_W, CARD_H - 2, OUTLINE)
        self._rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2, FACE)

    def _empty_place(self, x, y):
        self._rect(x, y, CARD_W, 1, DIM)
        self._rect(x, y + CARD_H - 1, CARD_W, 1, DIM)
        self._rect(x, y, 1, CARD_H, DIM)
        self._rect(x + CARD_W - 1, y, 1, CARD_H, DIM)

    def _stock_card(self, card, x, y):
        """A card as its owner reads it: a big rank top left, a big suit bottom right,
        over a blank card already in the window."""
        suit = card // 13
        ink = RED if RED_SUITS[suit] else INK
        self._blit(self._big_ranks[card % 13], x + INSET, y + INSET, ink)
        mark = self._big_suits[suit]
        self._blit(mark, x + CARD_W - INSET - mark[2], y + CARD_H - INSET - mark[3], ink)

    def _index(self, card, x, y):
        """Rank and suit along the card's bottom edge (the near edge for its reader)."""
        suit = card // 13
        ink = RED if RED_SUITS[suit] else INK
        rank = self._index_ranks[card % 13]
        bottom = y + CARD_H - INDEX_INSET
        self._blit(rank, x + INDEX_INSET, bottom - rank[3], ink)
        mark = self._index_suits[suit]
        self._blit(mark, x + CARD_W - INDEX_INSET - mark[2], bottom - mark[3], ink)

    # -- the play screen ------------------------------------------------------------

    def invalidate(self):
        """The next ``play()`` redraws the whole screen."""
        self._screen = _NO_SCREEN

    def play(self, game, controls, cpus=(False, False)):
        """Draw the play screen of ``game`` (a ``rules.Game``) with the hands and
        calls of ``controls``; ``cpus[p]`` is true when seat p is the CPU. Only the
        regions that changed since the last call are sent."""
        hands = self._hands
        calls = self._calls
        contest = controls.contest
        seen = self._seen
        if (
            # Most frames: nothing happened since the last one. Lists compare in C.
            game is self._game
            and len(game.history) == self._done
            and not self._pending
            and controls.hand == hands
            and controls.called == calls
            and game.phase == seen[1]
            and contest.winner == seen[2]
            and contest.margin_us == seen[3]
            and game.round == self._round
            and self._screen == _PLAY_SCREEN
            and cpus == self._cpus
        ):
            return
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
        if new < 0 or new > _FOLLOW_MAX or self._pending + 4 * new > _QUEUE_SIZE:
            everything = True
        if everything:
            self._pending = 0
            self._seen[0] = -1
            for player in (0, 1):
                self._pack(game, player)
                for slot in range(slots):
                    self._slot(game, controls, player, slot)
            for pile in range(piles):
                self._pile(game, pile)
        else:
            for i in range(self._done, done):
                self._follow(history[i])
        self._done = done
        if not self._draw_queued(game, controls):
            return  # the rest on the next call
        for player in (0, 1):
            hand = controls.hand[player]
            if hand != self._hands[player]:
                if self._hands[player] >= 0:
                    self._slot(game, controls, player, self._hands[player])
                if hand >= 0:
                    self._slot(game, controls, player, hand)
                self._hands[player] = hand
            name = 1 if cpus[player] else 0
            if self._keys[_K_NAME + player] != name:
                self._draw_name(player, name)
            called = 1 if controls.called[player] else 0
            if self._keys[_K_CALL + player] != called:
                self._draw_call(player, called)
        self._message(game, controls, done)

    def _place(self, piles, slots):
        # Kept out of play(): a comprehension there would close over its locals, and
        # MicroPython then allocates their cells on every call.
        self._piles = piles
        self._slots = slots
        self._slot_x = tuple(slot_x(slots, slot) for slot in range(slots))
        self._pile_x = tuple(pile_x(piles, pile) for pile in range(piles))

    def _follow(self, action):
        """Queue the regions that ``action`` can have changed."""
        kind = action >> 9
        player = (action >> 8) & 1
        slots = _R_SLOT + player * 5
        if kind == PLAY:
            # The pile first: the card landing there is what the players watch for.
            self._queue_region(_R_PILE + (action & 15))
            self._queue_region(slots + ((action >> 4) & 15))
        elif kind == MOVE:
            self._queue_region(slots + ((action >> 4) & 15))
            self._queue_region(slots + (action & 15))
        else:
            for pile in range(self._piles):
                self._queue_region(_R_PILE + pile)
            self._queue_region(_R_PACK)
            self._queue_region(_R_PACK + 1)

    def _queue_region(self, region):
        self._queue[(self._head + self._pending) % _QUEUE_SIZE] = region
        self._pending += 1

    def _draw_queued(self, game, controls):
        """Draw queued regions, at most ``regions_per_call``; True once none is left."""
        limit = self.regions_per_call
        drawn = 0
        while self._pending:
            if drawn == limit and limit:
                return False
            region = self._queue[self._head]
            self._head = (self._head + 1) % _QUEUE_SIZE
            self._pending -= 1
            drawn += 1
            if region < _R_SLOT:
                self._pile(game, region)
            elif region < _R_PACK:
                region -= _R_SLOT
                self._slot(game, controls, region // 5, region % 5)
            else:
                self._pack(game, region - _R_PACK)
        return True

    def _clear(self, screen):
        self.display.fill(FELT)
        self.full_redraws += 1
        self._screen = screen
        keys = self._keys
        for i in range(_KEY_COUNT):
            keys[i] = -1
        self._stacks[0] = self._stacks[1] = 0

    def _set_word(self, word):
        self._word = word
        self._prompts = (  # in the order of the _MSG_ keys
            "",
            "both press " + word,
            "nobody can move - press " + word,
            "SLAP the smaller pile",
            "P1 picks a pile",
            "P2 picks a pile",
            "nobody can move",
            "SLAP the pile",
        )
        self._called_text = word + "!"
        self._label(self._called_text)
        self._keys[_K_MESSAGE] = -1
        self._seen[0] = -1
        self._keys[_K_CALL] = self._keys[_K_CALL + 1] = -1

    def _draw_name(self, player, cpu):
        self._keys[_K_NAME + player] = cpu
        self._begin(self._info, NAME_X, INFO_Y, player == 1, FELT)
        self._text(NAMES[player], NAME_X, INFO_Y + 2, WHITE)
        if cpu:
            self._text("CPU", NAME_X + 24, INFO_Y + 2, CPU_TAG)
        self._end()

    def _pack(self, game, player):
        pack = len(game.pack[player])
        if self._keys[_K_PACK + player] == pack:
            return
        self._keys[_K_PACK + player] = pack
        self._begin(self._info, PACK_X, INFO_Y, player == 1, FELT)
        self._text("pack", PACK_X, INFO_Y + 2, WHITE)
        self._number(pack, PACK_X + 40, INFO_Y + 2, WHITE)
        self._end()

    def _draw_call(self, player, called):
        self._keys[_K_CALL + player] = called
        self._begin(self._info, CALL_X, INFO_Y, player == 1, FELT)
        if called:
            width = 8 * len(self._called_text) + 4
            self._rect(CALL_X, INFO_Y, width, INFO_H, HIGHLIGHT)
            self._text(self._called_text, CALL_X + 2, INFO_Y + 2, INK)
        self._end()

    def _slot(self, game, controls, player, slot):
        keys = self._keys
        cards = game.stock[player][slot]
        n = len(cards)
        selected = 64 if controls.hand[player] == slot else 0
        face = (cards[-1] if n else _EMPTY) | selected
        x = self._slot_x[slot]
        flip = player == 1
        k = _K_FACE + player * 5 + slot
        if keys[k] != face:
            keys[k] = face
            if n:
                self._begin(self._face, x, STOCK_Y, flip, self._blank_face)
                if selected:
                    self._rect(x, STOCK_Y, FACE_W, MARGIN, HIGHLIGHT)
                    self._rect(x, STOCK_Y + FACE_H - MARGIN, FACE_W, MARGIN, HIGHLIGHT)
                    self._rect(x, STOCK_Y + MARGIN, MARGIN, CARD_H, HIGHLIGHT)
                    self._rect(x + FACE_W - MARGIN, STOCK_Y + MARGIN, MARGIN, CARD_H, HIGHLIGHT)
                self._stock_card(cards[-1], x + MARGIN, STOCK_Y + MARGIN)
            else:
                self._begin(self._face, x, STOCK_Y, flip, FELT)
                self._empty_place(x + MARGIN, STOCK_Y + MARGIN)
            self._end()
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
        else:
            self._begin(self._edges, ex, STOCK_Y, flip, FELT)
            for i in range(under):
                # Face-up cards (stacked with stack=on) lie right under the top.
                height = CARD_H - 2 * (i + 1)
                ey = STOCK_Y + MARGIN + i + 1
                self._rect(ex + EDGE_STEP * i, ey, EDGE_STEP, height, OUTLINE)
                self._rect(ex + EDGE_STEP * i, ey + 1, 1, height - 2, FACE if i < up else BACK)
            self._end()

    def _pile(self, game, pile):
        keys = self._keys
        cards = game.middle[pile]
        n = len(cards)
        top = cards[-1] if n else _EMPTY
        x = self._pile_x[pile]
        self._thickness(pile, n)  # first: the quickest sign that a card landed
        if keys[_K_TOP + pile] != top:
            keys[_K_TOP + pile] = top
            self._frame(x, PILE_Y, CARD_W, CARD_H)
            if n:
                self._begin(self._pile_card, x, PILE_Y, False, self._blank_pile)
                self._index(top, x, PILE_Y)
                self._flip = True
                self._index(top, x, PILE_Y)
            else:
                self._begin(self._pile_card, x, PILE_Y, False, FELT)
                self._empty_place(x, PILE_Y)
            self._end()
            self._frame(0, 0, WIDTH, HEIGHT)
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
        """Send only the edges that appeared or went since the last frame."""
        piles = self._piles
        shown = self._stacks[pile]
        limit = stack_max(piles)
        if n > limit:
            n = limit
        if n == shown:
            return
        self._stacks[pile] = n
        low = shown if shown < n else n
        high = n if shown < n else shown
        column = self._edge_column if shown < n else self._felt_column
        for i in range(low, high):
            self.display.show(stack_x(piles, pile, i), PILE_Y, STACK_STEP, CARD_H, column)

    def _message(self, game, controls, done):
        contest = controls.contest
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
        elif phase == PHASE_PLAY and self._is_stuck(game):
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
            text = controls.contest.text()
            ink = WHITE
        else:
            text = self._prompts[key]
        x = (WIDTH - 8 * len(text)) // 2
        for flip in (False, True):
            self._begin(self._message_row, 0, MESSAGE_Y, flip, FELT)
            self._text(text, x, MESSAGE_Y, ink)
            self._end()

    def _is_stuck(self, game):
        # Only an applied action changes the table: ask the rules once per action.
        done = len(game.history)
        if done != self._stuck_at:
            self._stuck_at = done
            self._stuck = game.is_stuck()
        return self._stuck

    # -- the other screens -------------------------------------------------------

    def _static(self, screen, in_place, a, b=None, c=None, d=None, e=None):
        """Start drawing ``screen`` from the values ``a`` to ``e``; False when it
        already shows exactly those values (checked without allocating, so a game
        loop may call a screen on every pass).

        A screen drawn ``in_place`` redraws its rows over themselves when its values
        change (the settings cursor, who is ready, the countdown); any other change
        starts from a clear screen, so nothing of the old one is left over."""
        shown = self._shown
        if (
            self._screen == screen
            and _same(shown[0], a)
            and _same(shown[1], b)
            and _same(shown[2], c)
            and _same(shown[3], d)
            and _same(shown[4], e)
        ):
            return False
        self._screen_new = self._screen != screen or not in_place
        if self._screen_new:
            self._clear(screen)
        # Copies: a caller may change its list in place (controls.called, match.wins).
        shown[0] = _kept(a)
        shown[1] = _kept(b)
        shown[2] = _kept(c)
        shown[3] = _kept(d)
        shown[4] = _kept(e)
        return True

    def _line(self, player, text, y, ink, scale=1, x=-1, chars=0):
        """A row of text on ``player``'s half, ``y`` as player 1 sees theirs.

        Scale-1 rows span the screen, so a new text covers the old; bigger text
        gets a window ``chars`` characters wide (at least the text's own width)."""
        width = 8 * len(text) * scale
        if scale == 1:
            view = self._message_row
            wx = 0
        else:
            window = 8 * max(len(text), chars) * scale
            view = self._view(window, 8 * scale)
            wx = (WIDTH - window) // 2
        if x < 0:
            x = (WIDTH - width) // 2
        self._begin(view, wx, y, player == 1, FELT)
        if scale == 1:
            self._text(text, x, y, ink)
        else:
            self._big(text, x, y, scale, ink)
        self._end()

    def _both(self, text, y, ink, scale=1):
        self._line(0, text, y, ink, scale)
        self._line(1, text, y, ink, scale)

    def title(self, word, seed):
        """The title: the game's name, "press SPIT" and the match seed."""
        if not self._static(_TITLE, False, word, seed):
            return
        self._both(word, HALF_Y + 8, HIGHLIGHT, BIG_TEXT_SCALE)
        self._both("press " + word, HALF_Y + 56, WHITE)
        self._both("seed %d" % seed, HALF_Y + 56 + 2 * ROW_PITCH, DIM)

    def settings(self, rows, cursor):
        """The settings menu: ``rows`` of ``(name, value)`` with the cursor on row
        ``cursor``; the rows around the cursor show when they do not all fit."""
        if not self._static(_SETTINGS, True, rows, cursor):
            return
        first = min(max(0, cursor - SETTINGS_ROWS // 2), max(0, len(rows) - SETTINGS_ROWS))
        for player in (0, 1):
            self._line(player, "settings", HALF_Y, HIGHLIGHT)
            for i in range(SETTINGS_ROWS):
                index = first + i
                text = ""
                ink = WHITE
                if index < len(rows):
                    name, value = rows[index]
                    mark = ">" if index == cursor else " "
                    text = "%s %-12s %s" % (mark, name, value)
                    ink = HIGHLIGHT if index == cursor else WHITE
                self._line(player, text, HALF_Y + 14 + i * SETTINGS_PITCH, ink, 1, 48)

    def ready(self, word, ready_flags, cpu_seats=(False, False), hint=""):
        """Before a round: each player presses SPIT; who is ready shows on both halves,
        with a ``hint`` line under it (how quick play works, when it is on)."""
        if not self._static(_READY, True, word, ready_flags, cpu_seats, hint):
            return
        for player in (0, 1):
            other = 1 - player
            self._line(player, _name(player, cpu_seats), HALF_Y + 8, WHITE, 2, -1, 6)
            if ready_flags[player]:
                self._line(player, "ready!", HALF_Y + 40, HIGHLIGHT)
            else:
                self._line(player, "press " + word, HALF_Y + 40, HIGHLIGHT)
            state = "ready" if ready_flags[other] else "waiting"
            self._line(player, _name(other, cpu_seats) + " " + state, HALF_Y + 64, DIM)
            self._line(player, hint, HALF_Y + 88, DIM)

    def countdown(self, n):
        """3, 2, 1: a big digit on each half."""
        if not self._static(_COUNTDOWN, True, n):
            return
        self._both(str(n), HALF_Y + 20, HIGHLIGHT, COUNTDOWN_SCALE)

    def round_result(self, end, margin="", cpu_seats=(False, False), reactions=()):
        """After a round: ``end`` is the ``rules.RoundEnd`` (who cleared, who slapped,
        the cards each took from the middle and holds now); ``margin`` the slap's
        banner text; ``reactions`` a line per person on their reaction times."""
        if not self._static(_ROUND, False, end, margin, cpu_seats, reactions):
            return
        if end.cleared >= 0:
            how = _name(end.cleared, cpu_seats) + " cleared the stock"
        else:
            how = "nobody could move"
        rows = ["round over", how]
        if end.slapper >= 0:
            rows.append(_name(end.slapper, cpu_seats) + " slapped first")
        rows.append(margin)
        for player in (0, 1):
            rows.append(
                "%s took %d, holds %d"
                % (_name(player, cpu_seats), end.took[player], end.held[player])
            )
        self._rows(rows + list(reactions))

    def game_over(self, winner, reason, games, cpu_seats=(False, False), seed=-1):
        """A game won: the winner, why (``Outcome.reason``), games won by each player,
        and the match's seed (which deals the same games again)."""
        if not self._static(_GAME_OVER, False, winner, reason, games, cpu_seats, seed):
            return
        self._both(NAMES[winner] + " WINS", HALF_Y + 4, HIGHLIGHT, 3)
        rows = [_name(winner, cpu_seats) + ": " + reason, _score(games, cpu_seats)]
        self._rows(rows + _seed_row(seed), 3)

    def match_result(self, winner, games, cpu_seats=(False, False), reactions=(), seed=-1):
        """The match won: the winner, the games score, a line per person on their
        reaction times, and the match's seed."""
        if not self._static(_MATCH, False, winner, games, cpu_seats, reactions, seed):
            return
        self._both(NAMES[winner] + " WINS", HALF_Y + 4, HIGHLIGHT, 3)
        rows = [_name(winner, cpu_seats) + " wins the match", _score(games, cpu_seats)]
        self._rows(rows + list(reactions) + _seed_row(seed), 3)

    def error(self, message):
        """Something went wrong: the message, wrapped, on both halves."""
        if not self._static(_ERROR, False, message):
            return
        lines = wrap(message, ERROR_COLUMNS)[:ERROR_ROWS]
        self._rows(["error"] + lines)

    def self_test(self, presses, ages, bins, lines=()):
        """The self-test: every button's press count (``presses[button_id]``) and the
        time since its last press (``ages[button_id]``, text) on its player's half,
        colour bars across the middle, a colour mark in each corner, the tie-window
        calibration's histogram (``bins``: pairs per bin) and two ``lines`` of text."""
        if not self._static(_SELF_TEST, True, presses, ages, bins, lines):
            return
        if self._screen_new:
            self._bars()
            self._corners()
        for player in (0, 1):
            names = ""
            counts = ""
            times = ""
            for button in range(KEYS_PER_PLAYER):
                names += "%-5s" % KEY_NAMES[button]
                counts += "%-5d" % presses[player * KEYS_PER_PLAYER + button]
                times += "%-5s" % ages[player * KEYS_PER_PLAYER + button]
            self._line(player, names, HALF_Y + 10, HIGHLIGHT, 1, 0)
            self._line(player, counts, HALF_Y + 22, WHITE, 1, 0)
            self._line(player, times, HALF_Y + 34, DIM, 1, 0)
            self._histogram(player, bins)
            for i in range(2):
                text = lines[i] if i < len(lines) else ""
                self._line(player, text, HALF_Y + 84 + i * ROW_PITCH, WHITE)

    def _corners(self):
        """Red top left, green top right, blue bottom left, white bottom right, as
        player 1 sees the screen: a panel turned or mirrored, or with red and blue
        swapped, shows them elsewhere."""
        for row in (0, 1):
            y = row * (HEIGHT - MESSAGE_H)
            self._begin(self._message_row, 0, y, False, FELT)
            self._rect(0, y, MESSAGE_H, MESSAGE_H, CORNER_MARKS[2 * row])
            self._rect(WIDTH - MESSAGE_H, y, MESSAGE_H, MESSAGE_H, CORNER_MARKS[2 * row + 1])
            self._end()

    def _bars(self):
        width = WIDTH // len(COLOUR_BARS)
        for y in range(BARS_Y, BARS_Y + BARS_H, MESSAGE_H):
            self._begin(self._message_row, 0, y, False, FELT)
            for i, c in enumerate(COLOUR_BARS):
                self._rect(i * width, BARS_Y, width, BARS_H, c)
            self._end()

    def _histogram(self, player, bins):
        """Bars as tall as their share of the fullest bin, in rows of 8 pixels."""
        most = max(bins) if bins else 0
        width = WIDTH // len(bins) if bins else WIDTH
        for y in range(HISTOGRAM_Y, HISTOGRAM_Y + HISTOGRAM_H, MESSAGE_H):
            self._begin(self._message_row, 0, y, player == 1, FELT)
            for i, count in enumerate(bins):
                height = count * HISTOGRAM_H // most if most else 0
                top = HISTOGRAM_Y + HISTOGRAM_H - height
                self._rect(i * width + 1, top, width - 2, height, DIM)
            self._end()

    def _rows(self, rows, first=0):
        """Rows of text from row ``first`` down; a heading (row 0) is highlighted."""
        for i, text in enumerate(rows):
            row = first + i
            self._both(text, HALF_Y + 4 + row * ROW_PITCH, HIGHLIGHT if row == 0 else WHITE)


_SEQUENCES = (list, tuple)  # built once: a tuple written in a call would be allocated


def _is_sequence(value):
    return isinstance(value, _SEQUENCES)


def _same(kept, value):
    """``value`` equals what ``_kept`` made of the value shown, item by item for a
    sequence (a list and the tuple kept of it are equal here)."""
    if not _is_sequence(value):
        return not _is_sequence(kept) and kept == value
    if not _is_sequence(kept) or len(kept) != len(value):
        return False
    i = 0  # a loop, not all(): a generator would be allocated
    while i < len(value) and _same(kept[i], value[i]):
        i += 1
    return i == len(value)


def _kept(value):
    """A value to compare later calls with: sequences copied, deeply."""
    if _is_sequence(value):
        return tuple(_kept(item) for item in value)
    return value


def _seed_row(seed):
    return ["seed %d" % seed] if seed >= 0 else []


def _name(player, cpu_seats):
    return NAMES[player] + (" CPU" if cpu_seats[player] else "")


def _score(games, cpu_seats):
    return "games %s %d - %s %d" % (
        _name(0, cpu_seats),
        games[0],
        _name(1, cpu_seats),
        games[1],
    )
