"""Boot: build the hardware from hardware_setup, then run the game loop.

Until the display driver lands, the table is printed to the USB console
(``mpremote connect auto``) whenever it changes.
"""

import time

from drivers.buttons import reserve_emergency_exception_buffer

reserve_emergency_exception_buffer()

import hardware_setup  # noqa: E402  (after the buffer: it registers hard IRQs)
from drivers.debounce import Debouncer  # noqa: E402
from spit import keys, textview  # noqa: E402
from spit.options import Options  # noqa: E402
from spit.session import Session  # noqa: E402


class Console:
    """Prints the table and the last event when either changes."""

    def __init__(self):
        self.session = None
        self.event = ""
        self._shown = -1

    def on_event(self, event, player, detail):
        self.event = textview.event_text(event, player, detail)
        self._shown = -1

    def show(self):
        table = self.session.table
        stamp = len(table.game.history) * 4 + table.game.phase
        if stamp == self._shown:
            return
        self._shown = stamp
        match = self.session.match
        print(
            "\n".join(
                textview.lines(
                    table.game, table.controls, match.options.word, self.event, match.wins
                )
            )
        )


def main():
    capture = hardware_setup.buttons(time.ticks_us)
    console = Console()
    session = Session(Options(), time.ticks_us(), listener=console.on_event)
    console.session = session
    debouncer = Debouncer(capture, session.touch, time.ticks_us())
    held = debouncer.held_since_start
    if held:
        names = [keys.button_name(b) for b in range(keys.BUTTON_COUNT) if held >> b & 1]
        print("held at power-on, ignored until released:", ", ".join(names))
    overflows = 0
    while True:
        now = time.ticks_us()
        debouncer.update(now)
        session.run(now)
        console.show()
        if capture.overflows != overflows:
            overflows = capture.overflows
            print("button ring overflowed: %d presses lost" % overflows)


main()
