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

from spit.cards import FITS
from spit.cpu import Level, level_named, reaction_draw
from spit.rng import derive
from spit.rules import PHASE_PLAY, PHASE_READY
from spit.speed import FLIP_ACTION, HAND, out, play
from spit.ticks import ticks_add, ticks_diff

# Salt of a seat's generator: seat 0 draws from derive(seed, _SALT), seat 1 from _SALT + 1.
_SALT = const(0x5BED)
_RANKS = const(13)  # RANK_COUNT, inlined by the compiler
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
        self._again = False  # the look goes on: its choice made again with a new care

    def look(self, game, now):
        """Look at the table at ``now`` (ms); True if the CPU changed its mind. The same
        choice keeps its time; a new one starts a fresh reaction, which also draws how
        careful the CPU is, and is chosen again with that care. A hand already moving
        (due within ``HAND_MS``) is not stopped."""
        while not self.glance(game, now):
            pass
        return self.changed

    def looking(self):
        """The next reaction is still to draw, or the look is to be made again with a new
        care: the next ``glance`` goes on with it."""
        return self._next_ms < 0 or self._again

    def glance(self, game, now):
        """A look at ``now`` (ms), or its part; True once it is made, with ``changed`` set
        as ``look`` returns it. None: the glance drew the next reaction ahead, and did
        nothing else."""
        if self._next_ms < 0:
            self._next_careful = self.rng.below(1000) < self.level.care
            self._next_ms = reaction_draw(self.level, self.rng)
            return None
        self.changed = False
        if self._again:  # chosen again with the care just drawn, the reaction drawn
            self._again = False
            return self._decide(self.choose(game))
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
                self._again = True
                return False  # a look costs hundreds of µs on the device: the next glance
        return self._decide(action)

    def _decide(self, action):
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
        """The action the CPU would take now, or None to wait. Draws nothing. The tops'
        fits are read once: a look runs in a pass of play on the device."""
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
