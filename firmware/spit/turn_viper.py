"""``spit.turn``'s ``turn_pixels`` in viper code, for ports that compile it (the RP2040).
It must give the plain twin's bytes, which ``tests/test_fast.py`` checks by running this
source with ``ptr16`` and ``ptr32`` over memoryviews."""

import micropython


@micropython.viper
def turn_pixels(buf):
    """Reverse the order of the 2-byte pixels in ``buf``, keeping each pixel's bytes."""
    n = int(len(buf)) >> 1
    if n & 1 == 0 and int(ptr8(buf)) & 3 == 0:  # noqa: F821 (a viper built-in)
        # Two pixels a word, the word's halves swapped: half the loads and stores.
        words = ptr32(buf)  # noqa: F821
        i = 0
        j = (n >> 1) - 1
        while i <= j:
            a = uint(words[i])  # noqa: F821
            b = uint(words[j])  # noqa: F821
            words[i] = (b >> 16) | ((b & 0xFFFF) << 16)
            words[j] = (a >> 16) | ((a & 0xFFFF) << 16)
            i += 1
            j -= 1
        return
    pixels = ptr16(buf)  # noqa: F821
    i = 0
    j = n - 1
    while i < j:
        pixel = pixels[i]
        pixels[i] = pixels[j]
        pixels[j] = pixel
        i += 1
        j -= 1
