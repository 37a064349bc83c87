"""The display's window commands and its pixels straight into the RP2040's SPI, GPIO and
DMA registers, in viper code.

Opening a window through ``machine.SPI`` and ``Pin`` takes about 270 µs on the chip:
seven pin changes and four writes, each a call. Here it is one call of a few tens of
µs. ``drivers.display`` uses it where the port compiles viper code and
``hardware_setup`` names the registers; elsewhere its own ``_window`` sends the same
bytes (``tests/test_emu_speed.py`` compares the two on the emulated chip's bus).
With DMA, ``show`` opens the window and starts the pixels in the same call: the CPU goes
on while the bus takes its 128 ns a byte, and ``finished`` tells when they are all out.

Register facts (RP2040 datasheet, sections 2.3.1.7 and 4.4.4): SIO's GPIO_OUT_SET and
GPIO_OUT_CLR at 0xd0000014 and 0xd0000018; an SPI block's SSPDR at +0x008 and SSPSR at
+0x00c, whose bits are TNF (1: room in the transmit FIFO), RNE (2: a byte received)
and BSY (4: a frame on the wire or waiting), SSPICR at +0x020 (bit 0 clears a receive
overrun). A DMA channel's READ_ADDR, WRITE_ADDR, TRANS_COUNT and CTRL_TRIG at +0x0 to
+0xc from its base (0x50000000 + 0x40 * channel, section 2.5.7); writing CTRL_TRIG
starts the channel, and its bit 24 (BUSY) stays set until the last transfer.
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
_ICR = const(8)
_RORIC = const(1)
_DMA_READ = const(0)  # word offsets from a DMA channel's base
_DMA_WRITE = const(1)
_DMA_COUNT = const(2)
_DMA_CTRL_TRIG = const(3)
_DMA_BUSY = const(1 << 24)
_DMA_BASE = 0x50000000  # beyond a small int: not a const()
_DMA_STRIDE = const(0x40)


def channel_base(channel):
    """DMA channel ``channel``'s register base."""
    return _DMA_BASE + _DMA_STRIDE * channel


@micropython.viper
def open_window(registers, ranges, which: int):
    """Take CS low and send CASET with the column range (``which`` bit 0), RASET with
    the row range (bit 1) and RAMWR, leaving DC high for the pixels.

    ``registers`` (``array("I")``): the SPI block's base, SIO's base, the DC pin's mask,
    the CS pin's mask and, for ``show`` and ``finished``, the DMA channel's base.
    ``ranges``: 10 bytes, CASET and its four parameters, then RASET and its four."""
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


@micropython.viper
def show(registers, columns: int, rows: int, pixels, count: int, ctrl: int) -> int:
    """``open_window`` and the start of the pixels' DMA transfer in one call; returns
    the command bytes sent. ``columns`` and ``rows`` are ranges as
    ``start << 9 | end``; a range the panel holds already (kept in ``registers[5]`` and
    ``registers[6]``) is not sent again. The last transfer must be over (``finished``)."""
    r = ptr32(registers)  # noqa: F821
    spi = ptr32(r[0])  # noqa: F821
    sio = ptr32(r[1])  # noqa: F821
    dc = r[2]
    sio[_SIO_OUT_CLR] = r[3]  # CS low (``finished`` took it high)
    sent = 1
    which = 0
    while which < 2:
        wanted = columns if which == 0 else rows
        if wanted != int(r[5 + which]):
            r[5 + which] = wanted
            while spi[_SR] & _BSY:
                pass
            sio[_SIO_OUT_CLR] = dc
            spi[_DR] = 0x2A + which  # CASET, RASET
            while spi[_SR] & _BSY:
                pass
            sio[_SIO_OUT_SET] = dc
            start = wanted >> 9
            end = wanted & 0x1FF
            spi[_DR] = start >> 8
            spi[_DR] = start & 0xFF
            while not spi[_SR] & _TNF:
                pass
            spi[_DR] = end >> 8
            while not spi[_SR] & _TNF:
                pass
            spi[_DR] = end & 0xFF
            sent += 5
        which += 1
    while spi[_SR] & _BSY:
        pass
    sio[_SIO_OUT_CLR] = dc
    spi[_DR] = 0x2C  # RAMWR
    while spi[_SR] & _BSY:
        pass
    sio[_SIO_OUT_SET] = dc
    while spi[_SR] & _RNE:  # the bytes clocked in meanwhile, which nothing reads
        received = spi[_DR]  # noqa: F841
    spi[_ICR] = _RORIC
    dma = ptr32(r[4])  # noqa: F821
    dma[_DMA_READ] = uint(ptr8(pixels))  # noqa: F821
    dma[_DMA_WRITE] = r[0] + _DR * 4
    dma[_DMA_COUNT] = count
    dma[_DMA_CTRL_TRIG] = ctrl
    return sent


@micropython.viper
def finished(registers) -> bool:
    """True once the DMA channel has sent its last byte and the bus is quiet; then the
    bytes received meanwhile are dropped and CS goes high."""
    r = ptr32(registers)  # noqa: F821
    dma = ptr32(r[4])  # noqa: F821
    spi = ptr32(r[0])  # noqa: F821
    if dma[_DMA_CTRL_TRIG] & _DMA_BUSY or spi[_SR] & _BSY:
        return False
    while spi[_SR] & _RNE:
        received = spi[_DR]  # noqa: F841
    spi[_ICR] = _RORIC
    sio = ptr32(r[1])  # noqa: F821
    sio[_SIO_OUT_SET] = r[3]
    return True
