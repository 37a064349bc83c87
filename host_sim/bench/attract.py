"""The heap over two emulated minutes of attract mode: ``emu_heap_low_water_bytes``.

The board boots the firmware as ``main.py`` does (``device.boot()``, the firmware's
modules as .mpy, without ``main.py`` so that the loop does not start on its own),
leaves the title for attract mode, where the CPU plays itself with the screen drawn,
and reads ``gc.mem_free()`` every 64 passes; garbage counts until it is
collected, so the low water is the tightest the heap got. The capture is the pin-IRQ
backend: stepping the PIO with every CPU cycle makes the emulator four times slower,
and the heap is the same either way. Emulated RP2040 figures: a real Pico is a little
slower, and so plays a little less in the same two minutes.

Without the SPI log the emulator runs about an emulated second every eight seconds
here: two minutes take about seventeen.
"""

from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico
from host_sim.emu.fs_image import board_files

ATTRACT_MS = 120_000

_SCRIPT = """
import gc, time
import device
import hardware_setup
pio_buttons = hardware_setup.buttons
hardware_setup.buttons = lambda clock: pio_buttons(clock, CAPTURE)
gc.collect()  # as device.main does: the imports' garbage goes before boot's buffers
handheld = device.boot()
low = gc.mem_free()
start = time.ticks_ms()
passes = 0
while time.ticks_diff(time.ticks_ms(), start) < %d:
    handheld.step(time.ticks_us())
    passes += 1
    if passes & 63 == 0:
        free = gc.mem_free()
        if free < low:
            low = free
print(low, handheld.controller.mode, handheld.errors, passes)
"""


def attract_figures(ms=ATTRACT_MS, capture="irq"):
    with EmulatedPico(files=board_files(main=False), log_spi=False) as pico:
        pico.run_us(BOOT_US)
        script = _SCRIPT.replace("CAPTURE", repr(capture)) % ms
        out = pico.exec(script, within_us=(ms + 10_000) * 1000)
    low, mode, errors, passes = (int(value) for value in out.split())
    if errors:
        raise AssertionError("the game loop failed %d times in attract mode" % errors)
    return {
        "emu_heap_low_water_bytes": low,
        "emu_attract_passes": passes,
        "emu_attract_mode": mode,
    }
