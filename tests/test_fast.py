"""The twins on CPython: every fast twin holds its plain twin's functions; the native
one is the plain one decorated, line for line; the plain twins give the answers of slow,
obvious definitions (``cards.adjacent`` over every pair, xorshift32 on whole numbers,
framebuf's blit); the viper twins that can run here as Python (their ``ptr8``, ``ptr16``
and ``ptr32`` memoryviews) give the plain twins' answers. ``tests/test_emu_speed.py``
holds every fast twin to its plain twin's answers on the emulated Pico.
"""

import ast
import os
import random
from array import array
from struct import pack_into

import framebuf
import pytest
import spit.rng
from helpers import twin_cases
from helpers.positions import position
from spit import big_text, fits, fits_native, ink, pen, twins
from spit.cards import FITS, RANK_COUNT, adjacent
from spit.controls import Controls
from spit.render import Renderer
from spit.spit import RoundEnd
from test_render import Screen

from host_sim.vm.micropython_vm import FIRMWARE

_ABOVE = bytes((face + 1) % RANK_COUNT for face in range(RANK_COUNT))
_BELOW = bytes((face - 1) % RANK_COUNT for face in range(RANK_COUNT))


def _functions(module_file):
    """Each function's body as an AST dump, without its decorators."""
    with open(os.path.join(FIRMWARE, "spit", module_file)) as f:
        tree = ast.parse(f.read())
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            decorators = [ast.unparse(d) for d in node.decorator_list]
            node.decorator_list = []
            found[node.name] = (decorators, ast.dump(node))
    return found


