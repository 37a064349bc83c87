"""The hot loops, each from its fast twin where this port can load it, else its plain twin.

A job's plain twin is ``spit/<job>.py``; its fast twin holds the same functions (or the
hot ones of them) for the native code emitter, named after the emitter:
``spit/<job>_native.py`` (``@micropython.native``) or ``spit/<job>_viper.py``
(``@micropython.viper``). ``pick`` falls back to the plain twin only where the port
cannot load the machine code; a fast twin that fails for any other reason raises, so a
broken one never hides behind its plain twin. ``LOADED`` says which twin each job runs,
``{"spit.fits": "native", ...}``.

The firmware imports the functions bound here: a call through a module's attribute
would cost a lookup a call. ``spit.rng`` is its job's plain twin and the generators'
module at once, so it takes its viper twin itself, through ``fast``.
"""

# What each port raises for a fast twin it cannot load, and only that. A SyntaxError:
# the WebAssembly VM and the host (its ``micropython`` module) compile no decorated
# source. A ValueError: the VM loads no .mpy holding machine code, and no port loads one
# for another CPU (armv6m code on an RP2350's RISC-V cores, say).
_CANNOT_LOAD = (
    "invalid micropython decorator",
    "native code in .mpy unsupported",
    "incompatible .mpy arch",
)
_VERSIONS = ("native", "viper", "plain")

LOADED = {}


def _module(name):
    # With a from-list, ``__import__`` returns the module itself rather than its package.
    return __import__(name, None, None, ("*",))


def fast(job, emitter):
    """The fast twin of ``job`` (say ``"spit.fits"``, ``"native"``: ``spit.fits_native``),
    or None where this port cannot load it."""
    try:
        twin = _module(job + "_" + emitter)
    except (SyntaxError, ValueError) as error:
        if str(error) not in _CANNOT_LOAD:
            raise
        LOADED[job] = "plain"
        return None
    LOADED[job] = emitter
    return twin


def pick(job, emitter):
    """The fast twin of ``job`` where this port can load it, else the plain twin."""
    return fast(job, emitter) or _module(job)


def summary():
    """How many jobs run each version: ``"twins: native 1, viper 3, plain 0"``."""
    versions = list(LOADED.values())
    counts = ", ".join("%s %d" % (version, versions.count(version)) for version in _VERSIONS)
    return "twins: " + counts


_fits = pick("spit.fits", "native")
can_play = _fits.can_play
count_fits = _fits.count_fits
fitting_ranks = _fits.fitting_ranks

glyph_row_shape = pick("spit.big_text", "viper").glyph_row_shape

# None where viper does not load: the renderer then blits its glyphs through framebuf.
_ink = fast("spit.ink", "viper")
ink = _ink.ink if _ink else None
