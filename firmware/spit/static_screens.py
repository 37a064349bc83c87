"""The screens drawn from plain values (SPEC 5): title, settings, ready, countdown, round
result, game over, match result, error and self-test.

Constructor: ``StaticScreens(renderer, pen)``: the renderer keeps the screen on the display
and the call's share (``spit.render``), the pen paints. Each screen method takes its
values and a last argument ``share``, and sends nothing when called again with the same
values and nothing left to draw; ``step(share)`` goes on with the screen being drawn
without looking at its values again.

A screen is the rows it shows. Its composer (``_title_row`` and the like: one function a
screen, called with the row's number) makes a row a step, out of pieces of text: texts
made once (names, words, a wrapped error message), the values' texts, and numbers a
digit each, so that making a row allocates nothing. The rows are ``spit.rows``': a row
made again after new values is compared with what the same row showed, piece of text by
piece of text: a screen drawn in place (the settings cursor, who is ready, the countdown,
the self-test's counts) redraws only the regions of its rows that changed; any other
change starts from a clear display, so nothing of the old screen is left over. The rows of
a screen drawn in place say what they are made of (``unchanged``): those the new values
leave as they were are passed over without being made again, so that the answer to a
press (the share ``ANSWER``) draws the first region of the row it changed. A region
is an eighth of a row of small text, a glyph row of big text, or a colour bar, a corner
mark or an eighth of a histogram row of the self-test. A new screen's clear goes before
its values are compared: its first strip answers the press that brought it.

Values are compared with those shown by ``is``, then ``==``; a list's items are also
copied, into a list made with the screens, so that a caller may change its list in place
(not what is in it: the settings' rows say so with ``changes``).

Nothing here allocates after boot but the error screen's wrapping of a new message and
the self-test's module, imported when first drawn (each module imported at boot costs heap
and boot time). The steps run with the heap locked (``spit.scheduler``), their frames on the C
stack: ``tests/test_render.py`` draws every screen so on the VM.
"""

from micropython import const

from spit import screens
from spit.games import calls
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
)
from spit.pen import DIM, HIGHLIGHT, WHITE
from spit.rows import Rows, wrap
from spit.scheduler import ANSWER, HEAP

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
isinstance, len, max, min, type = isinstance, len, max, min, type

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
_WINS = ("P1 WINS", "P2 WINS")
_GAME_CHOICE = "L/R: Spit or Speed"
_SETTINGS_HEADING = "settings"
_ONE_GAME = "one game decides the match"
# The ready screen's match line in four pieces made once (a piece costs a call on the
# chip): which game of three comes, then each side's name and games won (0 or 1).
_GAME_OF = ("game 1 of 3: ", "game 2 of 3: ", "game 3 of 3: ")
_SIDES = tuple(name + " " + won for name in _SEAT_NAMES for won in "01")


def match_code(wins, to_win):
    """The ready screen's ``match`` value, a small int: -1 when one game decides the
    match (``to_win`` 1), else ``wins[0] + 2 * wins[1]`` (games won so far by each, in a
    best of three)."""
    return -1 if to_win == 1 else wins[0] + 2 * wins[1]


# The ready screen's rows on each half, from its middle edge: the name (big), the
# prompt, the game of the match and the score, how the other stands, the hint.
READY_Y = (8, 38, 56, 72, 92)
_SHOWN = const(6)  # the most values a screen shows
# The values whose items are copied, and room for them, by the value's place: the
# settings' rows or the self-test's counts; its ages or a margin's codes; its bins or the
# games; the reaction times or its lines; the seats.
_COPIED = (list, bytearray)
_ROOM = (16, 20, 16, 6, 2, 0)
_SETTINGS_X = const(48)


