"""The simulated handheld: the firmware's main loop on fake pins, display, buzzer and flash.

``Device`` builds what ``main.boot`` builds on the Pico, from the host's fakes: sixteen
button pins with the IRQ capture, the renderer drawing through the real display driver
onto a virtual panel (``screen=True``), the buzzer on a fake PWM, a folder of
transcripts, and the save file (``SimSave``, in a folder of the user's: ``save_path``).
Keys and replays press its pins; the firmware does the rest.
"""

import contextlib
import os
import time

import framebuf
import hardware_setup
from drivers.buttons import IrqButtons
from drivers.buzzer import Buzzer
from drivers.storage import Flash, Storage
from drivers.transcripts import Transcripts
from handheld import Handheld
from spit import games, textview
from spit.cpu import LEVEL_NAMES
from spit.render import Renderer
from spit.savedata import PERSON, SaveData
from spit.ticks import TICKS_PERIOD, ticks_add, ticks_diff
from spit.transcript import SEED_LIMIT, number_below

from host_sim.display.wiring import wired_display

HUMAN = "human"
DEFAULT_CPU = "steady"  # the level of a seat given as plain ``cpu``, and player 2's at first
SAVE_NAME = "spit.json"
PRESS_US = 40_000  # a tap: how long a key the view cannot see released holds its button
SEATS_NOTE = "# simulator seats "  # a comment line the simulator adds to its transcripts
NOTED_WINS = 1000  # more games won than a note of the simulator's says


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
    record=None, title=False, game="spit", save=None)``: ``clock`` gives ``ticks_us``;
    ``seats`` are ``HUMAN`` or a CPU level; ``screen`` draws onto a virtual panel
    (``virtual``); ``record`` is a folder that keeps every finished game's transcript;
    ``title`` starts on the title screen as at power-on, else a match is laid out at
    once; ``game`` is the game chosen (a name in ``spit.games``); ``save`` (a ``SimSave``)
    is read at the start and written between rounds, as on the device: the settings it
    keeps stand in for ``options``, ``seats`` and ``game`` but for those it was given.

    Methods: ``press(button)`` / ``release(button)``, ``tap(button, us=PRESS_US)``,
    ``step()`` (one pass of the main loop), ``lines()`` (the table as text),
    ``match_seed()``, ``recorded()`` and ``save_note()`` (for beside the screen).

    Attributes: ``pins``, ``buttons``, ``handheld``, ``virtual`` (or None), ``buzzer``
    and its ``pwm``, ``seats`` (as played), ``save``, ``finished`` (one dict per game),
    ``last_event``, ``saved_transcripts`` (paths)."""

    def __init__(
        self,
        clock,
        options,
        seed,
        seats=(HUMAN, HUMAN),
        screen=False,
        record=None,
        title=False,
        game="spit",
        save=None,
    ):
        self.clock = clock
        self.seed = seed
        self.pins = hardware_setup.button_pins()  # in button-id order
        self.buttons = IrqButtons(self.pins, clock)
        saved = SaveData()
        saved.game = game
        saved.options = options
        saved.seats = [PERSON if seat == HUMAN else seat for seat in seats]
        self.save = save
        if save is not None:
            saved = save.for_run(saved)
        self.seats = tuple(HUMAN if seat == PERSON else seat for seat in saved.seats)
        self.virtual = None
        renderer = None
        if screen:
            display, self.virtual = wired_display()
            renderer = Renderer(display, framebuf)
        self.pwm = hardware_setup.buzzer_pwm()
        self.buzzer = Buzzer(self.pwm, saved.muted)
        self.saved_transcripts = []
        self._finished_game = None  # the last game over
        self._recorded_game = None  # the game whose transcript went last to the folder
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
            save,
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

    def match_seed(self):
        """The seed of the match being played; on the title, the next match's (as the
        title shows it)."""
        session = self.session
        return self.controller.seed if session is None else session.match.seed

    def recorded(self):
        """Where the transcript of the game on the screen went, or None (not written
        yet, or another game is on the screen)."""
        session = self.session
        if session is None or session.table.game is not self._recorded_game:
            return None
        return self.saved_transcripts[-1]

    def note_recorded(self, path):
        """The last game over's transcript went to ``path``."""
        self.saved_transcripts.append(path)
        self._recorded_game = self._finished_game

    def save_note(self):
        """Where the settings and tallies are kept, and a save that failed; "" when this
        run keeps none (a replay, headless games)."""
        save = self.save
        if save is None:
            return ""
        if save.problem:
            return "save file: %s (%s)" % (_shown_path(save.path), save.problem)
        return "save file: " + _shown_path(save.path)

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
        self._finished_game = game
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
        for name in games.rules(game.NAME).COUNTED:  # besides its plays
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
            self.device.note_recorded(os.path.join(self.store.folder, name))
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
        won = [number_below(n, NOTED_WINS) for n in words[3].split("-")]
        if words[2] != "games" or len(won) != 2 or None in won:
            continue
        match_seed = None
        if len(words) == 6 and words[4] == "match":
            match_seed = number_below(words[5], SEED_LIMIT)
        return (words[0], words[1]), (won[0], won[1]), match_seed
    return (HUMAN, HUMAN), (0, 0), None


