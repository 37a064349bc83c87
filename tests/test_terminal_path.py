"""A person's whole path through the simulator's terminal view, in a pseudo-terminal.

``python -m host_sim`` runs with no display on a pty; the person reads the screen back
through a terminal emulator (pyte), as a terminal shows it, and types keys as bytes:
from the title to the match result against the CPU and back to the title, where the
next game is chosen, then Esc.
"""

import os
import select
import signal
import time

import pyte
import pytest
from helpers.person import look_at_text
from spit import keys
from spit.match_mode import EAGER_US, READY_US
from spit.modes import TITLE_US
from spit.session import NEXT_MATCH_US
from test_sim import Terminal, python_sim

from host_sim.sim import keyboard as sim_keys

pytestmark = pytest.mark.person_path

ROWS, COLUMNS = 50, 120  # as ``Terminal`` sets the pty
SPEED = 16  # the simulation runs this many times faster than the wall clock


class TerminalView(Terminal):
    """The terminal view on a pty (``test_sim.Terminal``), and the screen as a terminal
    emulator shows it."""

    def __init__(self, *args):
        super().__init__(python_sim("--pace", str(SPEED), *args))
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)

    def read(self, seconds=0.01):
        end = time.monotonic() + seconds
        while True:
            ready, _, _ = select.select([self.master], [], [], max(0, end - time.monotonic()))
            if not ready:
                return
            try:
                self.stream.feed(os.read(self.master, 65536))
            except OSError:
                return

    def lines(self):
        self.read()
        return [line.rstrip() for line in self.screen.display]

    def look(self):
        """The table as the terminal shows it, once a redraw under way has finished."""
        for _ in range(50):
            try:
                return look_at_text(self.lines())
            except ValueError:  # a line caught half redrawn
                self.read(0.02)
        raise AssertionError("the terminal never settled:\n" + "\n".join(self.lines()))

    def type(self, player, key):
        char = sim_keys.chars_of(sim_keys.key_label(keys.button_id(player, key)))[0]
        os.write(self.master, char.encode())
        time.sleep(0.06 / SPEED)  # the view holds it 40 ms; then it reads released

    def text(self):
        return "\n".join(self.lines())

    def until_text(self, text, seconds=2):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if text in self.text():
                return
        raise AssertionError("no %r on the terminal:\n%s" % (text, self.text()))

    def until(self, *names, seconds=10):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            shown = self.look().screen
            if shown in names:
                return shown
        raise AssertionError("no %s on the terminal:\n%s" % (names, "\n".join(self.lines())))

    def close(self):
        """The view gone, whatever happened: a failed test leaves no simulator running."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)


@pytest.fixture
def terminal():
    views = []

    def start(*args):
        views.append(TerminalView(*args))
        return views[-1]

    yield start
    for view in views:
        view.close()


def play_against_the_cpu(view, seen):
    """P1 plays until the match result; every screen shown is noted in ``seen``."""
    end = time.monotonic() + 240
    while time.monotonic() < end:
        look = view.look()
        if not seen or seen[-1] != look.screen:
            seen.append(look.screen)
        if look.screen == "match result":
            return
        if look.screen == "round result":
            time.sleep(1.0 / SPEED)  # read it
        for key in look.next_keys(0):
            view.type(0, key)
    raise AssertionError("no match result: %s" % seen)


def test_a_person_plays_a_match_against_the_cpu_in_the_terminal(terminal, tmp_path):
    view = terminal("--p2", "cpu:steady", "--seed", "5", "--record", str(tmp_path))
    view.until("title")
    assert "Tab holds SPIT for the settings" in "\n".join(view.lines())
    view.type(0, keys.SPIT)
    view.until("ready", seconds=2)
    time.sleep(EAGER_US / 1e6)  # a person reads the ready screen
    seen = ["title", "ready"]
    play_against_the_cpu(view, seen)
    for screen in ("countdown", "play", "slap", "round result"):
        assert screen in seen, seen
    view.until("title", seconds=2 * NEXT_MATCH_US / 1e6 / SPEED + 5)  # the people choose
    assert "game: Spit" in view.text()
    view.type(0, keys.LEFT)
    view.until_text("game: Speed")
    assert view.look().screen == "title" and "press SPEED (Space)" in view.text()
    view.until("attract", seconds=2 * TITLE_US / 1e6 / SPEED + 5)  # the title left alone
    view.type(1, keys.C2)  # any button but SPIT: the title again
    view.until("title", seconds=2)
    assert "game: Speed" in view.text()
    os.write(view.master, b"\x1b")
    code, err = view.finish()
    assert code == 0 and "Traceback" not in err, err


def test_a_person_plays_a_match_of_speed_against_the_cpu_in_the_terminal(terminal, tmp_path):
    view = terminal(
        "--game", "speed", "--p2", "cpu:steady", "--seed", "5", "--record", str(tmp_path)
    )
    view.until("title")
    title = "\n".join(view.lines())
    assert "game: Speed" in title and "press SPEED (Space) to start a match" in title
    view.type(0, keys.SPIT)
    view.until("ready", seconds=2)
    assert "press SPEED" in "\n".join(view.lines())
    time.sleep(EAGER_US / 1e6)  # a person reads the ready screen
    seen = ["title", "ready"]
    play_against_the_cpu(view, seen)
    for screen in ("countdown", "play", "stuck", "game over"):
        assert screen in seen, seen
    assert "round result" not in seen and "slap" not in seen
    shown = "\n".join(view.lines())
    assert "Speed  games won" in shown and "wins (out of cards)" in shown, shown
    assert "wins the match" in shown, shown
    view.until("title", seconds=2 * NEXT_MATCH_US / 1e6 / SPEED + 5)  # the people choose
    view.type(0, keys.RIGHT)
    view.until_text("game: Spit")
    view.type(0, keys.LEFT)
    view.until_text("game: Speed")
    view.type(0, keys.SPIT)
    view.until("ready", seconds=2)
    view.until("title", seconds=2 * READY_US / 1e6 / SPEED + 5)  # nobody pressed SPIT
    os.write(view.master, b"\x1b")
    code, err = view.finish()
    assert code == 0 and "Traceback" not in err, err
    names = sorted(os.listdir(tmp_path))
    assert len(names) >= 2
    for name in names:
        with open(tmp_path / name) as f:
            assert f.readline() == "speed-transcript 1\n"
