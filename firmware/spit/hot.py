"""The hot loops, native where the port can run machine code, plain everywhere else.

Importing ``spit.fast_native``, ``spit.turn_viper``, ``spit.big_text_viper`` or
``spit.ink_viper`` fails where there is no native or viper emitter (a SyntaxError on the
WebAssembly VM and the host) or where its machine code is for another architecture (a
ValueError from the .mpy loader); then the plain twins of ``spit.fast``, ``spit.turn``
and ``spit.big_text`` serve, and ``ink`` is None (the renderer then blits its glyphs
through framebuf). ``NATIVE`` and ``VIPER`` say which were taken.
"""

try:
    from spit.fast_native import can_play, count_fits, fitting_ranks

    NATIVE = True
except (ImportError, SyntaxError, ValueError):
    from spit.fast import can_play, count_fits, fitting_ranks

    NATIVE = False

try:
    from spit.turn_viper import turn_pixels

    VIPER = True
except (ImportError, SyntaxError, ValueError):
    from spit.turn import turn_pixels

    VIPER = False

try:
    from spit.big_text_viper import glyph_row_shape
except (ImportError, SyntaxError, ValueError):
    from spit.big_text import glyph_row_shape

try:
    from spit.ink_viper import ink
except (ImportError, SyntaxError, ValueError):
    ink = None  # the renderer blits through framebuf

__all__ = (
    "NATIVE",
    "VIPER",
    "can_play",
    "count_fits",
    "fitting_ranks",
    "glyph_row_shape",
    "ink",
    "turn_pixels",
)
