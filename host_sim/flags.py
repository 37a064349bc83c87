"""Command-line flags shared by the simulator and self-play: one per rule option."""

from spit.options import CHOICES, Options


def add_rule_options(parser):
    rules = parser.add_argument_group("rule options (default first)")
    for name, values in CHOICES:
        rules.add_argument("--" + name, choices=values, default=values[0], help="|".join(values))


def options_of(args):
    return Options(**{name: getattr(args, name) for name, _ in CHOICES})
