"""The round's clocks (SPEC section 3): when each action was made, what the last one left
to work out, the countdown's end, the automatic spit and the slap time limit.

``update(now)`` runs in every pass of a game, at the commit horizon. What an action left
to work out goes first: whether it left everybody stuck (``stuck_check_at``) and the
reaction clocks' look at it (``Controls.follow_up``), then the spit's work ahead while
they are (``Game.prepare_spit``, a step a pass), then the margin banner a contest noted;
each in a pass that does nothing else. The actions of the clocks
themselves (the opening spit, the automatic spit, the piles settled when nobody slaps) go
through the controls, as a press's would.
"""

from micropython import const

from spit.games import ROUND_ACTIONS, room_for_a_round, slap
from spit.ticks import ticks_diff

# ``spit.games``' values, read in every pass (a const is folded only in its own module).
_PHASE_PLAY = const(1)
_PHASE_SLAP = const(2)

# With spit=auto, how long everybody must be stuck before the device spits.
DEFAULT_AUTO_SPIT_US = const(1_000_000)
# How long the device waits for a slap before it settles the piles itself.
DEFAULT_SLAP_LIMIT_US = const(10_000_000)


class RoundClocks:
    """The clocks of ``controls`` (a ``spit.controls.Controls``) and its game.
    Attributes: ``times`` (the press time of each applied action, beside
    ``game.history``), ``stuck_check_at`` (the time of an action whose table is still to
    be looked at; -1: none), ``since`` (when everybody got stuck, or when the game's
    phase last changed), ``opening_at`` (while counting: when the round opens),
    ``auto_spit_us``, ``slap_limit_us``."""

    def __init__(self, controls):
        self.controls = controls
        self.game = controls.game
        self.contest = controls.contest
        self.auto_spit_us = DEFAULT_AUTO_SPIT_US
        self.slap_limit_us = DEFAULT_SLAP_LIMIT_US
        self.times = []
        self._room = 0  # the length up to which ``times`` has room
        self.room_for_a_round()
        # Whether anybody can move is worked out in the timers' pass, and the screen
        # waits for it rather than work it out in a pass that draws.
        self.stuck_check_at = -1
        self._stuck = False
        self._preparing = False
        self.since = 0
        self.opening_at = 0

    def room_for_a_round(self):
        """Room for the press times of a round's actions, made before the deal as the game
        makes it in its history, so that a press allocates nothing; True if it was short
        and is made now."""
        room = self._room
        if room - len(self.times) >= ROUND_ACTIONS:
            return False  # most rounds: a call less in the deal's pass
        self._room = room_for_a_round(self.times, room)
        return self._room != room

    def countdown_left(self, now):
        """While counting: the µs left before the round opens."""
        return ticks_diff(self.opening_at, now)

    def update(self, now):
        """Run the clocks at ``now``: first what the last action left to work out, then
        the countdown, the automatic spit and the slap time limit. True when this pass
        did work that fills it (that, or an action of the clocks): the rest waits for the
        next."""
        if self.stuck_check_at >= 0:
            self._note_stuck()
            return True
        if self._preparing:
            self._preparing = self.game.prepare_spit()
            if self._preparing:
                return True
        if self.contest.unsettled:
            self.contest.settle()
            self.controls.changes += 1  # the banner is there to show
        game = self.game
        # In the order of how often: the countdown runs only before a round opens.
        if game.phase == _PHASE_PLAY:
            if not (self._stuck and game.options.spit == "auto"):
                return False
            if ticks_diff(now, self.since) < self.auto_spit_us:
                return False
            self.controls.spit(now)
        elif game.phase == _PHASE_SLAP:
            if ticks_diff(now, self.since) < self.slap_limit_us:
                return False
            self.controls.settle_piles(self.unslapped_action(), now)
        elif self.controls.counting:
            if ticks_diff(now, self.opening_at) < 0:
                return False
            self.controls.open_round(self.opening_at)
        else:
            return False
        return True

    def unslapped_action(self):
        """How the device settles a round nobody slapped: a player who cleared their
        stock is given the smaller pile; after a stall each takes their own spit pile,
        and the lone pile goes to the player with more stock left (on equal stock, to
        the player who spat onto it last)."""
        game = self.game
        if game.cleared >= 0:
            return slap(game.cleared, game.smaller_pile())
        if not game.one_pile():
            return slap(0, 0)
        left = [game.stock_count(0), game.stock_count(1)]
        if left[0] == left[1]:
            return slap(game.spit_turn, 0)
        return slap(0 if left[0] < left[1] else 1, 0)

    def _note_stuck(self):
        """Whether the last action left everybody stuck, and since when: when the clocks
        run next, never in a pass that commits a press (the rules work it out once an
        action, about 0.2 ms on the Pico). Presses in passes in a row may have applied
        another action by then: its time counts, the later one, so the automatic spit
        never comes early."""
        stuck = self.game.is_stuck()
        if self.controls.follow_up is not None:
            self.controls.catch_up()  # the reaction clocks' look: the rules' answers are known now
        if stuck and not self._stuck:
            self.since = self.stuck_check_at
        self._stuck = stuck
        self._preparing = stuck  # the spit's work ahead, in the clocks' next passes
        self.stuck_check_at = -1
