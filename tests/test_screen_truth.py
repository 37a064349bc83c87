"""The play screen tells the truth: what it shows, read back from the panel's pixels, is
what the game holds.

Random matches of Spit and Speed run on the simulated device (``host_sim.sim.simulated_device``),
drawing onto the virtual panel: person seats pressed at random, CPU seats at every
level, the rule options and layouts drawn at random, and on some seeds the device's own
pace of one region a call. Whenever the game and the controls have held still for
``SETTLE_PASSES`` passes and the panel has been sent nothing for ``QUIET_PASSES`` (the
screen has followed the change), and again after each later change of the panel, each
half is read off the panel's pixels as its player sees it (player 2's turned upright,
``host_sim.judging.reading``): the name and its CPU tag, ``pack N``, the SPIT call's badge,
each stock slot's top card, the spit piles' top cards both ways up and their counts, and
the message row. Each is compared with the rules' game and the controls, never with what
the renderer keeps. Cards are read by their rank glyphs (``spit.pictures.RANKS``, as
text is read by framebuf's font), and a 6 or a 9 must carry its underline and no other
rank one.
"""

import random

import framebuf
import pytest
from helpers.positions import position
from spit import keys
from spit.cards import RANK_COUNT, RANK_NAMES
from spit.controls import Controls
from spit.games import PHASE_PLAY, PHASE_READY, PHASE_SLAP
from spit.layout import (
    BIG_SCALE,
    CALL_X,
    CARD_H,
    CARD_W,
    COUNT_Y,
    INDEX_INSET,
    INDEX_SCALE,
    INFO_Y,
    INSET,
    MARGIN,
    MESSAGE_Y,
    NAME_X,
    PACK_X,
    PILE_Y,
    STOCK_Y,
    WIDTH,
    pile_x,
    slot_x,
)
from spit.options import Options
from spit.pictures import RANKS
from spit.render import Renderer
from spit.screens import PLAY
from spit.spit import SPIT_ACTION

from host_sim.display.wiring import wired_display
from host_sim.judging.reading import read_row, read_text, turned
from host_sim.sim.simulated_device import HUMAN, Device, SimulatedClock

# The screen has followed the game when the game and the controls have held still for
# SETTLE_PASSES and the panel has been sent nothing for QUIET_PASSES.
SETTLE_PASSES = 60
QUIET_PASSES = 20
LEVELS = ("relaxed", "steady", "quick", "lightning")
SIX, NINE = 5, 8  # ranks as the cards count them: ace 0
UNDERLINED = "_"  # after a rank whose glyph is underlined


# -- reading the panel --------------------------------------------------------------


def _glyph_pixels(runs, scale):
    """The ink pixels ``(x, y)`` of a rank glyph magnified ``scale`` times."""
    ink = set()
    for i in range(2, len(runs), 3):
        left, top, length = runs[i], runs[i + 1], runs[i + 2]
        for x in range(left * scale, (left + length) * scale):
            for y in range(top * scale, (top + 1) * scale):
                ink.add((x, y))
    return ink


_GLYPHS = {
    scale: [(runs[0] * scale, runs[1] * scale, _glyph_pixels(runs, scale)) for runs in RANKS]
    for scale in (BIG_SCALE, INDEX_SCALE)
}


