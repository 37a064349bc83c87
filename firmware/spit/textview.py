"""The table as lines of text: the simulator's terminal view and the device's USB console.

Player 2 sits at the top and player 1 at the bottom, as on the device; slots read
C1..C5 from each player's own left, so player 2's row runs right to left. Any game of
``spit.games``, read through ``spit.games.Rules``' names: the prompts say the game's word,
what the players call for SPIT.
"""

from spit import games
from spit.cards import card_name
from spit.controls import EVENT_NAMES, REFUSED
from spit.games import PHASE_NAMES, PHASE_OVER, PHASE_PLAY, PHASE_READY, PHASE_SLAP


def slot_text(game, player, slot, selected):
    cards = game.stock[player][slot]
    if not cards:
        text = "  --  "
    else:
        hidden = len(cards) - game.face_up[player][slot]
        text = "%3s%-3s" % (card_name(cards[-1]), "+%d" % hidden if hidden else "")
    return "[" + text + "]" if selected else " " + text + " "


def row(game, controls, player):
    slots = [
        slot_text(game, player, slot, controls.hand[player] == slot) for slot in range(game.slots)
    ]
    if player == 1:
        slots.reverse()
    return " ".join(slots)


def pile_text(game, pile):
    cards = game.middle[pile]
    top = card_name(cards[-1]) if cards else "--"
    if game.options.counts == "on":
        return "%s (%d)" % (top, len(cards))
    return "%s %s" % (top, "|" * min(len(cards), 12))


def status(game, controls):
    phase = game.phase
    word = game.word
    if phase == PHASE_READY:
        return "Both press %s to start the round" % word
    if phase == PHASE_PLAY and game.is_stuck():
        return "Nobody can move: both press %s" % word
    for player in (0, 1):
        if game.own_call(player) >= 0:  # Speed's: the first to call it wins
            return "P%d is out of cards: P%d, press %s to win" % (player + 1, player + 1, word)
    if phase == PHASE_SLAP:
        return "Round over: SLAP the smaller pile (L / R)"
    if phase == PHASE_OVER:
        outcome = game.outcome()
        return "Game over: player %d wins (%s)" % (outcome.winner + 1, outcome.reason)
    return PHASE_NAMES[phase]


def player_line(game, controls, player):
    called = "  %s!" % game.word if controls.called[player] else ""
    return "P%d  pack %2d  holds %2d%s" % (
        player + 1,
        len(game.pack[player]),
        game.held(player),
        called,
    )


def event_text(event, player, detail):
    who = "P%d " % (player + 1) if player >= 0 else ""
    if event == REFUSED:
        return "%srefused: %s" % (who, detail)
    return who + EVENT_NAMES[event]


def heading(game, wins):
    """The game, its round (unless it is a game of one round) and the games won."""
    name = games.title(game.NAME)
    won = "games won P1 %d - P2 %d" % (wins[0], wins[1])
    if games.rules(game.NAME).ONE_ROUND:
        return "%s  %s" % (name, won)
    # The round in play (or next); once the game is over, the last one played.
    shown = game.round if game.phase == PHASE_OVER else game.round + 1
    return "%s  round %d   %s" % (name, shown, won)


def lines(game, controls, last_event="", wins=(0, 0)):
    """The whole table as text lines, top of the device first."""
    middle = "     ".join(
        "%s %s" % ("ab"[pile], pile_text(game, pile)) for pile in range(game.pile_count())
    )
    return [
        heading(game, wins),
        player_line(game, controls, 1),
        "   " + row(game, controls, 1),
        "",
        "          " + middle,
        "          " + controls.contest.text(),
        "",
        "   " + row(game, controls, 0),
        player_line(game, controls, 0),
        "",
        status(game, controls),
        last_event,
    ]
