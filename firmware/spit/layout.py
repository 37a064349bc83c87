"""Pixel geometry of the screens: 320x240, landscape, player 1 at the bottom edge.

Player 2 sits at the top edge facing player 1, so their half of the screen is
player 1's half turned 180 degrees about the screen centre. Everything a player
owns is placed here as player 1 sees theirs; player 2's copy lands at
``(WIDTH - x - w, HEIGHT - y - h)``, drawn upside down. The spit piles sit in
the middle band, each card with its index both ways up, like a real card.

From player 1's edge inwards (y): the info strip (name, pack, SPIT call), the
stock row (cards with the pile's depth as edges to their right), then the
middle band: the message row, the pile counts, and the piles themselves,
shared by both players.
"""

from micropython import const

WIDTH = const(320)
HEIGHT = const(240)

# A card face, and the scales of its rank and suit glyphs (7 pixels wide, 9 or 7 tall).
CARD_W = const(44)
CARD_H = const(54)
BIG_SCALE = const(3)  # a stock card's rank and suit, read by its owner only
INDEX_SCALE = const(2)  # a spit pile's corner index, drawn both ways up
INSET = const(3)  # from the card's edge to its rank and suit
INDEX_INSET = const(4)
# A card goes to the screen in bands of rows, from its owner's top down (the last band
# may be shorter): a whole card's window is over 1 ms on the chip.
CARD_BANDS = const(2)

# A stock slot: the card with a 2-pixel highlight margin, then its depth as edges.
MARGIN = const(2)
FACE_W = const(CARD_W + 2 * MARGIN)
FACE_H = const(CARD_H + 2 * MARGIN)
EDGE_STEP = const(2)  # one card under the top shows as a 2-pixel edge
EDGES_MAX = const(8)
EDGES_W = const(EDGE_STEP * EDGES_MAX)
STOCK_Y = const(170)

# The info strip along the player's edge: name, pack size, SPIT call.
INFO_Y = const(228)
INFO_H = const(12)
INFO_W = const(88)
NAME_X = const(4)
PACK_X = const(116)
CALL_X = const(228)

# The middle band (y 70 to 170), symmetric about the screen's centre line.
PILE_Y = const(93)
PILE_GAP = const(8)
COUNT_Y = const(149)  # player 1's row of pile counts; player 2's is its mirror
COUNT_H = const(8)
MESSAGE_Y = const(160)  # player 1's message row (prompts, the margin banner)
MESSAGE_H = const(8)
STACK_STEP = const(2)  # each card of a spit pile adds 2 pixels of thickness

# Static screens: rows of text in player 1's half, mirrored for player 2.
HALF_Y = const(124)
ROW_PITCH = const(12)
BIG_TEXT_SCALE = const(4)
COUNTDOWN_SCALE = const(8)
SETTINGS_PITCH = const(10)
SETTINGS_ROWS = const(10)
BARS_Y = const(112)  # the self-test's colour bars, across the centre line
BARS_H = const(16)
HISTOGRAM_Y = const(168)  # the calibration histogram on each half
HISTOGRAM_H = const(32)
ERROR_COLUMNS = const(38)
ERROR_ROWS = const(8)

# The biggest window drawn at once, in bytes (RGB565: two per pixel): the countdown's
# digit and the title's word, 8x8 text magnified to 64x64 and 128x32 pixels (a longer
# word goes in more windows: ``spit.rows``).
WORK_BYTES = const(8192)


def slot_x(slots, slot):
    """Left edge of stock slot ``slot`` (from the player's left) of ``slots``."""
    width = WIDTH // slots
    return slot * width + (width - FACE_W - EDGES_W) // 2


def pile_x(piles, pile):
    """Left edge of spit pile ``pile``'s card: pile 0 on player 1's left."""
    if piles == 1:
        return (WIDTH - CARD_W) // 2
    return WIDTH // 2 - CARD_W - PILE_GAP // 2 + pile * (CARD_W + PILE_GAP)


def stack_x(piles, pile, index):
    """Left edge of the ``index``-th card's edge in a spit pile's thickness.

    The thickness grows outwards from the card, towards the screen's side."""
    if piles == 2 and pile == 1:
        return pile_x(piles, pile) + CARD_W + STACK_STEP * index
    return pile_x(piles, pile) - STACK_STEP * (index + 1)


def stack_max(piles):
    """How many edges fit between a pile's card and the screen's side."""
    return pile_x(piles, 0) // STACK_STEP
