// The Pico's QSPI flash as the boot ROM's program and erase routines see it.
//
// rp2040js serves execute-in-place reads straight from its flash array, but its SSI (the
// flash's SPI controller) answers every status read with a fixed value and never returns
// received bytes, and its IO_QSPI block ignores the chip-select override, so the ROM's
// flash_range_erase and flash_range_program change nothing. This module puts a small SPI
// NOR chip (a W25Q16JV, as on the Pico) behind a working SSI: each byte written to the data
// register is clocked into the chip at once and the byte it answers lands in the receive
// FIFO. The chip select is the SSI's own (a transfer ends when software polls the status
// register with nothing left to send) unless software forces it through IO_QSPI's
// QSPI_SS output override, which is how the ROM frames its commands.

import { BasePeripheral } from 'rp2040js';

const SSI_SSIENR = 0x08;
const SSI_TXFLR = 0x20;
const SSI_RXFLR = 0x24;
const SSI_SR = 0x28;
const SSI_DR0 = 0x60;
const SR_TFNF = 0x02;
const SR_TFE = 0x04;
const SR_RFNE = 0x08;
const RX_DEPTH = 16;

const QSPI_SS_CTRL = 0x0c;
const OUTOVER_SHIFT = 8;
const OUTOVER_LOW = 2;

const SECTOR = 4096;
const PAGE = 256;
const JEDEC_ID = [0xef, 0x40, 0x15];
const STATUS2_QE = 0x02;

/** The NOR chip: commands arrive a byte at a time between select and deselect. */
export class NorFlash {
  constructor(flash) {
    this.flash = flash;
    this.writeEnabled = false;
    this.command = null;
    this.bytes = 0;
    this.address = 0;
  }

  select() {
    this.command = null;
    this.bytes = 0;
  }

  deselect() {
    const cmd = this.command;
    const complete = this.bytes >= 4;
    this.command = null;
    if (!this.writeEnabled || !complete) return;
    if (cmd === 0x20) this.erase(this.address & ~(SECTOR - 1), SECTOR);
    else if (cmd === 0x52) this.erase(this.address & ~0x7fff, 0x8000);
    else if (cmd === 0xd8) this.erase(this.address & ~0xffff, 0x10000);
    if (cmd === 0x20 || cmd === 0x52 || cmd === 0xd8 || cmd === 0x02) this.writeEnabled = false;
  }

  erase(start, size) {
    this.flash.fill(0xff, start, Math.min(start + size, this.flash.length));
  }

  /** One byte in, the byte the chip drives out at the same time. */
  transfer(byte) {
    const index = this.bytes++;
    if (index === 0) {
      this.command = byte;
      if (byte === 0x06) this.writeEnabled = true;
      else if (byte === 0x04) this.writeEnabled = false;
      else if (byte === 0x60 || byte === 0xc7) {
        if (this.writeEnabled) this.erase(0, this.flash.length);
        this.writeEnabled = false;
      }
      return 0xff;
    }
    const cmd = this.command;
    if (cmd === 0x05) return this.writeEnabled ? 0x02 : 0x00; // never busy: each op is instant
    if (cmd === 0x35) return STATUS2_QE;
    if (cmd === 0x9f) return JEDEC_ID[(index - 1) % 3];
    if (cmd === 0x4b) return index >= 5 ? 0x50 + index : 0xff; // 4 dummy bytes, then the id
    if (index <= 3) {
      this.address = ((this.address << 8) | byte) & 0xffffff;
      return 0xff;
    }
    if (cmd === 0x02 && this.writeEnabled) {
      const page = this.address & ~(PAGE - 1);
      const at = page | ((this.address + index - 4) & (PAGE - 1));
      if (at < this.flash.length) this.flash[at] &= byte;
      return 0xff;
    }
    const size = this.flash.length;
    if (cmd === 0x03) return this.flash[(this.address + index - 4) % size];
    if (cmd === 0x0b && index >= 5) return this.flash[(this.address + index - 5) % size];
    return 0xff;
  }
}

/** The SSI with a receive FIFO that fills as the chip answers. */
class FlashSSI extends BasePeripheral {
  constructor(rp2040, original, chip, select) {
    super(rp2040, 'SSI');
    this.original = original;
    this.chip = chip;
    this.select = select;
    this.rx = [];
    this.ownSelect = false;
  }

  readUint32(offset) {
    switch (offset) {
      case SSI_TXFLR:
        return 0;
      case SSI_RXFLR:
        return this.rx.length;
      case SSI_SR:
        // Software waits for the transfer to finish: with the SSI driving the chip
        // select, that is where the chip is deselected.
        if (this.ownSelect) {
          this.ownSelect = false;
          this.chip.deselect();
        }
        return SR_TFE | SR_TFNF | (this.rx.length ? SR_RFNE : 0);
      case SSI_DR0:
        return this.rx.length ? this.rx.shift() : 0;
    }
    return this.original.readUint32(offset);
  }

  writeUint32(offset, value) {
    if (offset === SSI_DR0) {
      if (!this.select.forced && !this.ownSelect) {
        this.ownSelect = true;
        this.chip.select();
      }
      const answer = this.chip.transfer(value & 0xff);
      if (this.rx.length < RX_DEPTH) this.rx.push(answer);
      return;
    }
    if (offset === SSI_SSIENR && !(value & 1)) this.rx = [];
    this.original.writeUint32(offset, value);
  }
}

/** IO_QSPI: register storage, and the chip select the QSPI_SS output override forces. */
class FlashIOQSPI extends BasePeripheral {
  constructor(rp2040, chip) {
    super(rp2040, 'IO_QSPI');
    this.chip = chip;
    this.regs = new Uint32Array(12);
    this.forced = false;
  }

  readUint32(offset) {
    return offset < 0x30 ? this.regs[offset >> 2] : 0;
  }

  writeUint32(offset, value) {
    if (offset >= 0x30) return;
    this.regs[offset >> 2] = value;
    if (offset !== QSPI_SS_CTRL) return;
    const override = (value >> OUTOVER_SHIFT) & 3;
    if (override === OUTOVER_LOW && !this.forced) {
      this.forced = true;
      this.chip.select();
    } else if (override !== OUTOVER_LOW && this.forced) {
      this.forced = false;
      this.chip.deselect();
    }
  }
}

/** Give ``rp2040`` a flash that the boot ROM can erase and program. */
export function installFlash(rp2040) {
  const chip = new NorFlash(rp2040.flash);
  const ioqspi = new FlashIOQSPI(rp2040, chip);
  rp2040.peripherals[0x40018] = ioqspi;
  rp2040.peripherals[0x18000] = new FlashSSI(rp2040, rp2040.peripherals[0x18000], chip, ioqspi);
  return chip;
}
