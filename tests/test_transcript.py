"""Transcripts: a game as seed, options and actions, written out and replayed."""

import pytest
from helpers.same_on_cpython import run_on_cpython
from spit import speed
from spit.games import PHASE_PLAY, IllegalActionError, InvalidActionError, move, play, slap
from spit.options import Options
from spit.spit import SPIT_ACTION, Game, action_word, parse_action_word
from spit.transcript import Transcript, TranscriptError

MAGIC = "spit-transcript 1"


def sensible_game(seed, options=None, count=200):
    """A game moved on by its first legal play, else the spit, else the first action."""
    game = Game(seed, options)
    while len(game.history) < count and game.outcome() is None:
        actions = game.legal_actions()
        plays = [action for action in actions if action >> 9 == 0]
        if plays:
            game.apply(plays[len(game.history) % len(plays)])
        elif SPIT_ACTION in actions:
            game.apply(SPIT_ACTION)
        else:
            digs = [game.dig_move(player) for player in (0, 1) if game.phase == PHASE_PLAY]
            digs = [action for action in digs if action >= 0]
            game.apply(digs[0] if digs else actions[0])
    return game


def state(game):
    return (
        game.stock,
        game.face_up,
        game.pack,
        game.middle,
        game.phase,
        game.round,
        game.history,
        game.points,
        game.rng.state,
    )


def test_the_text_form():
    transcript = Transcript(
        1234, Options(layout="3x5"), [SPIT_ACTION, play(0, 2, 0), move(1, 0, 3)]
    )
    assert transcript.text() == (
        "spit-transcript 1\n"
        "seed 1234\n"
        "options layout=3x5 middle=two pick=slap stack=off score=out match=bo3 word=SPIT"
        " spit=call quick=on counts=off\n"
        "S 1c3a 2c1c4\n"
    )


@pytest.mark.parametrize(
    "seed, options", [(1, ""), (99, "middle=one stack=on"), (7, "layout=1-4")]
)
def test_a_game_round_trips_through_its_text(seed, options):
    game = sensible_game(seed, Options.parse(options), count=300)
    text = Transcript.of(game).text()
    assert text.startswith(MAGIC + "\n")
    parsed = Transcript.parse(text)
    assert parsed.seed == seed
    assert parsed.options == game.options
    assert parsed.actions == game.history
    assert parsed.times is None
    assert parsed.text() == text
    assert state(parsed.replay()) == state(game)


def test_sixteen_words_a_line():
    game = sensible_game(3, count=40)
    lines = Transcript.of(game).text().splitlines()[3:]
    assert [len(line.split()) for line in lines] == [16, 16, 8]


def test_words_may_be_spread_over_lines_in_any_way():
    game = sensible_game(3, count=40)
    lines = Transcript.of(game).text().splitlines()
    head, words = "\n".join(lines[:3]) + "\n", " ".join(lines[3:]).split()
    for body in ("\n".join(words), "   ".join(words), "\t".join(words) + "\n\n"):
        assert Transcript.parse(head + body).actions == game.history


def test_press_times_ride_along_and_replay_ignores_them():
    game = sensible_game(5, count=20)
    times = [1000 * (i + 1) + i for i in range(20)]
    text = Transcript(game.seed, game.options, game.history, times).text()
    assert text.splitlines()[3].split()[0] == "S@1000"
    parsed = Transcript.parse(text)
    assert parsed.times == times
    assert parsed.actions == game.history
    assert parsed.text() == text
    assert state(parsed.replay()) == state(game)


def test_comments_and_blank_lines_are_skipped():
    text = (
        "# saved by the device\n"
        "spit-transcript 1\n"
        "\n"
        "# seed and options\n"
        "seed 8\n"
        "   # indented comment\n"
        "options layout=1-5\n"
        "S 1c1a\n"
    )
    parsed = Transcript.parse(text)
    assert parsed.seed == 8 and parsed.options == Options()
    assert parsed.actions == [SPIT_ACTION, play(0, 0, 0)]


def test_unnamed_options_take_their_defaults():
    parsed = Transcript.parse("spit-transcript 1\nseed 1\noptions middle=one\n")
    assert parsed.options == Options(middle="one")
    assert parsed.actions == []


