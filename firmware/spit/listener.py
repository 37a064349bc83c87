"""What the device does as a match's events come: a tone for each (``spit.sounds``), and
each person's reaction times (``spit.reactions``), in one place.

The match's table tells every event of its controls to ``hear(event, player, detail)``
(``spit.controls``' events); the match mode tells the rest: the countdown's numbers, a
round's end and a game's. A card played, moved or spat can make a card playable, so the
reaction clocks look after each; a played card stops its player's. That work waits for a
pass with time (``Controls.follow_up``): the pass that commits a person's press answers
it on the screen sooner without it (the look asks the rules, about 0.5 ms on the Pico),
and the round's end catches up before it sums the times up.

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
        # The action whose reaction work waits (``_time``): its event, player, time, game.
        self._owed = False
        self._event = 0
        self._player = 0
        self._t = 0
        self._game = None
        self._time_it = self._time  # bound once: handing it to the controls allocates nothing

    def seat(self, people):
        """The seats people play (a pair of flags): only theirs are timed."""
        self.reactions.people = people
        self.timed = people[0] or people[1]

    def hear(self, event, player, detail):
        # Few locals: this runs every press (tests/test_frames.py).
        if self.timed and event in _TIMED_EVENTS:
            self._owe(event, player)
        name = _EVENT_SOUNDS[event]
        if event == SPAT and self.phase == _PHASE_READY:
            name = "go"  # the round opens
        elif event == SLAPPED and player >= 0:
            name = "slap"
        if name is not None:
            self.sound(name, self.now)
        if self.also is not None:
            self.also(event, player, detail)

    def _owe(self, event, player):
        table = self.session.table
        self._owed = True
        self._event = event
        self._player = player
        self._t = table.controls.times[-1]
        self._game = table.game
        table.controls.follow_up = self._time_it

    def _time(self):
        """The reaction clocks after the action owed, on the table it left."""
        if not self._owed:
            return  # caught up already (a round's end)
        self._owed = False
        if self._event == PLAYED:
            self.reactions.played(self._player, self._t)
        self.reactions.look(self._game, self._t)

    def counted(self, now):
        """A number of the countdown came."""
        self.sound("count", now)

    def round_over(self, now, last):
        """A round ended (``last``: the game with it): its reaction times summed up for the
        results, and its tone (a game's end has its own)."""
        self._time()  # the round's last card played counts
        self.reactions.sum_up()
        if not last:
            self.sound("round", now)

    def game_over(self):
        self.sound("game", self.now)
