"""The simulator as a player and a developer use it: keys, flags, the terminal view in a
pseudo-terminal, headless games, recorded games and their replays."""

import fcntl
import io
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest
from spit import keys, speed
from spit.cards import card_name
from spit.games import PHASE_OVER, PHASE_PLAY, PHASE_READY, slap
from spit.modes import COUNTDOWN_US, MATCH, SETTINGS, TITLE
from spit.options import CHOICES, Options
from spit.session import NEXT_GAME_US
from spit.spit import SPIT_ACTION
from spit.transcript import Transcript

from host_sim.sim import flags as sim_flags
from host_sim.sim import keyboard as sim_keys
from host_sim.sim import simulator as sim
from host_sim.sim import terminal
from host_sim.sim.replay import Replay
from host_sim.sim.simulated_device import Device, SimulatedClock

pytestmark = pytest.mark.person_path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYMAP = sim_keys.char_map()
# A short CPU game: lightning against lightning, five piles of three, one game.
SEED = ["--seed", "3"]
SHORT = SEED + ["--p1", "cpu:lightning", "--p2", "cpu:lightning", "--layout", "3x5"]
SHORT += ["--match", "single"]
# A short game of Speed, lightning against lightning.
SPEED = SEED + ["--game", "speed", "--p1", "cpu:lightning", "--p2", "cpu:lightning"]


def device(options="", seats=("human", "human"), seed=3, **kwargs):
    clock = SimulatedClock()
    return Device(clock, Options.parse(options), seed, seats, **kwargs), clock


def settle(dev, clock, ms=60):
    for _ in range(ms):
        dev.step()
        clock.advance(1000)


def type_keys(dev, clock, text):
    for char in text:
        dev.tap(KEYMAP[char])
        settle(dev, clock)


