"""Fives' CPU player (``tests/helpers/fives.py``): the levels, the plan and the glances are
every game's (``spit.cpu.CpuPlayer``); what it chooses is its own. It turns the stack to
open the game and when nobody can play, and otherwise plays its first card that fits (a
careful look, the one that leaves it another card to play next)."""

from spit.cards import FITS, RANK_COUNT
from spit.cpu import CpuPlayer
from spit.games import CALL_ACTION, PHASE_PLAY, PHASE_READY, play


class FivesCpu(CpuPlayer):
    SALT = 0xF17E
    glance = CpuPlayer.glance
    looking = CpuPlayer.looking
    done = CpuPlayer.done

    def _choose_part(self, game):
        if game.phase == PHASE_READY:
            return CALL_ACTION
        if game.phase != PHASE_PLAY:
            return None
        hand = game.stock[self.seat]
        fits = FITS[game.middle[0][-1]]
        first = None
        for slot in range(len(hand)):
            if hand[slot] and fits >> hand[slot][0] % RANK_COUNT & 1:
                if not self.careful or _opens(hand, slot):
                    return play(self.seat, slot, 0)
                first = play(self.seat, slot, 0) if first is None else first
        if first is not None:
            return first
        return CALL_ACTION if game.is_stuck() and game.stack else None


def _opens(hand, played):
    """Another card in ``hand`` fits the top the card in ``played`` would make."""
    fits = FITS[hand[played][0]]
    others = [cards for slot, cards in enumerate(hand) if slot != played and cards]
    return any(fits >> cards[0] % RANK_COUNT & 1 for cards in others)
