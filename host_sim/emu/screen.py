"""The display as the emulated Pico drives it: SPI0's bytes, each with the DC pin's level,
and the display's RST line.

``chunks(log)`` turns the emulator's ``(t_us, dc, byte)`` log into ``(t_us, dc, bytes)``
runs, the form a virtual display's ``receive(dc, data)`` takes (dc 0 = command, 1 =
data); ``dc`` ``RESET_LINE`` marks a change of the RST line (the byte is its level).
``Screen`` keeps such a display fed, in emulated time, and saves PNGs of it.
"""

RESET_LINE = -1


def chunks(log):
    """Consecutive data bytes as ``(t_us of the first, 1, bytes)``; every command byte
    and every RST line change is a run of its own, with its own time (the display's
    timing rules are about commands)."""
    runs = []
    start, level, data = None, None, bytearray()
    for t, dc, byte in log:
        if data and (dc != level or dc != 1):
            runs.append((start, level, bytes(data)))
            data = bytearray()
        if not data:
            start = t
        level = dc
        data.append(byte)
    if data:
        runs.append((start, level, bytes(data)))
    return runs


class Screen:
    """Constructor: ``Screen(display)``: ``display`` is a ``host_sim.display.VirtualDisplay``
    (``receive(dc, data)``, ``reset()``, ``elapse_ms(ms)``, ``save_png(path)``), whose
    clock follows the emulated time of the bytes.

    Methods: ``feed(log)`` passes on an emulator SPI log (``EmulatedPico.spi_log()``);
    ``save_png(path)``. Attributes: ``bytes_sent``."""

    def __init__(self, display):
        self.display = display
        self.bytes_sent = 0
        self._t = None

    def feed(self, log):
        for t, dc, data in chunks(log):
            if self._t is not None:
                self.display.elapse_ms((t - self._t) / 1000)
            self._t = t
            if dc == RESET_LINE:
                if data[-1] == 0:
                    self.display.reset()
                continue
            self.bytes_sent += len(data)
            self.display.receive(dc, data)

    def save_png(self, path):
        self.display.save_png(path)
