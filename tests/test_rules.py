"""The rules of SPEC section 2, one example position per rule and per option.

Positions are written with card names (``positions.position``); ``table()`` here
gives a position whose packs hold only the cards named.
"""

import pytest
from helpers.positions import all_cards, cards, locate, names, position, snapshot
from spit.cards import DECK_SIZE, adjacent, parse_card
from spit.games import (
    NO_CARD,
    NO_FIT,
    NO_PILE,
    NOT_NOW,
    PHASE_DEALING,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_READY,
    PHASE_SLAP,
    IllegalActionError,
    InvalidActionError,
    move,
    play,
    room_for_a_round,
    slap,
)
from spit.options import CHOICES, Options
from spit.spit import (
    LOWEST_SCORE,
    NOTHING_TO_SPIT,
    OUT_OF_CARDS,
    SAME_SLOT,
    SLOT_TAKEN,
    SPIT_ACTION,
    WINNER_PICKS,
    Game,
)
from spit.transcript import Transcript

P1, P2 = 0, 1
A, B = 0, 1  # spit piles: a is player 1's (the only one in a one-pile round), b player 2's


def table(stock1, stock2, middle=("", ""), packs=("", ""), options="", **kw):
    """A position whose packs hold only the cards named (see ``positions.position``)."""
    return position(stock1, stock2, middle, packs, options, **kw)


def assert_whole(game):
    found = all_cards(game)
    assert sorted(found) == list(range(DECK_SIZE))
    assert game.card_count() == DECK_SIZE


def slot_sizes(game, player):
    return [len(pile) for pile in game.stock[player]]


def plays_of(game, player):
    """(slot, pile) of every legal play of one player."""
    return {
        (action >> 4 & 15, action & 15)
        for action in game.legal_actions()
        if action >> 9 == 0 and (action >> 8) & 1 == player
    }


def refused(game, action):
    """The reason an illegal action is refused; checks that nothing changed."""
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as raised:
        game.apply(action)
    assert snapshot(game) == before
    assert not game.is_legal(action)
    assert action not in game.legal_actions()
    return raised.value.reason


# -- the deal ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 7, 2024, 0xFFFFFFFF])
def test_the_deal_gives_26_each_in_five_piles_and_eleven_to_spit(seed):
    game = Game(seed)
    assert game.phase == PHASE_READY
    assert game.middle == [[], []]
    for player in (P1, P2):
        assert slot_sizes(game, player) == [1, 2, 3, 4, 5]
        assert game.face_up[player] == [1, 1, 1, 1, 1]
        assert len(game.pack[player]) == 11
        assert game.held(player) == 26
    assert_whole(game)
    assert game.outcome() is None


def test_the_deal_follows_the_seed():
    assert snapshot(Game(5)) == snapshot(Game(5))
    assert Game(5).stock != Game(6).stock


def test_hands_are_dealt_in_rows_and_the_rest_is_the_pack_next_card_on_top():
    first, second = list(range(26)), list(range(26, 52))
    game = Game(0, hands=[first, second])
    assert game.stock[P1] == [[0], [1, 5], [2, 6, 9], [3, 7, 10, 12], [4, 8, 11, 13, 14]]
    assert game.stock[P2][4] == [30, 34, 37, 39, 40]
    assert game.pack[P1][-1] == 15 and game.pack[P1][0] == 25
    assert first == list(range(26)), "the hand given is not changed"
    game.apply(SPIT_ACTION)
    assert game.middle == [[15], [41]]
    assert game.phase == PHASE_PLAY


def test_layout_3x5_is_five_piles_of_three():
    game = Game(0, Options(layout="3x5"), hands=[list(range(26)), list(range(26, 52))])
    assert game.stock[P1] == [[0, 5, 10], [1, 6, 11], [2, 7, 12], [3, 8, 13], [4, 9, 14]]
    assert len(game.pack[P1]) == 11
    assert_whole(game)


def test_layout_1_4_is_four_piles_ten_in_stock_sixteen_to_spit():
    game = Game(3, Options(layout="1-4"))
    assert game.slots == 4
    for player in (P1, P2):
        assert slot_sizes(game, player) == [1, 2, 3, 4]
        assert game.stock_count(player) == 10
        assert len(game.pack[player]) == 16
    assert_whole(game)


# -- too few cards for a pack ----------------------------------------------------


def short_game(short, options="", short_player=P1):
    deck = list(range(DECK_SIZE))
    hands = [deck[:short], deck[short:]]
    if short_player == P2:
        hands.reverse()
    return Game(0, Options.parse(options), hands=hands)


def test_twelve_cards_give_piles_of_1_2_3_3_3_and_no_pack():
    game = short_game(12)
    assert slot_sizes(game, P1) == [1, 2, 3, 3, 3]
    assert game.stock[P1][2] == [2, 6, 9]
    assert game.pack[P1] == []
    assert slot_sizes(game, P2) == [1, 2, 3, 4, 5]
    assert len(game.pack[P2]) == 40 - 15
    assert game.one_pile() and game.pile_count() == 1
    assert_whole(game)


