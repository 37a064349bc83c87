"""Button hardware in simulated time: bouncing contacts, interrupt delivery, a main loop.

Runs the firmware's own input path (``drivers.buttons`` with its real IRQ handler,
``drivers.debounce``, ``spit.arbiter``) on fake pins and a fake microsecond clock, event
by event, so tests and the bench can ask what the device commits for presses whose true
times are known. Two models of how an edge reaches the handler:

- ``DelayedDelivery``: the stamp is the edge's true time (as the PIO backend gives), but
  the handler runs up to ``max_delay_us`` later, so presses of different pins arrive out
  of order. Edges of one pin are delivered in order and merge while one waits, as the
  RP2040's per-pin interrupt latch does.
- ``DeviceIrq``: the pin-IRQ timing measured in SPEC 4: a hard handler starts about
  15 µs after the edge plus a random delay of up to ``jitter_us`` (the CPU finishing
  something else), reads the clock 16 µs in (31 µs after the edge), and one interrupt
  serves every pending pin in GPIO order, 46 µs apart.

Button ``b`` is wired to GPIO ``b``. Times are whole microseconds since the start of the
run; the firmware sees them as ``ticks_us`` values, ``(origin + time) mod 2**30``.
"""

import heapq
import random

from drivers.buttons import IrqButtons
from drivers.debounce import RELEASE_US, Debouncer
from machine import Pin
from spit.arbiter import Arbiter
from spit.keys import BUTTON_COUNT
from spit.ticks import TICKS_PERIOD, ticks_diff

MAX_BOUNCE_US = 6000


class Press:
    """One true press: the contact first touches at ``at`` and opens at ``at + hold``.

    ``bounce`` and ``release_bounce`` are the offsets (µs, ascending, even in number) of
    the extra level changes after the first touch and after the first opening.
    """

    def __init__(self, button, at, hold, bounce=(), release_bounce=()):
        self.button = button
        self.at = at
        self.hold = hold
        self.bounce = tuple(bounce)
        self.release_bounce = tuple(release_bounce)

    def level_changes(self):
        """``(time, pressed)`` for every contact change of this press, in time order."""
        changes = [(self.at, True)]
        for i, offset in enumerate(self.bounce):
            changes.append((self.at + offset, i % 2 == 1))
        opened = self.at + self.hold
        changes.append((opened, False))
        for i, offset in enumerate(self.release_bounce):
            changes.append((opened + offset, i % 2 == 0))
        return changes

    def __repr__(self):
        return "Press(%d, at=%d, hold=%d)" % (self.button, self.at, self.hold)


class Clock:
    """The fake ``ticks_us``: simulated time as the device's wrapped tick count."""

    def __init__(self, origin=0):
        self.origin = origin
        self.time = 0

    def __call__(self):
        return (self.origin + self.time) % TICKS_PERIOD


class DelayedDelivery:
    """Exact stamps, handlers run late and out of order across pins."""

    def __init__(self, rng, max_delay_us):
        self.rng = rng
        self.max_delay_us = max_delay_us

    def attach(self, sim):
        self.sim = sim
        self._waiting = set()
        self._last_delivery = [0] * BUTTON_COUNT

    def falling_edge(self, gpio, time):
        if gpio in self._waiting:
            return  # the pin's latch is already set: the edges merge
        self._waiting.add(gpio)
        delivery = max(time + self.rng.randint(0, self.max_delay_us), self._last_delivery[gpio])
        self._last_delivery[gpio] = delivery
        self.sim.schedule(delivery, self._deliver, (gpio, time))

    def _deliver(self, gpio, stamp):
        self._waiting.discard(gpio)
        self.sim.run_handler(gpio, stamp)


