"""Device figures measured on the emulated Pico (SPEC 11), for ``make bench`` with a UF2.

Every figure comes from MicroPython's own RP2040 build running the project's firmware
(as .mpy) in rp2040js, with buttons pressed at exact emulated times. They are emulated
RP2040 figures: interrupt entry and flash reads cost no extra cycles there (no flash
wait states, no cache misses), so a real Pico is a little slower.

``figures()`` returns:

- ``emu_irq_stamp_delay_us``: edge to the ``IrqButtons`` stamp, ``{"one": [min, max],
  "together": [min, max]}``: a lone press, and two buttons (GPIO 5 and 13) pressed in
  the same cycle; the board runs its input loop meanwhile, as in play.
- ``emu_min_ordered_gap_us``: the smallest gap between the two players' L buttons
  (GPIO 5 and 13) from which every press of the sweep (0-200 µs, either pin first, also
  while player 1's C1 bounces on release with an edge every 50 µs) was stamped strictly
  in the true order by ``IrqButtons``; closer presses may share a stamp.
- ``emu_min_committed_gap_us``: the same for the arbiter's commit order after
  ``Debouncer`` and ``Arbiter`` (ties are settled by the rule, so this is about the tie
  window); ``emu_wrong_winner_untied``: pairs committed in the wrong order without the
  tie flag (must be 0); ``emu_tie_split_at_0us``: who won presses in the same cycle, over
  ``_TIE_RUNS`` runs.
- ``emu_pio_stamp_error_ns``: the ``PioButtons`` stamps against the edges, the largest
  deviation after removing their constant offset (``emu_pio_stamp_offset_us``).
- ``emu_twins``: which twin of each hot job the board runs, ``spit.twins.LOADED``
  (``{"spit.fits": "native", "spit.ink": "viper", ...}``; ``"plain"`` where a fast twin
  did not load).
- ``emu_engine_step_us``: one ``Game.apply`` (an action with its legality check) on the
  Cortex-M0+ at 125 MHz, mean over a recorded self-play game, firmware as .mpy; the heap
  is collected first, so no collection lands inside the timed actions.
- ``emu_boot_to_title_ms``: power-on to the last byte of the first screen ``main.py``
  draws (the title), that is, before SPI0 stays quiet for 300 ms; and from the same
  power-on, press to first pixel on every screen a press changes
  (``host_sim.bench.press_to_pixel``): ``emu_press_to_pixel_us`` (player 1's SPIT on the
  title to the first byte SPI0 sends after it), ``emu_press_to_pixel_ready_us``,
  ``..._play_us``, ``..._slap_us`` and the others there.
- ``emu_heap_free_after_boot_bytes``: ``gc.mem_free()`` after ``device.boot()`` built the
  device as ``main.py`` does and while it is held, collected;
  ``emu_heap_largest_free_after_boot_bytes``: the largest free block then
  (``micropython.mem_info``'s ``max free sz``).
- ``emu_main_loop_pass_max_us``: the longest ``Handheld.step`` during a CPU-against-CPU
  round through the whole firmware path, screen included (``profile.profile_pass``),
  the screen changes between rounds too, but not the pass of a break, the longest over
  the games of ``LOOP_SEEDS`` (``_by_seed``: each game's);
  ``emu_break_pass_us``: the longest break (the save when it changed, and the garbage
  collection), a pass of its own after a round or a screen ends;
  ``emu_main_loop_play_pass_max_us`` and ``_median_us``: the same over the passes in
  play (the median: the games' middle one); ``emu_cpu_decision_us``: the longest
  ``CpuPlayer.glance``, the part of a CPU seat's look that one pass runs;
  ``emu_gc_during_round``: garbage collections while the round was in play,
  ``emu_heap_fell_in_play``: passes in play in which the heap in use fell without one (a list
  giving back room), and ``emu_alloc_bytes_in_play``: what the passes in play allocated,
  over all the games.
- ``emu_press_to_commit_max_us``: player 1's presses against the CPU (SPIT on the ready
  screen, then card and pile buttons in play), pin edge to ``Controls.press``, the
  largest (``profile.press_to_commit``) over the games of ``LOOP_SEEDS``; and
  ``emu_person_pass_max_us``, the longest pass in play in those games: the passes that
  commit a person's press and answer it on the screen, which CPU-against-CPU rounds have
  none of.
- Speed's (``emu_speed_*``), measured the same way: ``engine_step_us`` (Speed's
  ``Game.apply`` over a self-play game), ``press_to_pixel_us`` (player 1's SPIT on the
  title, Speed chosen there with ``L``; ``choose_to_pixel_us``: that ``L`` to the first
  byte after it; both ``press_to_pixel``'s), and from whole games of Speed between CPU
  seats and a person's presses in others, dealt by the same seeds:
  ``main_loop_pass_max_us`` (and the rest of the loop's figures above under the same
  names) and ``press_to_commit_max_us``;
  ``heap_low_water_bytes``: the least heap free after a pass of those games, both games'
  modules imported.
"""