class Picture:
    """A picture of the screen, as one player sees it (player 2's turned upright)."""

    def __init__(self, rgb):
        self.rgb = rgb
        counts = {}
        for at in range(0, len(rgb), 3 * 97):  # a sample is enough for the felt
            colour = rgb[at : at + 3]
            counts[colour] = counts.get(colour, 0) + 1
        self.felt = max(counts, key=counts.get)

    def pixel(self, x, y):
        at = (y * WIDTH + x) * 3
        return self.rgb[at : at + 3]

    def text(self, x, y, length):
        return read_text(self.rgb, x, y, length).strip()

    def message(self):
        """The message row: its text, "" when bare, or what the font cannot read."""
        text = read_row(self.rgb, MESSAGE_Y)
        if text is not None:
            return text
        return "" if self._bare(0, MESSAGE_Y, WIDTH) else "<unreadable>"

    def count(self, x):
        """A pile's count, centred over the card at ``x`` ("" when none shows)."""
        for digits in (1, 2):
            left = x + (CARD_W - 8 * digits) // 2
            text = read_text(self.rgb, left, COUNT_Y, digits)
            if text.isdigit():
                return text
        return "" if self._bare(x, COUNT_Y, CARD_W) else "<unreadable>"

    def _bare(self, x, y, w):
        """Whether the ``w`` by 8 pixels at ``x, y`` are all felt."""
        felt = self.felt * w
        return all(
            self.rgb[((y + dy) * WIDTH + x) * 3 : ((y + dy) * WIDTH + x + w) * 3] == felt
            for dy in range(8)
        )

    def card_face(self, x, y):
        """The face colour of a card at ``x, y``, or None for no card (felt, a dim place)."""
        colour = self.pixel(x + CARD_W // 2, y + 1)  # along its top edge, clear of glyphs
        return None if colour == self.felt else colour

    def rank(self, x, y, scale, face, top=None):
        """The rank of the glyph at ``x`` (its top at ``y``, or the first ink found in rows
        ``top``), its name and ``_`` when an underline lies under it; "?" for no glyph."""
        if top is not None:
            y = next((row for row in range(*top) if self._ink(x, row, 7 * scale, face)), None)
            if y is None:
                return "?"
        glyphs = _GLYPHS[scale]
        most_w = max(w for w, _, _ in glyphs)
        most_h = max(h for _, h, _ in glyphs)
        seen = {
            (dx, dy)
            for dy in range(most_h)
            for dx in range(most_w)
            if self.pixel(x + dx, y + dy) != face
        }
        for rank, (w, h, ink) in enumerate(glyphs):
            if {(dx, dy) for dx, dy in seen if dx < w and dy < h} == ink:
                colour = self.pixel(x + min(ink)[0], y + min(ink)[1])
                underlined = self._underlined(x, y + h, w, scale, colour)
                return RANK_NAMES[rank] + (UNDERLINED if underlined else "")
        return "?"

    def _ink(self, x, y, w, face):
        return any(self.pixel(x + dx, y) != face for dx in range(w))

    def _underlined(self, x, y, w, scale, colour):
        """A bar in the glyph's ``colour`` under it: within a few rows of its foot, a row
        inked along at least half the glyph's width (the suit lies further right)."""
        for row in range(y, y + 2 * scale + 1):
            inked = sum(1 for dx in range(w - 2 * scale) if self.pixel(x + dx, row) == colour)
            if inked >= w // 2:
                return True
        return False


def shown(picture, slots, piles):
    """What one half shows, read off ``picture`` (that player's view)."""
    half = {
        "name": picture.text(NAME_X, INFO_Y + 2, 6),
        "pack": picture.text(PACK_X, INFO_Y + 2, 8),
        "call": _badge(picture),
        "message": picture.message(),
    }
    for slot in range(slots):
        x = slot_x(slots, slot) + MARGIN
        face = picture.card_face(x, STOCK_Y + MARGIN)
        half["stock %d" % (slot + 1)] = (
            "empty"
            if face is None
            else picture.rank(x + INSET, STOCK_Y + MARGIN + INSET, BIG_SCALE, face)
        )
    for pile in range(piles):
        x = pile_x(piles, pile)
        face = picture.card_face(x, PILE_Y)
        half["pile %s" % "ab"[pile]] = (
            "empty"
            if face is None
            else picture.rank(
                x + INDEX_INSET,
                0,
                INDEX_SCALE,
                face,
                top=(PILE_Y + CARD_H // 2, PILE_Y + CARD_H - 1),
            )
        )
        half["count %s" % "ab"[pile]] = picture.count(x)
    return half


def _badge(picture):
    """The SPIT call's badge: its text (8x8 text with two pixels each side), or "" where
    the felt shows."""
    width = 0
    while picture.pixel(CALL_X + width, INFO_Y + 1) != picture.felt:
        width += 1
    return picture.text(CALL_X + 2, INFO_Y + 2, (width - 4) // 8) if width else ""


# -- what the game holds ---------------------------------------------------------------


def card_shown(card):
    if card < 0:
        return "empty"
    rank = card % RANK_COUNT
    return RANK_NAMES[rank] + (UNDERLINED if rank in (SIX, NINE) else "")


def lone_spitter(game):
    """The only player with a card to spit (Spit), or -1 when both spit."""
    if game.spitter_count() == 2 or bool(game.pack[0]) == bool(game.pack[1]):
        return -1
    return 0 if game.pack[0] else 1


def messages(game, controls, player):
    """The message rows ``player``'s half may show."""
    word = game.word
    phase = game.phase
    if phase == PHASE_READY:
        return {"both press " + word}
    if phase == PHASE_SLAP:
        if game.options.pick == "winner" and game.cleared >= 0:
            return {"P%d picks a pile" % (game.cleared + 1)}
        return {"SLAP the pile" if game.one_pile() else "SLAP the smaller pile"}
    if phase == PHASE_PLAY and game.is_stuck():
        if game.options.spit == "auto" and game.NAME == "spit":
            return {"nobody can move"}
        spitter = lone_spitter(game)
        if spitter < 0 or spitter == player:
            return {"nobody can move - press " + word}
        return {"nobody can move - P%d spits" % (spitter + 1)}
    banner = controls.contest.text() if controls.contest.winner >= 0 else ""
    return {"", banner}


def held(game, controls, seats, player):
    """What ``player``'s half must show."""
    piles = game.pile_count()
    side = {
        "name": "P%d" % (player + 1) + (" CPU" if seats[player] != HUMAN else ""),
        "pack": "pack %d" % len(game.pack[player]),
        "call": game.word + "!" if controls.called[player] else "",
        "message": messages(game, controls, player),
    }
    for slot in range(game.slots):
        side["stock %d" % (slot + 1)] = card_shown(game.stock_top(player, slot))
    # The piles as this player sees them: player 2 sees player 1's pile a on their right.
    for pile in range(piles):
        seen = pile if player == 0 else piles - 1 - pile
        side["pile %s" % "ab"[seen]] = card_shown(game.top(pile))
        counts = game.options.counts == "on"
        side["count %s" % "ab"[seen]] = str(len(game.middle[pile])) if counts else ""
    return side


def differences(half, expected):
    """Where a half's screen and the game disagree, one line each."""
    wrong = []
    for name, value in expected.items():
        if isinstance(value, set):
            if half[name] not in value:
                want = " or ".join(repr(v) for v in sorted(value))
                wrong.append(
                    "%s: the screen shows %r, the game holds %s" % (name, half[name], want)
                )
        elif half[name] != value:
            wrong.append("%s: the screen shows %r, the game holds %r" % (name, half[name], value))
    return wrong


# -- the games -----------------------------------------------------------------------


def random_setup(rng, game_name):
    options = Options()
    for name, values in (
        ("layout", ("1-5", "3x5", "1-4")),
        ("middle", ("two", "one")),
        ("pick", ("slap", "winner")),
        ("stack", ("off", "on")),
        ("word", ("SPIT", "SLAM")),
        ("spit", ("call", "auto")),
        ("quick", ("on", "off")),
        ("counts", ("on", "off")),
    ):
        options.set(name, rng.choice(values))
    seats = tuple(rng.choice((HUMAN,) + LEVELS) for _ in (0, 1))
    return options, seats


class Truth:
    """A simulated device whose screen is read back and checked, a pass at a time."""

    def __init__(self, seed, game_name):
        rng = random.Random(seed)
        self.rng = rng
        self.options, self.seats = random_setup(rng, game_name)
        self.clock = SimulatedClock()
        self.device = Device(
            self.clock, self.options, seed, self.seats, screen=True, game=game_name
        )
        self.region_a_call = rng.random() < 0.5
        if self.region_a_call:
            self.device.controller.scheduler.renderer.regions_per_call = 1  # the device's pace
        self.setup = "%s seed %d, seats %s, %s, %s" % (
            game_name,
            seed,
            self.seats,
            " ".join(
                "%s=%s" % (name, self.options.get(name))
                for name in ("layout", "middle", "pick", "spit", "counts")
            ),
            "a region a call" if self.region_a_call else "whole screens",
        )
        self.passes = 0
        self.checks = 0
        self._state = None
        self._still = 0
        self._sent = -1  # the panel's bytes at the last pass, and since when
        self._quiet = 0
        self._checked = -1  # the panel's bytes when last checked
        self._downs = {}  # a person's button down, and the pass it comes up

    def state(self):
        """Everything the screen shows of the game and the controls, to notice a change."""
        controller = self.device.controller
        if controller.screen() != PLAY:
            return None
        table = controller.session.table
        game = table.game
        controls = table.controls
        return (
            id(game),
            len(game.history),
            game.phase,
            game.round,
            tuple(controls.called),
            controls.contest.winner,
            controls.contest.margin_us,
            controls.contest.unsettled,
            controls.clocks.stuck_check_at >= 0,
        )

    def press_at_random(self):
        """Each person seat presses a random button now and then, held a while."""
        for button, up in list(self._downs.items()):
            if self.passes >= up:
                self.device.release(button)
                del self._downs[button]
        for player in (0, 1):
            if self.seats[player] == HUMAN and self.rng.random() < 0.02:
                button = keys.button_id(player, self.rng.randrange(keys.KEYS_PER_PLAYER))
                if button not in self._downs:
                    self.device.press(button)
                    self._downs[button] = self.passes + self.rng.randrange(20, 150)

    def run(self, passes):
        for _ in range(passes):
            self.press_at_random()
            self.device.step()
            self.clock.advance(1000)
            self.passes += 1
            handheld = self.device.handheld
            assert handheld.errors == 0, handheld.last_error
            self.look()

    def look(self):
        sent = self.device.virtual.bytes_received
        if sent != self._sent:
            self._sent = sent
            self._quiet = 0
        else:
            self._quiet += 1
        state = self.state()
        if state != self._state:
            self._state = state
            self._still = 0
            self._checked = -1
            return
        self._still += 1
        if state is None or self._still < SETTLE_PASSES or self._quiet < QUIET_PASSES:
            return
        if sent != self._checked:
            self._checked = sent
            self.check()

    def check(self):
        self.checks += 1
        table = self.device.controller.session.table
        game = table.game
        rgb = self.device.virtual.rgb()
        for player, view in ((0, rgb), (1, turned(rgb))):
            half = shown(Picture(view), game.slots, game.pile_count())
            wrong = differences(half, held(game, table.controls, self.seats, player))
            assert not wrong, "pass %d, P%d's half (%s):\n  %s" % (
                self.passes,
                player + 1,
                self.setup,
                "\n  ".join(wrong),
            )


def play_and_check(seed, game_name, passes):
    truth = Truth(seed, game_name)
    truth.run(passes)
    assert truth.checks > 0, "the play screen was never checked (%s)" % truth.setup
    return truth


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_speed_screen_shows_what_the_game_holds(seed):
    play_and_check(seed, "speed", 15_000)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 5, 7])  # layouts 1-5, 1-4 with one pile, 3x5
def test_the_spit_screen_shows_what_the_game_holds(seed):
    play_and_check(seed, "spit", 15_000)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100, 140))
