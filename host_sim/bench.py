"""``make bench``: measure the budgets of SPEC section 11 and print one JSON object.

Each ``bench_*`` module measures one area and returns a dict of figures.
"""

import json

from host_sim import bench_display, bench_engine, bench_input, bench_loop, bench_save


def main():
    figures = {}
    figures.update(bench_input.figures())
    figures.update(bench_engine.figures())
    figures.update(bench_display.figures())
    figures.update(bench_loop.figures())
    figures.update(bench_save.figures())
    print(json.dumps(figures, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
