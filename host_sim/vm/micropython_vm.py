"""Run code on a real MicroPython VM: the WebAssembly port, under Node (micropython_vm.mjs).

    from host_sim.vm.micropython_vm import run
    assert run("from spit.keys import button_name; print(button_name(9))") == "P2 C2\\n"

Every call starts a fresh VM with all of ``firmware/`` (its .py and .json files) copied
under ``/lib``, which is on the VM's ``sys.path``, so firmware imports as on the device.

Facts about this VM (package 1.27.0): it has framebuf, array, struct, json, asyncio, os
(an in-memory filesystem), micropython.heap_lock/heap_unlock/schedule (schedule queue
depth 4; rp2 has 8), gc.mem_alloc, and time.ticks_* with the device's 2**30 wrap
(ticks_add refuses a delta outside -2**29 < delta < 2**29; give ticks functions values
below 2**30, larger ones are not small ints there and give nonsense). It has no machine
module, no micropython.alloc_emergency_exception_buf, no native emitter (a module using
@micropython.native or @micropython.viper is a SyntaxError here), no contextlib, no
builtin TimeoutError (asyncio.TimeoutError exists), and zip() takes no strict=.
time.ticks_us() advances in whole milliseconds. The heap grows on demand, so measure
memory with gc.mem_alloc() rather than by running out.
"""

import json
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIRMWARE = os.path.join(REPO, "firmware")
RUNNER = os.path.join(HERE, "micropython_vm.mjs")
VM_LIB = "/lib"
TIMEOUT_S = 300

# Counted here, not in the fixture, so runs made by helpers count too (conftest reports them).
runs = 0
version = None

_firmware_paths = None
# The runner's own frame, which sits above the script's in every traceback.
_RUNNER_FRAME = re.compile(r'^  File "<stdin>", line \d+, in _mpvm_exec\n', re.MULTILINE)


class MicroPythonError(AssertionError):
    """The code raised inside the VM; the message holds MicroPython's traceback."""


class VMFailure(RuntimeError):
    """The VM could not run the code at all: no Node, no node_modules, a crash, a timeout."""


def firmware_files():
    """Map each firmware file's VM path (under /lib) to its host path; cached for the session."""
    global _firmware_paths
    if _firmware_paths is None:
        paths = {}
        for folder, dirs, names in os.walk(FIRMWARE):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith((".py", ".json")):
                    host = os.path.join(folder, name)
                    rel = os.path.relpath(host, FIRMWARE).replace(os.sep, "/")
                    paths[VM_LIB + "/" + rel] = host
        _firmware_paths = paths
    return _firmware_paths


def run(code, *, heap_kib=1024, files=None, calls=(), timeout_s=TIMEOUT_S):
    """Run ``code`` as ``__main__`` in a fresh VM and return everything it printed.

    ``files`` maps absolute VM paths to text, written after the firmware (so it may
    replace a firmware file). Each string in ``calls`` then runs as a top-level call
    of its own in the same globals: this port collects garbage only between such
    calls, so heap measurements step through them. Raises MicroPythonError if the
    code raises.
    """
    global runs, version
    vm_files = {}
    for vm_path, host in firmware_files().items():
        with open(host, encoding="utf-8") as f:
            vm_files[vm_path] = f.read()
    for vm_path, text in (files or {}).items():
        if not vm_path.startswith("/"):
            raise ValueError("VM paths are absolute: %r" % vm_path)
        vm_files[vm_path] = text
    request = json.dumps(
        {"code": code, "calls": list(calls), "files": vm_files, "heapsize": heap_kib * 1024}
    )

    node = shutil.which("node")
    if node is None:
        raise VMFailure("node is not on PATH; the MicroPython VM runs under Node")
    try:
        proc = subprocess.run(
            [node, RUNNER],
            input=request,
            capture_output=True,
            text=True,
            encoding="utf-8",
            cwd=REPO,
            timeout=timeout_s,
        )
    except subprocess.TimeoutExpired as exc:
        raise VMFailure("MicroPython VM run took over %s s" % timeout_s) from exc
    runs += 1
    try:
        result = json.loads(proc.stdout)
    except ValueError:
        hint = ""
        if "ERR_MODULE_NOT_FOUND" in proc.stderr:
            hint = "\n(node_modules missing? `make test` and `make bench` run `npm ci`)"
        raise VMFailure(
            "MicroPython VM runner failed (exit %d):\n%s%s%s"
            % (proc.returncode, proc.stdout, proc.stderr, hint)
        ) from None
    version = result["version"]
    if result["ok"]:
        return result["stdout"]
    report = _RUNNER_FRAME.sub("", result["error"])
    for label in ("stdout", "stderr"):
        if result[label]:
            report += "\n--- VM %s ---\n%s" % (label, result[label])
    if result["crashed"]:
        raise VMFailure("MicroPython VM crashed: " + report)
    raise MicroPythonError(report)
