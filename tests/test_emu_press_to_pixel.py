"""Press to first pixel on every screen (``host_sim.bench.press_to_pixel``): each press the
bench times really changed what the board's screen shows.

One walk on the emulated Pico from power-on, ``main.py`` as on the device, buttons only
(about two minutes): the screen, decoded from the bytes the firmware sent the display,
before each measured press and once the screen it brings is up, must differ, and it must
be the screen the bench names.
"""

import pytest
from spit.layout import HALF_Y

from host_sim.bench.press_to_pixel import ANSWER_US, NAMES, PREFIX, walk
from host_sim.display import HEIGHT
from host_sim.emu.emulated_pico import EmulatedPico, firmware_paths
from host_sim.emu.fs_image import board_files
from host_sim.judging.compare import differing_box
from host_sim.judging.reading import GLYPH, read_row

pytestmark = [pytest.mark.emulated_pico, pytest.mark.person_path]

if firmware_paths() is None:
    pytest.skip(
        "no MicroPython UF2 / RP2040 boot ROM (PICO_UF2, PICO_BOOTROM): emulated Pico skipped",
        allow_module_level=True,
    )

# The screen each measured press was made on, and the one it brought.
SCREENS = {
    "emu_press_to_pixel_us": ("title", "ready"),
    PREFIX + "settings_cursor_us": ("settings", "settings"),
    PREFIX + "settings_value_us": ("settings", "settings"),
    PREFIX + "settings_start_us": ("settings", "ready"),
    PREFIX + "ready_us": ("ready", "ready"),
    PREFIX + "countdown_us": ("ready", "countdown"),
    PREFIX + "play_us": ("play", "play"),  # or "stuck": the card left nobody a move
    PREFIX + "refused_us": ("play", "play"),
    PREFIX + "slap_us": ("slap", "round result"),
    PREFIX + "round_result_us": ("round result", "ready"),
}


@pytest.fixture(scope="module")
def walked():
    with EmulatedPico(files=board_files(main=True)) as pico:
        return walk(pico)


def test_every_figure_of_the_walk_is_measured(walked):
    failed = {name: value for name, value in walked.figures.items() if isinstance(value, str)}
    assert not failed
    assert sorted(walked.figures) == sorted(NAMES)
    assert sorted(shown.name for shown in walked.shown) == sorted(SCREENS)


def test_each_measured_press_changed_the_screen_to_the_one_it_brings(walked):
    for shown in walked.shown:
        brought = (shown.was, shown.screen)
        if shown.name == PREFIX + "play_us" and brought == ("play", "stuck"):
            brought = ("play", "play")
        assert brought == SCREENS[shown.name], shown.name
        assert differing_box(shown.before, shown.after) is not None, (
            "%s: the screen after the press is the screen before it" % shown.name
        )
        assert 0 < shown.us < ANSWER_US, shown.name


def test_the_refused_card_shows_the_race_it_lost(walked):
    (refused,) = [shown for shown in walked.shown if shown.name == PREFIX + "refused_us"]
    banner = "P2 by 50.0 ms"  # player 1's half: the margin by which player 2's card won

    def rows(picture):
        return {read_row(picture, y) for y in range(HALF_Y, HEIGHT - GLYPH)}

    assert banner not in rows(refused.before)
    assert banner in rows(refused.after)
