"""The emulated board's mirror on the host: what its screen should show.

The firmware's own main loop on the host fakes (``host_sim.sim.simulated_device.Device``), with the
seed the board's title shows and the board's settings, is pressed at the same emulated
times as the board and runs a pass every millisecond of the same clock. The rules, the
controller and the renderer are the firmware's own, so once the board has drawn a screen,
its pixels are the mirror's.

    mirror = Mirror(seed, now_us=pico.now_us)
    mirror.press(button, t_us, hold_us)   # as pico.buttons() presses the board's
    mirror.run_until(pico.now_us)
    mirror.picture()                      # RGB bytes, as ``VirtualDisplay.rgb()``

Only the board's capture stamps a press a few microseconds after its edge, where the
mirror stamps it at the edge: what depends on microseconds (a margin banner, a reaction
time in milliseconds on the edge of rounding) may differ; presses far apart from each
other decide everything else alike.
"""

from spit.options import Options
from spit.ticks import TICKS_PERIOD

from host_sim.sim.simulated_device import HUMAN, Device, SimulatedClock

PASS_US = 1000


class Mirror:
    """Constructor: ``Mirror(seed, now_us, options=None, seats=(HUMAN, HUMAN))``: the
    device powered on at emulated time ``now_us`` on the title, with the title's
    ``seed``; ``options`` (``spit.options.Options``) and ``seats`` as the board's saved
    settings have them.

    Methods: ``press(button, t_us, hold_us)``, ``run_until(t_us)``, ``picture()``,
    ``revision()``, ``screen_name()``. Attributes: ``device`` (the ``Device``), ``now_us``."""

    def __init__(self, seed, now_us, options=None, seats=(HUMAN, HUMAN)):
        self.now_us = now_us
        self._clock = SimulatedClock(round(now_us) % TICKS_PERIOD)
        self.device = Device(
            self._clock, options or Options(), seed, seats, screen=True, title=True
        )
        self._edges = []  # (t_us, button, down), in time order
        self._shown = self.device.screen_name()

    def press(self, button, t_us, hold_us):
        """``button`` down at ``t_us`` and up ``hold_us`` later."""
        self._edges += [(t_us, button, True), (t_us + hold_us, button, False)]
        self._edges.sort()

    def run_until(self, t_us):
        """Passes every ``PASS_US`` up to ``t_us``, each press and release at its time
        between them."""
        while self.now_us + PASS_US <= t_us:
            self.now_us += PASS_US
            while self._edges and self._edges[0][0] <= self.now_us:
                at, button, down = self._edges.pop(0)
                self._clock.now = round(at) % TICKS_PERIOD  # the capture stamps the edge
                if down:
                    self.device.press(button)
                else:
                    self.device.release(button)
            self._clock.now = round(self.now_us) % TICKS_PERIOD
            self.device.step()
            # Named after every pass, as the simulator's window names it every frame: a
            # pass in which the device cannot say what it shows fails here.
            self._shown = self.device.screen_name()

    def picture(self):
        return self.device.virtual.rgb()

    def revision(self):
        """Changes whenever the picture may have."""
        return self.device.virtual.revision

    def screen_name(self):
        """The screen shown after the last pass, as a player names it."""
        return self._shown
