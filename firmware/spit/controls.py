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
from spit.cards import FITS, RANK_COUNT
from spit.contest import BANNER_MAX, Contest  # noqa: F401 (BANNER_MAX: the controller's, from here)
from spit.games import NO_CARD, NO_FIT, IllegalActionError, move, play, slap
from spit.presses import Presses
from spit.round_clocks import RoundClocks
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
_FIELD = const(15)
_CALL = const(2)
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

# A pile press this soon after a quick play by the same player is the rest of the
# taught "Cn then L" and is absorbed without a word.
QUICK_FOLLOW_US = const(1_000_000)
_FITS_NONE = const(-1)  # what ``_only_fit`` finds besides a pile
_FITS_BOTH = const(-2)


def _is_pile_key(button):
    key = keys.key_of(button)
    return key == keys.LEFT or key == keys.RIGHT


class Controls:
    """Constructor: ``Controls(game, listener=None)``. Attributes: ``hand`` (each
    player's slot in hand, -1: none), ``called`` (each player's call), ``counting``
    (the device counts down before the round opens: ``countdown_us``, 0: not at all),
    ``changes`` (how many changes the play screen shows: it has nothing new to follow
    while this stays the same), and the parts it owns: ``contest`` (races and slaps
    judged, ``spit.contest``), ``clocks`` (``spit.round_clocks``: ``update`` runs them,
    ``times`` is theirs) and ``presses`` (actions back into keys, ``spit.presses``:
    ``keys_for``, ``presses_for``)."""

    def __init__(self, game, listener=None):
        self.game = game
        self.listener = listener  # None: nobody listens
        self._quick = game.options.quick == "on"
        self.hand = [-1, -1]
        self.called = [False, False]
        # When each player's last quick play was tried, while their next press may be
        # its pile press (-1 once any other press came).
        self._quick_at = [-1, -1]
        self.countdown_us = 0
        self.counting = False
        # What the listener makes of the last action (its reaction clocks: ``spit.listener``),
        # left for a pass with time: done before the next press is handled, or in the
        # clocks' next pass, whichever comes first. None: nothing is left.
        self.follow_up = None
        # Counts the changes told (each event, and a banner written): the play screen
        # follows the game only when it moved.
        self.changes = 0
        self._t = 0  # the time and tie flag of the press (or clock) being handled
        self._tie = False
        self.contest = contest = Contest(game)
        # The contest's record of the cards that land, written on every play and cleared
        # out of play: here under names of our own, a hop less.
        self._landed_by = contest.landed_by
        self._landed_at = contest.landed_at
        self._covered = contest.covered
        self.clocks = clocks = RoundClocks(self)
        self.presses = presses = Presses(self)
        # The parts' methods and the press times under the names the table, the
        # controller and the device read, bound once: no call of ours in between.
        self.times = clocks.times
        self.update = clocks.update
        self.countdown_left = clocks.countdown_left
        self.room_for_a_round = clocks.room_for_a_round
        self.keys_for = presses.keys_for
        self.presses_for = presses.presses_for

    def press(self, button, t, tie=False):
        """Handle one committed press of ``button`` touched at ``t`` (ticks_us); ``tie``
        is the arbiter's flag: this press won or lost its place by the tie rule."""
        # The press's time and tie flag stay on ``self`` for the functions it runs
        # through: on MicroPython a function with more than 11 words of locals and
        # stack gets its frame from the heap at every call (``host_sim.bench.heap_frames``). A
        # press is a few calls deep at most: each call costs 15-25 µs on the Pico
        # (``docs/performance.md``).
        if self.follow_up is not None:
            self.catch_up()  # on the table the last action left, before this one changes it
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

    def catch_up(self):
        """Do what the listener left of the last action (``follow_up``), now."""
        work = self.follow_up
        self.follow_up = None
        work()

    def changed(self):
        """Something the play screen shows changed outside the controls (a round dealt):
        the screen follows it."""
        self.changes += 1

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
        return self.only_fit(card) if card >= 0 else -1

    def _follows_quick_play(self, quick_at, t):
        return quick_at >= 0 and ticks_diff(t, quick_at) <= QUICK_FOLLOW_US

    def pile_of(self, player, key):
        """The spit pile that ``L`` or ``R`` of ``player`` stands for."""
        if self.game.one_pile():
            return 0
        return player if key == keys.LEFT else 1 - player

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
        pile = self.only_fit(card)
        if pile == _FITS_NONE:
            pile = self.contest.raced_pile(player, card, self._t)
        if pile < 0:
            return False
        self._quick_at[player] = self._t
        self._land(play(player, slot, pile))
        return True

    def only_fit(self, card):
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
        elif self.contest.late_slap(player, self._t, self._tie):
            self._tell(SLAP_MARGIN, player, pile)  # the loser's slap, after the winner's

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
        margin = self.contest.race_margin(action, self._t) if reason == NO_FIT else None
        if margin is None:
            self._tell(REFUSED, player, reason)
            return
        self.contest.note(1 - player, margin, self._tie)
        self.hand[player] = -1
        self._tell(LOST_RACE, player, action & _FIELD)

    def _slap(self, player, pile):
        try:
            self._apply(slap(player, pile), self._t)
        except IllegalActionError as refusal:
            self._tell(REFUSED, player, refusal.reason)
            return
        self.contest.slapped(player, self._t)
        self._tell(SLAPPED, player, pile)

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
            self.clocks.opening_at = ticks_add(t, self.countdown_us)
            self._tell(CALLED, player, 0)
            return
        # The call that makes the spit is told as the spit alone: an event less in the
        # pass that commits it (each costs about 0.1 ms on the Pico); a call has no sound.
        called[0] = called[1] = False
        try:
            self.spit(t)
        except IllegalActionError as refusal:
            self._tell(REFUSED, player, refusal.reason)

    def spits(self, player):
        """Whether ``player``'s call counts for the next spit: not while everybody is
        stuck with their pack empty and the other's not (the other spits alone)."""
        game = self.game
        if game.phase != _PHASE_PLAY or game.spitter_count() == 2:
            return True
        return bool(game.pack[player]) or not game.pack[1 - player] or not game.is_stuck()

    # -- what the clocks do at their time ------------------------------------------

    def spit(self, t):
        """The spit, made at ``t``: both called, or the automatic spit."""
        spitters = self.game.spitter_count()
        self._apply(_CALL_ACTION, t)
        self._tell(SPAT, -1, spitters)

    def open_round(self, t):
        """The countdown is over: the opening spit, at ``t`` (``spit``'s body: a call less
        in the pass that opens the round)."""
        self.counting = False
        self.called[0] = self.called[1] = False
        spitters = self.game.spitter_count()
        self._apply(_CALL_ACTION, t)
        self._tell(SPAT, -1, spitters)

    def settle_piles(self, action, t):
        """Nobody slapped in time: the device's ``action`` (a slap), at ``t``."""
        self._apply(action, t)
        self._tell(SLAPPED, -1, action & _FIELD)

    def _apply(self, action, t):
        """Apply an action made at ``t`` (raising, with nothing changed, if it is
        refused) and keep the timers and hands in step with the phase it leads to."""
        self._t = t
        phase = self.game.phase
        self.game.apply(action)
        self._applied(phase)

    def _applied(self, phase):
        """After an action made at ``_t`` in ``phase``: its time, and the clocks and
        hands in step with the phase it led to."""
        t = self._t
        game = self.game
        self.times.append(t)
        if game.phase != phase:
            self.clocks.since = t
            if phase == _PHASE_READY:
                self.contest.clear()  # a new round: the last round's margin is old news
            if game.phase != _PHASE_PLAY:
                self.hand[0] = self.hand[1] = -1
                self.called[0] = self.called[1] = False
                self._landed_by[0] = self._landed_by[1] = -1  # no race left to lose
        self.clocks.stuck_check_at = t  # whether it left everybody stuck: the clocks' next pass
