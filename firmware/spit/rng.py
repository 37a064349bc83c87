"""A small seeded generator (xorshift32) that gives the same numbers everywhere.

The rules engine owns one, so a seed fixes the deal, every later shuffle and,
through ``derive``, the CPU players' reaction times, on MicroPython and CPython
alike.

The 32-bit state is kept as two 16-bit halves in an array: on the Pico an int of
2**30 or more lives on the heap, and a draw must not allocate. Only ``next()``,
used for seeds, builds the whole 32-bit number. The module functions ``step``,
``below`` and ``shuffle`` are plain Python; ``spit.rng_viper`` holds ``below`` and
``shuffle`` in viper code (the state is one machine word there: a shuffle of the deck
in 1 ms instead of 7), and the generators draw through it where the port loads it.

>>> Rng(1).next()
270369
"""

from array import array

from spit.twins import fast

_MASK = 0xFFFFFFFF
_HALF = 0xFFFF
_GOLDEN = 0x9E3779B9


def step(state):
    """One xorshift32 step of ``state``, the halves ``[high, low]``."""
    hi = state[0]
    lo = state[1]
    # x ^= x << 13
    hi ^= ((hi << 13) | (lo >> 3)) & _HALF
    lo ^= (lo << 13) & _HALF
    # x ^= x >> 17
    lo ^= hi >> 1
    # x ^= x << 5
    hi ^= ((hi << 5) | (lo >> 11)) & _HALF
    lo ^= (lo << 5) & _HALF
    state[0] = hi
    state[1] = lo


def below(state, n):
    """The next number modulo ``n`` (``n`` below 2**14), without building it whole;
    the bias of the modulo is under 2**-18 for the sizes used here."""
    step(state)
    return ((state[0] % n) * (65536 % n) + state[1]) % n


def shuffle(state, items):
    """Shuffle a list in place (Fisher-Yates), drawing as ``below`` does."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]


# This module is the plain twin, so it takes its viper twin itself (``spit.twins``
# imports nothing that imports it back); the generators draw through whichever loaded.
_viper = fast("spit.rng", "viper")
_below = below if _viper is None else _viper.below
_shuffle = shuffle if _viper is None else _viper.shuffle


class Rng:
    def __init__(self, seed):
        seed = (seed & _MASK) or _GOLDEN
        self._state = array("H", (seed >> 16, seed & _HALF))

    @property
    def state(self):
        """The whole 32-bit state, for comparing generators."""
        return self._state[0] << 16 | self._state[1]

    def follow(self, other):
        """Take ``other``'s state: from now on this generator draws what ``other`` would."""
        self._state[0] = other._state[0]
        self._state[1] = other._state[1]

    def next(self):
        """The next 32-bit number."""
        step(self._state)
        return self.state

    def below(self, n):
        """The next number modulo ``n`` (``n`` below 2**14)."""
        return _below(self._state, n)

    def shuffle(self, items):
        """Shuffle a list in place (Fisher-Yates)."""
        _shuffle(self._state, items)


def derive(seed, salt):
    """A generator for a side stream (say, one CPU seat) that leaves the deal untouched."""
    rng = Rng((seed ^ (salt * _GOLDEN)) & _MASK)
    for _ in range(4):
        step(rng._state)
    return rng
