"""What every game's CPU player shares: the levels, and the plan it keeps and the glances
it looks at the table in. A game's CPU player (``spit.spit_cpu``, ``spit.speed_cpu``)
adds only what it chooses.

A difficulty level is a reaction-time model (a bell-shaped draw with a mean and a spread,
in milliseconds, never below a floor) plus how often a look at the table is careful;
what a careless look misses is the game's own.

Every draw comes from the CPU's own generator, ``derive(seed, SALT + seat)`` of the game
seed with its game's salt, so the CPU never disturbs the deal and a seed replays exactly.

A CPU keeps a plan: the action it is reaching for and when it lands. The driver
(self-play, the game controller) calls ``look(game, now)`` whenever the table changes and
``done()`` once the planned action has been tried. On the device a look is spread over
passes of the main loop: ``glance(game, now)`` does one part of it, and a look is exactly
its glances run back to back. A game's choice may itself come in parts (Spit's: the
plays, the digs, whether anybody is stuck), each a glance.

This module is imported at boot (the save names the levels): nothing of a game's here.
"""

from micropython import const

from spit.games import PHASE_READY
from spit.rng import derive
from spit.ticks import ticks_add, ticks_diff

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
isinstance, len, max = isinstance, len, max

# In the last moments of a reaction the card is already on its way: a change on the
# table then comes too late to stop the hand, and the card may land where it no
# longer fits (and go back).
HAND_MS = const(150)
# What a part of a choice returns when it has not chosen yet: the look goes on at the
# next glance. (A game's CPU keeps its own const of it: a const is inlined only in its
# module.)
LOOKING = const(-2)
# Where a look stands (``CpuPlayer._look``): none under way; its choice goes on over
# glances; chosen, to be chosen again with a new care; finished by a moving hand before
# its choice was made.
_NO_LOOK = const(0)
_UNDER_WAY = const(1)
_AGAIN = const(2)
_CUT_SHORT = const(3)


class Level:
    """A difficulty: reaction time ``mean_ms`` +- ``spread_ms`` (about one standard
    deviation), never under ``floor_ms``, and ``care`` looks in 1000 careful."""

    def __init__(self, name, mean_ms, spread_ms, floor_ms, care):
        self.name = name
        self.mean_ms = mean_ms
        self.spread_ms = spread_ms
        self.floor_ms = floor_ms
        self.care = care

    def __repr__(self):
        return "Level(%r)" % self.name


# Easiest first. Floors sit about 2.5 spreads under the mean, so they trim only the
# rare fast tail and the mean stays where the table says.
LEVELS = (
    Level("relaxed", 1500, 400, 500, 400),
    Level("steady", 1000, 250, 380, 750),
    Level("quick", 650, 150, 280, 930),
    Level("lightning", 400, 80, 200, 1000),
)
LEVEL_NAMES = tuple(level.name for level in LEVELS)


def reaction_draw(level, rng):
    """A reaction's length at ``level`` (ms), drawn from ``rng``: the mean plus a sum of
    three uniform draws of +-spread (a cheap bell curve whose standard deviation is about
    the spread), at least the floor."""
    spread = level.spread_ms
    width = 2 * spread + 1
    ms = level.mean_ms - 3 * spread + rng.below(width) + rng.below(width) + rng.below(width)
    return max(ms, level.floor_ms)


def level_named(name):
    for level in LEVELS:
        if level.name == name:
            return level
    raise ValueError("no level %r; the levels are %s" % (name, ", ".join(LEVEL_NAMES)))


