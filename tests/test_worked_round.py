"""The worked round of the third rule text (seeds/004), played move for move.

Alice is player 1 and Ben player 2. After the opening spit Alice plays four stock
cards and Ben six; both are stuck and spit again; Alice three, Ben four; spit; Alice
two, Ben three; spit; Alice one and Ben his last two. Ben has cleared, the piles hold
14 and 19 cards, Ben slaps the smaller, and holds 21 cards to Alice's 31.

The deal that makes this happen was found by ``build()`` below: it walks the script
and chooses each card's rank only when it first matters (a card played takes a rank
next to the pile's top; a face-up card at a spit is kept away from the ranks that
would fit), restarting on a dead end. ``build(0)`` gives the hands written out here.
"""

import random

from spit.cards import RANK_NAMES, SUIT_NAMES, card_name, parse_card
from spit.games import PHASE_PLAY, PHASE_READY, PHASE_SLAP, slap
from spit.spit import SPIT_ACTION, Game, action_word, parse_action_word

ALICE, BEN = 0, 1

ALICE_HAND = "8C 8D 9C 5C JC 7C KC 7D 5D 6C AC 4C 3C 6D 6H 2C AD AH 10C JD 4D QC JH KD 5H KH"
BEN_HAND = "9D 8H 9H JS 10D 3D KS 2D 3H AS 2H 4H 2S 3S QD 7H 6S 8S 9S 5S QH 7S QS 10H 4S 10S"
# One burst of plays after each spit (the first spit is the opening one).
BURSTS = (
    "2c2a 1c5b 2c4a 1c4a 1c2b 2c4a 2c3a 2c3a 2c5a 1c5b",
    "2c4a 2c5a 2c5a 2c5a 1c5a 1c5b 1c3b",
    "1c3a 2c1b 2c5b 1c4a 2c4b",
    "2c2b 1c3a 2c3b",
)
# Stock cards left, Alice's and Ben's, after each burst (the counts in the text).
STOCK_AFTER = ((11, 9), (8, 5), (6, 2), (5, 0))

PLAYS = ((4, 6), (3, 4), (2, 3), (1, 2))  # (Alice, Ben) plays in each burst
SIZES = (1, 2, 3, 4, 5)


def hands():
    return [[parse_card(name) for name in hand.split()] for hand in (ALICE_HAND, BEN_HAND)]


def test_the_worked_round():
    game = Game(0, hands=hands())
    assert game.phase == PHASE_READY
    assert [game.stock_count(ALICE), game.stock_count(BEN)] == [15, 15]
    assert [len(pack) for pack in game.pack] == [11, 11]
    for number, (burst, counts) in enumerate(zip(BURSTS, STOCK_AFTER, strict=True)):
        if number:
            assert game.is_stuck(), f"both stuck before spit {number + 1}"
        game.apply(SPIT_ACTION)
        assert game.phase == PHASE_PLAY
        assert [len(pack) for pack in game.pack] == [10 - number, 10 - number]
        words = burst.split()
        assert [sum(word[0] == who for word in words) for who in "12"] == list(PLAYS[number])
        for word in words:
            game.apply(parse_action_word(word))
        assert (game.stock_count(ALICE), game.stock_count(BEN)) == counts
    assert game.phase == PHASE_SLAP and game.cleared == BEN
    assert sorted(len(pile) for pile in game.middle) == [14, 19]
    assert game.plays == 25 and game.spits == 4
    smaller = game.smaller_pile()
    assert len(game.middle[smaller]) == 14
    game.apply(slap(BEN, smaller))
    end = game.last_round
    assert (end.cleared, end.slapper) == (BEN, BEN)
    assert end.took == [19, 14]
    assert end.left == [5 + 7, 0 + 7]
    assert end.held == [31, 21]
    # The next round: Ben lays out fifteen with six to spit, Alice fifteen with sixteen.
    assert game.phase == PHASE_READY and game.outcome() is None
    assert [game.stock_count(ALICE), game.stock_count(BEN)] == [15, 15]
    assert [len(pack) for pack in game.pack] == [16, 6]


def test_the_hands_are_the_ones_the_builder_finds():
    found_hands, bursts = build(0)
    assert [" ".join(card_name(card) for card in hand) for hand in found_hands] == [
        ALICE_HAND,
        BEN_HAND,
    ]
    assert bursts == BURSTS


def test_the_builder_finds_other_deals_that_play_the_same_round():
    for seed in (1, 2, 3):
        found_hands, bursts = build(seed)
        game = Game(0, hands=found_hands)
        for number, burst in enumerate(bursts):
            if number:
                assert game.is_stuck()
            game.apply(SPIT_ACTION)
            for word in burst.split():
                game.apply(parse_action_word(word))
        assert sorted(len(pile) for pile in game.middle) == [14, 19]
        game.apply(slap(BEN, game.smaller_pile()))
        assert game.last_round.held == [31, 21]