import json
import random
import statistics

from host_sim.bench.press_to_pixel import screens_figures, speed_screen_figures
from host_sim.bench.probe import record, ticks_minus
from host_sim.emu.emulated_pico import BOOT_US, EmulatedPico, EmulatorError
from host_sim.emu.fs_image import board_files

P1_C1, P1_L, P2_L = 0, 5, 13
_SPEED = "speed"
TRIAL_US = 15_000  # press, hold 2 ms, then released long enough to re-arm (10 ms)
HOLD_US = 2_000
BOUNCE_EDGE_US = 50
SWEEP_GAPS_US = tuple(range(0, 201, 10))
_TIE_RUNS = 40
_ONE_PRESS_BUTTONS = (0, 3, 5, 7, 8, 11, 13, 15)
_TOGETHER_RUNS = 6
_ENGINE_ACTIONS = 60
_GC_BLOCK_BYTES = 16  # MicroPython's heap block on a 32-bit port: mem_info counts in them
# The games the loop's figures play, each on a power-on of its own: the same games for
# every firmware, and several, since a pass that one game reaches another may never reach
# (a round result drawn while the next round is dealt, a gather of Speed's piles).
LOOP_SEEDS = (1, 2, 3)


def _phase(rng):
    """A sub-microsecond offset in whole CPU cycles (8 ns at 125 MHz)."""
    return rng.randrange(125) * 0.008


def _release_bounce(at_us):
    """Player 1's C1, held, released with a bounce: edges every 50 µs around ``at_us``."""
    edges = [(at_us - 150 + BOUNCE_EDGE_US * k, P1_C1, k % 2 == 1) for k in range(9)]
    return [(at_us - 5_000, P1_C1, True)] + edges


def pair_trials(gaps, bounce, rng):
    """Events and trial descriptions for L presses ``gap`` apart, either pin first."""
    events, trials = [], []
    for gap in gaps:
        for first, second in ((P1_L, P2_L), (P2_L, P1_L)):
            base = (len(trials) + 1) * TRIAL_US + _phase(rng)
            if bounce:
                events += _release_bounce(base)
            events += [(base, first, True), (base + gap, second, True)]
            events += [(base + gap + HOLD_US, first, False), (base + gap + HOLD_US, second, False)]
            trials.append((base, gap, first, second))
    return events, trials


def first_in(entries, button, start_us, t0):
    for entry in entries:
        if entry[0] == button and 0 <= ticks_minus(entry[1], t0 + start_us) < TRIAL_US - HOLD_US:
            return entry
    return None


def judge_pairs(recording, t0, trials):
    """Per trial ``(gap, stamped_right, committed_right, tie)``; ``stamped_right`` means
    the earlier press got the strictly earlier stamp."""
    results = []
    for base, gap, first, second in trials:
        s1 = first_in(recording.stamps, first, base - 1, t0)
        s2 = first_in(recording.stamps, second, base - 1, t0)
        c1 = first_in(recording.commits, first, base - 1, t0)
        c2 = first_in(recording.commits, second, base - 1, t0)
        if None in (s1, s2, c1, c2):
            raise AssertionError("trial at gap %d lost a press: %r" % (gap, (s1, s2, c1, c2)))
        stamped_right = ticks_minus(s2[1], s1[1]) > 0
        committed_right = recording.commits.index(c1) < recording.commits.index(c2)
        results.append((gap, stamped_right, committed_right, c1[2] or c2[2]))
    return results


def smallest_gap_always(results, index):
    """The smallest gap from which every trial at that gap and above has ``results[i][index]``."""
    gaps = sorted({r[0] for r in results})
    best = None
    for gap in reversed(gaps):
        if all(r[index] for r in results if r[0] == gap):
            best = gap
        else:
            break
    return best


