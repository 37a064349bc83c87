"""Every screen of SPEC section 5, drawn through small windows onto the display.

Constructor: ``Renderer(display, framebuf)``. ``display`` has ``width``, ``height``,
``show(x, y, w, h, buf)`` (a window of RGB565 pixels, sent as they are),
``show_turned(x, y, w, h, buf)`` (the window turned half a turn), ``fill(colour)`` and
``fill_rows(colour, y, h)`` (a band of whole rows); ``framebuf`` is the module to draw
with (the real one on the device, the host's fake in the simulator).

The renderer is the one object to draw through. Its screens, bound from the modules
that draw them: ``play(game, controls, cpus, share)`` (``spit.play_screen``: it follows
the game's changes and sends only the regions they touched); ``title``, ``settings``,
``ready``, ``countdown``, ``round_result``, ``game_over``, ``match_result``, ``error``
and ``self_test`` (``spit.static_screens``, also ``screens``: each from plain values,
sending nothing when called again with the same values and nothing left to draw; the
device calls them on ``screens``, as a bound method called with more than four
arguments copies them to the heap); ``step(share)``, the
screen on the display going on without new values (the play screen: what its last call
left; False when there is nothing to go on with: call the screen then). Both paint with
``spit.pen``; the play screen's regions (``spit.play_regions``) paint cards from
``spit.pictures``. The renderer itself keeps what they share: the screen on the display
(``invalidate()``: the next call starts from a clear one), the clear between screens (the
first screen's was sent when the renderer was made), and a call's share.

With ``regions_per_call`` set (1 on the device) regions are small, each aiming at under
0.8 ms on the chip with its SPI: a strip of two rows of a clear (through ``fill_rows``,
or the whole clear at once where DMA sends it), an eighth of a row of text, a glyph row
of big text, or one of the play screen's regions; a call draws its ``share`` of them:
-1, no limit; None (the default), ``regions_per_call``. Taking new values spends one
region of the share (a screen's values that changed, the play screen's changes
followed: about 0.3 ms on the chip), so with a share of 1 the call that takes new
values draws nothing more and the next calls carry on, and 2 also sends the first region
of the change in the call that takes it: a new screen's first strip of its clear, or the
first region of the row its new values change (``spit.scheduler`` names the shares).
With ``regions_per_call`` 0 (the default) a call draws its screen whole. Either way a
share of 0 takes values and draws nothing.

Attributes: ``busy`` is true while the last call left something to draw (a plain
attribute: on the chip an attribute store is several times slower on an instance
whose class has a ``property``); ``full_redraws`` counts clears. The play screen and the pieces of
text draw with the device's heap locked (``spit.scheduler``): the display's ``show`` and
``fill_rows`` must allocate nothing either.
"""

from micropython import const

from spit.layout import HEIGHT, WIDTH
from spit.pen import FELT, PIECE_W, Pen
from spit.play_screen import PlayScreen
from spit.screens import PLAY
from spit.static_screens import StaticScreens
from spit.ticks import ticks_diff

_NO_SCREEN = const(-1)
_CLEARING = const(-2)  # cleared for a screen not known yet (``clear_ahead``)
_CLEAR_ROWS = const(2)  # a strip of a clear: 1.3 KB


