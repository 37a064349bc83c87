"""Button ids shared by the capture drivers, the arbiter and the controls.

Each player has eight buttons; a button id is ``player * 8 + key``, so player 1
(bottom edge, index 0) owns ids 0-7 and player 2 (top edge, index 1) owns 8-15.

>>> button_name(button_id(1, RIGHT))
'P2 R'
"""

from micropython import const

C1 = const(0)
C2 = const(1)
C3 = const(2)
C4 = const(3)
C5 = const(4)
LEFT = const(5)
RIGHT = const(6)
SPIT = const(7)

KEYS_PER_PLAYER = const(8)
BUTTON_COUNT = const(16)
# ``player_of`` and ``key_of`` as operators, for the paths that run on every press:
# a call costs tens of microseconds on the Pico.
PLAYER_SHIFT = const(3)
KEY_MASK = const(7)

KEY_NAMES = ("C1", "C2", "C3", "C4", "C5", "L", "R", "SPIT")


def button_id(player, key):
    return player * KEYS_PER_PLAYER + key


def player_of(button):
    return button >> PLAYER_SHIFT


def key_of(button):
    return button & KEY_MASK


def button_name(button):
    return "P%d %s" % (player_of(button) + 1, KEY_NAMES[key_of(button)])
