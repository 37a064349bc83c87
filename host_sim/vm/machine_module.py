"""A ``machine`` module for the MicroPython VM, which has none: as much as the drivers
under test use, written to ``/lib/machine.py`` through ``run(..., files=VM_MACHINE)``.

``mem32[0xD0000004]`` (SIO ``GPIO_IN``) reads ``gpio_in[0]``, which the test sets; a
``Pin`` records its hard handler so the test can call it as the interrupt would.
"""

VM_MACHINE = {
    "/lib/machine.py": """
gpio_in = [0x3FFFFFFF]  # every GPIO high: all buttons released


class _Mem32:
    def __getitem__(self, address):
        if address != 0xD0000004:
            raise ValueError("no fake register")
        return gpio_in[0]


mem32 = _Mem32()


class Pin:
    IN = 0
    PULL_UP = 1
    IRQ_FALLING = 4

    def __init__(self, id, mode=-1, pull=-1):
        self.id = id
        self.handler = None

    def irq(self, trigger, handler, hard):
        assert trigger == self.IRQ_FALLING and hard
        self.handler = handler

    def value(self):
        return gpio_in[0] >> self.id & 1
"""
}