def start_round(dev, clock):
    type_keys(dev, clock, " \n")
    settle(dev, clock, COUNTDOWN_US // 1000)
    assert dev.session.table.game.phase == PHASE_PLAY


# -- keys -----------------------------------------------------------------------------


def test_every_button_has_one_key_and_no_key_reads_as_another_buttons_name():
    assert set(KEYMAP.values()) == set(range(keys.BUTTON_COUNT))
    labels = [sim_keys.key_label(b) for b in range(keys.BUTTON_COUNT)]
    assert len(set(labels)) == keys.BUTTON_COUNT
    names = set(keys.KEY_NAMES) | {"C", "S"}
    assert not names & {label.upper() for label in labels}
    assert KEYMAP["1"] == keys.button_id(0, keys.C1)
    assert KEYMAP["z"] == keys.button_id(0, keys.LEFT)
    assert KEYMAP[" "] == keys.button_id(0, keys.SPIT)
    assert KEYMAP["\n"] == KEYMAP["\r"] == keys.button_id(1, keys.SPIT)
    assert KEYMAP["7"] == keys.button_id(1, keys.C1)
    help_text = "\n".join(terminal.HELP)
    for label in labels:
        assert label in help_text
    assert "player 2 (top)     7 8 9 0 -  .     /     Enter" in terminal.HELP


# -- the device on fakes ----------------------------------------------------------------


def test_both_spit_keys_start_the_round_and_a_card_key_picks():
    dev, clock = device("quick=off")
    game = dev.session.table.game
    assert game.phase == PHASE_READY
    assert "Both press SPIT" in "\n".join(dev.lines())
    type_keys(dev, clock, " \n")
    assert game.phase == PHASE_READY and dev.session.table.controls.counting
    assert dev.screen_name() == "countdown"
    settle(dev, clock, COUNTDOWN_US // 1000)
    assert game.phase == PHASE_PLAY and dev.last_event == "spat"
    type_keys(dev, clock, "1")
    assert dev.last_event == "P1 picked" and dev.session.table.controls.hand[0] == 0
    assert "[" + "%3s" % card_name(game.stock_top(0, 0)) in "\n".join(dev.lines())


def test_a_held_key_is_one_press():
    dev, clock = device()
    dev.press(KEYMAP[" "])
    settle(dev, clock, 500)
    assert dev.session.table.controls.called == [True, False]
    assert dev.held(KEYMAP[" "])
    dev.release(KEYMAP[" "])
    settle(dev, clock)
    assert dev.session.table.controls.called == [True, False]


def test_the_table_reads_from_both_sides():
    dev, clock = device("counts=on")
    start_round(dev, clock)
    text = dev.lines()
    game = dev.session.table.game
    assert text[1].startswith("P2  pack 10")
    assert text[8].startswith("P1  pack 10")
    assert "a %s (1)" % card_name(game.top(0)) in text[4]
    assert text[7].split()[0] == card_name(game.stock_top(0, 0)), "P1's C1 on their left"
    assert text[2].split()[-1] == card_name(game.stock_top(1, 0)), "P2's C1 on their left"


def test_cpu_against_cpu_plays_whole_games_and_the_next_one_follows():
    dev, clock = device("layout=3x5", seats=("lightning", "lightning"))
    while not dev.finished:
        settle(dev, clock, 1000)
    game = dev.session.table.game
    assert game.phase == PHASE_OVER and dev.finished[0]["winner"] in (1, 2)
    assert dev.screen_name() == "game over"
    settle(dev, clock, NEXT_GAME_US // 1000 + 1)
    assert dev.session.table.game is not game
    assert dev.session.table.game.round == 0 and dev.session.match.games_played() == 1


def test_holding_spit_on_the_title_opens_the_settings_and_their_rows_show():
    dev, clock = device(title=True)
    assert dev.controller.mode == TITLE and "seed 3" in terminal.screen_lines(dev)
    dev.tap(KEYMAP[" "], terminal.SETTINGS_HOLD_US)
    settle(dev, clock, 2100)
    assert dev.controller.mode == SETTINGS
    lines = terminal.screen_lines(dev)
    assert lines[0] == "Spit handheld: settings" and "> game         spit" in lines
    assert "  layout       1-5" in lines


# -- flags ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "2"], "--games counts headless games"),
        (["--headless", "--games", "0"], "must be at least 1"),
        (["--headless", "--p1", "human"], "a human seat needs the window"),
        (["--p2", "robot"], "'robot' is not a seat"),
        (["--replay", "x.txt", "--seed", "4"], "not --seed"),
        (["--replay", "x.txt", "--game", "speed"], "from the transcript, not --game"),
        (["--pace", "0", "--p1", "cpu"], "must be above 0"),
        (["--seed", "-1"], "a seed is from 0 to 4294967295"),
        (["--headless", "--scale", "3"], "--scale and --terminal do not apply"),
    ],
)
def test_every_flag_error_names_the_problem_and_exits_non_zero(argv, message, capsys):
    with pytest.raises(SystemExit) as exited:
        sim.main(argv)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--seed", "x"], "host_sim: error: --seed: 'x' is not a whole number"),
        (["--scale", "4"], "host_sim: error: --scale: invalid choice: 4 (choose from 2, 3)"),
        (["--seats", "2"], "host_sim: error: unrecognized arguments: --seats 2"),
        (["--head"], "host_sim: error: unrecognized arguments: --head"),  # no abbreviations
        (["--games", "2"], "host_sim: error: --games counts headless games: add --headless"),
        (
            ["--game", "speed", "--layout", "3x5", "--word", "SLAM"],
            "host_sim: error: --game speed does not take --layout --word"
            " (Speed takes --match, --quick, --counts)",
        ),
        (["--gam", "speed"], "host_sim: error: unrecognized arguments: --gam speed"),
    ],
)
def test_a_flag_error_is_one_line_without_the_usage(argv, line, capsys):
    with pytest.raises(SystemExit) as exited:
        sim.main(argv)
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines() == [line]


def test_the_help_is_the_whole_usage(capsys):
    with pytest.raises(SystemExit) as exited:
        sim.main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m host_sim [-h]")
    for flag in ("--game", "--p1", "--seed", "--headless", "--replay FILE", "--record DIR"):
        assert flag in out
    assert "spit|speed (default spit" in out and "--word" in out
    assert "Speed takes only --match, --quick, --counts" in out


