"""A fake of MicroPython's ``machine`` module for the host simulator and the tests.

Each class takes the device's constructor and methods, as far as the firmware uses them,
plus helpers that play the outside world (a finger on a button, a wire); those helpers
are the only names a device class lacks. Constants have the rp2 port's values.
"""


SIO_GPIO_IN = 0xD0000004  # the SIO register with the level of GPIO 0-29 in bits 0-29

_wired = {}  # GPIO number -> the last Pin built for it


class Pin:
    """A GPIO. As an input it reads what the outside drives, else its pull resistor.

    World helpers: ``drive(level)`` (0, 1, or None for nothing driving), ``press()`` and
    ``release()`` for a button wired to ground, and ``fire()``. Like the device, a
    registered handler runs on each edge that matches its trigger, immediately, with
    the pin as argument; pass ``fire=False`` to ``drive`` to deliver it later yourself,
    as a model of interrupt latency does.
    """

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        _wired[id] = self  # the GPIO that mem32[GPIO_IN] reads, as on the device
        self.mode = Pin.IN
        self.pull = None
        self.hard = False
        self._output = 0
        self._outside = None
        self._handler = None
        self._trigger = 0
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self._output = 1 if value else 0

    def value(self, x=None):
        if x is None:
            return self._level()
        self._output = 1 if x else 0
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    low = off
    high = on

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self._handler = handler
        self._trigger = trigger if handler is not None else 0
        self.hard = hard

    def __repr__(self):
        return "Pin(%r)" % (self.id,)

    # The outside world.

    def drive(self, level, fire=True):
        """Set what the outside drives (0, 1 or None); returns the IRQ trigger that matched.

        Returns ``IRQ_FALLING`` or ``IRQ_RISING`` when the level changed in a direction the
        handler listens for, else 0; with ``fire`` the handler has then already run.
        """
        before = self._level()
        self._outside = level
        after = self._level()
        if before == after:
            return 0
        edge = Pin.IRQ_FALLING if after == 0 else Pin.IRQ_RISING
        matched = edge & self._trigger
        if matched and fire:
            self.fire()
        return matched

    def press(self, fire=True):
        """Close a button contact to ground."""
        return self.drive(0, fire)

    def release(self, fire=True):
        """Open the contact: the pull resistor sets the level again."""
        return self.drive(None, fire)

    def fire(self):
        """Run the registered handler as the device's interrupt would."""
        if self._handler is not None:
            self._handler(self)

    def _level(self):
        if self.mode == Pin.OUT:
            return self._output
        if self._outside is not None:
            return self._outside
        return 1 if self.pull == Pin.PULL_UP else 0


class _Mem32:
    """``machine.mem32``, for the one register the firmware reads: SIO ``GPIO_IN``."""

    def __getitem__(self, address):
        if address != SIO_GPIO_IN:
            raise ValueError("no fake register at 0x%08x" % address)
        word = 0
        for gpio, pin in _wired.items():
            if gpio < 30 and pin.value():
                word |= 1 << gpio
        return word


mem32 = _Mem32()
