"""Button hardware in simulated time: bouncing contacts, interrupt delivery, a main loop.

Runs the firmware's own input path (``drivers.buttons`` with its real IRQ handler,
``drivers.debounce``, ``spit.arbiter``) on fake pins and a fake microsecond clock, event
by event, so tests and the bench can ask what the device commits for presses whose true
times are known. Two models of how an edge reaches the handler:

- ``DelayedDelivery``: the stamp is the edge's true time (as the PIO backend gives), but
  the handler runs up to ``max_delay_us`` later, so presses of different pins arrive out
  of order. Edges of one pin are delivered in order and merge while one waits, as the
  RP2040's per-pin interrupt latch does.
- ``DeviceIrq``: the rp2 port's pin interrupts: entry latency and jitter, then each
  group of eight GPIO read once per entry and its pending pins served in GPIO order.

Button ``b`` is wired to GPIO ``b``. Times are whole microseconds since the start of the
run; the firmware sees them as ``ticks_us`` values, ``(origin + time) mod 2**30``.
"""

import heapq
import random

from drivers.buttons import IrqButtons
from drivers.debounce import RELEASE_US, Debouncer
from drivers.ring import Ring
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
    """Exact stamps that reach the main loop late and out of order across pins, as the
    PIO backend's do (its FIFO interrupt follows the stamp by tens of µs, more when
    another interrupt runs first): the arbiter's settle window must put them in order.
    Edges of one pin are delivered in order and merge while one waits, as the RP2040's
    per-pin interrupt latch does."""

    def __init__(self, rng, max_delay_us):
        self.rng = rng
        self.max_delay_us = max_delay_us

    def capture(self, pins, clock, ring_size):
        self._stamps = ExactStamps(pins, ring_size)
        return self._stamps

    def attach(self, sim):
        self.sim = sim
        self._waiting = set()
        self._last_delivery = [0] * BUTTON_COUNT

    def falling_edge(self, gpio, time):
        if gpio in self._waiting:
            return
        self._waiting.add(gpio)
        delivery = max(time + self.rng.randint(0, self.max_delay_us), self._last_delivery[gpio])
        self._last_delivery[gpio] = delivery
        self.sim.schedule(delivery, self._deliver, (gpio, time))

    def _deliver(self, gpio, time):
        self._waiting.discard(gpio)
        self._stamps.put(gpio, self.sim.ticks_at(time))


class ExactStamps:
    """A capture backend fed exact ``(button, stamp)`` pairs: the real ring, and the
    levels of the fake pins."""

    def __init__(self, pins, ring_size):
        self._ring = Ring(ring_size, "B")
        self._pins = pins

    @property
    def overflows(self):
        return self._ring.overflows

    def put(self, button, stamp):
        self._ring.put(button, stamp)

    def drain(self, consumer):
        self._ring.drain(consumer)

    def pressed_mask(self):
        mask = 0
        for button, pin in enumerate(self._pins):
            if not pin.value():
                mask |= 1 << button
        return mask


class DeviceIrq:
    """How MicroPython's rp2 port delivers pin interrupts (``gpio_irq`` in
    ``ports/rp2/machine_pin.c``; SPEC 4).

    One interrupt entry reads the status of GPIO 0-7 once, calls the handler of each
    pin pending then, in GPIO order, then does the same for GPIO 8-15. A pin whose
    edge comes after its group was read stays pending: the interrupt is entered
    again once this one returns. An edge on a pin already pending merges into it.

    Times, from the emulated RP2040 (SPEC 4): a lone press is stamped ``ENTRY_US``
    after its edge plus up to ``jitter_us`` (the CPU finishing other work; 6 µs
    measured on the emulated chip, 10 assumed here); the
    group is read ``READ_US`` before the first handler reads the clock; one handler
    takes ``HANDLER_US``. These are the model's figures, not measurements.
    """

    ENTRY_US = 20
    READ_US = 4
    HANDLER_US = 56
    GROUPS = 2  # GPIO 0-7 and 8-15: the buttons

    def __init__(self, rng, jitter_us=10):
        self.rng = rng
        self.jitter_us = jitter_us

    def capture(self, pins, clock, ring_size):
        return IrqButtons(pins, clock, ring_size)

    def attach(self, sim):
        self.sim = sim
        self._pending = {}  # gpio -> time of its first unserved edge
        self._in_service = False  # an interrupt is due or running
        self._busy_until = -self.ENTRY_US

    def falling_edge(self, gpio, time):
        self._pending.setdefault(gpio, time)
        if not self._in_service:
            self._schedule_entry(time)

    def jitter(self):
        """The extra entry delay of one interrupt, µs."""
        return self.rng.randint(0, self.jitter_us)

    def _schedule_entry(self, edge_time):
        self._in_service = True
        start = max(edge_time + self.jitter(), self._busy_until)
        self.sim.schedule(start + self.ENTRY_US - self.READ_US, self._read_group, (0,))

    def _read_group(self, group):
        now = self.sim.time
        if group == self.GROUPS:
            self._busy_until = now
            self._in_service = False
            if self._pending:
                self._schedule_entry(min(self._pending.values()))
            return
        served = sorted(g for g in self._pending if g // 8 == group)
        for k, gpio in enumerate(served):
            del self._pending[gpio]
            at = now + self.READ_US + k * self.HANDLER_US
            self.sim.schedule(at, self.sim.run_handler, (gpio,))
        self.sim.schedule(now + len(served) * self.HANDLER_US, self._read_group, (group + 1,))


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
        self.buttons = delivery.capture(self.pins, self.clock, ring_size)
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

    def run_handler(self, gpio):
        """Run the pin's real handler now, as its interrupt does."""
        self.pins[gpio].fire()

    def ticks_at(self, time):
        """The ``ticks_us`` value at simulated ``time``."""
        return (self.clock.origin + time) % TICKS_PERIOD

    def stamp_time(self, stamp):
        """The simulated time of a committed stamp (assumes it is within 2**29 µs of now)."""
        return self.clock.time + ticks_diff(stamp, self.clock())

    def _contact(self, button, pressed):
        pin = self.pins[button]
        was_high = pin.value()
        pin.drive(0 if pressed else None, fire=False)
        if was_high and not pin.value():
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
