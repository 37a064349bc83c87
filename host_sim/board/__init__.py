"""The tools for a real board (``make flash``, ``make repl``, ``make pull``), a module a
job: ``compiling`` builds the firmware with mpy-cross, ``compatibility`` says whether the
board can load it, ``serial_board`` talks to the board, ``scripts`` are the code run on it,
``flashing`` puts the firmware on it safely, ``pulling`` copies its transcripts off,
``package_json`` writes ``firmware/package.json``, and ``commands`` is the command line."""
