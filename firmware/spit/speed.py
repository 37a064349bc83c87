"""The rules of Speed, Spit's cousin (SPEC 13): the state of one game, its legal actions,
and applying them.

Players are 0 (player 1) and 1 (player 2). Each holds a hand of five slots, numbered
from 0 at their left, and a face-down draw pile; beside the middle, each has a stack of
replacements. The middle holds two centre piles: pile 0 takes player 1's replacements,
pile 1 player 2's. Nobody takes turns: a hand card goes onto either centre pile when
its rank is one above or below the pile's top (round the ace; suits never read), and
the emptied slot is filled from the player's draw pile at once.

The device reads the table through ``spit.games.Rules``' names: a hand slot is a ``stock``
slot of at most one card, the draw pile is the player's ``pack`` and the centre piles are
the ``middle``. A game is one round: ``round`` turns 1 when it ends.

Its actions, small ints laid out as ``spit.games`` says:

    play(player, slot, pile)   a hand card onto a centre pile
    FLIP_ACTION                both turn a card onto the centre piles: the opening,
                               and whenever neither player can play
    out(player)                the player, with no card in hand or draw pile, calls
                               the game's name: they win

``check()`` says whether an action is allowed and why not; ``apply()`` checks, then
changes the game; a refused action raises and changes nothing. In a transcript
(``spit.transcript``) the actions are words: ``F`` a flip, ``1c3a`` player 1 plays the
card in C3 onto pile a (``b`` the other), ``2*`` player 2 calls.

>>> from spit.games import PHASE_PLAY, PHASE_READY
>>> game = Game(7)
>>> game.phase == PHASE_READY and game.card_count()
52
>>> game.apply(FLIP_ACTION); game.phase == PHASE_PLAY
True
"""

from micropython import const

from spit.cards import ALL, DECK_SIZE, FITS, SLICE, take_last, with_room
from spit.games import (
    NO_CARD,
    NO_FIT,
    NO_PILE,
    NOT_NOW,
    IllegalActionError,
    InvalidActionError,
    Rules,
    call_word,
    endings,
    play,
    player_of,
)
from spit.options import Options
from spit.rng import Rng

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len, max = len, max

# ``spit.games``' values, read on every press: a const is folded only in the module that
# defines it (another module's is a global lookup, about a microsecond on the Pico), so
# this one keeps copies; ``tests/test_games.py`` holds each to its value there.
_PHASE_READY = const(0)
_PHASE_PLAY = const(1)
_PHASE_OVER = const(3)
_KIND_SHIFT = const(9)
_PLAYER_SHIFT = const(8)
_FIRST_SHIFT = const(4)
_FIELD = const(15)
_PLAY = const(0)
_CALL = const(2)
_CALL_ACTION = const(_CALL << _KIND_SHIFT)

OUT = const(4)  # Speed's own kind: a player out of cards calls the game
FLIP_ACTION = _CALL_ACTION  # Speed's call: both turn a replacement onto the centre piles

HAND = const(5)  # a hand's slots
_RANKS = const(13)  # RANK_COUNT, inlined by the compiler
DRAW = const(15)  # the cards each draw pile is dealt
SPARES = const(5)  # the replacements each stack is dealt
GAME_ACTIONS = const(128)  # room in a game's history: twice the longest of 4,000 self-play games
# What the registry (``spit.games``) reads of a game.
KEPT_OPTIONS = ("match", "quick", "counts")  # the settings Speed keeps (``Game``)
TRANSCRIPT_OPTIONS = False  # none of them changes the rules
ACTION_WORDS = "F (flip), 1c3a (play) or 1* (the call)"
COUNTED = ("flips", "reshuffles")
ONE_ROUND = True

# Why an action is refused, as the player is told (besides ``spit.games``'s reasons).
NOT_STUCK = "you can still play"
CARDS_LEFT = "cards left"

# Why a game ended.
CALLED = "out of cards"
FEWER_CARDS = "fewer cards"

