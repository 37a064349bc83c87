"""The scheduler of a main-loop pass: work that can wait runs early in a pass, one piece a
pass, the kinds taking turns (``spit.scheduler``)."""

from spit.scheduler import ALONE_MAX, DRAW, GLANCE, HOLD_PASSES, SOUND, Scheduler


def _scheduled():
    clock = [0]
    return clock, Scheduler(lambda: clock[0])


def test_a_pass_carries_one_piece_of_work_that_can_wait():
    clock, scheduler = _scheduled()
    scheduler.begin()
    assert scheduler.turn(GLANCE)
    assert not scheduler.turn(DRAW), "the glance took this pass"
    scheduler.begin()
    assert scheduler.turn(DRAW), "the drawing turned away goes next"


def test_a_kind_turned_away_goes_before_the_others():
    clock, scheduler = _scheduled()
    scheduler.begin()
    clock[0] += 900
    assert scheduler.turn(GLANCE) is False  # too late for a glance
    assert scheduler.turn(DRAW) is False, "the glance waits, so the drawing waits too"
    scheduler.begin()
    assert scheduler.turn(GLANCE)
    assert not scheduler.turn(DRAW)


def test_a_kind_that_stops_asking_no_longer_holds_the_others_up():
    clock, scheduler = _scheduled()
    scheduler.begin()
    clock[0] += 900
    assert not scheduler.turn(GLANCE)
    scheduler.begin()  # the glance asked in the pass before this one
    assert not scheduler.turn(DRAW)
    scheduler.begin()  # it did not ask in the last pass: it has nothing left to do
    assert scheduler.turn(DRAW)


def test_after_hold_passes_a_kind_runs_late_but_never_beside_a_press():
    clock, scheduler = _scheduled()
    for _ in range(HOLD_PASSES):
        scheduler.begin()
        clock[0] += 5_000
        assert not scheduler.turn(DRAW)
    scheduler.begin()
    scheduler.carried = True  # a press was committed: this pass is carried already
    clock[0] += 5_000
    assert not scheduler.turn(DRAW)
    scheduler.begin()
    clock[0] += 5_000
    assert scheduler.turn(DRAW), "however late, in a pass that carries nothing else"


def test_without_a_clock_every_pass_has_time_for_everything():
    scheduler = Scheduler()
    scheduler.begin()
    scheduler.carried = True
    assert scheduler.turn(GLANCE) and scheduler.turn(DRAW) and scheduler.turn(SOUND)


class _Arbiter:
    """A press due at ``due_us`` on the scheduler's clock (which stays at 0), or none (-1)."""

    def __init__(self, due_us=-1):
        self.due_us = due_us
        self.pending = 0 if due_us < 0 else 1

    def due(self, now):
        return 0 <= self.due_us <= now


def test_a_piece_that_would_end_after_a_press_is_due_waits_without_holding_others_up():
    clock, scheduler = _scheduled()
    scheduler.begin()
    assert not scheduler.turn(DRAW, _Arbiter(due_us=1_200)), "a region would end after the press"
    assert scheduler.waiting == -1, "turned away for the press, not for being late"
    assert scheduler.turn(GLANCE, _Arbiter(due_us=1_200)), "a glance ends before it"


class _Game:
    """A mode with a game on a screen that always has a region left (``Scheduler.run``'s
    parts): ``did`` lists each pass's job, ``"region"`` or ``"game"``."""

    in_game = True
    commit = table = controls = None

    def __init__(self, arbiter):
        self.arbiter = arbiter
        self.current = self  # the flow, whose current mode it is
        self.busy = True  # the renderer, with a region left
        self.did = []

    def racing(self):
        return True

    def run(self, now):
        self.did.append("game")
        return -1

    def step(self, share):
        self.did.append("region")
        return True

    def draw(self, renderer, now, share):
        return None


def test_the_screen_s_passes_of_its_own_give_way_to_the_game_every_few_passes():
    clock = [0]
    game = _Game(_Arbiter())
    scheduler = Scheduler(lambda: clock[0], game, game)
    for _ in range(2 * (ALONE_MAX + 1)):
        scheduler.begin()
        scheduler.run(0)
    assert game.did == (["region"] * ALONE_MAX + ["game"]) * 2
    game.arbiter = _Arbiter(due_us=0)
    scheduler.begin()
    scheduler.run(0)
    assert game.did[-1] == "game", "a press due: the pass commits it"


def test_early_holds_each_kind_to_its_own_threshold():
    clock, scheduler = _scheduled()
    scheduler.begin()
    clock[0] += 600
    assert not scheduler.early(DRAW) and scheduler.early(GLANCE) and scheduler.early(SOUND)
    clock[0] += 300
    assert not scheduler.early(GLANCE) and scheduler.early(SOUND)
    clock[0] += 300
    assert not scheduler.early(SOUND)


def test_now_is_the_pass_start_and_the_time_since_begin():
    clock = [5_000]
    scheduler = Scheduler(lambda: clock[0])
    scheduler.begin()
    clock[0] += 300
    assert scheduler.now(5_000) == 5_300
    # A pass timed on another clock (the profile's game time) and across the wrap.
    assert scheduler.now((1 << 30) - 100) == 200
    assert Scheduler().now(90_000) == 90_000, "without a clock, the pass's start"


def test_a_person_s_committed_press_is_answered_first_in_the_next_pass_a_cpu_s_is_not():
    from spit.keys import C1, button_id
    from spit.spit import Game
    from spit.table import Table

    scheduler = Scheduler()
    table = Table(Game(5), cpus=(None, object()), scheduler=scheduler)
    table.touch(button_id(1, C1), 0)  # the CPU seat's
    scheduler.begin()
    scheduler.play(5_000, table)
    assert table.arbiter.pending == 0 and scheduler.carried and not scheduler.answer
    table.touch(button_id(0, C1), 6_000)  # the person's
    scheduler.begin()
    scheduler.play(10_000, table)
    assert table.arbiter.pending == 0 and scheduler.answer


class _Answered(_Game):
    """A mode whose screen's answer finds its pass too late for its region (``late``)."""

    def __init__(self, arbiter):
        _Game.__init__(self, arbiter)
        self.busy = False
        self.late = False

    def draw(self, renderer, now, share):
        self.did.append("answer")
        self.busy = self.late = True
        return None


def test_an_answer_s_region_without_room_in_its_pass_goes_first_in_the_next():
    clock = [0]
    mode = _Answered(_Arbiter())
    scheduler = Scheduler(lambda: clock[0], mode, mode)
    scheduler.answer = True
    for _ in range(3):
        scheduler.begin()
        scheduler.run(0)
    assert mode.did == ["answer", "region", "region"]
    scheduler.answer = True
    mode.arbiter = _Arbiter(due_us=1_000)
    scheduler.begin()
    scheduler.run(0)
    assert mode.did[3] == "game", "a press due before the answer would end: the game first"


def test_a_press_committed_while_an_answer_s_region_waits_is_answered_after_it():
    clock = [0]
    mode = _Answered(_Arbiter())
    scheduler = Scheduler(lambda: clock[0], mode, mode)
    scheduler.answer = True
    scheduler.begin()
    scheduler.run(0)  # values, no room for the region
    scheduler.answer = True  # as a person's press committed in the next pass would
    for _ in range(2):
        scheduler.begin()
        scheduler.run(0)
    assert mode.did == ["answer", "region", "answer"]
