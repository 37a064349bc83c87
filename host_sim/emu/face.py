"""The emulated Pico as a person meets it: buttons pressed at emulated times, and the
screen, decoded from the bytes the firmware sends the display, judged against what the
firmware's renderer draws on the host (a ``Twin`` beside the board, or a fixed picture).

    face = EmulatedFace(pico)
    face.until(lambda: read_seed(face.picture()) is not None, 3_000_000, "the title")
    face.twin = Twin(read_seed(face.picture()), pico.now_us)
    face.press(7)                                   # player 1's SPIT, board and twin
    face.until_twin(500_000, "the ready screen")    # the board shows what the twin shows

A judgement waits for the board to finish drawing: it looks only after a slice of
emulated time in which the display got no bytes.
"""

import os

from host_sim.display import HEIGHT, WIDTH, VirtualDisplay
from host_sim.display.png import encode
from host_sim.emu.pictures import describe, differing_box
from host_sim.emu.screen import Screen

SLICE_US = 10_000
PRESS_US = 40_000  # a tap's hold
LEAD_US = 1_000  # from now to a press: the edge lands between two slices


class ScreenMismatch(AssertionError):
    """The board's screen did not come to show what it should, in the time allowed."""


class EmulatedFace:
    """Constructor: ``EmulatedFace(pico, twin=None, shots=None)``: ``pico`` an
    ``EmulatedPico`` booting the firmware; ``twin`` a ``Twin`` fed the same presses (or
    set later); ``shots`` a folder for the PNGs of a mismatch.

    Methods: ``run_until(t_us)``, ``run_us(us)``, ``press(button, at_us=None,
    hold_us=PRESS_US)``, ``picture()``, ``until(done, within_us, what)``,
    ``until_shows(picture, within_us, what, known=None)``, ``until_twin(within_us,
    what)``. Attributes: ``pico``, ``twin``, ``display`` (the ``VirtualDisplay``)."""

    def __init__(self, pico, twin=None, shots=None):
        self.pico = pico
        self.twin = twin
        self.shots = shots
        self.display = VirtualDisplay(strict_timing=True)
        self._screen = Screen(self.display)
        self._quiet = False  # the last slice sent the display nothing

    def run_until(self, t_us):
        while self.pico.now_us < t_us:
            self.pico.run_until_us(min(t_us, self.pico.now_us + SLICE_US))
            before = self._screen.bytes_sent
            self._screen.feed(self.pico.spi_log())
            self._quiet = self._screen.bytes_sent == before
            if self.twin is not None:
                self.twin.run_until(self.pico.now_us)

    def run_us(self, us):
        self.run_until(self.pico.now_us + us)

    def press(self, button, at_us=None, hold_us=PRESS_US):
        """``button`` down at ``at_us`` (by default just after now) for ``hold_us``, on
        the board and on the twin; returns the time of the press."""
        at = self.pico.now_us + LEAD_US if at_us is None else at_us
        self.pico.buttons([(at, button, True), (at + hold_us, button, False)])
        if self.twin is not None:
            self.twin.press(button, at, hold_us)
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
        seen = [None]

        def alike():
            key = (self.display.revision, revision and revision())
            if seen[0] is not None and seen[0][0] == key:
                return seen[0][1]
            same = self.picture() == picture()
            seen[0] = (key, same)
            return same

        try:
            self.until(alike, within_us, what)
        except ScreenMismatch as failed:
            raise ScreenMismatch(self._mismatch(str(failed), picture(), what, known)) from None

    def until_twin(self, within_us, what):
        """``until_shows`` the twin's screen."""
        twin = self.twin
        self.until_shows(twin.picture, within_us, what, revision=twin.revision)

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