def test_fifteen_cards_give_a_full_layout_and_no_pack():
    game = short_game(15, short_player=P2)
    assert slot_sizes(game, P2) == [1, 2, 3, 4, 5]
    assert game.pack[P2] == []
    assert game.one_pile()


def test_sixteen_cards_keep_one_to_spit_and_two_piles():
    game = short_game(16)
    assert game.pack[P1] == [15]
    assert not game.one_pile()


@pytest.mark.parametrize(
    "options, short, sizes",
    [
        ("layout=3x5", 12, [3, 3, 2, 2, 2]),
        ("layout=1-4", 8, [1, 2, 3, 2]),
        ("layout=1-4", 10, [1, 2, 3, 4]),
    ],
)
def test_short_hands_in_other_layouts(options, short, sizes):
    game = short_game(short, options)
    assert slot_sizes(game, P1) == sizes
    assert game.pack[P1] == [] and game.one_pile()


def test_one_pile_round_is_started_by_the_other_players_first_spit():
    game = short_game(12)
    assert game.spitters() == [P2] and game.spitter_count() == 1
    top = game.pack[P2][-1]
    game.apply(SPIT_ACTION)
    assert game.middle == [[top]]
    assert len(game.pack[P2]) == 24
    assert not game.is_legal(play(P1, 0, B)), "there is no pile b"
    # The next spit is the other player's again: the short one has nothing to spit.
    top = game.pack[P2][-1]
    game.apply(SPIT_ACTION)
    assert game.middle[A][-1] == top


def test_one_pile_short_player_clearing_first_wins_the_game():
    game = table(["5H"], ["9C", "9D"], middle=["4C"], packs=("", "2C 3C"), rest="2")
    game.apply(play(P1, 0, A))
    assert game.outcome().winner == P1
    assert game.outcome().reason == OUT_OF_CARDS
    assert game.phase == PHASE_OVER
    assert game.last_round.cleared == P1
    assert game.last_round.held == [0, DECK_SIZE]
    assert game.legal_actions() == []
    assert refused(game, SPIT_ACTION) == NOT_NOW


def test_one_pile_other_player_clearing_first_takes_nothing():
    game = table(["9C", "JD 9D"], ["5H"], middle=["2C 4C"], packs=("", "2D 3D"), rest="a")
    pile = len(game.middle[A])
    game.apply(play(P2, 0, A))
    end = game.last_round
    assert end.cleared == P2 and end.slapper == -1
    assert end.took == [pile + 1, 0]
    assert end.left == [3, 2]
    assert end.held == [pile + 1 + 3, 2]
    assert game.phase == PHASE_READY, "no slap: the round ended at the clearing play"
    assert game.outcome() is None
    assert game.round == 1
    # The short player now holds the pile and their stock and is dealt a full layout and a pack.
    assert game.held(P1) == pile + 4 and game.held(P2) == 2
    assert game.one_pile(), "now player 2 is the short one"
    assert_whole(game)


# -- playing onto the spit piles -------------------------------------------------


def test_the_ace_sits_next_to_the_king_and_the_two():
    assert adjacent(parse_card("AS"), parse_card("KD"))
    assert adjacent(parse_card("KD"), parse_card("AS"))
    assert adjacent(parse_card("2H"), parse_card("AS"))
    assert not adjacent(parse_card("QH"), parse_card("AS"))
    assert not adjacent(parse_card("7H"), parse_card("7S"))
    game = table(
        ["KH", "2H", "QH", "3H", "7H"], ["AC", "JC", "2C", "5C", "9C"], middle=["AD", "KD"]
    )
    # K and 2 on the ace; A and Q on the king; nothing else.
    assert plays_of(game, P1) == {(0, A), (1, A), (2, B)}
    assert plays_of(game, P2) == {(0, B), (2, A)}


def test_a_played_card_goes_on_the_pile_and_the_card_under_it_turns_up():
    game = table(["8C", "9D 4S"], ["JC"], middle=["5D", "KD"])
    game.apply(play(P1, 1, A))
    assert game.middle[A][-1] == parse_card("4S")
    assert game.top(A) == parse_card("4S")
    assert game.stock[P1][1] == cards("9D")
    assert game.stock_top(P1, 1) == parse_card("9D")
    assert game.face_up[P1][1] == 1
    assert locate(game, parse_card("4S")) == ("middle", A, 0)
    assert game.plays == 1
    assert_whole(game)


def test_only_the_top_of_a_stock_pile_is_live():
    # 6C under the 9D would fit pile a's 5D, but only the 9D is live.
    game = table(["6C 9D"], ["JC"], middle=["5D", "KD"])
    assert plays_of(game, P1) == set()
    assert refused(game, play(P1, 0, A)) == NO_FIT
    assert locate(game, parse_card("6C")) == ("stock", P1, 0, 1)


