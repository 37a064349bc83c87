"""Button capture by a PIO state machine: every pin change stamped to 96 ns (device only).

The second capture backend (SPEC 4). One state machine samples GPIO ``in_base`` to
``in_base + 15`` every tick and pushes a pair of words, the 16 levels and a tick
counter, whenever they change; ``drivers.pio_events`` turns the pairs into the same
``(button, t)`` presses as the pin-IRQ backend. The samples are taken by the PIO, so
the CPU's interrupt latency, flash stalls and garbage collection cannot skew them.

The program: X = the last pushed sample (0 forces a push: no sample is 0, because the
low half of a sample word is all ones), Y = the tick counter, OSR = where Y is parked
while Y holds the sample for ``jmp x!=y``. Every path from ``tick`` back to ``tick``
takes exactly 12 cycles and decrements Y once, so ticks convert exactly to time:
12 / 125 MHz = 96 ns per tick, the resolution of the timestamps (80 ns at the RP2350's
150 MHz). Buttons that change within one tick share a stamp, which the arbiter calls a
tie. ``tests/pio_emulator.py`` runs this program on a cycle model of the PIO.

    cycle  no change          change, FIFO room   change, FIFO full   heartbeat (Y was 0)
    1      jmp y-- sample     (same)              (same)              jmp y-- falls through
    2      mov isr, ~null     (same)              (same)              mov isr, ~null
    3      in pins, 16        (same)              (same)              in null, 2
    4      mov osr, y         (same)              (same)              mov y, isr
    5      mov y, isr         (same)              (same)              mov x, null
    6      jmp x!=y changed   (taken)             (taken)             jmp tick [6]
    7      jmp restore [4]    mov x, status       mov x, status       ...
    8      ...                jmp !x full         jmp !x full (taken)
    9      ...                mov x, y            jmp restore [2]
    10     ...                in null, 16 (push)  ...
    11     ...                in osr, 32 (push)   ...
    12     mov y, osr         mov y, osr          mov y, osr          ... (12)

- The sample is cycle 3: ``in pins, 16`` on an ISR of all ones shifts right, leaving
  the pins in the high half and ones in the low half.
- Pushes use autopush at 32 bits, one cycle each: ``in null, 16`` brings the pins down
  to bits 0-15 (word 1), ``in osr, 32`` loads the counter (word 2). Both are below
  2**30, small ints on the device, so the FIFO handler allocates nothing.
- ``mov x, status`` is all ones while the joined 8-word RX FIFO holds fewer than 7
  words, so a pair is never split. When the FIFO is full X becomes 0 and the change is
  pushed on a later tick, with that tick's stamp: late but never lost or mis-framed.
- Heartbeat: when Y has run down, it is reloaded with 2**30 - 1 (``in null, 2`` on an
  ISR of all ones) and X is cleared, so the next tick pushes a pair. That heartbeat
  tick counts as one tick (its missed sample is taken 96 ns later), which keeps the
  counter exact modulo 2**30 for the decoder.

A hard interrupt on "RX FIFO not empty" decodes the pairs at once and puts only the
presses, ``(button, t)``, into a ring that the main loop drains: releases and bounce
take no room, so the ring's ``ring_size`` slots hold that many presses. One call takes
at most one FIFO's worth of pairs (4); the interrupt is level-triggered, so more pairs
bring it back, and a bounce storm cannot hold the CPU in one long handler. ``PIO.irq``
with the RXNEMPTY bit as trigger takes the whole PIO block's IRQ 0, so give this
backend a PIO block of its own.

What is guaranteed: while the handler keeps up (a pair every 96 ns at most, four in
the FIFO), every change of the 16 pins is stamped to its tick. If the FIFO fills,
the state machine keeps sampling but cannot push: changes in that time merge into
the next pushed sample and are stamped when it is pushed, late. ``fifo_full`` counts
the handler calls that found the FIFO full, each a possible merge.

Timestamps match ``ticks_us``: the first pair is pushed 15 cycles after the state
machine starts, and the clock is read on both sides of the start, so the origin is
the middle of those two readings (a few µs of uncertainty, where reading the clock
after the first pair had arrived put every stamp ~19 µs late).

Constructor
    ``PioButtons(in_base, clock, sys_hz, sm_id=0, ring_size=64, button_bits=None)``:
    ``in_base`` the ``Pin`` of GPIO 0 (button pins contiguous from it, inputs with
    pull-ups), ``clock`` ``time.ticks_us``, ``sys_hz`` ``machine.freq()``.

Methods
    ``drain(consumer)``, ``is_pressed(button)``, ``pressed_mask()``: as ``IrqButtons``.

Class variables
    ``overflows``: presses dropped because the ring was full.
    ``fifo_full``: handler calls that found the FIFO full (changes may have merged).
"""

