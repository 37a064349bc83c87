"""``make emu-port`` as a builder uses it: the emulated Pico behind a serial port, stopped
and started again as a board is powered off and on, with its filesystem kept in between
(or fresh, ``--fresh``); flashed with ``make flash``, then powered on again from its
flashed filesystem, its title judged from the screen it saved (the PNG decoded from the
firmware's SPI bytes), pixel for pixel against the firmware's renderer on the host.

The port runs in step with the wall clock, and the flashed firmware runs the shipped
configuration (the PIO capture), so each power-on with it takes tens of seconds: ``make
soak``.
"""

import os
import re
import signal
import subprocess
import sys
import time

import pytest
from mpremote.transport_serial import SerialTransport

from host_sim.display.png import decode
from host_sim.emu import port as port_command
from host_sim.emu.emulated_pico import firmware_paths
from host_sim.emu.fs_image import FS_BYTES
from host_sim.judging.compare import differing_box, drawn
from host_sim.judging.reading import read_seed
from host_sim.vm.micropython_vm import REPO

pytestmark = [
    pytest.mark.emulated_pico,
    pytest.mark.skipif(firmware_paths() is None, reason="no MicroPython UF2 and RP2040 boot ROM"),
]

PORT_LINE = re.compile(r"^Emulated Pico on (\S+): ")
TITLE_WITHIN_S = 240  # boot and title on the emulator at wall-clock pace, on a busy machine


# make emu-port, with the default place of its flash moved to a test's own folder.
_WITH_DEFAULT_FLASH = (
    "import sys; from host_sim.emu import port; port.DEFAULT_FLASH = sys.argv.pop(1);"
    " sys.exit(port.main())"
)


class PortCommand:
    """``python -m host_sim.emu.port`` running, as ``make emu-port`` runs it; with
    ``default_flash``, that file is where its flash goes by default."""

    def __init__(self, screen_file, *flags, default_flash=None):
        self.screen_file = screen_file
        command = [sys.executable, "-m", "host_sim.emu.port"]
        if default_flash is not None:
            command = [sys.executable, "-c", _WITH_DEFAULT_FLASH, default_flash]
        self.proc = subprocess.Popen(
            [*command, *flags, "--screen", screen_file],
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

    def exec(self, code):
        """Run ``code`` at the board's REPL, as ``mpremote exec`` does; what it printed."""
        transport = SerialTransport(self.port, baudrate=115200)
        try:
            transport.enter_raw_repl(soft_reset=False)
            return transport.exec(code).decode()
        finally:
            transport.close()

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


_WRITE = "f = open('/note.txt', 'w')\nf.write('kept')\nf.close()"
_READ = "import os\nprint(sorted(os.listdir('/')))"


def test_stopped_and_started_again_it_keeps_its_flash_unless_fresh(tmp_path):
    kept = tmp_path / ".emu" / "board.img"
    screen = str(tmp_path / "screen.png")

    def power_on(*flags):
        return PortCommand(screen, *flags, default_flash=str(kept))

    def stop(board):
        code, err = board.stop()
        assert code == 0 and "Traceback" not in err, err
        return err

    board = power_on()
    try:
        assert board.exec(_READ).strip() == "[]"
        board.exec(_WRITE)
    finally:
        said = stop(board)
    assert "a board fresh from the UF2; its flash is kept in %s" % kept in said
    assert "stopped; its filesystem is kept in %s" % kept in said
    assert kept.stat().st_size == FS_BYTES

    board = power_on()  # the same board, powered on again
    try:
        assert board.exec(_READ).strip() == "['note.txt']"
        assert board.exec("print(open('/note.txt').read())").strip() == "kept"
    finally:
        said = stop(board)
    assert "powered on from its flash in %s (--fresh: a new board)" % kept in said

    board = power_on("--fresh")
    try:
        assert board.exec(_READ).strip() == "[]"
    finally:
        stop(board)
    board = power_on()  # --fresh replaced the kept flash
    try:
        assert board.exec(_READ).strip() == "[]"
    finally:
        stop(board)


@pytest.mark.soak
def test_flash_the_emulated_pico_over_its_port_then_power_it_on_again(tmp_path):
    flash_file = str(tmp_path / "board.img")
    port = PortCommand(str(tmp_path / "first.png"), "--flash", flash_file)
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

    again = PortCommand(str(tmp_path / "again.png"), "--flash", flash_file)
    try:
        seed, rgb = again.title_seed()
        assert_title(rgb, seed)
    finally:
        code, err = again.stop()
    assert code == 0 and "Traceback" not in err, err
