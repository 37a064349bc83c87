"""The match mode (SPEC 5): a ``Session``, its screens and the values each is drawn from.

Each game's ready screen (each half says whether its player has called, which game of the
match comes and the score; the hint line teaches quick play), the 3-2-1 countdown, play
with its stuck and slap prompts, the round result (who cleared, who slapped first and the
margin, what each took and holds, each person's reaction times), game over and the match
result, then the title (two CPU seats play on: nobody is there to choose). The screen
follows the game's phase. A ready screen before a game's first round left ``READY_US``
with no press gives way to the title, the tally kept; a game begun never does.

No press waits on a screen that waits on it: the presses within ``EAGER_US`` of the SPIT
that started the match started it too and are dropped, and a call made while the ready
screen is still being drawn deals the cards at once, for the table to take it. The
round result stays ``ROUND_RESULT_US``, or until a person calls; the CPU seats wait
meanwhile. Its tones and reaction times are the listener's (``spit.listener``).

The mode's verbs are ``spit.modes``'; ``deal_now()`` lays the first game out at once,
and ``tell(text)`` shows a line on the next ready screen.
"""

from micropython import const

from spit import screens
from spit.controls import BANNER_MAX
from spit.modes import COUNTDOWN_US, Mode, word
from spit.savedata import PERSON
from spit.session import NEXT_MATCH_US, NO_WINS, Session, games_to_win, resumed
from spit.static_screens import match_code
from spit.ticks import ticks_add, ticks_diff

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
max = max

READY_US = const(60_000_000)  # a ready screen before a game's first round, left alone
ROUND_RESULT_US = const(10_000_000)
# Presses this soon after the one that started a match are part of starting it, not
# calls: quicker than anybody answers the ready screen.
EAGER_US = const(250_000)

# ``spit.modes``' codes and ``spit.games``' phases, folded here: this runs every pass of a
# match (tests/test_games.py and tests/test_controller.py hold them to their owners').
_TITLE = const(0)
_SETTINGS = const(3)
_STAY = const(-1)
_SPENT = const(-2)
_PHASE_READY = const(0)
_PHASE_PLAY = const(1)
_PHASE_SLAP = const(2)
_PHASE_OVER = const(3)
_PHASE_DEALING = const(4)

# Each pair of flags, made once (who is ready, which seats the CPU plays).
PAIRS = ((False, False), (True, False), (False, True), (True, True))
_BOTH_CPUS = PAIRS[3]
# Quick play taught where the players wait: its button alone plays a card.
_QUICK_HINT = "quick play: C alone plays a 1-pile card"
_HINT_CHARS = const(40)  # the ready screen's hint line, across the screen


def _no_game_over(game, match):
    pass


def _drop(button, t, tie):
    pass


