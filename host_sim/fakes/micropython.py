"""The parts of MicroPython's ``micropython`` module that the firmware uses.

Each function behaves as on the rp2 port, except where a comment says why the host
differs. Two helpers have no device counterpart: ``run_scheduled()`` (the simulator
calls it where the device's VM would run pending callbacks) and ``reset()`` (tests).
"""

# rp2's MICROPY_SCHEDULER_DEPTH. (The WebAssembly VM the tests use has the default, 4.)
SCHEDULE_DEPTH = 8

_scheduled = []
_heap_lock_depth = 0
emergency_exception_buf_size = 0


def const(value):
    return value


def native(func):
    """On the device, compile to machine code; on the host, an ordinary function."""
    return func


def viper(func):
    """On the device, compile to typed machine code. Viper code (``ptr8``, ``uint``) is
    not Python, so the host cannot compile it: the module fails to import with the
    error the WebAssembly VM raises (it has no emitter), and its plain twin serves."""
    raise SyntaxError("invalid micropython decorator")


def schedule(func, arg):
    """Queue ``func(arg)`` to run soon, outside the caller (an interrupt handler)."""
    if len(_scheduled) >= SCHEDULE_DEPTH:
        raise RuntimeError("schedule queue full")
    _scheduled.append((func, arg))


def run_scheduled():
    """Run, in order, the callbacks queued before this call; return how many ran.

    Callbacks that those schedule wait for the next call, so a callback that
    re-schedules itself cannot hang the simulator. The device prints an exception
    from a callback and carries on; here it propagates, so a test sees it.
    """
    count = len(_scheduled)
    for _ in range(count):
        func, arg = _scheduled.pop(0)
        func(arg)
    return count


def heap_lock():
    """Nest one level deeper in "no allocation allowed".

    The host cannot stop allocations; the tests that count them run on the
    MicroPython VM. This keeps the depth so that lock/unlock pairing is checked.
    """
    global _heap_lock_depth
    _heap_lock_depth += 1


def heap_unlock():
    """Leave one level of heap lock and return the depth left (0: allocation allowed)."""
    global _heap_lock_depth
    if _heap_lock_depth == 0:
        # The device would wrap the depth silently and leave the heap locked for good.
        raise RuntimeError("heap_unlock without heap_lock")
    _heap_lock_depth -= 1
    return _heap_lock_depth


def alloc_emergency_exception_buf(size):
    """Reserve room for an exception raised where allocation is impossible (an IRQ)."""
    global emergency_exception_buf_size
    emergency_exception_buf_size = size


def reset():
    """Forget queued callbacks and heap locks, as a soft reset of the device does."""
    global _heap_lock_depth, emergency_exception_buf_size
    _scheduled.clear()
    _heap_lock_depth = 0
    emergency_exception_buf_size = 0
