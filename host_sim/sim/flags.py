"""The simulator's command line: the game, seats, seed, rule options, pace, scale, modes.

Every error is one line naming the flag and the problem, exit status 2
(``host_sim: error: --seed: 'x' is not a whole number``); ``--help`` is the whole usage.
"""

import argparse

from spit import games
from spit.cpu import LEVEL_NAMES
from spit.options import CHOICES, Options

from host_sim.command_line import OneLineParser, positive_int, seed
from host_sim.sim.keyboard import help_lines
from host_sim.sim.simulated_device import DEFAULT_CPU, HUMAN

RECORD_DIR = "transcripts/sim"
SHOTS_DIR = "screenshots"
SCALES = (2, 3)


def seat(text):
    """``human``, ``cpu`` (steady) or ``cpu:LEVEL`` -> ``HUMAN`` or the level's name."""
    if text == HUMAN:
        return HUMAN
    if text == "cpu":
        return DEFAULT_CPU
    if text.startswith("cpu:") and text[4:] in LEVEL_NAMES:
        return text[4:]
    raise argparse.ArgumentTypeError(
        "%r is not a seat: human, cpu or cpu:LEVEL with LEVEL one of %s"
        % (text, ", ".join(LEVEL_NAMES))
    )


def pace(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text) from None
    if not 0 < value <= 100:
        raise argparse.ArgumentTypeError("must be above 0 and at most 100, not %s" % text)
    return value


def parser():
    parse = OneLineParser(
        prog="python -m host_sim",
        name="host_sim",
        description=(
            "Play Spit or Speed on the simulated handheld: a window, the terminal, or headless."
        ),
        epilog="\n".join(help_lines() + ["F1 (the terminal: ?) shows the keys, Esc quits."]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    names = "|".join(games.NAMES)
    parse.add_argument(
        "--game",
        choices=games.NAMES,
        help="the game: %s (default %s; L/R switch it on the title)" % (names, games.NAMES[0]),
    )
    seats = "human, cpu or cpu:LEVEL (%s)" % "|".join(LEVEL_NAMES)
    parse.add_argument("--p1", type=seat, help="player 1 (bottom): %s; default human" % seats)
    parse.add_argument("--p2", type=seat, help="player 2 (top): %s; default cpu:steady" % seats)
    parse.add_argument("--seed", type=seed, help="the first match's seed (default: drawn)")
    parse.add_argument("--pace", type=pace, help="the device runs this many times faster")
    parse.add_argument("--scale", type=int, choices=SCALES, help="window scale (default: fits)")
    parse.add_argument("--terminal", action="store_true", help="the terminal view, not a window")
    parse.add_argument("--headless", action="store_true", help="CPU against CPU, JSON lines")
    parse.add_argument("--games", type=positive_int, help="games to play with --headless")
    parse.add_argument("--replay", metavar="FILE", help="play a transcript back on screen")
    check = "with --replay: no screen; exit 0 only if every word is made and the game ends"
    parse.add_argument("--check", action="store_true", help=check + " (--headless too)")
    where = "where finished games' transcripts go (%s; '' for nowhere)" % RECORD_DIR
    parse.add_argument("--record", metavar="DIR", help=where)
    parse.add_argument("--shots", metavar="DIR", help="where F12 screenshots go (%s)" % SHOTS_DIR)
    fresh = "start from the default settings and tallies, saved over the old ones (kept as .bak)"
    parse.add_argument("--fresh", action="store_true", help=fresh)
    fewer = [
        "%s takes only %s" % (games.title(name), _flags(games.rules(name).KEPT_OPTIONS))
        for name in games.NAMES
        if len(games.rules(name).KEPT_OPTIONS) < len(CHOICES)
    ]
    rules = parse.add_argument_group("rule options (default first; %s)" % "; ".join(fewer))
    for name, values in CHOICES:
        rules.add_argument("--" + name, choices=values, help="|".join(values))
    return parse


def parse_args(argv=None):
    """The flags, checked together and with their defaults filled in."""
    parse = parser()
    args = parse.parse_args(argv)
    rules = [name for name, _ in CHOICES if getattr(args, name) is not None]
    if args.replay is not None and args.games is not None:
        parse.error("--replay plays the transcript's one game: --games does not apply")
    if args.check and args.replay is None:
        parse.error("--check checks a transcript: add --replay FILE")
    if args.check and (args.scale or args.terminal):
        parse.error("--check shows nothing: --scale and --terminal do not apply")
    if args.games is not None and not args.headless:
        parse.error("--games counts headless games: add --headless")
    if args.headless and HUMAN in (args.p1, args.p2):
        parse.error("--headless plays CPU against CPU: a human seat needs the window or terminal")
    if args.headless and (args.scale or args.terminal):
        parse.error("--headless shows nothing: --scale and --terminal do not apply")
    if args.replay is not None:
        given = [
            flag
            for flag, value in (
                ("--game", args.game),
                ("--p1", args.p1),
                ("--p2", args.p2),
                ("--seed", args.seed),
            )
            if value is not None
        ] + ["--" + name for name in rules]
        if given:
            parse.error(
                "--replay takes the game, seed, options and seats from the transcript, not %s"
                % " ".join(given)
            )
        args.check = args.check or args.headless  # a replay with no view is a check
    kept = games.rules(args.game or games.NAMES[0]).KEPT_OPTIONS
    unused = ["--" + name for name in rules if name not in kept]
    if unused:
        parse.error(
            "--game %s does not take %s (%s takes %s)"
            % (args.game, " ".join(unused), games.title(args.game), _flags(kept))
        )
    if args.fresh and (args.headless or args.replay is not None):
        parse.error("--fresh starts the saved settings afresh: --headless and --replay keep none")
    # What the command line sets for this run over the saved settings (``SimSave``).
    args.given = [flag for flag in ("game", "p1", "p2") if getattr(args, flag) is not None]
    args.given += rules
    if args.headless:
        args.p1 = args.p1 or DEFAULT_CPU
        args.p2 = args.p2 or DEFAULT_CPU
        args.games = args.games or 1
    args.p1, args.p2 = _seats(args)
    args.game = args.game or games.NAMES[0]
    args.pace = args.pace or 1.0
    args.options = Options(**{name: getattr(args, name) or values[0] for name, values in CHOICES})
    return args


def _flags(names):
    return ", ".join("--" + name for name in names)


def _seats(args):
    return (args.p1 or HUMAN, args.p2 or DEFAULT_CPU)
