"""Text read off a picture of the screen: the rows of 8x8 text the firmware writes with
``framebuf``'s font, as player 1 sees them (upright, on the bottom half). A picture is
``WIDTH * HEIGHT * 3`` bytes of RGB, rows top down (``VirtualDisplay.rgb()``, a decoded
PNG).

    read_row(rgb, y)             # "seed 2630925", or None where no centred text lies
    read_text(rgb, x, y, length) # "pack 14 ": ``length`` cells from x, y; "?": no glyph
    read_seed(rgb)               # the title's seed: 2630925
    turned(rgb)                  # the picture turned half a turn: player 2's half upright

The power-on seed comes from the chip's random source, so only the screen tells which
games the board will deal; with it, the host deals the same ones.
"""

import framebuf
from spit.layout import HALF_Y, ROW_PITCH

from host_sim.display import WIDTH

GLYPH = 8
# The title's seed row (``Renderer.title``): two rows under "press SPIT".
SEED_Y = HALF_Y + 56 + 2 * ROW_PITCH
_SEED_WORD = "seed "


def _font():
    """Each printable character's 8x8 bitmap (eight row masks) -> the character."""
    font = {}
    for code in range(32, 127):
        cell = bytearray(GLYPH)
        fb = framebuf.FrameBuffer(cell, GLYPH, GLYPH, framebuf.MONO_HLSB)
        fb.text(chr(code), 0, 0, 1)
        font.setdefault(bytes(cell), chr(code))
    return font


_FONT = _font()


def _ink_rows(rgb, y):
    """The band of rows ``y`` to ``y + 7`` as one int per row, bit x set where the pixel
    is not the band's background (its commonest colour)."""
    pixels = []
    for row in range(y, y + GLYPH):
        line = rgb[row * WIDTH * 3 : (row + 1) * WIDTH * 3]
        pixels.append([bytes(line[x * 3 : x * 3 + 3]) for x in range(WIDTH)])
    counts = {}
    for line in pixels:
        for colour in line:
            counts[colour] = counts.get(colour, 0) + 1
    background = max(counts, key=counts.get)
    return [sum(1 << x for x, c in enumerate(line) if c != background) for line in pixels]


def _cell(rows, x):
    """The MONO_HLSB bitmap of the 8x8 cell at column ``x`` (bit 7 the leftmost)."""
    out = bytearray(GLYPH)
    for i, mask in enumerate(rows):
        bits = mask >> x & 0xFF
        out[i] = int(f"{bits:08b}"[::-1], 2)
    return bytes(out)


def read_row(rgb, y):
    """The centred row of 8x8 text whose top is at ``y``, or None when the band holds
    no such row (empty, or anything but the font's glyphs)."""
    rows = _ink_rows(rgb, y)
    ink = 0
    for mask in rows:
        ink |= mask
    if not ink:
        return None
    for length in range(1, WIDTH // GLYPH + 1):
        x0 = (WIDTH - GLYPH * length) // 2
        outside = ink & ~(((1 << (GLYPH * length)) - 1) << x0)
        if outside:
            continue
        text = "".join(_FONT.get(_cell(rows, x0 + GLYPH * i), "\0") for i in range(length))
        if "\0" not in text and text[0] != " " and text[-1] != " ":
            return text
    return None


def read_text(rgb, x, y, length):
    """``length`` cells of 8x8 text, the first with its top left at ``x, y``, read against
    the commonest colour of the cells together (text on a badge reads as on the felt):
    " " for a cell with no ink, "?" for ink that is no glyph of the font."""
    rows = [
        rgb[((y + dy) * WIDTH + x) * 3 : ((y + dy) * WIDTH + x + GLYPH * length) * 3]
        for dy in range(GLYPH)
    ]
    counts = {}
    for row in rows:
        for at in range(0, len(row), 3):
            colour = row[at : at + 3]
            counts[colour] = counts.get(colour, 0) + 1
    background = max(counts, key=counts.get)
    text = []
    for i in range(length):
        cell = bytes(
            sum(
                0x80 >> dx
                for dx in range(GLYPH)
                if row[(GLYPH * i + dx) * 3 : (GLYPH * i + dx) * 3 + 3] != background
            )
            for row in rows
        )
        text.append(_FONT.get(cell, "?"))
    return "".join(text)


def turned(rgb):
    """The picture turned half a turn: player 2's half as player 2 sees it, at the
    places of player 1's."""
    out = bytearray(len(rgb))
    for c in range(3):
        out[c::3] = rgb[c::3][::-1]
    return bytes(out)


def read_seed(rgb):
    """The seed the title shows, or None when the title's seed row is not on screen."""
    text = read_row(rgb, SEED_Y)
    if text is None or not text.startswith(_SEED_WORD):
        return None
    digits = text[len(_SEED_WORD) :]
    return int(digits) if digits.isdigit() else None
