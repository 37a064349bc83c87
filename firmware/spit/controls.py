"""From committed button presses to rules actions (SPEC section 3).

Each player holds at most one card: ``Cn`` picks up the top of stock slot n,
then ``L``/``R`` plays it onto that spit pile (the pile button's press is the
moment of touch) or another ``Cm`` moves it into a gap (or, with ``stack=on``,
onto a top of the same rank). Pressing the card in hand again puts it back;
another ``Cn`` whose slot cannot take it picks that one instead. With
``quick=on`` a card that fits exactly one pile plays with its ``Cn`` alone, and a
pile press that follows it at once (the player pressed ``Cn`` then ``L`` out of
habit) is absorbed without a word.
``SPIT`` calls spit and, pressed again, withdraws the call; the spit happens
when both have called. After a round, ``L``/``R`` slap.

Speed (``spit.speed``) reads as Spit's table with hand slots of one card and no moves
or slaps: the same presses play it, SPIT calls the flip when both are stuck, and a
player out of cards calls the game with SPIT alone (``own_call``).

Presses arrive already in first-touch order from the arbiter, and a player's
buttons only ever name that player's cards, so neither player can move the
other's. Presses that mean nothing in the current phase are ignored.

Everything a player should see or hear comes out through ``listener(event,
player, detail)``; contested outcomes also fill ``contest`` with the winner, the
margin and the arbiter's tie flag. A card that fitted a pile until the other
player's card landed there is a lost race whatever the input mode: it goes back to
its slot and the margin shows.

Spit piles as each player sees them: their own spit pile is on their left, so
``L`` is their own pile and ``R`` the other player's; in a one-pile round both
buttons mean the lone pile.
"""

from micropython import const

from spit import keys
from spit.cards import FITS, RANK_COUNT, adjacent
from spit.games import (
    NO_CARD,
    NO_FIT,
    ROUND_ACTIONS,
    IllegalActionError,
    move,
    play,
    room_for_a_round,
    slap,
)
from spit.ticks import ticks_add, ticks_diff

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len = len

# ``spit.games``' values, read on every press: a const is folded only in the module that
# defines it (another module's is a global lookup, about a microsecond on the Pico), so
# this one keeps copies; ``tests/test_games.py`` holds each to its value there.
_PHASE_READY = const(0)
_PHASE_PLAY = const(1)
_PHASE_SLAP = const(2)
_KIND_SHIFT = const(9)
_PLAYER_SHIFT = const(8)
_FIRST_SHIFT = const(4)
_FIELD = const(15)
_PLAY = const(0)
_MOVE = const(1)
_CALL = const(2)
_SLAP = const(3)
_CALL_ACTION = const(_CALL << _KIND_SHIFT)

# Events, with what ``detail`` holds.
PICKED = const(0)  # slot
PUT_BACK = const(1)  # slot
PLAYED = const(2)  # pile
MOVED = const(3)  # destination slot
REFUSED = const(4)  # the reason, as the player is told
LOST_RACE = const(5)  # pile; the card went back to its slot; see ``contest``
CALLED = const(6)  # 0
WITHDRAWN = const(7)  # 0
SPAT = const(8)  # how many cards went down
SLAPPED = const(9)  # pile
SLAP_MARGIN = const(10)  # pile; see ``contest``
EVENT_NAMES = (
    "picked",
    "put back",
    "played",
    "moved",
    "refused",
    "lost race",
    "called",
    "withdrawn",
    "spat",
    "slapped",
    "slap margin",
)

NO_CARD_IN_HAND = "pick a card first"

# A refused card counts as a lost race when the other player's card landed on
# that pile this recently and the refused card fitted the pile before it did.
DEFAULT_RACE_WINDOW_US = const(500_000)
# How long after the first slap a second one still counts for the margin.
DEFAULT_SLAP_WINDOW_US = const(2_000_000)
# With spit=auto, how long everybody must be stuck before the device spits.
DEFAULT_AUTO_SPIT_US = const(1_000_000)
# How long the device waits for a slap before it settles the piles itself.
DEFAULT_SLAP_LIMIT_US = const(10_000_000)
# A pile press this soon after a quick play by the same player is the rest of the
# taught "Cn then L" and is absorbed without a word.
QUICK_FOLLOW_US = const(1_000_000)
# The margin banner's longest text: ``P1 by 1073741 ms``, the longest margin in ticks.
BANNER_MAX = const(20)
_P = const(80)  # character codes: "P", "1", "0", "."
_ONE = const(49)
_ZERO = const(48)
_POINT = const(46)
_FITS_NONE = const(-1)  # what ``_only_fit`` finds besides a pile
_FITS_BOTH = const(-2)