def test_a_card_fits_either_pile_for_either_player():
    game = table(["6C"], ["4C"], middle=["5D", "5S"])
    assert plays_of(game, P1) == {(0, A), (0, B)}
    assert plays_of(game, P2) == {(0, A), (0, B)}


# -- gaps ------------------------------------------------------------------------


def test_a_gap_takes_any_face_up_top_and_the_card_beneath_turns_up():
    game = table(["", "4C 9D", "JH", "2S 3S JS"], ["8C"], middle=["5D", "5S"])
    game.apply(move(P1, 3, 0))
    assert game.stock[P1][0] == cards("JS")
    assert game.stock[P1][3] == cards("2S 3S")
    assert game.stock_top(P1, 3) == parse_card("3S")
    assert game.face_up[P1][:4] == [1, 1, 1, 1]
    assert len(game.stock[P1]) == game.slots == 5
    assert_whole(game)


def test_a_gap_move_needs_an_empty_slot_and_a_card():
    game = table(["", "4C 9D", "JH"], ["8C"], middle=["5D", "5S"])
    assert refused(game, move(P1, 1, 2)) == SLOT_TAKEN
    assert refused(game, move(P1, 1, 1)) == SAME_SLOT
    assert refused(game, move(P1, 0, 3)) == NO_CARD
    assert game.is_legal(move(P2, 0, 1))


def test_never_more_slots_than_the_layout():
    game = table(["", "4C 9D", "JH"], ["8C"], middle=["5D", "5S"], options="layout=1-4")
    assert game.slots == 4 and len(game.stock[P1]) == 4
    with pytest.raises(InvalidActionError):
        game.apply(move(P1, 1, 4))
    with pytest.raises(InvalidActionError):
        game.apply(play(P1, 4, A))
    for action in game.legal_actions():
        if action >> 9 in (0, 1):
            assert action >> 4 & 15 < 4
        if action >> 9 == 1:
            assert action & 15 < 4


# -- stacking (stack=on) ----------------------------------------------------------


def test_same_rank_stacking_only_with_stack_on():
    position = (["5C 9D", "9H", "JH", "JS", "JD"], ["8C"], ["2D", "10C"], ("2H", "3H"))
    off = table(*position)
    assert refused(off, move(P1, 0, 1)) == SLOT_TAKEN
    assert refused(off, move(P1, 2, 3)) == SLOT_TAKEN
    on = table(*position, options="stack=on")
    assert refused(on, move(P1, 0, 2)) == SLOT_TAKEN, "only onto the same rank"
    assert on.is_legal(move(P1, 2, 3))
    on.apply(move(P1, 0, 1))
    assert on.stock[P1][1] == cards("9H 9D")
    assert on.face_up[P1][:2] == [1, 2]
    assert on.stock_top(P1, 0) == parse_card("5C")
    # Playing a stacked top shows the face-up card under it, not a hidden one.
    on.apply(play(P1, 1, B))
    assert on.stock[P1][1] == cards("9H") and on.face_up[P1][1] == 1
    assert_whole(on)


# -- stuck -----------------------------------------------------------------------


def test_a_gap_move_that_turns_up_a_hidden_card_counts_as_a_move():
    game = table(["", "4C 9D", "JH", "JS", "JD"], ["8C"], ["2D", "2S"], ("2H", "3H"))
    assert not game.can_play(P1) and game.can_dig(P1)
    assert not game.is_stuck()
    game.apply(move(P1, 1, 0))
    assert game.is_stuck(), "the 4C turned up does not fit"


def test_a_gap_move_that_turns_up_nothing_does_not_count():
    game = table(["", "9D", "JH", "JS", "JD"], ["8C"], middle=["2D", "2S"])
    assert game.is_legal(move(P1, 1, 0)), "legal all the same"
    assert not game.can_move(P1)
    assert game.is_stuck()


def test_stuck_needs_both_players_stuck():
    game = table(["9D"], ["3C"], middle=["2D", "QS"])
    assert game.can_play(P2) and not game.can_move(P1)
    assert not game.is_stuck()


def test_stuck_only_while_playing():
    game = table(["9D"], ["9C"], middle=["2D", "QS"], phase=PHASE_READY)
    assert not game.is_stuck()


def test_with_stack_on_a_same_rank_move_that_digs_counts():
    position = (["5C 9D", "9H", "JH", "JS", "JD"], ["8C"], ["2D", "2S"])
    assert table(*position).is_stuck()
    assert not table(*position, options="stack=on").is_stuck()


def test_with_stack_on_digging_under_a_run_of_face_up_cards_counts():
    # Two face-up sevens on a hidden 5C: both can go, one at a time, into the gap.
    game = table(
        ["5C 7C 7D", "JH", "JS", "JD", ""], ["8C"], ["2D", "2S"], ("2H", "3H"), "stack=on"
    )
    game.face_up[P1][0] = 2
    assert not game.is_stuck()
    game.apply(move(P1, 0, 4))
    assert not game.is_stuck()
    game.apply(move(P1, 0, 4))
    assert game.stock[P1][0] == cards("5C") and game.face_up[P1][0] == 1


