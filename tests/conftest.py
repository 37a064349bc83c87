"""Shared test setup: firmware importable on CPython, hypothesis profiles, the VM fixture and
the mark of the tests that take it."""

import os
import platform
import sys

import pytest
from helpers import pio_emulator
from hypothesis import settings

from host_sim.vm import micropython_vm as mpvm  # importing host_sim puts firmware/ on sys.path

# A slow CI machine must not turn into flaky deadline failures; on CI the examples are
# derived from each test's name, so a red run reproduces exactly.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev")
)


@pytest.fixture(autouse=True)
def simulator_save_elsewhere(tmp_path_factory, monkeypatch):
    """The simulator's save (``$XDG_DATA_HOME/spit-handheld``) in a folder of each test's
    own, never in the home folder of whoever runs the tests."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def rp2():
    """A fake ``rp2`` running the PIO on a cycle model (``pio_emulator``), installed for
    one test; ``drivers.pio_capture`` is imported afresh against it."""
    fake = pio_emulator.install()
    sys.modules.pop("drivers.pio_capture", None)
    yield fake
    sys.modules.pop("drivers.pio_capture", None)
    sys.modules.pop("rp2", None)


@pytest.fixture(name="mpvm")
def mpvm_fixture():
    """``run(code, ...)`` on the MicroPython VM; see host_sim/vm/micropython_vm.py."""
    return mpvm.run


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """A test that takes ``mpvm`` (itself or through a fixture) is marked ``micropython_vm``
    here, before ``-m`` selects; a test that reaches the VM another way, and every
    ``emulated_pico`` and ``person_path`` test, carries its mark in its own file."""
    for item in items:
        if "mpvm" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.micropython_vm)


def pytest_terminal_summary(terminalreporter):
    line = "CPython %s; MicroPython VM: %d runs" % (platform.python_version(), mpvm.runs)
    if mpvm.version:
        line += " on MicroPython %s" % mpvm.version
    terminalreporter.write_line(line)
