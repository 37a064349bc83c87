"""The margins over ``make bench`` runs in a row (SPEC 11): each run's emulated figures are
kept in ``build/bench/runs.jsonl`` with a digest of the firmware they measured, and every
run reports the minimum, median and maximum of the last three runs of the same firmware.

A budget counts as held when it holds with 15% to spare in three runs in a row: the
emulated chip flatters a real Pico by about 20%. ``MARGINS`` holds those limits;
``summary`` says, for each figure, whether all three runs kept within them.
"""

import hashlib
import json
import os
import statistics

from host_sim.emu.fs_image import firmware_sources

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(REPO, "firmware")
HISTORY = os.path.join(REPO, "build", "bench", "runs.jsonl")
RUNS = 3

# Each figure's budget less 15%: a figure above it is not held, whatever the budget says.
MARGINS = {
    "emu_main_loop_pass_max_us": 1_700,
    "emu_press_to_commit_max_us": 2_550,
    "emu_person_pass_max_us": 1_700,  # a person's game against the CPU: answers included
    "emu_boot_to_title_ms": 1_275,
    "emu_press_to_pixel_us": 4_250,
    # Press to first pixel on the other screens a press changes (``press_to_pixel``): the
    # same budget of 5 ms.
    "emu_press_to_pixel_settings_cursor_us": 4_250,
    "emu_press_to_pixel_settings_value_us": 4_250,
    "emu_press_to_pixel_settings_start_us": 4_250,
    "emu_press_to_pixel_ready_us": 4_250,
    "emu_press_to_pixel_countdown_us": 4_250,
    "emu_press_to_pixel_play_us": 4_250,
    "emu_press_to_pixel_refused_us": 4_250,
    "emu_press_to_pixel_slap_us": 4_250,
    "emu_press_to_pixel_round_result_us": 4_250,
    "emu_engine_step_us": 425,
    "emu_pio_stamp_error_ns": 850,
    "emu_min_ordered_gap_us": 85,
    "emu_speed_main_loop_pass_max_us": 1_700,
    "emu_speed_press_to_commit_max_us": 2_550,
    "emu_speed_person_pass_max_us": 1_700,
    "emu_speed_press_to_pixel_us": 4_250,
    "emu_speed_choose_to_pixel_us": 4_250,  # L on the title: the other game chosen
    "emu_speed_engine_step_us": 425,
}


def firmware_digest(folder=FIRMWARE):
    """SHA-256 over the firmware's source files, paths and contents, the first 12 digits."""
    digest = hashlib.sha256()
    for source in firmware_sources(folder):
        digest.update(source.encode() + b"\0")
        with open(os.path.join(folder, source), "rb") as text:
            digest.update(text.read() + b"\0")
    return digest.hexdigest()[:12]


def _runs(history):
    if not os.path.exists(history):
        return []
    runs = []
    with open(history) as lines:
        for line in lines:
            try:
                runs.append(json.loads(line))
            except ValueError:
                continue  # a run cut short while it was written: the others still count
    return runs


def record(figures, history=HISTORY, folder=FIRMWARE):
    """Append this run's ``emu_*`` figures and return the summary of the last runs."""
    firmware = firmware_digest(folder)
    run = {"firmware": firmware}
    run.update({name: figures.get(name) for name in MARGINS})
    os.makedirs(os.path.dirname(history), exist_ok=True)
    with open(history, "a") as lines:
        lines.write(json.dumps(run, sort_keys=True) + "\n")
    return summary(_runs(history), firmware)


def summary(runs, firmware):
    """The last ``RUNS`` runs of ``firmware`` (those after any run of another firmware):
    for each figure its minimum, median, maximum and whether every run held its margin."""
    same = []
    for run in reversed(runs):
        if run.get("firmware") != firmware:
            break
        same.append(run)
        if len(same) == RUNS:
            break
    found = {"firmware": firmware, "runs": len(same)}
    for name, limit in MARGINS.items():
        values = [run[name] for run in same if isinstance(run.get(name), (int, float))]
        if len(values) < len(same) or not values:
            found[name] = {"held": False, "why": "failed or missing in a run"}
            continue
        found[name] = {
            "min": min(values),
            "median": statistics.median(values),
            "max": max(values),
            "margin": limit,
            "held": len(values) == RUNS and max(values) <= limit,
        }
    return found
