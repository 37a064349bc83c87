"""The game interface (``spit.games``) as the one owner of what every game shares: the
action's layout read back by its accessors, the registry's answers, and every private
copy a hot module keeps of its values (a ``const`` is folded only in its own module)."""

import importlib
import os
import re

import pytest
from spit import games
from spit.cards import RANK_COUNT
from spit.options import Options

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
_COPY = re.compile(r"^_([A-Z_]+) = const\(", re.M)


def _copies():
    """``(module name, copy, owner's value)`` of every private const named after one of
    ``spit.games``' values (or ``_RANKS``, ``spit.cards.RANK_COUNT``) in the firmware."""
    found = []
    for folder, _, names in os.walk(FIRMWARE):
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path) as source:
                text = source.read()
            module = os.path.relpath(path, FIRMWARE)[:-3].replace(os.sep, ".")
            for owned in _COPY.findall(text):
                if owned == "RANKS":
                    found.append((module, "_RANKS", RANK_COUNT))
                elif not owned.startswith("_") and hasattr(games, owned):
                    found.append((module, "_" + owned, getattr(games, owned)))
    return found


def test_the_hot_modules_keep_copies_of_the_interface():
    modules = {module for module, _, _ in _copies()}
    assert {"spit.spit", "spit.speed", "spit.controls", "spit.play_screen"} <= modules


@pytest.mark.parametrize(("module", "copy", "value"), _copies())
def test_every_copy_holds_the_owners_value(module, copy, value):
    assert getattr(importlib.import_module(module), copy) == value


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("slot", [0, 4])
@pytest.mark.parametrize("last", [0, 1, 4])
def test_an_action_reads_back_what_it_was_made_of(player, slot, last):
    for kind in (games.PLAY, games.MOVE, games.SLAP, 4):
        action = games.action(kind, player, slot, last)
        assert games.kind_of(action) == kind and games.player_of(action) == player
        assert games.first_of(action) == slot and games.last_of(action) == last
    assert games.play(player, slot, last) == games.action(games.PLAY, player, slot, last)
    assert games.move(player, slot, last) == games.action(games.MOVE, player, slot, last)
    assert games.slap(player, last) == games.action(games.SLAP, player, 0, last)
    assert games.kind_of(games.CALL_ACTION) == games.CALL


def test_the_registry_names_each_game_its_module_and_its_call():
    assert games.NAMES == ["spit", "speed"]
    for name in games.NAMES:
        rules = games.rules(name)
        assert (rules.Game.NAME, rules.Game(1).word) == (name, games.call_word(name, Options()))
        assert set(rules.KEPT_OPTIONS) <= set(vars(Options()))
    assert games.call_word("spit", Options(word="SLAM")) == "SLAM"
    assert games.call_word("speed", Options(word="SLAM")) == "SPEED"
    assert games.calls() == ["SPIT", "SLAM", "SPEED"]
    with pytest.raises(KeyError):
        games.rules("snap")


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_each_game_holds_on_its_own_class_what_is_asked_every_pass(name):
    """A method found on ``Rules`` costs a lookup more on the Pico, some 4 µs a call."""
    asked = ["top", "stock_top", "stock_count", "held", "outcome", "is_legal", "pile_count"]
    asked += ["one_pile", "spitter_count", "own_call", "prepare_spit", "move_if_allowed"]
    game = games.rules(name).Game
    assert [method for method in asked if method not in vars(game)] == []
