"""The whole firmware path on the MicroPython VM: pins, capture, debounce, arbiter,
controls, rules, CPU seats, renderer and display driver, with the VM's real ``framebuf``.

``DEVICE`` (``IMPORTS`` then ``BUILD``) builds the device in the VM (a ``machine`` of
``machine_module``, a bus that counts its bytes), seats from ``SEATS``; the tests and ``make
bench`` append code that drives it. Pass ``files=VM_MACHINE`` to ``micropython_vm.run``.
"""

IMPORTS = """
import gc, micropython, time
import framebuf
import machine
from drivers.buttons import IrqButtons
from drivers.display import Display, PinBus
from handheld import Handheld
from spit.options import Options
from spit.render import Renderer
from spit.savedata import SaveData
"""

BUILD = """

class Line:
    # A bound method made once: calling it allocates nothing, like a machine.Pin.
    def __init__(self):
        self.level = 1

    def set(self, level):
        self.level = level


class Bus:
    def __init__(self):
        self.bytes = 0

    def write(self, buf):
        self.bytes += len(buf)


pins = [machine.Pin(b) for b in range(16)]
now = [(1 << 30) - 2_000_000]  # across the ticks_us wrap


def clock():
    return now[0]


bus = Bus()
display = Display(PinBus(bus, Line().set, Line().set), Line().set, "ili9341", 0, lambda ms: None)
renderer = Renderer(display, framebuf)
saved = SaveData()
saved.seats = SEATS
handheld = Handheld(IrqButtons(pins, clock), clock(), saved, 1, renderer, clock=clock)
controller = handheld.controller


def press(button):
    machine.gpio_in[0] &= ~(1 << button)
    pins[button].handler(pins[button])


def release(button):
    machine.gpio_in[0] |= 1 << button


def run(passes, step_us=1000):
    i = 0
    while i < passes:
        now[0] = time.ticks_add(now[0], step_us)
        handheld.step(now[0])
        i += 1


def tap(button):
    press(button)
    run(30)
    release(button)
    run(30)


def locked_passes(passes):
    gc.collect()
    before = gc.mem_alloc()
    micropython.heap_lock()
    try:
        run(passes)
    finally:
        micropython.heap_unlock()
    return gc.mem_alloc() - before
"""

DEVICE = IMPORTS + BUILD

# One CPU-against-CPU match, a chunk of passes per top-level call: the VM collects
# garbage only between such calls, so the heap read at the start of each is what the
# device holds then, garbage excluded. ``BASE`` is read once the firmware is imported:
# the peak is what playing needs (renderer, game, history), the code not counted.
_MATCH = """
saved.options = Options.parse(OPTIONS)
controller.seed = SEED
controller.new_match(now[0])
session = controller.session
peak = [0]
passes = [0]
rounds = [0]


def chunk():
    peak[0] = max(peak[0], gc.mem_alloc() - BASE)
    if session.match.winner() < 0:
        run(CHUNK, 2000)
        passes[0] += CHUNK
        rounds[0] = max(rounds[0], session.table.game.round)


def report():
    run(5)
    print(controller.mode, session.table.game.phase, session.match.winner(), passes[0])
    print(peak[0], renderer.full_redraws, rounds[0], handheld.errors, bus.bytes)
"""

_CHUNK = 2000


def whole_match(seats=("lightning", "lightning"), options="match=single", chunks=60, seed=3):
    """Play one match (dealt from ``seed``) through the firmware path on the VM; returns
    what it ended on."""
    from host_sim.vm.machine_module import VM_MACHINE
    from host_sim.vm.micropython_vm import run

    build = BUILD.replace("SEATS", repr(list(seats)))
    match = _MATCH.replace("OPTIONS", repr(options)).replace("CHUNK", str(_CHUNK))
    match = match.replace("SEED", str(seed))
    calls = ["BASE = gc.mem_alloc()", build + match] + ["chunk()"] * chunks + ["report()"]
    out = run(IMPORTS, files=VM_MACHINE, calls=calls).split()
    mode, phase, winner, passes, peak, redraws, rounds, errors, sent = (int(v) for v in out)
    return {
        "mode": mode,
        "phase": phase,
        "winner": winner,
        "passes": passes,
        "heap_peak_bytes": peak,
        "full_redraws": redraws,
        "rounds": rounds,
        "errors": errors,
        "bytes_sent": sent,
    }


def import_heap_bytes():
    """The heap the firmware's modules take once imported (compiled on the VM)."""
    from host_sim.vm.machine_module import VM_MACHINE
    from host_sim.vm.micropython_vm import run

    calls = ["BASE = gc.mem_alloc()", IMPORTS, "print(gc.mem_alloc() - BASE)"]
    return int(run("import gc", files=VM_MACHINE, calls=calls))


# Passes in which nobody presses anything, under heap_lock, on every screen a player waits
# on: what each stretch allocated, and the state the device ended in.
_IDLE = """
allocated = []
run(2)
allocated.append(locked_passes(200))  # the title
press(2)  # P1 C3: the title ignores it; it stays down
run(3)
release(2)  # C3 disarmed, counting its quiet time
allocated.append(locked_passes(200))
tap(7)  # P1 SPIT: a match
mode = controller.mode
allocated.append(locked_passes(200))  # the ready screen
press(7)
press(15)
run(30)
allocated.append(locked_passes(200))  # the countdown, both SPIT held
release(7)
release(15)
run(3200)
phase = handheld.session.table.game.phase
allocated.append(locked_passes(300))  # play: nobody moves
press(2)
release(2)
press(2)  # a bounce while C3 is disarmed: no press
run(3)
allocated.append(locked_passes(200))
print(" ".join(str(a) for a in allocated))
print(mode, phase, handheld.errors, handheld.overflows())
"""
IDLE_PASSES = 1300


def idle_passes():
    """Run the idle stretches on the VM: ``(allocated per stretch, mode after SPIT on
    the title, phase after the countdown, errors, overflows)``."""
    from host_sim.vm.machine_module import VM_MACHINE
    from host_sim.vm.micropython_vm import run

    code = DEVICE.replace("SEATS", '["person", "person"]') + _IDLE
    allocated, state = run(code, files=VM_MACHINE).strip().split("\n")
    mode, phase, errors, overflows = (int(value) for value in state.split())
    return [int(a) for a in allocated.split()], mode, phase, errors, overflows
