"""The simulator as a player uses it: keys in, the table on the terminal, headless games."""

import io
import json

from spit import keys
from spit.cards import card_name
from spit.controller import COUNTDOWN_US
from spit.options import Options
from spit.rules import PHASE_OVER, PHASE_PLAY, PHASE_READY
from spit.session import NEXT_GAME_US

from host_sim import sim, terminal


def device(options="", seats=(sim.HUMAN, sim.HUMAN), seed=3):
    clock = sim.SimulatedClock()
    return sim.Device(clock, Options.parse(options), seed, seats), clock


def settle(dev, clock, ms=60):
    for _ in range(ms):
        dev.step()
        clock.advance(1000)


def type_keys(dev, clock, text):
    for char in text:
        dev.press(sim.KEYMAP[char])
        settle(dev, clock)


def test_every_button_has_one_key():
    assert sorted(sim.KEYMAP.values()) == list(range(keys.BUTTON_COUNT))
    assert sim.KEYMAP["1"] == keys.button_id(0, keys.C1)
    assert sim.KEYMAP["p"] == keys.button_id(1, keys.RIGHT)
    assert any("SPIT" in line for line in terminal.HELP)


def test_both_spit_keys_start_the_round_and_a_card_key_plays():
    dev, clock = device("quick=off")
    game = dev.session.table.game
    assert game.phase == PHASE_READY
    assert "Both press SPIT" in "\n".join(dev.lines())
    type_keys(dev, clock, "al")
    assert game.phase == PHASE_READY and dev.session.table.controls.counting
    settle(dev, clock, COUNTDOWN_US // 1000)
    assert game.phase == PHASE_PLAY and dev.last_event == "spat"
    type_keys(dev, clock, "1")
    assert dev.last_event == "P1 picked" and dev.session.table.controls.hand[0] == 0
    assert "[" + "%3s" % card_name(game.stock_top(0, 0)) in "\n".join(dev.lines())


def test_a_held_key_is_one_press():
    dev, clock = device()
    pin = dev.pins[sim.KEYMAP["a"]]
    pin.press()
    settle(dev, clock, 500)
    assert dev.session.table.controls.called == [True, False]
    pin.release()
    settle(dev, clock)
    assert dev.session.table.controls.called == [True, False]


def test_the_table_reads_from_both_sides():
    dev, clock = device("counts=on")
    type_keys(dev, clock, "al")
    settle(dev, clock, COUNTDOWN_US // 1000)
    text = dev.lines()
    game = dev.session.table.game
    assert text[1].startswith("P2  pack 10")
    assert text[8].startswith("P1  pack 10")
    assert "a %s (1)" % card_name(game.top(0)) in text[4]
    bottom = text[7].split()
    assert bottom[0] == card_name(game.stock_top(0, 0)), "player 1's C1 is on their left"
    top = text[2].split()
    assert top[-1] == card_name(game.stock_top(1, 0)), "player 2's C1 is on their left"


def test_cpu_against_cpu_plays_whole_games_and_the_next_one_follows():
    dev, clock = device(seats=("lightning", "quick"))
    while not dev.finished:
        settle(dev, clock, 1000)
    game = dev.session.table.game
    assert game.phase == PHASE_OVER and dev.finished[0]["winner"] in (1, 2)
    assert "Game over" in "\n".join(dev.lines())
    settle(dev, clock, NEXT_GAME_US // 1000 + 1)
    assert dev.session.table.game is not game
    assert dev.session.table.game.round == 0 and dev.session.match.games_played() == 1


def test_headless_prints_one_line_per_game():
    out = io.StringIO()
    args = sim.parse_args(["--headless", "--games", "2", "--seed", "4", "--layout", "3x5"])
    assert sim.run_headless(args, out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 2
    assert all(line["winner"] in (1, 2) and line["rounds"] >= 1 for line in lines)
    assert lines[1]["match"][lines[1]["winner"] - 1] >= 1


def test_without_a_terminal_it_says_so(capsys):
    assert sim.main([]) == 2
    assert "needs a terminal" in capsys.readouterr().err
