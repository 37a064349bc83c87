"""The rules of Spit: the state of one game, its legal actions, and applying them.

Players are 0 (player 1, bottom edge) and 1 (player 2, top edge). Each has a row
of stock slots (five, or four with the ``1-4`` layout) numbered from 0 at their
left, and a face-down pack. The middle holds two spit piles, or one in a
one-pile round. Pile 0 is player 1's spit pile and pile 1 is player 2's: each
player spits onto their own pile.

Its actions, small ints laid out as ``spit.games`` says:

    play(player, slot, pile)   a stock top onto a spit pile
    move(player, slot, slot)   a stock top into an empty slot, or (``stack=on``)
                               onto a top of the same rank
    SPIT_ACTION                everyone who can turns one card from their pack
    slap(player, pile)         the race for a pile at the end of a round

``check()`` says whether an action is allowed and why not; ``apply()`` checks,
then changes the game; a refused action raises and changes nothing. In a transcript
(``spit.transcript``) the actions are words, players and slots numbered as on the
buttons, spit piles as ``a`` (player 1's, the only one in a one-pile round) and ``b``:
``S`` a spit, ``1c3a`` player 1 plays the top of C3 onto pile a, ``2c1c4`` player 2
moves the top of C1 onto C4, ``2!b`` player 2 slaps pile b.

>>> from spit.games import PHASE_PLAY, PHASE_READY
>>> game = Game(7)
>>> game.phase == PHASE_READY and game.card_count()
52
>>> game.apply(SPIT_ACTION); game.phase == PHASE_PLAY
True
"""

from micropython import const

from spit.cards import ALL, DECK_SIZE, FITS, lay_reversed, rank, take_last, with_room
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
    move,
    play,
    room_for_a_round,
    slap,
)
from spit.options import CHOICES, Options
from spit.rng import Rng
from spit.twins import can_play, fitting_ranks

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len, max, min, sum = len, max, min, sum

# ``spit.games``' values, read on every press: a const is folded only in the module that
# defines it (another module's is a global lookup, about a microsecond on the Pico), so
# this one keeps copies; ``tests/test_games.py`` holds each to its value there.
_PHASE_READY = const(0)
_PHASE_PLAY = const(1)
_PHASE_SLAP = const(2)
_PHASE_OVER = const(3)
_PHASE_DEALING = const(4)
_KIND_SHIFT = const(9)
_PLAYER_SHIFT = const(8)
_FIRST_SHIFT = const(4)
_FIELD = const(15)
_PLAY = const(0)
_MOVE = const(1)
_CALL = const(2)
_SLAP = const(3)
_CALL_ACTION = const(_CALL << _KIND_SHIFT)

SPIT_ACTION = _CALL_ACTION  # Spit's call: everyone who can turns a card

# What the registry (``spit.games``) reads of a game.
KEPT_OPTIONS = tuple(name for name, _ in CHOICES)  # Spit keeps every setting
TRANSCRIPT_OPTIONS = True  # the options change the rules: transcripts name them
ACTION_WORDS = "S, 1c3a (play), 1c1c4 (move) or 1!a (slap)"
COUNTED = ("spits", "slaps")
ONE_ROUND = False
_PILES = "ab"

# Why an action is refused, as the player is told (besides ``spit.games``'s reasons).
SLOT_TAKEN = "slot taken"
SAME_SLOT = "same slot"
NOTHING_TO_SPIT = "nothing to spit"
WINNER_PICKS = "winner picks"

# Why a game ended.
OUT_OF_CARDS = "out of cards"
LOWEST_SCORE = "lowest score"

_POINTS_TO_END = const(100)
_RANKS = const(13)  # RANK_COUNT, inlined by the compiler
_ENDS = endings(OUT_OF_CARDS, LOWEST_SCORE)


def cpu_player():
    """Spit's CPU player, a class, imported when first asked for (``spit.games.prepare``)."""
    from spit.spit_cpu import SpitCpu

    return SpitCpu


def action_word(action):
    """The transcript's word for ``action``."""
    kind = action >> _KIND_SHIFT
    player = "%d" % (((action >> _PLAYER_SHIFT) & 1) + 1)
    first = (action >> _FIRST_SHIFT) & _FIELD
    last = action & _FIELD
    if kind == _PLAY:
        return "%sc%d%s" % (player, first + 1, _PILES[last])
    if kind == _MOVE:
        return "%sc%dc%d" % (player, first + 1, last + 1)
    if kind == _SLAP:
        return "%s!%s" % (player, _PILES[last])
    return "S"


