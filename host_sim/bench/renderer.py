"""Budgets of the renderer (SPEC section 11), for ``make bench``.

``figures()`` plays one CPU-against-CPU game through the rules engine
(``spit.selfplay.Race``) on the MicroPython VM and draws the play screen after every
action, with the real ``framebuf``, through the firmware's display driver
(``drivers.display.Display`` on its ``PinBus``) on an SPI bus that counts the bytes put
on it. It returns:

- ``display_bytes_per_play``: the median of the bytes on the bus (pixels and window
  commands) for the frame that shows one card played (budget 16,384; a full frame is
  153,600).
- ``display_windows_per_play``: the median of the windows that frame sends.
- ``display_max_bytes_per_play``: the most such a frame sent.
- ``full_redraws_per_round``: whole-screen clears over the game, per round played.
  Only the play screen is drawn here, so this counts the renderer's own clears (the
  first frame, and a change between one and two spit piles); the game flow adds one
  each time it comes back from another screen.
- ``render_us_per_play``: the mean time of that frame's ``play()`` call. The VM's
  clock steps in whole milliseconds, so each call is timed to the millisecond and
  the mean over the game's plays is the figure (the calls start at unrelated points
  of the millisecond, so the rounding evens out). Host time inside the WebAssembly
  VM, not the RP2040's.
- ``render_heap_bytes``: the heap a ``Renderer`` keeps once it is made (its work
  buffer, the FrameBuffer views over it, the glyph and text bitmaps, the blank cards).

``emu_figures()`` (about 30 s, needs the MicroPython UF2) replays the first actions of
that game on the emulated Pico, drawing through ``hardware_setup.display()`` onto the
real SPI at 62.5 MHz with the heap locked as on the device, so its times are drawing
plus sending:
``emu_render_us_per_play`` (median) and ``emu_render_max_us_per_play`` over those
plays, ``emu_render_full_us`` (the whole play screen, its clear included) and
``emu_render_idle_us`` (a frame where nothing changed).
"""

from spit.selfplay import Race
from spit.spit import Game
from spit.spit_cpu import SpitCpu

from host_sim.vm.micropython_vm import run as run_in_vm

_SEED = 1
_LEVEL = "steady"
_EMU_ACTIONS = 120

_GAME = """
import framebuf, time
from drivers.display import Display, PinBus
from spit.controls import Controls
from spit.spit_cpu import SpitCpu
from spit.render import Renderer
from spit.games import KIND_SHIFT, PLAY
from spit.spit import Game
from spit.selfplay import Race


class CountingBus:
    def __init__(self):
        self.windows = 0

    def write(self, data):
        if len(data) == 1 and data[0] == 0x2C:  # RAMWR: a window's pixels follow
            self.windows += 1


def line(level):
    pass


def measure(seed, level):
    bus = CountingBus()
    display = Display(PinBus(bus, line, line), line, sleep_ms=line)
    renderer = Renderer(display, framebuf)
    game = Game(seed)
    controls = Controls(game)
    race = Race(game, (SpitCpu(0, level, seed), SpitCpu(1, level, seed)))
    renderer.play(game, controls)
    drawn_round = game.round
    sizes = []
    windows = []
    total_us = 0
    while race.step():
        controls.changed()
        done = len(game.history)
        played = done and game.history[-1] >> KIND_SHIFT == PLAY and game.round == drawn_round
        drawn_round = game.round
        sent = display.bytes_sent
        windows_before = bus.windows
        start = time.ticks_us()
        renderer.play(game, controls)
        took = time.ticks_diff(time.ticks_us(), start)
        if played:
            sizes.append(display.bytes_sent - sent)
            windows.append(bus.windows - windows_before)
            total_us += took
    print(len(sizes), game.round, renderer.full_redraws, total_us)
    print(" ".join(str(n) for n in sizes))
    print(" ".join(str(n) for n in windows))
"""

# The VM collects garbage only between top-level calls, so the heap is read across them.
_HEAP = """
import gc, framebuf
from spit.render import Renderer


class Display:
    width = 320
    height = 240

    def fill(self, c):
        pass

    def show(self, x, y, w, h, buf):
        pass
"""
_HEAP_CALLS = (
    "before = gc.mem_alloc()",
    "renderer = Renderer(Display(), framebuf)",
    "print(gc.mem_alloc() - before)",
)

_EMU = """
import framebuf, time
import hardware_setup
from spit.controls import Controls
from spit.scheduler import HEAP
from spit.render import Renderer
from spit.games import KIND_SHIFT, PLAY
from spit.spit import Game

renderer = Renderer(hardware_setup.display(), framebuf)
HEAP.on = True  # as device.boot() sets it
game = Game(%(seed)d)
controls = Controls(game)
renderer.play(game, controls)  # on the display the renderer cleared when it was made
renderer.invalidate()  # timed: the whole screen, its clear included
start = time.ticks_us()
renderer.play(game, controls)
full = time.ticks_diff(time.ticks_us(), start)
plays = []
for action in %(actions)r:
    game.apply(action)
    controls.changed()
    start = time.ticks_us()
    renderer.play(game, controls)
    took = time.ticks_diff(time.ticks_us(), start)
    if action >> KIND_SHIFT == PLAY:
        plays.append(took)
start = time.ticks_us()
for _ in range(20):
    renderer.play(game, controls)
idle = time.ticks_diff(time.ticks_us(), start) // 20
plays.sort()
print(full, idle, plays[len(plays) // 2], plays[-1])
"""


def _median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def heap_bytes():
    """The heap a Renderer keeps once it is made, garbage collected."""
    return int(run_in_vm(_HEAP, calls=_HEAP_CALLS))


def measure(seed=_SEED, level=_LEVEL):
    """The figures of one game, ``seed`` and both seats at ``level``."""
    out = run_in_vm(_GAME + "\nmeasure(%d, %r)\n" % (seed, level)).split("\n")
    plays, rounds, full_redraws, total_us = (int(word) for word in out[0].split())
    sizes = [int(word) for word in out[1].split()]
    windows = [int(word) for word in out[2].split()]
    return {
        "display_bytes_per_play": _median(sizes),
        "display_windows_per_play": _median(windows),
        "display_max_bytes_per_play": max(sizes),
        "full_redraws_per_round": round(full_redraws / max(rounds, 1), 2),
        "render_us_per_play": round(total_us / max(plays, 1), 1),
        "render_heap_bytes": heap_bytes(),
        "plays_measured": plays,
    }


def emu_figures(seed=_SEED, level=_LEVEL):
    """The renderer on the emulated Pico; ``{}`` without the UF2."""
    from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico, firmware_paths
    from host_sim.emu.fs_image import board_files

    if firmware_paths() is None:
        return {}
    game = Game(seed)
    race = Race(game, (SpitCpu(0, level, seed), SpitCpu(1, level, seed)))
    while len(game.history) < _EMU_ACTIONS and race.step():
        pass
    code = _EMU % {"seed": seed, "actions": list(game.history)}
    with EmulatedPico(files=board_files(main=False)) as pico:
        pico.run_us(BOOT_US)
        out = pico.exec(code, within_us=60_000_000)
    full, idle, median, most = (int(word) for word in out.split())
    return {
        "emu_render_us_per_play": median,
        "emu_render_max_us_per_play": most,
        "emu_render_full_us": full,
        "emu_render_idle_us": idle,
    }


def figures():
    return measure()


if __name__ == "__main__":
    import json

    found = figures()
    found.update(emu_figures())
    print(json.dumps(found, indent=2, sort_keys=True))
