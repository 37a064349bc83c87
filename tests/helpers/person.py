"""A person at the device, for the player-path tests: looks at the table and presses keys.

A face (the window, the terminal view, the emulated Pico) shows the table; the person
reads it as a ``Look`` and picks the next keys as a player would: a card that fits a
pile, a gap filled to turn up a hidden card, SPIT when the device asks for it (and, in
Speed, once out of cards), a slap when the round is over. ``Script`` runs a person's
steps as a generator of waits (ms), so that any face can drive it from its own loop.
"""

from spit import keys
from spit.cards import adjacent, parse_card
from spit.layout import HALF_Y, ROW_PITCH
from spit.static_screens import READY_Y

from host_sim.judging.reading import SEED_Y, read_row

# What ``Look.screen`` holds: the names of ``spit.screens``.
CALLING = ("ready", "round result", "stuck")
NOBODY = (False, False)


class Look:
    """What a person sees of the table: the top card of each slot (-1: empty) and how
    many cards lie hidden under it, the spit piles' top cards, the card in each hand
    (a slot, -1: none), who has called, whether quick play is on, and who is out of
    cards with the game theirs to call (Speed's)."""

    def __init__(self, screen, tops, hidden, piles, hand, called, quick=True, out=NOBODY):
        self.screen = screen
        self.tops = tops
        self.hidden = hidden
        self.piles = piles
        self.hand = hand
        self.called = called
        self.quick = quick
        self.out = out

    @classmethod
    def of_device(cls, device):
        """The table of a simulated device, as its screen shows it."""
        screen = device.screen_name()
        session = device.session
        if session is None:
            return cls(screen, [[], []], [[], []], [], [-1, -1], [False, False])
        game = session.table.game
        controls = session.table.controls
        tops = [[game.stock_top(p, s) for s in range(game.slots)] for p in (0, 1)]
        hidden = [
            [len(game.stock[p][s]) - game.face_up[p][s] for s in range(game.slots)] for p in (0, 1)
        ]
        piles = [game.top(pile) for pile in range(game.pile_count())]
        return cls(
            screen,
            tops,
            hidden,
            piles,
            list(controls.hand),
            list(controls.called),
            game.options.quick == "on",
            tuple(game.own_call(p) >= 0 for p in (0, 1)),
        )

    def fits(self, card):
        """The piles ``card`` fits."""
        return [p for p, top in enumerate(self.piles) if top >= 0 and adjacent(card, top)]

    def pile_key(self, player, pile):
        """``L`` or ``R``: the pile button that means ``pile`` to ``player``."""
        return keys.LEFT if len(self.piles) == 1 or pile == player else keys.RIGHT

    def play_keys(self, player, slot, pile):
        """The keys that play the card in ``slot`` onto ``pile``."""
        if self.quick and self.fits(self.tops[player][slot]) == [pile]:
            return [slot]  # quick play: its button alone
        return [slot, self.pile_key(player, pile)]

    def plays(self, player):
        """Every ``(slot, pile)`` that ``player`` can play now."""
        return [
            (slot, pile)
            for slot, card in enumerate(self.tops[player])
            if card >= 0
            for pile in self.fits(card)
        ]

    def gap_fill(self, player):
        """``(slot, gap)``: a card with hidden cards under it, into an empty slot that
        it cannot be played from instead; or None."""
        tops = self.tops[player]
        if -1 not in tops:
            return None
        gap = tops.index(-1)
        for slot, card in enumerate(tops):
            if card >= 0 and self.hidden[player][slot] and not (self.quick and self.fits(card)):
                return slot, gap
        return None

    def next_keys(self, player):
        """The keys a person at ``player``'s seat presses next (empty: nothing to do)."""
        screen = self.screen
        if screen in CALLING:
            return [] if self.called[player] else [keys.SPIT]
        if screen == "slap":
            return [keys.LEFT]
        if screen != "play":
            return []
        if self.out[player]:
            return [keys.SPIT]  # Speed's call of the game: theirs
        if self.hand[player] >= 0:
            return [self.hand[player]]  # put back what an earlier press left in hand
        plays = self.plays(player)
        if plays:
            return self.play_keys(player, *plays[0])
        fill = self.gap_fill(player)
        return list(fill) if fill else []

    def race(self):
        """``(p1_slot, p2_slot, pile)``: both players' cards fit ``pile`` and player
        2's no longer fits once player 1's lands (a race player 2 loses); or None."""
        for slot1, pile in self.plays(0):
            card1 = self.tops[0][slot1]
            for slot2, pile2 in self.plays(1):
                card2 = self.tops[1][slot2]
                if pile2 == pile and not adjacent(card2, card1):
                    return slot1, slot2, pile
        return None


