"""A small seeded generator (xorshift32) that gives the same numbers everywhere.

The rules engine owns one, so a seed fixes the deal, every later shuffle and,
through ``derive``, the CPU players' reaction times, on MicroPython and CPython
alike.

The 32-bit state is kept as two 16-bit halves: on the Pico an int of 2**30 or
more lives on the heap, and a draw must not allocate. Only ``next()``, used for
seeds, builds the whole 32-bit number.

>>> Rng(1).next()
270369
"""

_MASK = 0xFFFFFFFF
_HALF = 0xFFFF
_GOLDEN = 0x9E3779B9


class Rng:
    def __init__(self, seed):
        seed = (seed & _MASK) or _GOLDEN
        self._hi = seed >> 16
        self._lo = seed & _HALF

    @property
    def state(self):
        """The whole 32-bit state, for comparing generators."""
        return self._hi << 16 | self._lo

    def _step(self):
        hi = self._hi
        lo = self._lo
        # x ^= x << 13
        hi ^= ((hi << 13) | (lo >> 3)) & _HALF
        lo ^= (lo << 13) & _HALF
        # x ^= x >> 17
        lo ^= hi >> 1
        # x ^= x << 5
        hi ^= ((hi << 5) | (lo >> 11)) & _HALF
        lo ^= (lo << 5) & _HALF
        self._hi = hi
        self._lo = lo

    def next(self):
        """The next 32-bit number."""
        self._step()
        return self._hi << 16 | self._lo

    def below(self, n):
        """The next number modulo ``n`` (``n`` below 2**14), without building it whole;
        the bias of the modulo is under 2**-18 for the sizes used here."""
        self._step()
        return ((self._hi % n) * (65536 % n) + self._lo) % n

    def shuffle(self, items):
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def derive(seed, salt):
    """A generator for a side stream (say, one CPU seat) that leaves the deal untouched."""
    rng = Rng((seed ^ (salt * _GOLDEN)) & _MASK)
    for _ in range(4):
        rng._step()
    return rng
