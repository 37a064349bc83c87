"""The real firmware on an emulated Pico: MicroPython's own RP2040 UF2 in rp2040js (npm).

Node side (``*.mjs``): ``pico.mjs`` the board (flash, buttons, USB console, SPI0 log and
timing), ``flash.mjs``, ``chip.mjs`` and ``pio_clock.mjs`` what rp2040js lacks, put right
from outside the package, ``serve.mjs`` the JSON-lines server. Python side: ``board``
drives it (``EmulatedPico``), ``fs_image`` builds the LittleFS image of the firmware,
``probe`` runs the firmware's input path against exact presses, ``screen`` feeds a
virtual display, ``figures`` the emulated device figures, ``__main__`` is ``make emu``.
``serial_port`` puts the board's USB console on a pseudo-terminal and ``port`` is
``make emu-port``. A person's path, judged from the screen: ``face`` presses the buttons
and watches the screen, ``mirror`` says what it should show, ``pictures`` and ``reading``
compare pictures and read text off them.
"""