def test_with_stack_on_emptying_a_slot_onto_a_same_rank_to_dig_counts():
    # JC can go onto the JD, which leaves a gap for the 7D over the hidden 5C.
    game = table(["5C 7D", "JC", "JD", "QH", "QS"], ["8C"], ["2D", "2S"], ("2H", "3H"), "stack=on")
    assert not game.is_stuck()
    game.apply(move(P1, 1, 2))
    game.apply(move(P1, 0, 1))
    assert game.stock_top(P1, 0) == parse_card("5C")


def test_with_stack_on_a_pile_without_hidden_cards_gives_no_dig():
    game = table(["7C 7D", "JC", "JD", "QH", "QS"], ["8C"], ["2D", "2S"], options="stack=on")
    game.face_up[P1][0] = 2
    assert game.is_stuck()


# -- spitting ---------------------------------------------------------------------


def test_spit_turns_one_card_from_each_pack_onto_its_own_pile():
    game = table(["9D"], ["9C"], middle=["2D", "QS"], packs=("4H 5H", "4C 6C"), rest="a")
    assert game.is_stuck() and game.spitters() == [P1, P2] and game.spitter_count() == 2
    game.apply(SPIT_ACTION)
    assert game.top(A) == parse_card("5H") and game.top(B) == parse_card("6C")
    assert game.pack == [cards("4H"), cards("4C")]
    assert game.spits == 1 and game.phase == PHASE_PLAY
    assert_whole(game)


def test_spit_is_allowed_while_a_player_can_still_move():
    game = table(["3D"], ["9C"], middle=["2D", "QS"], packs=("4H 5H", "4C 6C"))
    assert game.can_play(P1)
    assert SPIT_ACTION in game.legal_actions()
    game.apply(SPIT_ACTION)
    assert game.spits == 1


@pytest.mark.parametrize("spitter", [P1, P2])
def test_a_player_who_spits_alone_spits_onto_their_own_pile(spitter):
    packs = ["", ""]
    packs[spitter] = "4C 6C"
    game = table(["9D"], ["9C"], middle=["2D", "QS"], packs=packs, rest="a")
    other_pile = list(game.middle[1 - spitter])
    assert game.spitters() == [spitter] and game.spitter_count() == 1
    game.apply(SPIT_ACTION)
    assert game.top(spitter) == parse_card("6C")
    assert game.middle[1 - spitter] == other_pile
    assert game.phase == PHASE_PLAY, "one card still to spit"


def test_nothing_to_spit_when_both_packs_are_empty():
    game = table(["3D"], ["9C"], middle=["2D", "QS"])
    assert game.spitters() == [] and game.spitter_count() == 0
    assert refused(game, SPIT_ACTION) == NOTHING_TO_SPIT


def test_middle_one_spits_one_card_at_a_time_from_the_players_in_turn():
    game = Game(11, Options(middle="one"))
    assert game.one_pile()
    order = []
    for _ in range(4):
        spitter = game.spitters()[0]
        top = game.pack[spitter][-1]
        game.apply(SPIT_ACTION)
        assert game.middle[A][-1] == top
        order.append(spitter)
    assert order == [P1, P2, P1, P2]
    assert len(game.middle[A]) == 4
    assert [len(pack) for pack in game.pack] == [9, 9]


def test_middle_one_skips_an_empty_pack():
    game = table(["9D"], ["9C"], middle=["2D"], packs=("", "4C 6C"), options="middle=one")
    game.spit_turn = P1
    game.apply(SPIT_ACTION)
    assert game.top(A) == parse_card("6C")
    game.apply(SPIT_ACTION)
    assert game.top(A) == parse_card("4C")


def test_middle_one_spit_turn_is_kept_into_the_next_round():
    game = table(["5H"], ["9C"], middle=["4D"], packs=("2C", "3C 6C"), options="middle=one")
    game.spit_turn = P2
    game.apply(play(P1, 0, A))
    assert game.round == 1 and game.phase == PHASE_READY and game.one_pile()
    assert game.spit_turn == P2
    top = game.pack[P2][-1]
    game.apply(SPIT_ACTION)
    assert game.middle == [[top]]


# -- round end ---------------------------------------------------------------------


def test_playing_the_last_stock_card_ends_the_round_with_a_slap():
    game = table(["5H"], ["9C"], middle=["4D", "QS"], packs=("2C", "3C"))
    game.apply(play(P1, 0, A))
    assert game.phase == PHASE_SLAP
    assert game.cleared == P1
    assert game.legal_actions() == [slap(P1, A), slap(P1, B), slap(P2, A), slap(P2, B)]
    assert refused(game, play(P2, 0, B)) == NOT_NOW
    assert refused(game, SPIT_ACTION) == NOT_NOW


