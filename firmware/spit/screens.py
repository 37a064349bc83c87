"""The device's screens (SPEC 5), as a code each and the name a player gives it.

``Controller.screen(now)`` says which one shows; the renderer draws it, and every view
beside the device (the simulator's window and terminal, the bench, the emulator's
probes) reads the same answer instead of working it out again.
"""

from micropython import const

TITLE = const(0)
ATTRACT = const(1)
SETTINGS = const(2)
ERROR = const(3)
SELF_TEST = const(4)
READY = const(5)
COUNTDOWN = const(6)
PLAY = const(7)
STUCK = const(8)
SLAP = const(9)
ROUND_RESULT = const(10)
GAME_OVER = const(11)
MATCH_RESULT = const(12)

NAMES = (
    "title",
    "attract",
    "settings",
    "error",
    "self-test",
    "ready",
    "countdown",
    "play",
    "stuck",
    "slap",
    "round result",
    "game over",
    "match result",
)
