"""The CPU player of Speed: what it would do now, and how long it takes to do it.

It reads what a person at the table sees: its own hand and the two centre tops. Its
levels are Spit's (``spit.cpu.LEVELS``): the same reaction-time model, and the same share
of careful looks. A careful look plays the card that leaves the CPU another card to play
next (the new top takes one of its other hand cards), else its first card that fits; a
careless one plays the first card that fits, onto the first pile it fits. It calls for the
flip when nobody can play, and calls the game when its hand and draw pile are empty.

Every draw comes from the CPU's own generator, ``derive(seed, salt)`` of the game seed, so
the CPU never disturbs the deal and a seed replays exactly. The driver calls
``look(game, now)`` whenever the table changes and ``done()`` once the planned action has
been tried. On the device a look is spread over passes as Spit's is (``spit.cpu``):
``glance(game, now)`` draws the next reaction ahead in one pass and looks in another.

>>> from spit.speed import FLIP_ACTION, Game
>>> cpu = SpeedCpu(0, "quick", seed=3)
>>> cpu.look(Game(3), 0) and cpu.action == FLIP_ACTION and cpu.due > 0
True
"""

from micropython import const

from spit.cards import adjacent
from spit.cpu import Level, level_named, reaction_draw
from spit.rng import derive
from spit.rules import PHASE_PLAY, PHASE_READY
from spit.speed import FLIP_ACTION, HAND, out, play
from spit.ticks import ticks_add, ticks_diff

# Salt of a seat's generator: seat 0 draws from derive(seed, _SALT), seat 1 from _SALT + 1.
_SALT = const(0x5BED)
# In the last moments of a reaction the card is already on its way (as ``spit.cpu``).
HAND_MS = const(150)


class SpeedCpu:
    """The CPU player in ``seat`` (0 or 1) at a level (a name or a ``spit.cpu.Level``).
    Attributes: ``action`` (the planned action or None) and ``due`` (when it lands, ms)."""

    def __init__(self, seat, level="steady", seed=0):
        self.seat = seat
        self.level = level if isinstance(level, Level) else level_named(level)
        self.rng = derive(seed, _SALT + seat)
        self.careful = True
        self.action = None
        self.due = 0
        self.changed = False  # what the last finished look decided
        # The next reaction and care, drawn ahead (-1: not drawn yet): the draws come in
        # the same order either way, so a seed plays the same.
        self._next_ms = -1
        self._next_careful = True

    def look(self, game, now):
        """Look at the table at ``now`` (ms); True if the CPU changed its mind. The same
        choice keeps its time; a new one starts a fresh reaction, which also draws how
        careful the CPU is, and is chosen again with that care. A hand already moving
        (due within ``HAND_MS``) is not stopped."""
        while not self.glance(game, now):
            pass
        return self.changed

    def looking(self):
        """The next reaction is still to draw: the next ``glance`` draws it."""
        return self._next_ms < 0

    def glance(self, game, now):
        """A look at ``now`` (ms); True once it is made, with ``changed`` set as ``look``
        returns it. None: the glance drew the next reaction ahead, and did nothing else."""
        if self._next_ms < 0:
            self._next_careful = self.rng.below(1000) < self.level.care
            self._next_ms = reaction_draw(self.level, self.rng)
            return None
        self.changed = False
        if self.action is not None and ticks_diff(self.due, now) <= HAND_MS:
            return True
        action = self.choose(game)
        if action == self.action:
            return True
        if action is not None:
            careful = self.careful
            self.careful = self._next_careful
            self.due = ticks_add(now, self._next_ms)
            self._next_ms = -1
            if self.careful != careful:  # the same care sees the same table alike
                action = self.choose(game)
        self.action = action
        self.changed = True
        return True

    def done(self):
        """The planned action has been tried; the next look plans afresh."""
        self.action = None

    def wants_spit(self, game):
        """The flip still wanted: the opening, or nobody can play (``spit.table``)."""
        return game.phase == PHASE_READY or game.is_stuck()

    def choose(self, game):
        """The action the CPU would take now, or None to wait. Draws nothing."""
        seat = self.seat
        if game.phase == PHASE_READY:
            return FLIP_ACTION
        if game.phase != PHASE_PLAY:
            return None
        if game.is_out(seat):
            return out(seat)
        if game.is_stuck():
            return FLIP_ACTION
        hand = game.stock[seat]
        first = None
        for slot in range(HAND):
            if not hand[slot]:
                continue
            card = hand[slot][0]
            for pile in (0, 1):
                if not game.fits(card, pile):
                    continue
                if not self.careful:
                    return play(seat, slot, pile)
                if first is None:
                    first = play(seat, slot, pile)
                if _opens(hand, slot, card):
                    return play(seat, slot, pile)
        return first


def _opens(hand, played, card):
    """True when another card in ``hand`` fits ``card``, the top it would make."""
    for slot in range(HAND):
        if slot != played and hand[slot] and adjacent(card, hand[slot][0]):
            return True
    return False
