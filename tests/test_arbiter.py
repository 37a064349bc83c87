"""The arbiter: timestamp order after a settle window, fair ties, right across the tick wrap."""

import random

from helpers.same_on_cpython import run_on_cpython
from hypothesis import given
from hypothesis import strategies as st
from spit.arbiter import CAPACITY, SETTLE_US, TIE_US, Arbiter
from spit.keys import player_of
from spit.ticks import TICKS_PERIOD, ticks_add, ticks_diff

P1_C1, P1_L, P1_R, P1_SPIT = 0, 5, 6, 7
P2_C1, P2_L, P2_R, P2_SPIT = 8, 13, 14, 15


def commit_all(arbiter, now):
    out = []
    arbiter.commit_due(now, lambda b, t, tie: out.append((b, t, tie)))
    return out


def flushed(arbiter):
    out = []
    arbiter.flush(lambda b, t, tie: out.append((b, t, tie)))
    return out


def test_commits_in_timestamp_order_not_arrival_order():
    arbiter = Arbiter()
    arbiter.add(P2_L, 1500)
    arbiter.add(P1_R, 1200)
    arbiter.add(P1_C1, 1000)
    assert commit_all(arbiter, 1500 + SETTLE_US) == [
        (P1_C1, 1000, False),
        (P1_R, 1200, False),
        (P2_L, 1500, False),
    ]


def test_commits_the_earliest_first_when_told_how_many():
    arbiter = Arbiter()
    arbiter.add(P2_L, 1500)
    arbiter.add(P1_C1, 1000)
    out = []
    assert arbiter.commit_due(2600, lambda b, t, tie: out.append(b), most=1) == 1
    assert out == [P1_C1] and arbiter.due(2600) and not arbiter.due(2400)
    assert arbiter.commit_due(2600, lambda b, t, tie: out.append(b), most=1) == 1
    assert out == [P1_C1, P2_L] and not arbiter.due(2600)


def test_waits_for_the_settle_window():
    arbiter = Arbiter(settle_us=1000)
    arbiter.add(P1_L, 5000)
    arbiter.add(P2_L, 5400)
    assert commit_all(arbiter, 5999) == []
    assert commit_all(arbiter, 6000) == [(P1_L, 5000, False)]
    assert arbiter.pending == 1
    assert commit_all(arbiter, 6399) == []
    assert commit_all(arbiter, 6400) == [(P2_L, 5400, False)]


def test_presses_in_the_future_wait():
    arbiter = Arbiter()
    arbiter.add(P1_L, 10_000)
    assert commit_all(arbiter, 9000) == []


def test_tie_goes_to_the_priority_player_then_priority_passes():
    arbiter = Arbiter(priority=1)
    arbiter.add(P1_L, 1000)
    arbiter.add(P2_R, 1099)  # later, but within the tie window: P2 has priority
    assert commit_all(arbiter, 5000) == [(P2_R, 1099, True), (P1_L, 1000, True)]
    assert arbiter.priority == 0
    arbiter.add(P2_R, 9000)
    arbiter.add(P1_L, 9050)
    assert commit_all(arbiter, 20_000) == [(P1_L, 9050, True), (P2_R, 9000, True)]
    assert arbiter.priority == 1


def test_tie_winner_that_was_first_anyway_is_still_flagged():
    arbiter = Arbiter(priority=0)
    arbiter.add(P1_L, 1000)
    arbiter.add(P2_L, 1040)
    assert commit_all(arbiter, 5000) == [(P1_L, 1000, True), (P2_L, 1040, True)]


def test_exactly_the_tie_window_apart_is_not_a_tie():
    arbiter = Arbiter(priority=1)
    arbiter.add(P1_L, 1000)
    arbiter.add(P2_L, 1000 + TIE_US)
    assert commit_all(arbiter, 5000) == [(P1_L, 1000, False), (P2_L, 1000 + TIE_US, False)]
    assert arbiter.priority == 1


def test_tie_window_is_settable():
    arbiter = Arbiter(tie_us=20, priority=1)
    arbiter.add(P1_L, 1000)
    arbiter.add(P2_L, 1030)
    assert commit_all(arbiter, 5000) == [(P1_L, 1000, False), (P2_L, 1030, False)]


def test_one_players_presses_are_never_a_tie_and_keep_their_order():
    arbiter = Arbiter(priority=1)
    arbiter.add(P1_L, 1010)
    arbiter.add(P1_C1, 1000)
    arbiter.add(P1_R, 1010)
    assert commit_all(arbiter, 5000) == [
        (P1_C1, 1000, False),
        (P1_L, 1010, False),
        (P1_R, 1010, False),
    ]


