"""Races and slaps judged (SPEC section 3): who won a contested outcome, by how much, and
the margin banner that says so.

A card that fitted a pile until the other player's card landed there (within
``race_window_us``) lost its race, whatever the input mode; a slap made within
``slap_window_us`` of the one that ended the round lost by its margin. The controls
record each card that lands (``landed_by``, ``landed_at``, ``covered``: a list each,
indexed by pile) and ask ``raced_pile``, ``race_margin`` and ``late_slap``.

The banner is written as character codes in a bytearray (``banner[:banner_len]``),
without a string: the play screen reads it while nothing may allocate.
"""

from micropython import const

from spit.cards import adjacent
from spit.ticks import ticks_diff

# ``spit.games``' values, read on a press (a const is folded only in its own module).
_PLAYER_SHIFT = const(8)
_FIRST_SHIFT = const(4)
_FIELD = const(15)

# A refused card counts as a lost race when the other player's card landed on
# that pile this recently and the refused card fitted the pile before it did.
DEFAULT_RACE_WINDOW_US = const(500_000)
# How long after the first slap a second one still counts for the margin.
DEFAULT_SLAP_WINDOW_US = const(2_000_000)
# The margin banner's longest text: ``P1 by 1073741 ms``, the longest margin in ticks.
BANNER_MAX = const(20)
_P = const(80)  # character codes: "P", "1", "0", "."
_ONE = const(49)
_ZERO = const(48)
_POINT = const(46)


class Contest:
    """The last contested outcome of ``game``: ``winner`` (0 or 1, -1: none),
    ``margin_us`` and ``tie`` (the arbiter called the two presses a tie and its fair rule
    chose the winner), and the banner that says so (``text()``, ``banner_into``)."""

    def __init__(self, game):
        self.game = game
        self.race_window_us = DEFAULT_RACE_WINDOW_US
        self.slap_window_us = DEFAULT_SLAP_WINDOW_US
        self.winner = -1
        self.margin_us = 0
        self.tie = False
        self.banner = bytearray(BANNER_MAX)
        self.banner_len = 0
        self.unsettled = False  # noted, its banner not written yet
        self._notes = 0  # how many outcomes were noted or cleared: the text's version
        self._text = ""
        self._text_notes = 0
        # The last card played onto each pile: by whom, when, and the top it covered.
        self.landed_by = [-1, -1]
        self.landed_at = [0, 0]
        self.covered = [-1, -1]
        self._slapper = -1
        self._slapped_at = 0

    # -- judging ------------------------------------------------------------------

    def raced_pile(self, player, card, t):
        """The pile the other player's card took from ``card`` within the race window
        (it fitted the top that card covered), or -1: a play there at ``t`` is a lost
        race."""
        for pile in range(self.game.pile_count()):
            if (
                self.landed_by[pile] == 1 - player
                and adjacent(card, self.covered[pile])
                and ticks_diff(t, self.landed_at[pile]) <= self.race_window_us
            ):
                return pile
        return -1

    def race_margin(self, action, t):
        """By how much ``action`` (a play refused at ``t``) lost its race (ticks, negative
        when the arbiter put it second by the tie rule), or None if it lost none: the
        other player's card landed on its pile within the race window, covering a top it
        fitted."""
        pile = action & _FIELD
        if self.landed_by[pile] != 1 - ((action >> _PLAYER_SHIFT) & 1):
            return None
        # The refused card (no local for its player: a 12th word puts the frame on the heap).
        card = self.game.stock_top(
            (action >> _PLAYER_SHIFT) & 1, (action >> _FIRST_SHIFT) & _FIELD
        )
        if not adjacent(card, self.covered[pile]):
            return None
        margin = ticks_diff(t, self.landed_at[pile])
        return margin if margin <= self.race_window_us else None

    def slapped(self, player, t):
        """``player``'s slap at ``t`` ended the round: the last margin is old news."""
        self._slapper = player
        self._slapped_at = t
        # ``clear``, without a call: in the pass that ends the round.
        self.winner = -1
        self.banner_len = 0
        self.unsettled = False
        self._notes += 1

    def late_slap(self, player, t, tie):
        """Whether ``player``'s slap at ``t``, after the other's ended the round, counts
        for the margin (noted if it does); only the first late slap counts."""
        if self._slapper != 1 - player:
            return False
        margin = ticks_diff(t, self._slapped_at)
        self._slapper = -1
        if margin > self.slap_window_us:
            return False
        self.note(1 - player, margin, tie)
        return True

    # -- the outcome and its banner -------------------------------------------------

    def set(self, winner, margin_us, tie):
        self.note(winner, margin_us, tie)
        self.settle()

    def note(self, winner, margin_us, tie):
        """``set`` without the banner, which ``settle`` writes later: the pass of the
        press has no time to spare for it."""
        self.winner = winner
        self.margin_us = margin_us if margin_us >= 0 else -margin_us
        self.tie = tie
        self.unsettled = True
        self._notes += 1

    def settle(self):
        """Write the banner a ``note`` left to write."""
        if self.unsettled:
            self.unsettled = False
            self.banner_len = self._write()

    def clear(self):
        self.winner = -1
        self.banner_len = 0
        self.unsettled = False
        self._notes += 1

    def banner_into(self, out):
        """The banner's characters into ``out`` (a bytearray), zeros after them."""
        self.settle()
        for i in range(len(out)):
            out[i] = self.banner[i] if i < self.banner_len else 0

    def text(self):
        """What the margin banner says, ``P2 by 0.31 ms`` or ``TIE - P1 by rule``, as a
        string: made once for each outcome (the round result's screen asks every pass)."""
        if self._text_notes != self._notes:
            self._text_notes = self._notes
            self._text = bytes(self.banner[: self._write()]).decode()
        return self._text

    def _write(self):
        """The banner's characters into ``banner``; returns how many."""
        out = self.banner
        if self.winner < 0:
            return 0
        if self.tie:
            at = _put(out, 0, b"TIE - P")
            out[at] = _ONE + self.winner
            return _put(out, at + 1, b" by rule")
        out[0] = _P
        out[1] = _ONE + self.winner
        us = self.margin_us
        at = _put_number(out, _put(out, 2, b" by "), us // 1000, 1)
        # Two decimals under 10 ms, one under 100 ms, whole milliseconds above.
        if us < 10_000:
            out[at] = _POINT
            at = _put_number(out, at + 1, us % 1000 // 10, 2)
        elif us < 100_000:
            out[at] = _POINT
            at = _put_number(out, at + 1, us % 1000 // 100, 1)
        return _put(out, at, b" ms")


def _put(out, at, chars):
    """``chars`` (bytes) into ``out`` from ``at``; returns the end."""
    for i in range(len(chars)):
        out[at + i] = chars[i]
    return at + len(chars)


def _put_number(out, at, value, width):
    """``value`` in decimal into ``out`` from ``at``, zero-padded to ``width``; returns the
    end."""
    end = at + width
    rest = value // 10**width
    while rest:
        end += 1
        rest //= 10
    i = end
    while i > at:
        i -= 1
        out[i] = _ZERO + value % 10
        value //= 10
    return end
