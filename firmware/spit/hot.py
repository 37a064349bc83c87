"""The hot loops, native where the port can run machine code, plain everywhere else.

Importing ``spit.fast_native`` fails where there is no native emitter (a SyntaxError on
the WebAssembly VM) or where its machine code is for another architecture (a
ValueError from the .mpy loader); then the plain twins of ``spit.fast`` serve.
``NATIVE`` says which were taken.
"""

try:
    from spit.fast_native import can_play, count_fits, fitting_ranks

    NATIVE = True
except (ImportError, SyntaxError, ValueError):
    from spit.fast import can_play, count_fits, fitting_ranks

    NATIVE = False

__all__ = ("NATIVE", "can_play", "count_fits", "fitting_ranks")
