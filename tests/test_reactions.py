"""Reaction times: the clock from "a card became playable" to the card played, the
session and personal records, and merging into the saved data."""

from helpers.positions import names, position
from spit import keys
from spit.controls import Controls
from spit.games import PHASE_SLAP, play
from spit.listener import Listener
from spit.reactions import Reactions, Record
from spit.savedata import REACTION_MAX_MS, REACTION_MIN_MS, RECENT, SaveData
from spit.ticks import TICKS_PERIOD, ticks_add


def fresh():
    return Reactions(SaveData())


def test_a_reaction_runs_from_playable_to_played():
    reactions = fresh()
    reactions.start(1, 2_000_000)
    assert reactions.played(1, 2_612_345) == 612
    assert reactions.session[1].best_ms == 612 and reactions.session[0].count == 0


def test_the_earliest_unanswered_chance_counts():
    reactions = fresh()
    reactions.start(0, 1_000_000)
    reactions.start(0, 1_300_000)
    assert reactions.played(0, 1_500_000) == 500


def test_a_play_without_a_chance_records_nothing():
    reactions = fresh()
    assert reactions.played(0, 1_000_000) == 0
    reactions.start(0, 1_000_000)
    reactions.played(0, 1_400_000)
    assert reactions.played(0, 1_900_000) == 0  # the clock stopped at the play
    assert reactions.session[0].count == 1


def test_anticipation_and_inattention_are_not_reactions():
    reactions = fresh()
    for ms in (REACTION_MIN_MS - 1, REACTION_MAX_MS + 1, REACTION_MIN_MS, REACTION_MAX_MS):
        reactions.start(0, 0)
        reactions.played(0, ms * 1000 + 999)
    assert reactions.session[0].recent_ms() == [REACTION_MIN_MS, REACTION_MAX_MS]


def test_reactions_across_the_tick_wrap():
    reactions = fresh()
    start = TICKS_PERIOD - 100_000
    reactions.start(0, start)
    assert reactions.played(0, ticks_add(start, 345_000)) == 345


def test_cpu_seats_are_not_timed():
    reactions = Reactions(SaveData(), people=(True, False))
    reactions.start(1, 0)
    assert reactions.played(1, 400_000) == 0
    assert reactions.session[1].count == 0 and reactions.personal[1].best_ms == 0


def test_median_of_the_last_recent_times():
    record = Record()
    assert record.median_ms() == 0
    for ms in (500, 300, 400, 200):
        record.add(ms)
    assert record.median_ms() == 300  # the lower middle of an even count
    for ms in range(1000, 1000 + RECENT):
        record.add(ms)
    assert record.count == RECENT
    assert record.recent_ms() == list(range(1000, 1000 + RECENT))
    assert record.median_ms() == 1000 + RECENT // 2
    assert record.best_ms == 200  # the best is kept beyond the ring


def test_personal_records_continue_the_saved_ones():
    saved = SaveData()
    saved.best_ms = [300, 0]
    saved.recent_ms = [[600, 700, 800], []]
    reactions = Reactions(saved)
    assert reactions.personal[0].median_ms() == 700
    reactions.start(0, 0)
    reactions.played(0, 350_000)
    reactions.start(1, 0)
    reactions.played(1, 450_000)
    assert reactions.session[0].best_ms == 350 and reactions.personal[0].best_ms == 300
    reactions.save_into(saved)
    again = SaveData.parse(saved.text())
    assert again.best_ms == [300, 450]
    assert again.recent_ms == [[600, 700, 800, 350], [450]]
    assert Reactions(again).personal[0].median_ms() == 600


def test_a_new_personal_best_is_saved():
    saved = SaveData()
    saved.best_ms = [300, 0]
    reactions = Reactions(saved)
    reactions.start(0, 0)
    reactions.played(0, 250_000)
    reactions.save_into(saved)
    assert saved.best_ms[0] == 250


def test_look_times_only_players_who_can_play():
    # Player 1's 5C fits the 6S on pile a; player 2's KS fits neither pile.
    game = position(["5C"], ["KS"], ["6S", "9D"])
    reactions = fresh()
    reactions.look(game, 1_000_000)
    assert reactions.played(1, 1_500_000) == 0
    assert reactions.played(0, 1_500_000) == 500