def test_every_action_has_a_word_and_back():
    actions = [SPIT_ACTION]
    for player in (0, 1):
        actions += [slap(player, pile) for pile in (0, 1)]
        for slot in range(5):
            actions += [play(player, slot, pile) for pile in (0, 1)]
            actions += [move(player, slot, to_slot) for to_slot in range(5)]
    words = [action_word(action) for action in actions]
    assert len(set(words)) == len(words)
    assert [parse_action_word(word) for word in words] == actions
    assert action_word(slap(1, 1)) == "2!b"
    assert action_word(play(0, 4, 1)) == "1c5b"


def test_a_transcript_names_an_action_in_its_games_words():
    of_spit = Transcript(1, Options(), [])
    of_speed = Transcript(1, None, [], game=speed.Game.NAME)
    assert of_spit.word(SPIT_ACTION) == "S" and of_speed.word(speed.FLIP_ACTION) == "F"
    assert of_spit.word(play(1, 2, 0)) == of_speed.word(speed.play(1, 2, 0)) == "2c3a"
    assert of_speed.word(speed.out(1)) == "2*"


@pytest.mark.parametrize(
    "word",
    [
        "",
        "s",
        "SS",
        "1",
        "1c",
        "1c1",
        "1c6a",
        "1c0a",
        "3c1a",
        "0c1a",
        "1c1c",
        "1c1c6",
        "1c1ab",
        "1!c",
        "1!",
        "1!ab",
        "2x1a",
        "1C1A",
        "1c1 a",
        "1c1c4c",
    ],
)
def test_a_malformed_word_is_a_transcript_error(word):
    with pytest.raises(ValueError):
        parse_action_word(word)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "seed 1\noptions \nS\n",
        "spit-transcript 2\nseed 1\noptions \n",
        "spit-transcript 1\noptions layout=1-5\nS\n",
        "spit-transcript 1\nseed 1\nS\n",
        "spit-transcript 1\nseed one\noptions layout=1-5\n",
        "spit-transcript 1\nseed 1\noptions layout=1-5\nS 1c9a\n",
        "spit-transcript 1\nseed 1\noptions layout=1-5\nS@soon\n",
        "spit-transcript 1\nseed 1\noptions layout=2-6\n",
        "spit-transcript 1\nseed 1\noptions layout\n",
        "spit-transcript 1\nseed 1\noptions colour=red\n",
    ],
    ids=[
        "empty",
        "no magic line",
        "other version",
        "no seed",
        "no options",
        "seed not a number",
        "bad word",
        "bad time",
        "bad option value",
        "option without a value",
        "unknown option",
    ],
)
def test_a_malformed_transcript_is_a_transcript_error(text):
    with pytest.raises(TranscriptError):
        Transcript.parse(text)


HEAD = "spit-transcript 1\nseed 5\noptions layout=1-5\n"
ACTIONS = "S, 1c3a (play), 1c1c4 (move) or 1!a (slap)"

