"""A small seeded generator (xorshift32) that gives the same numbers everywhere.

The rules engine owns one, so a seed fixes the deal, every later shuffle and,
through ``derive``, the CPU players' reaction times, on MicroPython and CPython
alike.

>>> Rng(1).next()
270369
"""

_MASK = 0xFFFFFFFF
_GOLDEN = 0x9E3779B9


class Rng:
    def __init__(self, seed):
        self.state = (seed & _MASK) or _GOLDEN

    def next(self):
        """The next 32-bit number."""
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x

    def below(self, n):
        """A number in ``range(n)``; the bias of the modulo is under 2**-25 for n <= 52."""
        return self.next() % n

    def shuffle(self, items):
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]


def derive(seed, salt):
    """A generator for a side stream (say, one CPU seat) that leaves the deal untouched."""
    rng = Rng((seed ^ (salt * _GOLDEN)) & _MASK)
    for _ in range(4):
        rng.next()
    return rng