class StaticScreens(Rows):
    def __init__(self, renderer, pen):
        super().__init__(renderer, pen)
        self._press = {}  # each word's "press" line, made once
        for word in calls():
            self._press[word] = "press " + word
        self._composers = {
            screens.TITLE: _title_row,
            screens.SETTINGS: _settings_row,
            screens.READY: _ready_row,
            screens.COUNTDOWN: _countdown_row,
            screens.ROUND_RESULT: _round_result_row,
            screens.GAME_OVER: _game_over_row,
            screens.MATCH_RESULT: _match_result_row,
            screens.ERROR: _error_row,
        }
        self._screen = screens.TITLE  # the screen whose rows these are
        self._compose = None  # its composer while it has rows to make
        self._k = 0  # the composer's next row
        self.shown = [None] * _SHOWN  # the values it shows
        self._values = [None] * _SHOWN  # the values a call puts for its screen
        self._share = None  # and the call's share
        self._asked = screens.TITLE  # and its screen
        self._wrapped = None  # the error message wrapped in ``_lines``
        # A list value's copies, with room for the longest (a list's length cannot change
        # without allocating): the items, and how many there are.
        self._copies = [[None] * n for n in _ROOM]
        # A bytearray value's (the margin's banner), kept in a bytearray: one of the same
        # length compares in C, not an item at a time in every pass the screen is up.
        self._byte_copies = [bytearray(n) for n in _ROOM]
        self.lengths = bytearray(_SHOWN)
        self._listed = bytearray(_SHOWN)  # which values shown are lists
        self._lists = 0  # how many of the screen's are
        self._lines = []  # the error message, wrapped
        self.backdrop_due = False  # the self-test's bars and corners: after a clear
        self.self_test_due = None  # and the rest of its state (``self_test_screen.prepare``)
        self.histogram_shows = None
        for word in calls():  # big text of every size the screens show
            self.big_size(len(word), BIG_TEXT_SCALE)
        self.big_size(1, COUNTDOWN_SCALE)
        self.big_size(2, 2, 6)
        self.big_size(6, 2, 6)
        self.big_size(len(_WINS[0]), 3)

    # -- the screens ----------------------------------------------------------

    # Each screen puts its values in a list made once and draws from a call of its own,
    # with the device's heap locked: a call passing them on would take its frame from the
    # heap (``tests/test_frames.py``).

    def title(self, word, seed, share=None):
        """The title: the game's name (its word), "press SPIT", how to choose the other
        game and the match seed."""
        self._values[0] = word
        self._values[1] = seed
        self._share = share
        self._show(screens.TITLE)

    def settings(self, rows, cursor, changes=0, share=None):
        """The settings menu: ``rows`` of ``(name, value)`` with the cursor on row
        ``cursor``; the rows around the cursor show when they do not all fit. A caller
        that changes a row in place counts its ``changes``."""
        self._values[0] = rows
        self._values[1] = cursor
        self._values[2] = changes
        self._share = share
        self._show(screens.SETTINGS)

    def ready(
        self,
        word,
        ready_flags,
        cpu_seats=(False, False),
        hint="",
        match=0,
        share=None,
    ):
        """Before a round: each player presses SPIT; who is ready shows on both halves,
        which game of the match comes and the score (``match``: ``match_code``), and a
        ``hint`` line (how quick play works, when it is on)."""
        self._values[0] = word
        self._values[1] = ready_flags
        self._values[2] = cpu_seats
        self._values[3] = hint
        self._values[4] = match
        self._share = share
        self._show(screens.READY)

    def countdown(self, n, share=None):
        """3, 2, 1: a big digit on each half."""
        self._values[0] = n
        self._share = share
        self._show(screens.COUNTDOWN)

    def round_result(self, end, margin=b"", cpu_seats=(False, False), reactions=(), share=None):
        """After a round: ``end`` is the ``rules.RoundEnd`` (who cleared, who slapped,
        the cards each took from the middle and holds now); ``margin`` the slap's
        banner (its characters' codes, up to a zero: ``Contest.banner_into``);
        ``reactions`` the reaction times (``Reactions.sum_up``), said for each person."""
        self._values[0] = end
        self._values[1] = margin
        self._values[2] = cpu_seats
        self._values[3] = reactions
        self._share = share
        self._show(screens.ROUND_RESULT)

    def game_over(
        self, winner, reason, games, cpu_seats=(False, False), seed=-1, reactions=(), share=None
    ):
        """A game won: the winner, why (``Outcome.reason``), games won by each player,
        the reaction times (as for ``round_result``) and the match's seed (which deals
        the same games again)."""
        self._values[0] = winner
        self._values[1] = reason
        self._values[2] = cpu_seats
        self._values[3] = reactions
        self._values[4] = games
        self._values[5] = seed
        self._share = share
        self._show(screens.GAME_OVER)

    def match_result(
        self, winner, games, cpu_seats=(False, False), reactions=(), seed=-1, share=None
    ):
        """The match won: the winner, the games score, the reaction times (as for
        ``round_result``), and the match's seed."""
        self._values[0] = winner
        self._values[1] = games
        self._values[2] = cpu_seats
        self._values[3] = reactions
        self._values[4] = seed
        self._share = share
        self._show(screens.MATCH_RESULT)

    def error(self, message, share=None):
        """Something went wrong: the message, wrapped, on both halves (wrapped when it
        is new: the pass that made it allocates anyway)."""
        if self._wrapped is not message and self._wrapped != message:
            self._wrapped = message
            self._lines = wrap(message, ERROR_COLUMNS)
        self._values[0] = message
        self._share = share
        self._show(screens.ERROR)

    def self_test(self, presses, ages, bins, lines=(), share=None):
        """The self-test: every button's press count (``presses[button_id]``) and the
        time since its last press (``ages[button_id]``, in tenths of a second, -1 for
        none yet) on its player's half, colour bars across the middle, a colour mark in
        each corner, the tie-window calibration's histogram (``bins``: pairs per bin)
        and two ``lines`` of text."""
        if screens.SELF_TEST not in self._composers:
            from spit.self_test_screen import prepare, self_test_row

            prepare(self)
            self._composers[screens.SELF_TEST] = self_test_row
        self._values[0] = presses
        self._values[1] = ages
        self._values[2] = bins
        self._values[3] = lines
        self._share = share
        self._show(screens.SELF_TEST)

    def _show(self, screen):
        self._asked = screen
        shown = self.shown
        values = self._values
        if (  # most calls: the screen all drawn, its values the same objects again
            self._compose is None
            and not self._lists
            and shown[0] is values[0]
            and shown[1] is values[1]
            and shown[2] is values[2]
            and shown[3] is values[3]
            and shown[4] is values[4]
            and shown[5] is values[5]
            and self.renderer.screen == screen
        ):
            self.renderer.busy = False
            return
        HEAP.call(_show_locked, self)

    def step(self, share=None):
        """Go on drawing the static screen being drawn, without looking at its values
        again (the last call did); False when none is being drawn (the play screen, or
        nothing left): call the screen itself then."""
        if self._compose is None or self.renderer.screen != self._screen:
            return False
        if self.renderer.start(share):
            HEAP.call(_draw_locked, self)
        else:
            self.renderer.busy = True
        return True

    # -- taking values ------------------------------------------------------------

    def _took(self, fresh):
        """Take the values put for the screen asked for; False when it already shows,
        or is drawing, exactly those values (compared without allocating, so a game
        loop may call a screen on every pass: most values come again as the same
        objects, a comparison each); ``fresh``: the screen was cleared for them. A
        list's items are also copied, so that a caller may change its list in place,
        not what is in it: the settings' rows say so with ``changes``."""
        screen = self._asked
        shown = self.shown
        values = self._values
        changed = fresh
        listed = self._listed
        lists = 0
        i = _VALUES[screen]
        while i:  # a call each only for lists: a call costs tens of microseconds on the chip
            i -= 1
            value = values[i]
            copies = self._byte_copies if type(value) is bytearray else self._copies
            if shown[i] is value:
                if listed[i] and _keep(copies[i], value, self.lengths, i):
                    changed = True
            elif isinstance(value, _COPIED):
                if _keep(copies[i], value, self.lengths, i) or not listed[i]:
                    changed = True
                listed[i] = 1
                shown[i] = value
            else:
                if shown[i] != value:
                    changed = True
                listed[i] = 0
                shown[i] = value
            lists += listed[i]
        self._lists = lists
        if not changed:
            return False
        if not fresh and screen not in _IN_PLACE:
            self._clear(screen)
        self.restart()
        self._compose = self._composers.get(screen)
        self._k = 0
        return True

    def _clear(self, screen):
        self.renderer.clear(screen)
        self._screen = screen
        self.backdrop_due = True
        self.forget()

    # -- rows made of several pieces ---------------------------------------------

    def name(self, player, cpu_seats):
        """``player``'s name as the screens show it: ``P1``, or ``P1 CPU`` for a CPU seat."""
        return _SEAT_NAMES[player * 2 + _seat(player, cpu_seats)]

    def score(self, games, cpu_seats):
        """``games P1 2 - P2 CPU 1``"""
        self.put("games ")
        self.put(self.name(0, cpu_seats))
        self.put(" ")
        self.put_number(games[0])
        self.put(" - ")
        self.put(self.name(1, cpu_seats))
        self.put(" ")
        self.put_number(games[1])

    def seed_row(self, seed, y, colour):
        """``seed 1234`` unless there is none (-1); False then."""
        if seed < 0:
            return False
        self.begin(-1, y, colour)
        self.put("seed ")
        self.put_number(seed)
        self.end()
        return True

    def plain_row(self, row, text, first=0):
        """A row of text alone, row ``row`` counted from ``first`` (a heading, row 0,
        highlighted)."""
        place = first + row
        self.begin(-1, HALF_Y + 4 + place * ROW_PITCH, HIGHLIGHT if place == 0 else WHITE)
        self.put(text)
        self.end()