def test_the_help_prints_the_keys(capsys):
    with pytest.raises(SystemExit) as exited:
        sim.main(["--help"])
    assert exited.value.code == 0
    assert "player 2 (top)     7 8 9 0 -  .     /     Enter" in capsys.readouterr().out


def test_a_cpu_game_starts_at_once_and_a_person_starts_from_the_title():
    for argv, mode in ((SHORT, MATCH), (["--seed", "3"], TITLE)):
        args = sim_flags.parse_args(argv + ["--record", ""])
        assert sim.Play(args, screen=False).device.controller.mode == mode


def test_flags_fill_in_the_seats_and_every_rule_option():
    args = sim_flags.parse_args(["--p1", "cpu:quick", "--stack", "on", "--word", "SLAM"])
    assert (args.p1, args.p2) == ("quick", "steady")
    assert args.options.stack == "on" and args.options.word == "SLAM"
    assert sim_flags.parse_args([]).p1 == "human"
    assert sim_flags.parse_args(["--headless"]).p1 == "steady"


def test_speed_takes_the_rule_flags_its_games_keep_and_only_those():
    for name, values in CHOICES:
        kept = speed.Game(1, Options(**{name: values[1]})).options.get(name) == values[1]
        assert kept == (name in speed.KEPT_OPTIONS), name
    args = sim_flags.parse_args(["--game", "speed", "--match", "single", "--counts", "on"])
    assert args.game == "speed" and args.options.match == "single"
    assert sim_flags.parse_args([]).game == "spit"
    play = sim.Play(args, screen=False)
    assert play.device.controller.saved.game == "speed" and play.status()[0] == "game: Speed"
    lines = terminal.screen_lines(play.device)
    assert lines[2:5] == ["SPEED", "game: Speed", "L / R switch the game: Spit / Speed"]


def test_a_missing_or_broken_transcript_is_a_clear_error(tmp_path, capsys):
    broken = tmp_path / "broken.txt"
    broken.write_text("hello\n")
    for path in (str(broken), str(tmp_path / "missing.txt")):
        with pytest.raises(SystemExit) as exited:
            sim.main(["--replay", path, "--terminal"])
        assert exited.value.code == 2
        assert "--replay %s" % path in capsys.readouterr().err


HEAD = "spit-transcript 1\nseed 5\noptions layout=1-5\n"


@pytest.mark.parametrize(
    ("contents", "reason"),
    [
        (HEAD + "S@10 S@", "line 4, word 2 (S@): expected the press time in microseconds"),
        (HEAD + "S@-5\n", "line 4, word 1 (S@-5): expected the press time in microseconds"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "line 1: expected text, found bytes that are not UTF-8"),
        (b"\x00" * 64, "line 1, column 1: expected text, found the control character 0x00"),
        (
            "speed-transcript 1\nseed 5\nF 1c1c4\n",
            "line 3, word 2 (1c1c4): expected an action: F (flip), 1c3a (play) or 1* (the call)",
        ),
    ],
    ids=["cut short", "negative time", "binary", "zeros", "a Spit word in Speed's"],
)
def test_a_damaged_transcript_is_refused_in_one_line(contents, reason, tmp_path, capsys):
    path = tmp_path / "damaged.txt"
    if isinstance(contents, str):
        path.write_text(contents)
    else:
        path.write_bytes(contents)
    with pytest.raises(SystemExit) as exited:
        sim.main(["--replay", str(path), "--terminal"])
    assert exited.value.code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("host_sim: error: --replay %s: %s" % (path, reason))


