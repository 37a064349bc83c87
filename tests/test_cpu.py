"""The CPU player: each piece of strategy on a position built for it, its reaction-time
model, and that whatever it chooses is legal."""

import pytest
from helpers.positions import cards, position
from spit import games, savedata, spit_cpu
from spit.cpu import HAND_MS, LEVEL_NAMES, LEVELS, LOOKING, CpuPlayer, level_named
from spit.games import (
    PHASE_PLAY,
    PHASE_READY,
    PHASE_SLAP,
    PLAY,
    first_of,
    kind_of,
    move,
    play,
    player_of,
    slap,
)
from spit.options import Options
from spit.selfplay import Race, game_seed
from spit.spit import SPIT_ACTION, Game
from spit.spit_cpu import SpitCpu

P1, P2 = 0, 1
A, B = 0, 1  # spit piles: a is player 1's, b player 2's


def careful(seat=P1):
    return SpitCpu(seat, "lightning")


def careless(seat=P1):
    cpu = SpitCpu(seat, "relaxed")
    cpu.careful = False
    return cpu


def run_alone(cpu, game):
    """Let one CPU act until it has nothing to do; the cards it played, in order."""
    played = []
    for _ in range(20):
        action = cpu.choose(game)
        if action is None or action == SPIT_ACTION:
            break
        if kind_of(action) == PLAY:
            played.append(game.stock_top(cpu.seat, first_of(action)))
        game.apply(action)
    return played


def test_plays_from_the_deepest_pile_first():
    # 7H and 7S both fit 6S; 7S sits on the five-card pile.
    game = position(["7H", "", "", "", "2C 3D 4S 5H 7S"], ["QC"], ["6S", "JD"])
    assert careful().choose(game) == play(P1, 4, A)


def test_a_card_that_fits_both_piles_leaves_the_pile_the_next_card_needs():
    # 5H fits 4S and 6D; 3C needs 4S. Covering 6D keeps both cards playable.
    game = position(["9C 5H", "3C"], ["QC"], ["4S", "6D"])
    assert careful().choose(game) == play(P1, 0, B)
    assert run_alone(careful(), game) == cards("5H 3C")
    naive = position(["9C 5H", "3C"], ["QC"], ["4S", "6D"])
    assert run_alone(careless(), naive) == cards("5H"), "a careless look covers 4S"


def test_a_card_that_fits_both_piles_covers_the_opponents_run():
    # 5H fits 4S and 6D; the opponent's 7C and 8C are a run on 6D.
    game = position(["5H"], ["7C", "8C"], ["4S", "6D"])
    assert careful().choose(game) == play(P1, 0, B)


def test_a_card_that_starts_a_run_goes_first():
    # 2S and 9D each fit a pile; after 9D on 8H the CPU's 10C follows it.
    game = position(["2S", "9D", "10C"], ["QC"], ["3C", "8H"])
    assert careful().choose(game) == play(P1, 1, B)
    assert sorted(run_alone(careful(), game)) == sorted(cards("9D 2S 10C"))


def test_fills_a_gap_from_the_deepest_pile():
    # Nothing fits KH or KD; slot 1 and slot 2 hide cards, slot 2 more of them.
    game = position(["", "2C 9D", "3C 4D 9S", "8C"], ["5C"], ["KH", "KD"])
    assert careful().choose(game) == move(P1, 2, 0)


def test_a_careless_look_digs_from_the_left():
    game = position(["", "2C 9D", "3C 4D 9S", "8C"], ["5C"], ["KH", "KD"])
    assert careless().choose(game) == move(P1, 1, 0)


def test_plays_before_digging():
    game = position(["", "2C 9D", "3C 4D 9S", "8C"], ["5C"], ["KH", "7D"])
    assert careful().choose(game) == play(P1, 3, B)


def test_never_moves_a_card_that_uncovers_nothing():
    # A gap and a lone 9D: moving 9D would turn nothing up. The opponent can play.
    game = position(["", "9D"], ["QC"], ["KH", "KD"])
    assert careful().choose(game) is None
    assert careless().choose(game) is None