# How many values each screen takes, and the screens drawn in place.
_VALUES = {
    screens.TITLE: 2,
    screens.SETTINGS: 3,
    screens.READY: 5,
    screens.COUNTDOWN: 1,
    screens.ROUND_RESULT: 4,
    screens.GAME_OVER: 6,
    screens.MATCH_RESULT: 5,
    screens.ERROR: 1,
    screens.SELF_TEST: 4,
}
_IN_PLACE = (screens.SETTINGS, screens.READY, screens.COUNTDOWN, screens.SELF_TEST)


def _show_locked(screens):
    """A screen's call: a new screen's clear begun first (the first pixels that answer a
    press), then its values taken, then its share drawn."""
    call = screens.renderer
    fresh = call.screen != screens._asked
    if fresh:
        screens._clear(screens._asked)
    else:
        took = screens._took(False)
        if not took and screens._compose is None:
            call.busy = False  # all drawn, the same values: nothing to send or ask
            return
    drawing = call.start(screens._share)
    # Taking new values spends a region of the share: a new screen's first, before its
    # clear's first strip goes, which the values' comparing then does not hold back.
    cleared = fresh and drawing and call.take() and call.cleared()
    if fresh:
        took = screens._took(True)
    if screens._compose is None:
        return
    if not drawing:
        call.busy = True  # its values taken: the steps go from a call that draws
    elif not fresh:
        if not took or call.take():
            _draw_locked(screens)
    elif cleared and call.left < 0:  # no limit: the whole screen
        _run_steps(screens)
    else:
        call.busy = True  # its rows go from the next calls: a row costs more than a region


