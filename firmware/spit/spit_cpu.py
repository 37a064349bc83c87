"""Spit's CPU player: what it would do now. Its levels, its plan and its glances are every
game's (``spit.cpu``).

It reads the same table a person would: its own face-up stock tops, the opponent's, the
spit piles. It never peeks at a hidden card. Its play follows the rule texts' advice:

- play from the deepest pile first, so buried cards come up sooner, and put
  a card where it opens the CPU's next card and not where it hands the
  opponent a run: each play scores its pile's depth plus two for every own
  face-up card the two spit tops then take, minus two for every one of the
  opponent's (in self-play this mix beats depth alone 55 games in 100);
- fill a gap from the deepest pile (or, with ``stack=on``, stack onto a
  same-rank top), but only to turn up a hidden card;
- call spit only when nobody can move; slap the smaller pile.

A careless look plays the first card it sees that fits, onto the near pile, digs from the
leftmost pile and can't tell spit piles apart that are within a few cards of each other.

Its choice comes in parts, a glance each, each well under a millisecond on the Pico: the
counts that score plays, each stock slot whose top fits, the digs, whether anybody is
stuck.

>>> from spit.spit import Game
>>> game = Game(3)
>>> cpu = SpitCpu(0, "quick", seed=3)
>>> cpu.look(game, 0)
True
>>> cpu.action == CALL_ACTION and cpu.due > 0
True
"""

from micropython import const

from spit.cards import FITS, RANK_COUNT, rank
from spit.cpu import CpuPlayer
from spit.games import CALL_ACTION, PHASE_PLAY, PHASE_READY, PHASE_SLAP, move, play, slap
from spit.twins import count_fits, fitting_ranks

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len = len

_LOOKING = const(-2)  # spit.cpu.LOOKING, inlined by the compiler
# A careless look can't tell spit piles apart that differ by this many cards or fewer.
_CLOSE = const(3)
# A face-up card that the spit tops take after a play counts as much as two cards of depth.
_FIT_WEIGHT = const(2)
# Digging weighs a face-up card on a pile above any depth.
_UP_WEIGHT = const(64)
_RANKS = const(13)  # RANK_COUNT, inlined by the compiler
# The parts of a choice, in order (``_part``): the best play, the best dig, stuck.
_PLAYS = const(0)  # a slot with a card that fits at a time
_DIGS = const(1)
_STUCK = const(2)
# The ranks one above and one below each rank, round the ace.
_ABOVE = bytes((face + 1) % RANK_COUNT for face in range(RANK_COUNT))
_BELOW = bytes((face - 1) % RANK_COUNT for face in range(RANK_COUNT))


