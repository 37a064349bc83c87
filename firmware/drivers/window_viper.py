"""The display's window commands, and its pixels by DMA, straight into the RP2040's SPI,
GPIO and DMA registers, in viper code: ``drivers.display``'s ``RegisterBus`` and
``DmaBus``.

A window's commands go out in one call of a few tens of µs, the same bytes as the
``PinBus`` sends (``tests/test_emu_speed.py`` compares the three buses on the emulated
chip's bus). With a byte count, the same call starts the pixels' DMA transfer: the CPU
goes on while the bus takes its 128 ns a byte, and ``finished`` tells when they are all
out.

``registers`` (``array("I")``): the SPI block's base, SIO's base, the DC pin's mask, the
CS pin's mask and the DMA channel's base (0 without one). ``held``: the panel's record,
an ``array("i")`` laid out as ``drivers.display`` says (the address order, then the
column and row ranges as ``start << 9 | end``).

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

_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)

_ORDER = const(0)  # ``held``'s slots
_COLUMNS = const(1)
_ROWS = const(2)

_SPI = const(0)  # ``registers``' slots
_SIO = const(1)
_DC = const(2)
_CS = const(3)
_DMA = const(4)

_SIO_OUT_SET = const(5)  # word offsets from SIO's base
_SIO_OUT_CLR = const(6)
_DR = const(2)  # word offsets from an SPI block's base
_SR = const(3)
_ICR = const(8)
_TNF = const(2)  # SSPSR bits
_RNE = const(4)
_BSY = const(16)
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
def open_window(registers, held, order: int, columns: int, rows: int, pixels, count: int,
                ctrl: int) -> int:
    """Take CS low and send what ``held`` does not hold of the window (MADCTL with the
    address ``order``, CASET with the ``columns``, RASET with the ``rows``), noting it as
    held, then RAMWR, leaving DC high for the pixels; returns the command bytes sent.
    With a ``count``, start the DMA channel on ``count`` bytes from ``pixels``, ``ctrl``
    its control word; the last transfer must be over (``finished``)."""
    h = ptr32(held)  # noqa: F821 (a viper built-in)
    which = 0  # bit ``1 << slot`` for each slot sent
    sent = 1
    if h[_ORDER] != order:
        h[_ORDER] = order
        which = 1 << _ORDER
        sent += 2
    if h[_COLUMNS] != columns:
        h[_COLUMNS] = columns
        which |= 1 << _COLUMNS
        sent += 5
    if h[_ROWS] != rows:
        h[_ROWS] = rows
        which |= 1 << _ROWS
        sent += 5
    r = ptr32(registers)  # noqa: F821
    spi = ptr32(r[_SPI])  # noqa: F821
    sio = ptr32(r[_SIO])  # noqa: F821
    dc = r[_DC]
    sio[_SIO_OUT_CLR] = r[_CS]  # CS low
    slot = _ORDER
    while slot <= _ROWS + 1:  # the slots held, then RAMWR
        if slot > _ROWS or which & (1 << slot):
            # The command with DC low, once the bus is quiet; its parameters with DC high.
            while spi[_SR] & _BSY:
                pass
            sio[_SIO_OUT_CLR] = dc
            if slot == _ORDER:
                spi[_DR] = _MADCTL
            elif slot == _COLUMNS:
                spi[_DR] = _CASET
            elif slot == _ROWS:
                spi[_DR] = _RASET
            else:
                spi[_DR] = _RAMWR
            while spi[_SR] & _BSY:
                pass
            sio[_SIO_OUT_SET] = dc
            if slot == _ORDER:
                spi[_DR] = order
            elif slot <= _ROWS:
                start = h[slot] >> 9
                end = h[slot] & 0x1FF
                spi[_DR] = start >> 8
                spi[_DR] = start & 0xFF
                while not spi[_SR] & _TNF:
                    pass
                spi[_DR] = end >> 8
                while not spi[_SR] & _TNF:
                    pass
                spi[_DR] = end & 0xFF
        slot += 1
    while spi[_SR] & _RNE:  # the bytes clocked in meanwhile, which nothing reads
        received = spi[_DR]  # noqa: F841
    spi[_ICR] = _RORIC
    if count:
        dma = ptr32(r[_DMA])  # noqa: F821
        dma[_DMA_READ] = uint(ptr8(pixels))  # noqa: F821
        dma[_DMA_WRITE] = r[_SPI] + _DR * 4
        dma[_DMA_COUNT] = count
        dma[_DMA_CTRL_TRIG] = ctrl
    return sent


@micropython.viper
def finished(registers) -> bool:
    """True once the DMA channel has sent its last byte and the bus is quiet; then the
    bytes received meanwhile are dropped and CS goes high."""
    r = ptr32(registers)  # noqa: F821
    dma = ptr32(r[_DMA])  # noqa: F821
    spi = ptr32(r[_SPI])  # noqa: F821
    if dma[_DMA_CTRL_TRIG] & _DMA_BUSY or spi[_SR] & _BSY:
        return False
    while spi[_SR] & _RNE:
        received = spi[_DR]  # noqa: F841
    spi[_ICR] = _RORIC
    sio = ptr32(r[_SIO])  # noqa: F821
    sio[_SIO_OUT_SET] = r[_CS]
    return True
