"""A person's whole path through the simulator's window, from power-on to the match result
and back to the title, where the next game is chosen.

The real ``make sim`` entry (``host_sim.sim.main``) opens the real window on SDL's
dummy video driver and runs its own loop; the only input is keyboard events put on
pygame's event queue, as a keyboard would. The loop's wall clock is the test's: each
turn of the loop (its ``sleep``) is a few milliseconds of play, so a match takes
seconds. After every step the window's side panel names the screen shown, and the
device must be sane: no error screen, no failed pass, no press left waiting.
"""

import os

import pytest

pygame = pytest.importorskip("pygame")

from helpers.person import Look, Script, match_line, match_lines, title_prompt  # noqa: E402
from spit import keys  # noqa: E402
from spit.match_mode import READY_US  # noqa: E402
from spit.modes import MODE_NAMES, TITLE_US  # noqa: E402
from spit.session import NEXT_GAME_US, NEXT_MATCH_US  # noqa: E402

from host_sim.sim import simulated_device as sim_device  # noqa: E402
from host_sim.sim import simulator as sim  # noqa: E402
from host_sim.sim import window  # noqa: E402

pytestmark = pytest.mark.person_path

# Each turn of the window's loop is this much of play (on a laptop, a little over 1 ms).
TURN_S = 0.002
P1, P2 = 0, 1
READ_MS = 300  # a person's time to read a new screen before answering it
CPU_P2 = ("P1", "P2 CPU")  # the seats as the screens name them


