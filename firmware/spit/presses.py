"""From rules actions back to button presses: the keys a player presses to make an action
from their current hand. This is how the CPU seats play, through the same buttons as a
person, and how a transcript is pressed back onto the pins (``host_sim.sim.replay``).
"""

from micropython import const

from spit import keys

# ``spit.games``' values (a const is folded only in its own module).
_KIND_SHIFT = const(9)
_FIRST_SHIFT = const(4)
_FIELD = const(15)
_PLAY = const(0)
_MOVE = const(1)
_CALL = const(2)
_SLAP = const(3)


class Presses:
    """The presses that make actions at ``controls`` (a ``spit.controls.Controls``), read
    from its hands and calls as they are now."""

    def __init__(self, controls):
        self.controls = controls
        self.game = controls.game
        self._quick = controls.game.options.quick == "on"

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
        it cannot be moved into a gap). No list: the CPU seats press in a pass of play."""
        kind = action >> _KIND_SHIFT
        first = (action >> _FIRST_SHIFT) & _FIELD
        last = action & _FIELD
        if kind == _CALL:
            keys_out[0] = keys.SPIT
            return 0 if self.controls.called[player] or not self.controls.spits(player) else 1
        if kind == _SLAP:
            keys_out[0] = self.key_of(player, last)
            return 1
        if action == self.game.own_call(player):
            keys_out[0] = keys.SPIT
            return 1
        if kind != _PLAY and kind != _MOVE:
            return -1  # a call the player cannot make now (Speed's, with cards left)
        held = self.controls.hand[player]
        if held == first:
            keys_out[0] = last if kind == _MOVE else self.key_of(player, last)
            return 1
        count = 0
        if held >= 0:
            keys_out[0] = held
            count = 1
        keys_out[count] = first
        count += 1
        fit = self.controls.only_fit(self.game.stock_top(player, first)) if self._quick else -1
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
