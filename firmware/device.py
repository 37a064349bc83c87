"""The device: build the hardware from hardware_setup, then run the game loop for ever.

``main.py`` only calls ``main()`` here, so that everything else is flashed compiled
(.mpy) and nothing but that one line is compiled at boot.

Hold both SPIT buttons while powering on for the self-test. The USB console
(``mpremote connect auto``) reports a button held at power-on and every error the
loop recovered from, with its traceback (once for a fault that repeats: see
``handheld``).
"""

import array
import gc
import json
import os
import struct
import sys
import time

import machine

# MicroPython looks on the flash for a file named like an extensible built-in module
# (array, json, machine, os, struct, time) at every import of one, before it takes the
# built-in: 3 ms an import on the chip, some 60 ms of the boot. Found in sys.modules, the
# firmware's imports of them cost nothing (``make bench``'s emu_boot_to_title_ms).
for _module in (array, json, machine, os, struct, time):
    sys.modules[_module.__name__] = _module

import framebuf
import hardware_setup
from drivers.buttons import reserve_emergency_exception_buffer
from drivers.buzzer import Buzzer
from drivers.storage import Storage
from drivers.transcripts import Transcripts
from handheld import Handheld
from micropython import const
from spit import keys
from spit.render import Renderer
from spit.scheduler import HEAP

# The loop passes in milliseconds; a hang of this long resets the board.
WATCHDOG_MS = const(4000)
# Both SPIT buttons held at power-on: the self-test.
SELF_TEST_BUTTONS = const(1 << 7 | 1 << 15)


def power_on_seed():
    """The first match's seed from the chip's random source: two power-ons deal
    different games (the clock at boot is nearly the same number every time)."""
    seed = 0
    for byte in os.urandom(3):  # 24 bits: a small int on every port
        seed = seed << 8 | byte
    return seed


def held_at_power_on(mask):
    names = [keys.button_name(b) for b in range(keys.BUTTON_COUNT) if mask >> b & 1]
    return "held at power-on, ignored until released: " + ", ".join(names)


def report(error):
    """``error`` and its traceback on the USB console; an error whose message cannot be
    printed (its ``__str__`` raises) is named, and the loop goes on."""
    try:
        sys.print_exception(error)
    except Exception:  # noqa: BLE001 (the report must not stop the device)
        print("%s (its message cannot be printed)" % type(error).__name__)


def boot(clock=None, watchdog=None):
    """Build the device, stamping with ``clock`` (``time.ticks_us``); returns its
    ``Handheld``."""
    reserve_emergency_exception_buffer()  # before the capture registers hard IRQs
    clock = clock or time.ticks_us
    # First: it sets the clocks the PIO reads. The panel wakes from its reset while the
    # pictures and the capture are made, and is lit then.
    display = hardware_setup.display(start=False)
    renderer = Renderer(display, framebuf)
    # A frame's regions go out one a pass, the pile first: no pass is held up by a
    # whole frame (29.7 ms at worst on the emulated chip, 18.0 ms so).
    renderer.regions_per_call = 1
    HEAP.on = True  # the screens' drawing and the CPU seats' glances, locked
    storage = Storage()
    saved = storage.load()
    capture = hardware_setup.buttons(clock)
    buzzer = Buzzer(hardware_setup.buzzer_pwm(), saved.muted)
    hardware_setup.light(display)
    now = clock()
    handheld = Handheld(
        capture,
        now,
        saved,
        power_on_seed(),
        renderer,
        buzzer,
        storage,
        watchdog,
        transcripts=Transcripts(),
        clock=clock,
    )
    held = handheld.debouncer.held_since_start
    if held & SELF_TEST_BUTTONS == SELF_TEST_BUTTONS:
        handheld.controller.self_test(now)
    elif held:
        print(held_at_power_on(held))
    return handheld


def main():
    from machine import WDT

    # The imports' garbage goes before boot makes its long-lived buffers: made on a
    # heap still full of it, they scatter, and no large block is left free. (The
    # title's break collects what boot leaves.)
    gc.collect()
    handheld = boot(watchdog=WDT(timeout=WATCHDOG_MS))
    while True:
        if handheld.run(time.ticks_us):  # a new fault, on the error screen now
            report(handheld.last_error)