class Contest:
    """The last contested outcome: ``winner`` (0 or 1), ``margin_us`` and ``tie`` (the
    arbiter called the two presses a tie and its fair rule chose the winner), and the
    banner that says so (``text()``), its characters in ``banner[:banner_len]``: written
    there without a string, since the screen reads it while nothing may allocate."""

    def __init__(self):
        self.winner = -1
        self.margin_us = 0
        self.tie = False
        self.banner = bytearray(BANNER_MAX)
        self.banner_len = 0
        self.unsettled = False  # noted, its banner not written yet
        self._notes = 0  # how many outcomes were noted or cleared: the text's version
        self._text = ""
        self._text_notes = 0

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


def _is_pile_key(button):
    key = keys.key_of(button)
    return key == keys.LEFT or key == keys.RIGHT


class Controls:
    def __init__(self, game, listener=None):
        self.game = game
        self.listener = listener  # None: nobody listens
        self._quick = game.options.quick == "on"
        self.race_window_us = DEFAULT_RACE_WINDOW_US
        self.slap_window_us = DEFAULT_SLAP_WINDOW_US
        self.auto_spit_us = DEFAULT_AUTO_SPIT_US
        self.slap_limit_us = DEFAULT_SLAP_LIMIT_US
        self.hand = [-1, -1]
        self.called = [False, False]
        self.contest = Contest()
        # The last card played onto each pile: by whom, when, and the top it covered.
        self._landed_by = [-1, -1]
        self._landed_at = [0, 0]
        self._covered = [-1, -1]
        self._slapper = -1
        self._slapped_at = 0
        # When each player's last quick play was tried, while their next press may be
        # its pile press (-1 once any other press came).
        self._quick_at = [-1, -1]
        self._stuck = False
        self._preparing = False
        # The time of an action whose table is still to be looked at (-1: none): whether
        # anybody can move is worked out in the timers' pass (``update``), and the screen
        # waits for it rather than work it out in a pass that draws.
        self.stuck_check_at = -1
        self._since = 0  # when everybody got stuck, or when the slap phase began
        self.phase_at = 0  # when the game's phase last changed
        # The device counts down before a round opens (0: the opening spit comes at once).
        self.countdown_us = 0
        self.counting = False
        self._opening_at = 0
        # The press time of each applied action, beside ``game.history``.
        self.times = []
        self._room = 0  # the length up to which ``times`` has room
        self.room_for_a_round()
        # Counts the events told: the play screen has nothing new to show while it
        # stays the same.
        self.changes = 0
        self._t = 0  # the time and tie flag of the press (or timer) being handled
        self._tie = False

    def room_for_a_round(self):
        """Room for the press times of a round's actions, made before the deal as the game
        makes it in its history, so that a press allocates nothing; True if it was short
        and is made now."""
        room = self._room
        if room - len(self.times) >= ROUND_ACTIONS:
            return False  # most rounds: a call less in the deal's pass
        self._room = room_for_a_round(self.times, room)
        return self._room != room

    def press(self, button, t, tie=False):
        """Handle one committed press of ``button`` touched at ``t`` (ticks_us); ``tie``
        is the arbiter's flag: this press won or lost its place by the tie rule."""
        # The press's time and tie flag stay on ``self`` for the functions it runs
        # through: on MicroPython a function with more than 11 words of locals and
        # stack gets its frame from the heap at every call (``host_sim.bench.heap_frames``). A
        # press is a few calls deep at most: each call costs 15-25 µs on the Pico
        # (``docs/performance.md``).
        self._t = t
        self._tie = tie
        player = button >> keys.PLAYER_SHIFT
        key = button & keys.KEY_MASK
        if key < keys.LEFT:
            self._quick_at[player] = -1
            if self.game.phase == _PHASE_PLAY:
                self._card(player, key)
        elif key == keys.SPIT:
            self._quick_at[player] = -1
            if self.game.phase == _PHASE_READY or self.game.phase == _PHASE_PLAY:
                self._call_spit(player, t)
        else:
            self._pile_press(player, key)

    def _tell(self, event, player, detail):
        self.changes += 1
        if self.listener is not None:
            self.listener(event, player, detail)

    def contested(self, button, other):
        """Whether presses of the two players race for one outcome, so that their order
        matters to both: two cards landing on the same pile, or two slaps."""
        game = self.game
        if game.phase == _PHASE_SLAP:
            return (
                _is_pile_key(button)
                and _is_pile_key(other)
                and game.may_slap(0)
                and game.may_slap(1)
            )
        if game.phase != _PHASE_PLAY:
            return False
        pile = self._landing(button)
        return pile >= 0 and pile == self._landing(other)

    def _landing(self, button):
        """The pile a press would put a card onto now, or a negative number."""
        player = keys.player_of(button)
        key = keys.key_of(button)
        held = self.hand[player]
        if key == keys.LEFT or key == keys.RIGHT:
            return self.pile_of(player, key) if held >= 0 else -1
        game = self.game
        if key >= game.slots or key == held or not self._quick:
            return -1
        if held >= 0 and game.is_legal(move(player, held, key)):
            return -1
        card = game.stock_top(player, key)
        return self._only_fit(card) if card >= 0 else -1

    def _follows_quick_play(self, quick_at, t):
        return quick_at >= 0 and ticks_diff(t, quick_at) <= QUICK_FOLLOW_US

    def pile_of(self, player, key):
        """The spit pile that ``L`` or ``R`` of ``player`` stands for."""
        if self.game.one_pile():
            return 0
        return player if key == keys.LEFT else 1 - player

    def presses_for(self, player, action):
        """The keys ``player`` presses to make ``action``, from their current hand, as a
        list, or None if the buttons cannot make it (``keys_for``)."""
        keys_out = bytearray(3)
        count = self.keys_for(player, action, keys_out)
        return None if count < 0 else list(keys_out[:count])

    def keys_for(self, player, action, keys_out):
        """Write into ``keys_out`` (3 bytes) the keys ``player`` presses to make ``action``,
        from their current hand; return how many, or -1 if the buttons cannot make it
        (with ``quick=on`` a card that fits exactly one pile is played by its button, so
        it cannot be moved into a gap). No list: the CPU seats press in a pass of play.

        This is how the CPU seats play: through the same buttons as a person."""
        kind = action >> _KIND_SHIFT
        first = (action >> _FIRST_SHIFT) & _FIELD
        last = action & _FIELD
        if kind == _CALL:
            keys_out[0] = keys.SPIT
            return 0 if self.called[player] or not self.spits(player) else 1
        if kind == _SLAP:
            keys_out[0] = self.key_of(player, last)
            return 1
        if action == self.game.own_call(player):
            keys_out[0] = keys.SPIT
            return 1
        if kind != _PLAY and kind != _MOVE:
            return -1  # a call the player cannot make now (Speed's, with cards left)
        held = self.hand[player]
        if held == first:
            keys_out[0] = last if kind == _MOVE else self.key_of(player, last)
            return 1
        count = 0
        if held >= 0:
            keys_out[0] = held
            count = 1
        keys_out[count] = first
        count += 1
        fit = self._only_fit(self.game.stock_top(player, first)) if self._quick else -1
        if kind == _MOVE:
            if fit >= 0:
                return -1
            keys_out[count] = last
            return count + 1
        if fit != last:
            keys_out[count] = self.key_of(player, last)
            count += 1
        return count

    def key_of(self, player, pile):
        """The pile button, ``L`` or ``R``, that means ``pile`` to ``player``."""
        return keys.LEFT if self.game.one_pile() or pile == player else keys.RIGHT

    def update(self, now):
        """Run the timers: the countdown, the automatic spit and the slap time limit.
        First, what the last action left to work out, and then, if it left everybody
        stuck, the spit's work ahead (``prepare_spit``, a step a pass). True when this
        pass did work that fills it (that, or an action of the timers): the rest waits
        for the next."""
        if self.stuck_check_at >= 0:
            self._note_stuck()
            return True
        if self._preparing:
            self._preparing = self.game.prepare_spit()
            if self._preparing:
                return True
        if self.contest.unsettled:
            self.contest.settle()
            self.changes += 1  # the banner is there to show
        game = self.game
        if self.counting:
            if ticks_diff(now, self._opening_at) < 0:
                return False
            self.counting = False
            self.called[0] = self.called[1] = False
            self._spit(self._opening_at)
        elif game.phase == _PHASE_PLAY:
            if not (self._stuck and game.options.spit == "auto"):
                return False
            if ticks_diff(now, self._since) < self.auto_spit_us:
                return False
            self._spit(now)
        elif game.phase == _PHASE_SLAP and ticks_diff(now, self._since) >= self.slap_limit_us:
            action = self.unslapped_action()
            self._apply(action, now)
            self._tell(SLAPPED, -1, action & _FIELD)
        else:
            return False
        return True

    def countdown_left(self, now):
        """While counting: the µs left before the round opens."""
        return ticks_diff(self._opening_at, now)

    def unslapped_action(self):
        """How the device settles a round nobody slapped: a player who cleared their
        stock is given the smaller pile; after a stall each takes their own spit pile,
        and the lone pile goes to the player with more stock left (on equal stock, to
        the player who spat onto it last)."""
        game = self.game
        if game.cleared >= 0:
            return slap(game.cleared, game.smaller_pile())
        if not game.one_pile():
            return slap(0, 0)
        left = [game.stock_count(0), game.stock_count(1)]
        if left[0] == left[1]:
            return slap(game.spit_turn, 0)
        return slap(0 if left[0] < left[1] else 1, 0)

    # -- the card buttons ---------------------------------------------------

    def _card(self, player, slot):
        if slot >= self.game.slots:
            return
        held = self.hand[player]
        if held == slot:
            self.hand[player] = -1
            self._tell(PUT_BACK, player, slot)
            return
        if held >= 0 and self._move_held(player, held, slot):
            return
        cards = self.game.stock[player][slot]
        if not cards:
            self._tell(REFUSED, player, NO_CARD)
            return
        if self._quick and self._quick_play(player, slot, cards[-1]):
            return
        self.hand[player] = slot
        self._tell(PICKED, player, slot)

    def _move_held(self, player, held, slot):
        """The card in hand goes into ``slot`` if it may (True), else back to its own."""
        self.hand[player] = -1
        if self.game.move_if_allowed(move(player, held, slot)):
            self._applied(_PHASE_PLAY)  # a move leaves play only for the slap
            self._tell(MOVED, player, slot)
            return True
        self._tell(PUT_BACK, player, held)
        return False

    def _quick_play(self, player, slot, card):
        """With ``quick=on``: a card that fits one pile (or lost its race for one) goes
        there at once (True)."""
        pile = self._only_fit(card)
        if pile == _FITS_NONE:
            pile = self._raced_pile(player, card, self._t)
        if pile < 0:
            return False
        self._quick_at[player] = self._t
        self._land(play(player, slot, pile))
        return True

    def _raced_pile(self, player, card, t):
        """The pile the other player's card took from ``card`` within the race window
        (it fitted the top that card covered), or -1: a quick play there is a lost race."""
        for pile in range(self.game.pile_count()):
            if (
                self._landed_by[pile] == 1 - player
                and adjacent(card, self._covered[pile])
                and ticks_diff(t, self._landed_at[pile]) <= self.race_window_us
            ):
                return pile
        return -1

    def _only_fit(self, card):
        """The one pile a card fits, or ``_FITS_NONE`` (-1) or ``_FITS_BOTH`` (-2)."""
        middle = self.game.middle
        rank = card % RANK_COUNT
        fit = _FITS_NONE
        pile = len(middle)
        while pile:  # no iterator: it would take the frame past 11 words
            pile -= 1
            if middle[pile] and FITS[middle[pile][-1]] >> rank & 1:
                fit = _FITS_BOTH if fit >= 0 else pile
        return fit

    # -- the pile buttons ---------------------------------------------------

    def _pile_press(self, player, key):
        quick_at = self._quick_at[player]
        self._quick_at[player] = -1
        pile = self.pile_of(player, key)
        if self.game.phase == _PHASE_PLAY:
            if self.hand[player] >= 0:
                self._land(play(player, self.hand[player], pile))
            elif not self._follows_quick_play(quick_at, self._t):
                self._tell(REFUSED, player, NO_CARD_IN_HAND)
        elif self.game.phase == _PHASE_SLAP:
            self._slap(player, pile)
        else:
            self._late_slap(player, pile)

    def _land(self, action):
        """A card put down (``action``, a play): played, or refused with a word."""
        pile = action & _FIELD
        cards = self.game.middle[pile]  # the pile the card goes onto, if it may
        reason = self.game.try_play(action)
        if reason is not None:
            self._not_landed(action, reason)
            return
        self._applied(_PHASE_PLAY)  # only a play in play is allowed
        player = (action >> _PLAYER_SHIFT) & 1
        self.hand[player] = -1
        self._landed_by[pile] = player
        self._landed_at[pile] = self._t
        self._covered[pile] = cards[-2]  # a card is only ever played onto a card
        self._tell(PLAYED, player, pile)

    def _not_landed(self, action, reason):
        """A play refused: a lost race when the other player's card took the top the
        card fitted, else the reason (nothing changed either way)."""
        player = (action >> _PLAYER_SHIFT) & 1
        if reason == NO_FIT and self._lost_race(action):
            self.hand[player] = -1
            self._tell(LOST_RACE, player, action & _FIELD)
        else:
            self._tell(REFUSED, player, reason)

    def _lost_race(self, action):
        """Whether the refused ``action`` (a play) lost its race: the other player's
        card landed on its pile within the race window, covering a top it fitted."""
        pile = action & _FIELD
        other = self._landed_by[pile]
        if other != 1 - ((action >> _PLAYER_SHIFT) & 1):
            return False
        # The refused player's card (no local for it: a 12th word puts the frame on the heap).
        card = self.game.stock_top(1 - other, (action >> _FIRST_SHIFT) & _FIELD)
        if not adjacent(card, self._covered[pile]):
            return False
        margin = ticks_diff(self._t, self._landed_at[pile])
        if margin > self.race_window_us:
            return False
        self.contest.note(other, margin, self._tie)
        return True

    def _slap(self, player, pile):
        try:
            self._apply(slap(player, pile), self._t)
        except IllegalActionError as refusal:
            self._tell(REFUSED, player, refusal.reason)
            return
        self._slapper = player
        self._slapped_at = self._t
        self.contest.clear()
        self._tell(SLAPPED, player, pile)

    def _late_slap(self, player, pile):
        """The loser's slap, after the winner's ended the round: its margin."""
        if self._slapper != 1 - player:
            return
        margin = ticks_diff(self._t, self._slapped_at)
        self._slapper = -1
        if margin <= self.slap_window_us:
            self.contest.note(1 - player, margin, self._tie)
            self._tell(SLAP_MARGIN, player, pile)

    # -- spit -----------------------------------------------------------------

    def _call_spit(self, player, t):
        if self.counting:
            return  # both are in: the round is about to open
        action = self.game.own_call(player)
        if action >= 0:  # Speed's call of the game, by a player out of cards
            self._apply(action, t)
            self._tell(CALLED, player, 0)
            return
        if not self.spits(player):
            return  # nothing of theirs to spit: the other player spits alone
        called = self.called
        called[player] = not called[player]
        if not called[player]:
            self._tell(WITHDRAWN, player, 0)
            return
        if not called[1 - player] and self.spits(1 - player):
            self._tell(CALLED, player, 0)
            return
        if self.game.phase == _PHASE_READY and self.countdown_us:
            self.counting = True
            self._opening_at = ticks_add(t, self.countdown_us)
            self._tell(CALLED, player, 0)
            return
        # The call that makes the spit is told as the spit alone: an event less in the
        # pass that commits it (each costs about 0.1 ms on the Pico); a call has no sound.
        called[0] = called[1] = False
        try:
            self._spit(t)
        except IllegalActionError as refusal:
            self._tell(REFUSED, player, refusal.reason)

    def spits(self, player):
        """Whether ``player``'s call counts for the next spit: not while everybody is
        stuck with their pack empty and the other's not (the other spits alone)."""
        game = self.game
        if game.phase != _PHASE_PLAY or game.spitter_count() == 2:
            return True
        return bool(game.pack[player]) or not game.pack[1 - player] or not game.is_stuck()

    def _spit(self, t):
        spitters = self.game.spitter_count()
        self._apply(_CALL_ACTION, t)
        self._tell(SPAT, -1, spitters)

    def _apply(self, action, t):
        """Apply an action made at ``t`` (raising, with nothing changed, if it is
        refused) and keep the timers and hands in step with the phase it leads to."""
        self._t = t
        phase = self.game.phase
        self.game.apply(action)
        self._applied(phase)

    def _applied(self, phase):
        """After an action made at ``_t`` in ``phase``: its time, and the timers and
        hands in step with the phase it led to."""
        t = self._t
        game = self.game
        self.times.append(t)
        if game.phase != phase:
            self._since = t
            self.phase_at = t
            if phase == _PHASE_READY:
                self.contest.clear()  # a new round: the last round's margin is old news
            if game.phase != _PHASE_PLAY:
                self.hand[0] = self.hand[1] = -1
                self.called[0] = self.called[1] = False
                self._landed_by[0] = self._landed_by[1] = -1
        self.stuck_check_at = t

    def _note_stuck(self):
        """Whether the last action left everybody stuck, and since when: when the timers
        run next, never in a pass that commits a press (the rules work it out once an
        action, about 0.2 ms on the Pico). Presses in passes in a row may have applied
        another action by then: its time counts, the later one, so the automatic spit
        never comes early."""
        stuck = self.game.is_stuck()
        if stuck and not self._stuck:
            self._since = self.stuck_check_at
        self._stuck = stuck
        self._preparing = stuck  # the spit's work ahead, in the timers' next passes
        self.stuck_check_at = -1
