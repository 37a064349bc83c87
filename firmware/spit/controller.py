"""The device's flow over its screens (SPEC 5), one pass of the main loop at a time.

Modes, and what moves between them:

- ``TITLE``: the name of the game and the seed. A SPIT press starts a match; after
  a few seconds with nobody at the buttons, attract mode.
- ``ATTRACT``: the CPU plays itself on the play screen (its own arbiter, so the
  players' presses never reach its game). A SPIT press starts a match; when its
  game ends, or after a minute, the title again.
- ``MATCH``: a ``Session``: each game's ready screen (both press SPIT), the 3-2-1
  countdown, play with its stuck and slap prompts, the round result, game over and
  the match result. The screen follows the game's phase.
- ``SETTINGS``: every rule option, who plays each seat, the sound. ``L``/``R``
  move between rows, any card button changes the value, ``SPIT`` saves them and
  starts a new match (the match reset).
- ``ERROR``: what went wrong; a SPIT press, or a few seconds, bring the title back.
  Saved tallies and settings are untouched, and capture goes on.

Holding either SPIT for two seconds between games (title, attract mode, a game's
ready screen before its first round, game over, match result) opens the settings.

The arbiter is built here, once per power-on, and serves every match, so the fair
tie rule's priority lasts until the power goes off. Outside a match the controller
commits the presses itself and reads them as menu presses.

Constructor
    ``Controller(saved, seed, now, renderer=None, sound=None, on_break=None,
    listener=None, on_game_over=None)``: ``saved`` is the ``SaveData`` (settings and
    tallies, updated in place); ``seed`` is the first match's seed, and the seeds of
    the matches after it are drawn from it; ``now`` is the time at power-on;
    ``renderer`` draws (None: nothing is drawn); ``sound(name, now)`` plays a tone of
    ``spit.sounds``; ``on_break()`` is called between rounds and games, where saving
    and collecting garbage cannot delay a race; ``listener`` gets the controls'
    events after the controller; ``on_game_over(game, match)`` each finished game.

Methods
    ``touch(button, t)``: a debounced press. ``run(now, held)``: one pass; ``held``
    is the mask of buttons down now. ``new_match(now)``, ``fail(message, now)``.
"""

from micropython import const

from spit import keys
from spit.arbiter import Arbiter
from spit.controls import LOST_RACE, PLAYED, REFUSED, SLAPPED, SPAT
from spit.options import CHOICES, Options
from spit.rng import derive
from spit.rules import PHASE_OVER, PHASE_READY, PHASE_SLAP
from spit.savedata import SEAT_CHOICES
from spit.session import Session
from spit.ticks import ticks_add, ticks_diff

TITLE = const(0)
ATTRACT = const(1)
MATCH = const(2)
SETTINGS = const(3)
ERROR = const(4)
MODE_NAMES = ("title", "attract", "match", "settings", "error")

HOLD_US = const(2_000_000)
TITLE_US = const(6_000_000)
ATTRACT_US = const(60_000_000)
ERROR_US = const(10_000_000)
ROUND_RESULT_US = const(4_000_000)
COUNTDOWN_US = const(3_000_000)
ATTRACT_LEVEL = "quick"

# Settings rows after the rule options.
_SEAT_ROWS = ("P1", "P2")
_SOUND_ROW = "sound"
_SOUND_VALUES = ("on", "off")
_SPITS = (1 << keys.SPIT) | (1 << (keys.KEYS_PER_PLAYER + keys.SPIT))
_EVENT_SOUNDS = {PLAYED: "play", REFUSED: "illegal", LOST_RACE: "illegal", SPAT: "spit"}
_MATCH_SALT = const(0x4D47)


def _nothing(*args):
    pass


