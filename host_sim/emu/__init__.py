"""The real firmware on an emulated Pico: MicroPython's own RP2040 UF2 in rp2040js (npm).

Node side (``*.mjs``): ``pico.mjs`` the board (flash, buttons, USB console, SPI0 log and
timing), ``flash.mjs``, ``chip.mjs`` and ``pio_clock.mjs`` what rp2040js lacks, put right
from outside the package, ``serve.mjs`` the JSON-lines server. Python side: ``emulated_pico``
drives it (``EmulatedPico``), ``fs_image`` builds the LittleFS image of the firmware,
``screen`` turns its SPI0 bytes into a virtual display's input, ``__main__`` is ``make
emu``. ``serial_port`` puts the board's USB console on a pseudo-terminal and ``port`` is
``make emu-port``. What measures the board is in ``host_sim.bench`` (``emulated``,
``probe``, ``pass_profile``, ``render_calls``, ``attract``); what reads and judges its
screen is in ``host_sim.judging``.
"""