def _draw_locked(screens):
    """The rest of the clear, then the steps, while the call's share lasts."""
    if screens.renderer.clear_row < HEIGHT and not screens.renderer.cleared():
        return
    _run_steps(screens)


def _run_steps(screens):
    """The steps while the call's share lasts: a region of the row being drawn, or the
    screen's next row made, those whose key says they are unchanged passed over on the
    way. An answer's share draws the first region of the row it makes in the same step:
    the first pixels of the change that answer the press."""
    renderer = screens.renderer
    while renderer.afford():  # a bound method kept in a local would be allocated
        if screens.drawing < 0:
            screens.passed_over = True
            while screens.passed_over:
                screens.passed_over = False
                k = screens._k
                screens._k = k + 1
                if not screens._compose(screens, k):
                    screens._compose = None
                    return
            if screens.drawing < 0 or renderer.share != ANSWER:
                continue
        screens.draw_region()


def _keep(copy, items, lengths, i):
    """Copy ``items`` into ``copy``; True if any differed."""
    count = len(items)
    if count > len(copy):
        raise ValueError("a list longer than its screen shows")
    changed = lengths[i] != count
    lengths[i] = count
    if copy == items:  # a bytearray in one of its length: compared in C
        return changed
    j = 0
    while j < count:
        item = items[j]
        if copy[j] is not item and copy[j] != item:
            copy[j] = item
            changed = True
        j += 1
    return changed


def _seat(player, cpu_seats):
    return 1 if cpu_seats[player] else 0


# -- each screen's rows: ``screens`` makes row ``k``; False when there is none -------


def _title_row(screens, k):
    word, seed = screens.shown[0], screens.shown[1]
    if k < 2:
        screens.begin(k, HALF_Y + 8, HIGHLIGHT, BIG_TEXT_SCALE)
        screens.put(word)
        screens.end()
    elif k == 2:
        screens.begin(-1, HALF_Y + 56, WHITE)
        screens.put(screens._press[word])
        screens.end()
    elif k == 3:
        screens.begin(-1, HALF_Y + 56 + ROW_PITCH, DIM)
        screens.put(_GAME_CHOICE)
        screens.end()
    else:
        return k == 4 and screens.seed_row(seed, HALF_Y + 56 + 2 * ROW_PITCH, DIM)
    return True


