"""Transcripts: a game written down as seed, options and committed actions.

A game is fully determined by its seed, its options and the ordered actions, so
replaying a transcript rebuilds the exact state. The text form::

    spit-transcript 1
    seed 1234
    options layout=1-5 middle=two pick=slap stack=off score=out ...
    S 1c3a 2c5b 1c1c3 2!a@93812

One action per word, players and slots numbered as on the buttons, spit piles
as ``a`` (player 1's, the only one in a one-pile round) and ``b``:

    S        spit
    1c3a     player 1 plays the top of C3 onto pile a
    2c1c4    player 2 moves the top of C1 onto C4 (a gap, or a same-rank top)
    2!b      player 2 slaps pile b

A Speed game (``spit.speed``) is written the same way under ``speed-transcript 1``,
without an options line, in Speed's words (``F``, ``1c3a``, ``2*``).

A word may end in ``@`` and the press time in microseconds (``ticks_us``),
as the device logs them; replay ignores the times. Lines starting with ``#``
are comments. A transcript is text of at most ``Transcript.MAX_BYTES``;
``parse`` names the line and the word that is not as expected.

>>> action_word(parse_action_word("2c1c4"))
'2c1c4'
"""

from spit import speed
from spit.options import OptionError, Options
from spit.rules import MOVE, PLAY, SLAP, SPIT_ACTION, Game, move, play, slap
from spit.ticks import TICKS_PERIOD

MAGIC = "spit-transcript 1"
SPEED_MAGIC = "speed-transcript 1"
_PILES = "ab"
_WORDS_PER_LINE = 16
SEED_LIMIT = 1 << 32  # a seed is a 32-bit number (``spit.rng``)
_SHOWN = 24  # the characters of a bad number an error shows
_ACTIONS = "S, 1c3a (play), 1c1c4 (move) or 1!a (slap)"
_SPEED_ACTIONS = "F (flip), 1c3a (play) or 1* (the call)"


class TranscriptError(ValueError):
    pass


class Transcript:
    """Seed, options, actions and (optionally) each action's press time, of a game of
    ``game``: ``"spit"`` or ``"speed"`` (whose transcripts have no options: read, they
    are None)."""

    # The device keeps a game's transcript only up to 64 KiB (the longest of 200
    # self-play games was 21 KiB): a file far beyond that is no transcript, and the
    # simulator refuses it before reading it.
    MAX_BYTES = 1 << 20

    def __init__(self, seed, options, actions, times=None, game=Game.NAME):
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
        return _GAMES[self.game][1](action)

    def lines(self):
        """The text a line at a time, each with its newline: the device writes a long
        game's transcript without making the whole text, for which its heap may hold
        no block (a game of 300 actions is about 4 KB)."""
        magic, word_of, _, _ = _GAMES[self.game]
        yield magic + "\n"
        yield "seed %d\n" % self.seed
        if self.game == Game.NAME:
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
            raise TranscriptError("nothing but blank lines and comments: expected %r" % MAGIC)
        number, line = lines[0]
        game = _game_of(line)
        if game is None:
            raise TranscriptError("line %d: expected %r, not a transcript" % (number, MAGIC))
        for number, line in lines[1:]:
            where = "line %d" % number
            if line.startswith("seed "):
                seed = _whole_number(line[5:].strip(), where, "a seed", SEED_LIMIT)
            elif line.startswith("options ") and game == Game.NAME:
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
        if options is None and game == Game.NAME:
            raise TranscriptError("a Spit transcript needs an options line")
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
        spit = self.game == Game.NAME
        game = Game(self.seed, self.options) if spit else speed.Game(self.seed)
        for action in self.actions[:upto]:
            game.apply(action)
        return game


def action_word(action):
    kind = action >> 9
    player = "%d" % (((action >> 8) & 1) + 1)
    first = (action >> 4) & 15
    last = action & 15
    if kind == PLAY:
        return "%sc%d%s" % (player, first + 1, _PILES[last])
    if kind == MOVE:
        return "%sc%dc%d" % (player, first + 1, last + 1)
    if kind == SLAP:
        return "%s!%s" % (player, _PILES[last])
    return "S"


def parse_action_word(word):
    if word == "S":
        return SPIT_ACTION
    if len(word) >= 3 and word[0] in "12":
        player = int(word[0]) - 1
        if word[1] == "!" and len(word) == 3 and word[2] in _PILES:
            return slap(player, _PILES.index(word[2]))
        if word[1] == "c" and word[2] in "12345":
            slot = int(word[2]) - 1
            rest = word[3:]
            if len(rest) == 1 and rest in _PILES:
                return play(player, slot, _PILES.index(rest))
            if len(rest) == 2 and rest[0] == "c" and rest[1] in "12345":
                return move(player, slot, int(rest[1]) - 1)
    raise TranscriptError("not an action: %r" % word)


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
    _, _, parse, actions = _GAMES[game]
    try:
        action = parse(name)
    except ValueError:
        raise TranscriptError("%s: expected an action: %s" % (where, actions)) from None
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


# Each game's transcripts: the first line, and its words (written, read, listed).
_GAMES = {
    Game.NAME: (MAGIC, action_word, parse_action_word, _ACTIONS),
    speed.Game.NAME: (SPEED_MAGIC, speed.action_word, speed.parse_action_word, _SPEED_ACTIONS),
}


def _game_of(magic):
    """The game whose transcripts begin with the line ``magic``, or None."""
    for name in _GAMES:
        if _GAMES[name][0] == magic:
            return name
    return None
