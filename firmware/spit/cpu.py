"""The CPU player: what it would do now, and how long it takes to do it.

A CPU sits in one seat and reads the same table a person would: its own
face-up stock tops, the opponent's, the spit piles. It never peeks at a hidden
card. Its play follows the rule texts' advice:

- play from the deepest pile first, so buried cards come up sooner, and put
  a card where it opens the CPU's next card and not where it hands the
  opponent a run: each play scores its pile's depth plus two for every own
  face-up card the two spit tops then take, minus two for every one of the
  opponent's (in self-play this mix beats depth alone 55 games in 100);
- fill a gap from the deepest pile (or, with ``stack=on``, stack onto a
  same-rank top), but only to turn up a hidden card;
- call spit only when nobody can move; slap the smaller pile.

A difficulty level is a reaction-time model (a bell-shaped draw with a mean
and a spread, in milliseconds, never below a floor) plus how often a look at
the table is careful. A careless look plays the first card it sees that
fits, onto the near pile, digs from the leftmost pile and can't tell spit
piles apart that are within a few cards of each other.

Every draw comes from the CPU's own generator, ``derive(seed, salt)`` of the
game seed, so the CPU never disturbs the deal and a seed replays exactly.

A CPU keeps a plan: the action it is reaching for and when it lands. The
driver (self-play, the game controller) calls ``look(game, now)`` whenever the
table changes and ``done()`` once the planned action has been tried. On the
device a look is spread over passes of the main loop: ``glance(game, now)`` does
one part of it (the plays, the digs, whether anybody is stuck), each well under
a millisecond on the Pico, and a look is exactly its glances run back to back:

>>> from spit.rules import Game
>>> game = Game(3)
>>> cpu = Cpu(0, "quick", seed=3)
>>> cpu.look(game, 0)
True
>>> cpu.action == SPIT_ACTION and cpu.due > 0
True
"""

from micropython import const

from spit.cards import FITS, RANK_COUNT, rank
from spit.rng import derive
from spit.rules import PHASE_PLAY, PHASE_READY, PHASE_SLAP, SPIT_ACTION, move, play, slap
from spit.ticks import ticks_add, ticks_diff
from spit.twins import count_fits, fitting_ranks

# Salt of a seat's generator: seat 0 draws from derive(seed, _SALT), seat 1 from _SALT + 1.
_SALT = const(0x5EA7)
# In the last moments of a reaction the card is already on its way: a change on the
# table then comes too late to stop the hand, and the card may land where it no
# longer fits (and go back).
HAND_MS = const(150)
# A careless look can't tell spit piles apart that differ by this many cards or fewer.
_CLOSE = const(3)
# A face-up card that the spit tops take after a play counts as much as two cards of depth.
_FIT_WEIGHT = const(2)
# Digging weighs a face-up card on a pile above any depth.
_UP_WEIGHT = const(64)
_RANKS = const(13)  # RANK_COUNT, inlined by the compiler
# The parts of a look, in order (``Cpu._part``): the best play, the best dig, stuck.
_PLAYS = const(0)  # a slot with a card that fits at a time
_DIGS = const(1)
_STUCK = const(2)
_LOOKING = const(-2)  # no action yet: the look goes on at the next glance
# The ranks one above and one below each rank, round the ace.
_ABOVE = bytes((face + 1) % RANK_COUNT for face in range(RANK_COUNT))
_BELOW = bytes((face - 1) % RANK_COUNT for face in range(RANK_COUNT))


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


class Cpu:
    """The CPU player in ``seat`` (0 or 1) at a level (a name or a ``Level``).

    Methods: ``choose(game)``, ``reaction_ms()``, ``wants_spit(game)``,
    ``slap_choice(game)``, and the plan: ``look(game, now)``, ``done()``.
    Attributes: ``action`` (the planned action or None) and ``due`` (when it
    lands, a ``ticks_add`` value in ms).
    """

    def __init__(self, seat, level="steady", seed=0):
        self.seat = seat
        self.level = level if isinstance(level, Level) else level_named(level)
        self.rng = derive(seed, _SALT + seat)
        self.careful = True
        # Scratch counts for scoring plays, kept to allocate nothing per look.
        self._mine = bytearray(RANK_COUNT)
        self._theirs = bytearray(RANK_COUNT)
        self.action = None
        self.due = 0
        # The next reaction, drawn ahead in a glance of its own (-1: not drawn yet), so that
        # neither the look which needs it nor the press before it pays for the draws.
        self._next_ms = -1
        self._next_careful = True
        # A look under way: the part it has reached, the table it began on (the length
        # of its history), and whether it is choosing again with a new care. While it
        # scores plays: the next stock slot (-1: none yet), the spit tops' ranks,
        # how many of the counts that score a play are made (two), and the best play.
        self._part = _PLAYS
        self._slot = -1
        self._ranks = 0
        self._counted = 0
        self._best = None
        self._best_score = 0
        self._table = -1
        self._again = False
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
        if self._next_ms < 0:
            return True
        return self._part != _PLAYS or self._slot >= 0 or self._again

    def glance(self, game, now):
        """One part of a look at ``now`` (ms); True once the look is finished, with
        ``changed`` set as ``look`` returns it. A look whose table moved on since it
        began (an action applied) starts again on the new one. None: the glance drew the
        next reaction ahead (about 0.15 ms on the Pico), and did nothing else, rather
        than in the pass that presses the buttons of the last one."""
        if self._next_ms < 0:
            self._draw_next()
            return None  # not a look's part: the table has not been looked at
        if self._table != len(game.history):
            self._table = len(game.history)
            self._part = _PLAYS
            self._slot = -1
            self._again = False
        if not self._again and self.action is not None and ticks_diff(self.due, now) <= HAND_MS:
            return self._finish(False)
        action = self._choose_part(game)
        if action == _LOOKING:
            return False
        if self._again:  # chosen with the new care, the reaction already drawn
            self._again = False
            self.action = action
            return self._finish(True)
        if action == self.action:
            return self._finish(False)
        if action is not None:
            careful = self.careful
            self.due = ticks_add(now, self.reaction_ms())
            if self.careful != careful:  # the same care sees the same table alike
                self._again = True
                return False
        self.action = action
        return self._finish(True)

    def _finish(self, changed):
        self.changed = changed
        self._table = -1  # the next look starts afresh, wherever this one ended
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

        ``SPIT_ACTION`` means the CPU calls spit; it happens once both players call."""
        self._part = _PLAYS
        self._slot = -1
        action = self._choose_part(game)
        while action == _LOOKING:
            action = self._choose_part(game)
        return action

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
                action = SPIT_ACTION
            if action is None and part != _STUCK:
                self._part = part + 1
                return _LOOKING
            self._part = _PLAYS
            return action
        self._part = _PLAYS
        if phase == PHASE_READY:
            return SPIT_ACTION
        if phase == PHASE_SLAP:
            return self.slap_choice(game)
        return None

    def wants_spit(self, game):
        """Spit to start a round, or when nobody can move (an empty pack still agrees)."""
        return game.phase == PHASE_READY or game.is_stuck()

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
