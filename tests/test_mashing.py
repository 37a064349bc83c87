"""Mashing: random presses, bounce trains and held buttons on all 16 buttons, through
the whole input path (fake pins -> hard-IRQ capture -> debounce -> arbiter -> controls
-> rules), never break the game and never move a player's cards by the other's hand."""

import pytest
from helpers.positions import all_cards
from spit import keys
from spit.cards import DECK_SIZE
from spit.games import MOVE, PHASE_DEALING, PLAY, kind_of, player_of
from spit.options import Options
from spit.rng import Rng

from host_sim.sim.simulator import Device, SimulatedClock

BOUNCE_MAX_US = 6_000


class Hands:
    """Sixteen fingers: each press may bounce and may be held for a while."""

    def __init__(self, device, clock, rng):
        self.device = device
        self.clock = clock
        self.rng = rng
        self.pending = []  # (time, button, level) edges still to happen

    def mash(self, button):
        now = self.clock.now
        t = now
        for _ in range(self.rng.below(6)):  # a bounce train of up to 6 ms
            t += 1 + self.rng.below(BOUNCE_MAX_US // 6)
            self.pending.append((t, button, self.rng.below(2)))
        hold = 5_000 + self.rng.below(3) * self.rng.below(400_000)
        self.pending.append((now, button, 0))
        self.pending.append((t + hold, button, 1))

    def play_edges(self):
        now = self.clock.now
        due = [edge for edge in self.pending if edge[0] <= now]
        self.pending = [edge for edge in self.pending if edge[0] > now]
        for _, button, level in sorted(due):
            pin = self.device.pins[button]
            pin.drive(None if level else 0)


def stocks(game):
    return [[list(cards) for cards in game.stock[player]] for player in (0, 1)]


def check_invariants(game):
    everything = all_cards(game)
    assert len(everything) == DECK_SIZE and len(set(everything)) == DECK_SIZE
    for player in (0, 1):
        assert len(game.stock[player]) == len(game.options.pile_sizes)


def mash_games(seed, options, steps, seats=("human", "human"), start_us=0):
    rng = Rng(seed)
    clock = SimulatedClock(start_us)
    device = Device(clock, options, seed, seats)
    hands = Hands(device, clock, rng)
    human = [player for player in (0, 1) if seats[player] == "human"]
    for _ in range(steps):
        if rng.below(4) == 0:
            player = human[rng.below(len(human))]
            hands.mash(keys.button_id(player, rng.below(keys.KEYS_PER_PLAYER)))
        game = device.session.table.game
        before = stocks(game)
        seen = len(game.history)
        laid_out = game.round
        dealing = game.phase == PHASE_DEALING
        hands.play_edges()
        device.step()
        clock.advance(250 + rng.below(1500))
        if device.session.table.game is not game:
            continue
        check_invariants(game)
        if game.round != laid_out or dealing:
            continue  # a round ended, or the next was laid out
        new = game.history[seen:]
        after = stocks(game)
        for player in (0, 1):
            if after[player] != before[player]:
                assert any(
                    kind_of(action) in (PLAY, MOVE) and player_of(action) == player
                    for action in new
                ), "player %d's cards moved without a press of theirs" % (player + 1)
    return device


def test_mashing_both_players_never_corrupts_a_game():
    device = mash_games(7, Options(), 6_000)
    assert device.session.table.game.plays > 20, "the mashing played cards"
    assert device.buttons.overflows == 0
    assert device.session.table.arbiter.overflows == 0


def test_mashing_across_the_tick_wrap():
    mash_games(11, Options.parse("quick=off stack=on"), 3_000, start_us=(1 << 30) - 2_000_000)


def test_mashing_one_player_against_the_cpu():
    device = mash_games(5, Options.parse("middle=one"), 6_000, seats=("human", "lightning"))
    assert device.session.table.game.history, "the CPU played"


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(12))
def test_mashing_soak(seed):
    options = Options.parse(["", "quick=off", "stack=on pick=winner", "middle=one"][seed % 4])
    mash_games(seed, options, 100_000, seats=("human", ["human", "quick"][seed % 2]))