def test_a_stall_ends_the_round_when_the_last_spit_leaves_everyone_stuck():
    game = table(["9D"], ["9C"], middle=["2D", "QS"], packs=("", "5S"), rest="a")
    game.apply(SPIT_ACTION)
    assert not game.can_move(P1) and not game.can_move(P2)
    assert game.phase == PHASE_SLAP and game.cleared == -1


def test_a_stall_ends_the_round_when_the_last_play_leaves_everyone_stuck():
    game = table(["9D", "3D"], ["9C"], middle=["2D", "QS"], rest="a")
    game.apply(play(P1, 1, A))
    assert game.phase == PHASE_SLAP and game.cleared == -1


def test_no_stall_while_there_is_something_to_spit():
    game = table(["9D", "3D"], ["9C"], middle=["2D", "QS"], packs=("", "5S"), rest="a")
    game.apply(play(P1, 1, A))
    assert game.is_stuck() and game.phase == PHASE_PLAY


# -- the slap ---------------------------------------------------------------------


def cleared_round(options="", rest="1"):
    """Player 1 has just cleared; pile a holds 3 cards, pile b 5."""
    game = table(
        ["5H"],
        ["9C", "JD 9D"],
        middle=["2C 3C 4C", "2D 3D 4D 5D 6D"],
        packs=("7S 8S", "7H 8H 9H"),
        options=options,
        rest=rest,
    )
    game.apply(play(P1, 0, A))
    assert game.phase == PHASE_SLAP
    return game


def test_the_first_slap_takes_that_pile_and_the_other_player_the_other():
    game = cleared_round(rest="2")
    assert [len(pile) for pile in game.middle] == [4, 5] and game.smaller_pile() == A
    mine = set(game.middle[B] + game.pack[P1])
    game.apply(slap(P2, A))
    end = game.last_round
    assert (end.cleared, end.slapper) == (P1, P2)
    assert end.took == [5, 4]
    assert end.left == [2, 3 + 3 + 35], "player 2's pack has the 35 cards not named under it"
    assert end.held == [5 + 2, 4 + 41]
    assert set(all_held(game, P1)) == mine
    assert game.slaps == 1 and game.round == 1
    assert game.phase == PHASE_READY
    assert_whole(game)


def test_slapping_the_larger_pile_takes_the_larger_pile():
    game = cleared_round(rest="2")
    game.apply(slap(P1, B))
    assert game.last_round.took == [5, 4]
    game = cleared_round(rest="2")
    game.apply(slap(P2, B))
    assert game.last_round.took == [4, 5]


def test_a_game_that_deals_later_waits_scores_the_round_as_it_shuffles_then_deals_the_same():
    now = cleared_round(rest="2")
    later = cleared_round(rest="2")
    later.deals_later = True
    now.apply(slap(P2, A))
    later.apply(slap(P2, A))
    assert later.phase == PHASE_DEALING
    assert later.round == 0 and later.last_round is None, "scored when it shuffles"
    assert later.legal_actions() == [] and later.is_stuck() is False
    assert refused(later, SPIT_ACTION) == NOT_NOW
    assert_whole(later)
    later.shuffle()
    assert later.round == 1 and vars(later.last_round) == vars(now.last_round)
    later.deal()
    assert later.phase == PHASE_READY
    assert (later.stock, later.face_up, later.pack) == (now.stock, now.face_up, now.pack)
    assert later.middle == now.middle and later.rng.state == now.rng.state
    with pytest.raises(IllegalActionError):
        later.deal()


def test_room_for_a_round_is_made_only_when_it_runs_short_and_keeps_the_items():
    items = []
    assert room_for_a_round(items, 0) == 128 and items == []
    items.extend(range(64))
    assert room_for_a_round(items, 128) == 128, "a round's room left"
    items.extend(range(64, 100))
    assert room_for_a_round(items, 128) == 228, "short: 128 more"
    items.extend(range(100, 170))
    assert room_for_a_round(items, 228) == 340 and items == list(range(170)), "doubled"


def test_shuffling_a_pass_ahead_deals_the_same_round():
    now = cleared_round(rest="2")
    ahead = cleared_round(rest="2")
    for game in (now, ahead):
        game.deals_later = True
        game.apply(slap(P2, A))
    ahead.shuffle()  # the round scored
    assert ahead.phase == PHASE_DEALING and not ahead.shuffled
    ahead.shuffle()  # player 1's cards
    assert not ahead.shuffled
    ahead.shuffle()  # player 2's
    assert not ahead.shuffled
    ahead.shuffle()  # room in the history for the next round's actions
    assert ahead.shuffled
    ahead.shuffle()  # once only: the hands are shuffled already
    assert ahead.phase == PHASE_DEALING and ahead.shuffled
    assert refused(ahead, SPIT_ACTION) == NOT_NOW
    now.deal()
    ahead.deal()
    assert (ahead.stock, ahead.face_up, ahead.pack) == (now.stock, now.face_up, now.pack)
    assert ahead.rng.state == now.rng.state and not ahead.shuffled
    with pytest.raises(IllegalActionError):
        ahead.shuffle()


