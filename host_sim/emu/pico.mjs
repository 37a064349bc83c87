// A Raspberry Pi Pico in rp2040js: MicroPython's UF2 and a filesystem image on its flash,
// buttons wired to ground on GPIO 0-15, the USB console, and the bytes SPI0 sends.
//
// Time is the emulated clock in nanoseconds; the RP2040's microsecond timer reads it.
// Everything happens at exact emulated times, so a run repeats exactly.
//
// A reset of the chip (``machine.reset()``, or the watchdog running out) stops the run;
// ``restart()`` then powers up a new chip on the same flash, as the real reset does.

import { readFileSync } from 'node:fs';
import { GPIOPinState, RP2040, USBCDC } from 'rp2040js';

import { fixChip } from './chip.mjs';
import { installFlash } from './flash.mjs';
import { PioClock } from './pio_clock.mjs';

const FLASH_BASE = 0x10000000;
const FS_OFFSET = 0xa0000; // the RPI_PICO build's LittleFS partition
const UF2_MAGIC = [0x0a324655, 0x9e5d5157, 0x0ab16f30];
const UF2_BLOCK = 512;
const DC_PIN = 20; // hardware_setup.DISPLAY_DC_PIN
const RST_PIN = 21; // hardware_setup.DISPLAY_RST_PIN
const RESET_LINE = -1; // in the SPI log's DC column: the display's RST line changed
const CDC_FIFO = 512; // rp2040js's USBCDC drops bytes beyond this
const WATCHDOG = 0x40058;
const BUTTONS = 16;
const SPI_BITS_PER_BYTE = 8;

/** rp2040js logs through console.debug/info too, which would end up on stdout. */
const quietLogger = {
  debug() {},
  info() {},
  warn(component, message) {
    process.stderr.write(`[${component}] ${message}\n`);
  },
  error(component, message) {
    throw new Error(`[${component}] ${message}`);
  },
};

function loadUf2(flash, data) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let at = 0; at + UF2_BLOCK <= data.length; at += UF2_BLOCK) {
    const magic = [view.getUint32(at, true), view.getUint32(at + 4, true)];
    if (magic[0] !== UF2_MAGIC[0] || magic[1] !== UF2_MAGIC[1]) {
      throw new Error(`not a UF2 block at byte ${at}`);
    }
    if (view.getUint32(at + UF2_BLOCK - 4, true) !== UF2_MAGIC[2]) {
      throw new Error(`UF2 block at byte ${at} has no end marker`);
    }
    const address = view.getUint32(at + 12, true);
    const size = view.getUint32(at + 16, true);
    flash.set(data.subarray(at + 32, at + 32 + size), address - FLASH_BASE);
  }
}

