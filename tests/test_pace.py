"""The pace of a main-loop pass: work that can wait runs early in a pass, one piece a
pass, the kinds taking turns (``spit.pace``)."""

from spit.pace import DRAW, GLANCE, HOLD_PASSES, Pace


def _paced():
    clock = [0]
    return clock, Pace(lambda: clock[0])


def test_a_pass_carries_one_piece_of_work_that_can_wait():
    clock, pace = _paced()
    pace.begin()
    assert pace.turn(GLANCE, 700)
    assert not pace.turn(DRAW, 1000), "the glance took this pass"
    pace.begin()
    assert pace.turn(DRAW, 1000), "the drawing turned away goes next"


def test_a_kind_turned_away_goes_before_the_others():
    clock, pace = _paced()
    pace.begin()
    clock[0] += 900
    assert pace.turn(GLANCE, 700) is False  # too late for a glance
    assert pace.turn(DRAW, 1000) is False, "the glance waits, so the drawing waits too"
    pace.begin()
    assert pace.turn(GLANCE, 700)
    assert not pace.turn(DRAW, 1000)


def test_a_kind_that_stops_asking_no_longer_holds_the_others_up():
    clock, pace = _paced()
    pace.begin()
    clock[0] += 900
    assert not pace.turn(GLANCE, 700)
    pace.begin()  # the glance asked in the pass before this one
    assert not pace.turn(DRAW, 1000)
    pace.begin()  # it did not ask in the last pass: it has nothing left to do
    assert pace.turn(DRAW, 1000)


def test_after_hold_passes_a_kind_runs_late_but_never_beside_a_press():
    clock, pace = _paced()
    for _ in range(HOLD_PASSES):
        pace.begin()
        clock[0] += 5_000
        assert not pace.turn(DRAW, 1000)
    pace.begin()
    pace.spend()  # a press was committed: this pass is carried already
    clock[0] += 5_000
    assert not pace.turn(DRAW, 1000)
    pace.begin()
    clock[0] += 5_000
    assert pace.turn(DRAW, 1000), "however late, in a pass that carries nothing else"


def test_without_a_clock_every_pass_has_time_for_everything():
    pace = Pace()
    pace.begin()
    pace.spend()
    assert pace.turn(GLANCE, 0) and pace.turn(DRAW, 0) and pace.within(0)
