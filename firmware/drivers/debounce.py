"""Debounce: the first falling edge of a button is the touch; its bounce is ignored.

A button is *armed* when it may report a press. The first edge of an armed button
becomes a press ``(button, t)`` with the edge's own timestamp and disarms it. A disarmed
button ignores every edge until it has read released continuously for ``release_us``;
then it is armed again. So bounce never makes a second press, and holding a button
never repeats: it stays disarmed while it reads pressed.

Why 10 ms by default: arcade microswitches bounce for up to about 6 ms, on closing
and on opening, so no gap inside a bounce train lasts 10 ms, while the quickest
human re-press of one button leaves it released for 40 ms or more (a 10 Hz tap).

The capture source provides ``drain(consumer)`` (edges as ``(button, t)``) and
``pressed_mask()`` (bit ``b`` set while button ``b`` reads pressed); both capture
backends, pin IRQs and PIO, do.

Constructor
    ``Debouncer(source, on_press, now, release_us=10_000, buttons=16)``: ``now`` is the
    time of the first level reading; buttons held then are reported in
    ``held_since_start`` and stay ignored until released.

Methods
    ``update(now)``: drain the source's edges (presses go to ``on_press(button, t)``),
    then re-arm buttons that have read released for ``release_us``. Read ``now``
    before calling, once per main-loop pass; call at least every 20 ms or so, since
    re-arming waits for the next pass after the quiet time.

Class variables
    ``held_since_start``: mask of buttons held at power-on and not released since.
"""

from array import array

from micropython import const
from spit.ticks import ticks_diff

RELEASE_US = const(10_000)


class Debouncer:
    def __init__(self, source, on_press, now, release_us=RELEASE_US, buttons=16):
        self._on_press = on_press
        self.release_us = release_us
        # Since when (a main-loop time) each button in ``_quiet`` has read released.
        self._quiet_since = array("i", [0] * buttons)
        self._quiet = 0  # the disarmed buttons counting their quiet time
        held = source.pressed_mask()
        self._all = (1 << buttons) - 1
        self._armed = self._all & ~held
        self.held_since_start = held
        # Bound once: called every pass.
        self._drain = source.drain
        self._pressed_mask = source.pressed_mask
        self._edge = self._on_edge
        self.update(now)

    def is_armed(self, button):
        return bool(self._armed >> button & 1)

    def update(self, now):
        """Take the new edges, then re-arm buttons quiet for ``release_us`` by ``now``."""
        self._drain(self._edge)
        if self._armed != self._all:
            self._rearm(now)

    def _rearm(self, now):
        pressed = self._pressed_mask()
        self._quiet &= ~pressed  # read pressed again: the quiet time starts over
        # The disarmed buttons reading released: while a button is only held, none, so a
        # pass with a button down walks no bits (every pass that commits a press).
        released = self._all & ~self._armed & ~pressed
        button = 0
        while released:
            if released & 1:
                self._released(button, now)
            released >>= 1
            button += 1

    def _released(self, button, now):
        bit = 1 << button
        if not self._quiet & bit:
            # Released somewhere since the last pass: count from now, the safe side.
            self._quiet |= bit
            self._quiet_since[button] = now
            return
        quiet = ticks_diff(now, self._quiet_since[button])
        # A negative age means the loop stalled past half the tick period.
        if quiet >= self.release_us or quiet < 0:
            self._armed |= bit
            self._quiet &= ~bit
            self.held_since_start &= ~bit

    def _on_edge(self, button, t):
        bit = 1 << button
        self._quiet &= ~bit
        if self._armed & bit:
            self._armed &= ~bit
            self._on_press(button, t)