export class Pico {
  /**
   * uf2, bootrom: file paths. fsImage: path of a LittleFS image for the filesystem
   * partition, or null to keep it erased. flash: the whole flash's bytes to start from
   * instead of the UF2 and the image (a chip coming out of reset). startUs: the timer's
   * value at power-on. held: GPIOs held down at power-on. logSpi: keep SPI0's bytes for
   * spiLog.
   */
  constructor(options) {
    const { uf2, bootrom, fsImage = null, flash = null, startUs = 0, held = [] } = options;
    this.options = options;
    const rp2040 = new RP2040();
    this.rp2040 = rp2040;
    rp2040.logger = quietLogger;
    const rom = readFileSync(bootrom);
    rp2040.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.byteLength >> 2));
    if (flash) {
      rp2040.flash.set(flash);
    } else {
      loadUf2(rp2040.flash, readFileSync(uf2));
      if (fsImage) rp2040.flash.set(readFileSync(fsImage), FS_OFFSET);
    }
    installFlash(rp2040);
    fixChip(rp2040);
    this.pio = new PioClock(rp2040);
    rp2040.clock.nanosCounter = startUs * 1000;

    this.console = [];
    this.toDevice = [];
    this.connected = false;
    this.cdc = new USBCDC(rp2040.usbCtrl);
    this.cdc.onDeviceConnected = () => {
      this.connected = true;
      this.toDevice.unshift(0x0d); // a terminal opening the port: the REPL answers
    };
    this.cdc.onSerialData = (bytes) => {
      for (const byte of bytes) this.console.push(byte);
    };
    // A USB host sends on the console's OUT endpoint only when it has bytes to send;
    // until then the armed endpoint NAKs in hardware and the CPU hears nothing.
    // rp2040js's USBCDC answers every read at once, with zero bytes when it has none,
    // which would keep TinyUSB busy with empty transfers (MicroPython's rp2 port runs
    // its task every tenth backward jump or return of the bytecode): the read waits.
    const answerRead = rp2040.usbCtrl.onEndpointRead;
    this.waitingRead = null;
    this.answerRead = answerRead;
    rp2040.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint === this.cdc.outEndpoint && this.cdc.txFIFO.itemCount === 0) {
        this.waitingRead = [endpoint, size];
      } else {
        answerRead(endpoint, size);
      }
    };

    this.spiLog = [];
    this.logSpi = options.logSpi ?? true;
    this.captureSpi(rp2040.spi[0]);

    this.resets = 0; // chip resets since power-on
    this.resetRequested = false;
    const watchdog = rp2040.peripherals[WATCHDOG];
    watchdog.onWatchdogTrigger = () => {
      this.resetRequested = true;
      // This chip is going away; rp2040js's watchdog, which never resets anything,
      // would fire again and again at the same instant.
      watchdog.alarm.enable = false;
      watchdog.timer.enable = false;
    };
    this.pendingButtons = new Set(); // [atNs, gpio, down] not yet reached

    // Buttons pull to ground against the pins' pull-ups: released reads high.
    for (let gpio = 0; gpio < BUTTONS; gpio++) {
      rp2040.gpio[gpio].setInputValue(!held.includes(gpio));
    }
    rp2040.core.PC = FLASH_BASE; // boot2, which sets up execute-in-place and jumps on
  }

  /**
   * The chip after its reset: a new one on this flash, the clock running on. What this
   * one printed or sent to the display and nobody took yet is kept, and so are the
   * buttons: those held stay down, and the presses to come still come.
   */
  restart() {
    const held = [];
    for (let gpio = 0; gpio < BUTTONS; gpio++) {
      if (!this.rp2040.gpio[gpio].rawInputValue) held.push(gpio);
    }
    const next = new Pico({
      ...this.options,
      flash: this.rp2040.flash,
      startUs: this.nowNs / 1000,
      held,
    });
    next.resets = this.resets + 1;
    next.console = this.console;
    next.spiLog = this.spiLog;
    for (const [atNs, gpio, down] of this.pendingButtons) next.button(atNs, gpio, down);
    return next;
  }

  get nowNs() {
    return this.rp2040.clock.nanos;
  }

  /** Set GPIO ``gpio`` pressed (``down``) or released at emulated time ``atNs``. */
  button(atNs, gpio, down) {
    const pin = this.rp2040.gpio[gpio];
    const event = [atNs, gpio, down];
    this.pendingButtons.add(event);
    const alarm = this.rp2040.clock.createAlarm(() => {
      this.pendingButtons.delete(event);
      if (pin.rawInputValue === down) pin.setInputValue(!down);
    });
    alarm.schedule(Math.max(0, atNs - this.nowNs));
  }

  /**
   * Each byte SPI0 shifts out takes its real time at the configured SCK rate and is
   * logged as [t_ns, dc, byte]; a change of the display's RST line as [t_ns, -1, level].
   */
  captureSpi(spi) {
    this.rp2040.gpio[RST_PIN].addListener((state) => {
      const driven = state === GPIOPinState.High || state === GPIOPinState.Low;
      if (this.logSpi && driven) {
        this.spiLog.push([this.nowNs, RESET_LINE, state === GPIOPinState.High ? 1 : 0]);
      }
    });
    const dc = this.rp2040.gpio[DC_PIN];
    const done = this.rp2040.clock.createAlarm(() => spi.completeTransmit(0));
    spi.onTransmit = (value) => {
      if (this.logSpi) {
        this.spiLog.push([this.nowNs, dc.value === GPIOPinState.High ? 1 : 0, value]);
      }
      const hz = spi.clockFrequency || this.rp2040.clkPeri;
      done.schedule(Math.round((SPI_BITS_PER_BYTE * 1e9) / hz));
    };
  }

  write(bytes) {
    for (const byte of bytes) this.toDevice.push(byte);
  }

  feedConsole() {
    const fifo = this.cdc.txFIFO;
    while (this.toDevice.length && fifo.itemCount < CDC_FIFO) fifo.push(this.toDevice.shift());
    if (this.waitingRead && fifo.itemCount) {
      const [endpoint, size] = this.waitingRead;
      this.waitingRead = null;
      this.answerRead(endpoint, size);
    }
  }

  takeConsole() {
    const bytes = Buffer.from(this.console);
    this.console = [];
    return bytes;
  }

  /**
   * Run until emulated time ``untilNs``, or until ``stop()`` returns true (checked often),
   * or until the chip resets (``resetRequested``: ``restart()`` goes on from there).
   */
  run(untilNs, stop = null) {
    const { core, clock } = this.rp2040;
    let count = 0;
    while (clock.nanos < untilNs) {
      if ((++count & 0x3ff) === 0) {
        if (this.resetRequested) return false;
        if (this.connected && this.toDevice.length) this.feedConsole();
        if (stop && stop()) return true;
      }
      const cycleNs = 1e9 / this.rp2040.clkSys;
      if (core.waiting) {
        if (this.pio.running.length) {
          clock.tick(cycleNs);
          this.pio.advance(1);
          continue;
        }
        // Bytes for the console go out before the sleep is skipped: they are what
        // wakes a board waiting at its REPL. And what it printed may be what the caller
        // waits for.
        if (this.resetRequested) return false;
        if (this.connected && this.toDevice.length) this.feedConsole();
        if (stop && stop()) return true;
        const next = clock.nextAlarm ? clock.nextAlarm.nanos : untilNs;
        clock.tick(Math.max(0, Math.min(next, untilNs) - clock.nanos));
        continue;
      }
      const cycles = core.executeInstruction();
      clock.tick(cycles * cycleNs);
      if (this.pio.running.length) this.pio.advance(cycles);
    }
    return stop ? stop() : false;
  }
}
