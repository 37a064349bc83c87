"""``make bench``: measure the budgets of SPEC section 11 and print one JSON object.

Each ``bench_*`` module measures one area and returns a dict of figures. With
MicroPython's UF2 and the RP2040 boot ROM at hand (``PICO_UF2``/``PICO_BOOTROM``, or
``../shared/pico/``), the ``emu_*`` figures of the emulated Pico are added, and
``emu_runs`` gives the minimum, median and maximum of the last three runs of the same
firmware against the budgets less 15% (``bench_runs``).
"""

import json

from host_sim import (
    bench_display,
    bench_engine,
    bench_input,
    bench_loop,
    bench_runs,
    bench_save,
)
from host_sim.emu.attract import attract_figures
from host_sim.emu.emulated_pico import firmware_paths
from host_sim.emu.figures import figures as emu_figures

# Attract mode's heap in make bench: 20 emulated seconds take about three minutes of wall
# time here; `make soak` runs the two minutes (about 17).
BENCH_ATTRACT_MS = 20_000


def main():
    figures = {}
    figures.update(bench_input.figures())
    figures.update(bench_engine.figures())
    figures.update(bench_display.figures())
    figures.update(bench_loop.figures())
    figures.update(bench_save.figures())
    if firmware_paths() is not None:
        figures.update(emu_figures())
        figures.update(bench_display.emu_figures())
        figures.update(attract_figures(BENCH_ATTRACT_MS))
        figures["emu_heap_low_water_attract_ms"] = BENCH_ATTRACT_MS
        figures["emu_runs"] = bench_runs.record(figures)
    print(json.dumps(figures, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
