"""Presses at exact emulated times through the firmware's own input path, and what it made
of them: the capture backend's stamps, and the arbiter's commits.

``record(pico, events, capture="irq")`` runs ``_PROBE`` on the board: it builds the
capture backend with ``hardware_setup.buttons`` (``IrqButtons`` or ``PioButtons``), a
``Debouncer`` and an ``Arbiter``, and runs them in a main loop as ``handheld.Handheld``
does, while the emulator presses the buttons at the given times. A busy loop, like the
device's: interrupts arrive while Python code runs.
"""

import ast

from host_sim.emu.emulated_pico import EmulatedPico

TICKS_PERIOD = 1 << 30
_LEAD_US = 2_000  # from the board's "ready" to the first scheduled edge
_TAIL_US = 15_000  # after the last edge: the arbiter's settle window and a margin

_PROBE = """
import time
import hardware_setup
from drivers.debounce import Debouncer
from spit.arbiter import Arbiter


class Tee:
    # The capture backend, with every (button, t) it hands the debouncer kept aside.
    def __init__(self, capture, stamps):
        self.capture = capture
        self.stamps = stamps
        self.consumer = None

    def drain(self, consumer):
        self.consumer = consumer
        self.capture.drain(self.edge)

    def edge(self, button, t):
        self.stamps.append((button, t))
        self.consumer(button, t)

    def pressed_mask(self):
        return self.capture.pressed_mask()


def probe(backend, duration_us):
    stamps = []
    commits = []
    capture = hardware_setup.buttons(time.ticks_us, backend)
    arbiter = Arbiter()

    def commit(button, t, tie):
        commits.append((button, t, tie))

    start = time.ticks_us()
    debouncer = Debouncer(Tee(capture, stamps), arbiter.add, start)
    print("ready")
    now = start
    while time.ticks_diff(now, start) < duration_us:
        now = time.ticks_us()
        debouncer.update(now)
        arbiter.commit_due(now, commit)
    if backend == "pio":
        import rp2
        rp2.StateMachine(0).active(0)
        rp2.PIO(0).irq(None)
    for pin in hardware_setup.button_pins():
        pin.irq(None)
    print(repr((stamps, commits, capture.overflows, arbiter.late)))
"""


class Recording:
    """What the firmware's input path made of the presses.

    ``stamps``: ``(button, t)`` as the capture backend delivered them, ticks_us.
    ``commits``: ``(button, t, tie)`` in the arbiter's commit order.
    ``overflows``, ``late``: the capture ring's and the arbiter's counters."""

    def __init__(self, stamps, commits, overflows, late):
        self.stamps = stamps
        self.commits = commits
        self.overflows = overflows
        self.late = late


def ticks_minus(t, edge_us):
    """``t`` (a ticks_us stamp) minus ``edge_us`` (timer µs), across the 2**30 wrap."""
    d = (t - edge_us) % TICKS_PERIOD
    return d - TICKS_PERIOD if d >= TICKS_PERIOD // 2 else d


def record(pico: EmulatedPico, events, capture="irq", t0_us=None):
    """Press and release buttons at ``(offset_us, gpio, down)`` and return ``(t0_us,
    Recording)``: offsets count from ``t0_us`` (timer µs; it must leave the board 50 ms
    to get ready), by default shortly after the board is ready."""
    span = max(offset for offset, _, _ in events) + _TAIL_US
    pico.exec(_PROBE)
    if t0_us is not None:
        span += t0_us - pico.now_us
    pico.write(b"probe(%r, %d)\x04" % (capture, span + _LEAD_US))
    pico.expect(b"ready", 2_000_000, fail=b"Traceback")
    t0 = pico.now_us + _LEAD_US if t0_us is None else t0_us
    if t0 < pico.now_us:
        raise ValueError("t0_us %.1f has passed: the board was ready at %.1f" % (t0, pico.now_us))
    pico.buttons([(t0 + offset, gpio, down) for offset, gpio, down in events])
    output = pico.expect(b"\x04>", span * 4 + 2_000_000).decode()
    body, _, error = output.partition("\x04")
    if error.strip("\x04>"):
        raise AssertionError("probe failed on the board:\n" + error + body)
    lines = [line for line in body.splitlines() if line.startswith("(")]
    stamps, commits, overflows, late = ast.literal_eval(lines[-1])
    return t0, Recording(stamps, [(b, t, bool(tie)) for b, t, tie in commits], overflows, late)
