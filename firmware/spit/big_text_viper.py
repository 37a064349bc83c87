"""``spit.big_text``'s ``glyph_row_shape`` in viper code, for ports that compile it (the
RP2040). It must write the plain twin's bytes, which ``tests/test_fast.py`` checks by
running this source with ``ptr8`` and ``ptr32`` over memoryviews, and
``tests/test_emu_speed.py`` on the emulated Pico."""

import micropython


@micropython.viper
def glyph_row_shape(bits, shape, spec):
    """See ``spit.big_text.glyph_row_shape``."""
    s = ptr32(spec)  # noqa: F821 (a viper built-in)
    src = ptr8(bits)  # noqa: F821
    dst = ptr8(shape)  # noqa: F821
    chars = int(s[1])
    scale = int(s[2])
    dst[0] = 8 * chars * scale
    dst[1] = scale
    at = 2
    base = int(s[0]) * 40  # a row of the bitmap: 320 pixels, 8 a byte
    char = 0
    while char < chars:
        byte = int(src[base + char])
        column = 8 * char
        while byte:  # the leftmost pixel at 0x80
            if byte & 0x80:
                run = 0
                while byte & 0x80:
                    run += 1
                    byte = byte << 1 & 0xFF
                dst[at] = column * scale
                dst[at + 1] = 0
                dst[at + 2] = run * scale
                dst[at + 3] = scale
                at += 4
                column += run
            else:
                byte = byte << 1 & 0xFF
                column += 1
        char += 1
    end = int(len(shape))
    while at < end:
        dst[at] = 0
        at += 1
