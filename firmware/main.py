"""Boot: build the hardware from hardware_setup, then run the game loop.

Until the display driver lands, the table is printed to the USB console
(``mpremote connect auto``) whenever it changes.
"""

import time

from drivers.buttons import reserve_emergency_exception_buffer

reserve_emergency_exception_buffer()

import hardware_setup  # noqa: E402  (after the buffer: it registers hard IRQs)
from handheld import Handheld  # noqa: E402
from spit import keys, textview  # noqa: E402
from spit.options import Options  # noqa: E402


class Console:
    """Prints the table and the last event when either changes."""

    def __init__(self):
        self.handheld = None
        self.event = ""
        self._shown = -1

    def on_event(self, event, player, detail):
        self.event = textview.event_text(event, player, detail)
        self._shown = -1

    def show(self):
        table = self.handheld.session.table
        match = self.handheld.session.match
        stamp = len(table.game.history) * 4 + table.game.phase
        if stamp == self._shown:
            return
        self._shown = stamp
        word = match.options.word
        print("\n".join(textview.lines(table.game, table.controls, word, self.event, match.wins)))


def held_at_power_on(mask):
    names = [keys.button_name(b) for b in range(keys.BUTTON_COUNT) if mask >> b & 1]
    return "held at power-on, ignored until released: " + ", ".join(names)


def main():
    console = Console()
    capture = hardware_setup.buttons(time.ticks_us)
    now = time.ticks_us()
    handheld = Handheld(capture, now, Options(), now, listener=console.on_event)
    console.handheld = handheld
    if handheld.debouncer.held_since_start:
        print(held_at_power_on(handheld.debouncer.held_since_start))
    lost = 0
    while True:
        handheld.step(time.ticks_us())
        console.show()
        if handheld.overflows() != lost:
            lost = handheld.overflows()
            print("presses lost to a full buffer: %d" % lost)


if __name__ == "__main__":
    main()
