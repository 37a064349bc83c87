"""A glyph row of big text as a shape for ``Pen.shape``, in plain Python.

``spit.big_text_viper`` holds the same function in viper code, where the port compiles it
(the RP2040); ``spit.twins`` picks that twin where it loads and this one everywhere else.
Big text is 8x8 text magnified: each run of set bits in a glyph row becomes one
rectangle, ``scale`` pixels high, which ``ink`` paints upright or turned.
"""

from micropython import const

_ROW_BYTES = const(40)  # a row of the 1-bit text bitmap: 320 pixels, 8 a byte


def glyph_row_shape(bits, shape, spec):
    """Write glyph row ``spec[0]`` of the first ``spec[1]`` characters of ``bits`` (8x8
    text in a 320-pixel ``MONO_HLSB`` row, starting at its left) into ``shape``, magnified
    ``spec[2]`` times: its width and height, then a rectangle (left, top, width, height)
    for each run of set bits, and zeros (empty rectangles) to the end of ``shape``, which
    must hold 4 rectangles a character."""
    chars = spec[1]
    scale = spec[2]
    shape[0] = 8 * chars * scale
    shape[1] = scale
    at = 2
    base = spec[0] * _ROW_BYTES
    for char in range(chars):
        byte = bits[base + char]
        column = 8 * char
        while byte:  # the leftmost pixel at 0x80
            if byte & 0x80:
                run = 0
                while byte & 0x80:
                    run += 1
                    byte = byte << 1 & 0xFF
                shape[at] = column * scale
                shape[at + 1] = 0
                shape[at + 2] = run * scale
                shape[at + 3] = scale
                at += 4
                column += run
            else:
                byte = byte << 1 & 0xFF
                column += 1
    end = len(shape)
    while at < end:
        shape[at] = 0
        at += 1
