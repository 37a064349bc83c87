"""Cards as small integers.

A card is ``suit * 13 + rank`` with rank 0 for the ace up to 12 for the king, so a
whole deck is ``range(52)`` and a card costs no allocation. Ranks are circular:
the ace sits next to both the king and the two. Suits are only ever drawn. A pile
is a list of cards that keeps its room (``take_last``, ``with_room``).

>>> card_name(parse_card("10H"))
'10H'
>>> adjacent(parse_card("AS"), parse_card("KD"))
True
"""

from micropython import const

DECK_SIZE = const(52)
RANK_COUNT = const(13)

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_NAMES = ("C", "D", "H", "S")

# FITS[card]: bit r set for the two ranks r that may go onto ``card`` (one above and
# one below, round the ace). A table, so the hot paths test a fit with one shift.
FITS = tuple(1 << (card + 1) % RANK_COUNT | 1 << (card - 1) % RANK_COUNT for card in range(52))


def rank(card):
    return card % RANK_COUNT


def suit(card):
    return card // RANK_COUNT


def card_name(card):
    return RANK_NAMES[card % RANK_COUNT] + SUIT_NAMES[card // RANK_COUNT]


def parse_card(text):
    """The card named by ``text`` such as ``"QS"`` or ``"10d"``; ValueError otherwise."""
    name = text.strip().upper()
    if len(name) >= 2 and name[:-1] in RANK_NAMES and name[-1] in SUIT_NAMES:
        return SUIT_NAMES.index(name[-1]) * RANK_COUNT + RANK_NAMES.index(name[:-1])
    raise ValueError("not a card: %r" % text)


def adjacent(card, other):
    """True when the ranks are one apart, counting round the ace."""
    step = (card - other) % RANK_COUNT
    return step == 1 or step == RANK_COUNT - 1


class _Slices:
    def __getitem__(self, index):
        return index


# On MicroPython ``pop()`` gives a list's room back as it empties (and taking room back
# allocates), and a slice written in place (``del cards[-1:]``) is a new object each
# time; deleted through a slice made once, a list keeps its room, and a play allocates
# nothing (tests/test_handheld.py). MicroPython cannot call ``slice()``: these are made
# by subscripting.
SLICE = _Slices()  # ``SLICE[k:]`` is a slice, to make once and keep
_TOP = SLICE[-1:]
ALL = SLICE[:]  # ``del cards[ALL]`` empties a pile and keeps its room


def take_last(cards):
    """The top card of a pile, taken off as ``pop()`` would, the room kept."""
    card = cards[-1]
    del cards[_TOP]
    return card


def lay_reversed(pile, cards, start):
    """``pile`` emptied, then given ``cards`` from ``start`` on, the last first (its room
    kept: a slice would be a new list)."""
    del pile[ALL]
    i = len(cards) - 1
    while i >= start:
        pile.append(cards[i])
        i -= 1


def with_room(size):
    """An empty pile with room for ``size`` cards: adding to it allocates nothing."""
    cards = [0] * size
    del cards[ALL]
    return cards
