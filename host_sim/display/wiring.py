"""The firmware's display driver on the fake SPI and pins, wired to a virtual display.

``wired_display(panel="ili9341", rotation=0, mounted=None)`` returns ``(display,
virtual)``: ``display`` is ``drivers.display.Display`` on its ``PinBus`` (the bus
``hardware_setup`` takes on the host) for that panel and rotation, ``virtual`` the
``VirtualDisplay`` on its wires (mounted as the rotation expects unless ``mounted`` says
otherwise). The bus carries bytes only while CS is low, each with the DC pin's level;
RST released after a low resets the module; the driver's waits move the module's clock,
which checks the datasheet's timing.
"""

import hardware_setup
import machine
from drivers.display import Display, PinBus

from host_sim.display.panel import VirtualDisplay


class _ResetLine(machine.Pin):
    """An output pin that resets the module when it is released after a low pulse."""

    def __init__(self, id, module):
        self._module = module
        super().__init__(id, machine.Pin.OUT, value=1)

    def value(self, x=None):
        before = self._output
        result = super().value(x)
        if x is not None and not before and self._output:
            self._module.reset()
        return result

    __call__ = value


def wired_display(panel="ili9341", rotation=0, mounted=None):
    virtual = VirtualDisplay(
        panel, mounted=rotation if mounted is None else mounted, strict_timing=True
    )
    dc = machine.Pin(hardware_setup.DISPLAY_DC_PIN, machine.Pin.OUT, value=0)
    cs = machine.Pin(hardware_setup.DISPLAY_CS_PIN, machine.Pin.OUT, value=1)
    rst = _ResetLine(hardware_setup.DISPLAY_RST_PIN, virtual)
    machine.SPI.forget()  # a fresh bus for a fresh module
    spi = machine.SPI(
        hardware_setup.DISPLAY_SPI,
        baudrate=62_500_000,
        sck=hardware_setup.DISPLAY_SCK_PIN,
        mosi=hardware_setup.DISPLAY_MOSI_PIN,
    )

    def wire(data):
        if cs.value() == 0:
            virtual.receive(dc.value(), data)

    spi.sink = wire
    bus = PinBus(spi, dc, cs)
    display = Display(bus, rst, panel=panel, rotation=rotation, sleep_ms=virtual.elapse_ms)
    return display, virtual
