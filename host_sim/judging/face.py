"""The emulated Pico as a person meets it: buttons pressed at emulated times, and the
screen, decoded from the bytes the firmware sends the display, judged against what the
firmware's renderer draws on the host (a ``Mirror`` beside the board, or a fixed picture).

    face = EmulatedFace(pico)
    face.until(lambda: read_seed(face.picture()) is not None, 3_000_000, "the title")
    face.mirror = Mirror(read_seed(face.picture()), pico.now_us)
    face.press(7)                         # player 1's SPIT, on the board and the mirror
    face.until_screen("ready", 500_000)   # the board shows what the mirror shows

A judgement waits for the board to finish drawing: it looks only after a slice of
emulated time in which the display got no bytes.
"""

import os
import re

from spit.layout import HALF_Y, ROW_PITCH

from host_sim.display import HEIGHT, WIDTH, VirtualDisplay
from host_sim.display.png import encode
from host_sim.emu.screen import RESET_LINE, Screen
from host_sim.judging.compare import describe, differing_box
from host_sim.judging.reading import GLYPH, read_row

SLICE_US = 10_000
PRESS_US = 40_000  # a tap's hold
LEAD_US = 1_000  # from now to a press: the edge lands between two slices
# A person's reaction times, as the round and match results show them (``Controller``),
# on the rows of text those screens write from the middle down.
_REACTION = re.compile(r"^P([12]) (\d+) ms, best (\d+), record (\d+)$")
_TEXT_ROWS = [HALF_Y + 4 + row * ROW_PITCH for row in range(10)]


def alike(board, expected):
    """Whether the board's picture shows ``expected``: pixel for pixel, but for the
    reaction times, which may read a millisecond apart. The board's capture stamps each
    press some microseconds after its edge, the host at the edge, and a difference of
    whole milliseconds rounds down either side of the edge."""
    if board == expected:
        return True
    board, expected = bytearray(board), bytearray(expected)
    for y in _TEXT_ROWS:
        shown, wanted = read_row(board, y), read_row(expected, y)
        shown = _REACTION.match(shown or "")
        wanted = _REACTION.match(wanted or "")
        if not (shown and wanted) or shown.group(1) != wanted.group(1):
            continue
        pairs = zip(shown.groups()[1:], wanted.groups()[1:], strict=True)
        if any(abs(int(a) - int(b)) > 1 for a, b in pairs):
            continue
        for top in (y, HEIGHT - y - GLYPH):  # player 1's row, and player 2's turned copy
            band = slice(top * WIDTH * 3, (top + GLYPH) * WIDTH * 3)
            board[band] = expected[band]
    return board == expected


class ScreenMismatch(AssertionError):
    """The board's screen did not come to show what it should, in the time allowed."""


