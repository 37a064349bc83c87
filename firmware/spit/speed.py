"""The rules of Speed, Spit's cousin (SPEC 13): the state of one game, its legal actions,
and applying them.

Players are 0 (player 1) and 1 (player 2). Each holds a hand of five slots, numbered
from 0 at their left, and a face-down draw pile; beside the middle, each has a stack of
replacements. The middle holds two centre piles: pile 0 takes player 1's replacements,
pile 1 player 2's. Nobody takes turns: a hand card goes onto either centre pile when
its rank is one above or below the pile's top (round the ace; suits never read), and
the emptied slot is filled from the player's draw pile at once.

An action is a small int, as in ``spit.rules``:

    play(player, slot, pile)   a hand card onto a centre pile
    FLIP_ACTION                both turn a card onto the centre piles: the opening,
                               and whenever neither player can play
    out(player)                the player, with no card in hand or draw pile, calls
                               the game's name: they win

``check()`` says whether an action is allowed and why not; ``apply()`` checks, then
changes the game; a refused action raises and changes nothing. In a transcript
(``spit.transcript``) the actions are words: ``F`` a flip, ``1c3a`` player 1 plays the
card in C3 onto pile a (``b`` the other), ``2*`` player 2 calls.

>>> game = Game(7)
>>> game.phase == PHASE_READY and game.card_count()
52
>>> game.apply(FLIP_ACTION); game.phase == PHASE_PLAY
True
"""

from micropython import const

from spit.cards import DECK_SIZE, FITS, rank, take_last, with_room
from spit.rng import Rng
from spit.rules import (
    NO_CARD,
    NO_FIT,
    NO_PILE,
    NOT_NOW,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_READY,
    IllegalActionError,
    InvalidActionError,
    Outcome,
)

PLAY = const(0)
FLIP = const(2)
OUT = const(4)
FLIP_ACTION = const(FLIP << 9)

HAND = const(5)  # a hand's slots
DRAW = const(15)  # the cards each draw pile is dealt
SPARES = const(5)  # the replacements each stack is dealt
EMPTY = const(-1)  # a hand slot with no card

# Why an action is refused, as the player is told (besides ``spit.rules``' reasons).
NOT_STUCK = "you can still play"
CARDS_LEFT = "cards left"

# Why a game ended.
CALLED = "out of cards"
FEWER_CARDS = "fewer cards"

_ENDS = {why: (Outcome(0, why), Outcome(1, why)) for why in (CALLED, FEWER_CARDS)}
_PILES = "ab"


def play(player, slot, pile):
    return PLAY << 9 | player << 8 | slot << 4 | pile


def out(player):
    return OUT << 9 | player << 8


def kind_of(action):
    return action >> 9


def action_word(action):
    """The transcript's word for ``action``."""
    kind = action >> 9
    player = ((action >> 8) & 1) + 1
    if kind == PLAY:
        return "%dc%d%s" % (player, ((action >> 4) & 15) + 1, _PILES[action & 1])
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


