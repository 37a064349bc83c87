"""The device's flow over its modes (SPEC 5), one pass of the main loop at a time.

Each mode (``spit.modes``: title, attract, settings, error; ``spit.match_mode``;
``spit.self_test``) takes a press, runs a pass and draws its screen; a press or a pass says
which mode comes next, and the controller makes the move. It keeps what the modes share:
the arbiter, built once a power-on so that the fair tie rule's priority lasts until the
power goes off; the match seeds; the listener (``spit.listener``: tones, reaction times);
the scheduler (``spit.scheduler``: which job each pass does, the screen's share and the
break among them); and SPIT held two seconds (the settings between games, or the
self-test's end).

``touch(button, t)``: a debounced press; ``run(now, held)``: a pass, ``held`` the mask of
buttons down. ``screen()`` says which screen shows (``spit.screens``), ``screen_name()``
names it as a player would: the views, the bench and the tests read it. Attributes:
``mode`` (the current mode's code), ``current``, ``modes`` (by code), ``session`` (the
match's, or None), ``seed`` (the next match's), ``scheduler``, ``listener``.
"""

from micropython import const

from spit import games, keys, screens
from spit.arbiter import Arbiter
from spit.listener import Listener
from spit.match_mode import MatchMode
from spit.modes import (
    ATTRACT,
    ERROR,
    MATCH,
    SELF_TEST,
    SETTINGS,
    TITLE,
    Attract,
    Error,
    Settings,
    Title,
)
from spit.rng import derive
from spit.scheduler import Scheduler
from spit.ticks import ticks_diff

HOLD_US = const(2_000_000)
# Both SPIT buttons' bits in the pressed mask (player 1's SPIT is button 7, player 2's 15).
_SPITS = const(1 << 7 | 1 << 15)
_MATCH_SALT = const(0x4D47)
# ``spit.modes``' value, folded here (tests/test_controller.py).
_STAY = const(-1)


def _no_sound(name, now):
    pass


class Controller:
    """``Controller(saved, seed, now, renderer=None, sound=None, on_break=None,
    listener=None, on_game_over=None, clock=None)``: ``saved`` updated in place; ``seed``
    the first match's; ``sound(name, now)`` plays a tone; ``on_break()`` saves and
    collects; ``listener`` hears the controls' events after the device; ``clock()`` reads
    ticks_us (``spit.scheduler``: the caller begins each pass)."""

    def __init__(
        self,
        saved,
        seed,
        now,
        renderer=None,
        sound=None,
        on_break=None,
        listener=None,
        on_game_over=None,
        clock=None,
    ):
        self.saved = saved
        self.arbiter = Arbiter(tie_us=saved.tie_us)
        self.sound = sound or _no_sound
        self.seeds = derive(seed, _MATCH_SALT)
        self.seed = seed  # the next match's: the first is ``seed`` itself
        self.listener = Listener(saved, self.sound, listener)
        self.take = self._take  # bound once: the menus commit with it every pass
        self._held_since = [-1, -1]  # when each SPIT went down, while it stays down
        self.scheduler = Scheduler(clock, self, renderer, on_break)
        match = MatchMode(self, self.listener, on_game_over)
        self.modes = [Title(self), Attract(self), match, Settings(self), Error(self), None]
        self.mode = TITLE
        self.current = self.modes[TITLE]
        self.current.enter(now)

    @property
    def session(self):
        """The match being played, or None."""
        return self.modes[MATCH].session

    def touch(self, button, t):
        self.arbiter.add(button, t)
        self.current.quiet_since = t  # somebody is at the buttons

    def _take(self, button, t, tie):
        code = self.current.press(button, t, tie)
        if code != _STAY:
            self.enter(code, t)

    def run(self, now, held):
        if held & _SPITS or self._held_since[0] >= 0 or self._held_since[1] >= 0:
            self._note_holds(now, held)
        self.scheduler.run(now)

    def _note_holds(self, now, held):
        # A player a call: a loop's frame would be on the heap (``tests/test_frames.py``).
        self._note_hold(0, now, held)
        self._note_hold(1, now, held)

    def _note_hold(self, player, now, held):
        since = self._held_since[player]
        if not held >> keys.button_id(player, keys.SPIT) & 1:
            self._held_since[player] = -1
        elif since < 0:
            self._held_since[player] = now
        elif ticks_diff(now, since) >= HOLD_US:
            code = self.current.hold(now)
            if code != _STAY:
                self._held_since[player] = now
                self.enter(code, now)

    def enter(self, code, now):
        """Move to the mode ``code`` (``spit.modes``) at ``now``."""
        mode = self.modes[code]
        mode.enter(now)  # first: a mode that cannot begin leaves the current one as it was
        if mode is not self.current:
            self.current.leave()
        self.current = mode
        self.mode = code
        self.scheduler.new_screen(now, True)
        self.scheduler.clear()

    def new_match(self, now):
        """Lay out the first game of a new match with the saved settings and seats."""
        self.enter(MATCH, now)
        self.modes[MATCH].deal_now()

    def fail(self, message, now):
        """Leave whatever was going on for the error screen."""
        self.modes[ERROR].message = message
        self.enter(ERROR, now)

    def self_test(self, now):
        """Start the self-test (both SPIT held at power-on)."""
        from spit.self_test import SelfTest  # not at boot: every import costs heap and time

        self.modes[SELF_TEST] = SelfTest(self)
        self.enter(SELF_TEST, now)

    def prepare(self):
        """Import what a press or a timeout may start next: in a break. A match's game is
        imported already, and attract mode comes only after the title, whose break imports
        its game and the settings: imported in a match, their modules would take heap
        that the match's game needs, in the holes its play has left."""
        if self.mode == MATCH:
            games.prepare(self.saved.game)
            return
        # The menu first: made after the games, its lists lay in the heap where they made a
        # round's deal 0.1 ms slower (one pass of 1.72 ms; 1.64 ms so).
        self.modes[SETTINGS].prepare()
        games.prepare(self.saved.game)
        games.prepare(self.modes[ATTRACT].next_game())

    def screen(self):
        """The screen the device shows now (``spit.screens``)."""
        return self.current.screen()

    def screen_name(self):
        """The screen shown now, as a player names it: the play screen is "stuck" while
        it prompts for SPIT (the device never asks: a view's question)."""
        shown = self.screen()
        if shown == screens.PLAY and self.session.table.game.is_stuck():
            shown = screens.STUCK
        return screens.NAMES[shown]

    def word(self):
        """What the players call for SPIT in the chosen game."""
        return games.call_word(self.saved.game, self.saved.options)
