"""Where a main-loop pass spends its time on the emulated Pico, stage by stage.

``profile_pass(pico)`` boots the device as ``main.py`` does (``boot()``: the real
display on SPI0 at 62.5 MHz, the PIO capture, the buzzer, the saved data), starts a
CPU-against-CPU match (both seats at ``lightning``) dealt by ``seed`` (not the power-on's,
which follows the emulated boot's timing: a fixed seed plays the same game on every
firmware, as far as the CPU seats' timing lets it) and runs ``Handheld.run_pass`` pass
after pass, as the device's loop (``Handheld.run``) does: the match's ready screen and
countdown, a whole round, the round result, the next ready screen and countdown, and
``_TAIL_PASSES`` passes of the next round's play (``round_ended``: the pass in which the
round ended, -1 if it had not within ``max_passes``). Each pass is timed with ``ticks_us``
on the chip; the game clock handed to ``run_pass`` runs ahead of the chip's by ``_SKIP_US``
a pass, so a whole round plays in a few emulated seconds (more happens per pass, never
less: the figures err on the slow side).

With ``stages=True`` every stage's functions are wrapped and their time is booked to
the innermost stage running (exclusive times; the rest of the pass, the game flow
between the stages, is ``flow``):

- ``drain``: the capture backend handing over its ring (``drain``);
- ``debounce``: ``Debouncer.update`` less the drain;
- ``arbiter``: ``Arbiter.commit_due`` and ``add``;
- ``controls``: ``Controls.press`` and ``RoundClocks.update``, less the rules;
- ``rules``: ``Game.apply``;
- ``cpu``: ``Table._run_cpus`` (the CPU seats' looks and their presses);
- ``render``: the ``Renderer``'s screens and ``step``, less the SPI;
- ``spi``: ``Display.show``, ``show_turned`` and ``fill_rows`` (window commands and pixels on
  SPI0).

The wrappers cost time themselves (a call through ``*args``), so the pass figures come
from a separate run with only ``CpuPlayer.glance`` timed (``stages=False``). Either run also
reports the longest glance (a CPU seat's look goes on over passes, a glance a pass),
and the heap: collections during play (a pass in play after which ``gc.mem_alloc()`` fell
and which took ``_COLLECTION_US`` or more: a collection takes 10-40 ms on this heap), the
passes in play in which it fell without one (``heap_fell_in_play``: a list that ``pop``
leaves less than half full gives back half its room) and the bytes allocated by passes in
play. ``pass_max_us`` is the slowest pass of all, screen changes between rounds included,
but not the breaks: ``break_pass_max_us`` is the slowest pass given to ``Handheld._break``
(the save when the saved data changed, a finished game's transcript, and the garbage collection),
``breaks`` how many there were. ``play_pass_max_us`` is the slowest pass that began and
ended in play (``worst_play_pass`` its stages), and ``play_pass_median_us`` their median.

Either run also keeps the twelve slowest passes, breaks apart (``slowest``: each pass's
number and time, the mode and phase it began in, and whether the screen had work left, an
answer was due, work that could not wait ran, and the pass allocated), read without calling
into the firmware between passes, so that they name the passes to look at.

``press_to_commit(pico)`` plays player 1 against the CPU on the chip's own clock: the
emulator presses SPIT on the ready screen, then card and pile buttons through the first
seconds of play, and the board notes when ``Controls.press`` receives each press, and the
longest pass in play (a person's press committed and answered on the screen among them).

``python -m host_sim.bench.pass_profile [--plain]`` prints one stage run (or a plain one).
"""

import ast

from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico
from host_sim.emu.fs_image import board_files, compiled

STAGES = ("flow", "drain", "debounce", "arbiter", "controls", "rules", "cpu", "render", "spi")
_SKIP_US = 25_000
_LEVEL = "lightning"
_ROUNDS = 1
_TAIL_PASSES = 150
_MAX_PASSES = 4_000
_SLOW_KEPT = 12  # the slowest passes reported, with what each was
_COLLECTION_US = 5_000  # no pass in play comes near it but one that collects
# The passes in play counted by time for their median, in bins of _BIN_US (the last holds
# all longer): one block of a kilobyte, found on a heap that has few larger ones.
_BIN_US = 8
_BINS = 512

