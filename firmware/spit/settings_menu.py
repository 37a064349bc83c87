"""The settings menu (SPEC 5): the game played, every rule option, who plays each seat
and the sound, a row each, the values those of the saved data, changed in place.

``L``/``R`` move the cursor between rows and any card button changes the value of the
row under it; ``SPIT`` (the settings mode's, ``spit.modes``) saves them and starts a new match.

>>> from spit.savedata import SaveData
>>> menu = SettingsMenu(SaveData())
>>> menu.press(0); menu.saved.game, menu.rows[0]
('speed', ['game', 'speed'])
"""

from spit import games, keys
from spit.options import CHOICES, after
from spit.savedata import SEAT_CHOICES

_GAME_ROW = "game"
_SEAT_ROWS = ("P1", "P2")
_SOUND_ROW = "sound"
_SOUND_VALUES = ("on", "off")
_OPTIONS_END = len(CHOICES) + 1  # the rows up to the seats': the game, the rule options


class SettingsMenu:
    """Constructor: ``SettingsMenu(saved)``. Attributes: ``rows`` (``[name, value]`` a
    row, made once, kept up to date), ``cursor`` (the row under it) and ``changes`` (how
    often a value changed: the screen redraws when it does)."""

    def __init__(self, saved):
        self.saved = saved
        names = [_GAME_ROW] + [name for name, _ in CHOICES] + list(_SEAT_ROWS) + [_SOUND_ROW]
        self.rows = [[name, ""] for name in names]
        self.cursor = 0
        self.changes = 0
        self.read()

    def open(self):
        """The menu as it opens: the cursor on the first row, the values read afresh."""
        self.cursor = 0
        self.read()

    def read(self):
        """Every row's value from the saved data; the rows."""
        for row in range(len(self.rows)):
            self._read(row)
        return self.rows

    def _read(self, row):
        """Row ``row``'s value from the saved data."""
        saved = self.saved
        if row == 0:
            value = saved.game
        elif row < _OPTIONS_END:
            value = saved.options.get(self.rows[row][0])
        elif row < _OPTIONS_END + len(_SEAT_ROWS):
            value = saved.seats[row - _OPTIONS_END]
        else:
            value = _SOUND_VALUES[1 if saved.muted else 0]
        self.rows[row][1] = value

    def press(self, key):
        """``L``/``R`` move the cursor; a card button changes the row's value."""
        if key == keys.LEFT:
            self.cursor = (self.cursor - 1) % len(self.rows)
        elif key == keys.RIGHT:
            self.cursor = (self.cursor + 1) % len(self.rows)
        elif key < keys.LEFT:
            self._change(self.cursor)

    def _change(self, row):
        saved = self.saved
        if row == 0:
            saved.game = after(games.NAMES, saved.game)
        elif row < _OPTIONS_END:
            name, values = CHOICES[row - 1]
            saved.options.set(name, after(values, saved.options.get(name)))
        elif row < _OPTIONS_END + len(_SEAT_ROWS):
            seat = row - _OPTIONS_END
            saved.seats[seat] = after(SEAT_CHOICES, saved.seats[seat])
        else:
            saved.muted = not saved.muted
        self._read(row)  # the row alone: reading every row takes 1-2 ms on the chip
        self.changes += 1
