"""The games the device plays: what every game shares, and which games there are.

**What every game shares**: its phases, its actions' layout, why an action is refused,
how a game ends, and ``Rules``, the shape the controls, the CPU seats and the screens read
a game by.

An action is a small int (no allocation, cheap to store), laid out alike in every game:

    kind << KIND_SHIFT | player << PLAYER_SHIFT | first << FIRST_SHIFT | last

``kind`` is one the device's buttons make (``PLAY``, a card from a player's slot onto a
middle pile; ``MOVE``, a card from one of the player's slots to another; ``CALL``, what a
SPIT press asks for: Spit's spit, Speed's flip; ``SLAP``, the race for a pile when a round
ends), of which a game has those its rules know, or one of the game's own; ``first`` is a
slot and ``last`` a pile, or a slot. The accessors read it as python-chess's
``square_file()`` reads a square:

>>> action = play(1, 2, 0)
>>> kind_of(action) == PLAY, player_of(action), first_of(action), last_of(action)
(True, 1, 2, 0)

Where an action is taken apart on every press (the rules' checks, the controls, the play
screen) it is shifted and masked inline: a call costs tens of µs there. Those modules keep
private copies of these constants (``_KIND_SHIFT = const(9)``), since a ``const`` is
folded only in the module that defines it: another module's is a global lookup, and a
tuple of them (``phase in (PHASE_READY, PHASE_PLAY)``) is built, on the heap, at every
call. ``tests/test_games.py`` holds every copy to its value here.

**Which games there are**: each is a module (``spit.spit``, ``spit.speed``) holding

- ``Game(seed, options)``: its rules, a ``Rules``;
- ``cpu_player()``: its CPU player's class (``spit.cpu``'s machinery, its own choices);
- ``KEPT_OPTIONS``: the settings it keeps (``spit.options.CHOICES``' names; the others
  are another game's rules), and ``TRANSCRIPT_OPTIONS``: whether its transcripts carry
  the options line (they change its rules);
- ``action_word(action)``, ``parse_action_word(word)`` (ValueError if none) and
  ``ACTION_WORDS``: its transcripts' words, and how they read in an error;
- ``COUNTED``: the names of its figures a headless run reports (``Game`` attributes);
- ``ONE_ROUND``: True when a game is a single round.

The registry below gives each game's name that module's path and what the players call
for SPIT (None: the word the options choose), which the title shows before the game's
module is imported. Modules are imported when first asked for: every module imported at
boot takes heap and boot time. ``docs/architecture.md`` ("Adding a game") walks through
it.

>>> rules("speed").Game.NAME, call_word("speed", None)
('speed', 'SPEED')
"""

from micropython import const

from spit.options import WORDS

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len, max = len, max

PHASE_READY = const(0)  # laid out; waiting for the opening call
PHASE_PLAY = const(1)
PHASE_SLAP = const(2)  # round over; waiting for the slap (or the winner's pick)
PHASE_OVER = const(3)  # game over
PHASE_DEALING = const(4)  # round over; the next is dealt by ``deal()`` (``deals_later``)
PHASE_NAMES = ("ready", "play", "slap", "over", "dealing")

KIND_SHIFT = const(9)
PLAYER_SHIFT = const(8)
FIRST_SHIFT = const(4)
FIELD = const(15)  # the mask of ``first`` and ``last``

PLAY = const(0)
MOVE = const(1)
CALL = const(2)
SLAP = const(3)
CALL_ACTION = const(CALL << KIND_SHIFT)  # the only action of its kind

ROUND_ACTIONS = const(64)  # more than the longest round of 900 self-play games of Spit (61)
_ROUND = const(128)  # the least room made: a round's actions and more

# Why an action is refused, as the player is told, in every game.
NOT_NOW = "not now"
NO_CARD = "no card there"
NO_PILE = "no such pile"
NO_FIT = "doesn't fit"


def room_for_a_round(items, room):
    """Room in ``items`` (a game's history, its press times) for a round's actions, made
    between rounds so that appending allocates nothing during one (a list grows by
    doubling as it is appended to); ``room`` is the length up to which it had room, and
    the new one is returned. Made in one copy: appending item by item took about 1 ms."""
    count = len(items)
    if room - count >= ROUND_ACTIONS:
        return room
    items.extend(items if count > _ROUND else [0] * _ROUND)
    del items[count:]
    return count + max(count, _ROUND)


def action(kind, player, first, last):
    return kind << KIND_SHIFT | player << PLAYER_SHIFT | first << FIRST_SHIFT | last


def play(player, slot, pile):
    return PLAY << KIND_SHIFT | player << PLAYER_SHIFT | slot << FIRST_SHIFT | pile


def move(player, slot, to_slot):
    return MOVE << KIND_SHIFT | player << PLAYER_SHIFT | slot << FIRST_SHIFT | to_slot


def slap(player, pile):
    return SLAP << KIND_SHIFT | player << PLAYER_SHIFT | pile


def kind_of(action):
    return action >> KIND_SHIFT


def player_of(action):
    return (action >> PLAYER_SHIFT) & 1


def first_of(action):
    """The slot of a play or a move."""
    return (action >> FIRST_SHIFT) & FIELD


def last_of(action):
    """The pile of a play or a slap, the slot a move lands in."""
    return action & FIELD


