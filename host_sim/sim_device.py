"""The simulated handheld: the firmware's main loop on fake pins, display, buzzer and flash.

``Device`` builds what ``main.boot`` builds on the Pico, from the host's fakes: sixteen
button pins with the IRQ capture, the renderer drawing through the real display driver
onto a virtual panel (``screen=True``), the buzzer on a fake PWM, and a folder of
transcripts. Keys and replays press its pins; the firmware does the rest.
"""

import os
import time

import framebuf
import hardware_setup
from drivers.buttons import IrqButtons
from drivers.buzzer import Buzzer
from drivers.storage import Flash
from drivers.transcripts import Transcripts
from handheld import Handheld
from spit import textview
from spit.cpu import LEVEL_NAMES
from spit.options import GAMES
from spit.render import Renderer
from spit.savedata import PERSON, SaveData
from spit.ticks import TICKS_PERIOD, ticks_add, ticks_diff

from host_sim.display.wiring import wired_display

HUMAN = "human"
PRESS_US = 40_000  # a tap: how long a key the view cannot see released holds its button
SEATS_NOTE = "# simulator seats "  # a comment line the simulator adds to its transcripts
# What each game counts besides its plays, in the headless lines (``Device.finished``).
COUNTED = {GAMES[0]: ("spits", "slaps"), GAMES[1]: ("flips", "reshuffles")}


class SimulatedClock:
    """``ticks_us`` in simulated time, wrapping at 2**30 like the device."""

    def __init__(self, start=0):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, us):
        self.now = (self.now + us) % TICKS_PERIOD


class Device:
    """Constructor: ``Device(clock, options, seed, seats=(HUMAN, HUMAN), screen=False,
    record=None, title=False, game="spit")``: ``clock`` gives ``ticks_us``; ``seats`` are
    ``HUMAN`` or a CPU level; ``screen`` draws onto a virtual panel (``virtual``);
    ``record`` is a folder that keeps every finished game's transcript; ``title`` starts
    on the title screen as at power-on, else a match is laid out at once; ``game`` is
    the game chosen (``spit.options.GAMES``), as the saved settings keep it.

    Methods: ``press(button)`` / ``release(button)``, ``tap(button, us=PRESS_US)``,
    ``step()`` (one pass of the main loop), ``lines()`` (the table as text).

    Attributes: ``pins``, ``buttons``, ``handheld``, ``virtual`` (or None), ``buzzer``
    and its ``pwm``,
    ``finished`` (one dict per game), ``last_event``, ``saved_transcripts`` (paths)."""

    def __init__(
        self,
        clock,
        options,
        seed,
        seats=(HUMAN, HUMAN),
        screen=False,
        record=None,
        title=False,
        game=GAMES[0],
    ):
        self.clock = clock
        self.seed = seed
        self.seats = tuple(seats)
        self.pins = hardware_setup.button_pins()  # in button-id order
        self.buttons = IrqButtons(self.pins, clock)
        saved = SaveData()
        saved.game = game
        saved.options = options
        saved.seats = [PERSON if seat == HUMAN else seat for seat in seats]
        self.virtual = None
        renderer = None
        if screen:
            display, self.virtual = wired_display()
            renderer = Renderer(display, framebuf)
        self.pwm = hardware_setup.buzzer_pwm()
        self.buzzer = Buzzer(self.pwm)
        self.saved_transcripts = []
        transcripts = None
        if record:
            os.makedirs(record, exist_ok=True)
            transcripts = _Recorder(self, Transcripts(record, Flash()))
        self.handheld = Handheld(
            self.buttons,
            clock(),
            saved,
            seed,
            renderer,
            self.buzzer,
            listener=self._event,
            on_game_over=self._game_over,
            transcripts=transcripts,
            clock=clock,
        )
        self.last_event = ""
        self.finished = []
        self._releases = []
        if not title:
            self.handheld.controller.new_match(clock())

    @property
    def controller(self):
        return self.handheld.controller

    @property
    def session(self):
        return self.handheld.session

    def press(self, button):
        """A finger down on ``button`` (nothing if it is down already)."""
        pin = self.pins[button]
        if pin.value():
            pin.press()

    def release(self, button):
        pin = self.pins[button]
        if not pin.value():
            pin.release()

    def tap(self, button, us=PRESS_US):
        """Down now, up ``us`` later (for views that see no key coming up)."""
        if self.pins[button].value():
            self.pins[button].press()
            self._releases.append((button, ticks_add(self.clock(), us)))

    def held(self, button):
        return not self.pins[button].value()

    def step(self):
        """One pass of the main loop."""
        now = self.clock()
        for release in list(self._releases):
            if ticks_diff(now, release[1]) >= 0:
                self.release(release[0])
                self._releases.remove(release)
        self.handheld.step(now)

    def lines(self):
        table = self.session.table
        match = self.session.match
        return textview.lines(table.game, table.controls, self.last_event, match.wins)

    def screen_name(self):
        """Which of the device's screens shows, in a player's words."""
        return self.controller.screen_name()

    def start_game(self, transcript, wins=(0, 0), seats=(HUMAN, HUMAN), match_seed=None):
        """Lay out the deal of ``transcript`` (a ``spit.transcript.Transcript``: its game,
        seed and options) as the match's next game, with nobody but the pins playing it
        (a replay); ``wins`` are the games already won and ``seats`` who the screens name
        in each seat (a CPU seat does not play)."""
        saved = self.handheld.saved
        saved.game = transcript.game
        if transcript.options is not None:  # Speed's keep none: the device's settings stay
            saved.options = transcript.options
        saved.games = list(wins)
        saved.seats = [PERSON if seat == HUMAN else seat for seat in seats]
        controller = self.controller
        if match_seed is not None:
            controller.seed = match_seed  # the game over screen shows it as it was
        controller.new_match(self.clock())
        session = controller.session
        session.lay_out(session.match.rules(transcript.seed, saved.options))

    def _event(self, event, player, detail):
        self.last_event = textview.event_text(event, player, detail)

    def _game_over(self, game, match):
        outcome = game.outcome()
        result = {
            "seed": self.seed,
            "game": len(self.finished) + 1,
            "game_name": game.NAME,
            "game_seed": game.seed,
            "winner": outcome.winner + 1,
            "reason": outcome.reason,
            "rounds": game.round,
            "plays": game.plays,
        }
        for name in COUNTED[game.NAME]:
            result[name] = getattr(game, name)
        result["match"] = list(match.wins)
        self.finished.append(result)