_PROGRAM = """
import gc, time
from array import array

# The slowest passes: their time, then what they were (``what``).
SLOWEST = array("I", bytes(8 * %(slow_kept)d))
# The passes in play, counted by time (``_BIN_US`` a bin), for their median.
PLAY_TIMES = array("H", bytes(2 * %(bins)d))
from drivers.debounce import Debouncer
from drivers.display import Display
from spit.arbiter import Arbiter
from spit.controls import Controls
from spit.games import PHASE_PLAY
from spit import games
from spit.round_clocks import RoundClocks
from spit.table import Table

STAGES = %(stages)r
_TAIL_PASSES = %(tail)d
spent = array("i", [0] * len(STAGES))
current = [0]
looks = [0, 0]  # the longest glance, and how many


def booked(stage, parent, start):
    took = time.ticks_diff(time.ticks_us(), start)
    current[0] = parent
    spent[stage] += took
    spent[parent] -= took


def timed(fn, stage):
    def timed_call(*args):
        parent = current[0]
        current[0] = stage
        start = time.ticks_us()
        try:
            return fn(*args)
        finally:
            booked(stage, parent, start)
    return timed_call


# The CPU seats' part of a pass runs with the heap locked (``spit.scheduler.HEAP``), where a
# call through ``*args`` cannot allocate its tuple: these wrappers take two or three.
def timed_two(fn, stage):
    def timed_call(a, b):
        parent = current[0]
        current[0] = stage
        start = time.ticks_us()
        try:
            return fn(a, b)
        finally:
            booked(stage, parent, start)
    return timed_call


def timed_three(fn, stage):
    def timed_call(a, b, c):
        parent = current[0]
        current[0] = stage
        start = time.ticks_us()
        try:
            return fn(a, b, c)
        finally:
            booked(stage, parent, start)
    return timed_call


def timed_glance(fn):
    def glance(cpu, game, now):
        start = time.ticks_us()
        result = fn(cpu, game, now)
        took = time.ticks_diff(time.ticks_us(), start)
        looks[0] = max(looks[0], took)
        looks[1] += 1
        return result
    return glance


# What a pass is about to run, as one int: the mode, the game's phase, whether the
# countdown runs or the round result is read, a screen left busy, an answer due.
def what(handheld):
    controller = handheld.controller
    code = controller.mode << 8
    session = controller.session
    if session is not None:
        code |= session.table.game.phase << 4
        code |= (1 if session.table.controls.counting else 0) << 2
        code |= (1 if controller.current._reading else 0) << 3
    code |= (1 if controller.scheduler.renderer.busy else 0) << 12
    return code | (1 if controller.scheduler.answer else 0) << 13


# ``took`` among the slowest passes kept, in place of the quickest of them.
def keep_slow(took, code):
    quickest = 0
    for i in range(1, len(SLOWEST) // 2):
        if SLOWEST[2 * i] < SLOWEST[2 * quickest]:
            quickest = i
    if took > SLOWEST[2 * quickest]:
        SLOWEST[2 * quickest] = took
        SLOWEST[2 * quickest + 1] = code


def hook(owner, names, stage):
    for name in names:
        setattr(owner, name, timed(getattr(owner, name), STAGES.index(stage)))


# The display's calls come while the renderer holds the heap locked, where the
# wrappers above (a tuple for their arguments) cannot run: these allocate nothing.
SPI = STAGES.index("spi")
_show = Display.show
_show_turned = Display.show_turned
_fill_rows = Display.fill_rows  # a clear of the whole screen goes through it too


def _spi_took(start):
    took = time.ticks_diff(time.ticks_us(), start)
    spent[SPI] += took
    spent[current[0]] -= took


def timed_show(display, x, y, w, h, buf):
    start = time.ticks_us()
    _show(display, x, y, w, h, buf)
    _spi_took(start)


def timed_show_turned(display, x, y, w, h, buf):
    start = time.ticks_us()
    _show_turned(display, x, y, w, h, buf)
    _spi_took(start)


def timed_fill_rows(display, colour, y, h):
    start = time.ticks_us()
    _fill_rows(display, colour, y, h)
    _spi_took(start)


def run(handheld, with_stages, level, rounds, max_passes, skip_us, regions, name, seed):
    # ``handheld`` booted before this program was imported (``BOOTED``): on the heap that
    # main.py leaves, not on one this program's code scattered. The hooks wrap classes,
    # so they reach what boot made. The games are imported as the title's break imports
    # them (``Controller.prepare``: the chosen game and attract mode's next), before
    # the match: its passes and its heap then have both beside them.
    handheld.saved.game = name
    handheld.controller.prepare()
    rules = games.rules(name)
    Game, Cpu = rules.Game, games.cpu_player(name)
    Cpu.glance = timed_glance(Cpu.glance)
    if with_stages:
        hook(Debouncer, ("update",), "debounce")
        hook(Arbiter, ("commit_due",), "arbiter")
        Arbiter.add = timed_three(Arbiter.add, STAGES.index("arbiter"))
        hook(Controls, ("press",), "controls")
        hook(RoundClocks, ("update",), "controls")
        hook(Game, ("apply",), "rules")
        Table._run_cpus = timed_two(Table._run_cpus, STAGES.index("cpu"))
        # The play screen is bound when the renderer is made: wrapped on the renderer
        # itself, with both screens' ``step``, which each clear binds to ``step``; the
        # controller calls the static screens on ``renderer.screens``.
        renderer = handheld.controller.scheduler.renderer
        hook(renderer, ("play", "step", "_play_step", "_static_step"), "render")
        statics = ("title", "ready", "countdown", "round_result", "game_over", "match_result")
        hook(renderer.screens, statics + ("step",), "render")
        Display.show = timed_show
        Display.show_turned = timed_show_turned
        Display.fill_rows = timed_fill_rows
    if regions is not None:
        handheld.controller.scheduler.renderer.regions_per_call = regions
    if with_stages:
        debouncer = handheld.debouncer  # it binds the capture's drain once
        debouncer._drain = timed(debouncer._drain, STAGES.index("drain"))
    handheld.saved.seats = [level, level]
    handheld.controller.seed = seed
    breaks_run = [0]
    take_break = handheld.controller.scheduler.on_break

    def counted_break():
        breaks_run[0] += 1
        take_break()

    handheld.controller.scheduler.on_break = counted_break
    handheld.controller.new_match(time.ticks_us())
    gc.collect()
    total = array("i", [0] * len(STAGES))
    worst = array("i", [0] * len(STAGES))
    stage_max = array("i", [0] * len(STAGES))
    worst_play = array("i", [0] * len(STAGES))
    passes = play_passes = collections = fell = play_alloc = worst_us = worst_play_us = 0
    ended = -1  # the pass in which the round ended
    breaks = break_us = tail = 0
    heap = gc.mem_free() + gc.mem_alloc()
    low_water = heap
    now = time.ticks_us()
    while passes < max_passes:
        session = handheld.controller.session
        if session is None:
            break  # the match ended (the error screen): the figures say why
        game = session.table.game
        if ended < 0 and game.round >= rounds:
            ended = passes
        if game.round >= rounds and game.phase == PHASE_PLAY:
            tail += 1  # the next round's opening frame, and some of its play
        if tail > _TAIL_PASSES or game.outcome() is not None:
            break
        in_play = game.phase == PHASE_PLAY
        breaks_before = breaks_run[0]
        for i in range(len(STAGES)):
            spent[i] = 0
        doing = what(handheld)
        before = gc.mem_alloc()
        start = time.ticks_us()
        handheld.run_pass(now)
        took = time.ticks_diff(time.ticks_us(), start)
        after = gc.mem_alloc()
        low_water = min(low_water, heap - after)
        carried = 1 if handheld.scheduler.carried else 0
        doing |= carried << 14 | (1 if after != before else 0) << 15
        now = time.ticks_add(now, took + skip_us)
        passes += 1
        spent[0] += took
        if breaks_run[0] != breaks_before:  # a break: in a pass of its own
            breaks += 1
            break_us = max(break_us, took)
            continue
        keep_slow(took, doing | (passes - 1) << 16)
        for i in range(len(STAGES)):
            total[i] += spent[i]
            stage_max[i] = max(stage_max[i], spent[i])
        if took > worst_us:
            worst_us = took
            for i in range(len(STAGES)):
                worst[i] = spent[i]
        if in_play and session.table.game.phase == PHASE_PLAY:
            PLAY_TIMES[min(took // %(bin_us)d, len(PLAY_TIMES) - 1)] += 1
            play_passes += 1
            if took > worst_play_us:
                worst_play_us = took
                for i in range(len(STAGES)):
                    worst_play[i] = spent[i]
            if after < before and took >= %(collection_us)d:
                collections += 1
            elif after < before:
                fell += 1
            else:
                play_alloc += after - before
    for i in range(len(PLAY_TIMES)):  # one by one: the heap has no large free block left
        if PLAY_TIMES[i]:
            print("t", i, PLAY_TIMES[i])
    print(repr({
        "passes": passes, "round_ended": ended, "play_passes": play_passes,
        "pass_max_us": worst_us,
        "play_pass_max_us": worst_play_us, "breaks": breaks, "break_pass_max_us": break_us,
        "total": list(total), "worst": list(worst),
        "worst_play": list(worst_play), "stage_max": list(stage_max),
        "look_max_us": looks[0], "looks": looks[1], "collections_in_play": collections,
        "heap_fell_in_play": fell,
        "play_alloc_bytes": play_alloc, "heap_low_water": low_water,
        "errors": handheld.errors,
        "last_error": repr(handheld.last_error),
        "history": len(session.table.game.history) if session is not None else -1,
        "slowest": list(SLOWEST),
    }))
"""

