// The PIO blocks stepped in time with the CPU.
//
// rp2040js runs its PIO from a host timer, as fast as it can, ignoring the CPU's cycles,
// instruction delays and the clock divider, and its RX FIFO never joins to 8 words. Here
// every state machine executes one instruction per (divided) system clock cycle, idles for
// the instruction's delay cycles, and gets an 8-word FIFO when SHIFTCTRL.FJOIN_RX is set.

import { FIFO } from 'rp2040js';

const FJOIN_RX = 1 << 31;
const FJOIN_TX = 1 << 30;
const SHIFTCTRL = 0x08; // the state machine's own register offset, from SM0_CLKDIV
const CTRL = 0x000;

class MachineClock {
  constructor(machine) {
    this.machine = machine;
    this.phase = 0; // clock divider accumulator, in 1/256 cycles
    this.idle = 0; // delay cycles still to wait
    const write = machine.writeUint32.bind(machine);
    machine.writeUint32 = (offset, value) => {
      write(offset, value);
      if (offset === SHIFTCTRL) this.joinFifos(value);
    };
  }

  joinFifos(shiftCtrl) {
    const m = this.machine;
    m.rxFIFO = new FIFO(shiftCtrl & FJOIN_RX ? 8 : shiftCtrl & FJOIN_TX ? 0 : 4);
    m.txFIFO = new FIFO(shiftCtrl & FJOIN_TX ? 8 : shiftCtrl & FJOIN_RX ? 0 : 4);
  }

  /** Advance by one system clock cycle. */
  tick() {
    const m = this.machine;
    const divider = ((m.clockDivInt || 0x10000) << 8) | m.clockDivFrac;
    this.phase += 256;
    if (this.phase < divider) return;
    this.phase -= divider;
    if (this.idle > 0) {
      this.idle--;
      return;
    }
    const before = m.cycles;
    m.step();
    this.idle = Math.max(0, m.cycles - before - 1);
  }
}

export class PioClock {
  constructor(rp2040) {
    this.blocks = rp2040.pio;
    this.machines = [];
    this.running = []; // the clocks of the enabled state machines
    for (const pio of this.blocks) {
      pio.run = () => {}; // stepped from advance() instead of a host timer
      for (const machine of pio.machines) this.machines.push(new MachineClock(machine));
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        write(offset, value);
        if (offset === CTRL) this.running = this.machines.filter((c) => c.machine.enabled);
      };
    }
  }

  advance(cycles) {
    const { running } = this;
    for (let c = 0; c < cycles; c++) {
      for (let i = 0; i < running.length; i++) running[i].tick();
    }
    for (const pio of this.blocks) pio.checkChangedPins();
  }
}
