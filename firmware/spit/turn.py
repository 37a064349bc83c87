"""A window of RGB565 pixels turned 180 degrees in place, in plain Python.

``spit.turn_viper`` holds the same function in viper code, where the port compiles it
(the RP2040); ``spit.hot`` picks that twin where it loads and this one everywhere else.
A window's pixels in reverse order are the window turned about its centre: what player 2
reads of a row drawn upright.
"""


def turn_pixels(buf):
    """Reverse the order of the 2-byte pixels in ``buf``, keeping each pixel's bytes."""
    i = 0
    j = len(buf) - 2
    while i < j:
        low = buf[i]
        high = buf[i + 1]
        buf[i] = buf[j]
        buf[i + 1] = buf[j + 1]
        buf[j] = low
        buf[j + 1] = high
        i += 2
        j -= 2
