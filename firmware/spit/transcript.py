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

A word may end in ``@`` and the press time in microseconds (``ticks_us``),
as the device logs them; replay ignores the times. Lines starting with ``#``
are comments.

>>> action_word(parse_action_word("2c1c4"))
'2c1c4'
"""

from spit.options import OptionError, Options
from spit.rules import MOVE, PLAY, SLAP, SPIT_ACTION, Game, move, play, slap

MAGIC = "spit-transcript 1"
_PILES = "ab"
_WORDS_PER_LINE = 16


class TranscriptError(ValueError):
    pass


class Transcript:
    """Seed, options, actions and (optionally) each action's press time."""

    def __init__(self, seed, options, actions, times=None):
        self.seed = seed
        self.options = options
        self.actions = actions
        self.times = times

    @staticmethod
    def of(game):
        """The transcript of a dealt game (one built with ``hands=`` replays a
        different deal: its hands are not part of a transcript)."""
        return Transcript(game.seed, game.options, list(game.history))

    def text(self):
        lines = [MAGIC, "seed %d" % self.seed, "options " + self.options.text()]
        words = []
        for i, action in enumerate(self.actions):
            word = action_word(action)
            if self.times is not None:
                word += "@%d" % self.times[i]
            words.append(word)
        for start in range(0, len(words), _WORDS_PER_LINE):
            lines.append(" ".join(words[start : start + _WORDS_PER_LINE]))
        return "\n".join(lines) + "\n"

    @staticmethod
    def parse(text):
        seed = None
        options = None
        actions = []
        times = []
        lines = [line.strip() for line in text.split("\n")]
        lines = [line for line in lines if line and not line.startswith("#")]
        if not lines or lines[0] != MAGIC:
            raise TranscriptError("not a transcript: the first line must be %r" % MAGIC)
        for line in lines[1:]:
            if line.startswith("seed "):
                seed = _number(line[5:], line)
            elif line.startswith("options "):
                try:
                    options = Options.parse(line[8:])
                except OptionError as error:
                    raise TranscriptError("bad options line: %s" % error) from None
            else:
                for word in line.split():
                    word, _, time = word.partition("@")
                    actions.append(parse_action_word(word))
                    times.append(_number(time, word) if time else None)
        if seed is None or options is None:
            raise TranscriptError("a transcript needs a seed line and an options line")
        return Transcript(seed, options, actions, times if None not in times else None)

    def replay(self, upto=None):
        """The game after the first ``upto`` actions (all by default)."""
        game = Game(self.seed, self.options)
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


def _number(text, context):
    try:
        return int(text)
    except ValueError:
        raise TranscriptError("not a number in %r" % context) from None
