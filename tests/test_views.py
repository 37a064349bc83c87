"""Every view beside the device holds in every state the device can be in.

The window's side panel, the terminal view and the screen's name are read at every
pass around each change of screen, mode or phase (and every hundredth pass between),
from power-on through a whole CPU match to its result and the next match, and on the
settings, the error screen, attract mode and the self-test; also in the passes between
a press and the match it starts, and while a round is dealt.
"""

import pytest
from spit import keys
from spit.modes import SETTINGS, TITLE, TITLE_US
from spit.screens import NAMES

from host_sim.sim import terminal

pygame = pytest.importorskip("pygame")

from host_sim.sim import flags as sim_flags  # noqa: E402
from host_sim.sim import simulator as sim  # noqa: E402
from host_sim.sim import window  # noqa: E402

pytestmark = pytest.mark.person_path

P1_SPIT = keys.button_id(0, keys.SPIT)
NEAR_PASSES = 30  # passes after a change that are all looked at


@pytest.fixture(autouse=True)
def no_screen_no_speaker(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


class Watcher:
    """Passes of a simulated device, each change of state followed by every view."""

    def __init__(self, argv, tmp_path):
        args = sim_flags.parse_args(argv + ["--record", "", "--shots", str(tmp_path)])
        self.play = sim.Play(args, screen=True)
        self.window = window.Window(self.play, 2)
        self.device = self.play.device
        self.seen = set()
        self._state = None
        self._near = 0
        self._passes = 0

    def state(self):
        controller = self.device.controller
        session = controller.session
        game = session.table.game if session is not None else None
        phase = game.phase if game is not None else -1
        return (controller.mode, controller.screen(), id(session), phase)

    def look(self, changed):
        name = self.device.screen_name()
        assert name in NAMES
        self.seen.add(name)
        lines = terminal.screen_lines(self.device)
        assert lines[0] == "Spit handheld: " + name
        assert "screen: " + name in self.window._status()
        if changed:
            self.window.draw()

    def run(self, ms):
        for _ in range(ms):
            self.play.pacer.pass_once()
            self._passes += 1
            state = self.state()
            changed = state != self._state
            if changed:
                self._state = state
                self._near = NEAR_PASSES
            if self._near or self._passes % 100 == 0:
                self._near = max(0, self._near - 1)
                self.look(changed)
        assert self.device.handheld.errors == 0, self.device.handheld.last_error

    def tap(self, button):
        self.device.press(button)
        self.run(30)
        self.device.release(button)
        self.run(30)

    def until(self, name, within_ms):
        for _ in range(within_ms // 10):
            if self.device.screen_name() == name:
                return
            self.run(10)
        raise AssertionError("no %s: %s" % (name, sorted(self.seen)))


def test_every_view_holds_through_a_cpu_match_started_from_the_title(tmp_path):
    watcher = Watcher(["--p1", "cpu:lightning", "--p2", "cpu:lightning", "--seed", "11"], tmp_path)
    device = watcher.device
    device.controller.enter(TITLE, device.clock())  # a person starts it from the title
    watcher.run(50)
    watcher.tap(P1_SPIT)
    watcher.until("match result", 600_000)
    watcher.until("ready", 10_000)
    for name in ("title", "ready", "countdown", "play", "stuck", "slap", "round result"):
        assert name in watcher.seen
    assert {"game over", "match result"} <= watcher.seen


def test_every_view_holds_on_the_screens_around_the_game(tmp_path):
    watcher = Watcher(["--p2", "human", "--seed", "3"], tmp_path)
    controller = watcher.device.controller
    watcher.run(TITLE_US // 1000 + 500)  # the title, then attract mode
    assert "attract" in watcher.seen
    watcher.tap(P1_SPIT)  # a match from attract mode
    watcher.run(300)
    controller.enter(SETTINGS, watcher.device.clock())
    watcher.run(100)
    controller.fail("ValueError: a fault", watcher.device.clock())
    watcher.run(100)
    controller.self_test(watcher.device.clock())
    watcher.run(100)
    assert {"title", "attract", "ready", "settings", "error", "self-test"} <= watcher.seen


def test_every_view_holds_through_a_match_of_speed(tmp_path):
    argv = ["--game", "speed", "--p1", "cpu:lightning", "--p2", "cpu:lightning", "--seed", "11"]
    watcher = Watcher(argv, tmp_path)
    watcher.until("match result", 300_000)
    watcher.until("ready", 10_000)
    assert {"ready", "countdown", "play", "stuck", "game over", "match result"} <= watcher.seen
    assert "game: Speed" in watcher.window._status()
