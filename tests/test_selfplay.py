"""Self-play: whole CPU-against-CPU games as a race in time, the same on CPython and on
MicroPython, and the command line that prints them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.positions import cards, position
from spit.cpu import LEVELS
from spit.games import PHASE_PLAY, PHASE_READY, play
from spit.options import CHOICES, Options
from spit.selfplay import (
    Race,
    Tally,
    fnv1a,
    game_seed,
    play_game,
    result_line,
    run_lines,
    summary_line,
)
from spit.spit import SPIT_ACTION, Game
from spit.spit_cpu import SpitCpu
from spit.transcript import Transcript

from host_sim import cpu_vs_cpu as cli

ROOT = Path(__file__).resolve().parent.parent
P1, P2 = 0, 1
A, B = 0, 1
GAME_KEYS = [
    "seed", "winner", "rounds", "plays", "spits", "slaps", "late", "cards", "points", "ms",
    "capped", "hash",
]  # fmt: skip
SUMMARY_KEYS = [
    "games", "wins", "unfinished", "rounds_mean", "plays", "spits", "slaps", "late",
    "ms_mean", "hash",
]  # fmt: skip


def race_to_the_end(seed, options=None, levels=("steady", "steady")):
    game = Game(seed, options)
    race = Race(game, (SpitCpu(P1, levels[0], seed), SpitCpu(P2, levels[1], seed)))
    while race.step():
        pass
    return race


@pytest.mark.parametrize(
    "text, digest", [("", 0x811C9DC5), ("a", 0xE40C292C), ("foobar", 0xBF9CF968)]
)
def test_fnv1a_matches_the_published_vectors(text, digest):
    assert fnv1a(text) == digest


def test_fnv1a_continues_a_hash():
    assert fnv1a("bar", fnv1a("foo")) == fnv1a("foobar")


def test_a_game_is_played_to_the_end_and_adds_up():
    race = race_to_the_end(game_seed(1, 0))
    game = race.game
    result = play_game(game_seed(1, 0))
    assert result.winner in (1, 2) and not result.capped
    assert result.cards[result.winner - 1] == 0
    assert sum(result.cards) == 52
    assert game.outcome().winner == result.winner - 1
    assert (result.rounds, result.plays, result.spits, result.slaps) == (
        game.round,
        game.plays,
        game.spits,
        game.slaps,
    )
    assert result.ms == race.now > 0
    assert result.hash == fnv1a(Transcript.of(game).text())


def test_the_transcript_replays_to_the_same_end():
    game = race_to_the_end(game_seed(2, 3)).game
    again = Transcript.parse(Transcript.of(game).text()).replay()
    assert again.outcome().winner == game.outcome().winner
    assert [again.held(p) for p in (P1, P2)] == [game.held(p) for p in (P1, P2)]


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    assert result_line(play_game(77)) == result_line(play_game(77))
    assert play_game(77).hash != play_game(78).hash


def test_game_seeds_are_derived_from_the_run_seed_and_the_index():
    seeds = [game_seed(5, index) for index in range(50)]
    assert len(set(seeds)) == 50
    assert seeds == [game_seed(5, index) for index in range(50)]
    assert seeds[0] != game_seed(6, 0)


def test_the_opening_spit_comes_when_both_have_called_it():
    game = Game(9)
    cpus = (SpitCpu(P1, "relaxed", 9), SpitCpu(P2, "lightning", 9))
    race = Race(game, cpus)
    assert game.phase == PHASE_READY
    assert cpus[0].action == cpus[1].action == SPIT_ACTION
    later = max(cpus[0].due, cpus[1].due)
    assert race.step()
    assert game.phase == PHASE_PLAY and game.spits == 1 and race.now == later


def test_the_first_card_down_stands_and_the_later_one_comes_too_late():
    # Both 7H (player 1) and 5C (player 2) fit 6S.
    game = position(["7H", "KC"], ["5C", "KD"], ["6S", "JD"])
    cpus = (SpitCpu(P1, "steady", 4), SpitCpu(P2, "steady", 4))
    race = Race(game, cpus)
    landed = cpus[0].due
    cpus[1].due = landed + 10  # player 2's hand is already moving when 7H lands
    assert race.step() and game.top(A) == cards("7H")[0] and race.now == landed
    assert cpus[1].action == play(P2, 0, A)
    assert race.step() and race.late == 1 and race.now == landed + 10
    assert game.stock_top(P2, 0) == cards("5C")[0], "back where it came from"


class Stub:
    """A seat that always wants the same action at the same time."""

    def __init__(self, action, due):
        self.action = action
        self.due = due
        self.planned = action
        self.turns = 0

    def look(self, game, now):
        self.action = self.planned
        return False

    def done(self):
        self.turns += 1
        self.action = None


def test_a_tie_to_the_millisecond_goes_to_each_seat_in_turn():
    game = position(["9C"], ["9D"], ["KH", "KD"])  # nobody can move: the stubs only race
    stubs = (Stub(play(P1, 0, A), 500), Stub(play(P2, 0, A), 500))
    race = Race(game, stubs)
    order = []
    for _ in range(6):
        before = [stub.turns for stub in stubs]
        race.step()
        order.append(0 if stubs[0].turns > before[0] else 1)
    assert order == [0, 1, 0, 1, 0, 1]
    assert race.late == 6, "neither card fits, so every try is refused"


def test_a_seat_with_nothing_to_do_never_spins():
    game = position(["9C"], ["9D"], ["KH", "KD"])
    race = Race(game, (Stub(None, 0), Stub(SPIT_ACTION, 100)))
    assert not race.step() and race.stalled


def test_a_capped_game_has_no_winner_and_says_so():
    game = Game(3)
    race = Race(game, (SpitCpu(P1, "steady", 3), SpitCpu(P2, "steady", 3)), cap=40)
    while race.step():
        pass
    assert race.capped() and race.tries == 40
    result = play_game(3, cap=40)
    assert result.winner == 0 and result.capped
    line = json.loads(result_line(result))
    assert line["winner"] == 0 and line["capped"] is True
    tally = Tally()
    tally.add(result, result_line(result))
    assert json.loads(summary_line(tally))["unfinished"] == 1


def test_a_faster_level_beats_a_slower_one():
    results = [play_game(game_seed(8, i), levels=("lightning", "relaxed")) for i in range(6)]
    assert [result.winner for result in results] == [1] * 6
    results = [play_game(game_seed(8, i), levels=("relaxed", "quick")) for i in range(6)]
    assert [result.winner for result in results] == [2] * 6


def test_equal_levels_win_about_equally_from_either_seat():
    summary = json.loads(list(run_lines(12, 60))[-1])
    assert 18 <= summary["wins"][0] <= 42


def test_result_lines_are_json_with_a_fixed_key_order():
    lines = list(run_lines(4, 5))
    assert len(lines) == 6
    games = [json.loads(line) for line in lines[:-1]]
    summary = json.loads(lines[-1])
    assert all(list(game) == GAME_KEYS for game in games)
    assert list(summary) == SUMMARY_KEYS
    assert summary["games"] == 5 and sum(summary["wins"]) == 5
    assert summary["plays"] == sum(game["plays"] for game in games)
    assert summary["rounds_mean"] == round(sum(g["rounds"] for g in games) / 5, 2)
    assert summary["hash"] == "%08x" % fnv1a("".join(line + "\n" for line in lines[:-1]))
    assert [game["seed"] for game in games] == [game_seed(4, i) for i in range(5)]


def option_values():
    for name, values in CHOICES:
        for value in values:
            yield name, value


@pytest.mark.parametrize("name, value", list(option_values()))
def test_every_option_value_plays_whole_games(name, value):
    options = Options(**{name: value})
    for index in range(3):
        result = play_game(game_seed(30, index), options, ("quick", "steady"))
        assert result.winner in (1, 2), result_line(result)
        assert sum(result.cards) == 52


RULE_CLASSES = [
    Options(layout=layout, middle=middle, pick=pick, stack=stack, score=score)
    for layout in ("1-5", "3x5", "1-4")
    for middle in ("two", "one")
    for pick in ("slap", "winner")
    for stack in ("off", "on")
    for score in ("out", "points")
]


@pytest.mark.soak
@pytest.mark.parametrize("index", range(len(RULE_CLASSES)))
def test_soak_thousands_of_games_end_with_every_card_accounted_for(index):
    options = RULE_CLASSES[index]
    levels = [level.name for level in LEVELS]
    for game in range(60):
        pair = (levels[game % 4], levels[game // 4 % 4])
        result = play_game(game_seed(index, game), options, pair)
        assert result.winner in (1, 2) and sum(result.cards) == 52, result_line(result)


def test_mixed_options_play_whole_games():
    options = Options.parse("layout=3x5 middle=one pick=winner stack=on score=points")
    for index in range(4):
        assert play_game(game_seed(31, index), options).winner in (1, 2)


def run_cli(*args):
    done = subprocess.run(
        [sys.executable, "-m", "host_sim.cpu_vs_cpu", *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout


def test_the_command_line_prints_a_line_per_game_and_a_summary():
    out = run_cli("--seed", "3", "--games", "4", "--p2", "quick", "--stack", "on")
    lines = out.splitlines()
    assert len(lines) == 5
    assert [json.loads(line)["seed"] for line in lines[:4]] == [game_seed(3, i) for i in range(4)]
    assert json.loads(lines[4])["games"] == 4
    expected = run_lines(3, 4, Options.parse("stack=on"), ("steady", "quick"))
    assert lines == list(expected)


def test_every_rule_option_is_a_flag():
    parse = cli.parser()
    for name, values in CHOICES:
        for value in values:
            args = parse.parse_args(["--" + name, value])
            assert cli.options_of(args).get(name) == value
    assert cli.options_of(parse.parse_args([])) == Options()


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--seed", "x"], "--seed: 'x' is not a whole number"),
        (["--seed", "-1"], "--seed: a seed is from 0 to 4294967295, not -1"),
        (["--games", "-2"], "--games: must be 0 or more, not -2"),
        (["--p1", "fast"], "--p1: invalid choice: 'fast'"),
        (["--game", "speed", "--stack", "on"], "--game speed takes no rule options"),
    ],
)
def test_a_flag_error_is_one_line_without_the_usage(argv, line, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 1
    assert err.startswith("host_sim.cpu_vs_cpu: error: " + line)