class CpuPlayer:
    """The CPU player in ``seat`` (0 or 1) at a level (a name or a ``Level``), drawing
    from ``derive(seed, SALT + seat)``.

    Methods: ``choose(game)``, ``reaction_ms()``, ``wants_spit(game)``, and the plan:
    ``look(game, now)``, ``glance(game, now)``, ``looking()``, ``done()``. Attributes:
    ``action`` (the planned action or None) and ``due`` (when it lands, a ``ticks_add``
    value in ms).

    A game's player sets ``SALT`` and gives ``_choose_part(game)``: the action it would
    take now (None to wait, ``CALL_ACTION`` for a SPIT press), drawing nothing and reading
    ``careful``, or ``LOOKING`` with the choice to go on at the next call. A choice in
    parts keeps how far it got in ``_part`` (0: the first part) and ``_slot`` (-1: the
    part not begun), and sets them back once it has chosen; a look that starts again
    sets them back too. The player's class holds ``glance``, ``looking`` and ``done``
    itself (``glance = CpuPlayer.glance``): the table calls them every pass.
    """

    def __init__(self, seat, level="steady", seed=0):
        self.seat = seat
        self.level = level if isinstance(level, Level) else level_named(level)
        self.rng = derive(seed, self.SALT + seat)
        self.careful = True
        self.action = None
        self.due = 0
        # The next reaction, drawn ahead in a glance of its own (-1: not drawn yet), so that
        # neither the look which needs it nor the press before it pays for the draws.
        self._next_ms = -1
        self._next_careful = True
        # A look: where it stands, the table it began on (the length of its history) while
        # one is under way, and how far its choice got.
        self._look = _NO_LOOK
        self._table = 0
        self._part = 0
        self._slot = -1
        self.changed = False  # what the last finished look decided

    # -- the plan -----------------------------------------------------------

    def look(self, game, now):
        """Look at the table at ``now`` (ms); True if the CPU changed its mind.

        The same choice keeps its time; a new one starts a fresh reaction, which also
        draws how careful the CPU is, so it looks again before it settles on the
        action. A hand already moving (due within ``HAND_MS``) is not stopped."""
        while not self.glance(game, now):
            pass
        return self.changed

    def looking(self):
        """A look is under way, or the next reaction is still to draw: the next ``glance``
        goes on with it. (A method: a property on the class would slow every attribute
        store on a CPU on MicroPython.)"""
        return self._next_ms < 0 or self._look != _NO_LOOK

    def glance(self, game, now):
        """One part of a look at ``now`` (ms); True once the look is finished, with
        ``changed`` set as ``look`` returns it. A look whose table moved on since it
        began (an action applied) starts again on the new one. None: the glance drew the
        next reaction ahead (about 0.15 ms on the Pico), and did nothing else, rather
        than in the pass that presses the buttons of the last one.

        It runs in a pass of play: a call costs some 12 µs on the Pico, and a look of one
        glance (``_look`` stays ``_NO_LOOK``: ``not look`` spares it the comparisons)
        reads neither the table nor the state of a look under way."""
        if self._next_ms < 0:
            self._next_careful = self.rng.below(1000) < self.level.care
            self._next_ms = reaction_draw(self.level, self.rng)
            return None  # not a look's part: the table has not been looked at
        look = self._look
        if look and (look == _CUT_SHORT or self._table != len(game.history)):
            # The table moved on since the look began, or the look was cut short: it
            # starts again.
            look = self._look = _NO_LOOK
            self._part = 0
            self._slot = -1
        if (
            (not look or look != _AGAIN)
            and self.action is not None
            and ticks_diff(self.due, now) <= HAND_MS
        ):
            if look:
                self._look = _CUT_SHORT  # its choice is set back at the next glance
            self.changed = False
            return True
        action = self._choose_part(game)
        if action == self.action and (not look or look != _AGAIN):  # never LOOKING
            if look:
                self._look = _NO_LOOK
            self.changed = False
            return True
        if action == LOOKING:
            if not look:
                self._look = _UNDER_WAY
                self._table = len(game.history)
            return False
        if action is not None and (not look or look != _AGAIN):
            # A new reaction: the one drawn ahead, with its care (``reaction_ms``).
            careful = self.careful
            self.careful = self._next_careful
            self.due = ticks_add(now, self._next_ms)
            self._next_ms = -1
            if self.careful != careful:  # the same care sees the same table alike
                if not look:
                    self._table = len(game.history)
                self._look = _AGAIN
                return False
        self.action = action  # chosen afresh, or again with the new care
        self.changed = True
        if look:
            self._look = _NO_LOOK
        return True

    def done(self):
        """The planned action has been tried; the next look plans afresh."""
        self.action = None

    # -- deciding -----------------------------------------------------------

    def reaction_ms(self):
        """Start a new reaction: draw how long it takes (``reaction_draw``) and whether
        this look is careful. A reaction drawn ahead is taken first: the generator's draws
        come in the same order either way, so a seed plays the same."""
        if self._next_ms < 0:
            self._draw_next()
        ms = self._next_ms
        self._next_ms = -1
        self.careful = self._next_careful
        return ms

    def _draw_next(self):
        self._next_careful = self.rng.below(1000) < self.level.care
        self._next_ms = reaction_draw(self.level, self.rng)

    def choose(self, game):
        """The action the CPU would take now, or None to wait. Draws nothing: the same
        table gives the same answer until the next ``reaction_ms()``.

        ``CALL_ACTION`` means the CPU presses SPIT (Spit's spit, Speed's flip); it happens
        once both players call."""
        self._part = 0
        self._slot = -1
        action = self._choose_part(game)
        while action == LOOKING:
            action = self._choose_part(game)
        return action

    def wants_spit(self, game):
        """SPIT still wanted: the opening, or nobody can move (an empty pack still
        agrees)."""
        return game.phase == PHASE_READY or game.is_stuck()
