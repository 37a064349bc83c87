"""The display's window commands straight into the RP2040's SPI and GPIO registers, in
viper code.

Opening a window through ``machine.SPI`` and ``Pin`` takes about 270 µs on the chip:
seven pin changes and four writes, each a call. Here it is one call of a few tens of
µs. ``drivers.display`` uses it where the port compiles viper code and
``hardware_setup`` names the registers; elsewhere its own ``_window`` sends the same
bytes (``tests/test_emu_speed.py`` compares the two on the emulated chip's bus).

Register facts (RP2040 datasheet, sections 2.3.1.7 and 4.4.4): SIO's GPIO_OUT_SET and
GPIO_OUT_CLR at 0xd0000014 and 0xd0000018; an SPI block's SSPDR at +0x008 and SSPSR at
+0x00c, whose bits are TNF (1: room in the transmit FIFO), RNE (2: a byte received)
and BSY (4: a frame on the wire or waiting).
"""

import micropython
from micropython import const

_SIO_OUT_SET = const(5)  # word offsets from SIO's base
_SIO_OUT_CLR = const(6)
_DR = const(2)  # word offsets from an SPI block's base
_SR = const(3)
_TNF = const(2)
_RNE = const(4)
_BSY = const(16)


@micropython.viper
def open_window(registers, ranges, which: int):
    """Take CS low and send CASET with the column range (``which`` bit 0), RASET with
    the row range (bit 1) and RAMWR, leaving DC high for the pixels.

    ``registers`` (``array("I")``): the SPI block's base, SIO's base, the DC pin's mask
    and the CS pin's mask. ``ranges``: 10 bytes, CASET and its four parameters, then
    RASET and its four."""
    r = ptr32(registers)  # noqa: F821 (a viper built-in)
    spi = ptr32(r[0])  # noqa: F821
    sio = ptr32(r[1])  # noqa: F821
    dc = r[2]
    sio[_SIO_OUT_CLR] = r[3]  # CS low
    data = ptr8(ranges)  # noqa: F821
    at = 0
    while at <= 10:
        if at == 10 or (at == 0 and which & 1) or (at == 5 and which & 2):
            # The command with DC low (RAMWR last), once the bus is quiet; its parameters
            # with DC high.
            while spi[_SR] & _BSY:
                pass
            sio[_SIO_OUT_CLR] = dc
            spi[_DR] = 0x2C if at == 10 else data[at]
            while spi[_SR] & _BSY:
                pass
            sio[_SIO_OUT_SET] = dc
            k = at + 1
            while k < at + 5 and at < 10:
                while not spi[_SR] & _TNF:
                    pass
                spi[_DR] = data[k]
                k += 1
        at += 5
    while spi[_SR] & _BSY:
        pass
    while spi[_SR] & _RNE:  # the bytes clocked in meanwhile, which nothing reads
        received = spi[_DR]  # noqa: F841
