"""The rule options of SPEC section 2, with the default first in each list.

The same names and values appear in the settings menu, the simulator's flags
and the transcript header (``Options.text()`` / ``Options.parse()``).

>>> Options.parse("layout=3x5 middle=one").text().split()[:4]
['layout=3x5', 'middle=one', 'pick=slap', 'stack=off']
"""

WORDS = ("SPIT", "SLAM")  # what the players call out, and press, to spit

CHOICES = (
    ("layout", ("1-5", "3x5", "1-4")),
    ("middle", ("two", "one")),
    ("pick", ("slap", "winner")),
    ("stack", ("off", "on")),
    ("score", ("out", "points")),
    ("match", ("bo3", "single")),
    ("word", WORDS),
    ("spit", ("call", "auto")),
    ("quick", ("on", "off")),
    ("counts", ("off", "on")),
)

# Pile sizes of each layout, left to right as the player sees them.
LAYOUTS = {"1-5": (1, 2, 3, 4, 5), "3x5": (3, 3, 3, 3, 3), "1-4": (1, 2, 3, 4)}


def after(values, value):
    """The value after ``value`` in ``values``, round to the first."""
    return values[(values.index(value) + 1) % len(values)]


class OptionError(ValueError):
    pass


def values_of(name):
    for option, values in CHOICES:
        if option == name:
            return values
    raise OptionError("no option %r" % name)


class Options:
    """One value per option; attributes named as the options (``options.layout``)."""

    def __init__(self, **chosen):
        for name, values in CHOICES:
            setattr(self, name, values[0])
        for name, value in chosen.items():
            self.set(name, value)

    def set(self, name, value):
        if value not in values_of(name):
            choices = "|".join(values_of(name))
            raise OptionError("%s must be one of %s, not %r" % (name, choices, value))
        setattr(self, name, value)

    def get(self, name):
        values_of(name)
        return getattr(self, name)

    @property
    def pile_sizes(self):
        return LAYOUTS[self.layout]

    def text(self):
        return " ".join(name + "=" + getattr(self, name) for name, _ in CHOICES)

    @staticmethod
    def parse(text):
        """Options from ``name=value`` words; unnamed options keep their defaults."""
        options = Options()
        for word in text.split():
            name, sep, value = word.partition("=")
            if not sep:
                raise OptionError("expected name=value, got %r" % word)
            options.set(name, value)
        return options

    def __eq__(self, other):
        return isinstance(other, Options) and self.text() == other.text()

    def __repr__(self):
        return "Options.parse(%r)" % self.text()
