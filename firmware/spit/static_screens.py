"""The screens drawn from plain values (SPEC 5): title, settings, ready, countdown, round
result, game over, match result, error and self-test.

Constructor: ``StaticScreens(renderer, pen)``: the renderer keeps the screen on the display
and the call's share (``spit.render``), the pen paints. Each screen method takes its
values and a last argument ``share``, and sends nothing when called again with the same
values and nothing left to draw; ``step(share)`` goes on with the screen being drawn
without looking at its values again.

A screen's drawing is a generator that yields after each of its steps, so that a call can
stop where its share ends and the next carry on, whatever values that call brings (new
values start the screen again). A row of small text is not a generator of its own: the
screen names it (``row``, both players' copies or one) and yields, and the steps
draw its pieces (``_row_step``), so that a row allocates one tuple, not the generators
and tuples of every piece (an allocation in a step costs what finding room costs on a
fragmented heap: the round result's steps ran up to 2.5 ms so on the emulated chip).
A screen drawn in place (the settings cursor, who is ready, the countdown, the self-test's
counts) redraws only the pieces of its rows that changed; any other change starts from a
clear display, so nothing of the old screen is left over. A region is an eighth of a row
of text (only the eighths that the text reaches, or reached before; a row with nothing new
is a step of its own), a glyph row of big text, or a colour bar, a corner mark or an
eighth of a histogram row of the self-test. Each piece of text is drawn with the device's
heap locked (``spit.pace``): its frames go on the C stack.

The self-test's steps come from ``spit.self_test_screen``, imported when it is first
drawn; they draw through ``row``, ``line`` and ``row_pieces``, and ``backdrop_due``
says the bars and corners are to draw again (after a clear).
"""

from micropython import const

from spit import screens
from spit.cards import ALL
from spit.layout import (
    BIG_TEXT_SCALE,
    COUNTDOWN_SCALE,
    ERROR_COLUMNS,
    ERROR_ROWS,
    HALF_Y,
    HEIGHT,
    ROW_PITCH,
    SETTINGS_PITCH,
    SETTINGS_ROWS,
    WIDTH,
)
from spit.options import WORDS
from spit.pace import HEAP
from spit.pen import DIM, FELT, HIGHLIGHT, PIECE_W, WHITE, shaped
from spit.pictures import NAMES

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
_SHOWN = const(5)  # the most values a screen shows
_LOOKS = WIDTH // PIECE_W  # where a row's pieces' looks begin (``row_pieces``)
_REACH = 2 * _LOOKS  # and where the pieces its text reaches are kept
_BARE = [None] * (_REACH + 2)  # a row's pieces as a clear leaves them: nothing reached
_BARE[_REACH] = _LOOKS
_BARE[_REACH + 1] = -1
# The most rows a screen draws between clears (the settings: 2 players x 11), each row's
# pieces kept in a list made with the screens (``row_pieces``).
_ROWS_KEPT = const(22)
_SHAPE_MAX_W = const(255)  # a shape's width is a byte
_SEQUENCES = (list, tuple)  # built once: a tuple written in a call would be allocated


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


