"""No press can freeze the device: the device's own boot and paced loop (``device.boot``
with its clock, as ``main.py`` runs it) on the fake board, buttons pressed on its pins.

Two eager players press SPIT on the title a few tens of milliseconds apart; random
presses of all sixteen buttons land around every screen change that leads to a match.
Afterwards the people at the device reach the countdown as they always can: SPIT on
the title, attract mode, the settings or the error screen, then each player who is not
shown ready presses SPIT.
"""

import machine
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spit import keys
from spit.match_mode import EAGER_US
from spit.modes import ATTRACT, SETTINGS
from test_main import Board

P1_SPIT = keys.button_id(0, keys.SPIT)
P2_SPIT = keys.button_id(1, keys.SPIT)
TRANSITIONS = ("title", "attract", "settings", "error")
REACTION_MS = EAGER_US // 1000 + 50  # nobody answers a new screen sooner


def pin(button):
    return machine.wired(button)


def screen(board):
    return board.handheld.controller.screen_name()


def tap(board, button, hold_ms=30, after_ms=40):
    pin(button).press()
    board.run(hold_ms)
    pin(button).release()
    board.run(after_ms)


def reach(board, names, within_ms):
    for waited in range(within_ms):
        if screen(board) in names:
            return waited
        board.run(1)
    raise AssertionError("still %r after %d ms, not %s" % (screen(board), within_ms, names))


def settle(board):
    """The screen drawn whole, and a person's time to answer it."""
    board.settle()
    board.run(REACTION_MS)


def to_the_countdown(board):
    """What people do to start a round from here; each step shows within a second."""
    for _ in range(3):
        shown = screen(board)
        if shown in ("countdown", "play", "stuck"):
            return
        if shown == "ready":
            settle(board)  # drawn whole, as a person sees it
            called = board.handheld.session.table.controls.called
            for player, button in ((0, P1_SPIT), (1, P2_SPIT)):
                if not called[player]:
                    tap(board, button)
            reach(board, ("countdown", "play", "stuck"), 1_000)
        else:
            tap(board, P1_SPIT)
            reach(board, ("ready",), 1_000)
    raise AssertionError("no countdown: %s" % screen(board))


@pytest.fixture
def board(monkeypatch, tmp_path):
    board = Board(monkeypatch, tmp_path, "irq")
    board.run(20)
    board.settle()
    return board


@pytest.mark.parametrize("gap_ms", [20, 60, 120, 210])
def test_two_eager_spit_presses_on_the_title_then_both_reach_the_countdown(board, gap_ms):
    pin(P1_SPIT).press()
    board.run(gap_ms)
    pin(P2_SPIT).press()
    board.run(40)
    pin(P1_SPIT).release()
    pin(P2_SPIT).release()
    board.run(2_300)
    assert screen(board) == "ready" and not board.handheld.controller.scheduler.renderer.busy
    controls = board.handheld.session.table.controls
    assert controls.called == [False, False], "the title's presses are not calls"
    assert board.handheld.controller.arbiter.pending == 0
    pin(P1_SPIT).press()
    pin(P2_SPIT).press()
    board.run(40)
    pin(P1_SPIT).release()
    pin(P2_SPIT).release()
    reach(board, ("countdown",), 1_000)


def test_a_spit_held_from_power_on_never_opens_the_settings(monkeypatch, tmp_path):
    from test_main import hold_at_power_on

    hold_at_power_on(monkeypatch, P1_SPIT)
    board = Board(monkeypatch, tmp_path, "irq")
    for _ in range(80):
        board.run(100)
        assert screen(board) in ("title", "attract")
    pin(P1_SPIT).release()
    board.run(100)
    pin(P1_SPIT).press()
    board.run(2_100)
    assert screen(board) == "settings", "released once, the hold counts"


def enter(board, transition):
    """Bring the device to the screen a transition starts from."""
    controller = board.handheld.controller
    now = board.now
    if transition == "attract":
        controller.enter(ATTRACT, now)
    elif transition == "settings":
        controller.enter(SETTINGS, now)
    elif transition == "error":
        controller.fail("ValueError: a test", now)
    board.run(50)
    assert screen(board) == transition


presses = st.lists(
    st.tuples(st.integers(0, 15), st.integers(-150, 400), st.integers(2, 200)),
    max_size=12,
)


@pytest.mark.slow
@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(transition=st.sampled_from(TRANSITIONS), noise=presses)
def test_random_presses_around_a_screen_change_never_freeze_the_device(
    tmp_path, transition, noise
):
    with pytest.MonkeyPatch.context() as monkeypatch:
        board = Board(monkeypatch, tmp_path, "irq")
        board.run(20)
        press_around(board, transition, noise)


@pytest.mark.soak
@settings(max_examples=600, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(transition=st.sampled_from(TRANSITIONS), noise=presses)
def test_soak_random_presses_around_a_screen_change(tmp_path, transition, noise):
    with pytest.MonkeyPatch.context() as monkeypatch:
        board = Board(monkeypatch, tmp_path, "irq")
        board.run(20)
        press_around(board, transition, noise)


def press_around(board, transition, noise):
    enter(board, transition)
    # P1's SPIT at 150 ms changes the screen; the noise lands from 0 to 550 ms.
    edges = [(150, P1_SPIT, True), (190, P1_SPIT, False)]
    for button, at, hold in noise:
        if button != P1_SPIT:
            edges += [(at + 150, button, True), (at + 150 + hold, button, False)]
    clock = 0
    for at, button, down in sorted(edges):
        board.run(at - clock)
        clock = at
        if down:
            pin(button).press()
        else:
            pin(button).release()
    board.run(300)
    assert board.handheld.errors == 0
    to_the_countdown(board)


EAGER_ON_THE_VM = """
run(20)
press(7)  # P1 SPIT on the title
run(60)
press(15)  # P2 SPIT, 60 ms later
run(40)
release(7)
release(15)
run(2300)
called = handheld.session.table.controls.called
print(controller.screen_name(), called, controller.arbiter.pending)
press(7)
press(15)
run(40)
release(7)
release(15)
run(1000)
print(controller.screen_name(), handheld.errors)
"""


def test_two_eager_spit_presses_on_the_micropython_vm(mpvm):
    from host_sim.vm.firmware_path import DEVICE
    from host_sim.vm.machine_module import VM_MACHINE

    code = DEVICE.replace("SEATS", '["person", "person"]') + EAGER_ON_THE_VM
    ready, counting = mpvm(code, files=VM_MACHINE).strip().split("\n")
    assert ready == "ready [False, False] 0"
    assert counting in ("countdown 0", "play 0")
