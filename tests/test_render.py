"""The renderer (SPEC section 5): what each screen shows, what a frame sends, and that
the device draws the same bytes.

Scenes are drawn on CPython with the fake ``framebuf`` onto ``Screen``, a display that
keeps every pixel it is sent, as the panel does (its source runs unchanged on the
MicroPython VM too). Golden PNGs of every screen live in ``tests/golden/``; after a
deliberate change to the drawing, regenerate them with

    SPIT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_render.py -k golden

and look at them before committing.
"""

import inspect
import os
from pathlib import Path

import framebuf
import pytest
from helpers.positions import position
from spit import layout, pen, speed
from spit.cards import RANK_COUNT, parse_card
from spit.controls import Controls
from spit.games import PHASE_DEALING, PHASE_PLAY, PHASE_SLAP, play
from spit.options import Options
from spit.pen import DIM, EDGE, FELT, HIGHLIGHT, RED, SHADOW, WHITE, colour
from spit.pictures import RANKS, RED_SUITS, SUITS
from spit.play_regions import Regions
from spit.render import Renderer
from spit.rows import wrap
from spit.scheduler import ANSWER, HEAP, TAKE
from spit.self_test_screen import COLOUR_BARS
from spit.selfplay import Race
from spit.spit import SPIT_ACTION, Game, RoundEnd
from spit.spit_cpu import SpitCpu

from host_sim.bench import renderer as bench_display
from host_sim.display import png, wired_display

GOLDEN = Path(__file__).resolve().parent / "golden"


class Screen:
    """A display that keeps every pixel it is sent, as the panel does. Its source also
    runs on the VM (``SCREEN``), so both sides draw onto the same thing."""

    width = 320
    height = 240

    def __init__(self):
        self.pixels = bytearray(320 * 240 * 2)
        self.windows = []
        self.bytes = 0
        self.shows = 0
        self.fills = 0
        self.record = True

    def fill(self, c):
        self.fills += 1
        self.bytes += 320 * 240 * 2
        self.pixels[:] = bytes((c & 0xFF, c >> 8)) * (320 * 240)

    def fill_rows(self, c, y, h):
        self.bytes += 320 * h * 2
        if self.record:
            self.pixels[y * 640 : (y + h) * 640] = bytes((c & 0xFF, c >> 8)) * (320 * h)

    def show(self, x, y, w, h, buf):
        self.shows += 1
        self.bytes += len(buf)
        if not self.record:
            return
        self.windows.append((x, y, w, h))
        for row in range(h):
            at = ((y + row) * 320 + x) * 2
            self.pixels[at : at + 2 * w] = buf[row * 2 * w : (row + 1) * 2 * w]

    def show_turned(self, x, y, w, h, buf):
        """As ``show``, the window turned half a turn: its pixels in reverse order."""
        self.shows += 1
        self.bytes += len(buf)
        if not self.record:
            return
        self.windows.append((x, y, w, h))
        last = len(buf) - 2
        for row in range(h):
            at = ((y + row) * 320 + x) * 2
            for i in range(0, 2 * w, 2):
                self.pixels[at + i] = buf[last - row * 2 * w - i]
                self.pixels[at + i + 1] = buf[last - row * 2 * w - i + 1]


SCREEN = inspect.getsource(Screen)


def pixel(screen, x, y):
    """The framebuf colour value of a screen pixel."""
    at = (y * 320 + x) * 2
    return screen.pixels[at] | screen.pixels[at + 1] << 8


def turned(screen, x, y):
    """The pixel that lands on ``x, y`` when the screen turns 180 degrees."""
    return pixel(screen, 319 - x, 239 - y)


def rows_of(screen, y, h):
    return [[pixel(screen, x, row) for x in range(320)] for row in range(y, y + h)]


def felt_only(screen, x, y, w, h):
    return all(pixel(screen, i, j) == FELT for j in range(y, y + h) for i in range(x, x + w))


def drawn(options=""):
    """A game in play, its controls, and a renderer that has drawn it once."""
    game = position(
        ["KS", "2C 5D", "", "9H", "JC QD"],
        ["6C", "", "8D 7S", "", "10H"],
        ("4H", "8C"),
        options=options,
    )
    controls = Controls(game)
    screen = Screen()
    renderer = Renderer(screen, framebuf)
    renderer.play(game, controls)
    screen.windows.clear()
    screen.bytes = 0
    return game, controls, screen, renderer


def slot_window(slots, slot, player=0):
    x = layout.slot_x(slots, slot)
    face = (x, layout.STOCK_Y, layout.FACE_W, layout.FACE_H)
    edges = (x + layout.FACE_W, layout.STOCK_Y, layout.EDGES_W, layout.FACE_H)
    if player == 1:
        face, edges = mirrored(face), mirrored(edges)
    return face, edges


def mirrored(window):
    x, y, w, h = window
    return (320 - x - w, 240 - y - h, w, h)