class StaticScreens:
    def __init__(self, renderer, pen):
        self.renderer = renderer
        self.pen = pen
        self._press = {}  # each word's "press" line, made once
        for word in WORDS:
            self._press[word] = "press " + word
        self._screen = screens.TITLE  # the screen whose steps these are
        self._steps = None  # its drawing, a region a step
        self._shown = [None] * _SHOWN  # the values it shows
        # What each piece of the rows met since the last clear shows, and which row each
        # list is (``row_pieces``): made once, so that meeting a row allocates nothing.
        self._row_lists = [list(_BARE) for _ in range(_ROWS_KEPT)]
        self._row_keys = [0] * _ROWS_KEPT
        self._rows_met = 0
        self._shapes = {}  # big text's shapes, by size (``_shape``)
        self.backdrop_due = False  # the self-test's bars and corners: after a clear
        # The row of small text being drawn (``row``), a piece a step: its text and
        # look (``_look``), where it reaches, the copy being drawn (-1: none) and the last.
        self._row_text = ""
        self._row_colour = 0
        self._row_x = 0
        self._row_look = 0
        self._row_y = 0
        self._row_first = 0
        self._row_end = 0
        self._row_player = -1
        self._row_last = -1
        self._row_piece = 0
        self._row_stop = 0
        self._row_drew = False
        self._row_shown = None
        self._row_later = None  # the second copy's pieces, when both are drawn

    # -- the screens ----------------------------------------------------------

    def title(self, word, seed, share=None):
        """The title: the game's name, "press SPIT" and the match seed."""
        took = self._static(screens.TITLE, False, word, seed)
        if took:
            self._steps = self._title(word, seed)
        self._draw(share, took)

    def settings(self, rows, cursor, share=None):
        """The settings menu: ``rows`` of ``(name, value)`` with the cursor on row
        ``cursor``; the rows around the cursor show when they do not all fit."""
        took = self._static(screens.SETTINGS, True, rows, cursor)
        if took:
            self._steps = self._settings(rows, cursor)
        self._draw(share, took)

    def ready(self, word, ready_flags, cpu_seats=(False, False), hint="", share=None):
        """Before a round: each player presses SPIT; who is ready shows on both halves,
        with a ``hint`` line under it (how quick play works, when it is on)."""
        took = self._static(screens.READY, True, word, ready_flags, cpu_seats, hint)
        if took:
            self._steps = self._ready(word, ready_flags, cpu_seats, hint)
        self._draw(share, took)

    def countdown(self, n, share=None):
        """3, 2, 1: a big digit on each half."""
        took = self._static(screens.COUNTDOWN, True, n)
        if took:
            self._steps = self._both(str(n), HALF_Y + 20, HIGHLIGHT, COUNTDOWN_SCALE)
        self._draw(share, took)

    def round_result(self, end, margin="", cpu_seats=(False, False), reactions=(), share=None):
        """After a round: ``end`` is the ``rules.RoundEnd`` (who cleared, who slapped,
        the cards each took from the middle and holds now); ``margin`` the slap's
        banner text; ``reactions`` a line per person on their reaction times."""
        took = self._static(screens.ROUND_RESULT, False, end, margin, cpu_seats, reactions)
        if took:
            self._steps = self._round_result(end, margin, cpu_seats, reactions)
        self._draw(share, took)

    def game_over(self, winner, reason, games, cpu_seats=(False, False), seed=-1, share=None):
        """A game won: the winner, why (``Outcome.reason``), games won by each player,
        and the match's seed (which deals the same games again)."""
        took = self._static(screens.GAME_OVER, False, winner, reason, games, cpu_seats, seed)
        if took:
            self._steps = self._game_over(winner, reason, games, cpu_seats, seed)
        self._draw(share, took)

    def match_result(
        self, winner, games, cpu_seats=(False, False), reactions=(), seed=-1, share=None
    ):
        """The match won: the winner, the games score, a line per person on their
        reaction times, and the match's seed."""
        took = self._static(screens.MATCH_RESULT, False, winner, games, cpu_seats, reactions, seed)
        if took:
            self._steps = self._match_result(winner, games, cpu_seats, reactions, seed)
        self._draw(share, took)

    def error(self, message, share=None):
        """Something went wrong: the message, wrapped, on both halves."""
        took = self._static(screens.ERROR, False, message)
        if took:
            self._steps = self._error(message)
        self._draw(share, took)

    def self_test(self, presses, ages, bins, lines=(), share=None):
        """The self-test: every button's press count (``presses[button_id]``) and the
        time since its last press (``ages[button_id]``, text) on its player's half,
        colour bars across the middle, a colour mark in each corner, the tie-window
        calibration's histogram (``bins``: pairs per bin) and two ``lines`` of text."""
        took = self._static(screens.SELF_TEST, True, presses, ages, bins, lines)
        if took:
            # Imported here: only the self-test draws it, and every module imported at
            # boot takes heap and boot time.
            from spit.self_test_screen import steps

            self._steps = steps(self, presses, ages, bins, lines)
        self._draw(share, took)

    def step(self, share=None):
        """Go on drawing the static screen being drawn, without looking at its values
        again (the last call did); False when none is being drawn (the play screen, or
        nothing left): call the screen itself then."""
        if self._steps is None or self.renderer.screen != self._screen:
            return False
        self._draw(share, False)
        return True

    # -- drawing a call's share -------------------------------------------------

    def _static(self, screen, in_place, a, b=None, c=None, d=None, e=None):
        """Start drawing ``screen`` from the values ``a`` to ``e``; False when it
        already shows, or is drawing, exactly those values (checked without
        allocating, so a game loop may call a screen on every pass)."""
        # No local besides the arguments (``tests/test_frames.py``).
        if (
            # ``is`` first: most values come again as the same objects, and a call
            # costs tens of microseconds on the chip.
            self.renderer.screen == screen
            and (self._shown[0] is a or _same(self._shown[0], a))
            and (self._shown[1] is b or _same(self._shown[1], b))
            and (self._shown[2] is c or _same(self._shown[2], c))
            and (self._shown[3] is d or _same(self._shown[3], d))
            and (self._shown[4] is e or _same(self._shown[4], e))
        ):
            return False
        if self.renderer.screen != screen or not in_place:
            self._clear(screen)
        # Copies: a caller may change its list in place (controls.called, match.wins).
        self._shown[0] = _kept(a)
        self._shown[1] = _kept(b)
        self._shown[2] = _kept(c)
        self._shown[3] = _kept(d)
        self._shown[4] = _kept(e)
        self._row_player = -1
        return True

    def _clear(self, screen):
        self.renderer.clear(screen)
        self._screen = screen
        self._steps = None
        self.backdrop_due = True
        self._rows_met = 0  # every row's pieces bare felt (``row_pieces``)

    def _draw(self, share, took):
        """The clear, then the steps, while this call's share lasts."""
        call = self.renderer
        if self._steps is None:
            return
        if not call.start(share):
            call.busy = True  # its values taken: the steps go from a call that draws
            return
        if took and not call.take():
            return  # comparing and copying the new values was this call's share
        if call.clear_row < HEIGHT and not call.cleared():
            return
        self._run_steps()

    def _run_steps(self):
        # Apart from ``_draw``: a ``try`` takes three words of a frame (tests/test_frames.py).
        steps = self._steps
        while self.renderer.afford():
            if self._row_player >= 0 and self._row_step():
                continue
            # A step of the screen's own, or setting its next row up: that makes the row's
            # text, which allocates, so no piece of it goes in the same step.
            try:
                next(steps)
            except StopIteration:
                self._steps = None
                return

    def row(self, player, text, y, colour, x=-1):
        """The next row of small text, across the screen, to draw: ``player``'s copy, or
        both (-1), a piece a step (``_row_step``), once the screen's steps yield: no
        generator, and nothing allocated (its pieces' list is one made once). A piece
        remembers the text it shows and its look, or None for bare felt, which stays as
        it is."""
        if x < 0:
            x = (WIDTH - 8 * len(text)) // 2
        width = self.renderer.piece_width()
        self._row_text = text
        self._row_colour = colour
        self._row_x = x
        self._row_look = _look(colour, x)
        self._row_y = y
        self._row_first = x // width
        self._row_end = (x + 8 * len(text) - 1) // width
        self._row_last = 1 if player < 0 else player
        self._row_later = self.row_pieces(1, y) if player < 0 else None
        self._start_copy(0 if player < 0 else player, self.row_pieces(max(player, 0), y))

    def _start_copy(self, player, shown):
        """A copy's pieces are looked at from the first to the last that its text reaches
        now or reached before (``_REACH``): a row's other pieces are bare felt already."""
        self._row_player = player
        self._row_piece = min(self._row_first, shown[_REACH])
        self._row_stop = max(self._row_end, shown[_REACH + 1]) + 1
        self._row_drew = False
        self._row_shown = shown

    def _row_step(self):
        """The row's next piece that shows something new; a copy with nothing new is a
        step of its own. False when the row ended with this step still to spend."""
        while True:
            shown = self._row_shown
            while self._row_piece < self._row_stop:
                i = self._row_piece
                self._row_piece = i + 1
                text = look = None  # bare felt
                if self._row_first <= i <= self._row_end:
                    text = self._row_text
                    look = self._row_look
                if shown[i] == text and shown[_LOOKS + i] == look:
                    continue
                shown[i] = text
                shown[_LOOKS + i] = look
                with HEAP:  # the text clipped to the piece: bare felt out of its reach
                    width = self.renderer.piece_width()
                    self.pen.text_row(
                        self._row_player,
                        self._row_text,
                        self._row_x,
                        self._row_y,
                        self._row_colour,
                        i * width,
                        width,
                    )
                self._row_drew = True
                return True
            shown[_REACH] = self._row_first  # the copy is drawn: its text's reach
            shown[_REACH + 1] = self._row_end
            drew = self._row_drew
            if self._row_player >= self._row_last:
                self._row_player = -1
                return not drew
            self._start_copy(self._row_player + 1, self._row_later)
            if not drew:
                return True  # the copy with nothing new was this step

    def row_pieces(self, player, y):
        """What each piece of a row shows (None: bare felt), from ``_LOOKS`` on, for a
        piece of small text, its colour and place (``_look``), and at ``_REACH`` the
        first and last piece that its text reaches. New values redraw only the pieces
        that changed, so that a screen whose values change every few passes (the
        self-test's ages) still gets to its last rows. A row met first since the last
        clear takes the next of the lists made with the screens, bare felt."""
        key = player << 8 | y
        keys = self._row_keys
        met = self._rows_met
        i = 0
        while i < met:
            if keys[i] == key:
                return self._row_lists[i]
            i += 1
        if met == len(keys):  # more rows than any screen draws: one more list
            keys.append(0)
            self._row_lists.append(list(_BARE))
        keys[met] = key
        self._rows_met = met + 1
        pieces = self._row_lists[met]
        del pieces[ALL]  # a slice written here would be allocated
        pieces.extend(_BARE)
        return pieces

    # -- rows of text -------------------------------------------------------------

    def line(self, player, text, y, colour, scale, x=-1, chars=0):
        """Steps drawing a row of big text (8x8 text magnified ``scale`` times, a glyph
        row a step) on ``player``'s half, ``y`` as player 1 sees theirs, in a window
        ``chars`` characters wide (at least the text's own width). Small text goes a
        piece a step (``row``)."""
        if x < 0:
            x = (WIDTH - 8 * len(text) * scale) // 2
        if 8 * len(text) * scale > _SHAPE_MAX_W:
            raise ValueError("big text wider than a shape holds: %r" % text)
        shown = self.row_pieces(player, y)
        look = _look(colour, x) << 4 | scale
        if shown[0] == text and shown[_LOOKS] == look:
            yield  # a screen redrawn in place, this row unchanged: its look is a step
            return
        shown[0] = text
        shown[_LOOKS] = look
        # Setting the row up is a step, and making its window and shape another: each
        # may allocate (the first time), and finding room takes longer on a full heap.
        yield
        pen = self.pen
        window = 8 * max(len(text), chars) * scale
        rows = 1 if self.renderer.regions_per_call else 8  # glyph rows a window
        view = pen.view(window, rows * scale)
        shape = self._shape(len(text), scale)
        pen.big_text(text, scale)
        yield
        first = 0
        while first < 8:  # a range whose step is a variable would allocate
            with HEAP:
                pen.begin(view, (WIDTH - window) // 2, y + first * scale, player == 1, FELT)
                pen.big(shape, x, y, colour, first, first + rows)
                pen.end()
            first += rows
            yield

    def _shape(self, chars, scale):
        """The shape of a glyph row of ``chars`` characters of big text, made once for
        each size: its rectangles, at most 4 a character (runs of set bits in 8), are
        rewritten for each row."""
        key = chars << 4 | scale
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._shapes[key] = shaped(8 * chars * scale, scale, bytearray(2 + 16 * chars))
        return shape

    def _both(self, text, y, colour, scale):
        yield from self.line(0, text, y, colour, scale)
        yield from self.line(1, text, y, colour, scale)

    def _rows(self, rows, first=0):
        """Rows of text from row ``first`` down; a heading (row 0) is highlighted."""
        for i in range(len(rows)):
            row = first + i
            colour = HIGHLIGHT if row == 0 else WHITE
            self.row(-1, rows[i], HALF_Y + 4 + row * ROW_PITCH, colour)
            yield

    # -- each screen's steps ----------------------------------------------------

    def _title(self, word, seed):
        yield from self._both(word, HALF_Y + 8, HIGHLIGHT, BIG_TEXT_SCALE)
        self.row(-1, self._press[word], HALF_Y + 56, WHITE)
        yield
        seed_text = "seed %d" % seed
        yield  # making the text was this call's share
        self.row(-1, seed_text, HALF_Y + 56 + 2 * ROW_PITCH, DIM)
        yield

    def _settings(self, rows, cursor):
        first = min(max(0, cursor - SETTINGS_ROWS // 2), max(0, len(rows) - SETTINGS_ROWS))
        for player in (0, 1):
            self.row(player, "settings", HALF_Y, HIGHLIGHT)
            yield
            for i in range(SETTINGS_ROWS):
                index = first + i
                text = ""
                colour = WHITE
                if index < len(rows):
                    name, value = rows[index]
                    mark = ">" if index == cursor else " "
                    text = "%s %-12s %s" % (mark, name, value)
                    colour = HIGHLIGHT if index == cursor else WHITE
                y = HALF_Y + 14 + i * SETTINGS_PITCH
                self.row(player, text, y, colour, 48)
                yield

    def _ready(self, word, ready_flags, cpu_seats, hint):
        for player in (0, 1):
            other = 1 - player
            yield from self.line(player, _name(player, cpu_seats), HALF_Y + 8, WHITE, 2, -1, 6)
            if ready_flags[player]:
                self.row(player, "ready!", HALF_Y + 40, HIGHLIGHT)
            else:
                self.row(player, self._press[word], HALF_Y + 40, HIGHLIGHT)
            yield
            state = _STATES[(other * 2 + _seat(other, cpu_seats)) * 2 + bool(ready_flags[other])]
            self.row(player, state, HALF_Y + 64, DIM)
            yield
            self.row(player, hint, HALF_Y + 88, DIM)
            yield

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

    def _game_over(self, winner, reason, games, cpu_seats, seed):
        yield from self._both(NAMES[winner] + " WINS", HALF_Y + 4, HIGHLIGHT, 3)
        rows = [_name(winner, cpu_seats) + ": " + reason, _score(games, cpu_seats)]
        yield from self._rows(rows + _seed_row(seed), 3)

    def _match_result(self, winner, games, cpu_seats, reactions, seed):
        yield from self._both(NAMES[winner] + " WINS", HALF_Y + 4, HIGHLIGHT, 3)
        rows = [_name(winner, cpu_seats) + " wins the match", _score(games, cpu_seats)]
        yield from self._rows(rows + list(reactions) + _seed_row(seed), 3)

    def _error(self, message):
        self.row(-1, "error", HALF_Y + 4, HIGHLIGHT)
        yield
        row = 1
        for line in _wrapped(message, ERROR_COLUMNS):
            if row > ERROR_ROWS:
                return
            yield  # wrapping the line was this call's share
            self.row(-1, line, HALF_Y + 4 + row * ROW_PITCH, WHITE)
            yield
            row += 1


def _look(colour, x):
    """A piece of small text's colour and the text's place, as one number: kept without
    allocating a tuple (a colour is 16 bits, a place under 512)."""
    return colour << 9 | x & 0x1FF


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
