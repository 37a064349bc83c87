"""``make hardware``: the documents in hardware/ (``documents``: README, wiring and panel
SVGs, Wokwi diagram.json) from the firmware's pin map, read and checked against what a
Pico allows by ``pinmap``."""
