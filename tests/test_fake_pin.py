"""The fake ``machine.Pin``: levels and interrupts as the firmware sees them on the device."""

from machine import Pin


def test_input_reads_its_pull_until_something_drives_it():
    pin = Pin(3, Pin.IN, Pin.PULL_UP)
    assert pin.value() == 1 and pin() == 1
    pin.press()
    assert pin.value() == 0
    pin.release()
    assert pin.value() == 1
    assert Pin(4, Pin.IN, Pin.PULL_DOWN).value() == 0


def test_output_reads_what_it_was_set_to():
    pin = Pin(22, Pin.OUT, value=1)
    assert pin.value() == 1
    pin.off()
    assert pin.value() == 0
    pin(1)
    assert pin.value() == 1


def test_handler_runs_on_each_matching_edge_with_the_pin():
    pin = Pin(5, Pin.IN, Pin.PULL_UP)
    seen = []
    pin.irq(trigger=Pin.IRQ_FALLING, handler=seen.append, hard=True)
    assert pin.hard
    assert pin.press() == Pin.IRQ_FALLING
    assert pin.press() == 0  # no edge: the level did not change
    assert pin.release() == 0  # a rising edge, not listened for
    pin.press()
    assert seen == [pin, pin]


def test_both_edges_and_late_delivery():
    pin = Pin(6, Pin.IN, Pin.PULL_UP)
    seen = []
    pin.irq(handler=seen.append)
    assert pin.press(fire=False) == Pin.IRQ_FALLING
    assert seen == []
    pin.fire()
    assert pin.release() == Pin.IRQ_RISING
    assert seen == [pin, pin]


def test_removing_the_handler_stops_interrupts():
    pin = Pin(7, Pin.IN, Pin.PULL_UP)
    seen = []
    pin.irq(handler=seen.append, trigger=Pin.IRQ_FALLING)
    pin.irq(handler=None)
    assert pin.press() == 0
    assert seen == []