# A person's presses: player 1 against the CPU, on the chip's own clock.
_PRESSES = """
import gc, time
from array import array
from spit.controls import Controls

# Each press as Controls.press receives it: its button, its stamp, the time then. Kept in
# arrays made once: an allocation in the pass that commits would lengthen it.
_KEPT = 64
buttons = array("i", bytes(4 * _KEPT))
stamps = array("i", bytes(4 * _KEPT))
received = array("i", bytes(4 * _KEPT))
count = array("i", bytes(4))
_press = Controls.press


def press(self, button, t, tie=False):
    if count[0] < _KEPT:
        received[count[0]] = time.ticks_us()
        buttons[count[0]] = button
        stamps[count[0]] = t
        count[0] += 1
    return _press(self, button, t, tie)


def _playing(handheld):
    session = handheld.controller.session
    return session is not None and session.table.game.phase == 1


def run(handheld, level, span_us, name, seed):
    Controls.press = press
    handheld.saved.seats = ["person", level]
    handheld.saved.game = name
    handheld.controller.seed = seed
    handheld.controller.new_match(time.ticks_us())
    gc.collect()
    start = time.ticks_us()
    longest = 0  # the longest pass that began and ended in play
    print("ready")
    while time.ticks_diff(time.ticks_us(), start) < span_us:
        playing = _playing(handheld)
        began = time.ticks_us()
        handheld.run_pass(began)
        took = time.ticks_diff(time.ticks_us(), began)
        if took > longest and playing and _playing(handheld):
            longest = took
    print(repr([(buttons[i], stamps[i], received[i]) for i in range(count[0])]))
    print("longest", longest)
"""
P1_SPIT = 7
_SPIT_AT_US = 400_000  # once the ready screen is drawn
_PLAY_FROM_US = 4_000_000  # after the opening countdown
_PRESS_EVERY_US = 170_000
_PRESS_HOLD_US = 40_000
_STAMPED_WITHIN_US = 100  # the capture's stamp of an edge (PIO: within a few µs)
_PRESS_KEYS = (0, 1, 2, 3, 4, 5, 0, 6, 2, 1, 3, 4, 5, 6)