def test_look_stops_a_clock_when_the_chance_is_gone():
    game = position(["5C"], ["7H"], ["6S", "9D"])
    reactions = fresh()
    reactions.look(game, 0)
    game.apply(play(1, 0, 0))  # player 2's 7H covers the 6S: the 5C fits no pile now
    reactions.look(game, 200_000)
    assert reactions.played(0, 400_000) == 0
    game.phase = PHASE_SLAP
    reactions.start(0, 500_000)
    reactions.look(game, 600_000)
    assert reactions.played(0, 700_000) == 0


class _Session:
    """What the listener reads of a match: its table's controls and game."""

    def __init__(self, controls):
        self.table = self
        self.controls = controls
        self.game = controls.game


def test_the_listener_times_each_action_on_the_table_it_left():
    """The listener's reaction work waits for a pass with time, but never past the next
    action: a player who is covered and then given a card again is timed from the card
    given, as if the work had run at each action."""
    game = position(["7C", "6D", "KC"], ["5H", "KH"], ["6S", "9D"], options="quick=on")
    listener = Listener(SaveData(), lambda name, now: None)
    listener.seat((True, True))
    controls = Controls(game, listener.hear)
    listener.session = _Session(controls)
    listener.reactions.look(game, 0)  # play began: both can play
    controls.press(keys.button_id(0, keys.C1), 700_000)  # 7C onto the 6S: P2's 5H fits no more
    assert controls.follow_up is not None and listener.reactions.session[0].count == 0
    controls.press(keys.button_id(0, keys.C2), 1_000_000)  # 6D onto the 7C: the 5H fits again
    controls.press(keys.button_id(1, keys.C1), 1_400_000)  # 5H onto the 6D
    assert names(game.middle[0][-3:]) == "7C 6D 5H"
    assert listener.reactions.session[0].recent_ms() == [700, 300]
    assert listener.reactions.session[1].count == 0  # its play's work still waits
    listener.round_over(1_500_000, True)
    assert listener.reactions.session[1].recent_ms() == [400]  # from 1.0 s, not from 0
    assert controls.follow_up is not None  # left on the controls: a second run does nothing
    controls.catch_up()
    assert listener.reactions.session[1].recent_ms() == [400]


def test_the_round_clocks_pass_does_the_listener_s_work():
    game = position(["7C", "6D", "KC"], ["5H", "KH"], ["6S", "9D"], options="quick=on")
    listener = Listener(SaveData(), lambda name, now: None)
    listener.seat((True, False))
    controls = Controls(game, listener.hear)
    listener.session = _Session(controls)
    listener.reactions.look(game, 0)
    controls.press(keys.button_id(0, keys.C1), 700_000)
    assert controls.update(700_000)  # the clocks' pass: what the action left
    assert controls.follow_up is None
    assert listener.reactions.session[0].recent_ms() == [700]


SEQUENCE = """
from spit.reactions import Reactions
from spit.savedata import SaveData
from spit.ticks import ticks_add

def summary():
    saved = SaveData.parse('{"format": "spit-save 1", "reactions": '
                           '[{"best_ms": 320, "recent_ms": [900, 410, 700]}, {}]}')
    reactions = Reactions(saved)
    t = ticks_add(0, -3_000_000)  # across the wrap
    for i in range(40):
        player = i % 2
        reactions.start(player, t)
        t = ticks_add(t, 150_000 + i * 37_123)
        reactions.played(player, t)
    reactions.save_into(saved)
    return "%s %s %d %d %d" % (saved.best_ms, saved.recent_ms[0][-3:],
        reactions.personal[0].median_ms(), reactions.session[1].median_ms(),
        reactions.session[1].count)
"""


def test_same_records_on_micropython(mpvm):
    namespace = {}
    exec(SEQUENCE, namespace)
    expected = namespace["summary"]()
    assert expected.startswith("[150, 187] [1412, 1486, 1560] ")  # 150 + i * 37.123 ms
    assert mpvm(SEQUENCE + "print(summary())") == expected + "\n"
