"""A builtin called in a pass is bound in its module's globals.

On MicroPython a builtin is looked for in the module's globals first, a hash table that grows
only once full, and found only after that search fails: ``len(x)`` took from 5.4 to 21.6 µs
a call on the emulated Pico depending on the module, 2.9 µs in each once bound there
(``python -m host_sim.bench.lookups``, ``docs/performance.md``). ``for ... in range(...)``
is compiled to a counting loop that never looks ``range`` up.
"""

import ast
import os

from host_sim.bench.lookups import MODULES

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
# The builtins the firmware's functions call in a pass.
CALLED = {"abs", "isinstance", "len", "max", "min", "sum", "type"}


def _called_and_bound(module):
    path = os.path.join(FIRMWARE, *module.split(".")) + ".py"
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    bound = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                bound |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    called = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    called.add(node.func.id)
    return called & CALLED, bound


def test_every_builtin_a_module_of_a_pass_calls_is_bound_in_its_globals():
    unbound = {}
    for module in MODULES:
        called, bound = _called_and_bound(module)
        if called - bound:
            unbound[module] = sorted(called - bound)
    assert unbound == {}


def test_the_check_finds_a_builtin_left_unbound(tmp_path, monkeypatch):
    spit = tmp_path / "spit"
    spit.mkdir()
    (spit / "loose.py").write_text("max = max\n\n\ndef f(a):\n    return len(a) + max(a)\n")
    monkeypatch.setattr(__import__(__name__), "FIRMWARE", str(tmp_path))
    assert _called_and_bound("spit.loose") == ({"len", "max"}, {"max"})
