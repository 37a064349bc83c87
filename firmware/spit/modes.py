"""The device's modes (SPEC 5), and those outside a match: the title, attract mode, the
settings and the error screen. The match is ``spit.match_mode``'s, the self-test
``spit.self_test``'s.

Every mode has the same three verbs, and ``spit.controller`` keeps the current one and
makes the moves between them:

- ``press(button, t, tie)``: a press committed at ``t`` (``spit.arbiter``);
- ``run(now)``: the mode's own part of a pass (its timeouts, its game's phase taken up);
  both say which mode comes next, by its code, or ``STAY`` (``SPENT``: the pass did the
  mode's work and carries nothing else);
- ``draw(renderer, now, share)``: a call of its screen with the pass's ``share``
  (``spit.scheduler``); it returns the play screen's controls when it drew the play screen
  (the passes leave it alone until they tell something new), else None.

``enter(now)`` and ``leave()`` are the moves' (a mode's game is made and let go there);
``hold(now)`` is a SPIT held two seconds: the settings, between games.

- Title: the game's name, ``press SPIT`` and the next match's seed. ``L``/``R`` choose
  the game; SPIT starts a match; after ``TITLE_US`` with nobody at the buttons, attract
  mode.
- Attract: the CPU plays itself on the play screen (its own arbiter, so no press reaches
  its game), Spit and Speed in turn. SPIT starts a match; ``L``/``R`` choose the other
  game and show the title; any other button, its game's end or ``ATTRACT_US`` bring the
  title back.
- Settings (``spit.settings_menu``): the game, every rule option, who plays each seat,
  the sound; SPIT saves them and starts a new match (the match reset).
- Error: what went wrong; SPIT, or ``ERROR_US``, bring the title back. Saved tallies and
  settings are untouched, and capture goes on.

Which job a pass does is the scheduler's (``spit.scheduler``). It commits the presses due,
one a pass, to the mode's ``commit``: outside a match the controller's one handler (bound
once), which hands each to the mode current at that press; in a match the table takes
them. A mode with a game names its table (``table``): the scheduler runs its work.
"""

from micropython import const

from spit import games, keys, screens
from spit.options import Options, after
from spit.session import Session
from spit.ticks import ticks_diff

TITLE = const(0)
ATTRACT = const(1)
MATCH = const(2)
SETTINGS = const(3)
ERROR = const(4)
SELF_TEST = const(5)
STAY = const(-1)  # a press or a pass that leaves the mode as it is
SPENT = const(-2)  # a pass that did the mode's work: it carries nothing else
MODE_NAMES = ("title", "attract", "match", "settings", "error", "self-test")

TITLE_US = const(20_000_000)  # long enough to read it and choose the game
ATTRACT_US = const(60_000_000)
ERROR_US = const(15_000_000)
COUNTDOWN_US = const(3_000_000)
ATTRACT_LEVEL = "quick"

# ``spit.games``' phases, folded here (tests/test_games.py holds them to their owner's).
_PHASE_PLAY = const(1)
_PHASE_SLAP = const(2)
_PHASE_OVER = const(3)
_PHASE_DEALING = const(4)
_LEVELS = (ATTRACT_LEVEL, ATTRACT_LEVEL)
_BOTH_CPUS = (True, True)  # attract mode's seats


def word(saved):
    """What the players call for SPIT in the chosen game (``SPIT``, ``SLAM``, ``SPEED``)."""
    return games.call_word(saved.game, saved.options)


def choose_game(saved):
    """``L``/``R`` on the title: the other game, with a new match's tally (a match of the
    other game is not resumed)."""
    saved.game = after(games.NAMES, saved.game)
    saved.games[0] = saved.games[1] = 0


class Mode:
    """Constructor: ``Mode(flow)``, ``flow`` the controller. Attributes read in every pass
    are the instance's (found first): ``in_game`` (a game on the play screen: what the
    screen leaves goes in passes of its own), ``table`` and ``controls`` (that game's,
    else None) and ``commit`` (what takes the device's presses, None while they wait).
    ``since`` is when the mode began, ``quiet_since`` the last press (or that)."""

    SCREEN = screens.TITLE

    def __init__(self, flow):
        self.flow = flow
        self.saved = flow.saved
        self.arbiter = flow.arbiter
        self.commit = flow.take
        self.in_game = False
        self.table = None
        self.controls = None
        self.since = self.quiet_since = 0

    def enter(self, now):
        self.since = self.quiet_since = now

    def leave(self):
        pass

    def hold(self, now):
        return STAY

    def racing(self):
        """A round is being played: no break now."""
        return False

    def screen(self):
        """The screen shown (``spit.screens``)."""
        return self.SCREEN


