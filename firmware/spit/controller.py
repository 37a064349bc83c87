"""The device's flow over its modes (SPEC 5), one pass of the main loop at a time.

Each mode (``spit.modes``: title, attract, settings, error; ``spit.match_mode``;
``spit.self_test``) takes a press, runs a pass and draws its screen; a press or a pass says
which mode comes next, and the controller makes the move. It keeps what the modes share:
the arbiter, built once a power-on so that the fair tie rule's priority lasts until the
power goes off; the match seeds; the listener (``spit.listener``: tones, reaction times);
the screen's share of the passes (``spit.pace.Drawing``); the break (``on_break()``, where
saving and collecting delay no race), a pass of its own once the new screen is up; and
SPIT held two seconds (the settings between games, or the self-test's end).

``touch(button, t)``: a debounced press; ``run(now, held)``: a pass, ``held`` the mask of
buttons down. ``screen()`` says which screen shows (``spit.screens``), ``screen_name()``
names it as a player would: the views, the bench and the tests read it. Attributes:
``mode`` (the current mode's code), ``current``, ``modes`` (by code), ``session`` (the
match's, or None), ``seed`` (the next match's), ``drawing``, ``listener``.
"""

from micropython import const

from spit import games, keys, screens
from spit.arbiter import Arbiter
from spit.listener import Listener
from spit.match_mode import MatchMode
from spit.modes import ATTRACT, ERROR, MATCH, SELF_TEST, TITLE, Attract, Error, Settings, Title
from spit.pace import Drawing, Pace
from spit.rng import derive
from spit.ticks import ticks_diff

HOLD_US = const(2_000_000)
# A break waits for the new screen to be drawn, this long at most.
BREAK_WAIT_US = const(100_000)
# Both SPIT buttons' bits in the pressed mask (player 1's SPIT is button 7, player 2's 15).
_SPITS = const(1 << 7 | 1 << 15)
_MATCH_SALT = const(0x4D47)
# ``spit.pace``'s and ``spit.modes``' values, folded here (tests/test_controller.py).
_DRAW = const(0)
_STAY = const(-1)


def _no_sound(name, now):
    pass


def _no_break():
    pass


class Controller:
    """``Controller(saved, seed, now, renderer=None, sound=None, on_break=None,
    listener=None, on_game_over=None, pace=None)``: ``saved`` updated in place; ``seed``
    the first match's; ``sound(name, now)`` plays a tone; ``listener`` hears the controls'
    events after the device; ``pace`` is begun by the caller each pass."""

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
        pace=None,
    ):
        self.saved = saved
        self.arbiter = Arbiter(tie_us=saved.tie_us)
        self.pace = pace or Pace()
        self.sound = sound or _no_sound
        self.on_break = on_break or _no_break
        self.seeds = derive(seed, _MATCH_SALT)
        self.seed = seed  # the next match's: the first is ``seed`` itself
        self.listener = Listener(saved, self.sound, listener)
        self.take = self._take  # bound once: the menus commit with it every pass
        self._held_since = [-1, -1]  # when each SPIT went down, while it stays down
        self.drawing = Drawing(self.pace, self.arbiter, renderer)
        self._break_due = False  # a quiet moment came: save and collect in the next pass
        self._break_at = now  # when the break became due
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
            self._enter(code, t)

    def run(self, now, held):
        if self._break_due and not self.current.racing() and self._screen_up(now):
            # Saving and collecting take milliseconds: a pass of their own, once the new
            # screen is up and while nobody races.
            self._break_due = False
            self.on_break()
            return
        if held & _SPITS or self._held_since[0] >= 0 or self._held_since[1] >= 0:
            self._note_holds(now, held)
        drawing = self.drawing
        renderer = drawing.renderer
        if renderer is not None:
            if drawing.answer:
                drawing.answer_now(now, self.current)  # whatever the pace
                return
            # What the screen left from its last call, or a piece of drawing turned away in
            # the last pass, goes first, in a pass of its own: a piece starts early.
            if (renderer.busy or self.pace.waiting == _DRAW) and drawing.alone(now, self.current):
                return
        code = self.current.run(now)
        if code != _STAY:
            self._enter(code, now)
        if renderer is not None:
            drawing.after(now, self.current)

    def _screen_up(self, now):
        """The screen that came with the break is drawn, or has had long enough."""
        return not self.drawing.pending() or ticks_diff(now, self._break_at) >= BREAK_WAIT_US

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
                self._enter(code, now)

    def _enter(self, code, now):
        mode = self.modes[code]
        mode.enter(now)  # first: a mode that cannot begin leaves the current one as it was
        if mode is not self.current:
            self.current.leave()
        self.current = mode
        self.mode = code
        self.new_screen(now, True)
        self.drawing.clear()

    def new_screen(self, t, answer):
        """A new screen, or new values on one, came at ``t``: drawn first (as the answer
        to the press that brought it, with ``answer``), then the break."""
        self.drawing.new_screen(answer)
        self._break_due = True
        self._break_at = t

    def new_match(self, now):
        """Lay out the first game of a new match with the saved settings and seats."""
        self._enter(MATCH, now)
        self.modes[MATCH].deal_now()

    def fail(self, message, now):
        """Leave whatever was going on for the error screen."""
        self.modes[ERROR].message = message
        self._enter(ERROR, now)

    def self_test(self, now):
        """Start the self-test (both SPIT held at power-on)."""
        from spit.self_test import SelfTest  # not at boot: every import costs heap and time

        self.modes[SELF_TEST] = SelfTest(self)
        self._enter(SELF_TEST, now)

    def prepare_games(self):
        """Import the games a press or a timeout may start next: in a break."""
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