class InvalidActionError(ValueError):
    """Not an action at all: an unknown kind, or a slot or pile number out of range."""


class IllegalActionError(ValueError):
    """A well-formed action the rules do not allow now; ``reason`` is for the player."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Outcome:
    """How a game ended: the winner (0 or 1) and why."""

    def __init__(self, winner, reason):
        self.winner = winner
        self.reason = reason

    def __repr__(self):
        return "Outcome(%d, %r)" % (self.winner, self.reason)


def endings(*reasons):
    """Every way a game ends, by why and who won, made once (a game's end allocates
    nothing): ``endings(WHY)[WHY][winner]``."""
    return {why: (Outcome(0, why), Outcome(1, why)) for why in reasons}


class Rules:
    """The shape every game's ``Game`` has, and the answers of a game without the thing
    asked about. The table is read through these names in every game:

    - ``stock[player][slot]``: the cards of a player's slot, its top last (Spit's stock
      piles; Speed's hand, a card a slot); ``face_up[player][slot]``: how many of them
      are face up; ``slots``: the slots a player has.
    - ``pack[player]``: the player's face-down cards still to come (Spit's pack, Speed's
      draw pile); ``middle``: the piles cards are played onto.
    - ``phase`` (``PHASE_*``), ``round`` (rounds finished), ``history`` (the actions
      applied), ``seed``, ``options``, ``word`` (what the players call for SPIT),
      ``deals_later`` and ``last_round`` (for a game of rounds).

    A game answers ``can_play``, ``is_stuck``, ``check``, ``play_refusal``, ``try_play``,
    ``apply`` and ``legal_actions`` itself; what is here it may keep.
    """

    deals_later = False  # only a game of rounds deals the next in passes of its own
    last_round = None
    cleared = -1  # who played out their cards, in a game of rounds

    def top(self, pile):
        """The top card of a middle pile, or -1 while it is empty."""
        cards = self.middle[pile]
        return cards[-1] if cards else -1

    def stock_top(self, player, slot):
        """The face-up top card of a slot, or -1 for an empty one."""
        cards = self.stock[player][slot]
        return cards[-1] if cards else -1

    def stock_count(self, player):
        count = 0
        for cards in self.stock[player]:
            count += len(cards)
        return count

    def held(self, player):
        """The cards a player still has to get rid of: their slots and pack."""
        return self.stock_count(player) + len(self.pack[player])

    def outcome(self):
        """None while the game goes on, then an ``Outcome``."""
        return self._outcome

    def is_legal(self, action):
        try:
            self.check(action)
        except ValueError:  # both refusals
            return False
        return True

    def pile_count(self):
        return len(self.middle)

    def one_pile(self):
        """A round played onto a single middle pile (Spit's ``middle=one``)."""
        return False

    def spitter_count(self):
        """How many cards a CALL turns up (a press in play allocates nothing)."""
        return len(self.middle)

    def own_call(self, player):
        """The action the player's SPIT press makes alone (Speed's call of the game
        once out of cards), or -1: a CALL, made once both players press."""
        return -1

    def prepare_spit(self):
        """The next step of work a CALL can have done ahead while nobody can move (Speed's
        gather); True while there was one."""
        return False

    def move_if_allowed(self, action):
        """A move between a player's own slots, if the game has them and this one is
        allowed now (True); else nothing changes (False)."""
        return False

    def may_slap(self, player):
        return False

    def dig_move(self, player):
        """A move that turns up a hidden card, or -1."""
        return -1

    def _require(self, condition, reason):
        if not condition:
            raise IllegalActionError(reason)


# -- which games there are ----------------------------------------------------


NAMES = ["spit", "speed"]  # in the order L/R and attract mode go round them
_MODULES = {"spit": "spit.spit", "speed": "spit.speed"}
_CALLS = {"spit": None, "speed": "SPEED"}
# A game's name -> its module and its CPU player's class, once imported: asking MicroPython's
# import again for a module it holds keeps 16 bytes of the heap at every call.
_LOADED = {}


def register(name, module, call=None):
    """Add the game ``name``, whose rules are the module at the path ``module``."""
    if name not in NAMES:
        NAMES.append(name)
    _MODULES[name] = module
    _CALLS[name] = call
    _LOADED.pop(name, None)


def rules(name):
    """The module of the game ``name``'s rules; KeyError for a game not registered."""
    return _load(name)[0]


def cpu_player(name):
    """The class of the game ``name``'s CPU player."""
    return _load(name)[1]


def prepare(name):
    """Import the game ``name``'s rules and CPU player now, in a break: a module imported
    in a pass a player waits on holds it up some 20 ms."""
    _load(name)


def _load(name):
    loaded = _LOADED.get(name)
    if loaded is None:
        module = __import__(_MODULES[name], None, None, ("Game",))
        loaded = _LOADED[name] = (module, module.cpu_player())
    return loaded


def call_word(name, options):
    """What the players call, and the screens say, for SPIT in the game ``name``."""
    word = _CALLS[name]
    return options.word if word is None else word


def calls():
    """Every word a SPIT press can be called by, in any game."""
    found = list(WORDS)
    for name in NAMES:
        if _CALLS[name] is not None and _CALLS[name] not in found:
            found.append(_CALLS[name])
    return found


def title(name):
    """A game's name as a title: ``Spit``, ``Speed``."""
    return name[0].upper() + name[1:]

