"""Properties of the rules engine over random action sequences, legal and not.

Hypothesis drives games of every option class with a mix of sensible actions (plays,
digs, spits, slaps), any legal action, and arbitrary ints in and around the action
encoding; after every step the whole table is checked.
"""

import copy
import itertools
import pickle

import pytest
from helpers.positions import locate, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spit.cards import DECK_SIZE, rank
from spit.games import (
    MOVE,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_READY,
    PHASE_SLAP,
    PLAY,
    IllegalActionError,
    InvalidActionError,
    move,
    play,
    slap,
)
from spit.options import CHOICES, Options
from spit.rng import Rng
from spit.spit import SPIT_ACTION, Game
from spit.transcript import Transcript

RULE_OPTIONS = ("layout", "middle", "pick", "stack", "score")
CLASSES = [
    dict(zip(RULE_OPTIONS, values, strict=True))
    for values in itertools.product(*(dict(CHOICES)[name] for name in RULE_OPTIONS))
]
ENCODING_RANGE = 4 << 9  # every int below this decodes to some kind; 4 and up are unknown


def options_strategy():
    carried = {name: st.sampled_from(values) for name, values in CHOICES}
    return st.builds(
        lambda rules, **rest: Options(**rules, **rest),
        st.sampled_from(CLASSES),
        word=carried["word"],
        spit=carried["spit"],
        quick=carried["quick"],
        counts=carried["counts"],
        match=carried["match"],
    )


def well_formed(slots):
    actions = [SPIT_ACTION]
    for player in (0, 1):
        actions += [slap(player, pile) for pile in (0, 1)]
        for slot in range(slots):
            actions += [play(player, slot, pile) for pile in (0, 1)]
            actions += [move(player, slot, to_slot) for to_slot in range(slots)]
    return actions


def frozen(game):
    """A quick exact image of the game, to see that a refusal changed nothing."""
    return pickle.dumps(vars(game))


def places(game):
    """Every card with where it is, collected from the lists themselves."""
    found = {}
    for player in (0, 1):
        for slot, cards in enumerate(game.stock[player]):
            for depth, card in enumerate(reversed(cards)):
                assert card not in found, f"card {card} twice"
                found[card] = ("stock", player, slot, depth)
        for depth, card in enumerate(reversed(game.pack[player])):
            assert card not in found, f"card {card} twice"
            found[card] = ("pack", player, depth)
    for pile, cards in enumerate(game.middle):
        for depth, card in enumerate(reversed(cards)):
            assert card not in found, f"card {card} twice"
            found[card] = ("middle", pile, depth)
    return found


def dig_by_search(game, player):
    """Whether any sequence of the player's stock moves turns up a hidden card: a
    search over the rules of a move, to check ``can_dig`` against. A pile is
    (hidden cards, rank of its face-up cards, face-up count); slots are alike, so a
    state is the sorted piles."""
    stack = game.options.stack == "on"
    start = tuple(
        sorted(
            (len(cards) - up, rank(cards[-1]) if cards else -1, up)
            for cards, up in zip(game.stock[player], game.face_up[player], strict=True)
        )
    )
    seen = {start}
    todo = [start]
    while todo:
        state = todo.pop()
        for slot, (buried, face, up) in enumerate(state):
            if not up:
                continue
            for to_slot, (other_buried, other_face, other_up) in enumerate(state):
                if to_slot == slot or (other_up and not (stack and other_face == face)):
                    continue
                if up == 1 and buried:
                    return True
                after = list(state)
                after[slot] = (0, -1, 0) if up == 1 else (buried, face, up - 1)
                after[to_slot] = (other_buried, face, other_up + 1)
                after = tuple(sorted(after))
                if after not in seen:
                    seen.add(after)
                    todo.append(after)
    return False


