"""The keyboard as two players' buttons: one layout for the window and the terminal view.

Player 1 takes the left of the keyboard and player 2 the right; each row reads C1..C5
from the left, SPIT is the big key on each side, and no key is a letter that names
another button (no `L`, `R`, `C` or `S`).
"""

from spit import keys

# Per player, in button order: C1..C5, L, R, SPIT.
LAYOUT = (
    ("1", "2", "3", "4", "5", "Z", "X", "Space"),
    ("7", "8", "9", "0", "-", ".", "/", "Enter"),
)
_CHARS = {"Space": (" ",), "Enter": ("\n", "\r")}
PLAYER_NAMES = ("player 1 (bottom)", "player 2 (top)")


def key_label(button):
    """The key that presses ``button``, as the help prints it."""
    return LAYOUT[keys.player_of(button)][keys.key_of(button)]


def chars_of(label):
    """The characters a terminal reads for the key ``label``."""
    return _CHARS.get(label, (label.lower(),))


def char_map():
    """``{character: button}`` for the terminal view."""
    out = {}
    for button in range(keys.BUTTON_COUNT):
        for char in chars_of(key_label(button)):
            out[char] = button
    return out


def how_lines():
    """What the buttons do."""
    return [
        "Cn then L/R plays a card (quick=on: Cn alone when it fits one pile);",
        "Cn then an empty Cm fills a gap; the card in hand again puts it back.",
        "SPIT calls spit (again: withdraw); after a round L/R slap.",
        "On the title L/R switch the game, Spit or Speed (whose SPIT calls SPEED).",
        "Hold SPIT 2 s between games for the settings.",
    ]


def help_lines():
    """The keys as a table, and what the buttons do."""
    lines = ["%-18s %-10s %-5s %-5s %s" % ("keys", "C1..C5", "L", "R", "SPIT")]
    for player, row in enumerate(LAYOUT):
        cards = " ".join(row[:5])
        lines.append("%-18s %-10s %-5s %-5s %s" % (PLAYER_NAMES[player], cards, *row[5:]))
    return lines + how_lines()
