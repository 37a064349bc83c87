"""Transcripts checked without a screen (``--replay FILE --check``), and a headless game's
line against its transcript's replay: every figure the same, for Spit and Speed."""

import io
import json
import os

import pytest
from spit.games import PHASE_OVER  # noqa: E402

from host_sim.sim import flags as sim_flags
from host_sim.sim import simulator as sim
from host_sim.sim import terminal
from host_sim.sim.replay import ENDS_EARLY
from host_sim.sim.simulated_device import seats_note

pytestmark = pytest.mark.person_path

LIGHTNING = ["--p1", "cpu:lightning", "--p2", "cpu:lightning"]
# (game, flags) of each kind of run: all rule options are Spit's but match and quick.
RUNS = [
    ("spit", ["--layout", "3x5"]),
    ("spit", ["--middle", "one", "--pick", "winner", "--stack", "on"]),
    ("spit", ["--score", "points", "--layout", "1-4", "--spit", "auto", "--quick", "off"]),
    ("speed", []),
    ("speed", ["--quick", "off", "--match", "single"]),
]
LEVELS = ("lightning", "quick", "steady", "relaxed")


def headless_games(folder, seed, game, flags, games=1, seats=LIGHTNING):
    """``(line, transcript path)`` of each game of a headless run recorded in ``folder``."""
    argv = ["--headless", "--seed", str(seed), "--games", str(games), "--game", game]
    argv += seats + flags + ["--record", str(folder)]
    out = io.StringIO()
    assert sim.run_headless(sim_flags.parse_args(argv), out, io.StringIO()) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    paths = [os.path.join(folder, "game-%d.txt" % (n + 1)) for n in range(len(lines))]
    return list(zip(lines, paths, strict=True))


def check_agrees(line, path):
    """The transcript at ``path`` replayed to its end agrees with its game's ``line``: the
    replay's figures, and what the view shows at the end."""
    device, replay = sim.replay_to_the_end(sim.load_transcript(path))
    assert replay.error is None and replay.over, (line, replay.error)
    assert sim.figures(device.finished[0]) == sim.figures(line)
    game = device.session.table.game
    assert game.phase == PHASE_OVER and game.seed == line["game_seed"]
    shown = terminal.screen_lines(device)
    heading = shown[2]
    assert "games won P1 %d - P2 %d" % tuple(line["match"]) in heading
    if line["game_name"] == "spit":
        assert "round %d " % line["rounds"] in heading, (heading, line)
    won = "Game over: player %d wins (%s)" % (line["winner"], line["reason"])
    assert won in shown


# Spit's seed 2 picks a card up for a move just after the other player's card landed on
# the pile it fitted (``Replay._picks_in_race``).
@pytest.mark.parametrize(("run", "seed"), [(0, 2), (3, 5)], ids=["spit", "speed"])
def test_a_headless_line_and_its_transcripts_replay_agree_on_every_figure(run, seed, tmp_path):
    game, flags = RUNS[run]
    for line, path in headless_games(tmp_path, seed, game, flags, games=2):
        check_agrees(line, path)