def bands(window, player=0):
    """A card's window as the bands it is sent in, its owner's top band first."""
    x, y, w, h = window
    band_h = -(-h // layout.CARD_BANDS)
    found = [(x, y + top, w, min(band_h, h - top)) for top in range(0, h, band_h)]
    return [mirrored(band) for band in bands(mirrored(window))] if player == 1 else found


def pile_bands(piles, pile):
    return bands((layout.pile_x(piles, pile), layout.PILE_Y, layout.CARD_W, layout.CARD_H))


# -- the palette and the glyphs --------------------------------------------------------


def test_colours_are_rgb565_with_the_bytes_swapped_for_the_panel():
    assert colour(255, 0, 0) == 0x00F8  # stored little-endian: the panel reads F8 00
    assert colour(0, 0, 255) == 0x1F00
    assert colour(0, 100, 50) == FELT
    assert colour(200, 0, 0) == RED
    assert colour(255, 210, 0) == HIGHLIGHT
    assert colour(235, 235, 220) == EDGE
    assert colour(60, 70, 60) == SHADOW
    assert colour(255, 255, 255) == WHITE
    assert colour(250, 250, 240) == pen.FACE
    assert colour(30, 60, 170) == pen.BACK
    assert colour(20, 30, 20) == pen.OUTLINE
    assert colour(90, 140, 110) == DIM
    assert colour(120, 200, 255) == pen.CPU_TAG


def test_every_rank_and_suit_has_its_own_glyph():
    assert len(RANKS) == RANK_COUNT and len(SUITS) == 4
    assert len(set(RANKS)) == RANK_COUNT and len(set(SUITS)) == 4
    for glyph in RANKS + SUITS:
        width, height = glyph[0], glyph[1]
        inked = set()
        for i in range(2, len(glyph), 3):
            x, y, length = glyph[i : i + 3]
            assert length > 0 and x + length <= width and y < height
            row = {(x + n, y) for n in range(length)}
            assert not row & inked
            inked |= row
        assert {y for _, y in inked} == set(range(height))  # no blank row
    assert {glyph[1] for glyph in RANKS} == {9}
    assert {(glyph[0], glyph[1]) for glyph in SUITS} == {(7, 7)}
    assert RED_SUITS == (False, True, True, False)  # clubs, diamonds, hearts, spades


def test_the_colour_bars_are_the_primaries_and_their_mixes():
    primaries = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
    mixes = ((0, 255, 255), (255, 0, 255), (255, 255, 0), (255, 255, 255), (0, 0, 0))
    assert tuple(colour(r, g, b) for r, g, b in primaries + mixes) == COLOUR_BARS


def test_wrap_breaks_between_words_and_splits_long_words():
    assert wrap("nobody can move - press SPIT", 12) == ["nobody can", "move - press", "SPIT"]
    assert wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert wrap("one\ntwo", 20) == ["one", "two"]


# -- the play screen -------------------------------------------------------------------


def test_a_played_card_resends_only_its_slot_and_its_pile():
    game, controls, screen, renderer = drawn()
    game.apply(play(0, 1, 0))  # P1's 5D onto 4H
    controls.changed()
    renderer.play(game, controls)
    face, edges = slot_window(5, 1)
    gone = (edges[0], edges[1], layout.EDGE_STEP, layout.FACE_H)  # the 2C's edge, now felt
    column = (layout.stack_x(2, 0, 1), layout.PILE_Y, layout.STACK_STEP, layout.CARD_H)
    # The pile first, then the slot's card and edges, each card in two bands.
    assert screen.windows == [column, *pile_bands(2, 0), *bands(face), gone]
    assert felt_only(screen, *edges)
    assert screen.bytes == sum(w * h * 2 for _, _, w, h in screen.windows) < 16384
    assert renderer.full_redraws == 1
    screen.windows.clear()
    renderer.play(game, controls)
    assert screen.windows == []  # nothing changed, nothing sent


def test_the_play_screen_looks_at_the_game_only_when_the_controls_tell_a_change():
    game, controls, screen, renderer = drawn()
    game.apply(play(0, 1, 0))  # P1's 5D onto 4H, not told
    renderer.play(game, controls)
    assert screen.windows == []
    controls.changed()
    renderer.play(game, controls)
    assert len(screen.windows) == 2 + 2 * layout.CARD_BANDS, "the pile and the slot"


def test_a_region_a_call_sends_the_pile_first_then_the_slot_card_then_its_edges():
    game, controls, screen, renderer = drawn()
    renderer.regions_per_call = 1
    game.apply(play(0, 1, 0))  # P1's 5D onto 4H
    controls.changed()
    renderer.play(game, controls)
    face, edges = slot_window(5, 1)
    gone = (edges[0], edges[1], layout.EDGE_STEP, layout.FACE_H)
    first, *others = pile_bands(2, 0)
    column = (layout.stack_x(2, 0, 1), layout.PILE_Y, layout.STACK_STEP, layout.CARD_H)
    assert screen.windows == []  # the call that follows the card: it only queues
    expected = [column, first, *others, *bands(face), gone]
    for sent in range(1, len(expected) + 1):  # a region a call: the pile's new edge first
        renderer.play(game, controls)
        assert screen.windows == expected[:sent]
    renderer.play(game, controls)  # the pile's count, which has nothing to show (counts=off)
    assert renderer.busy, "the labels and the message row are looked at by the next call"
    renderer.play(game, controls)
    assert not renderer.busy
    renderer.play(game, controls)
    assert len(screen.windows) == len(expected)  # all caught up: nothing more to send


def test_frames_spread_over_calls_end_on_the_same_screen():
    game = Game(4)
    race = Race(game, (SpitCpu(0, "quick", 4), SpitCpu(1, "quick", 4)))
    controls = Controls(game)
    whole, spread = Screen(), Screen()
    at_once, bit_by_bit = Renderer(whole, framebuf), Renderer(spread, framebuf)
    bit_by_bit.regions_per_call = 1
    most = 0
    followed = 0
    while len(game.history) < 150:
        round_, phase = game.round, game.phase
        if not race.step():
            break
        controls.changed()
        at_once.play(game, controls)
        sent = spread.bytes
        bit_by_bit.play(game, controls)
        if game.round == round_ and phase == PHASE_PLAY:  # a new round is drawn whole
            followed += 1
            most = max(most, spread.bytes - sent)
    calls = 0
    while bit_by_bit.busy and calls < 200:  # the regions still pending
        bit_by_bit.play(game, controls)
        calls += 1
    assert not bit_by_bit.busy
    assert spread.pixels == whole.pixels
    assert followed > 60
    slot = (layout.FACE_W + layout.EDGES_W) * layout.FACE_H * 2
    message = 2 * layout.WIDTH * layout.MESSAGE_H * 2
    assert most <= slot + message  # one region, and then the message row both ways up


def test_a_change_in_every_call_still_lets_regions_out(monkeypatch):
    game, controls, screen, renderer = drawn()
    renderer.regions_per_call = 1
    drawn_regions = []
    draw = Regions.draw

    def counted(self, game, controls, region):
        drawn_regions.append(region)
        return draw(self, game, controls, region)

    monkeypatch.setattr(Regions, "draw", counted)
    regions = []
    for call in range(10):
        controls.hand[0] = 3 * (call % 2)  # KS, 9H, KS...: mashed buttons move the hand
        controls.changed()
        renderer.play(game, controls)
        regions.append(len(drawn_regions))
    assert regions == [0, 0, 0, 0, 1, 1, 1, 1, 1, 2], "four calls that only follow, one draws"


def test_a_region_a_call_draws_the_message_where_the_text_reaches_player_one_first():
    game, controls, screen, renderer = drawn()
    renderer.regions_per_call = 1
    controls.contest.set(1, 310, False)  # a margin banner
    controls.changed()
    calls = []
    while True:
        renderer.play(game, controls)
        calls.append(list(screen.windows))
        screen.windows.clear()
        if not renderer.busy:
            break
    row = (layout.MESSAGE_Y, 40, layout.MESSAGE_H)
    turned = (240 - layout.MESSAGE_Y - layout.MESSAGE_H, 40, layout.MESSAGE_H)
    # The call that notices the banner follows it, the next decides the message; then an
    # eighth of the row a call, where the text (x 108 to 211) reaches, each piece drawing
    # its own characters; player 2's copy from their left, which is player 1's right.
    assert calls == [[], []] + [[(x, *row)] for x in (80, 120, 160, 200)] + [
        [(x, *turned)] for x in (200, 160, 120, 80)
    ]
    assert message_rows(screen) == text_row("P2 by 0.31 ms", WHITE)


def test_a_region_a_call_spreads_a_whole_redraw_clear_first():
    game, controls, screen, renderer = drawn()
    renderer.regions_per_call = 1
    renderer.invalidate()
    sent = []
    while True:
        before = screen.bytes
        renderer.play(game, controls)
        sent.append(screen.bytes - before)
        if not renderer.busy:
            break
    strips = 240 // 2
    assert sent[0] == 0  # the first call sets the table out and sends nothing
    assert sent[1 : strips + 1] == [320 * 2 * 2] * strips  # the clear, 2 rows a call
    slot = (layout.FACE_W + layout.EDGES_W) * layout.FACE_H * 2
    assert max(sent[strips + 1 :]) <= slot
    alone = Screen()
    Renderer(alone, framebuf).play(game, controls)
    assert screen.pixels == alone.pixels


def test_a_new_screen_answering_a_press_sends_its_first_strip_in_its_first_call():
    game, controls, screen, renderer = drawn()
    renderer.regions_per_call = 1

    def redraw(share):
        renderer.invalidate()
        renderer.play(game, controls, (False, False), share)

    screens = (
        lambda share: renderer.ready("SPIT", [False, False], (False, False), "", share=share),
        lambda share: renderer.countdown(3, share),
        redraw,
    )
    for share in (ANSWER, None):
        for draw in screens:
            before = screen.bytes
            draw(share)
            assert screen.bytes - before == (320 * 2 * 2 if share == ANSWER else 0)
            assert renderer.busy


def test_a_call_that_takes_values_draws_nothing_and_stepping_on_draws_the_rest():
    game, controls, screen, renderer = drawn()
    renderer.regions_per_call = 1
    before = screen.bytes
    renderer.ready("SPIT", [False, False], (False, False), "", share=TAKE)
    assert screen.bytes == before and renderer.busy, "the values taken, nothing sent"
    calls = 0
    while renderer.step() and renderer.busy:
        calls += 1
    assert calls > 120 and not renderer.busy, "a clear's strips, then the rows, a call each"
    alone = Renderer(Screen(), framebuf)
    alone.ready("SPIT", [False, False])
    assert screen.pixels == alone.display.pixels
    renderer.play(game, controls, (False, False), TAKE)  # its table set out, not sent
    assert screen.pixels == alone.display.pixels and renderer.busy
    calls = 0
    while renderer.busy:
        assert renderer.step(), "the play screen goes on without being called"
        calls += 1
    assert calls > 100, "the clear's strips and the regions, a call each"
    whole = Renderer(Screen(), framebuf)
    whole.play(game, controls)
    assert screen.pixels == whole.display.pixels


def test_stepping_the_play_screen_draws_nothing_once_its_round_is_over():
    game, controls, screen, renderer = drawn()
    renderer.regions_per_call = 1
    game.apply(play(1, 2, 1))
    controls.changed()
    renderer.play(game, controls, (False, False), TAKE)
    assert renderer.busy
    game.phase = PHASE_DEALING
    before = screen.bytes
    assert renderer.step() and screen.bytes == before


def test_the_call_after_one_that_took_values_draws_its_region():
    _, _, screen, renderer = drawn()
    renderer.regions_per_call = 1
    renderer.ready("SPIT", [False, False], (False, False), "", share=TAKE)
    before = screen.bytes
    assert renderer.step()
    assert screen.bytes - before == 320 * 2 * 2, "the clear's first strip: taking was paid"


def test_player_two_s_played_card_resends_the_same_regions_turned():
    game, controls, screen, renderer = drawn()
    game.apply(play(1, 2, 1))  # P2's 7S onto 8C
    controls.changed()
    renderer.play(game, controls)
    face, edges = slot_window(5, 2, player=1)
    gone = (edges[0] + edges[2] - layout.EDGE_STEP, edges[1], layout.EDGE_STEP, layout.FACE_H)
    column = (layout.stack_x(2, 1, 1), layout.PILE_Y, layout.STACK_STEP, layout.CARD_H)
    assert screen.windows == [column, *pile_bands(2, 1), *bands(face, 1), gone]
    assert felt_only(screen, *edges)


def test_the_played_card_shows_on_the_pile_both_ways_up():
    game, controls, screen, renderer = drawn()
    game.apply(play(0, 1, 0))
    controls.changed()
    renderer.play(game, controls)
    x, y = layout.pile_x(2, 0), layout.PILE_Y
    five = RANKS[parse_card("5D") % 13]
    four = RANKS[parse_card("4H") % 13]
    scale = layout.INDEX_SCALE
    top = y + layout.CARD_H - layout.INDEX_INSET - five[1] * scale
    left = x + layout.INDEX_INSET
    ink = set()
    for i in range(2, len(five), 3):
        gx, gy, length = five[i : i + 3]
        for n in range(length * scale):
            for m in range(scale):
                ink.add((left + gx * scale + n, top + gy * scale + m))
    assert all(pixel(screen, px, py) == RED for px, py in ink)
    # Player 2 reads the same index from their side: the card turned about its centre.
    centre_x, centre_y = 2 * x + layout.CARD_W - 1, 2 * y + layout.CARD_H - 1
    assert all(pixel(screen, centre_x - px, centre_y - py) == RED for px, py in ink)
    assert five != four


def test_player_two_reads_their_half_upright():
    game, controls, screen, renderer = drawn("counts=on")
    # The same cards in the same slots for both players: P2's half is P1's, turned.
    game.stock[1] = [list(pile) for pile in game.stock[0]]
    game.face_up[1] = list(game.face_up[0])
    game.pack[1] = list(game.pack[0])
    controls.hand[0] = controls.hand[1] = 4
    controls.called[0] = controls.called[1] = True
    controls.contest.set(0, 4250, False)
    renderer.invalidate()  # the game was edited, not played
    renderer.play(game, controls, (True, True))
    # The margin banner and each pile's count read from both sides too.
    rows = list(range(layout.STOCK_Y, 240)) + list(range(layout.MESSAGE_Y, layout.MESSAGE_Y + 8))
    names = range(layout.NAME_X, layout.NAME_X + 16)  # "P1" and "P2" differ, "CPU" not
    for y in rows:
        near = [pixel(screen, x, y) for x in range(320) if x not in names]
        assert near == [turned(screen, x, y) for x in range(320) if x not in names]
    assert not felt_only(screen, 0, layout.MESSAGE_Y, 320, 8)
    for pile in (0, 1):
        x = layout.pile_x(2, pile)
        span = range(x, x + layout.CARD_W)
        for y in range(layout.COUNT_Y, layout.COUNT_Y + 8):
            near = [pixel(screen, i, y) for i in span]
            assert near == [pixel(screen, 2 * x + layout.CARD_W - 1 - i, 239 - y) for i in span]
        # A spit pile's card is its own turn: each player finds the index on their side.
        for y in range(layout.PILE_Y, layout.PILE_Y + layout.CARD_H):
            near = [pixel(screen, i, y) for i in span]
            assert near == [pixel(screen, 2 * x + layout.CARD_W - 1 - i, 239 - y) for i in span]
    # The selected card is framed, and the SPIT call and the CPU tag are on the strip.
    face, _ = slot_window(5, 4)
    assert pixel(screen, face[0], face[1]) == HIGHLIGHT
    assert pixel(screen, layout.CALL_X, layout.INFO_Y) == HIGHLIGHT


def test_the_smaller_pile_is_visibly_thinner():
    game = position(["KS"], ["QH"], ("", ""), packs=(0, 0))
    pool = game.middle[0]
    game.middle = [pool[:20], pool[20:43]]
    controls = Controls(game)
    screen = Screen()
    renderer = Renderer(screen, framebuf)
    renderer.play(game, controls)
    row = layout.PILE_Y + layout.CARD_H // 2
    left = layout.pile_x(2, 0)
    right = layout.pile_x(2, 1) + layout.CARD_W
    thick_a = sum(1 for x in range(0, left) if pixel(screen, x, row) != FELT)
    thick_b = sum(1 for x in range(right, 320) if pixel(screen, x, row) != FELT)
    assert (thick_a, thick_b) == (20 * layout.STACK_STEP, 23 * layout.STACK_STEP)
    # Each card is one light edge: counting them gives the size back.
    assert sum(1 for x in range(0, left) if pixel(screen, x, row) == EDGE) == 20
    # A pile that shrinks between frames (gathered at a round's end) gives its edges back.
    screen.windows.clear()
    del game.middle[1][18:]
    game.round += 1  # as when a round ends and the piles are gathered
    controls.changed()  # as the table tells the controls of a new round
    renderer.play(game, controls)
    assert sum(1 for x in range(right, 320) if pixel(screen, x, row) != FELT) == 36
    columns = [window for window in screen.windows if window[2] == layout.STACK_STEP]
    # And the new top card's bands.
    assert len(columns) == 5 and len(screen.windows) == 5 + layout.CARD_BANDS


def test_four_slots_with_layout_1_4_and_empty_slots_outlined():
    game = position(["KS", "", "2C 5D", "9H"], ["6C"], ("4H", "8C"), options="layout=1-4")
    screen = Screen()
    Renderer(screen, framebuf).play(game, Controls(game))
    band_h = -(-layout.FACE_H // layout.CARD_BANDS)
    faces = [w for w in screen.windows if w[2:] == (layout.FACE_W, band_h)]
    bottom = sorted(x for x, y, _, _ in faces if y == layout.STOCK_Y)
    assert bottom == [layout.slot_x(4, slot) for slot in range(4)] == [8, 88, 168, 248]
    empty = layout.slot_x(4, 1) + layout.MARGIN
    assert pixel(screen, empty, layout.STOCK_Y + layout.MARGIN) == DIM
    assert felt_only(screen, empty + 1, layout.STOCK_Y + layout.MARGIN + 1, 40, 50)


def test_counts_show_only_when_the_option_is_on():
    _, _, screen, _ = drawn()
    assert felt_only(screen, 0, layout.COUNT_Y, 320, 8)
    _, _, screen, _ = drawn("counts=on")
    for pile in (0, 1):
        assert not felt_only(screen, layout.pile_x(2, pile), layout.COUNT_Y, layout.CARD_W, 8)


def test_one_pile_rounds_show_the_lone_pile_in_the_middle():
    game = position(["KS"], ["QH"], ("4H 5C 6D",), options="middle=one")
    screen = Screen()
    renderer = Renderer(screen, framebuf)
    renderer.play(game, Controls(game))
    x = layout.pile_x(1, 0)
    assert x == (320 - layout.CARD_W) // 2
    row = layout.PILE_Y + layout.CARD_H // 2
    assert sum(1 for i in range(0, x) if pixel(screen, i, row) == EDGE) == len(game.middle[0])
    assert felt_only(screen, x + layout.CARD_W + 1, layout.PILE_Y, 320 - x - layout.CARD_W - 1, 8)


def message_rows(screen):
    return rows_of(screen, layout.MESSAGE_Y, layout.MESSAGE_H)


def text_row(text, ink):
    """The message row as MicroPython's framebuf draws ``text`` centred on the felt."""
    buf = bytearray(320 * 8 * 2)
    fb = framebuf.FrameBuffer(buf, 320, 8, framebuf.RGB565)
    fb.fill(FELT)
    fb.text(text, (320 - 8 * len(text)) // 2, 0, ink)
    return [[fb.pixel(x, y) for x in range(320)] for y in range(8)]


def test_the_margin_banner_shows_then_clears_with_the_next_round():
    game = Game(5)
    controls = Controls(game)
    screen = Screen()
    renderer = Renderer(screen, framebuf)
    game.apply(SPIT_ACTION)
    renderer.play(game, controls)
    assert message_rows(screen) == text_row("", WHITE)
    controls.contest.set(1, 310, False)  # as a lost race sets it
    controls.changed()
    renderer.play(game, controls)
    assert message_rows(screen) == text_row("P2 by 0.31 ms", WHITE)
    cpus = (SpitCpu(0, "quick", 5), SpitCpu(1, "quick", 5))
    race = Race(game, cpus)
    # No frame in between: nothing but the new round may take the banner away.
    while game.round == 0 or game.phase != PHASE_PLAY or game.is_stuck():
        assert race.step()
    controls.changed()
    renderer.play(game, controls)
    assert controls.contest.text() == "P2 by 0.31 ms"  # still set: the renderer drops it
    assert message_rows(screen) == text_row("", WHITE)
    assert renderer.full_redraws == 1


def test_prompts_follow_the_phase_and_the_word():
    game = position(["KS"], ["QH"], ("4H", "8C"), options="word=SLAM")
    controls = Controls(game)
    screen = Screen()
    renderer = Renderer(screen, framebuf)
    renderer.play(game, controls)
    assert message_rows(screen) == text_row("nobody can move - press SLAM", HIGHLIGHT)
    game.phase = 0  # the opening spit
    controls.changed()
    renderer.play(game, controls)
    assert message_rows(screen) == text_row("both press SLAM", HIGHLIGHT)
    game.phase = 2  # the slap
    controls.changed()
    renderer.play(game, controls)
    assert message_rows(screen) == text_row("SLAP the smaller pile", HIGHLIGHT)
    game.options.set("pick", "winner")
    game.cleared = 1
    renderer.invalidate()  # options never change during a game
    renderer.play(game, controls)
    assert message_rows(screen) == text_row("P2 picks a pile", HIGHLIGHT)
    game.phase = PHASE_PLAY
    game.options.set("spit", "auto")  # the device spits by itself: nothing to press
    renderer.invalidate()
    renderer.play(game, controls)
    assert message_rows(screen) == text_row("nobody can move", HIGHLIGHT)


def test_invalidate_and_other_screens_make_the_next_play_a_full_redraw():
    game, controls, screen, renderer = drawn()
    assert (renderer.full_redraws, screen.fills) == (1, 1)
    renderer.invalidate()
    renderer.play(game, controls)
    assert (renderer.full_redraws, screen.fills) == (2, 2)
    renderer.countdown(3)
    renderer.countdown(3)  # the same screen again sends nothing
    assert screen.fills == 3
    sent = screen.shows
    renderer.countdown(2)  # a new digit over the same screen: no clear
    assert screen.fills == 3 and screen.shows == sent + 2
    renderer.play(game, controls)
    assert renderer.full_redraws == 4


SOME_ROWS = [("layout", "1-5"), ("word", "SPIT"), ("counts", "off")]
SOME_END = RoundEnd(-1, 1, [20, 3], [6, 6], [26, 26])


def test_a_screen_drawn_over_another_looks_as_if_drawn_on_its_own():
    sequence = [
        lambda r: r.error("a long message " * 12),
        lambda r: r.error("short"),
        lambda r: r.settings(SOME_ROWS, 0),
        lambda r: r.settings(SOME_ROWS, 2),
        lambda r: r.ready("SPIT", (False, False), (False, True)),
        lambda r: r.ready("SPIT", (True, False), (False, False)),
        lambda r: r.countdown(3),
        lambda r: r.countdown(2),
        lambda r: r.round_result(SOME_END, b"P1 by 1.52 ms"),
        lambda r: r.round_result(SOME_END),
        lambda r: r.title("SLAM", 99),
        lambda r: r.self_test([5] * 16, [12] * 16, [3, 1], ("pairs 4", "tie window 90 us")),
        lambda r: r.self_test([6] + [5] * 15, [1] + [-1] * 15, [3, 2], ()),
    ]
    screen = Screen()
    renderer = Renderer(screen, framebuf)
    for draw in sequence:
        draw(renderer)
        alone = Screen()
        draw(Renderer(alone, framebuf))
        assert screen.pixels == alone.pixels


# -- on the MicroPython VM -------------------------------------------------------------


def printed_on_cpython(script):
    """The lines a VM script prints, run here on CPython instead."""
    lines = []
    namespace = {"print": lambda *words: lines.append(" ".join(str(w) for w in words))}
    try:
        exec(script, namespace)
    finally:
        HEAP.on = False  # a script may turn it on, as the device does
    return lines


def play_set_out(regions):
    """A VM script's start: the play screen of a game just opened, drawn ``regions`` a
    call (0: whole), with nothing recorded but the bytes sent."""
    return (
        SCREEN
        + """
import framebuf, micropython
from spit.controls import Controls
from spit.options import Options
from spit.render import Renderer
from spit.games import PLAY
from spit.spit import Game, SPIT_ACTION

screen = Screen()
screen.record = False
renderer = Renderer(screen, framebuf)
renderer.regions_per_call = %d
game = Game(8, Options(counts="on"))
controls = Controls(game)
cpus = (False, True)
game.apply(SPIT_ACTION)
renderer.play(game, controls, cpus)  # sets the table out: allocates once
"""
        % regions
    )


NO_ALLOCATION = (
    play_set_out(0)
    + """


def locked_frame(label):
    controls.changed()  # each frame follows what the script just changed
    sent = screen.bytes
    micropython.heap_lock()
    try:
        renderer.play(game, controls, cpus)
    finally:
        micropython.heap_unlock()
    print(label, screen.bytes - sent)


for player in (0, 1):
    plays = [a for a in game.legal_actions() if a >> 9 == PLAY and (a >> 8) & 1 == player]
    controls.hand[player] = (plays[0] >> 4) & 15
    locked_frame("pick")
    controls.hand[player] = -1
    game.apply(plays[0])
    locked_frame("play")
controls.called[1] = True
locked_frame("call")
controls.called[1] = False
game.apply(SPIT_ACTION)
locked_frame("spit")
"""
)


def test_an_incremental_frame_allocates_nothing_on_micropython(mpvm):
    out = mpvm(NO_ALLOCATION).split("\n")
    labels = [line.split()[0] for line in out if line]
    assert labels == ["pick", "play", "pick", "play", "call", "spit"]
    assert all(int(line.split()[1]) > 0 for line in out if line)


# A renderer as the device has it: a region a call, the heap locked where it draws.
LOCKED_RENDERER = (
    SCREEN
    + """
import framebuf
from spit.pen import Pen
from spit.render import Renderer

screen = Screen()
screen.record = False
renderer = Renderer(screen, framebuf)
renderer.regions_per_call = 1
from spit.scheduler import HEAP
HEAP.on = True
"""
)

LOCKED_PLAY = (
    LOCKED_RENDERER
    + """
from spit.controls import Controls
from spit.options import Options
from spit.games import PLAY
from spit.spit import Game, SPIT_ACTION


def frame(game, controls):
    controls.changed()  # each frame follows what the script just changed
    calls = 1
    renderer.play(game, controls, (False, True))
    while renderer.busy:
        renderer.play(game, controls, (False, True))
        calls += 1
    return calls


for options in (Options.parse("counts=on"), Options.parse("layout=1-4 middle=one word=SLAM")):
    plays = []
    seed = 8
    while not plays:  # a deal where a card can be played at once
        seed += 1
        game = Game(seed, options)
        game.apply(SPIT_ACTION)
        plays = [a for a in game.legal_actions() if a >> 9 == PLAY]
    controls = Controls(game)
    print("set out", frame(game, controls), screen.bytes)
    controls.hand[(plays[0] >> 8) & 1] = (plays[0] >> 4) & 15
    print("pick", frame(game, controls), screen.bytes)
    controls.hand[0] = controls.hand[1] = -1
    game.apply(plays[0])
    controls.contest.set(1, 310, False)
    print("banner", frame(game, controls), screen.bytes)
"""
)


def test_the_play_screen_draws_with_the_heap_locked_on_micropython(mpvm):
    # The device locks the heap through play(): setting a table out (another layout and
    # word too), a pick, a play and a margin banner allocate nothing there.
    lines = printed_on_cpython(LOCKED_PLAY)
    assert mpvm(LOCKED_PLAY) == "\n".join(lines) + "\n"
    assert [line.split()[0] for line in lines] == ["set", "pick", "banner"] * 2


LOCKED_STATIC = (
    LOCKED_RENDERER
    + """
from spit.spit import RoundEnd

called = [True, False]
wins = [1, 0]
cpus = (False, True)
end = RoundEnd(0, 1, [3, 4], [0, 9], [20, 32])
reactions = [612, 401, 388, 0, 0, 0]
screens = (
    ("title", lambda: renderer.title("SPIT", 7)),
    ("ready", lambda: renderer.ready("SPIT", called, cpus, "quick")),
    ("countdown", lambda: renderer.countdown(3)),
    ("result", lambda: renderer.round_result(end, b"P2 by 1.00 ms", cpus, reactions)),
    ("over", lambda: renderer.game_over(0, "out of cards", wins, cpus, 12)),
    ("match", lambda: renderer.match_result(0, wins, cpus, reactions, 12)),
)
locked = [0, 0]  # pieces of text drawn, and those drawn with the heap locked
text_row = Pen.text_row
big = Pen.big


def count():
    locked[0] += 1
    try:
        bytearray(1)
    except MemoryError:
        locked[1] += 1


def counted_row(self, player, texts, columns, pieces, x, y, ink, left, width):
    count()
    text_row(self, player, texts, columns, pieces, x, y, ink, left, width)


def counted_big(self, chars, x, scale, ink, first, last):
    count()
    big(self, chars, x, scale, ink, first, last)


Pen.text_row = counted_row
Pen.big = counted_big
for name, draw in screens:
    calls = 1
    draw()
    while renderer.busy:
        draw()
        calls += 1
    print(name, calls, screen.bytes)
print("locked", locked[0], locked[1])
"""
)


def test_the_other_screens_draw_their_text_with_the_heap_locked_on_micropython(mpvm):
    # Each piece of text, small or big, is drawn with the heap locked on the device.
    lines = printed_on_cpython(LOCKED_STATIC)
    *drawn, (_, rows, locked) = [line.split() for line in mpvm(LOCKED_STATIC).splitlines()]
    assert drawn == [line.split() for line in lines[:-1]], "the same screens as on CPython"
    names = ["title", "ready", "countdown", "result", "over", "match"]
    assert [name for name, _, _ in drawn] == names
    assert int(rows) > 40 and locked == rows, "every piece of text drawn locked"


STATIC_AGAIN = (
    SCREEN
    + """
import framebuf, micropython
from spit.render import Renderer
from spit.spit import RoundEnd

screen = Screen()
screen.record = False
renderer = Renderer(screen, framebuf)
rows = [("layout", "1-5"), ("word", "SPIT")]
called = [True, False]
wins = [1, 0]
presses = list(range(16))
ages = [-1] * 16
cpus = (False, True)
end = RoundEnd(0, 1, [3, 4], [0, 9], [20, 32])
screens = (
    lambda: renderer.title("SPIT", 7),
    lambda: renderer.settings(rows, 1),
    lambda: renderer.ready("SPIT", called, cpus),
    lambda: renderer.countdown(2),
    lambda: renderer.round_result(end, b"P2 by 1.00 ms", cpus),
    lambda: renderer.game_over(0, "out of cards", wins, cpus),
    lambda: renderer.match_result(0, wins, cpus),
    lambda: renderer.error("no display"),
    lambda: renderer.self_test(presses, ages, wins, ("pairs 1",)),
)
renderer.regions_per_call = REGIONS
for draw in screens:
    draw()
    while renderer.busy:
        draw()
    sent = screen.shows
    micropython.heap_lock()
    try:
        draw()
    finally:
        micropython.heap_unlock()
    print(screen.shows - sent)
"""
)


@pytest.mark.parametrize("regions", [0, 1])
def test_a_screen_called_again_with_the_same_values_allocates_and_sends_nothing(mpvm, regions):
    assert mpvm("REGIONS = %d\n" % regions + STATIC_AGAIN).split() == ["0"] * 9


EVERY_SCREEN_LOCKED = (
    SCREEN
    + """
import gc, framebuf
from spit.scheduler import HEAP
from spit.render import Renderer
from spit.spit import RoundEnd

screen = Screen()
screen.record = False
renderer = Renderer(screen, framebuf)
renderer.regions_per_call = 1
HEAP.on = True  # as the device runs: the steps with the heap locked
rows = [["row", str(i)] for i in range(14)]  # more than the settings show
changes = [0]  # how many times a row changed in place
called = [False, False]
wins = [1, 0]
presses = list(range(16))
ages = [-1] * 16
bins = [0, 0, 0, 0]
lines = ["pairs 1", ""]
cpus = (False, True)
end = RoundEnd(0, 1, [3, 4], [0, 9], [20, 32])
reactions = [612, 401, 388, 0, 0, 0]
margin = bytearray(b"P2 by 1.00 ms")
message = "a long message " * 12
screens = renderer.screens
calls = (
    ("title", lambda share: screens.title("SPIT", 7, share)),
    ("settings", lambda share: screens.settings(rows, 12, changes[0], share)),
    ("ready", lambda share: screens.ready("SPIT", called, cpus, "hint", share=share)),
    ("countdown", lambda share: screens.countdown(wins[0], share)),
    ("result", lambda share: screens.round_result(end, margin, cpus, reactions, share)),
    ("over", lambda share: screens.game_over(0, "out of cards", wins, cpus, 99, reactions, share)),
    ("match", lambda share: screens.match_result(0, wins, cpus, reactions, 99, share)),
    ("error", lambda share: screens.error(message, share)),
    ("self_test", lambda share: screens.self_test(presses, ages, bins, lines, share)),
)


def measure(call):  # what the first call allocated, the later ones, the windows they sent
    allocated = sent = 0
    before = gc.mem_alloc()
    call(None)
    first = gc.mem_alloc() - before
    while renderer.busy:
        before = gc.mem_alloc()
        shown = screen.shows
        call(None)
        allocated += gc.mem_alloc() - before
        sent += screen.shows - shown
    return first, allocated, sent



def change():  # new values in the lists the screens were given, in place
    called[1] = not called[1]
    wins[0] = 3 - wins[0]
    rows[10][1] = "on" if rows[10][1] != "on" else "off"
    changes[0] += 1
    presses[2] += 1
    ages[5] = 12
    bins[1] += 1
    lines[1] = "tie window 70 us" if not lines[1] else ""
    margin[6] = 0x32 if margin[6] == 0x31 else 0x31  # P2 by 2.00 ms, and back
    reactions[0] += 1


for name, call in calls:
    counts = []
    for _ in range(2):
        counts += measure(call)
        change()
    print(name, *counts)
"""
)


def test_every_screen_is_drawn_allocating_nothing_after_its_first_values_on_micropython(mpvm):
    # Each screen drawn a region a call, as on the device, then again with its values
    # changed in place: no call after the first allocates (the error screen wraps a new
    # message, and the self-test's first call imports its drawing); an allocation in a
    # step, with the heap locked, would raise.
    lines = [line.split() for line in mpvm(EVERY_SCREEN_LOCKED).splitlines()]
    out = {name: [int(v) for v in counts] for name, *counts in lines}
    names = ["title", "settings", "ready", "countdown", "result", "over", "match", "error"]
    assert list(out) == names + ["self_test"]
    for name, (first, allocated, sent, first_again, allocated_again, _) in out.items():
        assert allocated == allocated_again == 0, name
        assert sent > 0, name
        if name not in ("error", "self_test"):
            assert first == first_again == 0, name
    assert out["error"][3] == 0 and out["self_test"][3] == 0, "only new values allocate"
    for name in ("settings", "ready", "countdown", "self_test"):  # drawn in place
        assert 0 < out[name][5] <= out[name][2], name
    assert out["result"][5] > 0 and out["match"][5] > 0, "changed in place: drawn again"


SPREAD_PLAY = (
    play_set_out(1)
    + """


def locked_calls():
    controls.changed()  # each frame follows what the script just changed
    calls = 0
    sent = screen.bytes
    micropython.heap_lock()
    try:
        renderer.play(game, controls, cpus)
        calls += 1
        while renderer.busy:
            renderer.play(game, controls, cpus)
            calls += 1
    finally:
        micropython.heap_unlock()
    return calls, screen.bytes - sent


print("whole", *locked_calls())
for player in (0, 1):
    plays = [a for a in game.legal_actions() if a >> 9 == PLAY and (a >> 8) & 1 == player]
    controls.hand[player] = (plays[0] >> 4) & 15
    print("pick", *locked_calls())
    controls.hand[player] = -1
    game.apply(plays[0])
    print("play", *locked_calls())
controls.called[1] = True
print("call", *locked_calls())
"""
)


def test_a_frame_drawn_a_region_a_call_allocates_nothing_on_micropython(mpvm):
    out = [line.split() for line in mpvm(SPREAD_PLAY).strip().split("\n")]
    assert [line[0] for line in out] == ["whole", "pick", "play", "pick", "play", "call"]
    calls = {line[0]: int(line[1]) for line in out}
    assert calls["whole"] > 30  # the clear, the table, the labels and the message
    assert all(int(line[2]) > 0 for line in out)


def test_a_list_changed_in_place_redraws_its_screen():
    screen = Screen()
    renderer = Renderer(screen, framebuf)
    called = [False, False]
    renderer.ready("SPIT", called, (False, False))
    sent = screen.shows
    called[1] = True  # as controls.called changes
    renderer.ready("SPIT", called, (False, False))
    assert screen.shows > sent


SCENES = (
    SCREEN
    + """
import binascii, framebuf
from spit.controls import Controls
from spit.options import Options
from spit.render import Renderer
from spit.spit import Game, RoundEnd, SPIT_ACTION

screen = Screen()
renderer = Renderer(screen, framebuf)


def shot(name):
    print(name, screen.fills, len(screen.windows), binascii.crc32(screen.pixels))


game = Game(21, Options(counts="on", word="SLAM"))
controls = Controls(game)
game.apply(SPIT_ACTION)
controls.hand[1] = 3
controls.called[0] = True
controls.contest.set(0, 99, True)
renderer.play(game, controls, (False, True))
shot("play")
controls.contest.set(1, 12345, False)
controls.changed()
renderer.play(game, controls, (False, True))
shot("banner")
renderer.title("SPIT", 4321)
shot("title")
renderer.settings([("layout", "1-5"), ("word", "SLAM"), ("counts", "on")], 1)
shot("settings")
renderer.ready("SPIT", (False, True), (True, False))
shot("ready")
renderer.countdown(2)
shot("countdown")
end = RoundEnd(1, 0, [9, 14], [7, 0], [30, 22])
renderer.round_result(end, b"TIE - P1 by rule", (False, False))
shot("round")
renderer.game_over(0, "out of cards", (1, 0))
shot("game over")
renderer.match_result(1, (1, 2), (True, False))
shot("match")
renderer.error("ValueError: something went wrong in the game loop, far too long for one line")
shot("error")
renderer.self_test(list(range(16)), [-1] * 16, [1, 4, 9, 2], ("pairs 16",))
shot("self-test")
renderer.self_test(list(range(1, 17)), [3] * 16, [1, 5, 9, 2], ("pairs 17",))
shot("self-test again")
"""
)


def test_the_same_scenes_give_the_same_bytes_on_micropython(mpvm):
    lines = printed_on_cpython(SCENES)
    expected = "\n".join(lines) + "\n"
    assert mpvm(SCENES) == expected
    assert len(set(line.split()[-1] for line in lines)) == len(lines)  # all different pictures


# -- golden pictures -------------------------------------------------------------------


def golden_scenes():
    """Each screen of SPEC section 5, as a function drawing it."""
    game = position(
        ["KS", "2C 5D", "", "9H 4S", "JC QD"],
        ["6C", "3D 8H", "8D 7S", "", "10H"],
        ("4H 7C 3S 9C 2D 5H", "8C AC"),
        options="counts=on",
    )
    game.face_up[0][3] = 2
    controls = Controls(game)
    controls.hand[0] = 1
    controls.called[1] = True

    def play_screen(renderer):
        renderer.play(game, controls, (False, True))
        controls.contest.set(1, 310, False)
        controls.changed()
        renderer.play(game, controls, (False, True))

    def slap_screen(renderer):
        # Player 1 has cleared their stock: both race to slap the smaller pile.
        over = position(
            ["", "", "", "", ""],
            ["6C", "3D 8H", "8D 7S", "", "10H"],
            ("4H 7C 3S 9C 2D 5H 6D KH JS", "8C AC 2S QC 9D 5S"),
            phase=PHASE_SLAP,
        )
        over.cleared = 0
        renderer.play(over, Controls(over), (False, True))

    def stuck_screen(renderer):
        stuck = position(["KS"], ["KC"], ("6S", "8D"), packs=(5, 5))
        stuck_controls = Controls(stuck)
        stuck_controls.called[0] = True
        renderer.play(stuck, stuck_controls, (False, False))

    # Speed: each hand slot holds one card, the draw piles are the packs.
    race = speed.Game(9, Options.parse("counts=on"))
    race.apply(speed.FLIP_ACTION)
    while race.plays < 6:  # the first card that fits, or a flip when nobody can play
        race.apply(race.legal_actions()[-1])
    race_controls = Controls(race)
    race_controls.hand[1] = 2

    def speed_play_screen(renderer):
        renderer.play(race, race_controls, (False, True))
        race_controls.contest.set(0, 2_470, False)
        race_controls.changed()
        renderer.play(race, race_controls, (False, True))

    stuck = speed.Game(9)
    stuck.apply(speed.FLIP_ACTION)
    for player in (0, 1):
        for slot in range(speed.HAND):  # every hand card a 7: nothing fits a king
            stuck.stock[player][slot][:] = [6 + 13 * ((player * 5 + slot) % 4)]
    stuck.middle[0][-1], stuck.middle[1][-1] = 12, 25
    stuck_controls = Controls(stuck)
    stuck_controls.called[1] = True

    def speed_stuck_screen(renderer):
        renderer.play(stuck, stuck_controls, (False, True))

    rows = [("layout", "1-5"), ("middle", "two"), ("pick", "slap"), ("word", "SPIT")]
    end = RoundEnd(0, 1, [12, 9], [0, 20], [33, 19])
    return {
        "play": play_screen,
        "slap": slap_screen,
        "stuck": stuck_screen,
        "title": lambda r: r.title("SPIT", 1234),
        "speed_title": lambda r: r.title("SPEED", 1234),
        "speed_play": speed_play_screen,
        "speed_stuck": speed_stuck_screen,
        "speed_ready": lambda r: r.ready("SPEED", (False, True), (False, True), ""),
        "speed_game_over": lambda r: r.game_over(
            0, "out of cards", (1, 0), (False, True), 99, [540, 377, 377, 0, 0, 0]
        ),
        "speed_match_result": lambda r: r.match_result(
            1, (1, 2), (False, False), [540, 377, 377, 602, 455, 430], 99
        ),
        "settings": lambda r: r.settings(rows, 2),
        "ready": lambda r: r.ready(
            "SPIT", (True, False), (False, True), "quick play: C alone plays a 1-pile card"
        ),
        "countdown": lambda r: r.countdown(3),
        "round_result": lambda r: r.round_result(
            end, b"P2 by 0.31 ms", (False, True), [612, 401, 388, 0, 0, 0]
        ),
        "game_over": lambda r: r.game_over(
            1, "out of cards", (1, 1), (False, True), 1234, [612, 401, 388, 0, 0, 0]
        ),
        "match_result": lambda r: r.match_result(
            0, (2, 1), (False, False), [612, 401, 388, 701, 701, 650], 1234
        ),
        "error": lambda r: r.error("MemoryError: memory allocation failed, allocating 4096 bytes"),
        "self_test": lambda r: r.self_test(
            [3, 0, 12, 1, 1, 5, 2, 9, 0, 4, 4, 1, 7, 3, 2, 8],
            [21, -1, 4, 90, 120, 9, 33, 10] * 2,
            [2, 9, 30, 22, 8, 3, 1, 0, 0, 1],
            ("pairs 76 of 100", "tie window so far 70 us"),
        ),
    }


@pytest.mark.parametrize("name", sorted(golden_scenes()))
def test_golden(name):
    # Through the firmware's display driver, onto the virtual panel on its SPI wires.
    display, virtual = wired_display()
    golden_scenes()[name](Renderer(display, framebuf))
    path = GOLDEN / ("%s.png" % name)
    if os.environ.get("SPIT_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        virtual.save_png(path)
    width, height, rgb = png.decode(path.read_bytes())
    assert (width, height) == (320, 240)
    assert virtual.rgb() == rgb, "differs from %s (see module docstring)" % path


# The display budget: a played card sends at most this many bytes, pixels and window
# commands (``display_bytes_per_play``), here in one play and over a whole game.
PLAY_BYTES_MAX = 16384


def test_a_played_card_keeps_the_bus_within_budget():
    game = position(["KS", "2C 5D", "", "9H", "JC QD"], ["6C"], ("4H", "8C"))
    controls = Controls(game)
    display, virtual = wired_display()
    renderer = Renderer(display, framebuf)
    renderer.play(game, controls)
    virtual.mark()
    sent = display.bytes_sent
    game.apply(play(0, 1, 0))
    controls.changed()
    renderer.play(game, controls)
    assert display.bytes_sent - sent <= PLAY_BYTES_MAX
    face, edges = slot_window(5, 1)
    pile = (layout.pile_x(2, 0), layout.PILE_Y, layout.CARD_W, layout.CARD_H)
    column = (layout.stack_x(2, 0, 1), layout.PILE_Y, layout.STACK_STEP, layout.CARD_H)
    changed = virtual.changed()
    assert changed
    for window in (face, edges, pile, column):
        x, y, w, h = window
        changed -= {(i, j) for i in range(x, x + w) for j in range(y, y + h)}
    assert not changed  # nothing outside the slot and the pile changed on the panel


@pytest.mark.micropython_vm
def test_a_whole_game_keeps_within_the_display_budget():
    figures = bench_display.measure()
    assert figures["plays_measured"] > 300
    assert figures["display_bytes_per_play"] <= PLAY_BYTES_MAX
    # The slot's card in bands and its edges, the pile's card in bands and its new edge.
    assert figures["display_windows_per_play"] == 2 * layout.CARD_BANDS + 2
    assert figures["full_redraws_per_round"] < 1


@pytest.mark.parametrize(
    "seed, options", [(4, ""), (6, "stack=on counts=on layout=3x5"), (9, "middle=one word=SLAM")]
)
def test_every_incremental_frame_equals_a_full_redraw(seed, options):
    game = Game(seed, Options.parse(options))
    controls = Controls(game)
    race = Race(game, (SpitCpu(0, "quick", seed), SpitCpu(1, "quick", seed)))
    screen = Screen()
    renderer = Renderer(screen, framebuf)
    steps = 0
    while race.step() and steps < 200:
        steps += 1
        # The hands and calls a person's presses would show, as the controls keep them.
        controls.hand[steps % 2] = steps % game.slots if steps % 3 else -1
        controls.called[steps % 2] = steps % 5 == 0
        controls.changed()
        renderer.play(game, controls, (False, True))
        if steps % 10 == 0:
            alone = Screen()
            Renderer(alone, framebuf).play(game, controls, (False, True))
            assert screen.pixels == alone.pixels, "step %d" % steps
    assert renderer.full_redraws <= 1 + game.round


# -- a region a call ------------------------------------------------------------------


def draw_until_done(renderer, draw, most_bytes=None):
    """Call ``draw(renderer)`` as a game loop would, until nothing is pending; returns
    how many calls it took, each sending at most ``most_bytes`` when given."""
    calls = 0
    while calls < 300:
        before = renderer.display.bytes
        draw(renderer)
        calls += 1
        if most_bytes is not None:
            assert renderer.display.bytes - before <= most_bytes, calls
        if not renderer.busy:
            return calls
    raise AssertionError("still drawing after 300 calls")


# A region a call, a call sends at most a strip of the clear, a piece of a text row, a
# glyph row of big text, or a row of the self-test's bars and histogram (5,120 bytes).
_MOST_A_CALL = 320 * 8 * 2


@pytest.mark.parametrize("name", sorted(set(golden_scenes()) - {"slap", "stuck"}))
def test_a_screen_drawn_a_region_a_call_ends_on_the_pixels_drawn_whole(name):
    whole, spread = Screen(), Screen()
    golden_scenes()[name](Renderer(whole, framebuf))
    draw = golden_scenes()[name]  # its own game: a scene may change its game as it draws
    renderer = Renderer(spread, framebuf)
    renderer.regions_per_call = 1
    renderer.invalidate()  # not the screen the renderer cleared when it was made
    most = None if name.endswith("play") else _MOST_A_CALL  # a card is a bigger region
    assert draw_until_done(renderer, draw, most) > 10
    assert spread.fills == 1  # when the renderer was made; this clear went a strip a call
    assert spread.pixels == whole.pixels
    sent = spread.shows
    draw(renderer)
    assert spread.shows == sent  # done: the same values again send nothing


def test_the_display_is_cleared_when_the_renderer_is_made_and_the_first_screen_starts_on_it():
    screen, whole = Screen(), Screen()
    renderer = Renderer(screen, framebuf)
    assert screen.fills == 1 and felt_only(screen, 0, 0, 320, 240)
    renderer.regions_per_call = 1
    renderer.title("SPIT", 7)
    assert renderer.busy and screen.shows == 0
    draw_until_done(renderer, lambda r: r.title("SPIT", 7), _MOST_A_CALL)
    Renderer(whole, framebuf).title("SPIT", 7)
    assert screen.fills == 1 and screen.pixels == whole.pixels, "no clear of its own"
    renderer.settings(SOME_ROWS, 0)  # a later screen clears, a strip a call
    draw_until_done(renderer, lambda r: r.settings(SOME_ROWS, 0), _MOST_A_CALL)
    assert screen.fills == 1 and screen.shows > 40


def test_new_values_or_another_screen_supersede_what_was_pending():
    game, controls, _, _ = drawn()
    sequence = [
        lambda r: r.title("SPIT", 99),
        lambda r: r.settings(SOME_ROWS, 0),
        lambda r: r.settings(SOME_ROWS, 2),
        lambda r: r.ready("SPIT", (False, False), (False, True)),
        lambda r: r.ready("SPIT", (True, False), (False, True)),
        lambda r: r.countdown(3),
        lambda r: r.countdown(2),
        lambda r: r.play(game, controls),
        lambda r: r.round_result(SOME_END, b"P1 by 1.52 ms"),
        lambda r: r.self_test([5] * 16, [12] * 16, [3, 1], ("pairs 4",)),
        lambda r: r.self_test([6] + [5] * 15, [1] * 16, [3, 2], ()),
        lambda r: r.error("short"),
    ]
    for previous, draw in zip(sequence[:-1], sequence[1:], strict=True):
        for cut in (1, 20, 40):
            screen = Screen()
            renderer = Renderer(screen, framebuf)
            renderer.regions_per_call = 1
            for _ in range(cut):  # the previous screen, cut short
                previous(renderer)
            draw_until_done(renderer, draw)
            alone = Screen()
            draw(Renderer(alone, framebuf))
            assert screen.pixels == alone.pixels


STATIC_STEPS = (
    LOCKED_RENDERER
    + """
import gc
from spit.spit import RoundEnd

end = RoundEnd(0, 1, [12, 9], [0, 20], [33, 19])


def draw(label, call):
    sending = allocating = 0
    call()
    while renderer.busy:
        sent = screen.bytes
        before = gc.mem_alloc()
        renderer.step(1)
        allocated = gc.mem_alloc() - before
        if screen.bytes > sent:
            sending += 1
            allocating += 1 if allocated else 0
    print(label, sending, allocating)


for _ in range(2):
    draw("title", lambda: renderer.title("SPIT", 1234))
    draw("ready", lambda: renderer.ready("SPIT", (False, True), (False, True), "quick play"))
    draw("countdown", lambda: renderer.countdown(3))
    draw("round_result", lambda: renderer.round_result(end, b"P2 by 0.31 ms", (False, True)))
    draw("match_result", lambda: renderer.match_result(0, [2, 1], (False, True), (), 1234))
"""
)


def test_a_static_screens_steps_that_send_pixels_allocate_nothing_on_micropython(mpvm):
    # What a screen makes (its texts, a row's list of pieces, big text's window and
    # shape) is made in steps of its own that send nothing, so that no step's time
    # depends on how the heap lies (docs/performance.md).
    out = [line.split() for line in mpvm(STATIC_STEPS).strip().split("\n")]
    assert [line[0] for line in out[:5]] == [line[0] for line in out[5:]]
    for label, sending, allocating in out:
        assert int(sending) > 10, label
        assert int(allocating) == 0, label


def _answered(taken_at_us):
    """A card played, its values taken ``taken_at_us`` into an answer's pass in a hurry:
    the screen, and the renderer, whose region may start by 900 µs."""
    game, controls, screen, renderer = drawn()
    renderer.regions_per_call = 1
    renderer.clock = lambda: taken_at_us
    renderer.hurry = True
    renderer.region_by = 900
    game.apply(play(0, 1, 0))  # P1's 5D onto 4H
    controls.changed()
    renderer.play(game, controls, (False, False), ANSWER)
    return screen, renderer


def test_in_a_hurry_an_answer_s_region_waits_when_its_pass_has_no_room_left():
    screen, renderer = _answered(901)
    assert screen.windows == [] and renderer.late and renderer.busy
    assert renderer.step(1) and len(screen.windows) == 1, "the region, in the next pass"
    assert not renderer.late
    screen, renderer = _answered(899)
    assert len(screen.windows) == 1, "in time: the region goes with its values"
    assert not renderer.late
