// One emulated Pico driven over stdin/stdout, one JSON object a line each way; the
// Python side is host_sim/emu/emulated_pico.py. argv[2] is the JSON of Pico's constructor options.
// A chip reset powers up a new chip on the same flash and the run goes on; every answer
// says how many resets there were (``resets``) and the emulated time (``now_ns``).
//
// Requests ({"op": ...}) and their answers:
//   run {until_ns}                      -> {now_ns}
//   expect {text, fail, until_ns}       run until the console output not yet taken holds
//                                       text or fail (base64; fail may be null)
//                                       -> {now_ns, found, failed}
//   read                                -> {now_ns, console (base64)}: console output since
//                                       the last read
//   write {data (base64)}               queue bytes for the USB console
//   buttons {events: [[t_ns, gpio, down], ...]}
//   spi                                 -> {log: [[t_ns, dc, byte], ...]} since the last call
//   flash {offset, length}              -> {data (base64)}

import { createInterface } from 'node:readline';

import { Pico } from './pico.mjs';

let pico = new Pico(JSON.parse(process.argv[2]));
let unread = [];

/** ``pico.run``, across the chip's resets. */
function run(untilNs, stop = null) {
  for (;;) {
    const stopped = pico.run(untilNs, stop);
    if (!pico.resetRequested) return stopped;
    pico = pico.restart();
  }
}

function pending() {
  if (pico.console.length) unread = [Buffer.concat([...unread, pico.takeConsole()])];
  return unread.length ? unread[0] : Buffer.alloc(0);
}

const handlers = {
  run({ until_ns }) {
    run(until_ns);
    return {};
  },
  expect({ text, fail, until_ns }) {
    const wanted = Buffer.from(text, 'base64');
    const unwanted = fail ? Buffer.from(fail, 'base64') : null;
    let seen = -1;
    run(until_ns, () => {
      const output = pending();
      if (output.length === seen) return false;
      seen = output.length;
      return output.includes(wanted) || (unwanted !== null && output.includes(unwanted));
    });
    const output = pending();
    const failed = unwanted !== null && output.includes(unwanted);
    return { found: output.includes(wanted), failed };
  },
  read() {
    const console = pending().toString('base64');
    unread = [];
    return { console };
  },
  write({ data }) {
    pico.write(Buffer.from(data, 'base64'));
    return {};
  },
  buttons({ events }) {
    for (const [atNs, gpio, down] of events) pico.button(atNs, gpio, down);
    return {};
  },
  spi() {
    const log = pico.spiLog;
    pico.spiLog = [];
    return { log };
  },
  flash({ offset, length }) {
    const data = Buffer.from(pico.rp2040.flash.subarray(offset, offset + length));
    return { data: data.toString('base64') };
  },
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const request = JSON.parse(line);
  let answer;
  try {
    const result = handlers[request.op](request);
    answer = { ok: true, ...result, now_ns: pico.nowNs, resets: pico.resets };
  } catch (err) {
    answer = { ok: false, error: String(err && err.stack ? err.stack : err) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
