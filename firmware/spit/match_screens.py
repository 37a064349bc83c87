"""What the screens of a match are drawn from: the controller's state given to each of
``spit.static_screens``' screens as its values: the ready screen (who has called, which
game of the match comes and the score, the hint line), the countdown, the round result,
game over and the match result.

``MatchScreens`` is the part of ``spit.controller.Controller`` that does this, kept in a
file of its own; its methods read the controller's state (``session``, ``saved``, the
seats, the reaction times). ``tell(text)`` shows a line on the next ready screen.
"""

from micropython import const

from spit import screens
from spit.session import games_to_win, resumed
from spit.static_screens import match_code

# Each pair of flags, made once (who is ready, which seats the CPU plays).
PAIRS = ((False, False), (True, False), (False, True), (True, True))
# Quick play taught where the players wait: its button alone plays a card.
_QUICK_HINT = "quick play: C alone plays a 1-pile card"
_HINT_CHARS = const(40)  # the ready screen's hint line, across the screen


class MatchScreens:
    def _draw_screen(self, shown, session, share):  # a call each: ``tests/test_frames.py``
        if shown == screens.COUNTDOWN:
            self.renderer.screens.countdown(self._count, share)
        elif shown == screens.ROUND_RESULT:
            self._draw_round_result(session.table, share)
        elif shown == screens.MATCH_RESULT:
            self._draw_match_result(session.match, share)
        elif shown == screens.GAME_OVER:
            self._draw_game_over(session, share)
        else:
            self._draw_ready(session.table.controls.called, share)

    def _draw_round_result(self, table, share):
        self.renderer.screens.round_result(
            table.game.last_round, self._margin, self._cpus, self.reactions.figures, share
        )

    def _draw_match_result(self, match, share):
        self.renderer.screens.match_result(
            match.winner(), match.wins, self._cpus, self.reactions.figures, match.seed, share
        )

    def _draw_game_over(self, session, share):
        self.renderer.screens.game_over(
            session.table.game.outcome().winner,
            session.table.game.outcome().reason,
            session.match.wins,
            self._cpus,
            session.match.seed,
            self.reactions.figures,
            share,
        )

    def _draw_ready(self, called, share):
        options = self.saved.options
        won = self.saved.games if self.session is None else self.session.match.wins
        match = match_code(resumed(won, options), games_to_win(options))  # a small int
        self.renderer.screens.ready(
            self.word(), _flags(called), self._cpus, self._ready_hint(), match, share
        )

    def tell(self, text):
        """Show ``text`` (a save that failed) on the next ready screen's hint line, once."""
        self.notice = text[:_HINT_CHARS]

    def _ready_hint(self):
        if self.notice:
            return self.notice
        return _QUICK_HINT if self.saved.options.quick == "on" else ""


def _flags(called):
    return PAIRS[called[0] + 2 * called[1]]
