"""A transcript played back through the buttons, as the players pressed them.

Each word of the transcript becomes the presses that make it now (the firmware's own
``Controls.presses_for``: the keys the CPU seats press), pressed on the device's pins at the
recorded pace: the gap between two words' press times (``@`` times; 0.6 s apart when
there are none, and never more than 9.5 s, less than the slap time limit). Whatever
the firmware then applies is checked against the transcript word by word. Speed's
transcripts play back alike: its flip is Spit's spit (``SPIT_ACTION``, both call) and a
player's call of the game is their SPIT (``presses_for``).

A replay ends when a word is not made as written (``error`` names the word), when the
game ends with the last word (``over``), or when every word is applied and the game
has not ended ``END_US`` later: then ``error`` is ``ENDS_EARLY``.

Constructor: ``Replay(transcript, device)``; call ``update()`` before every
``device.step()``. Attributes: ``done`` (every word applied), ``over`` (and the game
ended with them), ``error`` (why the replay stopped, or None), ``ended`` (any of those
three), ``made`` (words applied so far), ``total``.
"""

from spit import keys
from spit.games import PHASE_OVER, PHASE_PLAY, PHASE_READY, PLAY, kind_of, player_of
from spit.spit import SPIT_ACTION
from spit.ticks import ticks_add, ticks_diff

PACE_US = 600_000  # between words of a transcript without press times
MAX_GAP_US = 9_500_000
STEP_US = 80_000  # between the presses that make one word
HOLD_US = 20_000  # how long each is held
FIRST_US = 40_000  # from a word applied to the next word's first press: a released
# button must stay up for the debounce's quiet time before it counts again
STALL_US = 15_000_000  # a word not applied this long after its presses: the replay failed
# After the last word, the passes that finish the game (the deal after the last slap);
# less than the device's own second before it spits for stuck players (``spit=auto``).
END_US = 500_000
ENDS_EARLY = "the transcript ends before the game does"


class Replay:
    def __init__(self, transcript, device):
        self.word_of = transcript.word
        self.actions = transcript.actions
        self.times = transcript.times
        self.device = device
        self.total = len(self.actions)
        self.made = 0
        self.done = self.total == 0
        self.over = False
        self.error = None
        self._game = None  # the game being replayed, once laid out
        self._asked = 0  # words whose presses were scheduled
        self._base = device.clock()  # when the last word was applied
        self._touch = 0
        self._edges = []  # (t, button, down)
        self._played_at = [None, None]  # when each player's last play was applied

    @property
    def ended(self):
        return self.over or self.error is not None

    def update(self):
        if self.ended:
            return
        device = self.device
        now = device.clock()
        game = device.session.table.game if device.session is not None else None
        if game is None or (self._game is not None and game is not self._game):
            self._stop(
                "%s: the device left the game (%s)" % (self._named(self.made), device.last_event)
            )
            return
        self._game = game
        if self.done:
            self._wait_for_the_end(game, now)
            return
        history = game.history
        while self.made < len(history):
            i = self.made
            if i >= self.total or history[i] != self.actions[i]:
                self._stop(
                    "%s: the device made %s instead" % (self._named(i), self.word_of(history[i]))
                )
                return
            if kind_of(history[i]) == PLAY:
                self._played_at[player_of(history[i])] = now
            self.made += 1
            self._base = now
        if self.made == self.total:
            self.done = True
            self._release_all()  # the last word's buttons too: nothing stays held
            self._wait_for_the_end(game, now)
            return
        if game.phase == PHASE_OVER:
            self._stop("%s comes after the end of the game" % self._named(self.made))
        elif self._asked == self.made:
            self._ask(game, now)
        elif ticks_diff(now, self._touch) > STALL_US:
            self._stop("%s was not accepted" % self._named(self.made))
        self._press_due(now)

    def _wait_for_the_end(self, game, now):
        if game.phase == PHASE_OVER and len(game.history) == self.total:
            self.over = True
        elif ticks_diff(now, self._base) >= END_US:
            self._stop(ENDS_EARLY)

    def _word(self, i):
        return self.word_of(self.actions[i]) if i < self.total else "nothing"

    def _named(self, i):
        """``word 7 (1c3a)``: the ``i``-th word (from 0), as the messages name it."""
        return "word %d (%s)" % (i + 1, self._word(i))

    def _gap(self, i):
        if self.times is None or i == 0:
            return PACE_US
        return min(max(ticks_diff(self.times[i], self.times[i - 1]), 0), MAX_GAP_US)

    def _ask(self, game, now):
        i = self._asked
        action = self.actions[i]
        controls = self.device.session.table.controls
        touch = ticks_add(self._base, self._gap(i))
        if action == SPIT_ACTION:
            if controls.counting or (game.phase == PHASE_PLAY and game.options.spit == "auto"):
                buttons = []  # it comes by itself
            else:
                buttons = [keys.button_id(p, keys.SPIT) for p in (0, 1) if not controls.called[p]]
                if game.phase == PHASE_READY:
                    touch = ticks_add(touch, -controls.countdown_us)
            presses = [buttons] if buttons else []
        else:
            player = player_of(action)
            made = controls.presses_for(player, action)
            if made is None:
                self._stop("%s: no buttons make it now" % self._named(i))
                return
            presses = [[keys.button_id(player, key)] for key in made]
        first = ticks_add(touch, -STEP_US * max(len(presses) - 1, 0))
        earliest = ticks_add(now, FIRST_US)
        if action != SPIT_ACTION and self._picks_in_race(player, made, controls):
            window = controls.contest.race_window_us
            earliest = ticks_add(self._played_at[1 - player], window + FIRST_US)
        if ticks_diff(first, earliest) < 0:
            touch = ticks_add(touch, ticks_diff(earliest, first))
            first = earliest
        for n, buttons in enumerate(presses):
            t = ticks_add(first, STEP_US * n)
            for button in buttons:
                self._edges.append((t, button, True))
                self._edges.append((ticks_add(t, HOLD_US), button, False))
        self._touch = touch
        self._asked += 1

    def _picks_in_race(self, player, made, controls):
        """Whether the word picks a card up (a card key before its last key) while a play
        by the other player is still in its race window: with ``quick`` on, such a pick
        would be a lost race for the pile that card fitted. The players pressed it
        before that play landed; the replay presses it once the window has passed."""
        played = self._played_at[1 - player]
        if played is None or self.device.session.table.game.options.quick != "on":
            return False
        if not any(key < keys.LEFT for key in made[:-1]):
            return False
        return 0 <= ticks_diff(self.device.clock(), played) <= controls.contest.race_window_us

    def _press_due(self, now):
        due = [edge for edge in self._edges if ticks_diff(now, edge[0]) >= 0]
        if not due:
            return
        self._edges = [edge for edge in self._edges if ticks_diff(now, edge[0]) < 0]
        due.sort(key=lambda edge: ticks_diff(edge[0], now))
        for _, button, down in due:
            if down:
                self.device.press(button)
            else:
                self.device.release(button)

    def _stop(self, why):
        self.error = why
        self._release_all()

    def _release_all(self):
        for button in range(keys.BUTTON_COUNT):
            self.device.release(button)
        self._edges = []
