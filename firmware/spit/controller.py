"""The device's flow over its screens (SPEC 5), one pass of the main loop at a time.

Modes, and what moves between them:

- ``TITLE``: the name of the game and the seed. ``L``/``R`` choose the game (Spit
  or Speed); a SPIT press starts a match; after ``TITLE_US`` with nobody at the
  buttons, attract mode.
- ``ATTRACT``: the CPU plays itself on the play screen (its own arbiter, so the
  players' presses never reach its game), Spit and Speed in turn. A SPIT press
  starts a match; ``L``/``R`` choose the other game and show the title; any other
  button, its game's end, or a minute bring the title back.
- ``MATCH``: a ``Session``: each game's ready screen (both press SPIT; which game
  of the match, and the score), the 3-2-1 countdown, play with its stuck and slap
  prompts, the round result, game over and the match result, then the title (two
  CPU seats play on: nobody is there to choose). The screen follows the game's
  phase. A ready screen before a game's first round left ``READY_US`` with no
  press gives way to the title, the tally kept; a game begun never does.
- ``SETTINGS`` (``spit.settings_menu``): the game, every rule option, who plays
  each seat, the sound; ``SPIT`` saves them and starts a new match (the match
  reset).
- ``ERROR``: what went wrong; a SPIT press, or a few seconds, bring the title back.
  Saved tallies and settings are untouched, and capture goes on.
- ``SELF_TEST`` (both SPIT held at power-on): every button's press count and the
  time since its last press, colour bars and corner marks, the buzzer's scale, and
  the tie-window calibration: both players press their pile buttons together, again
  and again; the screen shows how far apart the presses were stamped and, after
  enough pairs, proposes a tie window. Holding SPIT two seconds saves the proposal
  (if there is one) and leaves for the title.

After each round and on the match result each person sees their median reaction
time and best of the session, and their personal record from the saved data.

Holding either SPIT for two seconds between games (title, attract mode, a game's
ready screen before its first round, game over, match result) opens the settings.

The arbiter is built here, once per power-on, and serves every match, so the fair
tie rule's priority lasts until the power goes off. Outside a match the controller
commits the presses itself and reads them as menu presses.

Constructor
    ``Controller(saved, seed, now, renderer=None, sound=None, on_break=None,
    listener=None, on_game_over=None, pace=None)``: ``saved`` is the ``SaveData`` (settings and
    tallies, updated in place); ``seed`` is the first match's seed, and the seeds of
    the matches after it are drawn from it; ``now`` is the time at power-on;
    ``renderer`` draws (None: nothing is drawn); ``sound(name, now)`` plays a tone of
    ``spit.sounds``; ``on_break()`` is called between rounds and games, where saving
    and collecting garbage cannot delay a race; ``listener`` gets the controls'
    events after the controller; ``on_game_over(game, match)`` each finished game;
    ``pace`` (a ``spit.pace.Pace``, begun by the caller each pass) gives drawing its
    turns with the CPU seats' glances, and holds it over to a later pass when a pass
    already runs late.
    ``on_break()`` runs in a pass of its own, the pass after a round or screen ended.

Methods
    ``touch(button, t)``: a debounced press. ``run(now, held)``: one pass; ``held``
    is the mask of buttons down now. ``settings`` is the menu (``SettingsMenu``).
    ``new_match(now)``, ``fail(message, now)``,
    ``tell(text)``. ``screen()`` says which screen shows now (``spit.screens``), in
    every mode and pass; ``screen_name()`` names it as a player would: the simulator's
    views, the bench and the tests read it rather than work it out.

What each screen of a match is drawn from is ``spit.match_screens``' (``MatchScreens``,
a part of the controller kept in a file of its own).

No press waits on a screen that waits on it: the presses within ``EAGER_US`` of the
SPIT that starts a match started it too and are dropped, and a call made while the
ready screen is still being drawn deals the cards at once, for the table to take it.
"""

from micropython import const

