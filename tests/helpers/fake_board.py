"""A fake Pico for ``host_sim.board``: its filesystem lives here, its code runs on MicroPython.

Every ``run(code)`` starts the MicroPython VM, lays the board's files out in the VM's
filesystem, runs the code and reads the filesystem back, so the flash tool's board
scripts meet real MicroPython (``os``, ``hashlib``, imports of ``.mpy`` files). The VM
lacks ``machine`` and ``rp2``, which a board has built in, so stand-ins go on its path:
``machine`` answers any name and any use, ``rp2.asm_pio`` returns a list shaped like
MicroPython 1.28's without assembling. ``info()`` answers what a real board's probe would;
``read`` and ``write`` move whole files over the wire, as mpremote's do.
"""

import json

from host_sim.board.errors import BoardError
from host_sim.vm import micropython_vm

# MicroPython 1.28 on a Pico: .mpy 6.3, native code armv6m (4).
PICO_MPY = 6 | 3 << 8 | 4 << 10
PICO_MACHINE = "Raspberry Pi Pico with RP2040"

_VM_DIRS = ("/lib", "/tmp", "/home", "/dev", "/proc", "/hw", "/wire")
_MARK = "--- fake board filesystem ---"
_ANYTHING = """\
class _Any:
    def __init__(self, *args, **kwargs):
        pass
    def __call__(self, *args, **kwargs):
        return _Any()
    def __getattr__(self, name):
        return _Any()
def __getattr__(name):
    return _Any()
"""
_RP2 = """\
class PIO:
    SHIFT_LEFT = SHIFT_RIGHT = JOIN_NONE = JOIN_TX = JOIN_RX = 0
    IN_LOW = IN_HIGH = OUT_LOW = OUT_HIGH = 0
    def __init__(self, block):
        pass
class StateMachine:
    def __init__(self, *args, **kwargs):
        pass
def asm_pio(**settings):
    def assemble(program):
        return [[], -1, -1, -1, 0, 0, None, None, None]
    return assemble
"""
_PRELUDE = """\
import os as _fb_os, sys as _fb_sys, binascii as _fb_b
for _fb_d in %r:
    _fb_os.mkdir(_fb_d)
for _fb_p, _fb_wire in %r:
    _fb_f = open(_fb_p, 'wb')
    _fb_f.write(_fb_b.unhexlify(open(_fb_wire).read()))
    _fb_f.close()
_fb_sys.path.append('/hw')
_fb_error = ''
try:
    exec(%r)
except Exception as _fb_e:
    import io as _fb_io
    _fb_text = _fb_io.StringIO()
    _fb_sys.print_exception(_fb_e, _fb_text)
    _fb_error = _fb_text.getvalue()
"""
_EPILOGUE = """
def _fb_walk(d, dirs, files):
    for n in _fb_os.listdir(d):
        p = d.rstrip('/') + '/' + n
        if p in %r:
            continue
        if _fb_os.stat(p)[0] & 0x4000:
            dirs.append(p)
            _fb_walk(p, dirs, files)
        else:
            f = open(p, 'rb')
            files[p] = _fb_b.hexlify(f.read()).decode()
            f.close()
_fb_dirs, _fb_files = [], {}
_fb_walk('/', _fb_dirs, _fb_files)
import json as _fb_json
print(%r)
print(_fb_json.dumps([_fb_dirs, _fb_files, _fb_error]))
"""


class FakeBoard:
    """Constructor: ``FakeBoard(files, version=(1, 28, 0), mpy=PICO_MPY, platform="rp2")``,
    ``files`` mapping absolute board paths to bytes. Attributes: ``files``, ``dirs``,
    ``resets``, ``soft_resets``, ``writes`` (paths written over the wire)."""

    def __init__(self, files=(), version=(1, 28, 0), mpy=PICO_MPY, platform="rp2",
                 machine=PICO_MACHINE, free=1_400_000):
        self.files = dict(files)
        self.dirs = set()
        for path in self.files:
            self._add_parents(path)
        self._info = {"version": version, "mpy": mpy, "platform": platform,
                      "machine": machine, "free": free}
        self.resets = 0
        self.soft_resets = 0
        self.writes = []

    def _add_parents(self, path):
        parts = path.split("/")[1:-1]
        for depth in range(1, len(parts) + 1):
            self.dirs.add("/" + "/".join(parts[:depth]))

    def info(self):
        return dict(self._info)

    def run(self, code):
        # Bytes travel as hex text files (the VM takes text) under /wire.
        dirs = sorted(self.dirs, key=lambda d: d.count("/"))
        wire = {"/hw/machine.py": _ANYTHING, "/hw/rp2.py": _RP2}
        placed = []
        for number, (path, data) in enumerate(sorted(self.files.items())):
            wire["/wire/%d" % number] = data.hex()
            placed.append((path, "/wire/%d" % number))
        # Like a board, the filesystem keeps whatever the code did before it raised.
        script = _PRELUDE % (dirs, placed, code) + _EPILOGUE % (list(_VM_DIRS), _MARK)
        output = micropython_vm.run(script, files=wire)
        printed, _, state = output.rpartition(_MARK + "\n")
        new_dirs, new_files, error = json.loads(state)
        self.dirs = set(new_dirs)
        self.files = {p: bytes.fromhex(data) for p, data in new_files.items()}
        if error:
            raise BoardError(error)
        return printed

    def read(self, path):
        if path not in self.files:
            raise OSError(2, "no such file: %s" % path)
        return self.files[path]

    def write(self, path, data):
        parent = path.rsplit("/", 1)[0]
        if parent and parent not in self.dirs:
            raise OSError(2, "no such directory: %s" % parent)
        self.files[path] = bytes(data)
        self.writes.append(path)

    def soft_reset(self):
        self.soft_resets += 1

    def reset(self):
        self.resets += 1
