"""Which ranks fit the spit piles, and which of a player's tops fit them: the hottest
loops of the rules and the CPU, as plain functions.

``spit.fits_native`` holds the same functions for the native code emitter, and
``spit.twins`` picks it where the port can load it; ``tests/test_fast.py`` holds the
two line for line the same.

Ranks are ``card % 13``; ``FITS[card]`` (``spit.cards``) has bit ``r`` set for the two
ranks that go onto ``card``.
"""

from micropython import const

from spit.cards import FITS

_RANKS = const(13)


def fitting_ranks(middle):
    """Bit ``r`` set when a card of rank ``r`` fits one of the spit piles ``middle``."""
    ranks = 0
    for cards in middle:
        if cards:
            ranks |= FITS[cards[-1]]
    return ranks


def can_play(stock, ranks):
    """True if a top of ``stock`` (a player's slots) has a rank in the mask ``ranks``."""
    for cards in stock:  # noqa: SIM110 (any() over a generator allocates)
        if cards and ranks >> cards[-1] % _RANKS & 1:
            return True
    return False


def count_fits(stock, counts, above, below):
    """``counts[r]``: how many tops of ``stock`` fit a top of rank ``r``; ``above[r]`` and
    ``below[r]`` are the ranks next to ``r``."""
    for face in range(len(counts)):  # not a slice assignment: native code allocates its slice
        counts[face] = 0
    for cards in stock:
        if cards:
            face = cards[-1] % _RANKS
            counts[above[face]] += 1
            counts[below[face]] += 1
