"""``spit.ink``'s shape painted in one colour onto a window, in viper code.

The renderer blits its glyphs through ``framebuf`` with a two-colour palette, which goes
pixel by pixel through function pointers: about 1 ms for a stock card's rank and suit
on the RP2040. Here the same shape, kept as the rectangles that make it up, is filled
row by row, two pixels a word where it can. Where the port cannot load it, ``spit.twins``
gives the renderer None and it blits as before. It must paint the plain twin's pixels,
and those framebuf's blit paints: ``tests/test_fast.py`` and ``tests/test_emu_speed.py``.
"""

import micropython


@micropython.viper
def ink(window, shape, spec):
    """Paint the rectangles of ``shape`` in one colour, clipped to the window.

    ``shape``: its width and height, then a rectangle's left, top, width and height
    after another, a byte each. ``spec`` (``array("i")``): the window's width and height
    in pixels, the shape's top left in it, the colour as framebuf stores it, and 1 to
    paint the shape turned 180 degrees within its own bounds. The window's buffer must
    be word-aligned (a bytearray's is): two pixels go in a word where they can."""
    s = ptr32(spec)  # noqa: F821 (a viper built-in)
    src = ptr8(shape)  # noqa: F821
    x = int(s[2])
    y = int(s[3])
    ww = int(s[0])
    wh = int(s[1])
    if x >= ww or y >= wh or x + int(src[0]) <= 0 or y + int(src[1]) <= 0:
        return  # nothing of the shape lies in the window (a band of a card, say)
    colour = int(s[4])
    pair = colour | colour << 16
    turned = int(s[5])
    dst = ptr16(window)  # noqa: F821
    words = ptr32(window)  # noqa: F821
    end = int(len(shape))
    at = 2
    while at < end:
        left = x + int(src[at])
        top = y + int(src[at + 1])
        right = left + int(src[at + 2])
        bottom = top + int(src[at + 3])
        if turned:
            right = 2 * x + int(src[0]) - left
            left = right - int(src[at + 2])
            bottom = 2 * y + int(src[1]) - top
            top = bottom - int(src[at + 3])
        at += 4
        if left < 0:
            left = 0
        if right > ww:
            right = ww
        if top < 0:
            top = 0
        if bottom > wh:
            bottom = wh
        if right - left <= 2 and left < right:
            # A column a pixel or two wide (a card's edge, a glyph's stem): the rows
            # without the loop that pairs pixels, about three times quicker.
            i = top * ww + left
            two = right - left == 2
            while top < bottom:
                dst[i] = colour
                if two:
                    dst[i + 1] = colour
                i += ww
                top += 1
            continue
        row = top * ww
        while top < bottom:
            i = row + left
            stop = row + right
            if i & 1 and i < stop:
                dst[i] = colour
                i += 1
            while i + 1 < stop:
                words[i >> 1] = pair
                i += 2
            if i < stop:
                dst[i] = colour
            row += ww
            top += 1
