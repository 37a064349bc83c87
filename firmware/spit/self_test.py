"""The self-test mode (both SPIT held at power-on): what it counts, times and calibrates.

Every button's press count and the time since its last press, and the tie-window
calibration: both players press their pile buttons (``L`` or ``R``) together, again and
again; the screen shows how far apart the presses were stamped and, after enough pairs,
proposes a tie window, which holding SPIT saves (and the title comes back). The buzzer
plays its scale as the mode begins. Imported when the self-test starts: every module
imported at boot takes heap and boot time.

Constructor: ``SelfTest(flow)``, a mode (``spit.modes``' verbs). ``proposal()``: the tie
window to save (0: none yet). Attributes: ``presses`` and ``ages`` (by button id, in
tenths of a second),
``bins`` (the calibration's histogram) and ``lines`` (two of text), as the screen shows
them.
"""

from micropython import const

from spit import keys, screens, twins
from spit.calibration import Calibration
from spit.modes import STAY, TITLE, Mode
from spit.ticks import ticks_diff

# The calibration histogram: bins of 10 µs, the last holding everything from 90 µs.
_BINS = const(10)
_BIN_US = const(10)


class SelfTest(Mode):
    SCREEN = screens.SELF_TEST

    def __init__(self, flow):
        Mode.__init__(self, flow)
        self.presses = [0] * keys.BUTTON_COUNT
        self.ages = [-1] * keys.BUTTON_COUNT  # tenths of a second; -1: not pressed yet
        self.bins = [0] * _BINS
        self.lines = ["", ""]
        self._pressed_at = [0] * keys.BUTTON_COUNT
        self._calibration = Calibration()
        self._describe()

    def enter(self, now):
        Mode.enter(self, now)
        self.flow.sound("scale", now)

    def press(self, button, t, tie):
        self.presses[button] += 1
        self._pressed_at[button] = t
        key = keys.key_of(button)
        if key != keys.LEFT and key != keys.RIGHT:
            return STAY
        if self._calibration.press(keys.player_of(button), t) is not None:
            self._calibration.histogram(self.bins, _BIN_US)
            self._describe()
        return STAY

    def run(self, now):
        return STAY

    def hold(self, now):
        """SPIT held: the proposal saved, if there is one, and the title."""
        proposal = self.proposal()
        if proposal:
            self.saved.tie_us = proposal
            self.arbiter.tie_us = proposal
        return TITLE

    def proposal(self):
        return self._calibration.proposal()

    def draw(self, renderer, now, share):
        self._ages(now)
        renderer.screens.self_test(self.presses, self.ages, self.bins, self.lines, share)

    def _ages(self, now):
        for button in range(keys.BUTTON_COUNT):
            if self.presses[button]:
                self.ages[button] = ticks_diff(now, self._pressed_at[button]) // 100_000

    def _describe(self):
        calibration = self._calibration
        lines = self.lines
        if calibration.count:
            lines[0] = "pairs %d  99.9%%: %d us  bias %d us" % (
                calibration.count,
                calibration.percentile_us(999),
                calibration.bias_us(),
            )
        else:
            lines[0] = twins.summary()  # which twins loaded, until the first pair
        proposal = calibration.proposal()
        if proposal:
            lines[1] = "tie window %d us: hold SPIT to save" % proposal
        else:
            lines[1] = "press L or R together: %d more" % calibration.pairs_left()
