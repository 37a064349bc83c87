"""The window, driven as a player drives it (SDL's dummy video driver): key presses in,
the window's pixels out."""

import os
import signal
import subprocess
import sys
import time

import pytest

pygame = pytest.importorskip("pygame")

import framebuf  # noqa: E402
from spit import keys  # noqa: E402
from spit.cards import adjacent  # noqa: E402
from spit.games import PHASE_OVER, PHASE_PLAY  # noqa: E402
from spit.match_mode import EAGER_US  # noqa: E402
from spit.modes import COUNTDOWN_US, TITLE  # noqa: E402
from spit.render import Renderer  # noqa: E402
from spit.ticks import ticks_diff  # noqa: E402
from test_sim import ROOT, SHORT, read, record_short_game  # noqa: E402

from host_sim.display import HEIGHT, WIDTH, png  # noqa: E402
from host_sim.display.wiring import wired_display  # noqa: E402
from host_sim.sim import flags as sim_flags  # noqa: E402
from host_sim.sim import simulated_device as sim_device  # noqa: E402
from host_sim.sim import simulator as sim  # noqa: E402
from host_sim.sim import window  # noqa: E402
from host_sim.sim.simulated_device import save_path  # noqa: E402

pytestmark = pytest.mark.person_path


@pytest.fixture(autouse=True)
def no_screen_no_speaker(monkeypatch):
    """SDL's dummy drivers: a window and a sound device that exist only in memory."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


class Player:
    """A window on a simulated clock, and a player at its keyboard."""

    def __init__(self, argv, tmp_path, scale=2):
        args = sim_flags.parse_args(
            argv + ["--record", str(tmp_path / "rec"), "--shots", str(tmp_path / "shots")]
        )
        if args.replay is not None:
            args.transcript = sim.load_transcript(args.replay)
        self.play = sim.Play(args, screen=True)
        self.window = window.Window(self.play, scale)
        self.device = self.play.device

    def run(self, ms):
        for _ in range(ms):
            self.play.pacer.pass_once()
        self.window.draw()

    def key(self, code, down=True, mod=0):
        kind = pygame.KEYDOWN if down else pygame.KEYUP
        return self.window.handle(pygame.event.Event(kind, key=code, mod=mod))

    def tap(self, code, ms=60):
        self.key(code)
        self.run(30)
        self.key(code, False)
        self.run(ms)

    def start_round(self):
        self.tap(pygame.K_SPACE)  # the title: a match
        self.run(EAGER_US // 1000)  # a person's time to answer the ready screen
        self.tap(pygame.K_SPACE)
        self.tap(pygame.K_RETURN)
        self.run(COUNTDOWN_US // 1000 + 50)
        assert self.game.phase == PHASE_PLAY

    @property
    def game(self):
        return self.device.session.table.game

    def screen(self):
        return self.window.screen_rgb()

    def pixel(self, x, y):
        """A window pixel, at a point in screen pixels from the screen's top left."""
        return tuple(self.window.surface.get_at(self.window._at(x, y))[:3])


def reference_screen(player):
    """The play screen the firmware's renderer draws for the game as it stands, on a
    fresh virtual panel."""
    display, virtual = wired_display()
    table = player.device.session.table
    Renderer(display, framebuf).play(table.game, table.controls, (False, False))
    return virtual.rgb()


def card_key(player, slot):
    return pygame.key.key_code(str(slot + 1))


@pytest.fixture
def two_people(tmp_path):
    player = Player(["--p2", "human", "--seed", "8", "--quick", "off"], tmp_path)
    yield player
    pygame.display.quit()


def test_the_window_shows_the_panel_pixel_for_pixel_at_both_scales(tmp_path):
    for scale in (2, 3):
        player = Player(["--seed", "4"], tmp_path, scale)
        player.run(20)
        size = player.window.surface.get_size()
        assert size == (window.BODY_W * scale + window.PANEL_W, window.BODY_H * scale)
        assert player.screen() == player.device.virtual.rgb()
        assert player.device.screen_name() == "title"
        pygame.display.quit()


def test_a_legal_play_shows_the_card_on_the_pile(two_people):
    player = two_people
    player.start_round()
    game = player.game
    slot = next(s for s in range(5) if adjacent(game.stock_top(0, s), game.top(0)))
    card = game.stock_top(0, slot)
    before = player.screen()
    player.tap(card_key(player, slot))
    player.tap(pygame.K_z)  # player 1's L: their own pile, a
    assert game.top(0) == card and player.device.last_event == "P1 played"
    after = player.screen()
    assert after != before
    assert after == reference_screen(player) == player.device.virtual.rgb()