def check_table(game):
    found = places(game)
    assert sorted(found) == list(range(DECK_SIZE))
    assert game.card_count() == DECK_SIZE
    for card in range(DECK_SIZE):
        assert locate(game, card) == found[card]
    for player in (0, 1):
        assert len(game.stock[player]) == len(game.face_up[player]) == game.slots
        for cards, up in zip(game.stock[player], game.face_up[player], strict=True):
            if cards:
                assert 1 <= up <= len(cards)
                assert len({rank(card) for card in cards[len(cards) - up :]}) == 1
            else:
                assert up == 0
            if game.options.stack == "off":
                assert up == (1 if cards else 0)
    assert game.pile_count() in (1, 2)
    if game.phase == PHASE_PLAY:
        assert all(game.middle), "every spit pile has a card once play starts"
        for player in (0, 1):
            assert game.stock_count(player) > 0
    if game.phase == PHASE_READY:
        assert game.middle in ([[]], [[], []])
        two = game.options.middle == "two" and game.pack[0] and game.pack[1]
        assert game.pile_count() == (2 if two else 1)
    if game.phase == PHASE_SLAP:
        assert game.cleared >= 0 or not (game.pack[0] or game.pack[1])
        assert game.cleared < 0 or game.pack[game.cleared], "out of cards means no slap"
        assert game.pile_count() == 2 or game.cleared < 0
    assert (game.outcome() is not None) == (game.phase == PHASE_OVER)


def check_legality(game, actions=None):
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal)
    for action in actions or well_formed(game.slots):
        assert game.is_legal(action) == (action in legal), action
        if actions is None and action >> 9 == PLAY:  # well formed: a refusal is told
            assert (game.play_refusal(action) is None) == (action in legal), action
    if game.phase == PHASE_PLAY:
        for player in (0, 1):
            assert game.can_dig(player) == dig_by_search(game, player)
            action = game.dig_move(player)
            if action >= 0:
                slot = action >> 4 & 15
                if game.face_up[player][slot] == 1 and len(game.stock[player][slot]) > 1:
                    continue  # turns up the card at once
                follow_dig(game, player)
        assert game.is_stuck() == (not any(a >> 9 == PLAY for a in legal) and not digs(game))


def hidden(game, player):
    return sum(
        len(cards) - up for cards, up in zip(game.stock[player], game.face_up[player], strict=True)
    )


def follow_dig(game, player):
    """Following ``dig_move`` turns up a hidden card in a few legal moves."""
    game = copy.deepcopy(game)
    start = hidden(game, player)
    for _ in range(4 * DECK_SIZE):
        action = game.dig_move(player)
        assert action >= 0 and action >> 9 == MOVE and action >> 8 & 1 == player
        game.apply(action)
        if hidden(game, player) < start:
            return
    raise AssertionError("dig_move goes round in circles")


def digs(game):
    return [p for p in (0, 1) if game.can_dig(p)]


def sensible(game, pick):
    """A play, a move that digs, a spit or a slap; ``pick(n)`` chooses among several."""
    actions = game.legal_actions()
    plays = [a for a in actions if a >> 9 == PLAY]
    if plays:
        return plays[pick(len(plays))]
    moves = [game.dig_move(p) for p in (0, 1) if game.phase == PHASE_PLAY and game.can_dig(p)]
    if moves:
        return moves[pick(len(moves))]
    if SPIT_ACTION in actions:
        return SPIT_ACTION
    return actions[pick(len(actions))]


