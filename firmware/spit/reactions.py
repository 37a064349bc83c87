"""Reaction times: how long a player takes to play a card once one becomes playable.

A player's clock starts when the table changes so that they can play (``look``
after every applied action: a new pile top, a card turned up) and stops at their
next card played (``played``). If they can no longer play before that (the other
player covered the pile), the clock stops with nothing recorded. A follow-up play
is timed from the previous one, the moment the player's own card made the next one
playable. Times under ``REACTION_MIN_MS`` are anticipation (a card already in hand
when the pile changed) and times over ``REACTION_MAX_MS`` are not reactions (the
player was looking elsewhere): neither is recorded.

Each player has two records: this session's and their personal one, loaded from
the save data and handed back with ``save_into``. A record keeps the best time and
the last ``RECENT`` times in a fixed ring, so the median needs no list that grows
with the games played: it sorts at most ``RECENT`` numbers in a list made once, and only
at a round's end (``sum_up``), never per press.

>>> from spit.savedata import SaveData
>>> reactions = Reactions(SaveData())
>>> reactions.start(0, 1_000_000); reactions.played(0, 1_450_000)
450
>>> reactions.session[0].best_ms, reactions.personal[0].median_ms()
(450, 450)
>>> reactions.sum_up()[:3]
[450, 450, 450]
"""

from array import array

from spit.games import PHASE_PLAY
from spit.savedata import REACTION_MAX_MS, RECENT, is_reaction
from spit.ticks import ticks_diff

_EXPIRED_US = REACTION_MAX_MS * 1000
_SORTED = [0] * RECENT  # a ring's times sorted for its median, above them room unused
_UNUSED = 0xFFFF  # sorts after every time


class Record:
    """A player's best time and their last ``RECENT`` times (ms)."""

    def __init__(self, best_ms=0, recent_ms=()):
        self.best_ms = best_ms  # 0: none yet
        self.count = 0  # how many times the ring holds
        self._ring = array("H", bytes(2 * RECENT))
        self._next = 0
        for ms in recent_ms[-RECENT:]:
            self.add(ms)

    def add(self, ms):
        if self.best_ms == 0 or ms < self.best_ms:
            self.best_ms = ms
        self._ring[self._next] = ms
        self._next = (self._next + 1) % RECENT
        if self.count < RECENT:
            self.count += 1

    def recent_ms(self):
        """The kept times, oldest first."""
        start = (self._next - self.count) % RECENT
        return [self._ring[(start + i) % RECENT] for i in range(self.count)]

    def median_ms(self):
        """The median of the kept times (the lower middle of an even count), 0 if none."""
        if not self.count:
            return 0
        times = _SORTED
        for i in range(RECENT):
            times[i] = self._ring[i] if i < self.count else _UNUSED
        times.sort()
        return times[(self.count - 1) // 2]


class Reactions:
    """Constructor: ``Reactions(saved, people=(True, True))``: ``saved`` is the
    ``SaveData`` holding the personal records; only seats marked in ``people`` are
    timed (a CPU seat's times are its model's, not a record).
    Attributes: ``session`` and ``personal``, a ``Record`` per player."""

    def __init__(self, saved, people=(True, True)):
        self.people = people
        self.session = [Record(), Record()]
        self.personal = [Record(saved.best_ms[p], saved.recent_ms[p]) for p in (0, 1)]
        self.figures = [0] * 6  # what ``sum_up`` found
        self._since = [0, 0]  # when each running clock started (ticks_us)
        self._running = [False, False]

    def look(self, game, t):
        """After an action applied at ``t``: start the clock of each player who can
        now play, stop (without a record) that of each who cannot."""
        playing = game.phase == PHASE_PLAY
        # Each player in a call of its own: a loop would take the frame past 11 words,
        # and MicroPython would allocate it at every action
        # (``host_sim.bench.heap_frames``).
        self._look(game, 0, t, playing)
        self._look(game, 1, t, playing)

    def _look(self, game, player, t, playing):
        if not self.people[player]:
            return  # a CPU seat is not timed: no need to ask the rules
        if playing and game.can_play(player):
            self.start(player, t)
        else:
            self._running[player] = False

    def expire(self, now):
        """Stop, without a record, each clock older than any reaction by ``now``: a
        clock left running half the tick period (about 9 minutes) would read as a short
        reaction once ``ticks_us`` wraps. Call it often, in passes that have time."""
        running = self._running
        if running[0] and ticks_diff(now, self._since[0]) > _EXPIRED_US:
            running[0] = False
        if running[1] and ticks_diff(now, self._since[1]) > _EXPIRED_US:
            running[1] = False

    def start(self, player, t):
        """A card became playable for ``player`` at ``t``; a running clock keeps its start."""
        if self.people[player] and not self._running[player]:
            self._running[player] = True
            self._since[player] = t

    def played(self, player, t):
        """``player`` played a card touched at ``t``; returns the reaction recorded
        (ms), or 0 if none was."""
        if not self._running[player]:
            return 0
        self._running[player] = False
        ms = ticks_diff(t, self._since[player]) // 1000
        if not is_reaction(ms):
            return 0
        self.session[player].add(ms)
        self.personal[player].add(ms)
        return ms

    def sum_up(self):
        """Each player's session median, session best and personal record (ms; the
        median 0 while none is timed), as ``figures``, a list made once: at a round's end,
        for the screens, which say them for the seats people play."""
        figures = self.figures
        for player in (0, 1):
            figures[3 * player] = self.session[player].median_ms()
            figures[3 * player + 1] = self.session[player].best_ms
            figures[3 * player + 2] = self.personal[player].best_ms
        return figures

    def save_into(self, saved):
        """Hand the personal records back to the ``SaveData`` before it is written."""
        for player in (0, 1):
            record = self.personal[player]
            saved.best_ms[player] = record.best_ms
            saved.recent_ms[player] = record.recent_ms()