def press_script(start_us):
    """Player 1's presses from ``start_us`` (timer µs): SPIT on the ready screen, then
    card and pile buttons through the first seconds of play."""
    times = [start_us + _SPIT_AT_US]
    buttons = [P1_SPIT]
    for k, button in enumerate(_PRESS_KEYS):
        times.append(start_us + _PLAY_FROM_US + k * _PRESS_EVERY_US + 37 * k)
        buttons.append(button)
    return list(zip(times, buttons, strict=True))


def press_to_commit(pico, level=_LEVEL, game="spit", seed=1):
    """Player 1's presses against the CPU at ``level`` in a match of ``game`` dealt by
    ``seed``; returns ``(edge_us, button, commit_delay_us)`` per committed press of
    player 1, the delay measured from the pin edge to ``Controls.press`` on the chip's
    clock, and the longest pass that began and ended in play (µs): the passes that
    commit a person's press and answer it on the screen, which the CPU-against-CPU
    profile has none of."""
    from host_sim.bench.probe import ticks_minus

    presses = press_script(0)
    span = presses[-1][0] + 200_000
    pico.exec(BOOTED + "from press_run import run")
    pico.write(b"run(handheld, %r, %d, %r, %d)\x04" % (level, span, game, seed))
    pico.expect(b"ready", 5_000_000, fail=b"Traceback")
    start = pico.now_us
    events = []
    for t, button in press_script(start):
        events += [(t, button, True), (t + _PRESS_HOLD_US, button, False)]
    pico.buttons(events)
    output = pico.expect(b"\x04>", span * 4 + 5_000_000).decode()
    body, _, error = output.partition("\x04")
    if error.strip("\x04>"):
        raise AssertionError("the press run failed on the board:\n" + error + body)
    lines = body.splitlines()
    commits = ast.literal_eval([line for line in lines if line.startswith("[")][-1])
    longest = int([line for line in lines if line.startswith("longest ")][-1].split()[1])
    found = []
    for t, button in press_script(start):
        for pressed, stamp, at in commits:
            if pressed == button and abs(ticks_minus(stamp, t)) < _STAMPED_WITHIN_US:
                found.append((t, button, ticks_minus(at, t)))
                break
    return found, longest


