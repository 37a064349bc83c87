"""The fake ``framebuf`` draws the same bytes as MicroPython's real one.

Each scene is a list of calls; the same list runs on the real module in the MicroPython
VM and on the fake here, and the buffers must match byte for byte.
"""

import json
import random

import framebuf
import pytest

from host_sim.vm.micropython_vm import run

# Builds a scene's FrameBuffer, makes its calls and returns the bytes as hex. The same
# source runs in the VM (real framebuf) and here (the fake, first on sys.path).
_PLAYER = """
import framebuf
from array import array

def play(scene):
    w, h, fmt, stride, size = scene["shape"]
    buf = bytearray(size)
    fb = framebuf.FrameBuffer(buf, w, h, getattr(framebuf, fmt), stride)
    for name, args in scene["calls"]:
        if name == "poly":
            args = args[:2] + [array("h", args[2])] + args[3:]
        elif name == "blit":
            sw, sh, sfmt, sbytes = args[0]
            src = framebuf.FrameBuffer(bytearray(bytes(sbytes)), sw, sh, getattr(framebuf, sfmt))
            extra = []
            if len(args) > 4:
                pw, pfmt, pbytes = args[4]
                pbuf = bytearray(bytes(pbytes))
                extra = [framebuf.FrameBuffer(pbuf, pw, 1, getattr(framebuf, pfmt))]
            args = [src] + args[1:4] + extra
        getattr(fb, name)(*args)
    return bytes(buf).hex()
"""

_here = {}
exec(_PLAYER, _here)


def _play_here(scene):
    return _here["play"](scene)


def _on_vm(scenes):
    code = "import json\nSCENES = %r\n%s\nfor s in json.loads(SCENES):\n    print(play(s))\n"
    return run(code % (json.dumps(scenes), _PLAYER)).split()