@pytest.mark.soak
@pytest.mark.parametrize("run", range(len(RUNS)))
def test_soak_many_seeds_lines_and_replays_agree(run, tmp_path):
    game, flags = RUNS[run]
    for seed in range(12):
        seats = ["--p1", "cpu:" + LEVELS[seed % 4], "--p2", "cpu:" + LEVELS[seed // 4 % 4]]
        folder = tmp_path / str(seed)
        for line, path in headless_games(folder, 1000 + seed, game, flags, 3, seats):
            check_agrees(line, path)


# -- --check ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A short Spit game's line and transcript, recorded by a headless run."""
    folder = tmp_path_factory.mktemp("checked")
    return headless_games(folder, 3, "spit", ["--layout", "3x5", "--match", "single"])[0]


def check(path, *flags, capsys):
    """``python -m host_sim --replay path --check``: (exit status, stdout, stderr)."""
    status = sim.main(["--replay", str(path), *(flags or ("--check",))])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_whole_transcript_checks_and_prints_its_games_figures(recorded, capsys):
    line, path = recorded
    status, out, err = check(path, capsys=capsys)
    assert (status, err) == (0, "")
    assert json.loads(out) == sim.figures(line)


def test_headless_with_replay_is_the_same_check(recorded, capsys):
    line, path = recorded
    status, out, _ = check(path, "--headless", capsys=capsys)
    assert status == 0 and json.loads(out) == sim.figures(line)


def lines_of(path):
    with open(path) as f:
        return f.read().splitlines()


def written(tmp_path, lines):
    path = tmp_path / "checked.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_transcript_cut_at_a_word_ends_before_the_game_does(recorded, tmp_path, capsys):
    _, path = recorded
    lines = lines_of(path)
    cut = written(tmp_path, lines[:4])  # magic, seed, options, the first line of words
    status, out, err = check(cut, capsys=capsys)
    assert (status, out) == (1, "")
    assert err == "host_sim: --replay %s: %s\n" % (cut, ENDS_EARLY)


def test_a_header_only_transcript_ends_before_the_game_does(tmp_path, capsys):
    for header in (
        ["spit-transcript 1", "seed 9", "options layout=1-5"],
        ["speed-transcript 1", "seed 9"],
    ):
        path = written(tmp_path, header)
        status, _, err = check(path, capsys=capsys)
        assert (status, err) == (1, "host_sim: --replay %s: %s\n" % (path, ENDS_EARLY))


def test_a_refused_word_is_named_by_its_number_and_text(tmp_path, capsys):
    path = written(tmp_path, ["spit-transcript 1", "seed 11", "options layout=1-5", "S 1!a"])
    status, out, err = check(path, capsys=capsys)
    assert (status, out) == (1, "")
    assert err == "host_sim: --replay %s: word 2 (1!a) was not accepted\n" % path


def test_words_after_the_games_end_are_named(recorded, tmp_path, capsys):
    _, path = recorded
    lines = lines_of(path)
    words = sum(len(line.split()) for line in lines[3:] if not line.startswith("#"))
    extra = written(tmp_path, lines + ["S"])
    status, _, err = check(extra, capsys=capsys)
    assert status == 1
    assert err == "host_sim: --replay %s: word %d (S) comes after the end of the game\n" % (
        extra,
        words + 1,
    )


def test_an_unreadable_transcript_is_a_one_line_error_not_a_check(tmp_path, capsys):
    path = written(tmp_path, ["spit-transcript 1", "seed \u00b2"])
    with pytest.raises(SystemExit) as exited:
        check(path, capsys=capsys)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected a seed, a whole number" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--check"], "--check checks a transcript: add --replay FILE"),
        (["--replay", "x.txt", "--check", "--terminal"], "--scale and --terminal do not apply"),
        (["--replay", "x.txt", "--headless", "--games", "2"], "--games does not apply"),
    ],
)
def test_check_flag_errors_are_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exited:
        sim_flags.parse_args(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 1 and message in err


def test_without_a_display_or_terminal_a_replay_points_to_check(recorded, monkeypatch, capsys):
    _, path = recorded
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO())
    assert sim.main(["--replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.endswith("no terminal to play in; add --check to check it\n")


# -- on screen ------------------------------------------------------------------------------


def replayed_on_screen(path):
    args = sim_flags.parse_args(["--replay", str(path), "--terminal"])
    args.transcript = sim.load_transcript(str(path))
    play = sim.Play(args, screen=False)
    while not play.pacer.frozen:
        play.pacer.pass_once()
    return play


def test_a_replay_on_screen_says_when_the_words_run_out_first(recorded, tmp_path):
    _, path = recorded
    cut = written(tmp_path, lines_of(path)[:5])
    play = replayed_on_screen(cut)
    assert "replay stopped: " + ENDS_EARLY in play.status()
    assert "replay finished" not in play.status()
    header = written(tmp_path, ["speed-transcript 1", "seed 4"])
    assert "replay stopped: " + ENDS_EARLY in replayed_on_screen(header).status()


def test_a_whole_replay_on_screen_finishes(recorded):
    _, path = recorded
    status = replayed_on_screen(path).status()
    assert "replay finished" in status and not any("stopped" in line for line in status)


def test_a_seat_note_with_numbers_not_in_ascii_digits_is_passed_over():
    for won in ("\u00b2-0", "1-\u2460", "9" * 5000 + "-0"):
        text = "spit-transcript 1\n# simulator seats quick human games %s match 3\n" % won
        assert seats_note(text) == (("human", "human"), (0, 0), None)
    note = "# simulator seats quick human games 1-0 match \u00b3\n"
    assert seats_note(note) == (("quick", "human"), (1, 0), None)
