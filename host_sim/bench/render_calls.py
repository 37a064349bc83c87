"""How long each renderer call takes on the emulated Pico, screen by screen.

``render_calls(pico)`` boots the device as ``main.py`` does (``device.boot()``: the display on
SPI0 at 62.5 MHz; ``regions_per_call`` as ``boot()`` sets it, 1, unless ``regions`` says
otherwise) and times every call of the renderer's screens with ``ticks_us`` on the chip,
SPI included: the title, then a CPU-against-CPU match (both seats ``lightning``) through
its ready screen, countdown, first round in play and round result, with the game clock
running ahead of the chip's as in ``host_sim.bench.pass_profile``. Game over, the match result,
the error screen, the settings (then with the cursor moved) and the self-test (then with
every button's age changed) are then called directly, as the controller would on each
pass, until the renderer has nothing pending.

``python -m host_sim.bench.render_calls`` prints, per screen, the calls made and the
longest one, and the longest call overall.
"""

import ast

from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico
from host_sim.emu.fs_image import board_files

SCREENS = (
    "title",
    "ready",
    "countdown",
    "play",
    "round_result",
    "game_over",
    "match_result",
    "error",
    "settings",
    "self_test",
)
_SKIP_US = 25_000
_LEVEL = "lightning"
_TITLE_PASSES = 60
_MAX_PASSES = 2_000
_DIRECT_CALLS = 200  # at most, per directly called screen

_PROGRAM = """
import gc, time
from device import boot
from spit.modes import SETTINGS

SCREENS = %(screens)r
calls = [0] * len(SCREENS)
longest = [0] * len(SCREENS)
slow = [0] * len(SCREENS)  # calls over 1 ms
over = [0] * len(SCREENS)  # calls over the budget of 800 us


def timed(fn, screen):
    def timed_call(*args):
        start = time.ticks_us()
        fn(*args)
        took = time.ticks_diff(time.ticks_us(), start)
        calls[screen] += 1
        longest[screen] = max(longest[screen], took)
        if took > 1000:
            slow[screen] += 1
        if took > 800:
            over[screen] += 1
    return timed_call


def pending(renderer):
    return getattr(renderer, "busy", False)  # a renderer without it draws whole


def run(level, max_passes, title_passes, skip_us, regions, direct_calls):
    handheld = boot()
    renderer = handheld.controller.scheduler.renderer
    menu = handheld.controller.modes[SETTINGS].prepare()
    # The play screen is bound when the renderer is made, and the controller calls the
    # static screens on ``renderer.screens``: each wrapped where it is called.
    for i, name in enumerate(SCREENS):
        owner = renderer if name == "play" else renderer.screens
        setattr(owner, name, timed(getattr(owner, name), i))
    if regions is not None:
        renderer.regions_per_call = regions
    now = time.ticks_us()
    for _ in range(title_passes):
        handheld.step(now)
        now = time.ticks_add(now, skip_us)
    handheld.saved.seats = [level, level]
    handheld.controller.new_match(now)
    gc.collect()
    passes = 0
    result = SCREENS.index("round_result")
    while passes < max_passes:
        game = handheld.controller.session.table.game
        if game.round >= 1 and calls[result] and not pending(renderer):
            break
        start = time.ticks_us()
        handheld.step(now)
        now = time.ticks_add(now, time.ticks_diff(time.ticks_us(), start) + skip_us)
        passes += 1
    direct = (
        lambda: renderer.screens.game_over(1, "out of cards", (1, 1), (True, True), 1234),
        lambda: renderer.screens.match_result(
            0, (2, 1), (False, False), [612, 401, 388, 701, 701, 650], 1234
        ),
        lambda: renderer.screens.error("MemoryError: memory allocation failed, allocating 4 KB"),
        lambda: renderer.screens.settings(menu.read(), 0),
        lambda: renderer.screens.settings(menu.read(), 1),
        lambda: renderer.screens.self_test(presses, ages, bins, lines),
        lambda: renderer.screens.self_test(presses, later, bins, lines),
    )
    presses = list(range(16))
    ages = [10 * i for i in range(16)]
    later = [10 * (i + 1) for i in range(16)]
    bins = [0, 1, 3, 7, 12, 9, 7, 3, 1, 0]
    lines = ("pairs 34  99.9%%: 812 us  bias -40 us", "tie window 900 us: hold SPIT to save")
    for draw in direct:
        draw()
        n = 1
        while pending(renderer) and n < direct_calls:
            draw()
            n += 1
    print(repr({
        "calls": calls, "longest": longest, "slow": slow, "over": over, "passes": passes,
        "errors": handheld.errors, "last_error": repr(handheld.last_error),
        "round": handheld.controller.session.table.game.round,
    }))
"""


def render_calls_pass(pico, level=_LEVEL, regions=None, max_passes=_MAX_PASSES):
    """One run on ``pico`` (at its REPL); returns ``{screen: figures}`` and the whole
    run's as ``"overall"``: ``calls``, ``longest_us``, ``over_1ms`` and ``over_800us``
    (calls)."""
    code = _PROGRAM % {"screens": SCREENS}
    args = (level, max_passes, _TITLE_PASSES, _SKIP_US, regions, _DIRECT_CALLS)
    code += "\nrun(%r, %d, %d, %d, %r, %d)\n" % args
    out = pico.exec(code, within_us=300_000_000)
    report = ast.literal_eval(out.strip().splitlines()[-1])
    if report["errors"]:
        raise AssertionError("the loop failed on the board: %s" % report["last_error"])
    columns = {
        "calls": report["calls"],
        "longest_us": report["longest"],
        "over_1ms": report["slow"],
        "over_800us": report["over"],
    }
    figures = {
        name: {column: values[i] for column, values in columns.items()}
        for i, name in enumerate(SCREENS)
    }
    figures["overall"] = {
        column: max(values) if column == "longest_us" else sum(values)
        for column, values in columns.items()
    }
    return figures


def render_calls(**kwargs):
    with EmulatedPico(files=board_files(main=False)) as pico:
        pico.run_us(BOOT_US)
        return render_calls_pass(pico, **kwargs)


def main():
    figures = render_calls()
    columns = list(figures["overall"])
    print("%-14s" % "screen" + "".join("%12s" % column for column in columns))
    for name, row in figures.items():
        print("%-14s" % name + "".join("%12d" % row[column] for column in columns))


if __name__ == "__main__":
    main()
