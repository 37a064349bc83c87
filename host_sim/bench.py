"""``make bench``: measure the budgets of SPEC section 11 and print one JSON object.

Each ``bench_*`` module measures one area and returns a dict of figures.
"""

import json

from host_sim import bench_engine, bench_input


def main():
    figures = {}
    figures.update(bench_input.figures())
    figures.update(bench_engine.figures())
    print(json.dumps(figures, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