class Game:
    """One game of Speed, from the deal to a player's call (``NAME``: its transcripts').

    ``seed`` fixes the deal (five to each hand, fifteen to each draw pile, five to each
    replacement stack, two to the middle) and every later shuffle of the centre piles.
    """

    NAME = "speed"

    def __init__(self, seed):
        self.seed = seed
        self.options = None  # Speed has none
        self.rng = Rng(seed)
        cards = list(range(DECK_SIZE))
        self.rng.shuffle(cards)
        self.hand = [[EMPTY] * HAND, [EMPTY] * HAND]
        self.draw = [with_room(DECK_SIZE), with_room(DECK_SIZE)]
        self.spares = [with_room(DECK_SIZE), with_room(DECK_SIZE)]
        self.piles = [with_room(DECK_SIZE), with_room(DECK_SIZE)]
        self._middle = [cards[-2], cards[-1]]  # face down until the opening flip
        at = 0
        for player in (0, 1):
            for slot in range(HAND):
                self.hand[player][slot] = cards[at + slot]
            at += HAND
        for stack in (self.draw[0], self.draw[1]):
            stack.extend(cards[at : at + DRAW])
            at += DRAW
        for stack in (self.spares[0], self.spares[1]):
            stack.extend(cards[at : at + SPARES])
            at += SPARES
        self.phase = PHASE_READY
        self.plays = 0
        self.flips = 0
        self.reshuffles = 0
        self.last_player = -1  # who played the last card (a stall's tie goes to them)
        self.history = []
        self._outcome = None

    # -- reading the table --------------------------------------------------

    def top(self, pile):
        """The top card of a centre pile, or None before the opening flip."""
        cards = self.piles[pile]
        return cards[-1] if cards else None

    def held(self, player):
        """The cards a player still holds: hand and draw pile."""
        count = len(self.draw[player])
        for card in self.hand[player]:
            count += card != EMPTY
        return count

    def card_count(self):
        """Every card on the table: 52 at all times."""
        count = len(self._middle)
        for player in (0, 1):
            count += self.held(player) + len(self.spares[player])
            count += len(self.piles[player])
        return count

    def fits(self, card, pile):
        top = self.top(pile)
        return top is not None and FITS[top] >> rank(card) & 1 == 1

    def can_play(self, player):
        """True when a card in ``player``'s hand fits a centre pile."""
        if self.phase != PHASE_PLAY:
            return False
        for card in self.hand[player]:
            if card != EMPTY and (self.fits(card, 0) or self.fits(card, 1)):
                return True
        return False

    def is_out(self, player):
        return self.held(player) == 0

    def is_stuck(self):
        """In play, neither player can play and nobody is out: both flip a replacement."""
        if self.phase != PHASE_PLAY or self.is_out(0) or self.is_out(1):
            return False
        return not self.can_play(0) and not self.can_play(1)

    def outcome(self):
        """None while the game goes on, then an ``Outcome``."""
        return self._outcome

    # -- legality -----------------------------------------------------------

    def check(self, action):
        """Raise ``InvalidActionError`` or ``IllegalActionError`` unless the action is
        allowed now. Changes nothing."""
        kind = action >> 9
        player = (action >> 8) & 1
        if kind == PLAY:
            slot = (action >> 4) & 15
            pile = action & 15
            if slot >= HAND:
                raise InvalidActionError("no hand slot %d" % slot)
            if pile > 1:
                raise IllegalActionError(NO_PILE)
            self._require(self.phase == PHASE_PLAY, NOT_NOW)
            card = self.hand[player][slot]
            self._require(card != EMPTY, NO_CARD)
            self._require(self.fits(card, pile), NO_FIT)
        elif kind == FLIP:
            self._require(action == FLIP_ACTION, NOT_NOW)
            if self.phase != PHASE_READY:
                self._require(self.phase == PHASE_PLAY, NOT_NOW)
                self._require(self.is_stuck(), NOT_STUCK)
        elif kind == OUT:
            self._require(self.phase == PHASE_PLAY, NOT_NOW)
            self._require(self.is_out(player), CARDS_LEFT)
        else:
            raise InvalidActionError("no such action: %d" % action)

    def is_legal(self, action):
        try:
            self.check(action)
        except ValueError:
            return False
        return True

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
        kind = action >> 9
        player = (action >> 8) & 1
        if kind == PLAY:
            self._play(player, (action >> 4) & 15, action & 15)
        elif kind == FLIP:
            self._flip()
        else:
            self._outcome = _ENDS[CALLED][player]
            self.phase = PHASE_OVER
        self.history.append(action)

    def _play(self, player, slot, pile):
        hand = self.hand[player]
        self.piles[pile].append(hand[slot])
        draw = self.draw[player]
        hand[slot] = take_last(draw) if draw else EMPTY
        self.plays += 1
        self.last_player = player

    def _flip(self):
        if self.phase == PHASE_READY:
            self.piles[0].append(self._middle[0])
            self.piles[1].append(self._middle[1])
            del self._middle[:]
            self.phase = PHASE_PLAY
            return
        spent = not self.spares[0] or not self.spares[1]
        if spent and not self._gather():
            self._stall()
            return
        self.piles[0].append(take_last(self.spares[0]))
        self.piles[1].append(take_last(self.spares[1]))
        self.flips += 1

    def _gather(self):
        """The replacements spent: the centre piles under their tops, and any
        replacement left, shuffled into two new stacks; False if fewer than two."""
        cards = []
        for pile in self.piles:
            cards.extend(pile[:-1])
            del pile[:-1]
        for stack in self.spares:
            cards.extend(stack)
            del stack[:]
        if len(cards) < 2:
            for card in cards:  # back under the top: nothing is lost
                self.piles[0].insert(0, card)
            return False
        self.rng.shuffle(cards)
        half = (len(cards) + 1) // 2
        self.spares[0].extend(cards[:half])
        self.spares[1].extend(cards[half:])
        self.reshuffles += 1
        return True

    def _stall(self):
        """Nobody can play and no replacement is left: the player holding fewer cards
        wins; with as many, the one who played the last card."""
        held = (self.held(0), self.held(1))
        winner = 0 if held[0] < held[1] else 1 if held[1] < held[0] else self.last_player
        self._outcome = _ENDS[FEWER_CARDS][max(winner, 0)]
        self.phase = PHASE_OVER

    def _require(self, condition, reason):
        if not condition:
            raise IllegalActionError(reason)
