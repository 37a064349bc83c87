"""Transcripts: a game written down as seed, options and committed actions.

A game is fully determined by its seed, its options and the ordered actions, so
replaying a transcript rebuilds the exact state. The text form, of a game of Spit::

    spit-transcript 1
    seed 1234
    options layout=1-5 middle=two pick=slap stack=off score=out ...
    S 1c3a 2c5b 1c1c3 2!a@93812

One action per word, in the game's own words (``action_word`` of its module in
``spit.games``: Spit's ``S``, ``1c3a``, ``2c1c4``, ``2!b``). Every game's transcript
begins with its name (``speed-transcript 1``); a game whose options do not change its
rules (Speed) has no options line.

A word may end in ``@`` and the press time in microseconds (``ticks_us``),
as the device logs them; replay ignores the times. Lines starting with ``#``
are comments. A transcript is text of at most ``Transcript.MAX_BYTES``;
``parse`` names the line and the word that is not as expected.

>>> text = "spit-transcript 1 | seed 7 | options layout=3x5 | S 2c1c4".replace(" | ", "\\n")
>>> transcript = Transcript.parse(text)
>>> [transcript.word(action) for action in transcript.actions]
['S', '2c1c4']
"""

from spit import games
from spit.options import OptionError, Options
from spit.ticks import TICKS_PERIOD

_WORDS_PER_LINE = 16
SEED_LIMIT = 1 << 32  # a seed is a 32-bit number (``spit.rng``)
_SHOWN = 24  # the characters of a bad number an error shows


class TranscriptError(ValueError):
    pass


class Transcript:
    """Seed, options, actions and (optionally) each action's press time, of a game of
    ``game``, a name in ``spit.games`` (the options of a game whose transcripts have no
    options line read as None)."""

    # The device keeps a game's transcript only up to 64 KiB (the longest of 200
    # self-play games was 21 KiB): a file far beyond that is no transcript, and the
    # simulator refuses it before reading it.
    MAX_BYTES = 1 << 20

    def __init__(self, seed, options, actions, times=None, game="spit"):
        self.seed = seed
        self.options = options
        self.actions = actions
        self.times = times
        self.game = game

    @staticmethod
    def of(game):
        """The transcript of a dealt game (one built with ``hands=`` replays a
        different deal: its hands are not part of a transcript)."""
        return Transcript(game.seed, game.options, list(game.history), game=game.NAME)

    def text(self):
        return "".join(self.lines())

    def word(self, action):
        """The word for ``action`` in this game's transcripts (``1c3a``)."""
        return games.rules(self.game).action_word(action)

    def lines(self):
        """The text a line at a time, each with its newline: the device writes a long
        game's transcript without making the whole text, for which its heap may hold
        no block (a game of 300 actions is about 4 KB)."""
        rules = games.rules(self.game)
        word_of = rules.action_word
        yield magic(self.game) + "\n"
        yield "seed %d\n" % self.seed
        if rules.TRANSCRIPT_OPTIONS:
            yield "options " + self.options.text() + "\n"
        words = []
        for i, action in enumerate(self.actions):
            word = word_of(action)
            if self.times is not None:
                word += "@%d" % self.times[i]
            words.append(word)
            if len(words) == _WORDS_PER_LINE:
                yield " ".join(words) + "\n"
                words = []
        if words:
            yield " ".join(words) + "\n"

    @staticmethod
    def parse(text):
        """The transcript written in ``text``: a str, or bytes as read from a file.
        Raises TranscriptError naming the line (and the word) not as expected."""
        Transcript.check_size(len(text))
        seed = None
        options = None
        actions = []
        times = []
        lines = _content_lines(text)
        if not lines:
            raise TranscriptError(
                "nothing but blank lines and comments: expected %r" % magic("spit")
            )
        number, line = lines[0]
        game = _game_of(line)
        if game is None:
            expected = magic("spit")
            raise TranscriptError("line %d: expected %r, not a transcript" % (number, expected))
        with_options = games.rules(game).TRANSCRIPT_OPTIONS
        for number, line in lines[1:]:
            where = "line %d" % number
            if line.startswith("seed "):
                seed = _whole_number(line[5:].strip(), where, "a seed", SEED_LIMIT)
            elif line.startswith("options ") and with_options:
                try:
                    options = Options.parse(line[8:])
                except OptionError as error:
                    raise TranscriptError("%s: bad options: %s" % (where, error)) from None
            else:
                for word in line.split():
                    at = "%s, word %d (%s)" % (where, len(actions) + 1, _shown(word))
                    action, time = _parse_word(word, at, game)
                    actions.append(action)
                    times.append(time)
        if seed is None:
            raise TranscriptError("a transcript needs a seed line")
        if options is None and with_options:
            raise TranscriptError("a %s transcript needs an options line" % games.title(game))
        times = times if None not in times else None
        return Transcript(seed, options, actions, times, game)

    @staticmethod
    def check_size(size):
        """Raises TranscriptError if ``size`` bytes is more than any transcript
        (``MAX_BYTES``): the simulator asks before it reads a file."""
        if size > Transcript.MAX_BYTES:
            raise TranscriptError(
                "%d bytes: a transcript is at most %d" % (size, Transcript.MAX_BYTES)
            )

    def replay(self, upto=None):
        """The game after the first ``upto`` actions (all by default)."""
        game = games.rules(self.game).Game(self.seed, self.options)
        for action in self.actions[:upto]:
            game.apply(action)
        return game