class EmulatedFace:
    """Constructor: ``EmulatedFace(pico, mirror=None, shots=None)``: ``pico`` an
    ``EmulatedPico`` booting the firmware; ``mirror`` a ``Mirror`` fed the same presses
    (or set later); ``shots`` a folder for the PNGs of a mismatch.

    Methods: ``run_until(t_us)``, ``run_us(us)``, ``press(button, at_us=None,
    hold_us=PRESS_US)``, ``picture()``, ``until(done, within_us, what)``,
    ``until_shows(picture, within_us, what, known=None, revision=None)``,
    ``until_mirror(within_us, what, when)``, ``until_screen(name, within_us)``.
    Attributes: ``pico``, ``mirror``, ``display`` (the ``VirtualDisplay``),
    ``last_sent_us`` (the time of the last byte the display got, None before any) and
    ``answered_us`` (the first byte it got at or after the last ``press``, None until
    one came)."""

    def __init__(self, pico, mirror=None, shots=None):
        self.pico = pico
        self.mirror = mirror
        self.shots = shots
        self.display = VirtualDisplay(strict_timing=True)
        self._screen = Screen(self.display)
        self._quiet = False  # the last slice sent the display nothing
        self.last_sent_us = None
        self.answered_us = None
        self._pressed_us = None

    def run_until(self, t_us):
        # In whole nanoseconds, as the emulator counts: a float a hair short of the end
        # would ask for it again and again.
        while round(self.pico.now_us * 1000) < round(t_us * 1000):
            self.pico.run_until_us(min(t_us, self.pico.now_us + SLICE_US))
            before = self._screen.bytes_sent
            log = self.pico.spi_log()
            self._note_times(log)
            self._screen.feed(log)
            self._quiet = self._screen.bytes_sent == before
            if self.mirror is not None:
                self.mirror.run_until(self.pico.now_us)

    def _note_times(self, log):
        sent = [t for t, dc, _ in log if dc != RESET_LINE]
        if not sent:
            return
        self.last_sent_us = sent[-1]
        if self.answered_us is None and self._pressed_us is not None:
            self.answered_us = next((t for t in sent if t >= self._pressed_us), None)

    def run_us(self, us):
        self.run_until(self.pico.now_us + us)

    def press(self, button, at_us=None, hold_us=PRESS_US):
        """``button`` down at ``at_us`` (by default just after now) for ``hold_us``, on
        the board and on the mirror; returns the time of the press."""
        at = self.pico.now_us + LEAD_US if at_us is None else at_us
        self.pico.buttons([(at, button, True), (at + hold_us, button, False)])
        self._pressed_us = at
        self.answered_us = None
        if self.mirror is not None:
            self.mirror.press(button, at, hold_us)
        return at

    def picture(self):
        return self.display.rgb()

    def until(self, done, within_us, what):
        """Run until ``done()`` holds at a moment the board is not drawing."""
        end = self.pico.now_us + within_us
        while True:
            if self._quiet and done():
                return
            if self.pico.now_us >= end:
                raise ScreenMismatch(
                    "the board did not show %s within %d ms" % (what, within_us // 1000)
                )
            self.run_us(SLICE_US)

    def until_shows(self, picture, within_us, what, known=None, revision=None):
        """Run until the board's screen is ``picture()`` pixel for pixel; raise
        ``ScreenMismatch`` saying how it differs (and, by the ``known`` pictures, what
        each half shows) when ``within_us`` passes first. ``revision()`` changes when
        ``picture()`` may have (None: it never does); pictures are compared only when
        one of the two changed."""
        self._until_alike(picture, within_us, what, known, revision, None)

    def until_mirror(self, within_us, what, when):
        """Run until ``when()`` holds (it asks the mirror: its screen, its game) and the
        board's screen is the mirror's, pixel for pixel; else ``ScreenMismatch``."""
        mirror = self.mirror
        self._until_alike(mirror.picture, within_us, what, None, mirror.revision, when)

    def until_screen(self, name, within_us):
        """``until_mirror`` the mirror shows the screen ``name`` (``spit.screens.NAMES``)."""
        mirror = self.mirror
        shown = "the %s screen" % name
        self.until_mirror(within_us, shown, lambda: mirror.screen_name() == name)

    def _until_alike(self, picture, within_us, what, known, revision, when):
        seen = [None]

        def shows():
            if when is not None and not when():
                return False
            key = (self.display.revision, revision and revision())
            if seen[0] is not None and seen[0][0] == key:
                return seen[0][1]
            same = alike(self.picture(), picture())
            seen[0] = (key, same)
            return same

        try:
            self.until(shows, within_us, what)
        except ScreenMismatch as failed:
            raise ScreenMismatch(self._mismatch(str(failed), picture(), what, known)) from None

    def _mismatch(self, message, expected, what, known):
        board = self.picture()
        box = differing_box(board, expected)
        lines = [message, "it differs from %s in the box (x, y, w, h) %s" % (what, box)]
        pictures = {what: expected}
        pictures.update(known or {})
        lines.append(describe(board, pictures))
        if self.shots:
            os.makedirs(self.shots, exist_ok=True)
            name = "".join(c if c.isalnum() else "-" for c in what)
            for suffix, rgb in (("board", board), ("expected", expected)):
                path = os.path.join(self.shots, "%s-%s.png" % (name, suffix))
                with open(path, "wb") as f:
                    f.write(encode(WIDTH, HEIGHT, rgb, 2))
                lines.append("saved %s" % path)
        return "\n".join(lines)
