"""Bitmaps of the card faces' ranks and suits, bigger than the built-in 8x8 font.

Each glyph is drawn here as rows of ``X`` (ink) and ``.`` (card), then kept as
its horizontal runs: ``bytes((width, height, x, y, length, x, y, length, ...))``.
A run is one ``fill_rect`` at any scale, and turning a run 180 degrees is only
arithmetic, so the renderer draws player 2's cards with no rotated copies.
Strokes are two pixels wide so that the cards read at arm's length.
"""

_RANK_ART = (
    # A
    (
        "..XXX..",
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        "XXXXXXX",
        "XXXXXXX",
        "XX...XX",
        "XX...XX",
        "XX...XX",
    ),
    # 2
    (
        ".XXXXX.",
        "XX...XX",
        ".....XX",
        "....XX.",
        "...XX..",
        "..XX...",
        ".XX....",
        "XX.....",
        "XXXXXXX",
    ),
    # 3
    (
        "XXXXXX.",
        ".....XX",
        ".....XX",
        "..XXXX.",
        ".....XX",
        ".....XX",
        ".....XX",
        "XX...XX",
        ".XXXXX.",
    ),
    # 4
    (
        "....XX.",
        "...XXX.",
        "..XXXX.",
        ".XX.XX.",
        "XX..XX.",
        "XXXXXXX",
        "....XX.",
        "....XX.",
        "....XX.",
    ),
    # 5
    (
        "XXXXXXX",
        "XX.....",
        "XX.....",
        "XXXXXX.",
        ".....XX",
        ".....XX",
        ".....XX",
        "XX...XX",
        ".XXXXX.",
    ),
    # 6
    (
        "..XXXX.",
        ".XX....",
        "XX.....",
        "XXXXXX.",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        ".XXXXX.",
    ),
    # 7
    (
        "XXXXXXX",
        ".....XX",
        "....XX.",
        "....XX.",
        "...XX..",
        "...XX..",
        "..XX...",
        "..XX...",
        "..XX...",
    ),
    # 8
    (
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        ".XXXXX.",
    ),
    # 9
    (
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        ".XXXXXX",
        ".....XX",
        ".....XX",
        "....XX.",
        ".XXXX..",
    ),
    # 10
    (
        ".XX..XXX.",
        "XXX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        ".XX.XX.XX",
        "XXXX.XXX.",
    ),
    # J
    (
        "..XXXXX",
        "....XX.",
        "....XX.",
        "....XX.",
        "....XX.",
        "....XX.",
        "XX..XX.",
        "XX..XX.",
        ".XXXX..",
    ),
    # Q
    (
        ".XXXXX.",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        "XX...XX",
        "XX.X.XX",
        "XX.XXX.",
        ".XXXXX.",
        "....XXX",
    ),
    # K
    (
        "XX...XX",
        "XX..XX.",
        "XX.XX..",
        "XXXX...",
        "XXX....",
        "XXXX...",
        "XX.XX..",
        "XX..XX.",
        "XX...XX",
    ),
)

# In the order of ``cards.SUIT_NAMES``: clubs, diamonds, hearts, spades.
_SUIT_ART = (
    ("..XXX..", "..XXX..", "XX.X.XX", "XXXXXXX", "XX.X.XX", "...X...", "..XXX.."),
    ("...X...", "..XXX..", ".XXXXX.", "XXXXXXX", ".XXXXX.", "..XXX..", "...X..."),
    (".XX.XX.", "XXXXXXX", "XXXXXXX", "XXXXXXX", ".XXXXX.", "..XXX..", "...X..."),
    ("...X...", "..XXX..", ".XXXXX.", "XXXXXXX", "XXXXXXX", ".X.X.X.", "..XXX.."),
)

# Diamonds and hearts are red.
RED_SUITS = (False, True, True, False)


def runs(art):
    """The runs of a glyph drawn as rows of ``X`` and ``.``."""
    packed = [len(art[0]), len(art)]
    for y, row in enumerate(art):
        # find() walks the row in C: the boot makes every glyph at import.
        start = row.find("X")
        while start >= 0:
            end = row.find(".", start)
            if end < 0:
                end = len(row)
            packed += (start, y, end - start)
            start = row.find("X", end)
    return bytes(packed)


RANKS = tuple(runs(art) for art in _RANK_ART)
SUITS = tuple(runs(art) for art in _SUIT_ART)
