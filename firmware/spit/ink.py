"""A shape painted in one colour onto a window of RGB565 pixels, in plain Python.

``spit.ink_viper`` holds the same function in viper code, which the renderer paints its
glyphs with where the port loads it (``spit.twins``). Elsewhere the renderer blits them
through ``framebuf`` instead, quicker than this loop and with no frame on the heap; this
twin is the definition both are checked against (``tests/test_fast.py`` and
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