@pytest.mark.parametrize("seed", range(4))
def test_dealing_later_plays_the_same_game(seed):
    now, later = Game(seed), Game(seed)
    later.deals_later = True
    dealt = 0
    for step in range(3_000):
        if later.phase == PHASE_DEALING:
            later.deal()
            dealt += 1
        if now.outcome() is not None:
            break
        actions = now.legal_actions()
        assert later.legal_actions() == actions
        now.apply(actions[step % len(actions)])
        later.apply(actions[step % len(actions)])
    assert dealt == now.round
    assert later.history == now.history and later.points == now.points
    assert repr(later.outcome()) == repr(now.outcome())
    assert (later.stock, later.pack, later.middle) == (now.stock, now.pack, now.middle)


def all_held(game, player):
    return game.pack[player] + [card for pile in game.stock[player] for card in pile]


def test_pick_winner_lets_only_the_player_who_cleared_pick():
    game = cleared_round("pick=winner")
    assert game.may_slap(P1) and not game.may_slap(P2)
    assert game.legal_actions() == [slap(P1, A), slap(P1, B)]
    assert refused(game, slap(P2, A)) == WINNER_PICKS
    game.apply(slap(P1, A))
    assert game.last_round.slapper == P1


def test_pick_winner_after_a_stall_lets_anyone_slap():
    game = table(["9D"], ["9C"], middle=["2D", "QS"], packs=("", "5S"), options="pick=winner")
    game.apply(SPIT_ACTION)
    assert game.phase == PHASE_SLAP and game.cleared == -1
    assert game.may_slap(P1) and game.may_slap(P2)
    game.apply(slap(P2, A))
    assert game.last_round.slapper == P2 and game.last_round.cleared == -1


def test_a_stalled_one_pile_round_ends_with_a_slap_where_the_first_hand_escapes():
    game = table(["9D", "JD"], ["9C"], middle=["2D"], packs=("", "5S"), rest="a")
    pile = len(game.middle[A])
    game.apply(SPIT_ACTION)
    assert game.phase == PHASE_SLAP
    assert game.legal_actions() == [slap(P1, A), slap(P2, A)]
    assert refused(game, slap(P1, B)) == NO_PILE
    game.apply(slap(P1, A))
    end = game.last_round
    assert end.slapper == P1 and end.cleared == -1
    assert end.took == [0, pile + 1]
    assert end.held == [2, pile + 2]
    assert_whole(game)


# -- gathering and the next round ---------------------------------------------------


def progress(game):
    """A sensible action: a play, else a move that turns up a card, else the spit."""
    actions = game.legal_actions()
    for action in actions:
        if action >> 9 == 0:
            return action
    for action in actions:
        if action >> 9 == 1:
            player, slot = action >> 8 & 1, action >> 4 & 15
            if len(game.stock[player][slot]) > game.face_up[player][slot]:
                return action
    return actions[-1]


def finish_round(game):
    if game.phase == PHASE_READY:
        game.apply(SPIT_ACTION)
    while game.phase == PHASE_PLAY:
        game.apply(progress(game))
    assert game.phase == PHASE_SLAP or game.round > 0


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_gathering_takes_the_pile_the_pack_and_the_stock(seed):
    game = Game(seed)
    finish_round(game)
    assert game.phase == PHASE_SLAP
    pile = game.smaller_pile()
    expect = [
        set(game.middle[1 - pile] + all_held(game, P1)),
        set(game.middle[pile] + all_held(game, P2)),
    ]
    game.apply(slap(P2, pile))
    for player in (P1, P2):
        assert set(all_held(game, player)) == expect[player]
        assert game.held(player) == len(expect[player]) == game.last_round.held[player]
    assert sum(game.last_round.held) == DECK_SIZE
    assert game.phase == PHASE_READY and game.round == 1
    assert_whole(game)


# -- the end of the game -------------------------------------------------------------


@pytest.mark.parametrize("seed", [8, 9])
def test_the_game_goes_on_until_a_player_holds_no_cards(seed):
    game = Game(seed)
    for _ in range(200):
        finish_round(game)
        if game.phase == PHASE_SLAP:
            game.apply(slap(P1, game.smaller_pile()))
        held = game.last_round.held
        if game.outcome() is not None:
            break
        assert min(held) > 0 and game.phase == PHASE_READY
    assert game.phase == PHASE_OVER
    assert held[game.outcome().winner] == 0 and game.outcome().reason == OUT_OF_CARDS


