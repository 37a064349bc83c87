"""Fives: a game written for the tests alone, to show that a game comes into the device
through the registry (``spit.games``) and nothing else (``docs/architecture.md``, "Adding
a game").

Each player holds five cards face up, a card a slot; the middle is one pile, face down
until the opening. A card goes onto the pile when its rank is one above or below the top
(round the ace). When nobody can play, both press SPIT and the next card of the stack
turns onto the pile. The first to play out their five wins; with the stack spent and
nobody able to play, the one holding fewer cards wins (player 1 when they hold as many).

In a transcript: ``T`` a turn of the stack, ``1c3a`` player 1 plays the card in C3.
"""

from spit.cards import DECK_SIZE, FITS, RANK_COUNT, take_last, with_room
from spit.games import (
    CALL,
    CALL_ACTION,
    FIELD,
    FIRST_SHIFT,
    KIND_SHIFT,
    NO_CARD,
    NO_FIT,
    NO_PILE,
    NOT_NOW,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_READY,
    PLAY,
    PLAYER_SHIFT,
    IllegalActionError,
    InvalidActionError,
    Rules,
    call_word,
    endings,
    play,
)
from spit.options import Options
from spit.rng import Rng

HAND = 5
KEPT_OPTIONS = ("match", "quick", "counts")
TRANSCRIPT_OPTIONS = False
ACTION_WORDS = "T (turn), 1c3a (play)"
COUNTED = ("turns",)
ONE_ROUND = True

PLAYED_OUT = "played out"
FEWER = "fewer cards"
_ENDS = endings(PLAYED_OUT, FEWER)


def cpu_player():
    from helpers.fives_cpu import FivesCpu

    return FivesCpu


def action_word(action):
    if action == CALL_ACTION:
        return "T"
    player = (action >> PLAYER_SHIFT) & 1
    return "%dc%da" % (player + 1, ((action >> FIRST_SHIFT) & FIELD) + 1)


def parse_action_word(word):
    if word == "T":
        return CALL_ACTION
    if len(word) == 4 and word[0] in "12" and word[1:4:2] == "ca" and word[2] in "12345":
        return play(int(word[0]) - 1, int(word[2]) - 1, 0)
    raise ValueError("not a Fives action: %r" % word)


class Game(Rules):
    NAME = "fives"

    def __init__(self, seed, options=None):
        self.seed = seed
        self.options = Options()
        for name in KEPT_OPTIONS:
            self.options.set(name, (options or self.options).get(name))
        self.word = call_word(self.NAME, self.options)
        self.rng = Rng(seed)
        deck = list(range(DECK_SIZE))
        self.rng.shuffle(deck)
        self.slots = HAND
        self.stock = [[with_room(1) for _ in range(HAND)] for _ in range(2)]
        self.face_up = [[1] * HAND, [1] * HAND]
        for player in (0, 1):
            for slot in range(HAND):
                self.stock[player][slot].append(deck[player * HAND + slot])
        self.pack = [[], []]
        self.stack = deck[2 * HAND :]
        self.middle = [with_room(DECK_SIZE)]
        self.phase = PHASE_READY
        self.round = 0
        self.history = []
        self.plays = 0
        self.turns = 0
        self._outcome = None

    def one_pile(self):
        return True

    def spitter_count(self):
        return 1 if self.stack else 0

    def card_count(self):
        return len(self.stack) + len(self.middle[0]) + self.held(0) + self.held(1)

    def can_play(self, player):
        if self.phase != PHASE_PLAY:
            return False
        fits = FITS[self.middle[0][-1]]
        return any(cards and fits >> cards[0] % RANK_COUNT & 1 for cards in self.stock[player])

    def is_stuck(self):
        return self.phase == PHASE_PLAY and not (self.can_play(0) or self.can_play(1))

    def check(self, action):
        kind = action >> KIND_SHIFT
        if kind == PLAY:
            reason = self.play_refusal(action)
            if reason is not None:
                raise IllegalActionError(reason)
        elif action == CALL_ACTION:
            opening = self.phase == PHASE_READY
            self._require(opening or (self.is_stuck() and self.stack), NOT_NOW)
        elif kind == CALL:
            raise InvalidActionError("malformed turn %d" % action)
        else:
            raise InvalidActionError("no such action: %d" % action)

    def play_refusal(self, action):
        slot = (action >> FIRST_SHIFT) & FIELD
        if slot >= HAND:
            raise InvalidActionError("no slot C%d" % (slot + 1))
        if action & FIELD:
            return NO_PILE
        if self.phase != PHASE_PLAY:
            return NOT_NOW
        cards = self.stock[(action >> PLAYER_SHIFT) & 1][slot]
        if not cards:
            return NO_CARD
        return None if FITS[self.middle[0][-1]] >> cards[0] % RANK_COUNT & 1 else NO_FIT

    def legal_actions(self):
        actions = [CALL_ACTION] if self.is_legal(CALL_ACTION) else []
        for player in (0, 1):
            for slot in range(HAND):
                if self.is_legal(play(player, slot, 0)):
                    actions.append(play(player, slot, 0))
        return actions

    def try_play(self, action):
        reason = self.play_refusal(action)
        if reason is None:
            player = (action >> PLAYER_SHIFT) & 1
            self.middle[0].append(take_last(self.stock[player][(action >> FIRST_SHIFT) & FIELD]))
            self.plays += 1
            self.history.append(action)
            self._settle(player)
        return reason

    def apply(self, action):
        if action >> KIND_SHIFT == PLAY:
            reason = self.try_play(action)
            if reason is not None:
                raise IllegalActionError(reason)
            return
        self.check(action)
        self.middle[0].append(self.stack.pop())
        self.phase = PHASE_PLAY
        self.turns += 1
        self.history.append(action)
        self._settle(-1)

    def _settle(self, player):
        """The game's end: ``player`` (who just played, or -1) played out, or a stall."""
        if player >= 0 and not self.stock_count(player):
            self._end(_ENDS[PLAYED_OUT][player])
        elif not self.stack and self.is_stuck():
            first, second = self.stock_count(0), self.stock_count(1)
            self._end(_ENDS[FEWER][1 if second < first else 0])

    def _end(self, outcome):
        self._outcome = outcome
        self.phase = PHASE_OVER
        self.round = 1