def _arguments(module_file):
    """Each function's argument names."""
    with open(os.path.join(FIRMWARE, "spit", module_file)) as f:
        tree = ast.parse(f.read())
    return {
        node.name: [arg.arg for arg in node.args.args]
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


def test_every_function_of_a_fast_twin_is_one_of_its_plain_twin():
    found = twin_cases.pairs()
    assert found == {
        "spit.big_text": "viper",
        "spit.fits": "native",
        "spit.ink": "viper",
        "spit.rng": "viper",
    }
    for job, emitter in found.items():
        name = job.split(".")[1]
        plain = _arguments(name + ".py")
        fast = _arguments("%s_%s.py" % (name, emitter))
        assert fast and all(plain.get(function) == fast[function] for function in fast), job
        decorators = [d for d, _ in _functions("%s_%s.py" % (name, emitter)).values()]
        assert decorators == [["micropython." + emitter]] * len(fast), job


def test_the_native_twin_is_the_plain_module_decorated():
    plain = _functions("fits.py")
    native = _functions("fits_native.py")
    assert sorted(plain) == sorted(native) == ["can_play", "count_fits", "fitting_ranks"]
    for name, (decorators, body) in plain.items():
        assert decorators == []
        assert native[name] == (["micropython.native"], body), name


def test_fits_is_adjacency():
    for card in range(52):
        for other in range(52):
            assert bool(FITS[card] >> other % RANK_COUNT & 1) == adjacent(card, other)
    assert FITS[-1] == FITS[51]  # an empty pile's -1 reads as a king, as rank(-1) does


def _position(rng):
    deck = list(range(52))
    rng.shuffle(deck)
    stock = [[deck.pop() for _ in range(rng.choice((0, 0, 1, 2, 4)))] for _ in range(5)]
    middle = [[deck.pop()] if rng.random() < 0.9 else [] for _ in range(rng.choice((1, 2)))]
    return stock, middle


def test_the_twins_give_the_obvious_answers():
    rng = random.Random(12)
    for _ in range(2000):
        stock, middle = _position(rng)
        tops = [cards[-1] for cards in middle if cards]
        mine = [cards[-1] for cards in stock if cards]
        expected_play = any(adjacent(card, top) for card in mine for top in tops)
        expected_counts = [sum(adjacent(card, face) for card in mine) for face in range(13)]
        for module in (fits, fits_native):
            ranks = module.fitting_ranks(middle)
            assert ranks == sum(1 << r for r in range(13) if any(adjacent(r, t) for t in tops))
            assert module.can_play(stock, ranks) == expected_play
            counts = bytearray(b"\x07" * 13)  # stale counts from a last look are cleared
            module.count_fits(stock, counts, _ABOVE, _BELOW)
            assert list(counts) == expected_counts


def test_cpython_runs_the_native_module_as_plain_python():
    assert twins.LOADED["spit.fits"] == "native"
    assert twins.can_play is fits_native.can_play


def _as_python(module_file, function, **builtins):
    """A viper function run as Python: its decorator a no-op, the viper built-ins it uses
    (``ptr8``, ``ptr16``, ``ptr32``, ``uint``) given as ``builtins``."""
    with open(os.path.join(FIRMWARE, "spit", module_file)) as f:
        source = f.read()
    namespace = {"micropython": type("viperless", (), {"viper": staticmethod(lambda fn: fn)})}
    namespace.update(builtins)
    exec(compile(source.replace("import micropython\n", ""), module_file, "exec"), namespace)
    return namespace[function]


class _Words:
    """A window's pixel pairs, written as ``ptr32`` writes them: a window of an odd
    number of pixels is no whole number of words, which a memoryview's cast refuses."""

    def __init__(self, buf):
        self._buf = buf

    def __setitem__(self, index, value):
        pack_into("<I", self._buf, 4 * index, value & 0xFFFFFFFF)


def _viper_ink():
    """``spit.ink_viper`` as Python: ``ptr8`` reads the shape's bytes, ``ptr16`` the
    window's pixels, ``ptr32`` the spec's signed words or the window's pixel pairs."""
    return _as_python(
        "ink_viper.py",
        "ink",
        ptr8=memoryview,
        ptr16=lambda buf: memoryview(buf).cast("B").cast("H"),
        # The spec's words are signed; a window's are pixel pairs.
        ptr32=lambda buf: memoryview(buf) if type(buf) is array else _Words(buf),
    )


def test_the_big_text_twins_shape_every_glyph_row_alike():
    viper_shape = _as_python(
        "big_text_viper.py",
        "glyph_row_shape",
        ptr8=memoryview,
        ptr32=lambda buf: memoryview(buf).cast("B").cast("i"),
    )
    bits = bytearray(40 * 8)
    text = "".join(chr(c) for c in range(32, 72))  # 40 characters a row
    framebuf.FrameBuffer(bits, 320, 8, framebuf.MONO_HLSB).text(text, 0, 0, 1)
    shapes = 0
    for chars, scale in ((1, 8), (4, 4), (6, 2), (31, 1)):
        for row in range(8):
            spec = array("i", (row, chars, scale))
            plain = bytearray(b"\xff" * (2 + 16 * chars))
            viper = bytearray(b"\xee" * (2 + 16 * chars))
            big_text.glyph_row_shape(bits, plain, spec)
            viper_shape(bits, viper, spec)
            assert plain == viper
            # The rectangles cover exactly the set bits of the glyph row, magnified.
            covered = set()
            for at in range(2, len(plain), 4):
                left, top, width, height = plain[at : at + 4]
                assert top == 0 and height in (0, scale) and width % scale == 0
                covered |= {(left + i) // scale for i in range(width)}
            lit = {c for c in range(8 * chars) if bits[row * 40 + c // 8] & 0x80 >> c % 8}
            assert covered == lit and plain[:2] == bytes((8 * chars * scale, scale))
            shapes += bool(lit)
    assert shapes > 20


def _every_screen(renderer):
    """The play screen with cards both ways up, empty places and a card in hand, every
    static screen, then the play screen with face-up cards stacked under the tops, as
    pixels."""
    game = position(
        ["KS", "2C 5D", "", "9H", "JC QD"], ["6C", "", "8D 7S", "", "10H"], ("4H", "8C")
    )
    controls = Controls(game)
    controls.called[1] = True
    controls.hand[0] = 3  # the 9H in hand: its highlight
    shots = []
    screens = (
        lambda: renderer.play(game, controls, (False, True)),
        lambda: renderer.title("SPIT", 1234),
        lambda: renderer.ready("SLAM", [True, False], (False, True), "hint"),
        lambda: renderer.countdown(3),
        lambda: renderer.round_result(RoundEnd(0, 1, [0, 3], [6, 6], [20, 32]), b"P1 by 1.52 ms"),
        lambda: renderer.match_result(0, [2, 1], (False, True), [612, 401, 388, 0, 0, 0], 77),
        lambda: renderer.self_test([5] * 16, [12] * 16, [3, 1], ("pairs 4", "x")),
    )
    for draw in screens:
        draw()
        shots.append(bytes(renderer.display.pixels))
    stacked = position(
        ["KS 2C 5D", "9H", "", "", "JC QD"], ["6C 8D 7S"], ("4H",), options="stack=on"
    )
    stacked.face_up[0][0] = stacked.face_up[1][0] = 2  # a card face up under each top
    renderer.play(stacked, Controls(stacked), (True, False))
    shots.append(bytes(renderer.display.pixels))
    return shots


def _ink(twin):
    return ink.ink if twin == "plain" else _viper_ink()


@pytest.mark.parametrize("twin", ["plain", "viper"])
def test_the_ink_twins_paint_what_framebuf_blits(monkeypatch, twin):
    blitted = _every_screen(Renderer(Screen(), framebuf))
    monkeypatch.setattr(pen, "ink", _ink(twin))
    assert _every_screen(Renderer(Screen(), framebuf)) == blitted


@pytest.mark.parametrize("twin", ["plain", "viper"])
def test_the_ink_twins_clip_to_the_window_both_ways_up(twin):
    paint = _ink(twin)
    shape = bytes((9, 2, 0, 0, 1, 1, 8, 0, 1, 2))  # 9x2: a dot and a bar of two
    for turned, x, y, expected in (
        (0, 0, 0, {(0, 0), (8, 0), (8, 1)}),
        (0, 1, 0, {(1, 0), (9, 0), (9, 1)}),  # odd columns: a pixel, not a pair
        (1, 0, 0, {(8, 1), (0, 1), (0, 0)}),
        (0, -8, 1, {(0, 1), (0, 2)}),  # the first column lies off the window's left
        (1, 2, -1, {(10, 0), (2, 0)}),
    ):
        window = bytearray(2 * 12 * 3)
        paint(window, shape, array("i", (12, 3, x, y, 0x1234, turned)))
        pixels = memoryview(window).cast("H")
        painted = {(i % 12, i // 12) for i in range(36) if pixels[i]}
        assert painted == expected
        assert all(pixels[i] in (0, 0x1234) for i in range(36))


def test_the_viper_ink_paints_the_plain_twins_pixels_on_the_same_inputs():
    calls = twin_cases.cases()["spit.ink"]
    viper = type("viper", (), {"ink": staticmethod(_viper_ink())})
    assert twin_cases.run(viper, calls) == twin_cases.run(ink, calls)


def test_the_viper_ink_a_region_a_call_ends_on_the_screen_drawn_at_once(monkeypatch):
    game = position(["KS", "2C 5D", "", "9H", "JC QD"], ["6C", "", "8D 7S"], ("4H", ""))
    controls = Controls(game)
    controls.hand[1] = 2  # the 7S in hand
    at_once = Renderer(Screen(), framebuf)
    at_once.play(game, controls)
    monkeypatch.setattr(pen, "ink", _viper_ink())
    spread = Renderer(Screen(), framebuf)
    spread.regions_per_call = 1
    spread.play(game, controls)
    calls = 0
    while spread.busy and calls < 500:
        spread.play(game, controls)
        calls += 1
    assert not spread.busy  # on the display cleared when the renderer was made
    # Spread a region a call: no fewer calls than the windows they sent.
    assert len(spread.display.windows) <= calls
    assert spread.display.pixels == at_once.display.pixels


def _xorshift32(x):
    x ^= x << 13 & 0xFFFFFFFF
    x ^= x >> 17
    return x ^ (x << 5 & 0xFFFFFFFF)


def test_the_plain_rng_is_xorshift32_on_two_halves():
    rng = random.Random(7)
    for _ in range(500):
        whole = rng.randrange(1, 1 << 32)
        state = array("H", (whole >> 16, whole & 0xFFFF))
        spit.rng.step(state)
        whole = _xorshift32(whole)
        assert state[0] << 16 | state[1] == whole
        n = rng.choice((1, 2, 13, 52, 1000, 16383))
        assert spit.rng.below(state, n) == _xorshift32(whole) % n
        whole = _xorshift32(whole)
        items = list(range(rng.randrange(60)))
        expected = list(items)
        for i in range(len(expected) - 1, 0, -1):
            whole = _xorshift32(whole)
            j = whole % (i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        spit.rng.shuffle(state, items)
        assert items == expected and state[0] << 16 | state[1] == whole