# ruff: noqa: F821  (the PIO assembler provides the instruction names to the program)

import sys

from micropython import const
from rp2 import PIO, StateMachine, asm_pio
from spit.ticks import ticks_add, ticks_diff

from drivers.pio_events import PioDecoder
from drivers.ring import Ring

_RX_ROOM_FOR_PAIR = const(7)  # FIFO level below which a whole pair fits (8 words joined)
_RX_FULL = const(8)
_PAIRS_PER_CALL = const(4)
_DEFAULT_RING = const(64)


@asm_pio(in_shiftdir=PIO.SHIFT_RIGHT, autopush=True, push_thresh=32, fifo_join=PIO.JOIN_RX)
def change_capture():
    wrap_target()
    label("tick")
    jmp(y_dec, "sample")
    mov(isr, invert(null))
    in_(null, 2)
    mov(y, isr)
    mov(x, null)
    jmp("tick")[6]
    label("sample")
    mov(isr, invert(null))
    in_(pins, 16)
    mov(osr, y)
    mov(y, isr)
    jmp(x_not_y, "changed")
    jmp("restore")[4]
    label("changed")
    mov(x, status)
    jmp(not_x, "full")
    mov(x, y)
    in_(null, 16)
    in_(osr, 32)
    label("restore")
    mov(y, osr)
    wrap()
    label("full")
    jmp("restore")[2]


def status_rx_below(level):
    """EXECCTRL bits making ``mov x, status`` test "RX FIFO level < level"."""
    # RP2040: STATUS_SEL is bit 4, STATUS_N bits 0-3; the RP2350 moved STATUS_SEL to 5-6.
    select = 1 << 5 if "RP2350" in getattr(sys.implementation, "_machine", "") else 1 << 4
    return select | level


def execctrl_index(program):
    """Where EXECCTRL sits in what ``asm_pio`` returned: the program, a load offset per
    PIO block (two up to MicroPython 1.25; three from 1.26, for the RP2350's PIO2), then
    EXECCTRL, SHIFTCTRL and the out, set and side-set pin settings."""
    return len(program) - 5


change_capture[execctrl_index(change_capture)] |= status_rx_below(_RX_ROOM_FOR_PAIR)


class PioButtons:
    def __init__(self, in_base, clock, sys_hz, sm_id=0, ring_size=_DEFAULT_RING, button_bits=None):
        self._ring = Ring(ring_size, "B")
        self._decoder = PioDecoder(sys_hz, button_bits)
        # The ring's and the decoder's own, bound once: the loop calls them every pass,
        # and a method of this class calling them would be a call more (about 15 µs).
        self.drain = self._ring.drain
        self.pressed_mask = self._decoder.pressed_mask
        self.fifo_full = 0
        sm = StateMachine(sm_id, change_capture, in_base=in_base)
        self._sm = sm
        # Y = 0 makes the first tick a heartbeat, which pushes the levels at start.
        sm.exec("set(x, 0)")
        sm.exec("set(y, 0)")
        before = clock()
        sm.active(1)
        after = clock()
        pins = sm.get()
        counter = sm.get()
        self._decoder.start(pins, counter, ticks_add(before, ticks_diff(after, before) // 2))
        PIO(sm_id >> 2).irq(handler=self._on_fifo, trigger=1 << (sm_id & 3), hard=True)

    @property
    def overflows(self):
        return self._ring.overflows

    def _on_fifo(self, _pio):
        # Hard IRQ, level-triggered while the FIFO is not empty. Small ints only: the
        # pins word is below 2**16, the counter below 2**30.
        sm = self._sm
        decoder = self._decoder
        ring = self._ring
        if sm.rx_fifo() == _RX_FULL:
            self.fifo_full += 1
        pairs = _PAIRS_PER_CALL
        while pairs and sm.rx_fifo() >= 2:
            pairs -= 1
            went_down = decoder.feed(sm.get(), sm.get())
            button = 0
            while went_down:
                if went_down & 1:
                    ring.put(button, decoder.t)
                went_down >>= 1
                button += 1

    def is_pressed(self, button):
        return self._decoder.is_pressed(button)