class MatchMode(Mode):
    """Constructor: ``MatchMode(flow, listener, on_game_over=None)``: ``listener`` hears
    the match's events (``spit.listener``); ``on_game_over(game, match)`` each finished
    game. Attributes: ``session`` (None until the cards are dealt), ``cpus`` (which seats
    the CPU plays), ``notice`` (``tell``)."""

    def __init__(self, flow, listener, on_game_over=None):
        Mode.__init__(self, flow)
        self.in_game = True
        self.commit = None  # the table takes the presses
        self.listener = listener
        self.on_game_over = on_game_over or _no_game_over
        self.session = None
        self.cpus = PAIRS[0]
        self.notice = ""
        self._phase = -1
        self._round = -1
        self._count = -1  # the countdown's number, -1 when not counting
        self._margin = bytearray(BANNER_MAX)  # the round's margin banner, at its end
        self._shown = screens.TITLE  # the screen a game's dealing passes leave up
        self._word = self._hint = ""  # the ready screen's values (``_ready_values``)
        self._match = 0
        self._valued = None  # the game they were worked out for
        self._starting = False  # the match began less than ``EAGER_US`` ago
        # The round result is up to be read, since ``_reading_since`` (``_still_reading``).
        self._reading = False
        self._reading_since = 0
        # The screen gives way to the title in time (``_left``): since the last press, or
        # since the match result came.
        self._leaving = False
        self._over_since = 0

    def enter(self, now):
        """The ready screen up; the cards are dealt once it is drawn (``deal``)."""
        seats = self.saved.seats
        cpu = (seats[0] != PERSON) + 2 * (seats[1] != PERSON)
        self.cpus = PAIRS[cpu]
        self.listener.seat(PAIRS[3 - cpu])
        self._reading = False
        self._starting = True  # by a press: those that come with it are dropped
        self._leaving = False
        self.leave()
        self._ready_values()
        Mode.enter(self, now)

    def leave(self):
        self.session = self.listener.session = self.table = self.controls = None

    def deal(self):
        saved = self.saved
        flow = self.flow
        self.session = Session(
            saved.options,
            flow.seed,
            saved.levels(),
            self.listener.hear,
            self._game_over,
            self.arbiter,
            COUNTDOWN_US,
            saved.games,
            flow.scheduler,
            saved.game,
        )
        self.listener.session = self.session
        # The next match's seed, 24 bits as at power-on: a small int on every port, which
        # the title and the results draw with the heap locked.
        flow.seed = flow.seeds.next() >> 8
        self._phase = self.listener.phase = -1

    def deal_now(self):
        """The first game laid out at once (the simulator, a replay): no press started it."""
        self._starting = False
        self.deal()

    def hold(self, now):
        session = self.session
        if session is None or self.cpus == _BOTH_CPUS:
            return _SETTINGS  # a person at a CPU match may always leave it
        game = session.table.game
        if game.phase == _PHASE_OVER or (game.phase == _PHASE_READY and game.round == 0):
            return _SETTINGS
        return _STAY

    def racing(self):
        session = self.session
        return session is not None and session.table.game.phase == _PHASE_PLAY

    # -- a pass ---------------------------------------------------------------

    def run(self, now):
        # Few locals: this runs every pass of a match (tests/test_frames.py).
        if self._starting:
            self._starting = self._drop_eager(now)
        session = self.session
        if session is None:
            # The ready screen first: it answers the press that started the match, and
            # the cards are dealt once it is drawn; a call made meanwhile needs the
            # table, so the cards are dealt at once.
            if not self.flow.scheduler.pending() or self.arbiter.due(now):
                self.deal()
                return _SPENT
            return _STAY
        if self._starting:
            # The table is not the scheduler's yet (``table`` None): the presses that
            # started the match are the mode's to drop first.
            return _STAY
        if self._leaving and self._left(now, session.table):
            return _TITLE
        if self._reading:
            self._reading = self._still_reading(now, session.table)
            session.table.hold = self._reading
        listener = self.listener
        listener.now = now
        if session.run(now):
            return _SPENT  # a game's end taken up, or the next game laid out
        if listener.timed:
            listener.reactions.expire(now)
        table = self.table = session.table
        self.controls = table.controls
        if self._count >= 0 or table.controls.counting:
            self._count_down(now, table.controls)
        game = table.game
        if game.phase == _PHASE_DEALING:
            return _STAY  # a round just ended: taken up once the next is dealt
        if game.phase != self._phase or game.round != self._round:
            return self._new_phase(game, now)
        return _STAY

    def _new_phase(self, game, now):
        """The game moved to a new phase or round: the round's end taken up (then
        ``SPENT``: a pass of its own), the screen it shows remembered."""
        code = _STAY
        if self._phase >= 0 and game.round == self._round + 1:
            # A round ended by a slap or by a card played out of a one-pile round.
            self.round_over(now)
            code = _SPENT
        if game.phase == _PHASE_PLAY and self.notice:
            self.notice = ""  # it was on the ready screen
            self._ready_values()
        elif game is not self._valued:  # a new game: its score and word
            self._valued = game
            self._ready_values()
        if game.phase != _PHASE_OVER:  # the match result's is set as the game ends
            first = game.phase == _PHASE_READY and game.round == 0
            self._leaving = first and self.cpus != _BOTH_CPUS
            self.quiet_since = now
        self.screen()  # remembered: the screen that a deal's passes leave up
        self._phase = self.listener.phase = game.phase
        self._round = game.round
        return code

    def _left(self, now, table):
        """The match result has been read, or the ready screen before a game's first round
        was left alone (no press, and no countdown: both have called): the title now."""
        if table.game.phase == _PHASE_OVER:
            return ticks_diff(now, self._over_since) >= NEXT_MATCH_US
        return ticks_diff(now, self.quiet_since) >= READY_US and not table.controls.counting

    def _drop_eager(self, now):
        """Drop the presses made within ``EAGER_US`` of the one that started the match
        (two eager players both press SPIT on the title): they started it too, and are
        not calls. True while that time lasts."""
        eager = ticks_add(self.since, EAGER_US + self.arbiter.settle_us)
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
                self.listener.counted(now)

    def _still_reading(self, now, table):
        """The round result stays ``ROUND_RESULT_US``, or until a person calls: the
        CPU seats wait meanwhile (``Table.hold``), so none of them shortens it."""
        return not self._person_called(table) and (
            ticks_diff(now, self._reading_since) < ROUND_RESULT_US
        )

    def _person_called(self, table):
        called = table.controls.called
        return (called[0] and not self.cpus[0]) or (called[1] and not self.cpus[1])

    def round_over(self, now):
        """Between rounds: the round result and the reaction times shown, then saving
        and collecting."""
        table = self.session.table
        self._reading = table.game.phase != _PHASE_OVER
        self._reading_since = now
        self.listener.round_over(now, not self._reading)
        table.controls.contest.banner_into(self._margin)
        self.flow.scheduler.new_screen(now, False)

    def _game_over(self, game, match):
        saved = self.saved
        winner = match.winner()
        wins = match.wins
        if winner >= 0:
            saved.matches[winner] += 1
            wins = NO_WINS  # a new match next
            self._leaving = self.cpus != _BOTH_CPUS  # then the title, to choose what next
            self._over_since = self.listener.now  # the pass's
        saved.games[0] = wins[0]  # in place: the end of a game allocates nothing
        saved.games[1] = wins[1]
        self.listener.game_over()
        self.on_game_over(game, match)

    # -- the screens ----------------------------------------------------------

    def screen(self):
        """The screen shown: also between a press and the match it starts, and while a
        round is dealt (the screen before it stays)."""
        session = self.session
        if session is None:
            return screens.READY
        table = session.table
        game = table.game
        phase = game.phase
        if phase == _PHASE_PLAY:
            shown = screens.PLAY  # or stuck (``Controller.screen_name``)
        elif phase == _PHASE_SLAP:
            shown = screens.SLAP
        elif phase == _PHASE_OVER:
            shown = screens.MATCH_RESULT if session.match.winner() >= 0 else screens.GAME_OVER
        elif phase == _PHASE_DEALING:
            return self._shown
        elif table.controls.counting:
            shown = screens.COUNTDOWN
        elif self._reading and game.last_round is not None and not self._person_called(table):
            shown = screens.ROUND_RESULT  # a person's call answered at once: the ready screen
        else:
            shown = screens.READY
        self._shown = shown
        return shown

    def draw(self, renderer, now, share):
        # Few locals on the play screen's path, which runs every pass it draws
        # (``tests/test_frames.py``).
        if self.session is None:
            self._draw_ready(renderer, PAIRS[0], share)
            return None
        table = self.session.table
        if table.game.phase == _PHASE_PLAY or table.game.phase == _PHASE_SLAP:
            renderer.play(table.game, table.controls, self.cpus, share)
            return table.controls
        if table.game.phase == _PHASE_DEALING:
            # A round's end: its screen comes with the deal, on the clear begun now.
            renderer.clear_ahead(share)
        else:
            self._draw_screen(renderer, self.screen(), self.session, share)
        return None

    def _draw_screen(self, renderer, shown, session, share):  # a call each: test_frames.py
        if shown == screens.COUNTDOWN:
            renderer.screens.countdown(self._count, share)
        elif shown == screens.ROUND_RESULT:
            self._draw_round_result(renderer, session.table, share)
        elif shown == screens.MATCH_RESULT:
            self._draw_match_result(renderer, session.match, share)
        elif shown == screens.GAME_OVER:
            self._draw_game_over(renderer, session, share)
        else:
            self._draw_ready(renderer, session.table.controls.called, share)

    def _draw_round_result(self, renderer, table, share):
        figures = self.listener.reactions.figures
        renderer.screens.round_result(
            table.game.last_round, self._margin, self.cpus, figures, share
        )

    def _draw_match_result(self, renderer, match, share):
        figures = self.listener.reactions.figures
        renderer.screens.match_result(
            match.winner(), match.wins, self.cpus, figures, match.seed, share
        )

    def _draw_game_over(self, renderer, session, share):
        renderer.screens.game_over(
            session.table.game.outcome().winner,
            session.table.game.outcome().reason,
            session.match.wins,
            self.cpus,
            session.match.seed,
            self.listener.reactions.figures,
            share,
        )

    def _draw_ready(self, renderer, called, share):
        renderer.screens.ready(
            self._word, _flags(called), self.cpus, self._hint, self._match, share
        )

    def _ready_values(self):
        """The ready screen's values that change only with a game or a notice, worked out
        then rather than in every pass the screen is up (a few hundred µs on the chip)."""
        saved = self.saved
        won = saved.games if self.session is None else self.session.match.wins
        self._word = word(saved)
        self._match = match_code(resumed(won, saved.options), games_to_win(saved.options))
        if self.notice:
            self._hint = self.notice
        else:
            self._hint = _QUICK_HINT if saved.options.quick == "on" else ""

    def tell(self, text):
        """Show ``text`` (a save that failed) on the next ready screen's hint line, once."""
        self.notice = text[:_HINT_CHARS]
        self._ready_values()


def _flags(called):
    return PAIRS[called[0] + 2 * called[1]]
