"""``make emu-port`` as a builder uses it: the emulated Pico behind a serial port, flashed
with ``make flash``, then powered on again from its flashed filesystem (``--flash``),
its title judged from the screen it saved (the PNG decoded from the firmware's SPI bytes),
pixel for pixel against the firmware's renderer on the host.

The port runs in step with the wall clock, and the flashed firmware runs the shipped
configuration (the PIO capture), so each power-on takes tens of seconds: ``make soak``.
"""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from host_sim.display.png import decode
from host_sim.emu import port as port_command
from host_sim.emu.board import firmware_paths
from host_sim.emu.pictures import differing_box, drawn
from host_sim.emu.reading import read_seed
from host_sim.micropython_vm import REPO

pytestmark = pytest.mark.skipif(
    firmware_paths() is None, reason="no MicroPython UF2 and RP2040 boot ROM"
)

PORT_LINE = re.compile(r"^Emulated Pico on (\S+): ")
TITLE_WITHIN_S = 240  # boot and title on the emulator at wall-clock pace, on a busy machine


class PortCommand:
    """``python -m host_sim.emu.port`` running, as ``make emu-port`` runs it."""

    def __init__(self, flash_file, screen_file):
        self.screen_file = screen_file
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_sim.emu.port", "--flash", flash_file,
             "--screen", screen_file],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        match = PORT_LINE.match(line)
        assert match, "no port in its first line: %r" % line
        self.port = match.group(1)

    def title_seed(self):
        """Wait for the saved screen to show a title; its seed."""
        deadline = time.monotonic() + TITLE_WITHIN_S
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.proc.stderr.read()
            rgb = self.screen()
            seed = read_seed(rgb) if rgb else None
            if seed is not None:
                return seed, rgb
            time.sleep(1)
        raise AssertionError("no title on %s within %d s" % (self.screen_file, TITLE_WITHIN_S))

    def screen(self):
        if not os.path.exists(self.screen_file):
            return None
        with open(self.screen_file, "rb") as f:
            return decode(f.read())[2]

    def stop(self):
        """Ctrl-C: it exits 0, saying nothing but where the filesystem went."""
        self.proc.send_signal(signal.SIGINT)
        out, err = self.proc.communicate(timeout=60)
        return self.proc.returncode, err


def assert_title(rgb, seed):
    title = drawn(lambda renderer: renderer.title("SPIT", seed))
    assert rgb == title, "the title differs from the renderer's in %s" % (
        differing_box(rgb, title),
    )


def test_a_flash_file_that_is_no_filesystem_is_one_line(tmp_path, capsys):
    wrong = tmp_path / "board.img"
    wrong.write_bytes(b"not a filesystem")
    assert port_command.main(["--flash", str(wrong)]) == 2
    lines = capsys.readouterr().err.splitlines()  # a warning first, for an untested UF2
    assert lines[-1].startswith("make emu-port: --flash %s: 16 bytes" % wrong)
    assert not any(line.startswith("make emu-port: --") for line in lines[:-1])


@pytest.mark.soak
def test_flash_the_emulated_pico_over_its_port_then_power_it_on_again(tmp_path):
    flash_file = str(tmp_path / "board.img")
    port = PortCommand(flash_file, str(tmp_path / "first.png"))
    try:
        env = {k: v for k, v in os.environ.items() if k != "MAKEFLAGS"}
        env["PORT"] = port.port
        made = subprocess.run(
            ["make", "-s", "flash"], cwd=REPO, env=env, capture_output=True, text=True,
            timeout=600,
        )
        assert made.returncode == 0, made.stdout + made.stderr
        assert "Installed" in made.stdout and "restarting the board" in made.stdout
        # make flash ends with machine.reset(): the board starts again from its flash.
        seed, rgb = port.title_seed()
        assert_title(rgb, seed)
    finally:
        code, err = port.stop()
    assert code == 0 and "Traceback" not in err, err
    assert "the board reset" in err
    assert os.path.getsize(flash_file) == 1408 * 1024

    again = PortCommand(flash_file, str(tmp_path / "again.png"))
    try:
        seed, rgb = again.title_seed()
        assert_title(rgb, seed)
    finally:
        code, err = again.stop()
    assert code == 0 and "Traceback" not in err, err