class DeviceIrq:
    """SPEC 4's pin-IRQ timing: entry latency, jitter, GPIO-order service."""

    ENTRY_US = 15
    READ_US = 16
    HANDLER_US = 46

    def __init__(self, rng, jitter_us=50):
        self.rng = rng
        self.jitter_us = jitter_us

    def attach(self, sim):
        self.sim = sim
        self._pending = {}  # gpio -> time of its first unserved edge
        self._in_service = False  # an interrupt is due or running
        self._busy_until = 0

    def falling_edge(self, gpio, time):
        self._pending.setdefault(gpio, time)
        if not self._in_service:
            self._schedule_entry(time)

    def jitter(self):
        """The extra entry delay of one interrupt, µs."""
        return self.rng.randint(0, self.jitter_us)

    def _schedule_entry(self, edge_time):
        self._in_service = True
        entry = max(edge_time + self.ENTRY_US + self.jitter(), self._busy_until)
        self.sim.schedule(entry, self._scan)

    def _scan(self, start=0):
        # One interrupt walks GPIO upward from 0 and serves each pin pending when the
        # walk reaches it; a pin below the walk that becomes pending waits for the next.
        now = self.sim.time
        for gpio in range(start, BUTTON_COUNT):
            if gpio in self._pending:
                del self._pending[gpio]
                self.sim.schedule(now + self.READ_US, self.sim.run_handler, (gpio, None))
                self.sim.schedule(now + self.HANDLER_US, self._scan, (gpio + 1,))
                return
        self._busy_until = now
        self._in_service = False
        if self._pending:
            self._schedule_entry(min(self._pending.values()))


class InputSim:
    """The firmware input path on fake hardware, run event by event in simulated time.

    ``delivery`` is a ``DelayedDelivery`` or ``DeviceIrq``; the main loop runs every
    ``loop_us`` (a random period in that range): ``Debouncer.update`` then
    ``Arbiter.commit_due``, as ``firmware/main.py`` does.
    """

    def __init__(
        self,
        delivery,
        *,
        origin=0,
        loop_us=(500, 5000),
        rng=None,
        ring_size=64,
        arbiter=None,
        release_us=RELEASE_US,
    ):
        self.clock = Clock(origin)
        self.rng = rng or random.Random(0)
        self.loop_us = loop_us
        self.pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(BUTTON_COUNT)]
        self.buttons = IrqButtons(self.pins, self.clock, ring_size)
        self.arbiter = arbiter or Arbiter()
        self.committed = []  # (button, stamp as simulated time, tie, commit time)
        self._events = []
        self._seq = 0
        self.delivery = delivery
        delivery.attach(self)
        self.debouncer = Debouncer(self.buttons, self.arbiter.add, self.clock(), release_us)

    @property
    def time(self):
        return self.clock.time

    def schedule(self, time, action, args=()):
        self._seq += 1
        heapq.heappush(self._events, (time, self._seq, action, args))

    def run(self, presses, until=None):
        """Play ``presses`` and run the main loop until everything is committed."""
        for press in presses:
            for time, pressed in press.level_changes():
                self.schedule(time, self._contact, (press.button, pressed))
        end = max((c[0] for p in presses for c in p.level_changes()), default=0)
        self.schedule(0, self._main_loop, (end + 3 * RELEASE_US if until is None else until,))
        while self._events:
            time, _, action, args = heapq.heappop(self._events)
            self.clock.time = time
            action(*args)
        return self.committed

    def run_handler(self, gpio, stamp):
        """Run the pin's real handler; the clock reads ``stamp`` if given, else now."""
        now = self.clock.time
        if stamp is not None:
            self.clock.time = stamp
        self.pins[gpio].fire()
        self.clock.time = now

    def stamp_time(self, stamp):
        """The simulated time of a committed stamp (assumes it is within 2**29 µs of now)."""
        return self.clock.time + ticks_diff(stamp, self.clock())

    def _contact(self, button, pressed):
        if self.pins[button].drive(0 if pressed else None, fire=False):
            self.delivery.falling_edge(button, self.clock.time)

    def _main_loop(self, until):
        now = self.clock()
        self.debouncer.update(now)
        self.arbiter.commit_due(now, self._record)
        if self.clock.time < until:
            low, high = self.loop_us
            self.schedule(self.clock.time + self.rng.randint(low, high), self._main_loop, (until,))

    def _record(self, button, stamp, tie):
        self.committed.append((button, self.stamp_time(stamp), tie, self.clock.time))