@pytest.fixture(autouse=True)
def no_screen_no_speaker(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


class WindowFace:
    """The window as a person meets it: keys in, the side panel and the screen out."""

    def __init__(self):
        self.window = None
        self.codes = {}

    def attach(self, window_):
        self.window = window_
        self.codes = {button: code for code, button in window_.keys.items()}

    @property
    def device(self):
        return self.window.device

    def key(self, code, down=True):
        kind = pygame.KEYDOWN if down else pygame.KEYUP
        pygame.event.post(pygame.event.Event(kind, key=code, mod=0))

    def down(self, button):
        self.key(self.codes[button])

    def up(self, button):
        self.key(self.codes[button], down=False)

    def panel_screen(self):
        """The screen's name as the side panel shows it."""
        lines = [line for line in self.window._status() if line.startswith("screen: ")]
        assert len(lines) == 1, lines
        return lines[0][len("screen: ") :]

    def picture(self):
        """The screen as the window shows it, one sample per device pixel."""
        return self.window.screen_rgb()

    def look(self):
        look = Look.of_device(self.device)
        look.screen = self.panel_screen()
        return look

    def check(self):
        device = self.device
        handheld = device.handheld
        assert handheld.errors == 0, "a pass failed: %r" % handheld.last_error
        assert MODE_NAMES[device.controller.mode] != "error"
        assert handheld.overflows() == 0
        assert device.controller.arbiter.pending <= 6, "presses left waiting"


class Loop:
    """The window's loop on the test's clock: ``time`` for ``window`` and the pacer."""

    def __init__(self, face, steps):
        self.face = face
        self.script = Script(face, steps)
        self.t = 1000.0

    def monotonic(self):
        return self.t

    def sleep(self, seconds):
        # Every turn, as the window's frames do: the panel names the screen, and the
        # device is sane.
        self.face.panel_screen()
        self.face.check()
        self.t += TURN_S
        self.script.resume(int((self.t - 1000.0) * 1000))


def run_window(monkeypatch, tmp_path, argv, steps):
    """``make sim`` with ``argv`` until the person's ``steps`` press Esc; its exit code
    and the script (the screens it saw)."""
    face = WindowFace()
    loop = Loop(face, steps)
    monkeypatch.setattr(window, "time", loop)
    monkeypatch.setattr(sim_device, "time", loop)

    class Watched(window.Window):
        def __init__(self, play, scale=None):
            super().__init__(play, scale)
            face.attach(self)

    monkeypatch.setattr(window, "Window", Watched)
    shots = tmp_path / "shots"
    code = sim.main(
        argv + ["--seed", "11", "--record", str(tmp_path / "rec"), "--shots", str(shots)]
    )
    return code, loop.script, face


def helpers_and_exit(script, face):
    """F1 shows the keys and hides them, F12 saves a PNG, Esc quits."""
    face.key(pygame.K_F1)
    yield 20
    assert face.window.help
    face.key(pygame.K_F1)
    yield 20
    assert not face.window.help
    face.key(pygame.K_F12)
    yield 20
    path = face.window.message[len("saved ") :]
    with open(path, "rb") as f:
        assert f.read(4) == b"\x89PNG" and os.path.getsize(path) > 1000
    face.key(pygame.K_ESCAPE)  # the loop ends at its next turn


def play_on(script, people, until, within_ms, fast=P1):
    """The people at the table play until one of the screens ``until``: ``fast`` acts
    every turn, the other every third."""
    turn = 0
    waited = 0
    while script.face.look().screen not in until:
        assert waited < within_ms, "no %s within %d ms (%s)" % (until, within_ms, script.shown)
        started = script.now_ms
        for player in people:
            if player != fast and turn % 3:
                continue
            pressed = script.face.look().next_keys(player)
            yield from script.keys(player, pressed)
        turn += 1
        yield 20
        waited += script.now_ms - started


def first_round_events(script, face):
    """In play: a card each, a spit called and withdrawn, a lost race, a gap filled."""
    device = face.device
    yield from script.tap(P2, keys.SPIT)
    assert device.last_event == "P2 called"
    yield from script.tap(P2, keys.SPIT)
    assert device.last_event == "P2 withdrawn"
    played = set()
    raced = filled = False
    for _ in range(2_000):
        look = face.look()
        if look.screen != "play":
            break
        race = None if raced else look.race()
        if race:
            slot1, slot2, pile = race
            yield from script.keys(P1, look.play_keys(P1, slot1, pile))
            yield from script.keys(P2, look.play_keys(P2, slot2, pile))
            assert device.last_event == "P2 lost race", device.last_event
            raced = True
            continue
        for player in (P1, P2):
            look = face.look()
            pressed = look.next_keys(player)
            was_fill = bool(pressed) and not look.plays(player) and look.gap_fill(player)
            yield from script.keys(player, pressed)
            if device.last_event == "P%d played" % (player + 1):
                played.add(player)
            if was_fill and device.last_event == "P%d moved" % (player + 1):
                filled = True
        if raced and filled and played == {P1, P2}:
            return
        yield 20
    raise AssertionError(
        "in the round: raced %s, filled %s, played %s" % (raced, filled, sorted(played))
    )


def reads(script, read, wanted, within_ms=1_000):
    """Wait until ``read`` of the window's picture is ``wanted`` (the screen is drawn a
    piece at a time)."""
    waited = 0
    while read(script.face.picture()) != wanted:
        assert waited < within_ms, "the screen shows %r, not %r" % (
            read(script.face.picture()),
            wanted,
        )
        yield 20
        waited += 20


def through_the_match(script, people, seats=("P1", "P2"), after="title"):
    """Round after round to the match result, then the screen ``after`` it: the title
    (the people choose what comes next), or the next match's ready screen (CPU against
    CPU). Each game's ready screen says which game it is and the score, on both halves."""
    for _ in range(60):
        yield from play_on(script, people, ("round result", "game over", "match result"), 90_000)
        shown = script.face.look().screen
        if shown == "round result":
            yield 1_000  # read it
            assert script.face.look().screen == "round result"
            for player in people:
                yield from script.tap(player, keys.SPIT)
            yield from script.until("countdown", "ready", within_ms=1_000)
        elif shown == "game over":
            wins = list(script.face.device.session.match.wins)
            yield from script.until("ready", within_ms=NEXT_GAME_US // 1000 + 1_000)
            line = match_line(wins, 3, seats)
            yield from reads(script, match_lines, (line, line))
        else:
            yield from script.until(after, within_ms=NEXT_MATCH_US // 1000 + 500)
            return
    raise AssertionError("no match result: %s" % script.shown)


def choose_on_the_title(script, key, game):
    """``key`` (L or R) on the title or in attract mode: the title, with ``game``."""
    yield from script.tap(P1, key)
    yield from script.until("title", within_ms=200)
    assert "game: " + game.title() in script.face.window._status()
    yield from reads(script, title_prompt, "press " + game.upper())


def test_two_people_play_a_match_through_the_window(monkeypatch, tmp_path):
    def steps(script):
        face = script.face
        yield from script.until("title")
        # Two eager players: P1's SPIT starts the match, P2's comes 60 ms later.
        face.down(keys.button_id(P1, keys.SPIT))
        yield 60
        face.down(keys.button_id(P2, keys.SPIT))
        yield 30
        face.up(keys.button_id(P1, keys.SPIT))
        face.up(keys.button_id(P2, keys.SPIT))
        yield from script.until("ready", within_ms=200)
        yield READ_MS
        assert face.device.session.table.controls.called == [False, False]
        yield from script.tap(P1, keys.SPIT)
        yield from script.tap(P2, keys.SPIT)
        yield from script.until("countdown", within_ms=1_000)
        yield from script.until("play", within_ms=3_500)
        yield from first_round_events(script, face)
        yield from through_the_match(script, (P1, P2))
        yield from helpers_and_exit(script, face)

    code, script, _ = run_window(monkeypatch, tmp_path, ["--p1", "human", "--p2", "human"], steps)
    assert code == 0 and script.done
    for screen in ("title", "ready", "countdown", "play", "stuck", "slap", "round result"):
        assert screen in script.shown
    assert script.shown.index("game over") < script.shown.index("match result")
    assert script.shown[-2:] == ["match result", "title"], script.shown


def test_a_person_plays_the_cpu_through_the_window(monkeypatch, tmp_path):
    def steps(script):
        yield from script.until("title")
        yield from script.tap(P1, keys.SPIT)
        yield from script.until("ready", within_ms=100)
        line = match_line((0, 0), 3, CPU_P2)
        yield from reads(script, match_lines, (line, line))
        yield READ_MS
        yield from script.tap(P1, keys.SPIT)
        yield from script.until("countdown", within_ms=2_000)
        yield from script.until("play", within_ms=3_500)
        yield from through_the_match(script, (P1,), CPU_P2)
        # The title after the match result: Speed chosen, a match of it started, and left.
        yield from choose_on_the_title(script, keys.LEFT, "speed")
        yield from script.tap(P1, keys.SPIT)
        yield from script.until("ready", within_ms=100)
        assert script.face.device.session.table.game.NAME == "speed"
        yield from reads(script, match_lines, (line, line))
        yield from script.until("title", within_ms=READY_US // 1000 + 500)
        yield from helpers_and_exit(script, script.face)

    code, script, face = run_window(monkeypatch, tmp_path, ["--p2", "cpu:quick"], steps)
    assert code == 0 and script.done
    assert "round result" in script.shown and "match result" in script.shown
    assert script.shown[-4:] == ["match result", "title", "ready", "title"], script.shown
    assert face.device.finished and face.device.saved_transcripts


def test_cpu_against_cpu_plays_on_in_the_window(monkeypatch, tmp_path):
    def steps(script):
        yield from script.until("ready", "countdown", within_ms=100)
        yield from script.until("play", within_ms=8_000)
        yield from script.until("round result", within_ms=120_000)
        yield from script.until("match result", within_ms=900_000)
        # Nobody is there to choose: the next match.
        yield from script.until("ready", "countdown", within_ms=NEXT_MATCH_US // 1000 + 500)
        yield from helpers_and_exit(script, script.face)

    argv = ["--p1", "cpu:lightning", "--p2", "cpu:lightning"]
    code, script, face = run_window(monkeypatch, tmp_path, argv, steps)
    assert code == 0 and script.done
    assert len(face.device.finished) >= 2


def test_a_person_chooses_speed_on_the_title_and_plays_the_cpu_to_the_match_result(
    monkeypatch, tmp_path
):
    def steps(script):
        face = script.face
        yield from script.until("title")
        assert "game: Spit" in face.window._status()
        yield from script.tap(P1, keys.LEFT)
        assert "game: Speed" in face.window._status()
        yield from script.tap(P1, keys.SPIT)
        yield from script.until("ready", within_ms=100)
        yield READ_MS
        yield from script.tap(P1, keys.SPIT)
        yield from script.until("countdown", within_ms=2_000)
        yield from script.until("play", "stuck", within_ms=3_500)
        yield from through_the_match(script, (P1,), CPU_P2)
        # Left on the title: attract mode; R there chooses Spit and shows the title.
        yield from script.until("attract", within_ms=TITLE_US // 1000 + 500)
        yield from choose_on_the_title(script, keys.RIGHT, "spit")
        face.key(pygame.K_ESCAPE)

    code, script, face = run_window(monkeypatch, tmp_path, ["--p2", "cpu:quick"], steps)
    assert code == 0 and script.done
    shown = script.shown
    assert shown[:4] == ["title", "ready", "countdown", "play"], shown
    assert "stuck" in shown and "round result" not in shown and "slap" not in shown
    assert shown.index("game over") < shown.index("match result")
    assert shown[-4:] == ["match result", "title", "attract", "title"], shown
    games = face.device.finished
    assert {game["game_name"] for game in games} == {"speed"}
    assert sorted(games[-1]["match"]) == [len(games) - 2, 2], "best of three: two games won"
    assert games[-1]["winner"] == 1 + games[-1]["match"].index(2)
    called = [game for game in games if game["winner"] == 1 and game["reason"] == "out of cards"]
    assert called, "the person, out of cards, won a game with their SPEED"
    transcripts = face.device.saved_transcripts
    assert len(transcripts) == len(games)
    with open(transcripts[0]) as f:
        assert f.readline() == "speed-transcript 1\n"
