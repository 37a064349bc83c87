"""What the device does as a match's events come: a tone for each (``spit.sounds``), and
each person's reaction times (``spit.reactions``), in one place.

The match's table tells every event of its controls to ``hear(event, player, detail)``
(``spit.controls``' events); the match mode tells the rest: the countdown's numbers, a
round's end and a game's. A card played, moved or spat can make a card playable, so the
reaction clocks look after each; a played card stops its player's.

Constructor: ``Listener(saved, sound, also=None)``: ``saved`` holds the personal records;
``sound(name, now)`` plays a tone; ``also`` is told every event after it (the simulator).
Attributes: ``reactions``; ``session``, the match's (set by the match mode); ``now``, the
pass's time (tones are timed from it); ``phase``, the phase the match last showed;
``timed``, a person plays a seat.
"""

from micropython import const

from spit.controls import EVENT_NAMES, LOST_RACE, MOVED, PLAYED, REFUSED, SLAPPED, SPAT
from spit.reactions import Reactions

_PHASE_READY = const(0)  # spit.games', folded here (tests/test_games.py)
_TIMED_EVENTS = (PLAYED, MOVED, SPAT)  # what can make a card playable, or play one
# Each event's sound, by its number (None: silent): a subscript, not a call, on every press.
_EVENT_SOUNDS = [None] * len(EVENT_NAMES)
_SOUNDS = ((PLAYED, "play"), (REFUSED, "illegal"), (LOST_RACE, "illegal"), (SPAT, "spit"))
for _event, _sound in _SOUNDS:
    _EVENT_SOUNDS[_event] = _sound
_EVENT_SOUNDS = tuple(_EVENT_SOUNDS)


class Listener:
    def __init__(self, saved, sound, also=None):
        self.reactions = Reactions(saved)
        self.sound = sound
        self.also = also  # None: nobody else listens
        self.session = None
        self.now = 0
        self.phase = -1
        self.timed = True

    def seat(self, people):
        """The seats people play (a pair of flags): only theirs are timed."""
        self.reactions.people = people
        self.timed = people[0] or people[1]

    def hear(self, event, player, detail):
        # Few locals: this runs every press (tests/test_frames.py).
        if self.timed and event in _TIMED_EVENTS:
            self._time(event, player)
        name = _EVENT_SOUNDS[event]
        if event == SPAT and self.phase == _PHASE_READY:
            name = "go"  # the round opens
        elif event == SLAPPED and player >= 0:
            name = "slap"
        if name is not None:
            self.sound(name, self.now)
        if self.also is not None:
            self.also(event, player, detail)

    def _time(self, event, player):
        table = self.session.table
        t = table.controls.times[-1]
        if event == PLAYED:
            self.reactions.played(player, t)
        self.reactions.look(table.game, t)

    def counted(self, now):
        """A number of the countdown came."""
        self.sound("count", now)

    def round_over(self, now, last):
        """A round ended (``last``: the game with it): its reaction times summed up for the
        results, and its tone (a game's end has its own)."""
        self.reactions.sum_up()
        if not last:
            self.sound("round", now)

    def game_over(self):
        self.sound("game", self.now)
