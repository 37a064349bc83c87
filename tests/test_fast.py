"""The hot loops and their native twins (spit.fast, spit.fast_native, spit.turn,
spit.turn_viper, spit.big_text, spit.big_text_viper, spit.hot).

The native module must be the plain one plus decorators, line for line; both must give
the answers of the slow, obvious definitions (``cards.adjacent`` over every pair); the
MicroPython VM, which has no native emitter, must take the plain twins and agree. The
viper twin of ``turn_pixels`` runs here as Python, its ``ptr16`` and ``ptr32`` memoryviews
of 16- and 32-bit items, and must agree with the plain one; so must ``glyph_row_shape``'s
twins, and ``ink`` must paint every screen as framebuf's blit does.
"""

import ast
import os
import random
from array import array

import framebuf
from positions import position
from spit import big_text, fast, fast_native, hot, render, turn
from spit.cards import FITS, RANK_COUNT, adjacent
from spit.controls import Controls
from spit.render import Renderer
from spit.rules import RoundEnd
from test_render import Screen

from host_sim.micropython_vm import FIRMWARE

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


def test_the_native_twin_is_the_plain_module_decorated():
    plain = _functions("fast.py")
    native = _functions("fast_native.py")
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
        for module in (fast, fast_native):
            ranks = module.fitting_ranks(middle)
            assert ranks == sum(1 << r for r in range(13) if any(adjacent(r, t) for t in tops))
            assert module.can_play(stock, ranks) == expected_play
            counts = bytearray(b"\x07" * 13)  # stale counts from a last look are cleared
            module.count_fits(stock, counts, bytes(13), _ABOVE, _BELOW)
            assert list(counts) == expected_counts


def test_cpython_runs_the_native_module_as_plain_python():
    assert hot.NATIVE
    assert hot.can_play is fast_native.can_play


def test_the_vm_takes_the_plain_twins_and_agrees(mpvm):
    out = mpvm(
        "from spit import fast, hot\n"
        "print(hot.NATIVE, hot.can_play is fast.can_play)\n"
        "stock = [[1, 14], [], [5], [3, 4, 7], [12]]\n"
        "ranks = hot.fitting_ranks([[2], [20]])\n"
        "print(ranks, hot.can_play(stock, ranks))\n"
    )
    stock = [[1, 14], [], [5], [3, 4, 7], [12]]
    ranks = fast.fitting_ranks([[2], [20]])
    assert out.split("\n")[:2] == ["False True", "%d %s" % (ranks, fast.can_play(stock, ranks))]


def _as_python(module_file, function, **builtins):
    """A viper function run as Python: its decorator a no-op, the viper built-ins it uses
    (``ptr8``, ``ptr16``, ``ptr32``, ``uint``) given as ``builtins``."""
    with open(os.path.join(FIRMWARE, "spit", module_file)) as f:
        source = f.read()
    namespace = {"micropython": type("viperless", (), {"viper": staticmethod(lambda fn: fn)})}
    namespace.update(builtins)
    exec(compile(source.replace("import micropython\n", ""), module_file, "exec"), namespace)
    return namespace[function]


def _viper_twin():
    """``spit.turn_viper`` as Python: ``ptr16`` and ``ptr32`` memoryviews, every buffer
    word-aligned (``ptr8``'s address 0)."""
    return _as_python(
        "turn_viper.py",
        "turn_pixels",
        ptr8=lambda buf: 0,
        ptr16=lambda buf: memoryview(buf).cast("H"),
        ptr32=lambda buf: memoryview(buf).cast("I"),
        uint=int,
    )


def test_the_turn_twins_reverse_the_pixels_and_keep_their_bytes():
    rng = random.Random(5)
    viper_turn = _viper_twin()
    for _ in range(500):
        pixels = [
            rng.randrange(65536) for _ in range(rng.choice((0, 1, 2, 3, 4, 6, 7, 160, 1280)))
        ]
        data = b"".join(p.to_bytes(2, "little") for p in pixels)
        expected = b"".join(p.to_bytes(2, "little") for p in reversed(pixels))
        for twin in (turn.turn_pixels, viper_turn):
            buf = bytearray(data)
            twin(memoryview(buf))
            assert buf == expected


def test_the_host_and_the_vm_take_the_plain_turn(mpvm):
    assert not hot.VIPER and hot.turn_pixels is turn.turn_pixels
    out = mpvm(
        "from spit import hot, turn\n"
        "buf = bytearray(b'abcdef')\n"
        "hot.turn_pixels(buf)\n"
        "print(hot.VIPER, hot.turn_pixels is turn.turn_pixels, bytes(buf))\n"
    )
    assert out.split("\n")[0] == "False True b'efcdab'"


def _viper_ink():
    """``spit.ink_viper`` as Python: ``ptr8`` reads the shape's bytes, ``ptr16`` the
    window's pixels, ``ptr32`` the spec's signed words or the window's pixel pairs."""
    return _as_python(
        "ink_viper.py",
        "ink",
        ptr8=memoryview,
        ptr16=lambda buf: memoryview(buf).cast("B").cast("H"),
        # The spec's words are signed; a window's are pixel pairs.
        ptr32=lambda buf: memoryview(buf).cast("B").cast("i" if type(buf) is array else "I"),
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
        lambda: renderer.round_result(RoundEnd(0, 1, [0, 3], [6, 6], [20, 32]), "P1 by 1.52 ms"),
        lambda: renderer.match_result(0, [2, 1], (False, True), ("P1 612 ms, best 401",), 77),
        lambda: renderer.self_test([5] * 16, ["1.2s"] * 16, [3, 1], ("pairs 4", "x")),
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


def test_the_viper_ink_paints_what_framebuf_blits(monkeypatch):
    plain = _every_screen(Renderer(Screen(), framebuf))
    monkeypatch.setattr(render, "ink", _viper_ink())
    assert _every_screen(Renderer(Screen(), framebuf)) == plain


def test_the_viper_ink_clips_to_the_window_both_ways_up():
    paint = _viper_ink()
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


def test_the_viper_ink_a_region_a_call_ends_on_the_screen_drawn_at_once(monkeypatch):
    game = position(["KS", "2C 5D", "", "9H", "JC QD"], ["6C", "", "8D 7S"], ("4H", ""))
    controls = Controls(game)
    controls.hand[1] = 2  # the 7S in hand
    at_once = Renderer(Screen(), framebuf)
    at_once.play(game, controls)
    monkeypatch.setattr(render, "ink", _viper_ink())
    spread = Renderer(Screen(), framebuf)
    spread.regions_per_call = 1
    spread.play(game, controls)
    calls = 0
    while spread.busy and calls < 500:
        spread.play(game, controls)
        calls += 1
    assert calls > 100 and not spread.busy
    assert spread.display.pixels == at_once.display.pixels