# -- the builder -------------------------------------------------------------------


def _fits(one, other):
    return (one - other) % 13 in (1, 12)


def _attempt(rng):
    """One walk through the script; None at a dead end. A card is named by where it is
    dealt: ("stock", player, slot, height from the bottom) or ("pack", player, k)."""
    ranks = {}
    barred = {}  # face-up cards seen at a spit: the ranks they may not have
    used = [0] * 13
    height = [list(SIZES), list(SIZES)]
    piles = [0, 0]
    tops = [0, 0]
    bursts = []
    for number, (alice, ben) in enumerate(PLAYS):
        for player in (ALICE, BEN):
            spat = ("pack", player, number)
            ranks[spat] = rng.choice([r for r in range(13) if used[r] < 4])
            used[ranks[spat]] += 1
            tops[player] = ranks[spat]
            piles[player] += 1
        order = [ALICE] * alice + [BEN] * ben
        rng.shuffle(order)
        if number == 3:  # Ben's last card ends the round, so it goes last
            order.remove(BEN)
            order.append(BEN)
        words = []
        for player in order:
            choices = _choices(player, number, height, ranks, tops, used, barred)
            if not choices:
                return None
            slot, pile, rank = rng.choice(choices)
            card = ("stock", player, slot, height[player][slot] - 1)
            if card not in ranks:
                ranks[card] = rank
                used[rank] += 1
            height[player][slot] -= 1
            piles[pile] += 1
            tops[pile] = rank
            words.append(f"{player + 1}c{slot + 1}{'ab'[pile]}")
        bursts.append(" ".join(words))
        if number < 3 and not _bar_near_tops(tops, height, ranks, barred):
            return None
    if sorted(piles) != [14, 19]:
        return None
    for card in sorted(barred, key=lambda card: -len(barred[card])):
        if card not in ranks:
            free = [r for r in range(13) if used[r] < 4 and r not in barred[card]]
            if not free:
                return None
            ranks[card] = rng.choice(free)
            used[ranks[card]] += 1
    return ranks, used, tuple(bursts)


def _choices(player, number, height, ranks, tops, used, barred):
    """The plays open to ``player`` in burst ``number``, as (slot, pile, rank)."""
    # No slot may empty while the player still has hidden cards at a spit: an empty slot
    # would let them dig, and they would not be stuck.
    last_burst = 2 if player == BEN else 3
    choices = []
    for slot in range(5):
        left = height[player][slot]
        if left == 0 or (left == 1 and number < last_burst):
            continue
        card = ("stock", player, slot, left - 1)
        for pile in (0, 1):
            if card in ranks:
                if _fits(ranks[card], tops[pile]):
                    choices.append((slot, pile, ranks[card]))
                continue
            for rank in ((tops[pile] + 1) % 13, (tops[pile] - 1) % 13):
                if used[rank] < 4 and rank not in barred.get(card, ()):
                    choices.append((slot, pile, rank))
    return choices


def _bar_near_tops(tops, height, ranks, barred):
    """At a spit, every face-up card must fit neither top: bar those ranks from them.
    False at a dead end (a card already given such a rank)."""
    near = {(top + step) % 13 for top in tops for step in (1, -1)}
    for player in (ALICE, BEN):
        for slot in range(5):
            if height[player][slot]:
                card = ("stock", player, slot, height[player][slot] - 1)
                if card in ranks and ranks[card] in near:
                    return False
                barred.setdefault(card, set()).update(near)
    return True


def build(seed):
    """Two hands, in dealing order, and the bursts of plays that make the worked round."""
    rng = random.Random(seed)
    while True:
        found = _attempt(rng)
        if found:
            break
    ranks, used, bursts = found
    spare = [r for r in range(13) for _ in range(4 - used[r])]
    rng.shuffle(spare)
    suits = [list(SUIT_NAMES) for _ in range(13)]
    result = []
    for player in (ALICE, BEN):
        dealt = []
        for row in range(5):
            dealt += [("stock", player, slot, row) for slot in range(5) if SIZES[slot] > row]
        dealt += [("pack", player, number) for number in range(11)]
        hand = []
        for card in dealt:
            rank = ranks[card] if card in ranks else spare.pop()
            hand.append(parse_card(RANK_NAMES[rank] + suits[rank].pop(0)))
        result.append(hand)
    return result, bursts


def test_action_words_of_the_script_round_trip():
    for burst in BURSTS:
        for word in burst.split():
            assert action_word(parse_action_word(word)) == word
