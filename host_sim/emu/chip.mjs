// What rp2040js 1.4.1 gets wrong about the RP2040 that MicroPython relies on, put right from
// outside the package: timer alarms, core 1's boot ROM handshake, GPIO pad reset values.

const TIMER = 0x40054;
const ALARM0 = 0x10;
const ALARM3 = 0x1c;
const PSM = 0x40010;
const PSM_FRCE_OFF = 0x04;
const PSM_PROC1 = 1 << 16;
const SIO_FIFO_ST = 0x50;
const SIO_FIFO_WR = 0x54;
const SIO_FIFO_RD = 0x58;
const FIFO_VLD = 1 << 0;
const FIFO_RDY = 1 << 1;
const FIFO_DEPTH = 8;
const PAD_RESET = 0x56; // input enabled, pull-down, 4 mA, Schmitt trigger (datasheet 2.19.6.3)

/**
 * A timer alarm fires when the microsecond counter's low 32 bits reach ALARMn. rp2040js
 * rounds the delay down from a fractional "now", so an alarm could fire up to 1 µs before
 * TIMELR reached it, and the SDK then re-arms it for a time already passed.
 */
function fixTimerAlarms(rp2040) {
  const timer = rp2040.peripherals[TIMER];
  const original = timer.writeUint32.bind(timer);
  timer.writeUint32 = (offset, value) => {
    if (offset < ALARM0 || offset > ALARM3) {
      original(offset, value);
      return;
    }
    const alarm = timer.alarms[(offset - ALARM0) >> 2];
    const nowNs = rp2040.clock.nanos;
    const nowUs = Math.floor(nowNs / 1000);
    const deltaUs = (value - nowUs) >>> 0;
    alarm.armed = true;
    alarm.targetMicros = value >>> 0;
    alarm.clockAlarm.schedule(Math.max(0, deltaUs * 1000 - (nowNs - nowUs * 1000)));
  };
}

/**
 * Core 1 is not emulated, but core 0 talks to it through the SIO mailbox: resetting core 1
 * (MicroPython does at every soft reset) waits for the 0 that core 1's boot ROM sends once
 * it is out of reset, and the ROM echoes every word of the launch sequence.
 */
function addCore1BootRom(rp2040) {
  const toCore0 = [];
  const { sio } = rp2040;
  const sioRead = sio.readUint32.bind(sio);
  const sioWrite = sio.writeUint32.bind(sio);
  const reply = (word) => {
    if (toCore0.length < FIFO_DEPTH) toCore0.push(word >>> 0);
  };
  sio.readUint32 = (offset) => {
    if (offset === SIO_FIFO_ST) return (toCore0.length ? FIFO_VLD : 0) | FIFO_RDY;
    if (offset === SIO_FIFO_RD) return toCore0.length ? toCore0.shift() : 0;
    return sioRead(offset);
  };
  sio.writeUint32 = (offset, value) => {
    if (offset === SIO_FIFO_WR) reply(value);
    else if (offset !== SIO_FIFO_ST) sioWrite(offset, value);
  };
  const psm = rp2040.peripherals[PSM];
  const psmWrite = psm.writeUint32.bind(psm);
  psm.writeUint32 = (offset, value) => {
    const wasOff = psm.frceOff & PSM_PROC1;
    psmWrite(offset, value);
    if (offset === PSM_FRCE_OFF && wasOff && !(psm.frceOff & PSM_PROC1)) {
      toCore0.length = 0;
      reply(0);
    }
  };
}

/** rp2040js starts every pad with its input disabled (0x36); the chip resets them to 0x56. */
function resetPads(rp2040) {
  for (const pin of rp2040.gpio) pin.padValue = PAD_RESET;
}

export function fixChip(rp2040) {
  fixTimerAlarms(rp2040);
  addCore1BootRom(rp2040);
  resetPads(rp2040);
}