def save_path():
    """The simulator's save file: ``spit.json`` (the device's name for it) in
    ``$XDG_DATA_HOME/spit-handheld``, else in ``~/.local/share/spit-handheld``."""
    data = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(data):  # unset, or relative: the XDG spec says to ignore it
        data = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "spit-handheld", SAVE_NAME)


def _shown_path(path):
    """``path`` with the home folder as ``~``, as a person types it."""
    home = os.path.expanduser("~")
    if home not in ("", os.sep) and path.startswith(home + os.sep):
        return "~" + path[len(home) :]
    return path


class HostFlash(Flash):
    """The laptop's filesystem as the device's flash. A rename replaces the file it
    lands on, as on the device's littlefs (``os.rename`` refuses that on Windows)."""

    def rename(self, old, new):
        os.replace(old, new)


class SimSave(Storage):
    """The device's save file (``drivers.storage``, the same JSON) on the laptop: the
    settings (the game, rule options, seats, sound, tie window), the games won in the
    match being played, the matches won and the reaction records.

    Constructor: ``SimSave(path, fresh=False, given=())``: ``fresh`` starts from the
    defaults, saved over the file at once (the old one stays as ``.bak``);
    ``given`` names the settings the command line sets (``game``, ``p1``, ``p2``, rule
    options). Those hold for the run only: the file keeps its own values of them
    unless a person changes them on the device (the title's L/R, the settings), and a
    run whose given settings differ from the file's plays a match of its own, leaving
    the file's match in progress as it was. Method: ``for_run(run)``."""

    def __init__(self, path, fresh=False, given=()):
        super().__init__(path, HostFlash())
        self.fresh = fresh
        self.given = tuple(given)
        self._kept = {}  # a given setting -> (its value in this run, the file's)
        self._games = [0, 0]  # the file's match in progress

    def for_run(self, run):
        """The ``SaveData`` the device starts with: the file's (none yet, or
        ``fresh``: the defaults and ``run``'s seats), with ``run``'s values of the
        given settings."""
        data = SaveData() if self.fresh else self.load()
        if self.loaded_from is None:  # no file yet, a damaged one, or --fresh
            data.seats = [PERSON, DEFAULT_CPU]  # a person against the CPU, as make sim
        self._games = list(data.games)
        other = False
        for name in self.given:
            value = _setting(run, name)
            self._kept[name] = (value, _setting(data, name))
            other = other or value != _setting(data, name)
            _put(data, name, value)
        if other:
            data.games = [0, 0]  # another match than the file's
        if self.fresh:
            self.save(data)  # the file starts afresh too, even if the run saves nothing
        return data

    def save(self, data):
        with contextlib.suppress(OSError):  # else the save fails, and the screen says why
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
        return super().save(self._as_kept(data))

    def _as_kept(self, data):
        """``data`` with the file's own values of the given settings the run still
        plays with."""
        if not self._kept:
            return data
        kept = SaveData.parse(data.text())
        other = False
        for name, (value, before) in list(self._kept.items()):
            if _setting(data, name) != value:
                del self._kept[name]  # changed on the device: saved as it is now
                continue
            _put(kept, name, before)
            other = other or value != before
        if other:
            kept.games = list(self._games)
        return kept


