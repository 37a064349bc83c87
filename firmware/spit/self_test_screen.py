"""The self-test's screen (``Renderer.self_test``): every button's press count and the time
since its last press on its player's half, colour bars across the middle, a colour mark
in each corner, the tie-window calibration's histogram and two lines of text.

``self_test_row(screens, k)`` is its composer (``spit.static_screens``): step ``k`` of the
screen, a row of text made or a region of the bars, the corners or the histogram drawn.
The bars and corners are drawn after a clear, the histogram when its bins change.
Imported when the self-test is first drawn: every module imported at boot takes heap and
boot time.
"""

from micropython import const

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
from spit.pen import DIM, FELT, HIGHLIGHT, WHITE

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


_BACKDROP = len(COLOUR_BARS) + len(CORNER_MARKS)  # its steps: a bar or a mark each
_CELL = const(5)  # a cell of the counts and ages: five characters, a region wide
_GLYPH_ROW = const(8)
_BINS_MAX = const(32)
_UNSURE = const(255)  # the histogram's bins count while it is being drawn


def prepare(screens):
    """Make what the screen draws with: the windows of the bars and corners (made later,
    with the heap locked, they could not be), whether the backdrop and the histogram are
    due at a drawing's start, and the bins the histogram shows (after how many)."""
    pen = screens.pen
    pen.view(WIDTH // len(COLOUR_BARS), BARS_H)
    pen.view(MESSAGE_H, MESSAGE_H)
    screens.self_test_due = bytearray(2)
    screens.histogram_shows = [_UNSURE] + [0] * _BINS_MAX


def self_test_row(screens, k):
    due = screens.self_test_due
    if k == 0:
        due[0] = screens.backdrop_due
        due[1] = screens.backdrop_due or not _same_bins(screens)
    if k < _BACKDROP and due[0]:
        _backdrop(screens.pen, k)
        screens.backdrop_due = k < _BACKDROP - 1
        return True
    k -= _BACKDROP if due[0] else 0
    histogram = _histogram_steps(screens) if due[1] else 0
    half = 5 + histogram  # a half's steps: three rows of cells, the histogram, two lines
    player = k // half
    if player > 1:
        return False
    k %= half
    if k < 3:
        _cells(screens, player, k)
    elif k < 3 + histogram:
        if player == 0 and k == 3:
            screens.histogram_shows[0] = _UNSURE  # until its last region is drawn
        _histogram(screens, player, k - 3)
        if player == 1 and k == 2 + histogram:
            _keep_bins(screens)
    else:
        line = k - 3 - histogram
        screens.begin(player, HALF_Y + 84 + line * ROW_PITCH, WHITE)
        if line < len(screens.shown[3]):
            screens.put(screens.shown[3][line])
        screens.end()
    return True


def _backdrop(pen, k):
    """Colour bar ``k``, then the corner marks: red top left, green top right, blue bottom
    left, white bottom right, as player 1 sees the screen: a panel turned or mirrored, or
    with red and blue swapped, shows them elsewhere."""
    bars = len(COLOUR_BARS)
    if k < bars:
        width = WIDTH // bars
        pen.begin(pen.view(width, BARS_H), k * width, BARS_Y, False, COLOUR_BARS[k])
    else:
        k -= bars
        mark = pen.view(MESSAGE_H, MESSAGE_H)
        x = k % 2 * (WIDTH - MESSAGE_H)
        pen.begin(mark, x, k // 2 * (HEIGHT - MESSAGE_H), False, CORNER_MARKS[k])
    pen.end()


def _cells(screens, player, row):
    """A row of eight cells of up to five characters, each a region (as a row of the texts
    padded to five would show them), so that a cell that changes redraws its region
    alone: the keys' names, the counts and the ages (tenths of a second)."""
    colour = HIGHLIGHT if row == 0 else WHITE if row == 1 else DIM
    screens.begin(player, HALF_Y + 10 + 12 * row, colour)
    first = player * KEYS_PER_PLAYER
    for button in range(KEYS_PER_PLAYER):
        screens.skip_to(_CELL * button)
        if row == 0:
            screens.put(KEY_NAMES[button])
        elif row == 1:
            screens.put_number(min(screens.shown[0][first + button], 9999))
        else:
            _age(screens, screens.shown[1][first + button])
    screens.end(0)


def _age(screens, tenths):
    """Time since a press as the self-test shows it: ``0.4s``, ``12s``; ``-`` for none."""
    if tenths < 0:
        screens.put("-")
        return
    if tenths < 100:
        screens.put_number(tenths // 10)
        screens.put(".")
        screens.put_number(tenths % 10)
    else:
        screens.put_number(min(tenths // 10, 999))
    screens.put("s")


def _histogram_steps(screens):
    return HISTOGRAM_H // _GLYPH_ROW * (WIDTH // screens.renderer.piece_width())


def _histogram(screens, player, step):
    """A region of the histogram: bars as tall as their share of the fullest bin."""
    pen = screens.pen
    bins = screens.shown[2]
    count = len(screens.shown[2])
    piece = screens.renderer.piece_width()
    pieces = WIDTH // piece
    y = HISTOGRAM_Y + step // pieces * _GLYPH_ROW
    left = step % pieces * piece
    most = 0
    for i in range(count):
        most = max(most, bins[i])
    width = WIDTH // count if count else WIDTH
    pen.begin(pen.row_view(piece), left, y, player == 1, FELT)
    # Only the bins whose bars reach into this region.
    for i in range(left // width, min(count, (left + piece - 1) // width + 1)):
        height = bins[i] * HISTOGRAM_H // most if most else 0
        top = HISTOGRAM_Y + HISTOGRAM_H - height
        pen.rect(i * width + 1, top, width - 2, height, DIM)
    pen.end()


def _same_bins(screens):
    bins = screens.shown[2]
    shows = screens.histogram_shows
    count = len(screens.shown[2])
    if count != shows[0]:
        return False
    i = 0
    while i < count and shows[i + 1] == bins[i]:
        i += 1
    return i == count


def _keep_bins(screens):
    bins = screens.shown[2]
    shows = screens.histogram_shows
    shows[0] = len(screens.shown[2])
    for i in range(shows[0]):
        shows[i + 1] = bins[i]