def magic(name):
    """The first line of the transcripts of the game ``name`` (in ``spit.games``)."""
    return name + "-transcript 1"


def _game_of(line):
    """The game whose transcripts begin with ``line``, or None."""
    for name in games.NAMES:
        if line == magic(name):
            return name
    return None


def _content_lines(text):
    """``(line number, line)`` for each line of ``text`` that is neither blank nor a
    comment, stripped. A line that is not text (a binary file, or one damaged on the
    way) is a TranscriptError, wherever it is."""
    if isinstance(text, str):
        lines = text.split("\n")
    else:
        lines = []
        for number, raw in enumerate(text.split(b"\n"), 1):
            try:
                lines.append(raw.decode())
            except UnicodeError:
                raise TranscriptError(
                    "line %d: expected text, found bytes that are not "
                    "UTF-8 (a binary file?)" % number
                ) from None
    kept = []
    for number, line in enumerate(lines, 1):
        for column, char in enumerate(line, 1):
            if (char < " " and char not in "\t\r") or char == "\x7f":
                raise TranscriptError(
                    "line %d, column %d: expected text, found the control "
                    "character 0x%02x (a binary file?)" % (number, column, ord(char))
                )
        line = line.strip()
        if line and not line.startswith("#"):
            kept.append((number, line))
    return kept


def _parse_word(word, where, game):
    """``(action, press time or None)`` of one word of ``game`` such as ``1c3a@93812``."""
    name, at, time = word.partition("@")
    rules = games.rules(game)
    try:
        action = rules.parse_action_word(name)
    except ValueError:
        raise TranscriptError("%s: expected an action: %s" % (where, rules.ACTION_WORDS)) from None
    if not at:
        return action, None
    if not time:
        raise TranscriptError(
            "%s: expected the press time in microseconds after '@', "
            "found nothing (the word is cut short)" % where
        )
    what = "the press time in microseconds after '@'"
    return action, _whole_number(time, where, what, TICKS_PERIOD)


def number_below(text, limit):
    """The whole number ``text`` writes in ASCII digits, if it is below ``limit``; else
    None. (``str.isdigit`` also takes other digits, such as '²' and '①', that ``int``
    refuses; and a number thousands of digits long is no seed or time.)

    >>> number_below("93812", 1 << 30), number_below("²", 10), number_below("12", 10)
    (93812, None, None)
    """
    if not 0 < len(text) <= len(str(limit)):
        return None
    for char in text:
        if not "0" <= char <= "9":
            return None
    value = int(text)
    return value if value < limit else None


def _whole_number(text, where, what, limit):
    value = number_below(text, limit)
    if value is None:
        raise TranscriptError(
            "%s: expected %s, a whole number below %d, not %s"
            % (where, what, limit, _shown(text, "'%s'"))
        )
    return value


def _shown(text, form="%s"):
    """``text`` for an error message: a long one cut, with its length. (Not ``repr``:
    MicroPython's escapes every character beyond ASCII.)"""
    if len(text) <= _SHOWN:
        return form % text
    return "%s... (%d characters)" % (form % text[:_SHOWN], len(text))