def test_an_illegal_play_moves_nothing_and_the_feedback_shows(two_people):
    player = two_people
    player.start_round()
    game = player.game
    tops = [game.top(p) for p in (0, 1)]
    slot = next(
        s for s in range(5) if not any(adjacent(game.stock_top(0, s), top) for top in tops)
    )
    player.tap(card_key(player, slot))
    picked = player.screen()
    stock = [list(cards) for cards in game.stock[0]]
    piles = [list(cards) for cards in game.middle]
    player.key(pygame.K_z)
    player.run(5)
    assert [list(cards) for cards in game.stock[0]] == stock
    assert [list(cards) for cards in game.middle] == piles
    assert player.device.last_event.startswith("P1 refused: ")
    assert player.device.buzzer.playing == "illegal"
    shown = player.window._status()
    assert "sound: illegal" in shown and "last: " + player.device.last_event in shown
    assert player.screen() == picked, "the card stays in hand, highlighted"
    player.window.speaker.update()
    assert player.window.speaker.tone == 392, "the buzzer's first note, on the speaker"
    assert player.window.speaker.audible and pygame.mixer.get_busy()
    player.run(400)
    player.window.speaker.update()
    assert player.window.speaker.tone == 0
    assert player.device.session.table.controls.hand[0] == slot


def test_a_button_is_lit_while_its_key_is_held(two_people):
    player = two_people
    x, y, r, _ = player.window.places[keys.button_id(1, keys.SPIT)]
    y -= r - 2  # inside the button, above its label
    player.run(5)
    assert player.pixel(x, y) == window.COLOURS["spit"]
    player.key(pygame.K_RETURN)
    player.run(5)
    assert player.pixel(x, y) == window.LIT
    player.key(pygame.K_RETURN, False)
    player.run(5)
    assert player.pixel(x, y) == window.COLOURS["spit"]


def test_player_2s_buttons_are_player_1s_turned_half_a_turn():
    places = window.button_places()
    for key in range(keys.KEYS_PER_PLAYER):
        x, y, r, kind = places[keys.button_id(0, key)]
        assert places[keys.button_id(1, key)] == (WIDTH - x, HEIGHT - y, r, kind)
    assert places[keys.button_id(0, keys.C1)][0] < places[keys.button_id(0, keys.C5)][0]
    assert places[keys.button_id(1, keys.C1)][0] > places[keys.button_id(1, keys.C5)][0]
    assert places[keys.button_id(0, keys.SPIT)][2] > places[keys.button_id(0, keys.LEFT)][2]


def test_f1_draws_the_keys_on_the_device_and_f12_saves_the_screen(two_people, tmp_path):
    player = two_people
    x, y, _, _ = player.window.places[keys.button_id(0, keys.C1)]
    player.key(pygame.K_F1)
    player.run(1)
    assert player.window.help and player.pixel(x - 4, y) == window.KEYCAP
    player.key(pygame.K_F1)
    player.key(pygame.K_F12)
    path = player.window.message[len("saved ") :]
    assert path.startswith(str(tmp_path / "shots"))
    width, height, rgb = png.decode(read(path, "rb"))
    assert (width, height) == (WIDTH * 2, HEIGHT * 2)
    row = WIDTH * 2 * 3
    one_per_pixel = b"".join(
        rgb[y * 2 * row + x : y * 2 * row + x + 3] for y in range(HEIGHT) for x in range(0, row, 6)
    )
    assert one_per_pixel == player.device.virtual.rgb()


def test_esc_and_ctrl_c_quit(two_people):
    assert two_people.key(pygame.K_a)
    assert not two_people.key(pygame.K_c, mod=pygame.KMOD_LCTRL)
    two_people.window.running = True
    assert not two_people.key(pygame.K_ESCAPE)


def test_a_recorded_game_replays_to_the_same_final_screen(tmp_path):
    original, path = record_short_game(tmp_path / "games")
    player = Player(["--replay", path, "--pace", "20"], tmp_path)
    while not player.play.pacer.frozen:
        player.play.pacer.pass_once()
    player.window.draw()
    assert player.play.replay.done and player.game.phase == PHASE_OVER
    assert player.screen() == original.virtual.rgb()
    assert "replay finished" in player.window._status()
    pygame.display.quit()


