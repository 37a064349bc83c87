"""``make bench``: measure the budgets of SPEC section 11 and print one JSON object.

Each module of ``host_sim.bench`` measures one family of figures and returns a dict of
them. With MicroPython's UF2 and the RP2040 boot ROM at hand (``PICO_UF2``/``PICO_BOOTROM``, or
``../shared/pico/``), the ``emu_*`` figures of the emulated Pico are added, and
``emu_runs`` gives the minimum, median and maximum of the last three runs of the same
firmware against the budgets less 15% (``runs``).
"""

import json

from host_sim.bench import engine, input_path, main_loop, renderer, runs, save_file
from host_sim.bench.attract import attract_figures
from host_sim.bench.emulated import figures as emu_figures
from host_sim.emu.emulated_pico import firmware_paths

# Attract mode's heap in make bench: 20 emulated seconds take about three minutes of wall
# time here; `make soak` runs the two minutes (about 17).
BENCH_ATTRACT_MS = 20_000


def main():
    figures = {}
    figures.update(input_path.figures())
    figures.update(engine.figures())
    figures.update(renderer.figures())
    figures.update(main_loop.figures())
    figures.update(save_file.figures())
    if firmware_paths() is not None:
        figures.update(emu_figures())
        figures.update(renderer.emu_figures())
        figures.update(attract_figures(BENCH_ATTRACT_MS))
        figures["emu_heap_low_water_attract_ms"] = BENCH_ATTRACT_MS
        figures["emu_runs"] = runs.record(figures)
    print(json.dumps(figures, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
