"""Pictures of the screen: what the firmware's renderer draws on the host, and how two
pictures compare, half by half, as the two players see them.

A picture is the ``WIDTH * HEIGHT * 3`` RGB bytes of ``VirtualDisplay.rgb()``, rows top
down. Player 1 reads the bottom half, player 2 the top half (turned).

    drawn(lambda r: r.countdown(3))     # the renderer's countdown, drawn whole
    halves_alike(board, expected)       # (player 1's half alike, player 2's half alike)
"""

import framebuf
from spit.render import Renderer

from host_sim.display import HEIGHT, WIDTH
from host_sim.display.wiring import wired_display

_ROW = WIDTH * 3
_HALF = HEIGHT // 2 * _ROW
_CALLS_MAX = 10_000


def drawn(screen):
    """The picture ``screen(renderer)`` draws on a fresh display, called again while the
    renderer has more of it to draw (as the controller calls it every pass)."""
    display, virtual = wired_display()
    renderer = Renderer(display, framebuf)
    for _ in range(_CALLS_MAX):
        screen(renderer)
        if not renderer.busy:
            return virtual.rgb()
    raise RuntimeError("the renderer never finished the screen")


def halves_alike(picture, other):
    """``(player 1's half alike, player 2's half alike)``."""
    return picture[_HALF:] == other[_HALF:], picture[:_HALF] == other[:_HALF]


def differing_box(picture, other):
    """``(x, y, w, h)`` around every pixel that differs, or None."""
    rows = [y for y in range(HEIGHT) if _row(picture, y) != _row(other, y)]
    if not rows:
        return None
    columns = set()
    for y in rows:
        a, b = _row(picture, y), _row(other, y)
        columns.update(x for x in range(WIDTH) if a[x * 3 : x * 3 + 3] != b[x * 3 : x * 3 + 3])
    return (min(columns), rows[0], max(columns) - min(columns) + 1, rows[-1] - rows[0] + 1)


def describe(picture, known):
    """What each half of ``picture`` shows, by the names of the ``known`` pictures (name
    -> picture) it matches: "player 1's half: the ready screen; player 2's half: none of
    the title, the ready screen"."""
    halves = []
    for half, who in ((0, "player 1's half"), (1, "player 2's half")):
        names = [name for name, other in known.items() if halves_alike(picture, other)[half]]
        shows = " / ".join(names) if names else "none of " + ", ".join(known)
        halves.append("%s: %s" % (who, shows))
    return "; ".join(halves)


def _row(picture, y):
    return picture[y * _ROW : (y + 1) * _ROW]