def _settings_row(screens, k):
    """The heading, then ``SETTINGS_ROWS`` rows around the cursor."""
    rows, cursor = screens.shown[0], screens.shown[1]
    count = len(screens.shown[0])
    if k == 0:
        if not screens.unchanged(_SETTINGS_HEADING):
            screens.begin(-1, HALF_Y, HIGHLIGHT)
            screens.put(_SETTINGS_HEADING)
            screens.end()
        return True
    if k > SETTINGS_ROWS:
        return False
    first = min(max(0, cursor - SETTINGS_ROWS // 2), max(0, count - SETTINGS_ROWS))
    index = first + k - 1
    # A row's name is its index's; its value changes in place (``changes``).
    if index < count and screens.unchanged(rows[index][1], index << 1 | (index == cursor)):
        return True
    colour = HIGHLIGHT if index == cursor else WHITE
    screens.begin(-1, HALF_Y + 14 + (k - 1) * SETTINGS_PITCH, colour)
    if index < count:
        screens.put(">" if index == cursor else " ")
        screens.skip_to(2)
        screens.put(rows[index][0])
        screens.skip_to(15)
        screens.put(rows[index][1])
    screens.end(_SETTINGS_X)
    return True


def _ready_row(screens, k):
    """Each half: the player's name, their prompt, the game of the match and the score,
    how the other stands and the hint. Each row's key is its text, or for the match line
    the values it is made of: a call changes one or two rows."""
    # One value a line: unpacking four makes a tuple.
    ready = screens.shown[1]
    cpus = screens.shown[2]
    player = k // 5
    if player > 1:
        return False
    part = k % 5
    y = HALF_Y + READY_Y[part]
    if part == 2:
        if screens.unchanged(screens.shown[4], 1 + _seat(0, cpus) + 2 * _seat(1, cpus)):
            return True
        screens.begin(player, y, WHITE)
        _match_line(screens, cpus)
        screens.end()
        return True
    if part == 0:
        text = screens.name(player, cpus)
    elif part == 1:
        text = "ready!" if ready[player] else screens._press[screens.shown[0]]
    elif part == 3:
        other = 1 - player
        text = _STATES[(other * 2 + _seat(other, cpus)) * 2 + (1 if ready[other] else 0)]
    else:
        text = screens.shown[3]
    if screens.unchanged(text):
        return True
    if part == 0:
        screens.begin(player, y, WHITE, 2, 6)
    else:
        screens.begin(player, y, HIGHLIGHT if part == 1 else DIM)
    screens.put(text)
    screens.end()
    return True


def _match_line(screens, cpus):
    """``game 2 of 3: P1 1 - P2 CPU 0``, or that one game decides the match."""
    code = screens.shown[4]
    if code < 0:
        screens.put(_ONE_GAME)
        return
    first = code & 1
    second = code >> 1
    screens.put(_GAME_OF[first + second])
    screens.put(_SIDES[2 * _seat(0, cpus) + first])
    screens.put(" - ")
    screens.put(_SIDES[4 + 2 * _seat(1, cpus) + second])


def _countdown_row(screens, k):
    if k > 1:
        return False
    screens.begin(k, HALF_Y + 20, HIGHLIGHT, COUNTDOWN_SCALE)
    screens.put_number(screens.shown[0])
    screens.end()
    return True


def _round_result_row(screens, k):
    """``round over``, who cleared, who slapped (if anybody), the margin, what each took
    and holds, and the reaction lines."""
    end, margin, cpus = screens.shown[0], screens.shown[1], screens.shown[2]
    after = k - 2 - (1 if end.slapper >= 0 else 0)  # the rows after the slap's
    if k == 0:
        screens.plain_row(0, "round over")
    elif k == 1 and end.cleared >= 0:
        screens.plain_row(1, _CLEARED[end.cleared * 2 + _seat(end.cleared, cpus)])
    elif k == 1:
        screens.plain_row(1, "nobody could move")
    elif after < 0:
        screens.plain_row(2, _SLAPPED[end.slapper * 2 + _seat(end.slapper, cpus)])
    elif after == 0:
        screens.begin(-1, HALF_Y + 4 + k * ROW_PITCH, WHITE)
        screens.put_codes(margin)
        screens.end()
    elif after < 3:
        player = after - 1
        screens.begin(-1, HALF_Y + 4 + k * ROW_PITCH, WHITE)
        screens.put(screens.name(player, cpus))
        screens.put(" took ")
        screens.put_number(end.took[player])
        screens.put(", holds ")
        screens.put_number(end.held[player])
        screens.end()
    else:
        return _reaction_row(screens, 3, after - 3, k)
    return True


def _reaction_row(screens, i, n, place):
    """Reaction line ``n`` of the value ``i``, on row ``place``: ``P1 612 ms, best 401,
    record 388`` (the session's median and best, the personal record), or that none
    was timed yet; False past the last."""
    player = _timed_player(screens, i, n)
    if player < 0:
        return False
    figures = screens.shown[i]
    screens.begin(-1, HALF_Y + 4 + place * ROW_PITCH, WHITE)
    screens.put(_SEAT_NAMES[2 * player])
    if figures[3 * player]:
        screens.put(" ")
        screens.put_number(figures[3 * player])
        screens.put(" ms, best ")
        screens.put_number(figures[3 * player + 1])
        screens.put(", record ")
        screens.put_number(figures[3 * player + 2])
    else:
        screens.put(": no reaction timed yet")
    screens.end()
    return True


def _timed_player(screens, i, n):
    """The ``n``th seat a person plays, if the value ``i`` has reaction times; else -1."""
    if not screens.shown[i]:
        return -1
    cpus = screens.shown[2]
    if not cpus[0]:
        if n == 0:
            return 0
        n -= 1
    return 1 if n == 0 and not cpus[1] else -1


def _game_over_row(screens, k):
    """Who won, big, then why, the games score, the reaction lines and the seed."""
    winner, reason, cpus = screens.shown[0], screens.shown[1], screens.shown[2]
    lines = (_timed_player(screens, 3, 0) >= 0) + (_timed_player(screens, 3, 1) >= 0)
    if k < 2:
        _wins_row(screens, k, winner)
    elif k == 2:
        screens.begin(-1, HALF_Y + 4 + 3 * ROW_PITCH, WHITE)
        screens.put(screens.name(winner, cpus))
        screens.put(": ")
        screens.put(reason)
        screens.end()
    elif k == 3:
        screens.begin(-1, HALF_Y + 4 + 4 * ROW_PITCH, WHITE)
        screens.score(screens.shown[4], cpus)
        screens.end()
    elif k < 4 + lines:
        return _reaction_row(screens, 3, k - 4, k + 1)
    else:
        return k == 4 + lines and screens.seed_row(
            screens.shown[5], HALF_Y + 4 + (5 + lines) * ROW_PITCH, WHITE
        )
    return True


def _match_result_row(screens, k):
    """Who won, big, then the match, the games score, the reaction lines and the seed."""
    winner, games, cpus = screens.shown[0], screens.shown[1], screens.shown[2]
    lines = (_timed_player(screens, 3, 0) >= 0) + (_timed_player(screens, 3, 1) >= 0)
    if k < 2:
        _wins_row(screens, k, winner)
    elif k == 2:
        screens.begin(-1, HALF_Y + 4 + 3 * ROW_PITCH, WHITE)
        screens.put(screens.name(winner, cpus))
        screens.put(" wins the match")
        screens.end()
    elif k == 3:
        screens.begin(-1, HALF_Y + 4 + 4 * ROW_PITCH, WHITE)
        screens.score(games, cpus)
        screens.end()
    elif k < 4 + lines:
        return _reaction_row(screens, 3, k - 4, k + 1)
    else:
        return k == 4 + lines and screens.seed_row(
            screens.shown[4], HALF_Y + 4 + (5 + lines) * ROW_PITCH, WHITE
        )
    return True


def _wins_row(screens, player, winner):
    screens.begin(player, HALF_Y + 4, HIGHLIGHT, 3)
    screens.put(_WINS[winner])
    screens.end()


def _error_row(screens, k):
    """``error``, then the message's first ``ERROR_ROWS`` lines."""
    lines = screens._lines
    if k == 0:
        screens.plain_row(0, "error")
        return True
    if k > ERROR_ROWS or k > len(lines):
        return False
    screens.begin(-1, HALF_Y + 4 + k * ROW_PITCH, WHITE)
    screens.put(lines[k - 1])
    screens.end()
    return True
