"""The self-test's screen (``Renderer.self_test``): every button's press count and the time
since its last press on its player's half, colour bars across the middle, a colour mark
in each corner, the tie-window calibration's histogram and two lines of text.

``steps(screens, presses, ages, bins, lines)`` is its drawing, a region a step, through
the static screens' rows (``spit.static_screens``). Imported when the self-test is first
drawn: every module imported at boot takes heap and boot time.
"""

from spit.keys import KEY_NAMES, KEYS_PER_PLAYER
from spit.layout import (
    BARS_H,
    BARS_Y,
    HALF_Y,
    HEIGHT,
    HISTOGRAM_H,
    HISTOGRAM_Y,
    MESSAGE_H,
    ROW_PITCH,
    WIDTH,
)
from spit.pace import HEAP
from spit.pen import DIM, FELT, HIGHLIGHT, PIECE_W, WHITE

# The colour bars: if the panel's byte order or colour order were wrong, these would
# come out in the wrong colours.
COLOUR_BARS = (
    0x00F8,  # red
    0xE007,  # green
    0x1F00,  # blue
    0xFF07,  # cyan
    0x1FF8,  # magenta
    0xE0FF,  # yellow
    0xFFFF,  # white
    0x0000,  # black
)

# The corner marks: top left, top right, bottom left, bottom right.
CORNER_MARKS = (0x00F8, 0xE007, 0x1F00, 0xFFFF)


def steps(screens, presses, ages, bins, lines):
    if screens.backdrop_due:
        yield from _bars(screens.pen)
        yield from _corners(screens.pen)
        screens.backdrop_due = False
    for player in (0, 1):
        first = player * KEYS_PER_PLAYER
        counts = ["%d" % presses[first + button] for button in range(KEYS_PER_PLAYER)]
        yield from _cells(screens, player, KEY_NAMES, HALF_Y + 10, HIGHLIGHT)
        yield from _cells(screens, player, counts, HALF_Y + 22, WHITE)
        yield from _cells(screens, player, ages[first : first + KEYS_PER_PLAYER], HALF_Y + 34, DIM)
        yield from _histogram(screens, player, bins)
        for i in range(2):
            text = lines[i] if i < len(lines) else ""
            screens.row(player, text, HALF_Y + 84 + i * ROW_PITCH, WHITE)
            yield


def _cells(screens, player, cells, y, colour):
    """Steps drawing a row of eight texts of up to five characters, each in a piece of
    its own (as a row of the texts padded to five would show them), so that a text that
    changes redraws its piece alone: the counts and the ages."""
    if screens.renderer.piece_width() == WIDTH:
        row = "".join("%-5s" % cell for cell in cells)
        screens.row(player, row, y, colour, 0)
        yield
        return
    pieces = screens.row_pieces(player, y)
    drew = False
    for i in range(len(cells)):
        left = i * PIECE_W
        content = (cells[i], colour, left)
        if pieces[i] != content:
            pieces[i] = content
            with HEAP:
                screens.pen.text_row(player, cells[i], left, y, colour, left, PIECE_W)
            drew = True
            yield
    if not drew:
        yield  # nothing new in this row: looking at it was a step (rows a step at most)


def _corners(pen):
    """Red top left, green top right, blue bottom left, white bottom right, as player 1
    sees the screen: a panel turned or mirrored, or with red and blue swapped, shows
    them elsewhere."""
    mark = pen.view(MESSAGE_H, MESSAGE_H)
    for i, c in enumerate(CORNER_MARKS):
        pen.begin(mark, i % 2 * (WIDTH - MESSAGE_H), i // 2 * (HEIGHT - MESSAGE_H), False, c)
        pen.end()
        yield


def _bars(pen):
    width = WIDTH // len(COLOUR_BARS)
    bar = pen.view(width, BARS_H)
    for i, c in enumerate(COLOUR_BARS):
        pen.begin(bar, i * width, BARS_Y, False, c)
        pen.end()
        yield


def _histogram(screens, player, bins):
    """Bars as tall as their share of the fullest bin, in rows of 8 pixels."""
    pen = screens.pen
    most = max(bins) if bins else 0
    width = WIDTH // len(bins) if bins else WIDTH
    piece = screens.renderer.piece_width()
    content = tuple(bins)
    for y in range(HISTOGRAM_Y, HISTOGRAM_Y + HISTOGRAM_H, MESSAGE_H):
        pieces = screens.row_pieces(player, y)
        for left in range(0, WIDTH, piece):
            if pieces[left // piece] == content:
                continue
            pieces[left // piece] = content
            pen.begin(pen.row_view(piece), left, y, player == 1, FELT)
            # Only the bins whose bars reach into this piece.
            for i in range(left // width, min(len(bins), (left + piece - 1) // width + 1)):
                height = bins[i] * HISTOGRAM_H // most if most else 0
                top = HISTOGRAM_Y + HISTOGRAM_H - height
                pen.rect(i * width + 1, top, width - 2, height, DIM)
            pen.end()
            yield
