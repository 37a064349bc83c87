"""The pace of a main-loop pass: work that can wait runs early in a pass, one piece a
pass, the kinds taking turns (``spit.pace``)."""

from spit.pace import ALONE_MAX, DRAW, GLANCE, HOLD_PASSES, SOUND, Pace


def _paced():
    clock = [0]
    return clock, Pace(lambda: clock[0])


def test_a_pass_carries_one_piece_of_work_that_can_wait():
    clock, pace = _paced()
    pace.begin()
    assert pace.turn(GLANCE)
    assert not pace.turn(DRAW), "the glance took this pass"
    pace.begin()
    assert pace.turn(DRAW), "the drawing turned away goes next"


def test_a_kind_turned_away_goes_before_the_others():
    clock, pace = _paced()
    pace.begin()
    clock[0] += 900
    assert pace.turn(GLANCE) is False  # too late for a glance
    assert pace.turn(DRAW) is False, "the glance waits, so the drawing waits too"
    pace.begin()
    assert pace.turn(GLANCE)
    assert not pace.turn(DRAW)


def test_a_kind_that_stops_asking_no_longer_holds_the_others_up():
    clock, pace = _paced()
    pace.begin()
    clock[0] += 900
    assert not pace.turn(GLANCE)
    pace.begin()  # the glance asked in the pass before this one
    assert not pace.turn(DRAW)
    pace.begin()  # it did not ask in the last pass: it has nothing left to do
    assert pace.turn(DRAW)


def test_after_hold_passes_a_kind_runs_late_but_never_beside_a_press():
    clock, pace = _paced()
    for _ in range(HOLD_PASSES):
        pace.begin()
        clock[0] += 5_000
        assert not pace.turn(DRAW)
    pace.begin()
    pace.spend()  # a press was committed: this pass is carried already
    clock[0] += 5_000
    assert not pace.turn(DRAW)
    pace.begin()
    clock[0] += 5_000
    assert pace.turn(DRAW), "however late, in a pass that carries nothing else"


def test_without_a_clock_every_pass_has_time_for_everything():
    pace = Pace()
    pace.begin()
    pace.spend()
    assert pace.turn(GLANCE) and pace.turn(DRAW) and pace.turn(SOUND)


class _Arbiter:
    """A press due at ``due_us`` on the pace's clock (which stays at 0), or none (-1)."""

    def __init__(self, due_us=-1):
        self.due_us = due_us
        self.pending = 0 if due_us < 0 else 1

    def due(self, now):
        return 0 <= self.due_us <= now


def test_a_piece_that_would_end_after_a_press_is_due_waits_without_holding_others_up():
    clock, pace = _paced()
    pace.begin()
    assert not pace.turn(DRAW, _Arbiter(due_us=1_200)), "a region would end after the press"
    assert pace.waiting == -1, "turned away for the press, not for being late"
    assert pace.turn(GLANCE, _Arbiter(due_us=1_200)), "a glance ends before it"


def test_the_screen_s_passes_of_its_own_give_way_to_the_game_every_few_passes():
    clock, pace = _paced()
    alone = []
    for _ in range(2 * (ALONE_MAX + 1)):
        pace.begin()
        alone.append(pace.alone(_Arbiter()))
    assert alone == ([True] * ALONE_MAX + [False]) * 2
    pace.begin()
    assert not pace.alone(_Arbiter(due_us=0)), "a press due: the pass commits it"


def test_early_holds_each_kind_to_its_own_threshold():
    clock, pace = _paced()
    pace.begin()
    clock[0] += 600
    assert not pace.early(DRAW) and pace.early(GLANCE) and pace.early(SOUND)
    clock[0] += 300
    assert not pace.early(GLANCE) and pace.early(SOUND)
    clock[0] += 300
    assert not pace.early(SOUND)


def test_now_is_the_pass_start_and_the_time_since_begin():
    clock = [5_000]
    pace = Pace(lambda: clock[0])
    pace.begin()
    clock[0] += 300
    assert pace.now(5_000) == 5_300
    # A pass timed on another clock (the profile's game time) and across the wrap.
    assert pace.now((1 << 30) - 100) == 200
    assert Pace().now(90_000) == 90_000, "without a clock, the pass's start"
