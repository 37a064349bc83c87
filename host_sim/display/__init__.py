"""The virtual display: a 320x240 ILI9341 or ST7789 module decoded from its SPI bytes.

``VirtualDisplay`` (``panel.py``) models the module; ``wired_display()`` (``wiring.py``)
builds the firmware's ``Display`` driver on the fake SPI and pins, wired to one.
"""

from host_sim.display.panel import HEIGHT, WIDTH, VirtualDisplay
from host_sim.display.wiring import wired_display

__all__ = ["HEIGHT", "WIDTH", "VirtualDisplay", "wired_display"]
