"""What the device keeps across power-offs (SPEC section 7), and its JSON form.

The file is one JSON object::

    {"format": "spit-save 1",
     "settings": {"game": "spit", "layout": "1-5", ..., "counts": "off",
                  "seats": ["person", "steady"], "mute": false, "tie_us": 100},
     "games": [3, 1], "matches": [1, 0],
     "reactions": [{"best_ms": 412, "recent_ms": [530, 611, ...]}, {...}]}

``settings`` holds the game played (``spit`` or ``speed``), every rule option of
``spit.options``, who plays each seat (``person`` or a CPU level), whether sound is
muted and the tie window in µs.
``games`` are the games won per seat in the match being played (a ``Match``'s
``wins``, so a match goes on after a power-off) and ``matches`` the matches won per
seat since the tally was last reset. ``reactions`` keeps each player's best
reaction and their last ``RECENT`` reactions, oldest first, so the median survives
a power-off without a growing list (``spit.reactions``).

Reading is forgiving: a value that is missing, of the wrong type or out of range is
replaced by its default, never obeyed, and every other value is kept. Only text that
is not a JSON object of this format is refused as a whole (``SaveDataError``), so
the storage can fall back to an older copy.

>>> data = SaveData.parse('{"format": "spit-save 1", "games": [2, "x"]}')
>>> data.games, data.tie_us
([0, 0], 100)
"""

import json

from micropython import const

from spit import games
from spit.arbiter import TIE_US
from spit.options import CHOICES, Options

FORMAT = "spit-save 1"
PERSON = "person"
# ``spit.cpu``'s level names, written here: the CPU machinery is imported with a game's
# CPU player, in a break, not at boot (tests/test_cpu.py holds them equal).
LEVEL_NAMES = ("relaxed", "steady", "quick", "lightning")
SEAT_CHOICES = (PERSON,) + LEVEL_NAMES

# The tie window must stay well inside the arbiter's 1000 µs settle window, which
# also has to cover the capture's delay from a stamp to the ring.
TIE_MIN_US = const(20)
TIE_MAX_US = const(500)
# Reactions kept for the median: odd, so the median is one of them.
RECENT = const(31)
# No reaction is faster than this (a sprint start counts under 100 ms as false) or,
# to count as a reaction at all, slower than REACTION_MAX_MS.
REACTION_MIN_MS = const(100)
REACTION_MAX_MS = const(5000)
# Far more wins than a device will see, small enough to stay a small int everywhere.
_MAX_COUNT = const(1_000_000)


class SaveDataError(ValueError):
    pass


class SaveData:
    """Attributes: ``game`` (a name in ``spit.games``), ``options`` (``Options``), ``seats`` (two
    of ``SEAT_CHOICES``), ``muted``, ``tie_us``, ``games`` and ``matches`` (won per seat),
    ``best_ms`` (per player, 0 for none yet) and ``recent_ms`` (per player, oldest first)."""

    def __init__(self):
        self.game = games.NAMES[0]
        self.options = Options()
        self.seats = [PERSON, PERSON]
        self.muted = False
        self.tie_us = TIE_US
        self.games = [0, 0]
        self.matches = [0, 0]
        self.best_ms = [0, 0]
        self.recent_ms = [[], []]

    def levels(self):
        """The ``Session``'s ``levels``: None for a person, else the CPU level name."""
        return tuple(None if seat == PERSON else seat for seat in self.seats)

    def to_dict(self):
        settings = {"game": self.game}
        for name, _ in CHOICES:
            settings[name] = self.options.get(name)
        settings["seats"] = list(self.seats)
        settings["mute"] = self.muted
        settings["tie_us"] = self.tie_us
        reactions = [
            {"best_ms": self.best_ms[p], "recent_ms": list(self.recent_ms[p])} for p in (0, 1)
        ]
        return {
            "format": FORMAT,
            "settings": settings,
            "games": list(self.games),
            "matches": list(self.matches),
            "reactions": reactions,
        }

    def text(self):
        return json.dumps(self.to_dict())

    @staticmethod
    def from_dict(raw):
        """Save data from a parsed JSON object, each bad value replaced by its default."""
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise SaveDataError("not %s data" % FORMAT)
        data = SaveData()
        settings = _dict(raw.get("settings"))
        if settings.get("game") in games.NAMES:
            data.game = settings["game"]
        for name, values in CHOICES:
            value = settings.get(name)
            if value in values and isinstance(value, str):
                data.options.set(name, value)
        seats = _pair(settings.get("seats"), lambda seat: seat in SEAT_CHOICES)
        if seats is not None:
            data.seats = seats
        if isinstance(settings.get("mute"), bool):
            data.muted = settings["mute"]
        if _int_in(settings.get("tie_us"), TIE_MIN_US, TIE_MAX_US):
            data.tie_us = settings["tie_us"]
        for field in ("games", "matches"):
            counts = _pair(raw.get(field), lambda n: _int_in(n, 0, _MAX_COUNT))
            if counts is not None:
                setattr(data, field, counts)
        reactions = raw.get("reactions")
        if isinstance(reactions, list) and len(reactions) == 2:
            for player in (0, 1):
                _read_reactions(data, player, _dict(reactions[player]))
        return data

    @staticmethod
    def parse(text):
        """Save data from the file's text (str or bytes); raises ``SaveDataError`` if
        it is not a JSON object of this format."""
        try:
            raw = json.loads(text)
        except ValueError:  # also CPython's UnicodeDecodeError
            raise SaveDataError("not JSON") from None
        return SaveData.from_dict(raw)


def is_reaction(ms):
    return _int_in(ms, REACTION_MIN_MS, REACTION_MAX_MS)


def _read_reactions(data, player, raw):
    if is_reaction(raw.get("best_ms")):
        data.best_ms[player] = raw["best_ms"]
    recent = raw.get("recent_ms")
    if isinstance(recent, list):
        data.recent_ms[player] = [ms for ms in recent if is_reaction(ms)][-RECENT:]


def _dict(value):
    return value if isinstance(value, dict) else {}


def _pair(value, valid):
    """A two-item list whose items are both valid, as a new list, else None."""
    if isinstance(value, list) and len(value) == 2 and valid(value[0]) and valid(value[1]):
        return [value[0], value[1]]
    return None


def _int_in(value, low, high):
    # bool is an int subclass: true is not a count of wins.
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