class Renderer:
    def __init__(self, display, framebuf):
        self.display = display
        self.regions_per_call = 0
        self.full_redraws = 0
        self.busy = False  # the last call left something for the next ones
        self.screen = _NO_SCREEN  # the screen on the display (``spit.screens``)
        self.share = -1  # the call's, as ``start`` took it
        self.left = -1  # regions this call may still draw; below 0, any number
        # In a ``hurry`` (a race on): a region after new values starts only by
        # ``region_by`` on ``clock`` (ticks_us), so that it ends within the pass.
        self.hurry = False
        self.clock = None
        self.region_by = 0
        self.late = False  # the last call's region after its new values had no room
        self._background = getattr(display, "in_background", False)
        self._clear_step = HEIGHT if self._background else _CLEAR_ROWS
        self.clear_row = HEIGHT  # the next strip of a clear going out
        pen = Pen(display, framebuf)
        play = PlayScreen(self, pen)  # the cards' pictures first: the biggest blocks
        pen.make_text()
        static = StaticScreens(self, pen)
        # Bound once: a screen called through the renderer is a call of the screen's own.
        # A bound method called with more than four arguments copies them to the heap:
        # the device calls the static screens on ``screens`` itself.
        self.screens = static
        self.play = play.play
        self.title = static.title
        self.settings = static.settings
        self.ready = static.ready
        self.countdown = static.countdown
        self.round_result = static.round_result
        self.game_over = static.game_over
        self.match_result = static.match_result
        self.error = static.error
        self.self_test = static.self_test
        # ``step`` is the screen on the display's (``clear``).
        self._play_step = play.step
        self._static_step = static.step
        self.step = static.step
        # The display cleared at once, in the background where DMA sends it, while the
        # device goes on booting: the first screen starts on felt, with no clear to wait for.
        display.fill(FELT)
        self._blank = True

    def invalidate(self):
        """The next call, of any screen, starts it from a clear display."""
        self.screen = _NO_SCREEN

    # -- a call's share ------------------------------------------------------

    def start(self, share):
        """A call begins with ``share`` regions to draw (see the module's docstring);
        False when it may draw none (it takes values only)."""
        if share is None or share and not self.regions_per_call:
            share = self.regions_per_call or -1  # whole screens: a share counts small regions
        self.share = share
        self.left = share
        self.late = False
        if share == 0:
            return False
        self.busy = False
        if share > 0 and self._background and self.display.busy():
            self.left = 0  # the bus still takes the last region: nothing waits for it
        return True

    def afford(self):
        """Whether this call may draw one more region; counts it if so."""
        if self.left == 0:
            self.busy = True
            return False
        self.left -= 1
        return True

    def take(self):
        """New values taken spend a region of the call's share: False, and something
        left for the next call, when none is left to draw, or, in a ``hurry``, when the
        pass has no room left for a region (``region_by``, on ``clock``: ``late``)."""
        if self.left > 0:
            self.left -= 1
            if self.left and self.hurry and ticks_diff(self.clock(), self.region_by) > 0:
                self.left = 0
                self.late = True
        if self.left == 0:
            self.busy = True
            return False
        return True

    def piece_width(self):
        """How wide a region of a row of text is: the whole row, or an eighth of it when
        regions are small."""
        return PIECE_W if self.regions_per_call else WIDTH

    # -- the clear between screens --------------------------------------------

    def clear(self, screen):
        """``screen`` starts on a clear display: strip by strip from the next regions
        when they are small, else at once; or on the clear begun ahead of it."""
        ahead = self.screen == _CLEARING
        self.screen = screen
        self.step = self._play_step if screen == PLAY else self._static_step
        if ahead:
            return
        self.full_redraws += 1
        if self._blank:
            self._blank = False  # nothing drawn since the display was cleared
            self.clear_row = HEIGHT
        elif self.regions_per_call:
            self.clear_row = 0
        else:
            self.clear_row = HEIGHT
            self.display.fill(FELT)

    def clear_ahead(self, share):
        """The display cleared, this call's ``share`` of it, for the screen that comes
        next, before it is known: a round's end is worked out while the next is dealt,
        and the first strips of the clear answer the press that ended the round. The
        next screen called takes the clear over."""
        if self.screen != _CLEARING:
            self.clear(_NO_SCREEN)
            self.screen = _CLEARING
        if self.start(share):
            self.cleared()

    def cleared(self):
        """The next strips of a clear while this call may; True once the display is clear."""
        row = self.clear_row
        while row < HEIGHT:
            if not self.afford():
                return False
            self.display.fill_rows(FELT, row, self._clear_step)
            row += self._clear_step
            self.clear_row = row
        return True