def test_a_file_larger_than_any_transcript_is_refused_unread(tmp_path, capsys, monkeypatch):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(1 << 30)  # a sparse GiB of zeros
    opened = []
    monkeypatch.setattr("builtins.open", lambda *args, **kw: opened.append(args))
    with pytest.raises(SystemExit) as exited:
        sim.main(["--replay", str(huge), "--terminal"])
    assert exited.value.code == 2 and opened == []
    assert capsys.readouterr().err.splitlines() == [
        "host_sim: error: --replay %s: 1073741824 bytes: a transcript is at most 1048576" % huge
    ]


@pytest.mark.parametrize("run", [["--headless", "--seed", "1"], ["--terminal"]])
@pytest.mark.parametrize("where", ["a-file", "a-file/games"])
def test_a_record_folder_that_cannot_be_made_is_one_line(run, where, tmp_path, capsys):
    (tmp_path / "a-file").write_text("")
    folder = str(tmp_path / where)
    with pytest.raises(SystemExit) as exited:
        sim.main(run + ["--record", folder])
    assert exited.value.code == 2
    reason = "a file is in the way of the folder"
    assert capsys.readouterr().err == "host_sim: error: --record %s: %s\n" % (folder, reason)


# -- headless ---------------------------------------------------------------------------


def test_headless_prints_the_seed_passed_and_that_seed_plays_the_same_games(monkeypatch):
    monkeypatch.setattr(sim, "draw_seed", lambda: 3)
    out, err = io.StringIO(), io.StringIO()
    drawn = sim_flags.parse_args(["--headless"] + SHORT[2:])
    assert sim.run_headless(drawn, out, err) == 0
    assert err.getvalue().startswith("seed 3 (drawn; --seed 3 plays these games again)")
    line = json.loads(out.getvalue())
    assert line["seed"] == 3 and line["game"] == 1 and line["winner"] in (1, 2)
    assert line["game_name"] == "spit" and line["spits"] >= 1 and "flips" not in line
    assert line["rounds"] >= 1 and line["match"][line["winner"] - 1] == 1
    again = io.StringIO()
    sim.run_headless(sim_flags.parse_args(["--headless"] + SHORT), again, io.StringIO())
    assert again.getvalue() == out.getvalue()


def test_headless_speed_prints_the_same_lines_for_the_same_seed():
    runs = []
    for _ in range(2):
        out = io.StringIO()
        args = sim_flags.parse_args(["--headless", "--games", "3"] + SPEED)
        assert sim.run_headless(args, out, io.StringIO()) == 0
        runs.append(out.getvalue())
    assert runs[0] == runs[1]
    games = [json.loads(line) for line in runs[0].splitlines()]
    assert [game["game"] for game in games] == [1, 2, 3]
    for game in games:
        assert game["game_name"] == "speed" and game["rounds"] == 1
        assert game["reason"] in (speed.CALLED, speed.FEWER_CARDS)
        assert game["plays"] > 0 and game["flips"] >= 0 and game["reshuffles"] >= 0
        assert "spits" not in game and "slaps" not in game
    assert [sum(game["match"]) for game in games[:2]] == [1, 2], "a best of three goes on"


# -- recorded games and replays ---------------------------------------------------------


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def record_short_game(folder, argv=SHORT):
    """The first CPU game of ``argv`` recorded by the simulator; returns the device and the
    file's path."""
    args = sim_flags.parse_args(["--headless"] + argv)
    dev, clock = device(
        args.options.text(),
        (args.p1, args.p2),
        args.seed,
        screen=True,
        record=str(folder),
        game=args.game,
    )
    while not dev.finished:
        settle(dev, clock, 1000)
    settle(dev, clock, 1500)
    return dev, dev.saved_transcripts[0]


def replay(text, tmp_path, screen=False):
    path = tmp_path / "replayed.txt"
    path.write_text(text)
    args = sim_flags.parse_args(["--replay", str(path), "--terminal"])
    args.transcript = sim.load_transcript(str(path))
    play = sim.Play(args, screen)
    while not play.pacer.frozen:
        play.pacer.pass_once()
    return play


@pytest.fixture(scope="module")
def short_game(tmp_path_factory):
    return record_short_game(tmp_path_factory.mktemp("games"))