class SpitCpu(CpuPlayer):
    """Spit's CPU player in ``seat`` (0 or 1) at a level (``spit.cpu.CpuPlayer``); also
    ``slap_choice(game)``."""

    SALT = 0x5EA7  # seat 0 draws from derive(seed, SALT), seat 1 from SALT + 1
    # The table's calls of every pass, found on this class itself: a method found on the
    # base class costs a lookup more, some 4 µs a call on the Pico.
    glance = CpuPlayer.glance
    looking = CpuPlayer.looking
    done = CpuPlayer.done

    def __init__(self, seat, level="steady", seed=0):
        super().__init__(seat, level, seed)
        # Scratch counts for scoring plays, kept to allocate nothing per look.
        self._mine = bytearray(RANK_COUNT)
        self._theirs = bytearray(RANK_COUNT)
        # While it scores plays (``_part`` is ``_PLAYS``, ``_slot`` the next stock slot):
        # the spit tops' ranks, how many of the counts that score a play are made (two),
        # and the best play.
        self._ranks = 0
        self._counted = 0
        self._best = None
        self._best_score = 0

    def _choose_part(self, game):
        """The next part of ``choose``: its answer, or ``_LOOKING`` to go on."""
        phase = game.phase
        if phase == PHASE_PLAY:
            part = self._part
            action = None
            if part == _PLAYS:
                action = self._plays_part(game)
                if action == _LOOKING:
                    return _LOOKING
            elif part == _DIGS:
                action = self._best_dig(game)
            elif game.is_stuck():
                action = CALL_ACTION
            if action is None and part != _STUCK:
                self._part = part + 1
                return _LOOKING
            self._part = _PLAYS
            return action
        self._part = _PLAYS
        if phase == PHASE_READY:
            return CALL_ACTION
        if phase == PHASE_SLAP:
            return self.slap_choice(game)
        return None

    def slap_choice(self, game):
        """The slap for the smaller pile, or None if this seat may not slap now."""
        seat = self.seat
        if not game.may_slap(seat):
            return None
        if game.one_pile():
            return slap(seat, 0)
        pile = game.smaller_pile()
        if not self.careful:
            difference = len(game.middle[0]) - len(game.middle[1])
            if -_CLOSE <= difference <= _CLOSE:
                pile = seat
        return slap(seat, pile)

    # -- inside -------------------------------------------------------------

    def _plays_part(self, game):
        """Score the plays of the next stock slots, up to and including the first whose
        top fits a spit pile: ``_LOOKING`` while slots are left, then the best play
        (None if no card fits). A careless look takes the first play it sees."""
        seat = self.seat
        middle = game.middle
        piles = len(middle)
        stock = game.stock[seat]
        slot = self._slot
        if slot < 0:
            # Which ranks the spit tops take: most looks end here, with no card that fits.
            slot = 0
            self._ranks = fitting_ranks(middle)
            self._counted = 0
            self._best = None
            self._best_score = 0
        ranks = self._ranks
        while slot < len(stock):
            cards = stock[slot]
            slot += 1
            if not (cards and ranks >> cards[-1] % _RANKS & 1):
                continue
            card = cards[-1]
            for turn in range(piles):
                # The near pile (the seat's own) first.
                pile = (seat + turn) % piles
                top = middle[pile]
                if not (top and FITS[top[-1]] >> card % _RANKS & 1):
                    continue
                if not self.careful:
                    self._slot = -1
                    return play(seat, slot - 1, pile)
                counted = self._counted
                if counted < 2:
                    # The counts that score every play, a glance each (about 0.15 ms on
                    # the Pico): the seat's own, the opponent's; this slot is scored next.
                    if counted:
                        count_fits(game.stock[1 - seat], self._theirs, _ABOVE, _BELOW)
                    else:
                        count_fits(stock, self._mine, _ABOVE, _BELOW)
                    self._counted = counted + 1
                    self._slot = slot - 1
                    return _LOOKING
                score = len(cards) + _FIT_WEIGHT * self._leaves(middle, card, pile)
                if self._best is None or score > self._best_score:
                    self._best = play(seat, slot - 1, pile)
                    self._best_score = score
            if slot < len(stock):
                self._slot = slot
                return _LOOKING
        self._slot = -1
        return self._best

    def _leaves(self, middle, card, pile):
        """How good the spit tops are after ``card`` lands on ``pile``: the face-up cards
        of the CPU's that they then take, less the opponent's."""
        mine = self._mine
        theirs = self._theirs
        # A card never fits its own rank, so the count for the new top leaves it out.
        face = card % _RANKS
        score = mine[face] - theirs[face]
        if len(middle) == 2:
            cards = middle[1 - pile]
            top = cards[-1] if cards else -1  # -1 reads as a king, as rank(-1) does
            face = top % _RANKS
            score += mine[face] - theirs[face]
            if FITS[top] >> card % _RANKS & 1:
                score -= 1  # the card itself has left the stock
        return score

    def _best_dig(self, game):
        """A move towards a hidden card. A careful look takes the pile closest to
        turning one up (fewest face-up cards on it) and of those the deepest, and
        stacks onto a same-rank top before it uses a gap; a careless look, or a dig
        that needs a pile emptied first, takes the rules' own first dig."""
        seat = self.seat
        if self.careful:
            stock = game.stock[seat]
            face_up = game.face_up[seat]
            stacking = game.options.stack == "on"
            gap = -1
            if not stacking:
                # Every dig then lands in the first gap; without one there is none.
                gap = _first_gap(stock)
                if gap < 0:
                    return None
            best = None
            best_score = 0
            for slot in range(game.slots):
                cards = stock[slot]
                if len(cards) <= face_up[slot]:
                    continue
                to_slot = _landing(stock, slot, stacking) if stacking else gap
                # Fewest face-up cards first: repeated digs then stay on one pile and
                # turn its hidden card up instead of passing cards back and forth.
                score = len(cards) - _UP_WEIGHT * face_up[slot]
                if to_slot >= 0 and (best is None or score > best_score):
                    best = move(seat, slot, to_slot)
                    best_score = score
            if best is not None:
                return best
        action = game.dig_move(seat)
        return None if action < 0 else action


def _first_gap(stock):
    slot = 0
    for cards in stock:
        if not cards:
            return slot
        slot += 1  # noqa: SIM113 (enumerate() allocates on MicroPython)
    return -1


def _landing(stock, slot, stacking):
    """Where the top of ``slot`` can go: a same-rank top (with stacking), else a gap, else -1."""
    face = rank(stock[slot][-1])
    gap = -1
    for to_slot in range(len(stock)):
        cards = stock[to_slot]
        if to_slot == slot:
            continue
        if not cards:
            if gap < 0:
                gap = to_slot
        elif stacking and rank(cards[-1]) == face:
            return to_slot
    return gap