from spit import games, keys, screens
from spit.arbiter import Arbiter
from spit.controls import BANNER_MAX, EVENT_NAMES, LOST_RACE, MOVED, PLAYED, REFUSED, SLAPPED, SPAT
from spit.games import PHASE_DEALING, PHASE_OVER, PHASE_PLAY, PHASE_READY, PHASE_SLAP
from spit.match_screens import PAIRS, MatchScreens
from spit.options import Options
from spit.pace import ANSWER, DRAW, REGION, TAKE, Pace
from spit.reactions import Reactions
from spit.rng import derive
from spit.savedata import PERSON
from spit.session import NEXT_MATCH_US, NO_WINS, Session
from spit.settings_menu import SettingsMenu, after
from spit.ticks import ticks_add, ticks_diff

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-20 µs a call on the Pico (docs/performance.md).
len, max = len, max

TITLE = const(0)
ATTRACT = const(1)
MATCH = const(2)
SETTINGS = const(3)
ERROR = const(4)
SELF_TEST = const(5)
MODE_NAMES = ("title", "attract", "match", "settings", "error", "self-test")
# The screen of each mode but a match's, which follows the game (``screen``).
_MODE_SCREENS = (screens.TITLE, screens.ATTRACT, screens.READY, screens.SETTINGS)
_MODE_SCREENS += (screens.ERROR, screens.SELF_TEST)

HOLD_US = const(2_000_000)
TITLE_US = const(20_000_000)  # long enough to read it and choose the game
ATTRACT_US = const(60_000_000)
READY_US = const(60_000_000)  # a ready screen before a game's first round, left alone
ERROR_US = const(15_000_000)
ROUND_RESULT_US = const(10_000_000)
COUNTDOWN_US = const(3_000_000)
ATTRACT_LEVEL = "quick"

_BOTH_CPUS = PAIRS[3]  # attract mode's seats
_TIMED_EVENTS = (PLAYED, MOVED, SPAT)  # what can make a card playable, or play one
# Each event's sound, by its number (None: silent): a subscript, not a call, on every press.
_EVENT_SOUNDS = [None] * len(EVENT_NAMES)
_SOUNDS = ((PLAYED, "play"), (REFUSED, "illegal"), (LOST_RACE, "illegal"), (SPAT, "spit"))
for _event, _sound in _SOUNDS:
    _EVENT_SOUNDS[_event] = _sound
_EVENT_SOUNDS = tuple(_EVENT_SOUNDS)
_MATCH_SALT = const(0x4D47)
# Presses this soon after the one that started a match are part of starting it, not
# calls: quicker than anybody answers the ready screen.
EAGER_US = const(250_000)
# A break waits for the new screen to be drawn, this long at most.
BREAK_WAIT_US = const(100_000)
# Both SPIT buttons' bits in the pressed mask (player 1's SPIT is button 7, player 2's 15).
_SPITS = const(1 << 7 | 1 << 15)


def _no_sound(name, now):
    pass


def _no_break():
    pass


def _no_game_over(game, match):
    pass


def _drop(button, t, tie):
    pass