def start_or_choose(saved, button):
    """The title's keys, in attract mode too: SPIT starts a match (``MATCH``); ``L`` or
    ``R`` choose the other game (``choose_game``) on the title (``TITLE``); else ``STAY``."""
    key = keys.key_of(button)
    if key == keys.SPIT:
        return MATCH
    if key == keys.LEFT or key == keys.RIGHT:
        choose_game(saved)
        return TITLE
    return STAY


class Title(Mode):
    def press(self, button, t, tie):
        code = start_or_choose(self.saved, button)
        if code == TITLE:
            # The new title answers the press first; the save waits for it. The title
            # stays its time from the press.
            self.flow.scheduler.new_screen(t, True)
            return STAY
        return code

    def run(self, now):
        if ticks_diff(now, self.quiet_since) >= TITLE_US:
            return ATTRACT
        return STAY

    def hold(self, now):
        return SETTINGS

    def draw(self, renderer, now, share):
        renderer.screens.title(word(self.saved), self.flow.seed, share)


class Attract(Mode):
    """Attributes: ``session`` (its game, while it plays), ``games`` (its games so far:
    each game in turn)."""

    SCREEN = screens.ATTRACT

    def __init__(self, flow):
        Mode.__init__(self, flow)
        self.in_game = True
        self.session = None
        self.games = 0

    def next_game(self):
        return games.NAMES[self.games % len(games.NAMES)]

    def enter(self, now):
        game = self.next_game()
        self.games += 1
        flow = self.flow
        self.session = Session(
            Options(),
            flow.seeds.next(),
            _LEVELS,
            countdown_us=COUNTDOWN_US,
            scheduler=flow.scheduler,
            game=game,
        )
        Mode.enter(self, now)

    def leave(self):
        self.session = self.table = self.controls = None

    def press(self, button, t, tie):
        code = start_or_choose(self.saved, button)
        return TITLE if code == STAY else code  # somebody came: the title, to choose

    def run(self, now):
        session = self.session
        session.run(now)
        table = self.table = session.table
        self.controls = table.controls
        if table.game.phase == _PHASE_OVER or ticks_diff(now, self.since) >= ATTRACT_US:
            return TITLE
        return STAY

    def hold(self, now):
        return SETTINGS

    def racing(self):
        return self.session.table.game.phase == _PHASE_PLAY

    def draw(self, renderer, now, share):
        # Few locals: this runs every pass it draws (tests/test_frames.py).
        table = self.session.table
        if table.game.phase == _PHASE_DEALING:
            return None
        renderer.play(table.game, table.controls, _BOTH_CPUS, share)
        if table.game.phase == _PHASE_PLAY or table.game.phase == _PHASE_SLAP:
            return table.controls
        return None


class Settings(Mode):
    """Attribute: ``menu``, its rows (``spit.settings_menu``)."""

    SCREEN = screens.SETTINGS

    def __init__(self, flow):
        Mode.__init__(self, flow)
        self.menu = None

    def prepare(self):
        """The menu, made once: in the title's break rather than at boot, whose time every
        module imported then adds to."""
        if self.menu is None:
            from spit.settings_menu import SettingsMenu

            self.menu = SettingsMenu(self.saved)
        return self.menu

    def enter(self, now):
        self.prepare().open()
        Mode.enter(self, now)

    def press(self, button, t, tie):
        key = keys.key_of(button)
        if key == keys.SPIT:
            self.saved.games = [0, 0]
            return MATCH
        self.menu.press(key)
        return STAY

    def run(self, now):
        return STAY

    def draw(self, renderer, now, share):
        menu = self.menu
        renderer.screens.settings(menu.rows, menu.cursor, menu.changes, share)


class Error(Mode):
    """Attribute: ``message``, what the screen says."""

    SCREEN = screens.ERROR

    def __init__(self, flow):
        Mode.__init__(self, flow)
        self.message = ""

    def press(self, button, t, tie):
        return TITLE if keys.key_of(button) == keys.SPIT else STAY

    def run(self, now):
        if ticks_diff(now, self.since) >= ERROR_US:
            return TITLE
        return STAY

    def draw(self, renderer, now, share):
        renderer.screens.error(self.message, share)
