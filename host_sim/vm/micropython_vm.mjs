// Runs one script on the MicroPython WebAssembly VM; driven by host_sim/vm/micropython_vm.py.
//
// stdin:  {"code": str, "calls": [str], "files": {vm_path: text}, "heapsize": bytes}
// stdout: one JSON object {ok, crashed, error, stdout, stderr, version}. What the script
// prints is captured into that object, so nothing else reaches this process's stdout.

import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

// The script runs inside this function rather than straight through runPython: when an
// exception escapes while micropython.heap_lock() is in force, the port needs the heap
// to report it and would spin for ever. Unlocking first turns that into a failure.
const PRELUDE = `
def _mpvm_exec(source, namespace):
    import micropython
    try:
        exec(compile(source, "<mpvm>", "exec"), namespace)
    except BaseException:
        micropython.heap_lock()
        depth = micropython.heap_unlock()
        if depth:
            while micropython.heap_unlock():
                pass
            import sys
            sys.stderr.write("mpvm: exception escaped under heap_lock (depth %d)\\n" % depth)
        raise

import sys as _mpvm_sys
_mpvm_version = "%d.%d.%d" % _mpvm_sys.implementation.version[:3]
del _mpvm_sys
`;

const request = JSON.parse(readFileSync(0, "utf8"));
const stdout = [];
const stderr = [];
const mp = await loadMicroPython({
  heapsize: request.heapsize,
  stdout: (bytes) => stdout.push(...bytes),
  stderr: (bytes) => stderr.push(...bytes),
  linebuffer: false,
});

for (const [path, text] of Object.entries(request.files)) {
  mp.FS.mkdirTree(dirname(path));
  mp.FS.writeFile(path, text);
}

mp.runPython(PRELUDE);
const exec = mp.globals.get("_mpvm_exec");
const version = mp.globals.get("_mpvm_version");
mp.globals.delete("_mpvm_exec");
mp.globals.delete("_mpvm_version");

const result = { ok: true, crashed: false, error: null, version };
try {
  exec(request.code, mp.globals.__dict__);
  for (const call of request.calls || []) exec(call, mp.globals.__dict__);
} catch (err) {
  result.ok = false;
  result.error = err.name === "PythonError" ? err.message : `${err.name}: ${err.stack}`;
  result.crashed = err.name !== "PythonError";
}
result.stdout = Buffer.from(stdout).toString("utf8");
result.stderr = Buffer.from(stderr).toString("utf8");
process.stdout.write(JSON.stringify(result));