# Buffer sizes large enough for every format at the given stride.
def _shape(w, h, fmt, stride):
    sizes = {
        "RGB565": stride * h * 2,
        "GS8": stride * h,
        "GS4_HMSB": ((stride + 1) & ~1) * h // 2,
        "GS2_HMSB": ((stride + 3) & ~3) * h // 4,
        "MONO_HLSB": ((stride + 7) & ~7) * h // 8,
        "MONO_HMSB": ((stride + 7) & ~7) * h // 8,
        "MONO_VLSB": stride * ((h + 7) // 8),
    }
    return [w, h, fmt, stride, sizes[fmt]]


def _colour(fmt, rng):
    return {
        "RGB565": rng.randrange(0x10000),
        "GS8": rng.randrange(256),
        "GS4_HMSB": rng.randrange(16),
        "GS2_HMSB": rng.randrange(4),
    }.get(fmt, rng.randrange(2))


def _hand_scenes():
    """Every primitive at the edges, off them, at negative coordinates, and the text."""
    rgb = _shape(40, 30, "RGB565", 40)
    calls = [
        ["fill", [0x1234]],
        ["pixel", [0, 0, 0xF800]],
        ["pixel", [39, 29, 0x07E0]],
        ["pixel", [-1, 5, 0xFFFF]],
        ["pixel", [40, 5, 0xFFFF]],
        ["hline", [-5, 2, 12, 0xABCD]],
        ["hline", [35, 3, 20, 0xABCD]],
        ["vline", [3, -4, 9, 0x5555]],
        ["vline", [38, 25, 10, 0x5555]],
        ["fill_rect", [-3, -3, 6, 6, 0x00FF]],
        ["fill_rect", [37, 27, 9, 9, 0xFF00]],
        ["fill_rect", [5, 5, 0, 4, 0xFFFF]],
        ["fill_rect", [5, 5, -3, 4, 0xFFFF]],
        ["rect", [10, 10, 8, 6, 0x0F0F]],
        ["rect", [-2, 20, 6, 15, 0xF0F0]],
        ["rect", [20, 12, 5, 4, 0x3333, True]],
        ["rect", [30, 1, 1, 1, 0x4444]],
        ["line", [0, 0, 39, 29, 0x7777]],
        ["line", [-10, 15, 50, 18, 0x8888]],
        ["line", [20, -5, 22, 40, 0x9999]],
        ["line", [30, 20, 30, 20, 0xAAAA]],
        ["line", [39, 0, 0, 29, 0xBBBB]],
        ["ellipse", [20, 15, 10, 6, 0xCCCC]],
        ["ellipse", [0, 0, 7, 9, 0xDDDD, True]],
        ["ellipse", [39, 29, 5, 5, 0xEEEE, True, 0b0101]],
        ["ellipse", [20, 15, 0, 0, 0x1111]],
        ["ellipse", [12, 22, 0, 4, 0x2222, True]],
        ["ellipse", [12, 22, 6, 0, 0x2323]],
        ["text", ["Spit! 10", -3, 1, 0xFFFF]],
        ["text", ["Jq~\x7f\x01", 2, 24, 0x0001]],
        ["text", ["é", 30, -4, 0xF81F]],
        ["text", ["", 0, 0, 0x1]],
        ["scroll", [3, -2]],
        ["scroll", [-5, 4]],
        ["poly", [5, 5, [0, 0, 12, 3, 6, 14, 3, 6], 0x4321, True]],
        ["poly", [20, 2, [0, 0, 10, 0, 10, 10, 5, 4, 0, 10], 0x1357, True]],
        ["poly", [-4, 18, [0, 0, 15, 5, 2, 12], 0x2468]],
        ["poly", [25, 20, [0, 0], 0x1111, True]],
    ]
    mono = _shape(21, 13, "MONO_HLSB", 21)
    mono_calls = [
        ["fill", [0]],
        ["text", ["A7", -1, 2, 1]],
        ["ellipse", [10, 6, 9, 5, 1]],
        ["line", [0, 12, 20, 0, 1]],
        ["fill_rect", [15, -2, 10, 5, 1]],
        ["scroll", [2, 1]],
        ["rect", [1, 1, 19, 11, 0]],
    ]
    sprite = [4, 3, "MONO_HLSB", list(bytes([0b10100000, 0b01000000, 0b11110000]))]
    palette = [2, "RGB565", [0x00, 0xF8, 0xE0, 0x07]]
    blits = [
        ["fill", [0x0101]],
        ["blit", [sprite, 2, 2, -1, palette]],
        ["blit", [sprite, -2, -1, 0xF800, palette]],
        ["blit", [sprite, 38, 28, -1, palette]],
        ["blit", [sprite, 40, 0, -1, palette]],
        ["blit", [[3, 2, "RGB565", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]], 7, 9, 0x0403]],
        ["blit", [[3, 2, "RGB565", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]], -1, 28]],
    ]
    strided = _shape(10, 8, "RGB565", 16)
    return [
        {"shape": rgb, "calls": calls},
        {"shape": mono, "calls": mono_calls},
        {"shape": rgb, "calls": blits},
        {"shape": strided, "calls": [["fill", [0x2222]], ["text", ["ab", 1, 0, 0x9]]]},
    ]


