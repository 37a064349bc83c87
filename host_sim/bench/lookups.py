"""What a builtin costs a call in each firmware module, and a method in instances of each size,
on the emulated Pico.

MicroPython keeps a module's globals and an instance's attributes in hash tables that grow
only once they are full. A name that is not in such a table is known to be missing only at
the first empty slot after its hash, so in a table that is nearly full it is missing only
after most of the table was searched: a builtin, which is looked for in the module's globals
first, and a method, looked for among the instance's attributes before its class. The hot
modules bind the builtins their functions call (``len, max = len, max``);
``tests/test_lookups.py`` holds them to it.

``builtin_costs()`` times ``len(x)`` in each module's globals, less an empty loop, in µs a
call; ``method_costs()`` times a method call on instances with 1 to 60 attributes.

``python -m host_sim.bench.lookups`` prints both.
"""

from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico
from host_sim.emu.fs_image import board_files

# The modules of a pass, with the games' own, which the device imports in a break.
MODULES = (
    "spit.controller",
    "spit.match_mode",
    "spit.static_screens",
    "spit.rows",
    "spit.play_screen",
    "spit.play_regions",
    "spit.pen",
    "spit.pictures",
    "spit.table",
    "spit.controls",
    "spit.games",
    "spit.cpu",
    "spit.spit",
    "spit.spit_cpu",
    "spit.speed",
)
_CALLS = 500

_BUILTINS = """
import time
MODULES = %(modules)r
%(imports)s
SOURCE = '''
def _lookup_len(n, a):
    x = 0
    for i in range(n):
        x += len(a)
    return x
def _lookup_none(n, a):
    x = 0
    for i in range(n):
        x += 1
    return x
'''
for name in MODULES:
    names = __import__(name, None, None, ("x",)).__dict__
    exec(SOURCE, names)
    took = []
    for fn in (names["_lookup_none"], names["_lookup_len"]):
        start = time.ticks_us()
        fn(%(calls)d, [1, 2])
        took.append(time.ticks_diff(time.ticks_us(), start))
    print(name, len(names), took[1] - took[0])
"""

_METHODS = """
import time
class Held:
    def __init__(self, n):
        for i in range(n):
            setattr(self, "a%%d" %% i, i)
    def m(self):
        return 1
def calls(o, n):
    x = 0
    for i in range(n):
        x += o.m()
    return x
def none(o, n):
    x = 0
    for i in range(n):
        x += 1
    return x
for n in (1, 8, 16, 30, 40, 47, 60):
    o = Held(n)
    took = []
    for fn in (none, calls):
        start = time.ticks_us()
        fn(o, %(calls)d)
        took.append(time.ticks_diff(time.ticks_us(), start))
    print(n, took[1] - took[0])
"""


def _rows(pico, code):
    out = pico.exec(code, within_us=100_000_000)
    return [line.split() for line in out.strip().splitlines()]


def builtin_costs():
    """``{module: (names in its globals, µs a call of len)}``."""
    imports = "from spit import games\nfor name in games.NAMES:\n    games.prepare(name)\n"
    code = _BUILTINS % {"modules": MODULES, "imports": imports, "calls": _CALLS}
    with EmulatedPico(files=board_files(main=False)) as pico:
        pico.run_us(BOOT_US)
        rows = _rows(pico, code)
    return {name: (int(size), int(us) / _CALLS) for name, size, us in rows}


def method_costs():
    """``{attributes: µs a method call}`` on instances of a class defined at the REPL."""
    with EmulatedPico(files={}) as pico:
        pico.run_us(BOOT_US)
        rows = _rows(pico, _METHODS % {"calls": _CALLS})
    return {int(n): int(us) / _CALLS for n, us in rows}


def main():
    print("len(x) a call, by module (names in its globals):")
    for name, (size, us) in builtin_costs().items():
        print("  %-22s %3d  %5.1f µs" % (name, size, us))
    print("a method call, by the instance's attributes:")
    for n, us in method_costs().items():
        print("  %3d  %5.1f µs" % (n, us))


if __name__ == "__main__":
    main()