def parse_action_word(word):
    """The action a transcript's word names; ValueError if none."""
    if word == "S":
        return SPIT_ACTION
    if len(word) >= 3 and word[0] in "12":
        player = int(word[0]) - 1
        if word[1] == "!" and len(word) == 3 and word[2] in _PILES:
            return slap(player, _PILES.index(word[2]))
        if word[1] == "c" and word[2] in "12345":
            slot = int(word[2]) - 1
            rest = word[3:]
            if len(rest) == 1 and rest in _PILES:
                return play(player, slot, _PILES.index(rest))
            if len(rest) == 2 and rest[0] == "c" and rest[1] in "12345":
                return move(player, slot, int(rest[1]) - 1)
    raise ValueError("not a Spit action: %r" % word)


class RoundEnd:
    """What the last round ended with, for the round result screen: ``cleared``, the
    player who played out their stock (-1 after a stall); ``slapper``, whose slap decided
    the piles (-1 if none was needed); ``took``, the middle cards each player took;
    ``left``, the stock and pack cards each still held when the round ended (the points
    of ``score=points``); ``held``, what each holds for the next round."""

    def __init__(self, cleared, slapper, took, left, held):
        self.cleared = cleared
        self.slapper = slapper
        self.took = took
        self.left = left
        self.held = held


_plans = {}  # pile sizes -> their deal plan


def _deal_plan(sizes):
    """Where a hand's cards go, dealt in rows as at the table (one card on every pile
    still short): per stock slot, the positions in the hand of its cards, bottom to
    top; last, how many cards the stock takes. Worked out once per layout."""
    plan = _plans.get(sizes)
    if plan is None:
        slots = [[] for _ in sizes]
        dealt = 0
        for row in range(max(sizes)):
            for slot in range(len(sizes)):
                if sizes[slot] > row:
                    slots[slot].append(dealt)
                    dealt += 1
        plan = [bytes(positions) for positions in slots] + [dealt]
        _plans[sizes] = plan
    return plan


