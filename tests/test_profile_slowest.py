"""The profile's slowest passes and its passes in play, as the board packs them and the
host reads them."""

from host_sim.bench.pass_profile import _BIN_US, _median_us, slowest


def _code(number, mode, phase, busy=0, answer=0, carried=0, allocated=0, counting=0, reading=0):
    # As the board's ``what`` and the loop pack them.
    return (
        number << 16
        | allocated << 15
        | carried << 14
        | answer << 13
        | busy << 12
        | mode << 8
        | phase << 4
        | reading << 3
        | counting << 2
    )


def test_the_slowest_passes_come_slowest_first_with_what_they_were():
    kept = [
        1_850,
        _code(631, 2, 1, carried=1),
        0,
        0,  # a place the run never filled
        2_310,
        _code(1_411, 2, 0, busy=1, carried=1, allocated=1, reading=1),
    ]
    found = slowest(kept)
    assert [(p["pass"], p["us"]) for p in found] == [(1_411, 2_310), (631, 1_850)]
    assert found[0] == {
        "pass": 1_411,
        "us": 2_310,
        "mode": 2,
        "phase": 0,
        "counting": 0,
        "reading": 1,
        "busy": 1,
        "answer": 0,
        "carried": 1,
        "allocated": 1,
    }
    assert found[1]["carried"] == 1 and found[1]["busy"] == 0 and found[1]["phase"] == 1


def test_the_median_pass_in_play_is_the_middle_of_its_bin():
    # Nine passes: three in bin 100, one in bin 140, five in bin 141; the fifth is in 141.
    lines = ["t 141 5", "t 100 3", "t 140 1"]
    assert _median_us(lines) == 141 * _BIN_US + _BIN_US // 2
    assert _median_us([]) == 0