class Controller:
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
    ):
        self.saved = saved
        self.arbiter = Arbiter(tie_us=saved.tie_us)
        self.renderer = renderer
        self.sound = sound or _nothing
        self.on_break = on_break or _nothing
        self.listener = listener or _nothing
        self.on_game_over = on_game_over or _nothing
        self._seeds = derive(seed, _MATCH_SALT)
        self.seed = seed  # the next match's: the first is ``seed`` itself
        self.mode = TITLE
        self.session = None
        self.attract = None
        self.message = ""
        self.cursor = 0
        self._since = now  # when the mode began
        self._held_since = [-1, -1]  # when each SPIT went down, while it stays down
        self._menu = self._on_menu_press  # bound once: committed every pass
        self._phase = -1
        self._round = -1
        self._count = -1
        self._now = 0
        self._cpus = (False, False)  # which seats of the match the CPU plays
        self._margin = ""  # the slap's banner text, made when the contest changes
        self._margin_of = (-1, 0, False)

    def touch(self, button, t):
        self.arbiter.add(button, t)

    # -- one pass -----------------------------------------------------------

    def run(self, now, held):
        self._now = now
        self._note_holds(now, held)
        mode = self.mode
        if mode == MATCH:
            self._run_match(now)
        else:
            self.arbiter.commit_due(now, self._menu)
            if self.mode == ATTRACT:
                self.attract.run(now)
                if self.attract.table.game.phase == PHASE_OVER:
                    self._enter(TITLE, now)
            age = ticks_diff(now, self._since)
            if self.mode == TITLE and age >= TITLE_US:
                self._start_attract(now)
            elif self._shown_long_enough(age):
                self._enter(TITLE, now)
        if self.renderer is not None:
            self._draw(now)

    def _shown_long_enough(self, age):
        """Attract mode and the error screen give way to the title in time."""
        if self.mode == ATTRACT:
            return age >= ATTRACT_US
        return self.mode == ERROR and age >= ERROR_US

    def new_match(self, now):
        """Lay out the first game of a new match with the saved settings and seats."""
        saved = self.saved
        levels = saved.levels()
        self._cpus = (levels[0] is not None, levels[1] is not None)
        self.session = Session(
            saved.options,
            self.seed,
            levels,
            self._on_event,
            self._game_over,
            self.arbiter,
            COUNTDOWN_US,
            saved.games,
        )
        self.seed = self._seeds.next()
        self._phase = -1
        self._enter(MATCH, now)

    def fail(self, message, now):
        """Leave whatever was going on for the error screen."""
        self.session = None
        self.attract = None
        self.message = message
        self._enter(ERROR, now)

    # -- modes --------------------------------------------------------------

    def _enter(self, mode, now):
        self.mode = mode
        self._since = now
        if mode != ATTRACT:
            self.attract = None
        if mode != MATCH:
            self.session = None
        self.on_break()
        if self.renderer is not None:
            self.renderer.invalidate()

    def _start_attract(self, now):
        levels = (ATTRACT_LEVEL, ATTRACT_LEVEL)
        self.attract = Session(Options(), self._seeds.next(), levels, countdown_us=COUNTDOWN_US)
        self._enter(ATTRACT, now)

    def _on_menu_press(self, button, t, tie):
        key = keys.key_of(button)
        mode = self.mode
        if mode == SETTINGS:
            self._settings_press(key, t)
        elif key == keys.SPIT:
            if mode == ERROR:
                self._enter(TITLE, t)
            else:
                self.new_match(t)

    def _note_holds(self, now, held):
        for player in (0, 1):
            down = held >> keys.button_id(player, keys.SPIT) & 1
            since = self._held_since[player]
            if not down:
                self._held_since[player] = -1
            elif since < 0:
                self._held_since[player] = now
            elif ticks_diff(now, since) >= HOLD_US and self._between_games():
                self._held_since[player] = now
                self._open_settings(now)

    def _between_games(self):
        if self.mode in (TITLE, ATTRACT):
            return True
        if self.mode != MATCH:
            return False
        game = self.session.table.game
        return game.phase == PHASE_OVER or (game.phase == PHASE_READY and game.round == 0)

    # -- the match ------------------------------------------------------------

    def _run_match(self, now):
        session = self.session
        session.run(now)
        game = session.table.game
        if game.phase != self._phase or game.round != self._round:
            if self._phase == PHASE_SLAP or game.phase == PHASE_OVER:
                self.on_break()  # the round is over: the screen shows its result
            if self._phase == PHASE_SLAP and game.phase != PHASE_OVER:
                self.sound("round", now)
            self._phase = game.phase
            self._round = game.round

    def _on_event(self, event, player, detail):
        name = _EVENT_SOUNDS.get(event)
        if event == SPAT and self._phase == PHASE_READY:
            name = "go"  # the round opens
        elif event == SLAPPED and player >= 0:
            name = "slap"
        if name is not None:
            self.sound(name, self._now)
        self.listener(event, player, detail)

    def _game_over(self, game, match):
        saved = self.saved
        winner = match.winner()
        if winner >= 0:
            saved.matches[winner] += 1
            saved.games = [0, 0]
        else:
            saved.games = list(match.wins)
        self.sound("game", self._now)
        self.on_game_over(game, match)

    # -- settings -------------------------------------------------------------

    def _open_settings(self, now):
        self.cursor = 0
        self._enter(SETTINGS, now)

    def settings_rows(self):
        """``(name, value)`` per row: the rule options, the seats, the sound."""
        saved = self.saved
        rows = [(name, saved.options.get(name)) for name, _ in CHOICES]
        rows.append((_SEAT_ROWS[0], saved.seats[0]))
        rows.append((_SEAT_ROWS[1], saved.seats[1]))
        rows.append((_SOUND_ROW, _SOUND_VALUES[1 if saved.muted else 0]))
        return rows

    def _settings_press(self, key, t):
        rows = len(CHOICES) + len(_SEAT_ROWS) + 1
        if key == keys.SPIT:
            self.saved.games = [0, 0]
            self.new_match(t)
        elif key == keys.LEFT:
            self.cursor = (self.cursor - 1) % rows
        elif key == keys.RIGHT:
            self.cursor = (self.cursor + 1) % rows
        else:
            self._change_row(self.cursor)

    def _change_row(self, row):
        saved = self.saved
        if row < len(CHOICES):
            name, values = CHOICES[row]
            saved.options.set(name, _after(values, saved.options.get(name)))
        elif row < len(CHOICES) + len(_SEAT_ROWS):
            seat = row - len(CHOICES)
            saved.seats[seat] = _after(SEAT_CHOICES, saved.seats[seat])
        else:
            saved.muted = not saved.muted

    # -- the screen -----------------------------------------------------------

    def _draw(self, now):
        renderer = self.renderer
        mode = self.mode
        word = self.saved.options.word
        if mode == TITLE:
            renderer.title(word, self.seed)
        elif mode == ATTRACT:
            table = self.attract.table
            renderer.play(table.game, table.controls, (True, True))
        elif mode == SETTINGS:
            renderer.settings(self.settings_rows(), self.cursor)
        elif mode == ERROR:
            renderer.error(self.message)
        else:
            self._draw_match(now, word)

    def _draw_match(self, now, word):
        renderer = self.renderer
        session = self.session
        game = session.table.game
        controls = session.table.controls
        cpus = self._cpus
        if game.phase == PHASE_OVER:
            match = session.match
            winner = match.winner()
            if winner >= 0:
                renderer.match_result(winner, match.wins, cpus)
            else:
                outcome = game.outcome()
                renderer.game_over(outcome.winner, outcome.reason, match.wins, cpus)
        elif game.phase != PHASE_READY:
            renderer.play(game, controls, cpus)
        elif controls.counting:
            horizon = ticks_add(now, -self.arbiter.settle_us)
            count = (controls.countdown_left(horizon) + 999_999) // 1_000_000
            if count != self._count:
                self._count = count
                self.sound("count", now)
            renderer.countdown(max(count, 1))
        elif game.last_round is not None and not self._round_result_seen(now, controls):
            renderer.round_result(game.last_round, self._margin_text(controls.contest), cpus)
        else:
            self._count = -1
            renderer.ready(word, controls.called, cpus)

    def _margin_text(self, contest):
        shown = self._margin_of
        if contest.winner != shown[0] or contest.margin_us != shown[1] or contest.tie != shown[2]:
            self._margin_of = (contest.winner, contest.margin_us, contest.tie)
            self._margin = contest.text()
        return self._margin

    def _round_result_seen(self, now, controls):
        """The round result stays until someone calls, or for a few seconds."""
        if controls.called[0] or controls.called[1]:
            return True
        return ticks_diff(now, controls.phase_at) >= ROUND_RESULT_US


def _after(values, value):
    return values[(values.index(value) + 1) % len(values)]