@pytest.mark.parametrize("game_name", ["spit", "speed"])
def test_the_screen_shows_what_the_game_holds_in_many_games(seed, game_name):
    play_and_check(seed, game_name, 60_000)


@pytest.mark.parametrize("regions_per_call", [0, 1])
def test_a_player_with_nothing_to_spit_is_told_who_spits(regions_per_call):
    # Nobody can move and player 2's pack is empty: player 1 spits alone.
    game = position(["KS"], ["KC"], ("6S", "8D"), packs=(5, 0))
    controls = Controls(game)
    display, virtual = wired_display()
    renderer = Renderer(display, framebuf)
    renderer.regions_per_call = regions_per_call
    seats = (HUMAN, HUMAN)
    for _ in range(200):  # a region a call: the calls until it is all drawn
        renderer.play(game, controls)
    for player, view in ((0, virtual.rgb()), (1, turned(virtual.rgb()))):
        half = shown(Picture(view), game.slots, game.pile_count())
        assert differences(half, held(game, controls, seats, player)) == []
    assert Picture(turned(virtual.rgb())).message() == "nobody can move - P1 spits"
    # Player 2's SPIT calls nothing; player 1's alone spits.
    controls.press(keys.button_id(1, keys.SPIT), 1_000)
    assert controls.called == [False, False]
    assert controls.presses_for(1, SPIT_ACTION) == []
    controls.press(keys.button_id(0, keys.SPIT), 2_000)
    assert game.spits == 1 and len(game.pack[0]) == 4