class Script:
    """A person's steps on a face, as a generator of waits in ms: ``steps`` is a
    generator function taking this script. The face calls ``resume(now_ms)`` from its
    loop; the script runs until its next wait, then waits until that much later.

    ``face`` offers ``down(button)``, ``up(button)``, ``look()`` (a ``Look``) and
    ``check()`` (raises when the device is not sane)."""

    def __init__(self, face, steps):
        self.face = face
        self._steps = steps(self)
        self._wake_ms = 0
        self.now_ms = 0
        self.done = False
        self.shown = []  # every screen seen, in order, without repeats

    def resume(self, now_ms):
        self.now_ms = now_ms
        if self.done or now_ms < self._wake_ms:
            return
        self.face.check()
        self._note(self.face.look().screen)
        try:
            self._wake_ms = now_ms + next(self._steps)
        except StopIteration:
            self.done = True

    def _note(self, screen):
        if not self.shown or self.shown[-1] != screen:
            self.shown.append(screen)

    # -- steps to ``yield from`` ---------------------------------------------------

    def tap(self, player, key, hold_ms=30, gap_ms=40):
        button = keys.button_id(player, key)
        self.face.down(button)
        yield hold_ms
        self.face.up(button)
        yield gap_ms

    def hold(self, player, key, ms):
        yield from self.tap(player, key, ms, 40)

    def keys(self, player, pressed):
        for key in pressed:
            yield from self.tap(player, key)

    def until(self, *screens, within_ms=2_000):
        """Wait until the screen is one of ``screens``."""
        waited = 0
        while self.face.look().screen not in screens:
            assert waited < within_ms, "still %r after %d ms, waiting for %s" % (
                self.face.look().screen,
                waited,
                screens,
            )
            yield 5
            waited += 5
        self._note(self.face.look().screen)


def look_at_text(lines, quick=True):
    """A ``Look`` from the terminal view's lines (``host_sim.sim.terminal``): the screen's
    name from its first line, the table from ``spit.textview``'s rows and status line (a
    player's line ends in the game's word and ``!`` once they have called)."""
    names = [line.split(": ", 1)[1].strip() for line in lines if "Spit handheld: " in line]
    screen = names[0] if names else ""  # nothing shown yet
    rows = [i for i, line in enumerate(lines) if line.startswith("P1  pack")]
    if not rows:
        return Look(screen, [[], []], [[], []], [], [-1, -1], [False, False], quick)
    p1 = rows[0]
    p2 = p1 - 7  # the table's lines: P2's, their row, a gap, the piles, ..., P1's row, P1's
    slots = [_row(lines[p1 - 1]), _row(lines[p2 + 1])[::-1]]
    piles = [_card(name) for name in _pile_tops(lines[p2 + 3])]
    called = [lines[p1].rstrip().endswith("!"), lines[p2].rstrip().endswith("!")]
    tops = [[card for card, _, _ in row] for row in slots]
    hidden = [[n for _, n, _ in row] for row in slots]
    hand = [next((i for i, (_, _, held) in enumerate(row) if held), -1) for row in slots]
    status = lines[p1 + 2]
    out = tuple(status.startswith("P%d is out of cards" % (p + 1)) for p in (0, 1))
    return Look(screen, tops, hidden, piles, hand, called, quick, out)


def _row(line):
    """``(card, hidden, selected)`` per slot of a textview row, left to right."""
    out = []
    line = line.ljust(3 + 9 * 5)
    for slot in range(5):
        text = line[3 + 9 * slot : 3 + 9 * slot + 8]
        body = text[1:7]
        name, _, hidden = body.partition("+")
        out.append((_card(name.strip()), int(hidden) if hidden.strip() else 0, text[0] == "["))
    return out


def _pile_tops(line):
    words = line.split()
    return [words[i + 1] for i, word in enumerate(words) if word in ("a", "b")]


def _card(name):
    return -1 if name in ("--", "") else parse_card(name)


# -- what a person reads off the screen's pixels (``VirtualDisplay.rgb()`` bytes) ----------


def turned(rgb):
    """The picture turned half a turn: player 2's half as player 2 reads it."""
    return b"".join(rgb[i : i + 3] for i in range(len(rgb) - 3, -1, -3))


def match_lines(rgb):
    """The ready screen's line about the match (``game 2 of 3: P1 1 - P2 0``) as player 1
    and as player 2 read it on their halves (None where there is none)."""
    y = HALF_Y + READY_Y[2]
    return read_row(rgb, y), read_row(turned(rgb), y)


def title_prompt(rgb):
    """The title's ``press SPIT`` (or ``press SPEED``) line, as player 1 reads it."""
    return read_row(rgb, SEED_Y - 2 * ROW_PITCH)


def match_line(games, of=3, seats=("P1", "P2")):
    """What the ready screen says about the match, ``games`` won so far."""
    if of == 1:
        return "one game decides the match"
    return "game %d of %d: %s %d - %s %d" % (
        sum(games) + 1,
        of,
        seats[0],
        games[0],
        seats[1],
        games[1],
    )