def test_ctrl_c_closes_the_window_without_a_traceback(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONPATH=ROOT)
    process = subprocess.Popen(
        [sys.executable, "-m", "host_sim", *SHORT, "--record", str(tmp_path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while not os.path.isdir(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1)  # the device is built; the window opens next
    assert process.poll() is None
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 0 and err == b""


def test_a_long_line_beside_the_device_is_wrapped_to_the_panel(two_people):
    window_ = two_people.window
    two_people.device.last_event = "P1 refused: does not fit the pile's top card, try another"
    two_people.window.draw()
    font = window_.text_font
    width = window.PANEL_W - 24
    for text in window_._status():
        parts = window._fit(font, text, width)
        assert all(font.size(part)[0] <= width for part in parts), parts
        assert " ".join(parts).replace(" ", "") == text.replace(" ", ""), "nothing cut off"
    assert len(window._fit(font, "last: " + two_people.device.last_event, width)) >= 2


def run_until(player, done, ms, step=50):
    """Passes until ``done()``, at most ``ms``, the window not drawn; whether it came."""
    for _ in range(0, ms, step):
        if done():
            return True
        for _ in range(step):
            player.play.pacer.pass_once()
    return done()


def panel_lines(player):
    """The side panel's lines as drawn, each wrapped line joined again."""
    return player.window._status()


def test_the_side_panel_shows_the_seed_of_the_match_being_played(tmp_path):
    player = Player(SHORT, tmp_path)  # seed 3, single games, CPU against CPU
    device = player.device
    assert run_until(player, lambda: device.session is not None, 2000)
    assert device.session.match.seed == 3 and "seed 3" in panel_lines(player)

    def next_match():
        if device.controller.mode == TITLE:
            player.tap(pygame.K_SPACE)  # a person starts the next match
        return device.session is not None and device.session.match.seed != 3

    assert run_until(player, lambda: device.finished, 120_000)
    assert run_until(player, next_match, 60_000, step=500)
    seed = device.session.match.seed
    assert "seed %d" % seed in panel_lines(player) and "seed 3" not in panel_lines(player)
    pygame.display.quit()


def test_recorded_shows_only_while_the_game_that_went_to_that_file_is_on_screen(tmp_path):
    best_of_three = SHORT[: SHORT.index("--match")]
    player = Player(best_of_three, tmp_path)
    device = player.device
    first = tmp_path / "rec" / "game-1.txt"
    assert run_until(player, lambda: device.finished, 120_000)
    game = device.session.table.game
    assert run_until(player, lambda: os.path.exists(first), 20_000)
    assert "recorded %s" % first in panel_lines(player)
    assert device.session.table.game is game, "the game over screen of that game"
    assert run_until(player, lambda: device.session.table.game is not game, 60_000)
    assert not [line for line in panel_lines(player) if line.startswith("recorded")]
    pygame.display.quit()


def test_the_panel_wraps_at_spaces_and_slashes_never_inside_a_name(two_people):
    font = two_people.window.text_font
    width = window.PANEL_W - 24
    for text in (
        "saved screenshots/spit-15501324-1.png",
        "recorded transcripts/sim/game-1.txt",
        "saved in /home/somebody/.local/share/spit-handheld/spit.json",
        "last: P1 refused: does not fit the pile's top card, try another",
    ):
        parts = window._fit(font, text, width)
        assert len(parts) >= 2 and all(font.size(part)[0] <= width for part in parts), parts
        # Each line ends at a space (dropped) or after a slash: no name is cut.
        rebuilt = "".join(part if part.endswith("/") else part + " " for part in parts)
        assert rebuilt.rstrip() == text, parts


def test_the_side_panel_says_where_the_save_is(two_people):
    lines = panel_lines(two_people)
    assert "save file: " + save_path() in lines
    two_people.window.draw()


class BusyHost:
    """The window's wall clock (``time`` for the window and the pacer) on a laptop under
    load: a main-loop pass takes ``pass_ms``, drawing a circle ``circle_ms``, and keys
    go down at wall times of their own while the loop is busy."""

    def __init__(self, pass_ms=3, circle_ms=5):
        self.t = 100.0
        self.pass_s = pass_ms / 1000
        self.circle_s = circle_ms / 1000
        self.keys = []  # (seconds into the next frame, pygame key), in time order
        self._frame = None  # when the next frame began
        self._circle = pygame.draw.circle

    def monotonic(self):
        return self.t

    def sleep(self, seconds):
        self.t += seconds

    def key_in_next_frame(self, seconds, code):
        self.keys.append((seconds, code))

    def circle(self, *args, **kwargs):
        if self.keys and self._frame is None:
            self._frame = self.t
        self.t += self.circle_s
        while self.keys and self._frame + self.keys[0][0] <= self.t:  # the key goes down
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=self.keys.pop(0)[1], mod=0))
        return self._circle(*args, **kwargs)


def test_two_keys_120_ms_apart_while_the_loop_draws_are_stamped_120_ms_apart(
    monkeypatch, tmp_path
):
    host = BusyHost()
    monkeypatch.setattr(window, "time", host)
    monkeypatch.setattr(sim_device, "time", host)
    monkeypatch.setattr(pygame.draw, "circle", host.circle)
    player = Player(["--p2", "human", "--seed", "8"], tmp_path)
    device = player.device
    step = device.step

    def slow_pass():
        host.t += host.pass_s
        step()

    monkeypatch.setattr(device, "step", slow_pass)
    stamps = {}
    add = device.controller.arbiter.add

    def note(button, t):
        stamps.setdefault(button, t)
        add(button, t)

    monkeypatch.setattr(device.controller.arbiter, "add", note)
    one, seven = keys.button_id(0, keys.C1), keys.button_id(1, keys.C1)
    for _ in range(5):
        player.window.tick()
        host.sleep(0.001)
    host.key_in_next_frame(0.010, pygame.K_1)  # player 1's C1, 10 ms into the frame
    host.key_in_next_frame(0.130, pygame.K_7)  # player 2's C1, 120 ms later
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, mod=0))  # a frame
    for _ in range(2000):
        if len(stamps) == 2:
            break
        player.window.tick()
        host.sleep(0.001)
    assert set(stamps) == {one, seven}
    apart_ms = ticks_diff(stamps[seven], stamps[one]) / 1000
    assert 115 <= apart_ms <= 125, "stamped %.1f ms apart" % apart_ms
    pygame.display.quit()
