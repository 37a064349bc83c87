"""Game positions for tests: built from card names, and taken apart again.

Every list is bottom to top, as the engine stores it: the last card of a stock slot
is its face-up top, the last card of a pack is the next one spat.

``position(["2C 7H", "", "KS"], ["5C"], ["6S", "9D"])`` is a game in play with those
stock slots and spit piles. Every card not named is put somewhere out of the way, so
each position still holds all 52.
"""

from array import array

from spit.cards import DECK_SIZE, card_name, parse_card
from spit.games import PHASE_PLAY
from spit.options import Options
from spit.spit import Game


def cards(text):
    return [parse_card(name) for name in text.split()]


def names(card_list):
    return " ".join(card_name(card) for card in card_list)


def position(stock1, stock2, middle=("", ""), packs=None, options="", rest="a", phase=PHASE_PLAY):
    """A game in this position. ``stock1``/``stock2``: one text per slot; ``middle``:
    one text per spit pile; ``packs``: per player, a text of card names or a number of
    cards to take from those not named (by default the cards not named are split
    between the packs). Cards still left go under spit pile a (``rest="a"``), under
    pile b (``"b"``) or under a pack (``"1"``, ``"2"``)."""
    game = Game(1, Options.parse(options))
    placed = []
    for player, stock in enumerate((stock1, stock2)):
        slots = [cards(text) for text in stock]
        slots += [[] for _ in range(game.slots - len(slots))]
        game.stock[player] = slots
        game.face_up[player] = [1 if pile else 0 for pile in slots]
        placed += [card for pile in slots for card in pile]
    game.middle = [cards(text) for text in middle]
    placed += [card for pile in game.middle for card in pile]
    named = [packs[p] if isinstance(packs[p], str) else "" for p in (0, 1)] if packs else ["", ""]
    for player in (0, 1):
        game.pack[player] = cards(named[player])
        placed += game.pack[player]
    assert len(set(placed)) == len(placed), "a card is named twice"
    spare = [card for card in range(DECK_SIZE) if card not in placed]
    counts = [len(spare) // 2, len(spare) - len(spare) // 2] if packs is None else packs
    for player in (0, 1):
        if not isinstance(counts[player], str):
            game.pack[player][:0] = spare[: counts[player]]
            del spare[: counts[player]]
    under = {"a": game.middle[0], "1": game.pack[0], "2": game.pack[1]}
    under["b"] = game.middle[1] if len(game.middle) > 1 else None
    under[rest][:0] = spare
    game.phase = phase
    return game


def plain(value):
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, array)):  # copied: an array changes in place
        return [plain(item) for item in value]
    if hasattr(value, "__dict__"):
        return (type(value).__name__, plain(vars(value)))
    return value


def snapshot(game):
    """Everything the game holds, as plain values (the generator's state included)."""
    return plain(vars(game))


def all_cards(game):
    found = [card for pile in game.middle for card in pile]
    for player in (0, 1):
        found += game.pack[player]
        for pile in game.stock[player]:
            found += pile
    return found


def locate(game, card):
    """Where a card is: ``("stock", player, slot, depth)``, ``("pack", player,
    depth)`` or ``("middle", pile, depth)``, depth 0 being the top."""
    for player in (0, 1):
        for slot in range(game.slots):
            cards = game.stock[player][slot]
            if card in cards:
                return ("stock", player, slot, len(cards) - 1 - cards.index(card))
        cards = game.pack[player]
        if card in cards:
            return ("pack", player, len(cards) - 1 - cards.index(card))
    for pile, cards in enumerate(game.middle):
        if card in cards:
            return ("middle", pile, len(cards) - 1 - cards.index(card))
    raise ValueError("card %d is nowhere" % card)