def test_a_device_transcript_replays_the_same_game(short_game, tmp_path):
    original, path = short_game
    text = read(path)
    assert "@" in text
    seed = original.session.match.seed
    assert (
        text.splitlines()[-1] == "# simulator seats lightning lightning games 0-0 match %d" % seed
    )
    device_text = "\n".join(text.splitlines()[:-1]) + "\n"  # as the device writes it
    play = replay(device_text, tmp_path)
    assert play.replay.done and play.replay.error is None
    game = play.device.session.table.game
    assert game.history == Transcript.parse(text).actions
    assert game.phase == PHASE_OVER and game.outcome().winner + 1 == original.finished[0]["winner"]
    assert not any(play.device.held(b) for b in range(keys.BUTTON_COUNT)), "all released"
    assert play.status()[:4] == [
        "game: Spit",
        "seed %d" % game.seed,
        "P1 human vs P2 human",
        "replay replayed.txt: %d/%d" % ((len(game.history),) * 2),
    ]


def test_a_transcript_without_press_times_replays_at_an_even_pace(short_game, tmp_path):
    original, path = short_game
    plain = Transcript.parse(read(path))
    plain.times = None
    play = replay(plain.text(), tmp_path)
    assert play.replay.done and play.device.session.table.game.history == plain.actions


def test_a_word_the_buttons_cannot_make_stops_the_replay_with_the_reason():
    dev, clock = device()
    bad = Transcript(11, Options(), [SPIT_ACTION, slap(0, 0)])  # a slap in the middle of play
    dev.start_game(bad)
    replaying = Replay(bad, dev)
    for _ in range(25_000):
        replaying.update()
        dev.step()
        clock.advance(1000)
        if replaying.error:
            break
    assert replaying.made == 1 and replaying.error == "word 2 (1!a) was not accepted"


def test_a_speed_game_recorded_by_the_simulator_replays_on_screen(tmp_path):
    original, path = record_short_game(tmp_path / "games", SPEED)
    text = read(path)
    assert text.startswith("speed-transcript 1\nseed ") and "options" not in text
    play = replay(text, tmp_path, screen=True)
    game = play.device.session.table.game
    transcript = Transcript.parse(text)
    assert play.replay.done and play.replay.error is None
    assert game.NAME == "speed" and game.history == transcript.actions
    first = original.finished[0]
    assert first["reason"] == speed.CALLED, "the seed's game ends with a call"
    assert game.history[-1] == speed.out(first["winner"] - 1), "pressed as a SPIT"
    assert game.outcome().winner + 1 == first["winner"]
    assert play.device.screen_name() == "game over"
    assert play.device.virtual.rgb() == original.virtual.rgb(), "the same last screen"
    status = play.status()
    assert status[0] == "game: Speed" and status[2] == "P1 CPU lightning vs P2 CPU lightning"
    assert "replay replayed.txt: %d/%d" % ((len(transcript.actions),) * 2) in status
    assert "replay finished" in status
    lines = play.device.lines()
    assert lines[0].startswith("Speed  games won") and "round" not in lines[0]
    assert "Game over: player %d wins (%s)" % (first["winner"], first["reason"]) in lines


def test_a_speed_word_the_rules_refuse_stops_the_replay_with_the_reason(tmp_path):
    play = replay("speed-transcript 1\nseed 5\nF F\n", tmp_path)
    assert play.replay.made == 1 and play.replay.error == "word 2 (F) was not accepted"
    assert "replay stopped: word 2 (F) was not accepted" in play.status()
    assert play.device.session.table.game.history == [speed.FLIP_ACTION]


# -- the terminal view in a pseudo-terminal ---------------------------------------------


_STARTED = []  # every Terminal's process, stopped after its test whatever happened


@pytest.fixture(autouse=True)
def no_simulator_left_running():
    yield
    while _STARTED:
        process = _STARTED.pop()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