def test_clearing_the_stock_with_nothing_left_to_spit_wins_at_once():
    # Two spit piles, but player 1 has spat their whole pack: clearing leaves them holding
    # no cards, so there is no slap; player 2 takes the middle.
    game = table(["5H"], ["9C"], middle=["2C 4D", "QS"], packs=("", "7H 8H"), rest="2")
    game.apply(play(P1, 0, A))
    assert game.phase == PHASE_OVER
    assert game.outcome().winner == P1 and game.outcome().reason == OUT_OF_CARDS
    end = game.last_round
    assert (end.cleared, end.slapper) == (P1, -1)
    assert end.took == [0, 4]
    assert end.held == [0, DECK_SIZE]
    assert_whole(game)


def test_clearing_with_nothing_left_to_spit_ends_a_points_game_too():
    game = table(
        ["5H"], ["9C"], middle=["2C 4D", "QS"], packs=("", "7H 8H"), options="score=points"
    )
    game.points = [30, 10]
    game.apply(play(P1, 0, A))
    assert game.points == [30, 13]
    assert game.outcome().winner == P2 and game.outcome().reason == LOWEST_SCORE


def test_a_player_with_a_pack_who_spat_it_all_and_clears_first_in_middle_one_wins():
    game = table(["5H"], ["9C"], middle=["4D"], packs=("", "3C 6C"), options="middle=one")
    game.apply(play(P1, 0, A))
    assert game.outcome().winner == P1 and game.outcome().reason == OUT_OF_CARDS
    assert repr(game.outcome()) == "Outcome(0, 'out of cards')"


def test_middle_one_first_to_clear_takes_nothing():
    game = table(["5H"], ["9C"], middle=["4D"], packs=("2C 8C", "3C 6C"), options="middle=one")
    pile = len(game.middle[A])
    game.apply(play(P1, 0, A))
    assert game.last_round.took == [0, pile + 1]
    assert game.last_round.held == [2, DECK_SIZE - 2]
    assert game.outcome() is None and game.phase == PHASE_READY


# -- score=points ---------------------------------------------------------------------


def test_points_count_the_cards_still_held_at_each_round_end():
    game = cleared_round("score=points", rest="2")
    left = [game.held(P1), game.held(P2)]
    assert left == [2, 41]
    game.apply(slap(P2, A))
    assert game.points == left
    assert game.last_round.left == left
    assert game.outcome() is None


def test_points_are_not_kept_without_score_points():
    game = cleared_round(rest="2")
    game.apply(slap(P2, A))
    assert game.points == [0, 0]


def test_the_game_ends_at_100_points_and_the_lowest_total_wins():
    game = cleared_round("score=points", rest="2")
    game.points = [98, 40]
    game.apply(slap(P2, A))
    assert game.points == [100, 81]
    assert game.outcome().winner == P2 and game.outcome().reason == LOWEST_SCORE
    assert game.phase == PHASE_OVER and game.legal_actions() == []


def test_points_below_100_go_on():
    game = cleared_round("score=points", rest="2")
    game.points = [0, 99 - 41]
    game.apply(slap(P2, A))
    assert game.points[P2] == 99 and game.outcome() is None


def test_equal_totals_at_100_go_on():
    game = table(
        ["5H"],
        ["9C"],
        middle=["4D", "QS"],
        packs=("7S 8S", "7H"),
        options="score=points",
        rest="a",
    )
    game.apply(play(P1, 0, A))
    game.points = [98, 98]
    game.apply(slap(P1, A))
    assert game.points == [100, 100]
    assert game.outcome() is None and game.phase == PHASE_READY


def one_pile_short_clears(points):
    game = table(
        ["5H"], ["9C"], middle=["4D"], packs=("", "2C 3C"), options="score=points", rest="a"
    )
    game.points = points
    game.apply(play(P1, 0, A))
    return game


def test_out_of_cards_with_points_the_lowest_total_wins():
    game = one_pile_short_clears([50, 10])
    assert game.points == [50, 13]
    assert game.outcome().winner == P2 and game.outcome().reason == LOWEST_SCORE


def test_out_of_cards_with_equal_totals_goes_to_the_player_out_of_cards():
    game = one_pile_short_clears([13, 10])
    assert game.points == [13, 13]
    assert game.outcome().winner == P1 and game.outcome().reason == OUT_OF_CARDS


# -- options that the engine only carries -------------------------------------------------


def test_match_is_stored_in_the_options():
    assert Options().match == "bo3"
    game = Game(1, Options(match="single"))
    assert game.options.match == "single"
    assert "match=single" in Transcript.of(game).text()


def scripted(seed, options, count=300):
    game = Game(seed, options)
    while len(game.history) < count and game.outcome() is None:
        if game.phase == PHASE_SLAP:
            game.apply(game.legal_actions()[-1])
        else:
            game.apply(progress(game))
    return game


@pytest.mark.parametrize("name", ["word", "spit", "quick", "counts", "match"])
def test_display_options_are_carried_and_change_no_rule(name):
    values = dict(CHOICES)[name]
    plain_game = scripted(3, Options())
    other = Options()
    other.set(name, values[1])
    game = scripted(3, other)
    assert game.history == plain_game.history
    for part in ("stock", "pack", "middle", "face_up", "phase", "points", "round"):
        assert getattr(game, part) == getattr(plain_game, part)
    text = Transcript.of(game).text()
    assert f"{name}={values[1]}" in text
    assert Transcript.parse(text).options.get(name) == values[1]