def test_stacks_on_a_same_rank_top_to_dig_with_the_option():
    rows = (["2C 7H", "7S", "KC", "KD", "QC"], ["9C"], ["4S", "4H"])
    assert careful().choose(position(*rows, options="stack=on")) == move(P1, 0, 1)
    assert careful().choose(position(*rows)) == SPIT_ACTION, "without stacking it is stuck"


def test_prefers_a_stack_to_a_gap_so_the_gap_stays_free():
    game = position(["2C 7H", "", "KD", "7S", "QC"], ["9C"], ["4S", "4H"], options="stack=on")
    assert careful().choose(game) == move(P1, 0, 3)


def test_digs_the_pile_closest_to_turning_a_card_up():
    # Slot 1's 7S hides 4C under one face-up card; slot 0 has two face-up sevens.
    game = position(
        ["2C 7H 7D", "3C 4C 7S", "KC", "KD", "QC"], ["5D"], ["10S", "10H"], options="stack=on"
    )
    game.face_up[P1][0] = 2
    assert careful().choose(game) == move(P1, 1, 0)
    game.apply(move(P1, 1, 0))
    assert game.stock_top(P1, 1) == cards("4C")[0]


def test_waits_while_only_the_opponent_can_move():
    game = position(["9D", "8S", "QD", "JH", "JS"], ["5C"], ["6H", "4D"])
    cpu = careful()
    assert cpu.choose(game) is None
    assert not cpu.wants_spit(game)


@pytest.mark.parametrize("packs", [(5, 5), (0, 10)])
def test_calls_spit_only_when_nobody_can_move(packs):
    game = position(["9D", "8S"], ["2H"], ["KH", "KD"], packs=packs)
    cpu = careful()
    assert game.is_stuck()
    assert cpu.choose(game) == SPIT_ACTION and cpu.wants_spit(game)


def test_calls_spit_to_start_a_round():
    game = Game(4)
    assert game.phase == PHASE_READY
    assert careful().choose(game) == SPIT_ACTION and careful(P2).wants_spit(game)


