"""How the emulated Pico's screen is judged (``host_sim.judging.reading``, ``compare``,
``face.alike``), on pictures the firmware's renderer draws on the host: no emulator needed."""

from host_sim.judging.compare import describe, differing_box, drawn, halves_alike
from host_sim.judging.face import alike
from host_sim.judging.reading import SEED_Y, read_row, read_seed


def title(seed):
    return drawn(lambda renderer: renderer.title("SPIT", seed))


def match_result(p1_ms):
    times = [p1_ms, 401, 388, 0, 0, 0]  # P2: no reaction timed yet
    return drawn(lambda r: r.match_result(0, [2, 1], (False, False), times, 7))


def test_the_title_tells_its_seed():
    picture = title(2630925)
    assert read_row(picture, SEED_Y) == "seed 2630925"
    assert read_seed(picture) == 2630925
    assert read_row(picture, SEED_Y - 24) == "press SPIT"


def test_no_seed_where_the_screen_shows_none():
    assert read_seed(drawn(lambda renderer: renderer.countdown(3))) is None
    assert read_row(drawn(lambda renderer: renderer.countdown(3)), 0) is None


def test_reaction_times_may_read_a_millisecond_apart_and_nothing_else():
    assert alike(match_result(612), match_result(613))
    assert alike(match_result(613), match_result(612))
    assert not alike(match_result(612), match_result(614))
    assert not alike(title(1), title(2))


def test_a_half_drawn_screen_is_told_half_by_half():
    ready = drawn(lambda r: r.ready("SPIT", (False, False)))
    countdown = drawn(lambda r: r.countdown(3))
    half = ready[: len(ready) // 2] + countdown[len(ready) // 2 :]
    assert halves_alike(half, countdown) == (True, False)
    assert describe(half, {"the countdown": countdown, "the ready screen": ready}) == (
        "player 1's half: the countdown; player 2's half: the ready screen"
    )
    assert differing_box(half, half) is None
    x, y, w, h = differing_box(half, countdown)
    assert y + h <= 120