# -- refusing actions -----------------------------------------------------------------------


def in_play():
    return table(["", "4C 9D", "JH"], ["8C", "KS"], middle=["8S", "QS"], packs=("2H", "3H"))


def in_slap():
    return cleared_round("pick=winner")


def one_pile_in_play():
    return table(["9D"], ["9C"], middle=["8D"], packs=("", "5S"))


def over():
    game = table(["5H"], ["9C"], middle=["4C"], packs=("", "2C 3C"), rest="2")
    game.apply(play(P1, 0, A))
    assert game.phase == PHASE_OVER
    return game


ILLEGAL = [
    ("play before the opening spit", lambda: Game(1), play(P1, 0, A), NOT_NOW),
    ("move before the opening spit", lambda: Game(1), move(P1, 0, 1), NOT_NOW),
    ("slap before the opening spit", lambda: Game(1), slap(P1, A), NOT_NOW),
    ("play from an empty slot", in_play, play(P1, 0, A), NO_CARD),
    ("play that does not fit", in_play, play(P1, 2, A), NO_FIT),
    ("play onto pile b of a lone pile", one_pile_in_play, play(P1, 0, B), NO_PILE),
    ("move onto a taken slot", in_play, move(P1, 1, 2), SLOT_TAKEN),
    ("move onto player 2's taken slot", in_play, move(P2, 0, 1), SLOT_TAKEN),
    ("move to its own slot", in_play, move(P1, 1, 1), SAME_SLOT),
    ("move from an empty slot", in_play, move(P2, 3, 4), NO_CARD),
    ("slap while playing", in_play, slap(P1, A), NOT_NOW),
    ("play in the slap", in_slap, play(P2, 0, A), NOT_NOW),
    ("move in the slap", in_slap, move(P2, 0, 2), NOT_NOW),
    ("spit in the slap", in_slap, SPIT_ACTION, NOT_NOW),
    ("slap by the loser with pick=winner", in_slap, slap(P2, A), WINNER_PICKS),
    (
        "spit with both packs empty",
        lambda: table(["3D"], ["9C"], ["2D", "QS"]),
        SPIT_ACTION,
        NOTHING_TO_SPIT,
    ),
    ("spit after the game", over, SPIT_ACTION, NOT_NOW),
    ("play after the game", over, play(P2, 0, A), NOT_NOW),
    ("slap after the game", over, slap(P2, A), NOT_NOW),
]


@pytest.mark.parametrize(
    "make, action, reason", [case[1:] for case in ILLEGAL], ids=[case[0] for case in ILLEGAL]
)
def test_an_illegal_action_is_refused_with_its_reason_and_changes_nothing(make, action, reason):
    game = make()
    assert refused(game, action) == reason
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.check(action)
    assert snapshot(game) == before


MALFORMED = [
    ("unknown kind", 4 << 9),
    ("negative", -1),
    ("huge", 1 << 40),
    ("spit with a player", SPIT_ACTION | 1 << 8),
    ("spit with a slot", SPIT_ACTION | 1 << 4),
    ("spit with a pile", SPIT_ACTION | 1),
    ("slap with a slot", slap(P1, A) | 2 << 4),
    ("slap pile c", slap(P1, 2)),
    ("play from slot 6", play(P1, 5, A)),
    ("play from slot 16", play(P2, 15, A)),
    ("play onto pile c", play(P1, 1, 2)),
    ("play onto pile 15", play(P1, 1, 15)),
    ("move to slot 6", move(P1, 1, 5)),
    ("move from slot 6", move(P1, 5, 0)),
]


@pytest.mark.parametrize("action", [case[1] for case in MALFORMED], ids=[c[0] for c in MALFORMED])
@pytest.mark.parametrize("make", [in_play, in_slap, one_pile_in_play, over, lambda: Game(2)])
def test_a_malformed_action_is_invalid_in_any_phase(make, action):
    game = make()
    before = snapshot(game)
    with pytest.raises(InvalidActionError):
        game.apply(action)
    with pytest.raises(InvalidActionError):
        game.check(action)
    assert not game.is_legal(action)
    assert snapshot(game) == before


def test_both_errors_are_value_errors():
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(InvalidActionError, ValueError)
    assert not issubclass(InvalidActionError, IllegalActionError)


def test_check_is_separate_from_apply():
    game = in_play()
    action = play(P1, 1, A)
    before = snapshot(game)
    assert game.check(action) is None
    assert game.is_legal(action)
    assert snapshot(game) == before
    game.apply(action)
    assert snapshot(game) != before
    assert game.history == [action]
    assert game.top(A) == parse_card("9D")
    assert names(game.stock[P1][1]) == "4C"
