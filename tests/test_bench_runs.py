"""make bench's margins: the last three runs of one firmware, against the budgets less 15%."""

import json

from host_sim.bench import press_to_pixel
from host_sim.bench import runs as bench_runs


def _figures(pass_us, press_us=2_000, boot_ms=1_200):
    return {
        "emu_main_loop_pass_max_us": pass_us,
        "emu_press_to_commit_max_us": press_us,
        "emu_boot_to_title_ms": boot_ms,
        "emu_press_to_pixel_us": 3_000,
        "emu_engine_step_us": 290,
        "emu_pio_stamp_error_ns": 600,
        "emu_min_ordered_gap_us": 40,
        "emu_irq_stamp_delay_us": {"one": [25, 31]},  # not a margin: not kept
    }


def _firmware(tmp_path, text):
    folder = tmp_path / "firmware"
    folder.mkdir(exist_ok=True)
    (folder / "main.py").write_text(text)
    return str(folder)


def test_three_runs_within_the_margins_hold_and_show_their_spread(tmp_path):
    history = str(tmp_path / "runs.jsonl")
    folder = _firmware(tmp_path, "print(1)\n")
    for pass_us in (1_600, 1_650, 1_620):
        found = bench_runs.record(_figures(pass_us), history, folder)
    assert found["runs"] == 3
    passes = found["emu_main_loop_pass_max_us"]
    assert (passes["min"], passes["median"], passes["max"]) == (1_600, 1_620, 1_650)
    assert passes["held"] and found["emu_boot_to_title_ms"]["held"]
    assert "emu_irq_stamp_delay_us" not in found


def test_one_run_over_the_margin_is_not_held_though_within_the_budget(tmp_path):
    history = str(tmp_path / "runs.jsonl")
    folder = _firmware(tmp_path, "print(1)\n")
    for pass_us in (1_600, 1_800, 1_620):  # 1,800 is within 2,000 but not 1,700
        found = bench_runs.record(_figures(pass_us), history, folder)
    assert not found["emu_main_loop_pass_max_us"]["held"]
    assert found["emu_press_to_commit_max_us"]["held"]


def test_a_change_of_firmware_starts_the_count_again(tmp_path):
    history = str(tmp_path / "runs.jsonl")
    folder = _firmware(tmp_path, "print(1)\n")
    bench_runs.record(_figures(1_600), history, folder)
    bench_runs.record(_figures(1_600), history, folder)
    folder = _firmware(tmp_path, "print(2)\n")
    found = bench_runs.record(_figures(1_600), history, folder)
    assert found["runs"] == 1
    assert not found["emu_main_loop_pass_max_us"]["held"]  # one run is not three


def test_a_failed_figure_or_a_broken_line_is_told_not_counted(tmp_path):
    history = tmp_path / "runs.jsonl"
    folder = _firmware(tmp_path, "print(1)\n")
    for _ in range(3):
        failed = _figures(1_600)
        failed["emu_boot_to_title_ms"] = "failed: the display never settled"
        found = bench_runs.record(failed, str(history), folder)
    assert found["emu_boot_to_title_ms"] == {"held": False, "why": "failed or missing in a run"}
    history.write_text(history.read_text() + '{"firmware": "cut sho')
    runs = bench_runs._runs(str(history))
    assert len(runs) == 3 and all(json.dumps(run) for run in runs)


def test_every_press_to_pixel_figure_has_the_budget_less_15_percent():
    speed = ("emu_speed_choose_to_pixel_us", "emu_speed_press_to_pixel_us")
    names = press_to_pixel.NAMES[1:] + speed
    assert {name: bench_runs.MARGINS.get(name) for name in names} == dict.fromkeys(names, 4_250)
