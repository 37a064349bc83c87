"""Screens that leave by themselves stay long enough to read (docs/decisions.md).

The rule: at least ``MIN_SHOWN_US``, and at least the time to read every word the
screen can show at ``WORDS_PER_S`` (a slow reader's 240 words a minute). A person who
has read it leaves sooner with SPIT. Each screen is drawn with the longest text it can
show, and its words are counted from what the renderer writes.
"""

import framebuf
import pytest
from spit.layout import ERROR_COLUMNS, ERROR_ROWS
from spit.match_mode import ROUND_RESULT_US
from spit.modes import ERROR_US, TITLE_US
from spit.render import Renderer
from spit.session import NEXT_GAME_US, NEXT_MATCH_US
from spit.spit import RoundEnd
from spit.static_screens import StaticScreens

from host_sim.display.wiring import wired_display

MIN_SHOWN_US = 3_000_000
WORDS_PER_S = 4
REACTIONS = [612, 401, 388, 1234, 999, 876]
SEED = 4_294_967_295


def words_shown(draw):
    """The words ``draw(renderer)`` puts on one player's half of the screen."""
    texts = []
    original_end = StaticScreens.end

    def end(self, x=-1):  # a row made: player 1's, or both copies
        row = self._made
        if self._row_player != 1:
            line = [" "] * self._row_chars
            for i in range(self._row_count):
                column = self._columns[row][i]
                text = self._texts[row][i]
                if isinstance(text, bytes):  # a character given by its code
                    text = text.decode()
                line[column : column + len(text)] = text
            texts.append("".join(line))
        return original_end(self, x)

    renderer = Renderer(wired_display()[0], framebuf)
    StaticScreens.end = end
    try:
        draw(renderer)
    finally:
        StaticScreens.end = original_end
    return sum(len(text.split()) for text in texts)


def longest_error(renderer):
    words = " ".join(["MemoryError:"] + ["memory"] * (ERROR_COLUMNS * ERROR_ROWS // 7))
    renderer.error(words)


SCREENS = {
    "title": (TITLE_US, lambda r: r.title("SPIT", SEED)),
    "round result": (
        ROUND_RESULT_US,
        lambda r: r.round_result(
            RoundEnd(0, 1, [12, 13], [0, 14], [14, 38]), b"TIE - P1 by rule", (0, 0), REACTIONS
        ),
    ),
    "game over": (
        NEXT_GAME_US,
        lambda r: r.game_over(1, "out of cards", [1, 1], (False, True), SEED),
    ),
    "match result": (
        NEXT_MATCH_US,
        lambda r: r.match_result(0, [2, 1], (False, False), REACTIONS, SEED),
    ),
    "error": (ERROR_US, longest_error),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_a_screen_that_leaves_by_itself_stays_long_enough_to_read(name):
    shown_us, draw = SCREENS[name]
    words = words_shown(draw)
    assert words >= 3, "the screen's text was counted"
    reading_us = words * 1_000_000 // WORDS_PER_S
    assert shown_us >= max(MIN_SHOWN_US, reading_us), "%s: %d words" % (name, words)
