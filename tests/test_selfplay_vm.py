"""Self-play gives byte-identical lines on CPython and on the MicroPython VM.

One program runs on both: ``run_lines`` over a few runs with different levels and rule
options. CPython executes the program text itself, so the two sides differ only in the
interpreter. The 200-game run takes about 18 s (16 s of it in the VM).
"""

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from host_sim.vm.micropython_vm import run

pytestmark = pytest.mark.micropython_vm

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
from spit.options import Options
from spit.selfplay import run_lines

for seed, games, options, levels in %r:
    for line in run_lines(seed, games, Options.parse(options), levels):
        print(line)
"""

# 32 games: the defaults, and every rule option that changes play, at every level.
RUNS = [
    (1, 20, "", ("steady", "steady")),
    (2, 4, "stack=on middle=one", ("quick", "relaxed")),
    (3, 4, "layout=3x5 pick=winner score=points", ("lightning", "steady")),
    (4, 4, "layout=1-4 stack=on match=single", ("relaxed", "quick")),
]


def on_cpython(program):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(program, {})
    return out.getvalue()


def compare(runs):
    program = PROGRAM % (runs,)
    expected = on_cpython(program)
    assert run(program) == expected
    return expected.splitlines()


def test_self_play_is_the_same_on_micropython():
    lines = compare(RUNS)
    assert len(lines) == sum(games + 1 for _, games, _, _ in RUNS)
    assert all(json.loads(line).get("winner", 1) for line in lines)


def test_two_hundred_games_are_the_same_on_micropython():
    lines = compare([(2026, 200, "", ("steady", "steady"))])
    assert json.loads(lines[-1])["games"] == 200


def test_the_command_line_prints_the_same_lines_from_micropython():
    args = [sys.executable, "-m", "host_sim.cpu_vs_cpu", "--seed", "5", "--games", "6"]
    args += ["--p1", "quick", "--middle", "one"]
    outputs = [
        subprocess.run(args + extra, capture_output=True, text=True, check=True, cwd=ROOT).stdout
        for extra in ([], ["--vm", "micropython"])
    ]
    assert outputs[0] == outputs[1]
    assert len(outputs[1].splitlines()) == 7
