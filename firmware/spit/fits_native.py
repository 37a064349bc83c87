"""The functions of ``spit.fits``, compiled to machine code with ``@micropython.native``
where the port has a native emitter (the RP2040's does: Thumb code in the .mpy). Keep the
two modules line for line the same apart from the decorators; ``tests/test_fast.py``
checks it.
"""

import micropython
from micropython import const

from spit.cards import FITS

_RANKS = const(13)


@micropython.native
def fitting_ranks(middle):
    """Bit ``r`` set when a card of rank ``r`` fits one of the spit piles ``middle``."""
    ranks = 0
    for cards in middle:
        if cards:
            ranks |= FITS[cards[-1]]
    return ranks


@micropython.native
def can_play(stock, ranks):
    """True if a top of ``stock`` (a player's slots) has a rank in the mask ``ranks``."""
    for cards in stock:  # noqa: SIM110 (any() over a generator allocates)
        if cards and ranks >> cards[-1] % _RANKS & 1:
            return True
    return False


@micropython.native
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