def slap_position(sizes, options=""):
    names = ("2C 3C 4C 5C 6C 7C 8C 9C 10C JC", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD")
    middle = [" ".join(names[pile].split()[: sizes[pile]]) for pile in (A, B)]
    rest = 50 - sum(sizes)
    packs = (rest // 2, rest - rest // 2)
    return position(["KH"], ["KS"], middle, packs=packs, options=options, phase=PHASE_SLAP)


def test_slaps_the_smaller_pile():
    assert careful().slap_choice(slap_position((10, 4))) == slap(P1, B)
    assert careful(P2).choose(slap_position((3, 9))) == slap(P2, A)


def test_a_careless_look_cannot_tell_close_piles_apart():
    assert careless().slap_choice(slap_position((7, 5))) == slap(P1, A), "the near pile"
    assert careless().slap_choice(slap_position((10, 4))) == slap(P1, B)


def test_with_winner_picks_only_the_winner_slaps_and_takes_the_smaller_pile():
    game = slap_position((10, 4), options="pick=winner")
    game.cleared = P2
    assert careful(P1).slap_choice(game) is None and careful(P1).choose(game) is None
    assert careful(P2).slap_choice(game) == slap(P2, B)
    game.cleared = -1
    assert careful(P1).slap_choice(game) == slap(P1, B), "after a stall both slap"


def test_one_pile_slap_is_on_the_only_pile():
    game = position(["KH"], ["KS"], ["2C 3C"], packs=(0, 0), phase=PHASE_SLAP)
    assert careful(P2).slap_choice(game) == slap(P2, A)


def test_reaction_times_are_the_same_for_the_same_seed():
    def draws(seat, seed):
        cpu = SpitCpu(seat, "steady", seed)
        return [cpu.reaction_ms() for _ in range(50)]

    assert draws(P1, 7) == draws(P1, 7)
    assert draws(P1, 7) != draws(P2, 7), "each seat has its own stream"
    assert draws(P1, 7) != draws(P1, 8)


def test_a_reaction_drawn_ahead_is_the_one_drawn_at_the_look():
    # A look's first glance draws the next reaction ahead, and does nothing else (a glance
    # of its own on the chip); the generator's draws still come in the same order, so the
    # times and the care are the ones drawn at the look.
    game = Game(4)
    plain = SpitCpu(P1, "relaxed", 7)
    ahead = SpitCpu(P1, "relaxed", 7)
    for k in range(60):
        if k % 3:
            assert ahead.looking(), "a reaction to draw is a look to go on with"
            state = ahead.rng.state
            assert ahead.glance(game, 0) is None, "a glance that only draws"
            assert ahead.rng.state != state and ahead.action is None
            assert not ahead.looking()
            state = ahead.rng.state
            assert ahead.reaction_ms() == plain.reaction_ms()
            assert ahead.rng.state == state  # nothing left to draw at the look
        else:
            assert ahead.reaction_ms() == plain.reaction_ms()
        assert ahead.careful == plain.careful


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_NAMES)
def test_reaction_times_match_the_level(level):
    cpu = SpitCpu(P1, level, seed=99)
    times = [cpu.reaction_ms() for _ in range(5000)]
    mean = sum(times) / len(times)
    spread = (sum((t - mean) ** 2 for t in times) / len(times)) ** 0.5
    assert abs(mean - level.mean_ms) < 0.02 * level.mean_ms
    assert abs(spread - level.spread_ms) < 0.1 * level.spread_ms
    assert min(times) >= level.floor_ms
    assert all(isinstance(t, int) for t in times)


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_NAMES)
def test_careful_looks_come_as_often_as_the_level_says(level):
    cpu = SpitCpu(P1, level, seed=5)
    looks = 4000
    count = 0
    for _ in range(looks):
        cpu.reaction_ms()
        count += cpu.careful
    assert abs(count * 1000 // looks - level.care) <= 30


def test_levels_are_named_for_players_and_get_faster():
    assert LEVEL_NAMES == ("relaxed", "steady", "quick", "lightning")
    assert savedata.LEVEL_NAMES == LEVEL_NAMES, "the saved seats' copy"
    means = [level.mean_ms for level in LEVELS]
    assert means == sorted(means, reverse=True)
    assert level_named("quick").name == "quick"
    with pytest.raises(ValueError):
        level_named("expert")


@pytest.mark.parametrize("name", games.NAMES)
def test_every_games_cpu_player_is_the_shared_machinery_with_a_choice_of_its_own(name):
    player = games.rules(name).cpu_player()
    assert issubclass(player, CpuPlayer) and "_choose_part" in player.__dict__
    for method in ("glance", "looking", "done"):  # the table's calls of every pass
        assert player.__dict__[method] is CpuPlayer.__dict__[method], "a lookup less a call"
    salts = {games.rules(other).cpu_player().SALT for other in games.NAMES}
    assert len(salts) == len(games.NAMES), "each game's CPU draws from streams of its own"


def test_spits_cpu_marks_a_choice_to_go_on_as_the_machinery_reads_it():
    assert spit_cpu._LOOKING == LOOKING  # a const of its own: inlined by the compiler


def test_cpu_draws_never_touch_the_deal():
    game = Game(21)
    state = game.rng.state
    cpu = SpitCpu(P1, "relaxed", seed=21)
    for _ in range(10):
        cpu.reaction_ms()
        cpu.look(game, 0)
    assert game.rng.state == state


def test_the_same_choice_keeps_its_time_and_a_new_one_starts_a_new_reaction():
    game = position(["7H", "KC"], ["2C 5C"], ["6S", "JD"])
    cpu = SpitCpu(P2, "steady", seed=3)
    assert cpu.look(game, 0) and cpu.action == play(P2, 0, A)
    due = cpu.due
    assert due >= level_named("steady").floor_ms
    assert not cpu.look(game, 100) and cpu.due == due, "nothing changed for this seat"
    game.apply(play(P1, 0, A))  # 7H covers 6S: 5C no longer fits
    assert cpu.look(game, 200)
    assert cpu.action == move(P2, 0, 1), "dig instead"
    assert cpu.due >= 200 + level_named("steady").floor_ms


def test_a_moving_hand_is_not_stopped():
    game = position(["7H", "KC"], ["2C 5C"], ["6S", "JD"])
    cpu = SpitCpu(P2, "steady", seed=3)
    cpu.look(game, 0)
    game.apply(play(P1, 0, A))
    assert not cpu.look(game, cpu.due - HAND_MS)
    assert cpu.action == play(P2, 0, A), "the card is on its way and will come too late"


def test_done_plans_afresh_even_for_an_equal_action():
    game = position(["2C 7H", "9C"], ["QC"], ["6S", "JD"])
    cpu = careful()
    cpu.look(game, 0)
    first = cpu.due
    cpu.done()
    assert cpu.look(game, first) and cpu.due > first


def test_a_look_spreads_over_glances_of_one_fitting_slot_each():
    # (The stock's slots: 5C, 9S, 7D, 2H, QH; the spit tops 6S and JD.)
    game = position(["8H", "KC"], ["5C", "9S", "7D", "2H", "QH"], ["6S", "JD"])
    cpu = careful(P2)
    assert cpu.looking() and cpu.glance(game, 0) is None, "first the reaction, drawn ahead"
    glances = 1
    while not cpu.glance(game, 0):
        glances += 1
        assert cpu.looking()
    assert glances == 5, "each count, then 5C, 7D and QH: a glance each (not 9S and 2H)"
    assert cpu.changed and cpu.looking(), "the next reaction is to draw"
    assert cpu.glance(game, 0) is None and not cpu.looking()
    whole = careful(P2)
    assert whole.look(game, 0) and (whole.action, whole.due) == (cpu.action, cpu.due)


def test_a_look_whose_table_moves_on_starts_again():
    game = position(["7H", "KC"], ["2C 5C", "9S"], ["6S", "JD"])
    cpu = SpitCpu(P2, "steady", seed=3)
    assert not cpu.glance(game, 0)
    game.apply(play(P1, 0, A))  # 7H covers 6S: 5C no longer fits
    while not cpu.glance(game, 0):
        pass
    fresh = SpitCpu(P2, "steady", seed=3)
    fresh.look(game, 0)
    assert cpu.action == fresh.action == move(P2, 0, 2)


@pytest.mark.parametrize("options", ["", "stack=on", "middle=one", "layout=1-4 pick=winner"])
def test_every_choice_is_legal_and_nothing_is_missed(options):
    """A random-simulation test: through whole self-play games, whatever a careful or a
    careless look would choose is legal, a CPU waits only when it cannot move, and it
    calls spit exactly when nobody can move."""
    checked = 0
    for index in range(6):
        seed = game_seed(41, index)
        game = Game(seed, Options.parse(options))
        cpus = (SpitCpu(P1, "quick", seed), SpitCpu(P2, "relaxed", seed))
        race = Race(game, cpus)
        while True:
            for cpu in cpus:
                mood = cpu.careful
                for cpu.careful in (True, False):
                    action = cpu.choose(game)
                    if action == SPIT_ACTION:
                        assert cpu.wants_spit(game)
                        assert game.phase == PHASE_READY or game.is_stuck()
                    elif action is not None:
                        assert game.is_legal(action), game.legal_actions()
                        assert player_of(action) == cpu.seat
                    elif game.phase == PHASE_PLAY:
                        assert not game.can_move(cpu.seat) and not game.is_stuck()
                    elif game.phase == PHASE_SLAP:
                        assert not game.may_slap(cpu.seat)
                    checked += 1
                cpu.careful = mood
            if not race.step():
                break
        assert game.outcome() is not None
    assert checked > 1000