def _random_scene(fmt, rng):
    w, h = rng.randrange(1, 48), rng.randrange(1, 40)
    stride = w + rng.choice((0, 0, 3))
    calls = []
    for _ in range(60):
        c = _colour(fmt, rng)

        def xy():
            return rng.randrange(-12, w + 12), rng.randrange(-12, h + 12)

        def size():
            return rng.randrange(-2, 30), rng.randrange(-2, 30)

        kind = rng.choice(
            (
                "pixel",
                "hline",
                "vline",
                "fill_rect",
                "rect",
                "line",
                "ellipse",
                "text",
                "scroll",
                "poly",
                "fill",
            )
        )
        if kind == "pixel":
            calls.append([kind, [*xy(), c]])
        elif kind in ("hline", "vline"):
            calls.append([kind, [*xy(), rng.randrange(-3, 40), c]])
        elif kind in ("fill_rect", "rect"):
            args = [*xy(), *size(), c]
            if kind == "rect" and rng.random() < 0.5:
                args.append(rng.random() < 0.5)
            calls.append([kind, args])
        elif kind == "line":
            calls.append([kind, [*xy(), *xy(), c]])
        elif kind == "ellipse":
            args = [*xy(), rng.randrange(0, 25), rng.randrange(0, 25), c]
            if rng.random() < 0.6:
                args.append(rng.random() < 0.5)
                if rng.random() < 0.5:
                    args.append(rng.randrange(16))
            calls.append([kind, args])
        elif kind == "text":
            text = "".join(chr(rng.randrange(28, 130)) for _ in range(rng.randrange(0, 6)))
            calls.append([kind, [text, *xy(), c]])
        elif kind == "scroll":
            calls.append([kind, [rng.randrange(-w - 2, w + 3), rng.randrange(-h - 2, h + 3)]])
        elif kind == "poly":
            points = []
            for _ in range(rng.randrange(1, 7)):
                points += [rng.randrange(-15, 40), rng.randrange(-15, 40)]
            calls.append([kind, [*xy(), points, c, rng.random() < 0.6]])
        else:
            calls.append([kind, [c]])
    return {"shape": _shape(w, h, fmt, stride), "calls": calls}


_FORMATS = ("RGB565", "MONO_HLSB", "MONO_HMSB", "MONO_VLSB", "GS8", "GS4_HMSB", "GS2_HMSB")


@pytest.mark.micropython_vm
def test_scenes_match_the_real_framebuf_byte_for_byte():
    rng = random.Random(2026)
    scenes = _hand_scenes()
    scenes += [_random_scene(fmt, rng) for fmt in _FORMATS for _ in range(6)]
    real = _on_vm(scenes)
    assert len(real) == len(scenes)
    for index, scene in enumerate(scenes):
        assert _play_here(scene) == real[index], "scene %d (%s) differs" % (
            index,
            scene["shape"][2],
        )


def test_scenes_draw_something():
    # A fake that drew nothing would still match a scene that draws nothing.
    for scene in _hand_scenes():
        assert set(bytes.fromhex(_play_here(scene))) != {0}


@pytest.mark.micropython_vm
def test_every_printable_glyph_matches():
    text = "".join(chr(c) for c in range(32, 128))
    scene = {
        "shape": _shape(8 * len(text), 8, "RGB565", 8 * len(text)),
        "calls": [["text", [text, 0, 0, 0xFFFF]]],
    }
    assert _play_here(scene) == _on_vm([scene])[0]


def test_rgb565_pixels_are_little_endian_words():
    buf = bytearray(4)
    fb = framebuf.FrameBuffer(buf, 2, 1, framebuf.RGB565)
    fb.pixel(1, 0, 0xF800)
    assert buf == bytearray(b"\x00\x00\x00\xf8")
    assert fb.pixel(1, 0) == 0xF800
    assert fb.pixel(2, 0) is None


def test_too_small_a_buffer_is_refused_like_the_device():
    with pytest.raises(ValueError):
        framebuf.FrameBuffer(bytearray(10), 8, 8, framebuf.RGB565)
    with pytest.raises(ValueError):
        framebuf.FrameBuffer(bytearray(7), 8, 8, framebuf.MONO_HLSB)
    framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_HLSB)


def test_fake_is_the_one_on_the_path():
    assert framebuf.__file__.replace("\\", "/").endswith("host_sim/fakes/framebuf.py")


_TEXT_TYPES = """
import framebuf


def drawn(text):
    buf = bytearray(16 * 8 * 2)
    framebuf.FrameBuffer(buf, 16, 8, framebuf.RGB565).text(text, 0, 0, 0xFFFF)
    return bytes(buf)


try:
    drawn(bytearray(b"a7"))
    refused = "none"
except TypeError:
    refused = "TypeError"
print(drawn(b"a7") == drawn("a7"), drawn("a7") != drawn(""), refused)
"""


def test_text_takes_bytes_as_a_string_and_refuses_a_bytearray_like_the_device(mpvm):
    from helpers.same_on_cpython import run_on_cpython

    assert mpvm(_TEXT_TYPES) == run_on_cpython(_TEXT_TYPES) == "True True TypeError\n"
