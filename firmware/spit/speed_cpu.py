"""Speed's CPU player: what it would do now. Its levels, its plan and its glances are every
game's (``spit.cpu``).

It reads what a person at the table sees: its own hand and the two centre tops. A careful
look plays the card that leaves the CPU another card to play next (the new top takes one
of its other hand cards), else its first card that fits; a careless one plays the first
card that fits, onto the first pile it fits. It calls for the flip when nobody can play,
and calls the game when its hand and draw pile are empty. Its choice is made in one
glance.

>>> from spit.speed import FLIP_ACTION, Game
>>> cpu = SpeedCpu(0, "quick", seed=3)
>>> cpu.look(Game(3), 0) and cpu.action == FLIP_ACTION and cpu.due > 0
True
"""

from micropython import const

from spit.cards import FITS
from spit.cpu import CpuPlayer
from spit.games import PHASE_PLAY, PHASE_READY
from spit.speed import FLIP_ACTION, HAND, out, play

_RANKS = const(13)  # RANK_COUNT, inlined by the compiler


class SpeedCpu(CpuPlayer):
    """Speed's CPU player in ``seat`` (0 or 1) at a level (``spit.cpu.CpuPlayer``)."""

    SALT = 0x5BED  # seat 0 draws from derive(seed, SALT), seat 1 from SALT + 1
    # The table's calls of every pass, found on this class itself: a method found on the
    # base class costs a lookup more, some 4 µs a call on the Pico.
    glance = CpuPlayer.glance
    looking = CpuPlayer.looking
    done = CpuPlayer.done

    def _choose_part(self, game):
        """The whole of ``choose``: a choice of one part. The tops' fits are read once: a
        look runs in a pass of play on the device."""
        seat = self.seat
        if game.phase == PHASE_READY:
            return FLIP_ACTION
        if game.phase != PHASE_PLAY:
            return None
        hand = game.stock[seat]
        middle = game.middle
        fits_a = FITS[middle[0][-1]]
        fits_b = FITS[middle[1][-1]]
        first = None
        holding = False
        for slot in range(HAND):
            if not hand[slot]:
                continue
            holding = True
            card = hand[slot][0]
            rank = card % _RANKS
            pile = 0 if fits_a >> rank & 1 else 1 if fits_b >> rank & 1 else -1
            if pile < 0:
                continue
            if not self.careful or _opens(hand, slot, card):
                return play(seat, slot, pile)
            if first is None:
                first = play(seat, slot, pile)
        if first is not None:
            return first
        if not holding and not game.pack[seat]:
            return out(seat)
        return FLIP_ACTION if game.is_stuck() else None


def _opens(hand, played, card):
    """True when another card in ``hand`` fits ``card``, the top it would make."""
    fits = FITS[card]  # the ranks either side of it: a lookup, where a call costs tens of µs
    for slot in range(HAND):
        if slot != played and hand[slot] and fits >> hand[slot][0] % _RANKS & 1:
            return True
    return False