# Each damaged transcript and the one line that says where and what was expected.
DAMAGED = [
    (
        HEAD + "S@10 1c3a@20 S@",
        "line 4, word 3 (S@): expected the press time in microseconds after '@', found"
        " nothing (the word is cut short)",
    ),
    (
        HEAD + "S@10\n1c3a@-5\n",
        "line 5, word 2 (1c3a@-5): expected the press time in microseconds after '@',"
        " a whole number below 1073741824, not '-5'",
    ),
    (
        HEAD + "S 1c3a@\n",
        "line 4, word 2 (1c3a@): expected the press time in microseconds after '@', found"
        " nothing (the word is cut short)",
    ),
    (HEAD + "S 1c9a\n", "line 4, word 2 (1c9a): expected an action: " + ACTIONS),
    (
        "spit-transcript 1\nseed -3\n",
        "line 2: expected a seed, a whole number below 4294967296, not '-3'",
    ),
    (
        "spit-transcript 1\nseed \u00b2\n",
        "line 2: expected a seed, a whole number below 4294967296, not '\u00b2'",
    ),
    (
        HEAD + "S@1\u2460\n",
        "line 4, word 1 (S@1\u2460): expected the press time in microseconds after '@',"
        " a whole number below 1073741824, not '1\u2460'",
    ),
    (
        HEAD + "S@" + "7" * 5000 + "\n",
        "line 4, word 1 (S@" + "7" * 22 + "... (5002 characters)): expected the press time in"
        " microseconds after '@', a whole number below 1073741824, not '" + "7" * 24 + "'..."
        " (5000 characters)",
    ),
    (
        "speed-transcript 1\nseed 4294967296\n",
        "line 2: expected a seed, a whole number below 4294967296, not '4294967296'",
    ),
    ("# only a note\n\n", "nothing but blank lines and comments: expected 'spit-transcript 1'"),
    ("\nsplit-transcript 1\n", "line 2: expected 'spit-transcript 1', not a transcript"),
    (
        HEAD + "S\x00\x00\n",
        "line 4, column 2: expected text, found the control character 0x00 (a binary file?)",
    ),
    (
        (HEAD + "S\n").encode() + bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        "line 5: expected text, found bytes that are not UTF-8 (a binary file?)",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"),
    DAMAGED,
    ids=[
        "cut short at the end",
        "negative time",
        "missing time",
        "bad word",
        "negative seed",
        "superscript seed",
        "circled digit time",
        "thousands of digits",
        "seed beyond 32 bits",
        "only comments",
        "other first line",
        "NUL bytes",
        "binary bytes",
    ],
)
def test_a_damaged_transcript_says_where_and_what_was_expected(text, message):
    with pytest.raises(TranscriptError) as raised:
        Transcript.parse(text)
    assert str(raised.value) == message


def test_the_same_damage_reads_the_same_on_micropython(mpvm):
    code = (
        "from spit.transcript import Transcript, TranscriptError\n"
        "for text, _ in %r:\n"
        "    try:\n"
        "        Transcript.parse(text)\n"
        "    except TranscriptError as error:\n"
        "        print(error)\n" % DAMAGED
    )
    host = run_on_cpython(code)
    assert host.splitlines() == [message for _, message in DAMAGED]
    assert mpvm(code) == host


def test_a_transcript_read_as_bytes_is_the_same_transcript():
    game = sensible_game(4, count=30)
    text = Transcript(game.seed, game.options, game.history, list(range(30))).text()
    from_bytes = Transcript.parse(("# pulled off the device\r\n" + text).encode())
    assert from_bytes.actions == game.history and from_bytes.times == list(range(30))


def test_a_text_beyond_the_largest_transcript_is_refused_unread():
    with pytest.raises(TranscriptError, match="bytes: a transcript is at most 1048576"):
        Transcript.parse(b"#" * (Transcript.MAX_BYTES + 1))


def test_transcript_errors_are_value_errors():
    assert issubclass(TranscriptError, ValueError)


def test_replay_upto_stops_after_that_many_actions():
    game = sensible_game(11, count=120)
    transcript = Transcript.parse(Transcript.of(game).text())
    assert state(transcript.replay(0)) == state(Game(11))
    partial = Game(11)
    for count, action in enumerate(game.history[:60], 1):
        partial.apply(action)
        if count in (1, 2, 17, 59, 60):
            assert state(transcript.replay(count)) == state(partial)
    assert state(transcript.replay(len(game.history) + 5)) == state(game)


def test_replaying_an_illegal_action_raises():
    bad = Transcript(1, Options(), [play(0, 0, 0)])
    with pytest.raises(IllegalActionError):
        bad.replay()
    assert bad.replay(0).history == []


def test_a_slot_beyond_the_layout_parses_but_does_not_replay():
    transcript = Transcript.parse("spit-transcript 1\nseed 1\noptions layout=1-4\nS 1c5a\n")
    with pytest.raises(InvalidActionError):
        transcript.replay()


def test_big_and_zero_seeds_round_trip():
    for seed in (0, 2**32 - 1):
        game = sensible_game(seed, count=10)
        parsed = Transcript.parse(Transcript.of(game).text())
        assert parsed.seed == seed
        assert state(parsed.replay()) == state(game)