def test_neither_pin_number_nor_arrival_order_decides_a_tie():
    outcomes = set()
    for pair in [(P1_C1, P2_C1), (P2_SPIT, P1_SPIT), (P1_SPIT, P2_C1)]:
        for arrival in (pair, pair[::-1]):
            arbiter = Arbiter(priority=1)
            for button in arrival:
                arbiter.add(button, 1000)
            outcomes.add(player_of(commit_all(arbiter, 5000)[0][0]))
    assert outcomes == {1}


def test_a_long_run_of_exact_ties_is_split_evenly():
    """With alternation the first tie goes to ``priority`` and then they alternate, so
    after n ties one player has ceil(n/2) wins and the other floor(n/2): half +-1."""
    for n in (1, 2, 999, 1000):
        arbiter = Arbiter(priority=0)
        wins = [0, 0]
        for i in range(n):
            t = i * 10_000
            arbiter.add(P2_L, t)
            arbiter.add(P1_L, t)
            first = commit_all(arbiter, t + SETTLE_US)[0]
            assert first[2] is True
            wins[player_of(first[0])] += 1
        assert wins == [(n + 1) // 2, n // 2]


def test_near_presses_that_race_for_nothing_keep_their_order_and_the_priority():
    arbiter = Arbiter(priority=1)
    out = []
    commit = lambda b, t, tie: out.append((b, t, tie))  # noqa: E731
    arbiter.add(P2_C1, 1030)  # picking up a card...
    arbiter.add(P1_SPIT, 1000)  # ...30 µs after the other player's spit call
    arbiter.commit_due(5000, commit, lambda a, b: False)
    assert out == [(P1_SPIT, 1000, False), (P2_C1, 1030, False)]
    assert arbiter.priority == 1 and arbiter.ties == 0


def test_only_contested_pairs_are_asked_about_and_spend_priority():
    asked = []

    def contested(button, other):
        asked.append((button, other))
        return {player_of(button), player_of(other)} == {0, 1} and P1_L in (button, other)

    arbiter = Arbiter(priority=0)
    for button, t in [(P1_C1, 1000), (P2_C1, 1050), (P1_L, 5000), (P2_R, 5060), (P2_L, 9000)]:
        arbiter.add(button, t)
    out = []
    arbiter.commit_due(20_000, lambda b, t, tie: out.append((b, tie)), contested)
    assert out == [(P1_C1, False), (P2_C1, False), (P1_L, True), (P2_R, True), (P2_L, False)]
    assert asked == [(P1_C1, P2_C1), (P1_L, P2_R)], "far pairs are never a question"
    assert arbiter.priority == 1 and arbiter.tie_wins == [1, 0]


def test_chained_presses_near_each_other_keep_every_far_pair_in_order():
    # P1 at 0, P2 at 90, P1 at 180, P2 at 270: neighbours tie, but 0 and 270 do not.
    for priority in (0, 1):
        arbiter = Arbiter(priority=priority)
        for button, t in [(P2_L, 270), (P1_R, 180), (P2_R, 90), (P1_L, 0)]:
            arbiter.add(button, t)
        order = [t for _, t, _ in commit_all(arbiter, 10_000)]
        assert order.index(0) < order.index(270)
        assert order.index(0) < order.index(180) and order.index(90) < order.index(270)


def test_right_across_the_tick_wrap():
    before = TICKS_PERIOD - 300
    after = 200  # 500 µs after `before`
    arbiter = Arbiter()
    arbiter.add(P2_L, after)
    arbiter.add(P1_L, before)
    assert commit_all(arbiter, ticks_add(before, SETTLE_US - 1)) == []
    assert commit_all(arbiter, ticks_add(after, SETTLE_US)) == [
        (P1_L, before, False),
        (P2_L, after, False),
    ]


def test_tie_across_the_tick_wrap():
    arbiter = Arbiter(priority=1)
    arbiter.add(P1_L, TICKS_PERIOD - 20)
    arbiter.add(P2_L, 30)
    assert commit_all(arbiter, 5000) == [(P2_L, 30, True), (P1_L, TICKS_PERIOD - 20, True)]


def test_overflow_is_counted_not_raised():
    arbiter = Arbiter(capacity=4)
    for t in range(7):
        arbiter.add(P1_L, 1000 + t)
    assert arbiter.overflows == 3
    assert [t for _, t, _ in flushed(arbiter)] == [1000, 1001, 1002, 1003]
    arbiter.add(P2_L, 9000)
    assert flushed(arbiter) == [(P2_L, 9000, False)]


def test_default_capacity_holds_a_mash_of_every_button_twice():
    arbiter = Arbiter()
    assert CAPACITY >= 32
    for t in range(32):
        arbiter.add(t % 16, t * 10)
    assert arbiter.overflows == 0
    assert len(flushed(arbiter)) == 32


def test_flush_commits_everything_in_order():
    arbiter = Arbiter()
    arbiter.add(P2_L, 3000)
    arbiter.add(P1_L, 2000)
    assert flushed(arbiter) == [(P1_L, 2000, False), (P2_L, 3000, False)]
    assert arbiter.pending == 0


def test_a_press_arriving_after_a_later_one_was_committed_is_counted_late():
    arbiter = Arbiter()
    arbiter.add(P2_L, 1000)
    commit_all(arbiter, 1000 + SETTLE_US)
    arbiter.add(P1_L, 500)
    assert commit_all(arbiter, 5000) == [(P1_L, 500, False)]
    assert arbiter.late == 1


def test_defaults_are_within_the_budget():
    assert SETTLE_US <= 2000
    assert TIE_US == 100
    assert SETTLE_US >= 5 * TIE_US


def arrival_runs():
    """Presses of both players, each with a delivery delay of up to settle - tie."""
    press = st.tuples(
        st.integers(0, 15), st.integers(0, 30_000), st.integers(0, SETTLE_US - TIE_US)
    )
    return st.lists(press, min_size=1, max_size=40)


def replay(presses, origin, poll_seed, arbiter=None):
    """Deliver presses at stamp + delay and poll at random times; returns the commits."""
    arbiter = arbiter or Arbiter()
    rng = random.Random(poll_seed)
    arrivals = sorted(presses, key=lambda p: p[1] + p[2])
    committed = []
    time = 0

    def commit(button, t, tie):
        committed.append((button, ticks_diff(t, origin), tie, time))

    i = 0
    while i < len(arrivals) or arbiter.pending:
        time += rng.randint(1, 3000)
        while i < len(arrivals) and arrivals[i][1] + arrivals[i][2] <= time:
            button, t, _ = arrivals[i]
            arbiter.add(button, ticks_add(origin, t))
            i += 1
        arbiter.commit_due(ticks_add(origin, time), commit)
    return committed, arbiter


def assert_order_is_right(committed, tie_us=TIE_US):
    for i, (a, ta, _, _) in enumerate(committed):
        for b, tb, _, _ in committed[i + 1 :]:
            if player_of(a) == player_of(b) or abs(ta - tb) >= tie_us:
                assert ta <= tb, (a, ta, b, tb)


@given(arrival_runs(), st.integers(0, 2**32))
def test_any_arrival_order_commits_in_true_order(presses, poll_seed):
    committed, arbiter = replay(presses, 0, poll_seed)
    assert sorted((b, t) for b, t, _, _ in committed) == sorted((b, t) for b, t, _ in presses)
    assert_order_is_right(committed)
    assert arbiter.late == 0 and arbiter.overflows == 0
    for _, t, tie, time in committed:
        assert time - t >= (SETTLE_US - TIE_US if tie else SETTLE_US)


@given(arrival_runs(), st.integers(0, 2**32), st.integers(1, 40_000))
def test_any_arrival_order_commits_in_true_order_across_the_wrap(presses, poll_seed, before):
    committed, arbiter = replay(presses, TICKS_PERIOD - before, poll_seed)
    assert len(committed) == len(presses)
    assert_order_is_right(committed)
    assert arbiter.late == 0


SCENARIO_SEED = 20240607


def scenario():
    rng = random.Random(SCENARIO_SEED)
    presses = [(rng.randrange(16), rng.randrange(20_000), rng.randrange(900)) for _ in range(60)]
    return presses, TICKS_PERIOD - 7000


VM_REPLAY = """
from spit.arbiter import Arbiter
arbiter = Arbiter(capacity=64, priority=1)
out = []
def commit(button, t, tie):
    out.append((button, t, tie))
def contested(button, other):
    # Spit calls race for nothing; every other pair is contested.
    return button & 7 != 7 and other & 7 != 7
for kind, a, b in EVENTS:
    if kind == 0:
        arbiter.add(a, b)
    else:
        arbiter.commit_due(a, commit, contested)
arbiter.flush(commit, contested)
print(repr(out))
print(arbiter.priority, arbiter.ties, arbiter.tie_wins, arbiter.late, arbiter.overflows)
"""


def test_vm_commits_exactly_what_cpython_commits(mpvm):
    presses, origin = scenario()
    events = []
    for button, t, delay in presses:
        events.append((t + delay, 0, button, ticks_add(origin, t)))
    for poll in range(0, 25_000, 700):
        events.append((poll, 1, ticks_add(origin, poll), 0))
    code = "EVENTS = %r\n%s" % ([e[1:] for e in sorted(events)], VM_REPLAY)
    host = run_on_cpython(code)
    assert "True" in host  # the scenario has ties
    assert mpvm(code) == host


def test_a_press_is_due_once_the_settle_window_has_passed_over_it():
    arbiter = Arbiter()
    assert not arbiter.due(5_000), "nothing pending"
    arbiter.add(3, 10_000)
    due_at = 10_000 + arbiter.settle_us
    assert not arbiter.due(due_at - 1)
    assert arbiter.due(due_at)
    assert arbiter.due(ticks_add(due_at, 2**28)), "due however late the pass looks"
