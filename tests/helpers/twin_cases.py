"""The same inputs for both twins of every job, and one way to run them on either side.

``pairs()`` finds each job with a fast twin (``{"spit.fits": "native", ...}``);
``cases()`` gives each job a list of calls, ``[function name, [argument, ...]]``, in
JSON: buffers as ``{"hex": ...}``, arrays as ``{"array": typecode, "items": [...]}``.
``RUNNER`` is source that CPython and MicroPython both run: its ``answer(module, call)``
makes the call on fresh arguments and gives the result and the arguments afterwards (the
twins write into buffers), in the same shapes (an array as ``{"items": [...]}``). The
plain twin's answers on CPython and the fast twin's on the
emulated Pico must be equal.
"""

import glob
import json
import os
import random

from host_sim.vm.micropython_vm import FIRMWARE

RUNNER = """
from array import array
from binascii import hexlify, unhexlify


def decode(value):
    if isinstance(value, dict):
        if "hex" in value:
            return bytearray(unhexlify(value["hex"]))
        return array(value["array"], value["items"])
    if isinstance(value, list):
        return [decode(item) for item in value]
    return value


def encode(value):
    if isinstance(value, (bytes, bytearray)):
        return {"hex": hexlify(value).decode()}
    if isinstance(value, array):
        return {"items": list(value)}  # MicroPython's arrays keep no typecode to read
    if isinstance(value, list):
        return [encode(item) for item in value]
    return value


def answer(module, call):
    arguments = decode(call[1])
    result = getattr(module, call[0])(*arguments)
    return [encode(result), encode(arguments)]
"""


def pairs():
    """Each job with a fast twin in the firmware, and that twin's emitter."""
    found = {}
    for path in glob.glob(os.path.join(FIRMWARE, "spit", "*_*.py")):
        job, _, emitter = os.path.basename(path)[: -len(".py")].rpartition("_")
        if emitter in ("native", "viper"):
            found["spit." + job] = emitter
    return found


def _buffer(data):
    return {"hex": bytes(data).hex()}


def _array(typecode, items):
    return {"array": typecode, "items": list(items)}


def _fits(rng):
    above = _buffer((face + 1) % 13 for face in range(13))
    below = _buffer((face - 1) % 13 for face in range(13))
    calls = []
    for _ in range(60):
        deck = list(range(52))
        rng.shuffle(deck)
        stock = [[deck.pop() for _ in range(rng.choice((0, 0, 1, 2, 4)))] for _ in range(5)]
        middle = [[deck.pop()] if rng.random() < 0.9 else [] for _ in range(rng.choice((1, 2)))]
        ranks = rng.randrange(1 << 13)
        calls.append(["fitting_ranks", [middle]])
        calls.append(["can_play", [stock, ranks]])
        stale = _buffer([7] * 13)  # the counts of a last look, cleared by the call
        calls.append(["count_fits", [stock, stale, above, below]])
    return calls


def _rng(rng):
    calls = []
    for _ in range(80):
        state = _array("H", (rng.randrange(65536), rng.randrange(1, 65536)))
        calls.append(["below", [state, rng.choice((1, 2, 3, 7, 13, 52, 1000, 16383))]])
    for count in (0, 1, 2, 26, 52):
        state = _array("H", (rng.randrange(65536), rng.randrange(1, 65536)))
        calls.append(["shuffle", [state, list(range(count))]])
    return calls


def _big_text(rng):
    calls = []
    for chars, scale in ((1, 8), (4, 4), (6, 2), (31, 1)):
        for row in range(8):
            bits = _buffer(rng.randrange(256) for _ in range(40 * 8))
            shape = _buffer([0xEE] * (2 + 16 * chars))  # what a last row left
            calls.append(["glyph_row_shape", [bits, shape, _array("i", (row, chars, scale))]])
    return calls


def _shape(rng):
    """A shape's size and rectangles inside it, as ``ink`` takes them."""
    width, height = rng.randrange(1, 40), rng.randrange(1, 24)
    data = [width, height]
    for _ in range(rng.randrange(0, 8)):
        left, top = rng.randrange(width), rng.randrange(height)
        data += [left, top, rng.randrange(width - left + 1), rng.randrange(height - top + 1)]
    return data


def _ink(rng):
    calls = []
    for _ in range(40):
        width, height = rng.randrange(1, 32), rng.randrange(1, 16)
        shape = _shape(rng)
        x = rng.randrange(-shape[0] - 2, width + 2)  # off each side, across, inside
        y = rng.randrange(-shape[1] - 2, height + 2)
        spec = _array("i", (width, height, x, y, rng.randrange(65536), rng.randrange(2)))
        window = _buffer(rng.randrange(256) for _ in range(2 * width * height))
        calls.append(["ink", [window, _buffer(shape), spec]])
    return calls


_MAKERS = {
    "spit.big_text": _big_text,
    "spit.fits": _fits,
    "spit.ink": _ink,
    "spit.rng": _rng,
}


def cases(seed=25):
    """``{job: calls}`` for every job ``pairs()`` finds: one without cases is an error."""
    rng = random.Random(seed)
    return {job: _MAKERS[job](rng) for job in sorted(pairs())}


def run(module, calls):
    """``RUNNER``'s answers to ``calls`` on CPython, as JSON has them."""
    namespace = {}
    exec(RUNNER, namespace)
    return json.loads(json.dumps([namespace["answer"](module, call) for call in calls]))
