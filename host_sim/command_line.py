"""Command-line pieces shared by the simulator, self-play and ``make emu``: a parser whose
errors are one line, the checks of whole numbers and seeds, and one flag per rule option."""

import argparse

from spit.options import CHOICES, Options

_ARGUMENT = "argument "


class OneLineParser(argparse.ArgumentParser):
    """argparse, but an error is one line, ``NAME: error: --flag: what is wrong``, and exit
    status 2: argparse's whole usage first buries the line that matters. ``--help`` stays
    full. ``name`` (default: ``prog``) begins the line."""

    def __init__(self, *args, name=None, **kwargs):
        kwargs.setdefault("allow_abbrev", False)  # --game is not --games
        super().__init__(*args, **kwargs)
        self.name = name or self.prog

    def error(self, message):
        if message.startswith(_ARGUMENT):
            message = message[len(_ARGUMENT) :]
        self.exit(2, "%s: error: %s\n" % (self.name, message))


def whole_number(text):
    """``text`` as a whole number, or the flag's one-line error."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None


def count(text):
    value = whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more, not %d" % value)
    return value


def positive_int(text):
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, not %d" % value)
    return value


def seed(text):
    value = whole_number(text)
    if not 0 <= value < 1 << 32:
        raise argparse.ArgumentTypeError("a seed is from 0 to 4294967295, not %d" % value)
    return value


def add_rule_options(parser):
    rules = parser.add_argument_group("rule options (default first)")
    for name, values in CHOICES:
        rules.add_argument("--" + name, choices=values, default=values[0], help="|".join(values))


def options_of(args):
    return Options(**{name: getattr(args, name) for name, _ in CHOICES})