def slowest(kept):
    """The slowest passes the board kept (``SLOWEST``), slowest first, each as a dict: its
    number, its time, the mode and the game's phase it began in (``mode``, ``phase``), and
    flags: ``counting`` and ``reading`` (the countdown, the round result), ``busy`` (the
    screen had something left from its last call), ``answer`` (a new screen's first call
    was due), ``carried`` (work that could not wait ran in it), ``allocated``."""
    passes = []
    for took, code in zip(kept[0::2], kept[1::2], strict=True):
        if took:
            passes.append(
                {
                    "pass": code >> 16,
                    "us": took,
                    "mode": code >> 8 & 15,
                    "phase": code >> 4 & 15,
                    "counting": code >> 2 & 1,
                    "reading": code >> 3 & 1,
                    "busy": code >> 12 & 1,
                    "answer": code >> 13 & 1,
                    "carried": code >> 14 & 1,
                    "allocated": code >> 15 & 1,
                }
            )
    return sorted(passes, key=lambda kept_pass: -kept_pass["us"])


# The device booted at the REPL as main.py boots it: its imports' garbage collected, and
# only then the profile's own code loaded.
BOOTED = "import gc\nfrom device import boot\ngc.collect()\nhandheld = boot()\n"


def profile_files():
    """The firmware as .mpy, without ``main.py``, so that the loop does not start at boot
    and ``device.boot()`` can be imported, with the two runs above as modules."""
    program = _PROGRAM % {
        "stages": STAGES,
        "tail": _TAIL_PASSES,
        "max_passes": _MAX_PASSES,
        "slow_kept": _SLOW_KEPT,
        "collection_us": _COLLECTION_US,
        "bin_us": _BIN_US,
        "bins": _BINS,
    }
    extra = {"loop_run.mpy": compiled("loop_run", program)}
    extra["press_run.mpy"] = compiled("press_run", _PRESSES)
    return board_files(main=False, extra=extra)


def profile_pass(
    pico,
    stages,
    level=_LEVEL,
    rounds=_ROUNDS,
    max_passes=_MAX_PASSES,
    regions=None,
    game="spit",
    seed=1,
):
    """One run on ``pico`` (at its REPL) of a match of ``game``; returns the board's report
    as a dict, with ``stage_us`` (total per stage), ``worst_pass`` (the slowest pass by
    stage) and ``stage_max_us``. ``regions`` sets the renderer's ``regions_per_call``
    (None: as ``boot()`` leaves it). A game of Speed is one round: the run ends with it."""
    if max_passes > _MAX_PASSES:
        raise ValueError("at most %d passes" % _MAX_PASSES)
    args = (stages, level, rounds, max_passes, _SKIP_US, regions, game, seed)
    call = "run(handheld, %r, %r, %d, %d, %d, %r, %r, %d)\n" % args
    code = BOOTED + "from loop_run import run\n" + call
    out = pico.exec(code, within_us=120_000_000)
    lines = out.strip().splitlines()
    report = ast.literal_eval(lines[-1])
    report["play_pass_median_us"] = _median_us(line for line in lines if line.startswith("t "))
    if report["errors"]:
        raise AssertionError("the loop failed on the board: %s" % report["last_error"])
    report["stage_us"] = dict(zip(STAGES, report.pop("total"), strict=True))
    report["worst_pass"] = dict(zip(STAGES, report.pop("worst"), strict=True))
    report["worst_play_pass"] = dict(zip(STAGES, report.pop("worst_play"), strict=True))
    report["stage_max_us"] = dict(zip(STAGES, report.pop("stage_max"), strict=True))
    report["slowest"] = slowest(report["slowest"])
    return report


def _median_us(bins):
    """The median pass in play from the board's ``t <bin> <passes>`` lines: the middle of
    its bin (``_BIN_US`` wide)."""
    counts = sorted((int(b), int(n)) for _, b, n in (line.split() for line in bins))
    middle = sum(n for _, n in counts) // 2
    for b, n in counts:
        if middle < n:
            return b * _BIN_US + _BIN_US // 2
        middle -= n
    return 0


def profile(stages=True, **kwargs):
    with EmulatedPico(files=profile_files()) as pico:
        pico.run_us(BOOT_US)
        return profile_pass(pico, stages, **kwargs)


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(profile(stages="--plain" not in sys.argv), indent=1))