_ENDS = endings(CALLED, FEWER_CARDS)
_PILES = "ab"
# ``lst[k:]`` for each length a replacement stack is cut to, made once (a slice is an
# object: written in play, it would be allocated).
_FROM = tuple(SLICE[k:] for k in range(DECK_SIZE // 2 + 1))
_UNDER = SLICE[:-1]  # a pile's cards under its top
_READY = const(3)  # the gather's steps: the cards copied, shuffled, split


def out(player):
    return OUT << _KIND_SHIFT | player << _PLAYER_SHIFT


def cpu_player():
    """Speed's CPU player, a class."""
    from spit.speed_cpu import SpeedCpu

    return SpeedCpu


def action_word(action):
    """The transcript's word for ``action``."""
    kind = action >> _KIND_SHIFT
    player = player_of(action) + 1
    if kind == _PLAY:
        return "%dc%d%s" % (player, ((action >> _FIRST_SHIFT) & _FIELD) + 1, _PILES[action & 1])
    if kind == OUT:
        return "%d*" % player
    return "F"


def parse_action_word(word):
    """The action a transcript's word names; ValueError if none."""
    if word == "F":
        return FLIP_ACTION
    if len(word) >= 2 and word[0] in "12":
        player = int(word[0]) - 1
        if word[1:] == "*":
            return out(player)
        if len(word) == 4 and word[1] == "c" and word[2] in "12345" and word[3] in _PILES:
            return play(player, int(word[2]) - 1, _PILES.index(word[3]))
    raise ValueError("not a Speed action: %r" % word)


class Game(Rules):
    """One game of Speed, from the deal to a player's call (``NAME``: its transcripts').

    ``seed`` fixes the deal (five to each hand, fifteen to each draw pile, five to each
    replacement stack, two to the middle) and every later shuffle of the centre piles.
    ``options`` (``spit.options.Options``) are the device's settings, of which Speed
    keeps those that are not Spit's rules: the match, quick play and the pile counts.
    """

    NAME = "speed"
    # What the screens and the controls ask every pass, found on this class itself: a
    # method found on ``Rules`` costs a lookup more, some 4 µs a call on the Pico.
    top = Rules.top
    stock_top = Rules.stock_top
    stock_count = Rules.stock_count
    held = Rules.held
    outcome = Rules.outcome
    is_legal = Rules.is_legal
    pile_count = Rules.pile_count
    one_pile = Rules.one_pile
    spitter_count = Rules.spitter_count
    move_if_allowed = Rules.move_if_allowed
    may_slap = Rules.may_slap
    dig_move = Rules.dig_move

    def __init__(self, seed, options=None):
        self.seed = seed
        self.options = Options()
        for name in KEPT_OPTIONS:
            self.options.set(name, (options or self.options).get(name))
        self.word = call_word(self.NAME, options)  # what the players call for SPIT
        self.rng = Rng(seed)
        cards = list(range(DECK_SIZE))
        self.rng.shuffle(cards)
        self.slots = HAND
        self.stock = [[with_room(1) for _ in range(HAND)] for _ in range(2)]
        self.face_up = [[1] * HAND, [1] * HAND]  # a hand's card is face up
        self.pack = [with_room(DECK_SIZE), with_room(DECK_SIZE)]  # the draw piles
        self.spares = [with_room(DECK_SIZE), with_room(DECK_SIZE)]
        self.middle = [with_room(DECK_SIZE), with_room(DECK_SIZE)]
        self._middle = [cards[-2], cards[-1]]  # face down until the opening flip
        at = 0
        for player in (0, 1):
            for slot in range(HAND):
                self.stock[player][slot].append(cards[at + slot])
            at += HAND
        for stack in (self.pack[0], self.pack[1]):
            stack.extend(cards[at : at + DRAW])
            at += DRAW
        for stack in (self.spares[0], self.spares[1]):
            stack.extend(cards[at : at + SPARES])
            at += SPARES
        self.phase = _PHASE_READY
        self.round = 0
        self.plays = 0
        self.flips = 0
        self.reshuffles = 0
        self.last_player = -1  # who played the last card (a stall's tie goes to them)
        self.history = with_room(GAME_ACTIONS)
        # Who can play and who is out, as bits, at the history's length ``_known_at``.
        self._playable = 0
        self._out = 0
        self._known_at = -1
        # The stacks a flip with the replacements spent gathers, made ahead while nobody
        # can play (``prepare_spit``): at the history's length ``_ready_at``, the steps
        # made, how many cards, and the generator that shuffled them.
        self._gathered = with_room(DECK_SIZE)
        self._ready = [with_room(DECK_SIZE), with_room(DECK_SIZE)]
        self._ready_rng = Rng(seed)
        self._ready_count = 0
        self._ready_at = -1
        self._ready_step = _READY
        self._outcome = None

    # -- reading the table --------------------------------------------------

    def card_count(self):
        """Every card on the table: 52 at all times."""
        count = len(self._middle)
        for player in (0, 1):
            count += self.held(player) + len(self.spares[player])
            count += len(self.middle[player])
        return count

    def can_play(self, player):
        """True when a card in ``player``'s hand fits a centre pile."""
        if len(self.history) != self._known_at:
            self._know()
        return self._playable >> player & 1 == 1

    def is_out(self, player):
        """True when ``player`` holds no card, in hand or draw pile."""
        if len(self.history) != self._known_at:
            self._know()
        return self._out >> player & 1 == 1

    def is_stuck(self):
        """In play, neither player can play and nobody is out: both flip a replacement."""
        if len(self.history) != self._known_at:
            self._know()
        return self.phase == _PHASE_PLAY and not self._playable and not self._out

    def _know(self):
        """Who can play and who is out (a bit each), worked out once an action: the
        controls, the screen and the CPU seats ask after every action, and on the device
        each question asked afresh costs a pass hundreds of microseconds."""
        self._known_at = len(self.history)
        either = 0
        if self.phase == _PHASE_PLAY:
            either = FITS[self.middle[0][-1]] | FITS[self.middle[1][-1]]
        first = self._hand_bits(0, either)
        second = self._hand_bits(1, either)
        self._playable = (first & 1) | (second & 1) << 1
        self._out = first >> 1 | second & 2

    def _hand_bits(self, player, either):
        """1 when a card in ``player``'s hand has a rank of the bits ``either``; else 2
        when they hold no card, else 0. (A frame of its own: on MicroPython a function of
        more than 11 words of locals takes its frame from the heap.)"""
        hand = self.stock[player]
        empty = 0 if self.pack[player] else 2  # out, unless a card is in hand
        slot = HAND
        while slot:  # no iterator: it would take the frame past 11 words
            slot -= 1
            cards = hand[slot]
            if cards:
                if either >> cards[0] % _RANKS & 1:
                    return 1
                empty = 0
        return empty

    def own_call(self, player):
        """The action ``player``'s SPIT makes alone: the call of the game's name once
        their hand and draw pile are empty; else -1 (a call for the flip, which waits
        for the other player's)."""
        if self.phase != _PHASE_PLAY:
            return -1
        if len(self.history) != self._known_at:  # ``is_out`` read here: a call less a SPIT
            self._know()
        return out(player) if self._out >> player & 1 else -1

    # -- legality -----------------------------------------------------------

    def check(self, action):
        """Raise ``InvalidActionError`` or ``IllegalActionError`` unless the action is
        allowed now. Changes nothing."""
        kind = action >> _KIND_SHIFT
        player = (action >> _PLAYER_SHIFT) & 1
        if kind == _PLAY:
            reason = self.play_refusal(action)
            if reason is not None:
                raise IllegalActionError(reason)
        elif kind == _CALL:
            # Checked in the pass that commits the flip: no calls but ``_know``, once an
            # action (each call costs 20-40 µs on the Pico).
            if action != FLIP_ACTION or self.phase != _PHASE_READY and self.phase != _PHASE_PLAY:
                raise IllegalActionError(NOT_NOW)
            if self.phase == _PHASE_PLAY:
                if len(self.history) != self._known_at:
                    self._know()
                if self._playable or self._out:  # not ``is_stuck()``
                    raise IllegalActionError(NOT_STUCK)
        elif kind == OUT:
            self._require(self.phase == _PHASE_PLAY, NOT_NOW)
            self._require(self.is_out(player), CARDS_LEFT)
        else:
            raise InvalidActionError("no such action: %d" % action)

    def play_refusal(self, action):
        """Why a play is refused now, or None if it is allowed; ``InvalidActionError``
        for a slot that does not exist."""
        slot = (action >> _FIRST_SHIFT) & _FIELD
        pile = action & _FIELD
        if slot >= HAND:
            raise InvalidActionError("no hand slot %d" % slot)
        if pile > 1:
            return NO_PILE
        if self.phase != _PHASE_PLAY:
            return NOT_NOW
        cards = self.stock[(action >> _PLAYER_SHIFT) & 1][slot]
        if not cards:
            return NO_CARD
        # In play both piles have a top. A lookup, not ``fits``: a call costs tens of µs.
        return None if FITS[self.middle[pile][-1]] >> cards[0] % _RANKS & 1 else NO_FIT

    def legal_actions(self):
        """Every action allowed now."""
        actions = [FLIP_ACTION] if self.is_legal(FLIP_ACTION) else []
        for player in (0, 1):
            if self.is_legal(out(player)):
                actions.append(out(player))
            for slot in range(HAND):
                for pile in (0, 1):
                    if self.is_legal(play(player, slot, pile)):
                        actions.append(play(player, slot, pile))
        return actions

    # -- changing the game ----------------------------------------------------

    def apply(self, action):
        """Check ``action``, then make it; raises and changes nothing if refused."""
        self.check(action)
        kind = action >> _KIND_SHIFT
        player = (action >> _PLAYER_SHIFT) & 1
        if kind == _PLAY:
            self._play(player, (action >> _FIRST_SHIFT) & _FIELD, action & _FIELD)
        elif kind == _CALL:
            self._flip()
        else:
            self._end(_ENDS[CALLED][player])
        self.history.append(action)

    def try_play(self, action):
        """Make a play if it is allowed now and return None, else return why not with
        nothing changed: made on every press, with no exception to raise."""
        reason = self.play_refusal(action)
        if reason is None:
            player = (action >> _PLAYER_SHIFT) & 1
            self._play(player, (action >> _FIRST_SHIFT) & _FIELD, action & _FIELD)
            self.history.append(action)
        return reason

    def _play(self, player, slot, pile):
        """The card in ``slot`` onto ``pile``; the slot refilled from the draw pile."""
        cards = self.stock[player][slot]
        self.middle[pile].append(cards[0])
        del cards[ALL]
        draw = self.pack[player]
        if draw:
            cards.append(take_last(draw))
        self.plays += 1
        self.last_player = player

    def _flip(self):
        if self.phase == _PHASE_READY:
            self.middle[0].append(self._middle[0])
            self.middle[1].append(self._middle[1])
            del self._middle[ALL]
            self.phase = _PHASE_PLAY
            return
        if not self.spares[0] or not self.spares[1]:
            if self._ready_at != len(self.history):
                self._ready_at = len(self.history)
                self._ready_step = 0
            while self._ready_step < _READY:
                self._gather_step()
            if self._ready_count < 2:
                self._stall()
                return
            self._take_ready()
        self.middle[0].append(take_last(self.spares[0]))
        self.middle[1].append(take_last(self.spares[1]))
        self.flips += 1

    def prepare_spit(self):
        """While nobody can play and the replacements are spent: the next step of making
        the stacks the flip will gather, kept until it takes them, so that the pass that
        commits the flip need not shuffle (the gather takes about 0.9 ms on the Pico: a
        step a call, and a pass each on the device). Nothing on the table changes; True
        while there was a step to make."""
        if self._ready_at != len(self.history):
            if not self.is_stuck() or (self.spares[0] and self.spares[1]):
                return False
            self._ready_at = len(self.history)
            self._ready_step = 0
        elif self._ready_step == _READY:
            return False
        self._gather_step()
        return True

    def _gather_step(self):
        """A step of the gather, into ``_ready`` with the table untouched: the cards under
        the centre piles' tops and any replacement left; shuffled (by ``_ready_rng``,
        which follows the game's generator); split into two stacks. In lists made with
        the game: nothing is allocated."""
        step = self._ready_step
        self._ready_step = step + 1
        cards = self._gathered
        if step == 0:
            del cards[ALL]
            _copy_under(self.middle[0], cards)
            _copy_under(self.middle[1], cards)
            cards.extend(self.spares[0])
            cards.extend(self.spares[1])
            self._ready_count = len(cards)
            self._ready_rng.follow(self.rng)
        elif self._ready_count < 2:
            return  # a stall: nothing to shuffle
        elif step == 1:
            self._ready_rng.shuffle(cards)
        else:
            _split(cards, (self._ready_count + 1) // 2, self._ready)

    def _take_ready(self):
        """The gathered stacks become the replacements, the centre piles keep their tops,
        and the game's generator goes on from the shuffle."""
        del self.middle[0][_UNDER]
        del self.middle[1][_UNDER]
        self.spares, self._ready = self._ready, self.spares
        self.rng, self._ready_rng = self._ready_rng, self.rng
        self.reshuffles += 1

    def _stall(self):
        """Nobody can play and no replacement is left: the player holding fewer cards
        wins; with as many, the one who played the last card."""
        first = self.held(0)
        second = self.held(1)
        winner = 0 if first < second else 1 if second < first else self.last_player
        self._end(_ENDS[FEWER_CARDS][max(winner, 0)])

    def _end(self, outcome):
        self._outcome = outcome
        self.phase = _PHASE_OVER
        self.round = 1


def _copy_under(pile, cards):
    """The cards under ``pile``'s top onto the end of ``cards``; ``pile`` unchanged."""
    cards.extend(pile)
    take_last(cards)


def _split(cards, half, stacks):
    """``cards`` dealt into two ``stacks``, emptied first: the first ``half`` to the
    first, the rest to the second (the last first); ``cards`` emptied, their room kept.
    In C, a call each: a card at a time, the split took 0.7 ms on the Pico."""
    first = stacks[0]
    second = stacks[1]
    del first[ALL]
    del second[ALL]
    first.extend(cards)
    del first[_FROM[half]]
    cards.reverse()
    second.extend(cards)
    del second[_FROM[len(cards) - half]]
    del cards[ALL]
