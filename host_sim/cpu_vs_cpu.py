"""Self-play from the command line: CPU against CPU, one JSON line per game (then, for a
game of rounds, a summary).

    python -m host_sim.cpu_vs_cpu --seed 7 --games 20 --p1 quick --stack on
    python -m host_sim.cpu_vs_cpu --seed 7 --games 20 --vm micropython
    python -m host_sim.cpu_vs_cpu --game speed --games 20 --p2 lightning

``--vm micropython`` runs the very same firmware code (``spit.selfplay.run_lines``)
inside the MicroPython virtual machine and prints what it printed; the lines are
byte-identical to the CPython run. The rule flags are built from the firmware's
option table, so every option the settings menu knows is a flag here too; a game
takes those it keeps (its ``KEPT_OPTIONS``: Speed none of Spit's rules).
"""

import sys

from spit import games
from spit.cpu import LEVEL_NAMES
from spit.options import CHOICES
from spit.selfplay import run_lines

from host_sim.command_line import OneLineParser, add_rule_options, count, options_of, seed

VMS = ("cpython", "micropython")


def parser():
    parse = OneLineParser(
        prog="python -m host_sim.cpu_vs_cpu",
        name="host_sim.cpu_vs_cpu",
        description="Play CPU against CPU and print one JSON line per game (and a summary).",
    )
    names = tuple(games.NAMES)
    parse.add_argument(
        "--game",
        choices=names,
        default=names[0],
        help="%s (default %s)" % ("|".join(names), names[0]),
    )
    parse.add_argument("--seed", type=seed, default=1, help="seed of the run (default 1)")
    parse.add_argument("--games", type=count, default=10, help="games to play (default 10)")
    for seat in (1, 2):
        parse.add_argument(
            "--p%d" % seat,
            choices=LEVEL_NAMES,
            default="steady",
            help="player %d's level (default steady)" % seat,
        )
    parse.add_argument("--vm", choices=VMS, default="cpython", help="where the firmware code runs")
    add_rule_options(parse)
    return parse


def vm_code(name, seed, count, options, levels):
    """The MicroPython program that prints the same lines as ``run_lines``."""
    return (
        "from spit.options import Options\n"
        "from spit.selfplay import run_lines\n"
        "for line in run_lines(%d, %d, Options.parse(%r), (%r, %r), %r):\n"
        "    print(line)\n" % (seed, count, options.text(), levels[0], levels[1], name)
    )


def run_in_vm(code):
    """Run ``code`` in the MicroPython VM with the firmware on its path; its stdout."""
    from host_sim.vm.micropython_vm import run

    return run(code)


def main(argv=None):
    parse = parser()
    args = parse.parse_args(argv)
    options = options_of(args)
    levels = (args.p1, args.p2)
    kept = games.rules(args.game).KEPT_OPTIONS
    given = [
        name for name, values in CHOICES if name not in kept and getattr(args, name) != values[0]
    ]
    if given:
        parse.error(
            "--game %s takes no rule options (given: --%s)" % (args.game, " --".join(given))
        )
    if args.vm == "micropython":
        sys.stdout.write(run_in_vm(vm_code(args.game, args.seed, args.games, options, levels)))
    else:
        for line in run_lines(args.seed, args.games, options, levels, args.game):
            print(line)


if __name__ == "__main__":
    main()