def step(game, action):
    """Apply the action if it is allowed; check a refusal changed nothing and that an
    applied play took the face-up top of a stock pile."""
    before = frozen(game)
    legal = action in game.legal_actions()
    formed = action in well_formed(game.slots)
    kind, player, slot, pile = action >> 9, action >> 8 & 1, action >> 4 & 15, action & 15
    if kind == PLAY and legal:
        top = game.stock_top(player, slot)
        size = len(game.stock[player][slot])
        assert game.face_up[player][slot] >= 1
    round_number = game.round
    try:
        game.apply(action)
    except InvalidActionError:
        assert not formed
        assert frozen(game) == before
        return False
    except IllegalActionError as refused:
        assert formed and not legal and refused.reason
        assert frozen(game) == before
        return False
    assert legal
    assert game.history[-1] == action
    if kind == PLAY and game.round == round_number:
        assert game.middle[pile][-1] == top
        assert len(game.stock[player][slot]) == size - 1
    return True


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(options=options_strategy(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_actions_keep_the_table_whole_and_refusals_change_nothing(options, seed, data):
    game = Game(seed, options)
    check_table(game)
    check_legality(game)
    for _ in range(data.draw(st.integers(20, 250), label="steps")):
        if game.outcome() is not None:
            break
        how = data.draw(st.integers(0, 9), label="how")
        if how < 6:
            action = sensible(game, lambda n: data.draw(st.integers(0, n - 1)))
        elif how < 8:
            legal = game.legal_actions()
            action = legal[data.draw(st.integers(0, len(legal) - 1))]
        else:
            action = data.draw(st.integers(-8, ENCODING_RANGE + 8), label="any int")
        step(game, action)
        check_table(game)
        check_legality(game)
    check_legality(game, range(-4, ENCODING_RANGE + 4))


def playout(seed, options, limit=60000):
    """A whole game of sensible actions, chosen with the engine's own generator."""
    game = Game(seed, options)
    rng = Rng(seed ^ 0x5EED)
    while game.outcome() is None and len(game.history) < limit:
        game.apply(sensible(game, rng.below))
    return game


@pytest.mark.parametrize("rules", CLASSES, ids=lambda rules: " ".join(rules.values()))
def test_random_playouts_end_with_an_outcome(rules):
    game = playout(2, Options(**rules))
    assert game.outcome() is not None
    assert game.phase == PHASE_OVER
    assert game.outcome().winner in (0, 1)
    check_table(game)
    if rules["score"] == "out":
        assert game.last_round.held[game.outcome().winner] == 0
    else:
        points = game.points
        assert points[game.outcome().winner] == min(points)


@pytest.mark.soak
@pytest.mark.parametrize("rules", CLASSES, ids=lambda rules: " ".join(rules.values()))
def test_soak_playouts_end_and_replay(rules):
    for seed in range(40):
        game = playout(seed, Options(**rules), limit=400000)
        assert game.outcome() is not None
        replayed = Transcript.parse(Transcript.of(game).text()).replay()
        assert snapshot(replayed) == snapshot(game)


@settings(max_examples=25, deadline=None)
@given(
    options=options_strategy(),
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(1, 600),
    marks=st.lists(st.integers(0, 600), max_size=4),
)
def test_replaying_the_transcript_text_rebuilds_the_exact_state(options, seed, length, marks):
    game = Game(seed, options)
    rng = Rng(seed)
    seen = {0: snapshot(game)}
    while game.outcome() is None and len(game.history) < length:
        game.apply(sensible(game, rng.below))
        seen[len(game.history)] = snapshot(game)
    transcript = Transcript.parse(Transcript.of(game).text())
    assert transcript.actions == game.history
    assert snapshot(transcript.replay()) == snapshot(game)
    for mark in marks:
        mark = min(mark, len(game.history))
        assert snapshot(transcript.replay(mark)) == seen[mark]


@st.composite
def stocks(draw):
    """A player's stock with runs of face-up cards of one rank over hidden ones; few
    ranks, so that same-rank tops (and so multi-move digs) are common."""
    slots = draw(st.sampled_from((4, 5)))
    stock, face_up = [], []
    for _ in range(slots):
        hidden = draw(st.integers(0, 3))
        run = draw(st.integers(1 if hidden else 0, 3))
        face = draw(st.integers(0, 3))
        cards = [draw(st.integers(0, DECK_SIZE - 1)) for _ in range(hidden)]
        stock.append(cards + [face + 13 * (k % 4) for k in range(run)])
        face_up.append(run)
    return stock, face_up


@settings(max_examples=300, deadline=None)
@given(stock=stocks(), stack=st.sampled_from(("on", "off")))
def test_dig_move_finds_every_dig_and_leads_to_the_hidden_card(stock, stack):
    stock, face_up = stock
    game = Game(1, Options(layout="1-5" if len(stock) == 5 else "1-4", stack=stack))
    game.apply(SPIT_ACTION)
    if stack == "off":
        face_up = [1 if cards else 0 for cards in stock]
        stock = [
            cards[: len(cards) - up + 1] if cards else []
            for cards, up in zip(stock, face_up, strict=True)
        ]
    game.stock[0], game.face_up[0] = stock, face_up
    assert game.can_dig(0) == dig_by_search(game, 0)
    if game.can_dig(0):
        follow_dig(game, 0)