class Controller(MatchScreens):
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
        self.renderer = renderer
        self.sound = sound or _no_sound
        self.on_break = on_break or _no_break
        self.listener = listener  # None: nobody listens
        self.on_game_over = on_game_over or _no_game_over
        self._seeds = derive(seed, _MATCH_SALT)
        self.seed = seed  # the next match's: the first is ``seed`` itself
        self.mode = TITLE
        self.session = None
        self.attract = None
        self.message = ""
        self.notice = ""  # ``tell``
        self.settings = SettingsMenu(saved)
        self._since = now  # when the mode began
        self._held_since = [-1, -1]  # when each SPIT went down, while it stays down
        self._menu = self._on_menu_press  # bound once: committed every pass
        self._phase = -1
        self._round = -1
        self._count = -1
        self._now = 0
        self._cpus = (False, False)  # which seats of the match the CPU plays
        self.reactions = Reactions(saved)
        self._timed = True  # a seat of the match is a person's: reactions are timed
        self._margin = bytearray(BANNER_MAX)  # the round's margin banner, at its end
        self._attract_games = 0  # attract mode's games so far: each game in turn
        self._break_due = False  # a quiet moment came: save and collect in the next pass
        self._undrawn = False  # a new screen came and the renderer has not seen it yet
        # A match or attract mode on a screen: the passes carry a game's work, so what
        # the screen leaves from a call goes in passes of its own (``Pace.alone``).
        self._in_game = False
        # A new screen came: its first call, which takes its values and sends its first
        # region (``pace.ANSWER``), is the next pass's work, whatever the pace, as the
        # answer to the press that brought it.
        self._answer = False
        self._break_at = now  # when the break became due
        # The round result is up to be read, since ``_reading_since`` (``_still_reading``).
        self._reading = False
        self._reading_since = now
        self._shown = screens.TITLE  # the screen a game's dealing passes leave up
        self._starting = False  # a match began less than ``EAGER_US`` ago
        # The match's screen gives way to the title in time (``_left``): since the last
        # press, or since the match result came.
        self._leaving = False
        self._quiet_since = self._over_since = now
        # The controls of the play screen, all drawn, and their ``changes`` then: until
        # they tell something, the passes leave the screen alone (None: draw).
        self._still = None
        self._still_at = 0
        self.test = None  # the self-test's counts and calibration, in its mode

    def touch(self, button, t):
        self.arbiter.add(button, t)
        self._quiet_since = t  # somebody is at the buttons

    # -- one pass -----------------------------------------------------------

    def run(self, now, held):
        if self._break_due and not self._racing() and self._screen_up(now):
            # Saving and collecting take milliseconds: a pass of their own, once the new
            # screen is up and while nobody races.
            self._break_due = False
            self.on_break()
            return
        self._now = now
        if held & _SPITS or self._held_since[0] >= 0 or self._held_since[1] >= 0:
            self._note_holds(now, held)
        renderer = self.renderer
        if renderer is not None:
            if self._answer:
                self._answer_now(now)  # whatever the pace: the answer to the press that brought it
                return
            # What the screen left from its last call, or a piece of drawing turned away in
            # the last pass, goes first, in a pass of its own: a piece starts early.
            if (renderer.busy or self.pace.waiting == DRAW) and self._drew_alone(now):
                return
        if self.mode == MATCH:
            self._run_match(now)
        else:
            self._run_menus(now)
        if renderer is not None:
            self._screen_after(now)

    def _drew_alone(self, now):
        """What the screen left from its last call, or a piece of drawing turned away (with
        the new values), in a pass of its own when its turn has come; True if it was. In a
        game, at most ``ALONE_MAX`` such passes in a row (``Pace.alone``), so that the game
        moves on; outside one, whenever drawing has its turn (the menus' work is their
        presses, and a press due goes first). The game's work (the rules' timers, the CPU
        seats) or the menus' wait for the next pass."""
        if self._in_game:
            if not self.pace.alone(self.arbiter):
                return False
        elif self.arbiter.due(self._now) or not self.pace.turn(DRAW, self.arbiter):
            return False
        renderer = self.renderer
        if renderer.busy and renderer.step(REGION):
            # A step does not look at the game: a change made while the screen was being
            # drawn is followed by the next call of the screen, so nothing is still yet.
            self._still = None
        else:
            self._draw(now, REGION)
            if renderer.busy:
                self._still = None  # ``_note_still``'s answer, without the call
            else:
                self._note_still()
        return True

    def _screen_after(self, now):
        """The screen's share of a pass that ran the game or the menus (``spit.pace``)."""
        renderer = self.renderer
        if self._answer:
            if not self.pace.carried:
                self._answer_now(now)  # a new screen came in this pass; else the next's start
        elif self._in_game and renderer.busy:
            if self.pace.turn(DRAW, self.arbiter):
                # What the screen left goes in passes of its own: this one takes the new
                # values (follows the game's changes), so that those need not look.
                self._draw(now, TAKE)
        elif self._to_draw() and self.pace.turn(DRAW, self.arbiter):
            self._draw_now(now, REGION)

    def _answer_now(self, now):
        """A new screen's first call, which takes its values and sends its first region:
        the answer to the press (or the call) that brought it."""
        self.pace.spend()
        self._answer = False
        self._draw_now(now, ANSWER)

    def _draw_now(self, now, share):
        self._undrawn = False
        self._draw(now, share)
        self._note_still()

    def _run_menus(self, now):
        """A pass outside a match: presses read as menu presses, attract mode's game, and
        the screens that give way to the title in time."""
        self.arbiter.commit_due(now, self._menu)
        if self.mode == ATTRACT:
            self.attract.run(now)
            if self.attract.table.game.phase == PHASE_OVER:
                self._enter(TITLE, now)
        if self.mode == TITLE:
            if ticks_diff(now, self._quiet_since) >= TITLE_US:
                self._start_attract(now)
        elif self._shown_long_enough(ticks_diff(now, self._since)):
            self._enter(TITLE, now)

    def _to_draw(self):
        """Whether the screen may have something new to draw: not while the play screen
        is all drawn and its controls have told nothing since (most passes of play)."""
        still = self._still
        if still is None or still.changes != self._still_at:
            return True
        session = self.session if self.mode == MATCH else self.attract
        return session is None or session.table.controls is not still

    def _note_still(self):
        """After drawing: the play screen's controls, if it is all drawn, else None."""
        self._still = None
        mode = self.mode
        session = self.session if mode == MATCH else self.attract
        if session is None or self.renderer.busy or (mode != MATCH and mode != ATTRACT):
            return
        table = session.table
        if table.game.phase == PHASE_PLAY or table.game.phase == PHASE_SLAP:
            self._still = table.controls
            self._still_at = table.controls.changes

    def _drawing(self):
        """The screen is not drawn yet: still a piece a pass, or not begun."""
        return self.renderer is not None and (self._undrawn or self.renderer.busy)

    def _screen_up(self, now):
        """The screen that came with the break is drawn, or has had long enough."""
        return not self._drawing() or ticks_diff(now, self._break_at) >= BREAK_WAIT_US

    def _racing(self):
        """A round is being played, in a match or in attract mode."""
        session = self.session if self.mode == MATCH else self.attract
        return session is not None and session.table.game.phase == PHASE_PLAY

    def _shown_long_enough(self, age):
        """Attract mode and the error screen give way to the title in time."""
        if self.mode == ATTRACT:
            return age >= ATTRACT_US
        return self.mode == ERROR and age >= ERROR_US

    def new_match(self, now):
        """Lay out the first game of a new match with the saved settings and seats."""
        self._prepare_match(now)
        self._deal()

    def _prepare_match(self, now):
        """The ready screen up; the cards are dealt once it is drawn (``_deal``)."""
        seats = self.saved.seats
        cpu = (seats[0] != PERSON) + 2 * (seats[1] != PERSON)
        self._cpus = PAIRS[cpu]
        self.reactions.people = PAIRS[3 - cpu]
        self._timed = cpu != 3
        self._reading = False
        self.session = None
        self._enter(MATCH, now)

    def _start_match(self, t):
        """A SPIT press at ``t`` starts a match: the presses that come with it are
        dropped (``_drop_eager``)."""
        self._prepare_match(t)
        self._starting = True

    def _deal(self):
        saved = self.saved
        self.session = Session(
            saved.options,
            self.seed,
            saved.levels(),
            self._on_event,
            self._game_over,
            self.arbiter,
            COUNTDOWN_US,
            saved.games,
            self.pace,
            saved.game,
        )
        # The next match's seed, 24 bits as at power-on: a small int on every port, which
        # the title and the results draw with the heap locked.
        self.seed = self._seeds.next() >> 8
        self._phase = -1

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
        self._quiet_since = now
        self._leaving = False
        if mode != ATTRACT:
            self.attract = None
        if mode != MATCH:
            self.session = None
        self._break_due = True
        self._break_at = now
        self._undrawn = True
        self._answer = True
        self._in_game = mode in (MATCH, ATTRACT) and self.renderer is not None
        self._still = None
        if self.renderer is not None:
            self.renderer.invalidate()

    def _attract_game(self):
        return games.NAMES[self._attract_games % len(games.NAMES)]

    def prepare_games(self):
        """Import the games a press or a timeout may start next, the chosen one and
        attract mode's next: in a break, not in a pass a player waits on."""
        games.prepare(self.saved.game)
        games.prepare(self._attract_game())

    def _start_attract(self, now):
        levels = (ATTRACT_LEVEL, ATTRACT_LEVEL)
        game = self._attract_game()
        self._attract_games += 1
        self.attract = Session(
            Options(),
            self._seeds.next(),
            levels,
            countdown_us=COUNTDOWN_US,
            pace=self.pace,
            game=game,
        )
        self._enter(ATTRACT, now)

    def _on_menu_press(self, button, t, tie):
        key = keys.key_of(button)
        mode = self.mode
        if mode == SETTINGS:
            self._settings_press(key, t)
        elif mode == SELF_TEST:
            self.test.press(button, t)
        elif key == keys.SPIT:
            if mode == ERROR:
                self._enter(TITLE, t)
            else:
                self._start_match(t)
        elif mode in (TITLE, ATTRACT):
            if mode == ATTRACT:
                self._enter(TITLE, t)  # somebody came: the title, to choose and start
            if key == keys.LEFT or key == keys.RIGHT:
                self._choose_game(t)

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
            if self.mode == SELF_TEST:
                self._held_since[player] = now
                self._leave_self_test(now)
            elif self._between_games():
                self._held_since[player] = now
                self._open_settings(now)

    def _between_games(self):
        if self.mode in (TITLE, ATTRACT):
            return True
        if self.mode != MATCH:
            return False
        if self.session is None or self._cpus == _BOTH_CPUS:
            return True  # a person at a CPU match may always leave it
        game = self.session.table.game
        return game.phase == PHASE_OVER or (game.phase == PHASE_READY and game.round == 0)

    # -- the match ------------------------------------------------------------

    def _run_match(self, now):
        if self._starting:
            self._starting = self._drop_eager(now)
        session = self.session
        if session is None:
            # The ready screen first: it answers the press that started the match, and
            # the cards are dealt once it is drawn; a call made meanwhile needs the
            # table, so the cards are dealt at once: no press waits on a screen that
            # waits on it.
            if not self._drawing() or self.arbiter.due(now):
                self._deal()
            return
        if self._leaving and self._left(now, session.table):
            self._enter(TITLE, now)
            return
        if self._reading:
            self._reading = self._still_reading(now, session.table)
            session.table.hold = self._reading
        session.run(now)
        if self._timed and not self.pace.carried:
            self.reactions.expire(now)
        game = session.table.game
        if self._count >= 0 or session.table.controls.counting:
            self._count_down(now, session.table.controls)
        if game.phase == PHASE_DEALING:
            return  # a round just ended: taken up once the next is dealt
        if game.round != self._round and self.pace.carried:
            return  # dealt in this pass: the round's end is taken up in the next
        if game.phase != self._phase or game.round != self._round:
            self._new_phase(game, now)

    def _new_phase(self, game, now):
        """The game moved to a new phase or round: the round's end taken up, the screen
        it shows remembered."""
        if self._phase >= 0:
            self.pace.spend()  # the new phase's screen gets its first call in the next pass
            if game.round == self._round + 1:
                # A round ended by a slap or by a card played out of a one-pile round.
                self._round_over()
                if game.phase != PHASE_OVER:
                    self.sound("round", now)
        if game.phase == PHASE_PLAY:
            self.notice = ""  # it was on the ready screen
        if game.phase != PHASE_OVER:  # the match result's is set as the game ends
            first = game.phase == PHASE_READY and game.round == 0
            self._leaving = first and self._cpus != _BOTH_CPUS
            self._quiet_since = now
        self.screen()  # remembered: the screen that a deal's passes leave up
        self._phase = game.phase
        self._round = game.round

    def _left(self, now, table):
        """The match result has been read, or the ready screen before a game's first round
        was left alone (no press, and no countdown: both have called): the title now."""
        if table.game.phase == PHASE_OVER:
            return ticks_diff(now, self._over_since) >= NEXT_MATCH_US
        return ticks_diff(now, self._quiet_since) >= READY_US and not table.controls.counting

    def _drop_eager(self, now):
        """Drop the presses made within ``EAGER_US`` of the one that started the match
        (two eager players both press SPIT on the title): they started it too, and are
        not calls. True while that time lasts."""
        eager = ticks_add(self._since, EAGER_US + self.arbiter.settle_us)
        starting = ticks_diff(eager, now) > 0
        self.arbiter.commit_due(now if starting else eager, _drop)
        return starting

    def _count_down(self, now, controls):
        """The countdown's number (3, 2, 1), with a tone as each one comes; -1 when the
        device is not counting."""
        count = -1
        if controls.counting:
            horizon = ticks_add(now, -self.arbiter.settle_us)
            count = max((controls.countdown_left(horizon) + 999_999) // 1_000_000, 1)
        if count != self._count:
            self._count = count
            if count > 0:
                self.sound("count", now)

    def _still_reading(self, now, table):
        """The round result stays ``ROUND_RESULT_US``, or until a person calls: the
        CPU seats wait meanwhile (``Table.hold``), so none of them shortens it."""
        called = table.controls.called
        if (called[0] and not self._cpus[0]) or (called[1] and not self._cpus[1]):
            return False
        return ticks_diff(now, self._reading_since) < ROUND_RESULT_US

    def _round_over(self):
        """Between rounds: the round result and the reaction times shown, then saving
        and collecting."""
        self._reading = self.session.table.game.phase != PHASE_OVER
        self._reading_since = self._now
        self.reactions.sum_up()
        self.session.table.controls.contest.banner_into(self._margin)
        self._break_due = True
        self._break_at = self._now
        self._undrawn = True

    def _on_event(self, event, player, detail):
        # Few locals: this runs every press (tests/test_frames.py).
        if self._timed and event in _TIMED_EVENTS:
            self._time_reactions(event, player)
        name = _EVENT_SOUNDS[event]
        if event == SPAT and self._phase == PHASE_READY:
            name = "go"  # the round opens
        elif event == SLAPPED and player >= 0:
            name = "slap"
        if name is not None:
            self.sound(name, self._now)
        if self.listener is not None:
            self.listener(event, player, detail)

    def _time_reactions(self, event, player):
        table = self.session.table
        t = table.controls.times[-1]
        if event == PLAYED:
            self.reactions.played(player, t)
        self.reactions.look(table.game, t)

    def _game_over(self, game, match):
        saved = self.saved
        winner = match.winner()
        wins = match.wins
        if winner >= 0:
            saved.matches[winner] += 1
            wins = NO_WINS  # a new match next
            self._leaving = self._cpus != _BOTH_CPUS  # then the title, to choose what next
            self._over_since = self._now
        saved.games[0] = wins[0]  # in place: the end of a game allocates nothing
        saved.games[1] = wins[1]
        self.sound("game", self._now)
        self.on_game_over(game, match)

    # -- settings -------------------------------------------------------------

    def _open_settings(self, now):
        self.settings.open()
        self._enter(SETTINGS, now)

    def _settings_press(self, key, t):
        if key == keys.SPIT:
            self.saved.games = [0, 0]
            self._start_match(t)
        else:
            self.settings.press(key)

    def _choose_game(self, t):
        """On the title, ``L``/``R``: the other game, saved, with a new match's tally; the
        title stays its time from the press."""
        saved = self.saved
        saved.game = after(games.NAMES, saved.game)
        saved.games[0] = saved.games[1] = 0  # a match of the other game is not resumed
        # The new title answers the press first, in the next pass; the save waits for it.
        self._answer = True
        self._undrawn = True
        self._break_due = True
        self._break_at = t

    def word(self):
        """What the players call for SPIT in the chosen game (``SPIT``, ``SLAM``, ``SPEED``)."""
        return games.call_word(self.saved.game, self.saved.options)

    # -- the self-test --------------------------------------------------------

    def self_test(self, now):
        """Start the self-test (both SPIT held at power-on)."""
        # Imported here: only the self-test needs it, and every module imported at boot
        # takes heap and boot time (README, section 13).
        from spit.self_test import SelfTest

        self.test = SelfTest()
        self._enter(SELF_TEST, now)
        self.sound("scale", now)

    def _leave_self_test(self, now):
        proposal = self.test.proposal()
        if proposal:
            self.saved.tie_us = proposal
            self.arbiter.tie_us = proposal
        self._enter(TITLE, now)

    # -- the screen -----------------------------------------------------------

    def screen(self):
        """The screen the device shows now (``spit.screens``), in every mode and every
        pass: also between a press and the match it starts, and while a round is
        dealt (the screen before it stays)."""
        mode = self.mode
        if mode != MATCH:
            return _MODE_SCREENS[mode]
        session = self.session
        if session is None:
            return screens.READY
        table = session.table
        game = table.game
        phase = game.phase
        if phase == PHASE_PLAY:
            shown = screens.PLAY  # or stuck (``screen_name``)
        elif phase == PHASE_SLAP:
            shown = screens.SLAP
        elif phase == PHASE_OVER:
            shown = screens.MATCH_RESULT if session.match.winner() >= 0 else screens.GAME_OVER
        elif phase == PHASE_DEALING:
            return self._shown
        elif table.controls.counting:
            shown = screens.COUNTDOWN
        elif self._reading and game.last_round is not None:
            shown = screens.ROUND_RESULT
        else:
            shown = screens.READY
        self._shown = shown
        return shown

    def screen_name(self):
        """The screen shown now, as a player names it: the play screen is "stuck" while
        it prompts for SPIT. (The device never asks: whether anybody can move is worked
        out once an action, away from the pass that draws its answer.)"""
        shown = self.screen()
        if shown == screens.PLAY and self.session.table.game.is_stuck():
            shown = screens.STUCK
        return screens.NAMES[shown]

    def _draw(self, now, share):
        # Few locals on the play screen's path, which runs every pass it draws
        # (``tests/test_frames.py``).
        mode = self.mode
        if mode == MATCH:
            self._draw_match(share)
        elif mode == ATTRACT:
            table = self.attract.table
            if table.game.phase != PHASE_DEALING:
                self.renderer.play(table.game, table.controls, _BOTH_CPUS, share)
        else:
            self._draw_menu(now, share)

    def _draw_menu(self, now, share):
        renderer = self.renderer
        mode = self.mode
        if mode == TITLE:
            renderer.screens.title(self.word(), self.seed, share)
        elif mode == SETTINGS:
            menu = self.settings
            renderer.screens.settings(menu.rows, menu.cursor, menu.changes, share)
        elif mode == ERROR:
            renderer.screens.error(self.message, share)
        elif mode == SELF_TEST:
            self.test.draw(renderer, now, share)

    def _draw_match(self, share):
        session = self.session
        if session is None:
            self._draw_ready(PAIRS[0], share)
            return
        table = session.table
        phase = table.game.phase
        if phase == PHASE_PLAY or phase == PHASE_SLAP:  # noqa: SIM109 (a tuple would be built)
            self.renderer.play(table.game, table.controls, self._cpus, share)
        elif phase != PHASE_DEALING:  # the next screen comes with the deal
            self._draw_screen(self.screen(), session, share)