def ordering_figures(pico, rng):
    results = []
    for bounce in (False, True):
        events, trials = pair_trials(SWEEP_GAPS_US, bounce, rng)
        t0, recording = record(pico, events)
        results += judge_pairs(recording, t0, trials)
    events, trials = pair_trials([0] * (_TIE_RUNS // 2), False, rng)
    t0, recording = record(pico, events)
    ties = judge_pairs(recording, t0, trials)
    p1_wins = sum(
        1
        for (gap, _, committed_right, _), (_, _, first, _) in zip(ties, trials, strict=True)
        if (first == P1_L) == committed_right
    )
    return {
        "emu_min_ordered_gap_us": smallest_gap_always(results, 1),
        "emu_min_committed_gap_us": smallest_gap_always(results, 2),
        "emu_wrong_winner_untied": sum(1 for _, _, right, tie in results if not right and not tie),
        "emu_tie_split_at_0us": {
            "P1": p1_wins,
            "P2": len(ties) - p1_wins,
            "all_ties": all(tie for *_, tie in ties),
        },
    }


def irq_delay_figures(pico, rng):
    events, lone, together = [], [], []
    for button in _ONE_PRESS_BUTTONS:
        base = (len(events) // 2 + 1) * TRIAL_US + _phase(rng)
        events += [(base, button, True), (base + HOLD_US, button, False)]
        lone.append((base, button))
    start = (len(events) // 2 + 2) * TRIAL_US
    for k in range(_TOGETHER_RUNS):
        base = start + k * TRIAL_US + _phase(rng)
        for button in (P1_L, P2_L):
            events += [(base, button, True), (base + HOLD_US, button, False)]
        together.append(base)
    t0, recording = record(pico, events)

    def delay(button, base):
        stamp = first_in(recording.stamps, button, base - 1, t0)
        return ticks_minus(stamp[1], t0 + base)

    one = [delay(button, base) for base, button in lone]
    both = [delay(button, base) for base in together for button in (P1_L, P2_L)]
    return {
        "emu_irq_stamp_delay_us": {
            "one": [round(min(one), 1), round(max(one), 1)],
            "together": [round(min(both), 1), round(max(both), 1)],
        }
    }


def pio_figures(pico, rng):
    events, presses = [], []
    for k, button in enumerate(range(16)):
        base = (k + 1) * TRIAL_US + _phase(rng) + rng.randrange(1000) / 1000
        events += [(base, button, True), (base + HOLD_US, button, False)]
        presses.append((base, button))
    t0, recording = record(pico, events, capture="pio")
    errors = []
    for base, button in presses:
        stamp = first_in(recording.stamps, button, base - 50, t0)
        if stamp is None:
            raise AssertionError("the PIO backend missed button %d" % button)
        errors.append(ticks_minus(stamp[1], t0 + base) * 1000)
    offset = statistics.median(errors)
    return {
        "emu_pio_stamp_error_ns": round(max(abs(e - offset) for e in errors)),
        "emu_pio_stamp_offset_us": round(offset / 1000, 2),
    }


_ENGINE = """
import gc, time
from %(rules)s import Game

game = Game(%(seed)d)
gc.collect()  # the garbage of compiling this script: collected as the device does, not here
spent = 0
for action in %(actions)r:
    start = time.ticks_us()
    game.apply(action)
    spent += time.ticks_diff(time.ticks_us(), start)
print(spent)
"""


def engine_figures(pico):
    from host_sim.bench.engine import _games

    seed, history, _ = _games()[0]
    return {"emu_engine_step_us": _engine_step_us(pico, "spit.spit", seed, history)}


def speed_engine_figures(pico):
    from spit.selfplay import play_game

    game = play_game(1, name="speed").game
    return {"emu_speed_engine_step_us": _engine_step_us(pico, "spit.speed", 1, game.history)}


def _engine_step_us(pico, rules, seed, history):
    """The mean time of one ``Game.apply`` of the module ``rules`` over ``history``."""
    actions = list(history[:_ENGINE_ACTIONS])
    script = _ENGINE % {"rules": rules, "seed": seed, "actions": actions}
    out = pico.exec(script, within_us=20_000_000)
    return round(int(out) / len(actions), 1)


def twin_figures(pico):
    # spit.rng takes its own twin; spit.twins picks the others.
    script = "import json, spit.rng\nfrom spit import twins\nprint(json.dumps(twins.LOADED))"
    out = pico.exec(script)
    return {"emu_twins": json.loads(out)}


# The heap with the device built as ``device.main`` builds it, and still held.
_HEAP = """
import micropython
gc.collect()
print(gc.mem_free())
micropython.mem_info()
"""


def heap_figures(pico):
    """The heap free after boot, and its largest free block, with the device alive."""
    from host_sim.bench.pass_profile import BOOTED

    lines = pico.exec(BOOTED + _HEAP, within_us=20_000_000).strip().splitlines()
    largest = [line for line in lines if "max free sz:" in line]
    if not largest:
        raise AssertionError("mem_info printed no largest free block: %s" % lines[-3:])
    blocks = int(largest[0].rsplit(":", 1)[1])
    return {
        "emu_heap_free_after_boot_bytes": int(lines[0]),
        "emu_heap_largest_free_after_boot_bytes": blocks * _GC_BLOCK_BYTES,
    }


def loop_figures(game="spit"):
    """The main loop's figures from CPU-against-CPU rounds (whole games of Speed) and a
    person's presses, a game of each ``LOOP_SEEDS``, named ``emu_*`` for Spit and
    ``emu_speed_*`` for Speed."""
    from host_sim.bench.pass_profile import (
        press_script,
        press_to_commit,
        profile_files,
        profile_pass,
    )

    files = profile_files()
    reports, presses, person_passes = [], [], []
    for seed in LOOP_SEEDS:
        with EmulatedPico(files=files, log_spi=False) as pico:
            pico.run_us(BOOT_US)
            report = profile_pass(pico, stages=False, game=game, seed=seed)
        if report["round_ended"] < 0:
            raise AssertionError("seed %d: the round never ended" % seed)
        reports.append(report)
        with EmulatedPico(files=files, log_spi=False) as pico:  # a power-on of its own
            pico.run_us(BOOT_US)
            committed, longest = press_to_commit(pico, game=game, seed=seed)
        person_passes.append(longest)
        if len(committed) < len(press_script(0)):
            raise AssertionError(
                "seed %d: presses were lost: %d committed" % (seed, len(committed))
            )
        presses += committed

    def most(name):
        return max(report[name] for report in reports)

    def total(name):
        return sum(report[name] for report in reports)

    found = {
        "main_loop_pass_max_us": most("pass_max_us"),
        "main_loop_pass_max_by_seed_us": {
            str(seed): report["pass_max_us"]
            for seed, report in zip(LOOP_SEEDS, reports, strict=True)
        },
        "break_pass_us": most("break_pass_max_us"),
        "main_loop_play_pass_max_us": most("play_pass_max_us"),
        "main_loop_play_pass_median_us": statistics.median(
            report["play_pass_median_us"] for report in reports
        ),
        "cpu_decision_us": most("look_max_us"),
        "gc_during_round": total("collections_in_play"),
        "heap_fell_in_play": total("heap_fell_in_play"),
        "alloc_bytes_in_play": total("play_alloc_bytes"),
        "press_to_commit_max_us": round(max(delay for _, _, delay in presses), 1),
        "person_pass_max_us": max(person_passes),
    }
    if game == _SPEED:
        found["heap_low_water_bytes"] = min(report["heap_low_water"] for report in reports)
    prefix = "emu_speed_" if game == _SPEED else "emu_"
    return {prefix + name: value for name, value in found.items()}


def figures(seed=1):
    """All the emulated figures; needs the UF2 and boot ROM (``board.firmware_paths``).
    A group that fails on the board reports ``"failed: <reason>"`` as its first figure."""
    rng = random.Random(seed)
    found = {}

    def measure(first_name, group, *args):
        try:
            found.update(group(*args))
        except (AssertionError, EmulatorError) as exc:
            found[first_name] = "failed: %s" % str(exc).strip().splitlines()[-1]

    with EmulatedPico(files=board_files(main=False)) as pico:
        pico.run_us(BOOT_US)
        measure("emu_irq_stamp_delay_us", irq_delay_figures, pico, rng)
        measure("emu_min_ordered_gap_us", ordering_figures, pico, rng)
        measure("emu_engine_step_us", engine_figures, pico)
        measure("emu_speed_engine_step_us", speed_engine_figures, pico)
        measure("emu_pio_stamp_error_ns", pio_figures, pico, rng)
        measure("emu_twins", twin_figures, pico)
    with EmulatedPico(files=board_files(main=False)) as pico:  # a power-on of its own
        pico.run_us(BOOT_US)
        measure("emu_heap_free_after_boot_bytes", heap_figures, pico)
    measure("emu_boot_to_title_ms", screens_figures)
    measure("emu_main_loop_pass_max_us", loop_figures)
    measure("emu_speed_press_to_pixel_us", speed_screen_figures)
    measure("emu_speed_main_loop_pass_max_us", loop_figures, _SPEED)
    return found


if __name__ == "__main__":
    print(json.dumps(figures(), indent=2, sort_keys=True))