def _setting(data, name):
    """One setting of ``SaveData`` by its flag's name (``game``, ``p1``, ``layout``...)."""
    if name == "game":
        return data.game
    if name in ("p1", "p2"):
        return data.seats[int(name[1]) - 1]
    return data.options.get(name)


def _put(data, name, value):
    if name == "game":
        data.game = value
    elif name in ("p1", "p2"):
        data.seats[int(name[1]) - 1] = value
    else:
        data.options.set(name, value)


class Pacer:
    """Runs ``device`` (on a ``SimulatedClock``) in simulated time that follows the wall
    clock ``speed`` times faster, one main-loop pass per simulated millisecond.

    ``catch_up(listen=None)`` makes the passes owed since its last call, for at most
    ``BUDGET_S`` of wall time so that a view stays responsive, calling ``listen``
    between them; a simulation that cannot keep up runs slower instead of skipping
    passes. ``before_step`` runs before each pass (a replay presses its buttons
    there); ``frozen`` stops the passes.

    Keys reach the pins at their own times: ``device_time()`` is the device's clock
    at the wall-clock moment a view reads a key (where the passes owed will take it),
    and ``press_at(t, button, down)`` presses or releases the pin at ``t``, between the
    passes around it, so the capture stamps ``t``: two keys 120 ms apart are 120 ms
    apart on the device however late the passes run."""

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
        self._edges = []  # (t, button, down) still to come, in time order
        self._heard = None  # the last ``device_time()``

    def catch_up(self, listen=None):
        now = self._wall()
        self._owed += (now - self._last) * self.speed * 1e6
        self._last = now
        deadline = now + self.BUDGET_S
        while self._owed >= self.STEP_US and not self.frozen:
            self.pass_once()
            self._owed -= self.STEP_US
            if listen is not None:
                listen()
            if self._wall() > deadline:
                break
        self._owed = min(self._owed, self.MAX_OWED_US)

    def device_time(self):
        """The device's clock now by the wall clock: the clock plus the time owed."""
        ahead = self._owed + (self._wall() - self._last) * self.speed * 1e6
        t = ticks_add(self.clock(), max(0, int(ahead)))
        if self._heard is not None and ticks_diff(t, self._heard) < 0:
            t = self._heard  # time owed was dropped: never before a key heard earlier
        self._heard = t
        return t

    def press_at(self, t, button, down=True):
        """``button`` goes down (``down``) or up at device time ``t``."""
        edges = self._edges
        at = len(edges)
        while at and ticks_diff(t, edges[at - 1][0]) < 0:
            at -= 1
        edges.insert(at, (t, button, down))

    def tap(self, button, us=PRESS_US):
        """A key that the view sees go down but not up: down now, up ``us`` later."""
        t = self.device_time()
        self.press_at(t, button)
        self.press_at(ticks_add(t, us), button, False)

    def pass_once(self):
        if self.before_step is not None:
            self.before_step()
        self.device.step()
        self._on_to_next_pass()

    def _on_to_next_pass(self):
        """The clock on to the next pass, the pins that change on the way each at its time."""
        clock = self.clock
        end = ticks_add(clock(), self.STEP_US)
        edges = self._edges
        while edges and ticks_diff(end, edges[0][0]) > 0:
            t, button, down = edges.pop(0)
            clock.advance(max(0, ticks_diff(t, clock())))
            if down:
                self.device.press(button)
            else:
                self.device.release(button)
        clock.advance(ticks_diff(end, clock()))
