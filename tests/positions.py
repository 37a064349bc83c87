"""Build game positions from card names, for tests.

``position(["2C 7H", "", "KS", ...], [...], middle=["5S", "9D"])`` gives a game in
play whose stock slots hold those cards (bottom to top, top face up) and whose
spit piles show those cards; every card not placed goes into the packs, split
as ``packs`` says, so the position still holds all 52.
"""

from spit.cards import DECK_SIZE, parse_card
from spit.options import Options
from spit.rules import PHASE_PLAY, Game


def cards(text):
    return [parse_card(name) for name in text.split()]


def position(stock1, stock2, middle, packs=None, options="", phase=PHASE_PLAY):
    game = Game(1, Options.parse(options))
    stocks = (stock1, stock2)
    placed = []
    for player in (0, 1):
        slots = [cards(text) for text in stocks[player]]
        slots += [[] for _ in range(game.slots - len(slots))]
        game.stock[player] = slots
        game.face_up[player] = [1 if pile else 0 for pile in slots]
        for pile in slots:
            placed += pile
    game.middle = [cards(text) for text in middle]
    for pile in game.middle:
        placed += pile
    rest = [card for card in range(DECK_SIZE) if card not in placed]
    if len(placed) + len(rest) != DECK_SIZE:
        raise ValueError("a card is placed twice")
    first = len(rest) // 2 if packs is None else packs[0]
    second = len(rest) - first if packs is None else packs[1]
    game.pack = [rest[:first], rest[first : first + second]]
    del rest[: first + second]
    if rest:
        game.middle[0][:0] = rest
    game.phase = phase
    return game
