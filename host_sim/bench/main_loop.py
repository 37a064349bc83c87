"""The main loop's figures for ``make bench`` (SPEC 11), on the MicroPython VM through the
whole firmware path: capture, debounce, arbiter, controls, rules, CPU seats, renderer and
display driver (``host_sim/vm/firmware_path.py``).

- ``heap_peak_bytes``: the most heap a CPU-against-CPU match holds (garbage excluded) on
  top of the imported firmware: renderer buffers, game, history. Budget 96 KiB.
- ``import_heap_bytes``: the heap the firmware's modules take once imported, compiled
  from source on the VM (``.mpy`` files on the device skip the compiler).
- ``full_redraws_per_round_with_flow``: whole-screen clears per round, every screen of the
  game flow counted (play, round result, ready, countdown, game over).
- ``main_loop_alloc_bytes_per_idle_pass``: bytes allocated by passes in which nobody
  presses anything, on the title, ready, countdown and play screens, with buttons held,
  disarmed and bouncing (``firmware_path.idle_passes``; run under
  ``heap_lock``, where any allocation raises). Budget 0.
"""

from host_sim.vm.firmware_path import IDLE_PASSES, idle_passes, import_heap_bytes, whole_match


def figures():
    match = whole_match()
    allocated = idle_passes()[0]
    return {
        "heap_peak_bytes": match["heap_peak_bytes"],
        "import_heap_bytes": import_heap_bytes(),
        "full_redraws_per_round_with_flow": round(match["full_redraws"] / match["rounds"], 2),
        "main_loop_alloc_bytes_per_idle_pass": sum(allocated) / IDLE_PASSES,
    }