class Game(Rules):
    """One game of Spit, from the deal to a player out of cards (``NAME``: its
    transcripts'). ``seed`` fixes the deal and every later shuffle. ``hands``, when
    given, replaces the deal: two lists of cards in dealing order (tests use it).

    ``apply()`` deals the next round as soon as one ends, unless ``deals_later`` is
    set: then the game waits in ``_PHASE_DEALING`` until ``deal()`` is called (after
    ``shuffle()``, or not; the same shuffles). The device sets it, so that a slap, the
    shuffles and the layout (about 1 ms each on the Pico) go in passes of their own.
    """

    NAME = "spit"
    # What the screens and the controls ask every pass, found on this class itself: a
    # method found on ``Rules`` costs a lookup more, some 4 µs a call on the Pico.
    top = Rules.top
    stock_top = Rules.stock_top
    stock_count = Rules.stock_count
    held = Rules.held
    outcome = Rules.outcome
    is_legal = Rules.is_legal
    pile_count = Rules.pile_count
    own_call = Rules.own_call
    prepare_spit = Rules.prepare_spit

    def __init__(self, seed, options=None, hands=None):
        self.seed = seed
        self.options = options or Options()
        self.word = call_word(self.NAME, self.options)  # what the players call for SPIT
        self.rng = Rng(seed)
        self.slots = len(self.options.pile_sizes)
        self._plan = _deal_plan(self.options.pile_sizes)  # the deal's, worked out once a game
        self.stock = [[[] for _ in range(self.slots)] for _ in range(2)]
        self.face_up = [[0] * self.slots for _ in range(2)]
        self.pack = [with_room(DECK_SIZE), with_room(DECK_SIZE)]  # a deal allocates nothing
        # The spit piles, each with room for the deck (a play grows a pile by a card),
        # made once a game: ``middle`` is both, or the first alone in a one-pile round.
        self._two_piles = [with_room(DECK_SIZE), with_room(DECK_SIZE)]
        self._one_pile = [self._two_piles[0]]
        self.middle = self._two_piles
        self.phase = _PHASE_READY
        self.round = 0
        self.cleared = -1
        self.spit_turn = 0
        self.points = [0, 0]
        self.plays = 0
        self.spits = 0
        self.slaps = 0
        self.last_round = None
        self._outcome = None
        self.history = []
        # The history's length up to which it has room (``room_for_a_round``).
        self._room = room_for_a_round(self.history, 0)
        self.deals_later = False
        self._hands = (with_room(DECK_SIZE), with_room(DECK_SIZE))  # gathered at a round's end
        self._round_end = RoundEnd(-1, -1, [0, 0], [0, 0], [0, 0])  # ``last_round``, made once
        # How the round ended, until ``shuffle()`` scores it: the middle cards each player
        # took (room for the deck, made once a game: a slap allocates nothing), the slapper.
        self._ending = False
        self._takes = (with_room(DECK_SIZE), with_room(DECK_SIZE))
        self._slapper = -1
        self.shuffled = False  # ``shuffle()`` is done, for ``deal()`` to lay out
        self._shuffling = 0  # the player whose cards ``shuffle()`` shuffles next (2: the room)
        # Who can play (bit p: player p), and whether nobody can move, at ``_known_at``.
        self._playable = 0
        self._stuck = False
        self._known_at = -1
        if hands is None:
            deck = list(range(DECK_SIZE))
            self.rng.shuffle(deck)
            hands = (deck[0::2], deck[1::2])
        self._start_round(hands)

    # -- reading the table --------------------------------------------------

    def one_pile(self):
        return len(self.middle) == 1

    def card_count(self):
        """Every card is somewhere: this is always 52."""
        count = sum(len(cards) for cards in self.middle)
        for player in (0, 1):
            count += self.held(player)
        return count

    def can_play(self, player):
        """True if a face-up stock card of the player fits a spit pile."""
        if len(self.history) != self._known_at:
            self._know()
        return self._playable >> player & 1 == 1

    def can_dig(self, player):
        """True if the player can turn up a hidden stock card by moving stock tops."""
        return self.dig_move(player) >= 0

    def dig_move(self, player):
        """A move that turns up a hidden stock card, or the first of a few that will;
        -1 if there is none.

        A gap takes a pile's face-up top. With ``stack=on`` the face-up cards of a
        pile (they always share a rank) go one by one onto another top of that rank
        or into a gap, and a pile with nothing hidden can be emptied that way to make
        a gap, so a dig may take several moves: asking again after each one leads to
        the hidden card without going round in circles.
        """
        stock = self.stock[player]
        up = self.face_up[player]
        stack = self.options.stack == "on"
        gap = -1
        buried = -1
        for slot in range(self.slots):
            cards = stock[slot]
            if not cards:
                if gap < 0:
                    gap = slot
            elif len(cards) > up[slot]:
                if stack:
                    other = self._same_rank(stock, slot)
                    if other >= 0:
                        return move(player, slot, other)
                if buried < 0:
                    buried = slot
        if buried < 0:
            return -1
        if gap >= 0:
            return move(player, buried, gap)
        if stack:
            # Every same-rank pair is face up through and through: empty the smaller.
            for slot in range(self.slots):
                other = self._same_rank(stock, slot)
                size = len(stock[slot])
                if other >= 0 and (size, slot) < (len(stock[other]), other):
                    return move(player, slot, other)
        return -1

    def can_move(self, player):
        """True if the player has a move that gets them closer to out."""
        return self.can_play(player) or self._can_dig(player)

    def is_stuck(self):
        """Nobody can move: time to spit, or, with nothing left to spit, to slap."""
        if self.phase != _PHASE_PLAY:
            return False
        if len(self.history) != self._known_at:
            self._know()
        return self._stuck

    def _know(self):
        """Work out who can play and whether anybody can move. Only an applied action
        changes the table, and the controls, the reaction clocks, the CPU seats and
        the screen all ask after each one: this runs once per action."""
        ranks = fitting_ranks(self.middle)
        stock = self.stock
        playable = 0
        if can_play(stock[0], ranks):
            playable = 1
        if can_play(stock[1], ranks):
            playable |= 2
        self._playable = playable
        self._stuck = not (playable or self._can_dig(0) or self._can_dig(1))
        self._known_at = len(self.history)

    def _can_dig(self, player):
        if self.options.stack == "on":
            return self.dig_move(player) >= 0
        # Without stacking a dig needs a gap and a pile with a hidden card.
        up = self.face_up[player]
        stock = self.stock[player]
        found = 0  # bit 0: a gap, bit 1: a hidden card
        slot = self.slots
        while slot:  # no iterator: it would take four more words of the frame
            slot -= 1
            if not stock[slot]:
                found |= 1
            elif len(stock[slot]) > up[slot]:
                found |= 2
        return found == 3

    def spitters(self):
        """The players who would turn a card at the next spit."""
        if not self.one_pile():
            return [player for player in (0, 1) if self.pack[player]]
        player = self._next_spitter()
        return [] if player < 0 else [player]

    def spitter_count(self):
        """How many players would turn a card at the next spit: ``spitters`` without
        making a list (a press in play allocates nothing)."""
        if not self.one_pile():
            return (1 if self.pack[0] else 0) + (1 if self.pack[1] else 0)
        return 0 if self._next_spitter() < 0 else 1

    def smaller_pile(self):
        """The pile worth slapping: the smaller one (pile 0 when they are even)."""
        if self.one_pile() or len(self.middle[0]) <= len(self.middle[1]):
            return 0
        return 1

    def may_slap(self, player):
        return self.phase == _PHASE_SLAP and (
            self.options.pick != "winner" or self.cleared < 0 or self.cleared == player
        )

    # -- legality -----------------------------------------------------------

    def check(self, action):
        """Raise ``InvalidActionError`` or ``IllegalActionError`` unless the action is
        allowed now. Changes nothing."""
        kind = action >> _KIND_SHIFT
        player = (action >> _PLAYER_SHIFT) & 1
        first = (action >> _FIRST_SHIFT) & _FIELD
        last = action & _FIELD
        if kind == _PLAY:
            reason = self.play_refusal(action)
            if reason is not None:
                raise IllegalActionError(reason)
        elif kind == _MOVE:
            self._check_slot(first)
            self._check_slot(last)
            self._require(self.phase == _PHASE_PLAY, NOT_NOW)
            card = self.stock_top(player, first)
            self._require(card >= 0, NO_CARD)
            self._require(first != last, SAME_SLOT)
            self._require(self._can_land(player, card, last), SLOT_TAKEN)
        elif kind == _CALL:
            if action != SPIT_ACTION:
                raise InvalidActionError("malformed spit %d" % action)
            self._require(self.phase in (_PHASE_READY, _PHASE_PLAY), NOT_NOW)
            self._require(self.pack[0] or self.pack[1], NOTHING_TO_SPIT)
        elif kind == _SLAP:
            self._check_pile_number(last)
            if first:
                raise InvalidActionError("malformed slap %d" % action)
            self._require(self.phase == _PHASE_SLAP, NOT_NOW)
            self._require(last < len(self.middle), NO_PILE)
            self._require(self.may_slap(player), WINNER_PICKS)
        else:
            raise InvalidActionError("unknown action %d" % action)

    def play_refusal(self, action):
        """Why a play is refused now, as the player is told, or None if it is allowed;
        ``InvalidActionError`` if it names no slot or pile. A card that does not fit
        is the commonest refusal, and telling it raises nothing."""
        player = (action >> _PLAYER_SHIFT) & 1
        first = (action >> _FIRST_SHIFT) & _FIELD
        last = action & _FIELD
        if first >= self.slots:
            self._check_slot(first)
        if last > 1:
            self._check_pile_number(last)
        if self.phase != _PHASE_PLAY:
            return NOT_NOW
        if last >= len(self.middle):
            return NO_PILE
        cards = self.stock[player][first]
        if not cards:
            return NO_CARD
        pile = self.middle[last]
        if not (pile and FITS[pile[-1]] >> cards[-1] % _RANKS & 1):
            return NO_FIT
        return None

    def legal_actions(self):
        """Every action allowed now, for both players, in a fixed order."""
        actions = []
        if self.phase == _PHASE_READY:
            if self.pack[0] or self.pack[1]:
                actions.append(SPIT_ACTION)
        elif self.phase == _PHASE_PLAY:
            for player in (0, 1):
                for slot in range(self.slots):
                    card = self.stock_top(player, slot)
                    if card < 0:
                        continue
                    for pile in range(len(self.middle)):
                        top = self.top(pile)
                        if top >= 0 and FITS[top] >> card % _RANKS & 1:
                            actions.append(play(player, slot, pile))
                    for to_slot in range(self.slots):
                        if to_slot != slot and self._can_land(player, card, to_slot):
                            actions.append(move(player, slot, to_slot))
            if self.pack[0] or self.pack[1]:
                actions.append(SPIT_ACTION)
        elif self.phase == _PHASE_SLAP:
            for player in (0, 1):
                if self.may_slap(player):
                    for pile in range(len(self.middle)):
                        actions.append(slap(player, pile))
        return actions

    # -- applying -----------------------------------------------------------

    def apply(self, action):
        """Check the action (raising, with nothing changed, if it is refused), then
        apply it and move the game on: a cleared stock or a stall ends the round,
        a finished round lays out the next one or ends the game."""
        if action >> _KIND_SHIFT == _PLAY:
            reason = self.try_play(action)
            if reason is not None:
                raise IllegalActionError(reason)
            return
        if action >> _KIND_SHIFT == _MOVE:
            if not self.move_if_allowed(action):
                self.check(action)  # raises: every move allowed has been made
            return
        self.check(action)
        self.history.append(action)
        if action >> _KIND_SHIFT == _CALL:
            self._spit()
            self._note_stall()
        else:
            self.slaps += 1
            self._settle_slap((action >> _PLAYER_SHIFT) & 1, action & _FIELD)

    def try_play(self, action):
        """Make a play if it is allowed now and return None, else return why not (as
        ``play_refusal``) with nothing changed: the commonest action, made on every
        press, with no exception to raise."""
        reason = self.play_refusal(action)
        if reason is not None:
            return reason
        player = (action >> _PLAYER_SHIFT) & 1
        first = (action >> _FIRST_SHIFT) & _FIELD
        self.middle[action & _FIELD].append(self._take_top(player, first))
        self.plays += 1
        self.history.append(action)
        if not self._has_stock(player):
            self._cleared(player)
        elif not (self.pack[0] or self.pack[1]):  # most plays: a stall needs empty packs
            self._note_stall()
        return None

    def move_if_allowed(self, action):
        """Make a move if it is allowed now (True), else change nothing (False)."""
        if not self.is_legal(action):
            return False
        self._move(
            (action >> _PLAYER_SHIFT) & 1, (action >> _FIRST_SHIFT) & _FIELD, action & _FIELD
        )
        self.history.append(action)
        self._note_stall()
        return True

    def _has_stock(self, player):
        for cards in self.stock[player]:  # noqa: SIM110 (any() takes a generator: it allocates)
            if cards:
                return True
        return False

    # -- inside -------------------------------------------------------------

    # Few locals in the functions an action runs through: on MicroPython a function
    # with more than 11 words of locals and stack gets its frame from the heap at every
    # call (``host_sim.bench.heap_frames``).

    def _note_stall(self):
        """With nothing left to spit and nobody able to move, the round ends in a stall."""
        if not (self.pack[0] or self.pack[1]) and self.is_stuck():
            self.cleared = -1
            self.phase = _PHASE_SLAP

    def _move(self, player, slot, to_slot):
        self.stock[player][to_slot].append(self._take_top(player, slot))
        self.face_up[player][to_slot] += 1

    def _check_slot(self, slot):
        if slot >= self.slots:
            raise InvalidActionError("no slot C%d" % (slot + 1))

    def _check_pile_number(self, pile):
        if pile > 1:
            raise InvalidActionError("no pile %d" % pile)

    def _can_land(self, player, card, slot):
        cards = self.stock[player][slot]
        if not cards:
            return True
        return self.options.stack == "on" and rank(cards[-1]) == rank(card)

    def _same_rank(self, stock, slot):
        """Another slot whose top has the rank of this slot's top, or -1."""
        face = rank(stock[slot][-1]) if stock[slot] else -1
        for other in range(self.slots):
            if other != slot and stock[other] and rank(stock[other][-1]) == face:
                return other
        return -1

    def _take_top(self, player, slot):
        """The slot's top card, taken: one fewer face up, and the next turns up if none is."""
        cards = self.stock[player][slot]
        card = take_last(cards)
        up = self.face_up[player]
        up[slot] -= 1
        if up[slot] == 0 and cards:
            up[slot] = 1
        return card

    def _next_spitter(self):
        player = self.spit_turn
        if not self.pack[player]:
            player = 1 - player
        return player if self.pack[player] else -1

    def _spit(self):
        if self.one_pile():
            player = self._next_spitter()
            self.middle[0].append(take_last(self.pack[player]))
            self.spit_turn = 1 - player
        else:
            for player in (0, 1):
                if self.pack[player]:
                    self.middle[player].append(take_last(self.pack[player]))
        self.spits += 1
        self.phase = _PHASE_PLAY

    def _cleared(self, player):
        self.cleared = player
        if self.one_pile() or not self.pack[player]:
            # With nothing left to spit either, the player holds no cards and is out:
            # no slap, the other player takes the middle (as in a one-pile round).
            self._middle_to(1 - player)
            self._end_round(-1)
        else:
            self.phase = _PHASE_SLAP

    def _settle_slap(self, player, pile):
        if self.one_pile():
            # Only after a stall: the first hand on the lone pile escapes it.
            self._middle_to(1 - player)
        else:
            takes = self._emptied_takes()
            takes[player].extend(self.middle[pile])
            takes[1 - player].extend(self.middle[1 - pile])
        self._end_round(player)

    def _middle_to(self, taker):
        takes = self._emptied_takes()
        for cards in self.middle:
            takes[taker].extend(cards)

    def _emptied_takes(self):
        """What each player takes from the middle, emptied for a round's end (room kept)."""
        takes = self._takes
        del takes[0][ALL]
        del takes[1][ALL]
        return takes

    def _end_round(self, slapper):
        """End the round (``_takes``: what each player took from the middle; ``cleared``:
        who played out their stock). Its score and the gathering of the cards into the
        hands wait for ``shuffle()``, in the pass after the slap on the device: nothing
        moves in between."""
        self._slapper = slapper
        self._ending = True
        self.phase = _PHASE_DEALING
        if not self.deals_later:
            self.deal()

    def _score_round(self):
        """The round's end as ``last_round`` tells it, its points, and each player's
        cards gathered: what they took, their pack, their stock."""
        takes = self._takes
        end = self._round_end
        end.cleared, end.slapper = self.cleared, self._slapper
        for player in (0, 1):
            hand = self._hands[player]
            del hand[ALL]
            hand.extend(takes[player])
            hand.extend(self.pack[player])
            for cards in self.stock[player]:
                hand.extend(cards)
            end.took[player] = len(takes[player])
            end.left[player] = len(hand) - end.took[player]
            end.held[player] = len(hand)
        self.last_round = end
        self.round += 1
        if self.options.score == "points":
            self.points[0] += end.left[0]
            self.points[1] += end.left[1]

    def shuffle(self):
        """The next part of what comes before the layout, a call (a pass on the device) each:
        score the round; shuffle player 1's cards; player 2's; make room in the history for the
        next round (``room_for_a_round``); then ``shuffled``. Refused outside the deal phase."""
        self._require(self.phase == _PHASE_DEALING, NOT_NOW)
        if self.shuffled:
            return
        if self._ending:
            self._ending = False
            self._score_round()
            return
        if self._shuffling < len(self._hands):
            self.rng.shuffle(self._hands[self._shuffling])
            self._shuffling += 1
            return
        self._room = room_for_a_round(self.history, self._room)
        self._shuffling = 0
        self.shuffled = True

    def deal(self):
        """Score the round that ended and shuffle each player's cards (unless
        ``shuffle()`` did), then lay out the next round, or end the game. Refused outside
        ``_PHASE_DEALING``."""
        while not self.shuffled:
            self.shuffle()
        self.shuffled = False
        hands = self._hands
        self._start_round(hands)
        self._known_at = -1  # the table changed, the history did not
        self._outcome = self._judge(hands)
        if self._outcome is not None:
            self.phase = _PHASE_OVER

    def _judge(self, hands):
        out = 0 if not hands[0] else 1 if not hands[1] else -1  # the first out of cards
        if self.options.score == "points":
            points = self.points
            low, high = min(points[0], points[1]), max(points[0], points[1])
            if out >= 0 or (high >= _POINTS_TO_END and low != high):
                if low != high:
                    return _ENDS[LOWEST_SCORE][points.index(low)]
                return _ENDS[OUT_OF_CARDS][out]
            return None
        return _ENDS[OUT_OF_CARDS][out] if out >= 0 else None

    def _start_round(self, hands):
        plan = self._plan
        for player in (0, 1):
            hand = hands[player]
            n = len(hand)
            piles = self.stock[player]
            up = self.face_up[player]
            for slot in range(self.slots):
                cards = piles[slot]
                del cards[ALL]
                for i in plan[slot]:
                    if i >= n:
                        break  # the plan's positions rise: a short hand deals a prefix
                    cards.append(hand[i])
                up[slot] = 1 if cards else 0
            lay_reversed(self.pack[player], hand, plan[-1])  # the rest, its last card on top
        two = self.options.middle == "two" and self.pack[0] and self.pack[1]
        piles = self._two_piles
        del piles[0][ALL]
        del piles[1][ALL]
        self.middle = piles if two else self._one_pile
        self.cleared = -1
        self.phase = _PHASE_READY