class Terminal:
    """``python -m host_sim`` (or ``make sim``) on a pseudo-terminal without a display."""

    def __init__(self, command):
        env = dict(os.environ, TERM="xterm", PYTHONPATH=ROOT)
        for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
            env.pop(name, None)
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        self.process = subprocess.Popen(
            command,
            stdin=slave,
            stdout=slave,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
            start_new_session=True,
        )
        _STARTED.append(self.process)
        os.close(slave)
        self.seen = ""

    def wait_for(self, text, seconds=20):
        end = time.monotonic() + seconds
        while text not in self.seen and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536).decode("utf8", "replace")
                except OSError:
                    break
        return text in self.seen

    def type(self, text):
        time.sleep(0.1)  # a key tapped just before is released by now, as a finger lifts
        self.seen = ""
        os.write(self.master, text.encode())

    def finish(self):
        code = self.process.wait(10)
        os.close(self.master)
        return code, self.process.stderr.read().decode()


def python_sim(*args):
    return [sys.executable, "-m", "host_sim", *args]


def test_without_a_display_make_sim_plays_in_the_terminal(tmp_path):
    view = Terminal(["make", "-s", "sim", "ARGS=--seed 5 --record %s" % tmp_path])
    assert view.wait_for("for the window, run make sim in a desktop session"), view.seen
    assert view.wait_for("Spit handheld: title") and view.wait_for("seed 5")
    assert view.wait_for("press SPIT (Space) to start a match")
    view.type(" ")  # P1's SPIT: a match against the CPU
    assert view.wait_for("ready") and view.wait_for("P1 human vs P2 CPU steady")
    view.type("\x1b")
    code, err = view.finish()
    assert code == 0 and "Traceback" not in err


def test_the_terminal_view_plays_a_round_with_the_keys(tmp_path):
    view = Terminal(
        python_sim("--p2", "human", "--seed", "5", "--quick", "off", "--record", str(tmp_path))
    )
    assert view.wait_for("Spit handheld: title")
    assert view.wait_for("Tab holds SPIT for the settings"), "the keys show at first"
    view.type(" ")
    assert view.wait_for("Both press SPIT")
    time.sleep(0.3)  # a person reads the ready screen
    view.type(" \n")
    assert view.wait_for("the round opens in")
    assert view.wait_for("Spit handheld: play", 10)
    view.type("1")
    assert view.wait_for("P1 picked")
    view.type("?")  # the keys go
    view.type("?")  # and come back
    assert view.wait_for("Tab holds SPIT for the settings")
    view.type("\x1b")
    assert view.finish()[0] == 0


def test_ctrl_c_leaves_the_terminal_view_without_a_traceback(tmp_path):
    view = Terminal(python_sim("--seed", "5", "--record", str(tmp_path)))
    assert view.wait_for("Spit handheld: title")
    view.process.send_signal(signal.SIGINT)
    code, err = view.finish()
    assert code == 0
    assert err == (
        "Terminal view (no graphical display (DISPLAY is not set)); for the window, run make sim"
        " in a desktop session.\n"
    ), "the fallback's line and nothing else"


def test_with_neither_a_display_nor_a_terminal_it_says_what_to_do():
    env = dict(os.environ, PYTHONPATH=ROOT)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        env.pop(name, None)
    done = subprocess.run(
        python_sim("--seed", "1"),
        env=env,
        cwd=ROOT,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "host_sim: no graphical display (DISPLAY is not set), and no terminal to play in;"
        " try --headless\n"
    )


def test_headless_games_recorded_keep_every_transcript_the_last_one_too(tmp_path):
    folder = tmp_path / "games"
    out = io.StringIO()
    args = sim_flags.parse_args(["--headless", "--games", "3", "--record", str(folder)] + SHORT)
    assert sim.run_headless(args, out, io.StringIO()) == 0
    games = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [game["game"] for game in games] == [1, 2, 3], "no game printed beyond --games"
    names = sorted(os.listdir(folder))
    assert names == ["game-1.txt", "game-2.txt", "game-3.txt"]
    for name, game in zip(names, games, strict=True):
        transcript = Transcript.parse(read(folder / name))
        assert transcript.seed == game["game_seed"]
