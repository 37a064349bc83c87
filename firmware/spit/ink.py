"""A shape, or the set bits of a 1-bit bitmap, painted in one colour onto a window of
RGB565 pixels, in plain Python.

``spit.ink_viper`` holds the same functions in viper code, which the pen paints with
where the port loads it (``spit.twins``). Elsewhere the pen blits through ``framebuf``
instead, quicker than these loops and with no frame on the heap; this twin is the
definition both are checked against (``tests/test_fast.py`` and
``tests/test_emu_speed.py``).
"""


def ink(window, shape, spec):
    """Paint the rectangles of ``shape`` in one colour, clipped to the window.

    ``shape``: its width and height, then a rectangle's left, top, width and height
    after another, a byte each. ``spec``: the window's width and height in pixels, the
    shape's top left in it, the colour as framebuf stores it (a 16-bit word, low byte
    first), and 1 to paint the shape turned 180 degrees within its own bounds."""
    width, height, x, y, colour, turned = spec
    low = colour & 0xFF
    high = colour >> 8 & 0xFF
    for at in range(2, len(shape), 4):
        left = x + shape[at]
        top = y + shape[at + 1]
        w = shape[at + 2]
        h = shape[at + 3]
        if turned:
            left = 2 * x + shape[0] - left - w
            top = 2 * y + shape[1] - top - h
        for row in range(max(top, 0), min(top + h, height)):
            for column in range(max(left, 0), min(left + w, width)):
                i = 2 * (row * width + column)
                window[i] = low
                window[i + 1] = high


def ink_bits(window, bits, spec):
    """Paint the set bits of ``bits`` in one colour, clipped to the window: what
    framebuf's blit of a ``MONO_HLSB`` bitmap through a palette keyed on its 0 paints.

    ``spec``: the window's width and height in pixels, the bitmap's top left in it, the
    colour as framebuf stores it, and the bitmap's bytes a row (its rows: the bytes it
    holds over that)."""
    width, height, x, y, colour, stride = spec
    low = colour & 0xFF
    high = colour >> 8 & 0xFF
    for row in range(len(bits) // stride):
        for column in range(8 * stride):
            if bits[row * stride + column // 8] & 0x80 >> column % 8:
                at_x = x + column
                at_y = y + row
                if 0 <= at_x < width and 0 <= at_y < height:
                    i = 2 * (at_y * width + at_x)
                    window[i] = low
                    window[i + 1] = high
