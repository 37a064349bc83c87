"""Hardware drivers: they know pins, buses and clocks, and nothing of the rules."""
