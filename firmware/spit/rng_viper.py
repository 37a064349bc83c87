"""``spit.rng``'s ``below`` and ``shuffle`` in viper code, for ports that compile it
(the RP2040: the 32-bit state is one machine word there, so a step needs no halves).
The same numbers as the plain twins, which a test checks on the emulated Pico."""

import micropython


@micropython.viper
def below(state, n: int) -> int:
    """The next number modulo ``n``; ``state`` is the halves ``[high, low]``."""
    s = ptr16(state)  # noqa: F821 (a viper built-in)
    x = uint(s[0]) << 16 | uint(s[1])  # noqa: F821
    x ^= x << 13
    x ^= x >> 17
    x ^= x << 5
    s[0] = x >> 16
    s[1] = x & 0xFFFF
    return ((int(s[0]) % n) * (65536 % n) + int(s[1])) % n


@micropython.viper
def shuffle(state, items):
    """Shuffle a list in place (Fisher-Yates), drawing as ``below`` does."""
    s = ptr16(state)  # noqa: F821
    x = uint(s[0]) << 16 | uint(s[1])  # noqa: F821
    i = int(len(items)) - 1
    while i > 0:
        x ^= x << 13
        x ^= x >> 17
        x ^= x << 5
        n = i + 1
        j = ((int(x >> 16) % n) * (65536 % n) + int(x & 0xFFFF)) % n
        item = items[i]
        items[i] = items[j]
        items[j] = item
        i -= 1
    s[0] = x >> 16
    s[1] = x & 0xFFFF