class _Recorder:
    """The firmware's transcript folder, with a comment line naming the seats and the
    games won before this one, so that a replay shows the same screens."""

    def __init__(self, device, store):
        self.device = device
        self.store = store

    def add(self, lines):
        """``lines``: the transcript's lines, as ``Handheld`` hands them to ``Transcripts``."""
        session = self.device.session
        wins = list(session.match.wins)
        wins[session.table.game.outcome().winner] -= 1  # already counted: this game's
        note = "%s%s %s games %d-%d match %d\n" % (
            SEATS_NOTE,
            *self.device.seats,
            *wins,
            session.match.seed,
        )
        name = self.store.add(list(lines) + [note])
        if name is not None:
            self.device.saved_transcripts.append(os.path.join(self.store.folder, name))
        return name


def seats_note(text):
    """``(seats, games won before, match seed)`` from a transcript's simulator comment;
    a device's transcript has none: two people, no games won, no match seed (None)."""
    seats = (HUMAN,) + LEVEL_NAMES
    for line in text.splitlines():
        if not line.startswith(SEATS_NOTE):
            continue
        words = line[len(SEATS_NOTE) :].split()
        if len(words) < 4 or words[0] not in seats or words[1] not in seats:
            continue
        won = words[3].split("-")
        if words[2] != "games" or len(won) != 2 or not (won[0].isdigit() and won[1].isdigit()):
            continue
        match_seed = None
        if len(words) == 6 and words[4] == "match" and words[5].isdigit():
            match_seed = int(words[5])
        return (words[0], words[1]), (int(won[0]), int(won[1])), match_seed
    return (HUMAN, HUMAN), (0, 0), None


class Pacer:
    """Runs ``device`` (on a ``SimulatedClock``) in simulated time that follows the wall
    clock ``speed`` times faster, one main-loop pass per simulated millisecond.

    ``catch_up()`` makes the passes owed since its last call, for at most ``BUDGET_S``
    of wall time so that a view stays responsive; a simulation that cannot keep up
    runs slower instead of skipping passes. ``before_step`` runs before each pass
    (a replay presses its buttons there); ``frozen`` stops the passes."""

    STEP_US = 1000
    BUDGET_S = 0.012
    MAX_OWED_US = 250_000

    def __init__(self, device, clock, speed=1.0, before_step=None, wall=None):
        self.device = device
        self.clock = clock
        self.speed = speed
        self.before_step = before_step
        self.frozen = False
        self._wall = wall or time.monotonic
        self._last = self._wall()
        self._owed = 0.0

    def catch_up(self):
        now = self._wall()
        self._owed += (now - self._last) * self.speed * 1e6
        self._last = now
        deadline = now + self.BUDGET_S
        while self._owed >= self.STEP_US and not self.frozen:
            self.pass_once()
            self._owed -= self.STEP_US
            if self._wall() > deadline:
                break
        self._owed = min(self._owed, self.MAX_OWED_US)

    def pass_once(self):
        if self.before_step is not None:
            self.before_step()
        self.device.step()
        self.clock.advance(self.STEP_US)
