"""Which firmware functions take their frame from the heap at every call on the Pico.

MicroPython runs a bytecode function with its state on the C stack when the state fits
in 11 words (``VM_MAX_STATE_ON_STACK`` in ``py/objfun.c``): one word for each local and
for each slot of its value stack, three for each ``try`` open at once (an
``except ... as`` keeps two open while its handler runs). A larger state is allocated on
the heap at every call and freed on return, and that allocation searches the heap from
its lowest free block: 25 µs to 0.6 ms a call on the emulated Pico, depending on how the
heap lies. Functions that run every pass must fit.

``frames(text)`` compiles a module with ``mpy-cross`` as ``make flash`` does and reads each
bytecode function's state size out of its prelude, the header MicroPython decodes at
every call (``MP_BC_PRELUDE_SIG_DECODE_INTO`` in ``py/bc.h``). Functions are named by
their place in the source: ``Class.method``, ``function.<listcomp>``.

``python -m host_sim.bench.heap_frames [firmware file ...]`` lists the functions whose frame comes
from the heap.
"""

import ast
import os
import sys

from host_sim.emu.fs_image import compiled, firmware_sources
from host_sim.vm.micropython_vm import FIRMWARE

STACK_STATE_BYTES = 11 * 4  # VM_MAX_STATE_ON_STACK on a 32-bit port
_WORD = 4
_EXC_ENTRY = 3 * _WORD  # mp_exc_stack_t: handler, value stack pointer, previous exception
_BYTECODE = 2
_NATIVE_PY = 3
_NATIVE_VIPER = 4
_VIPER_RELOC = 0x10
_VIPER_RODATA = 0x20
_VIPER_BSS = 0x40
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
_NO_PAYLOAD = (0, 1, 2, 3, 4)  # fun table, None, False, True, Ellipsis
_TUPLE = 10
_STR, _BYTES = 5, 6


class Frame:
    """One function's state: ``name``, ``n_state`` words, ``n_exc_stack`` nested
    ``try`` entries and ``bytes``; ``on_heap`` when MicroPython allocates it per call."""

    def __init__(self, name, n_state, n_exc_stack):
        self.name = name
        self.n_state = n_state
        self.n_exc_stack = n_exc_stack
        self.bytes = n_state * _WORD + n_exc_stack * _EXC_ENTRY
        self.on_heap = self.bytes > STACK_STATE_BYTES

    def __repr__(self):
        return "%s: %d words + %d try = %d bytes%s" % (
            self.name,
            self.n_state,
            self.n_exc_stack,
            self.bytes,
            " (heap)" if self.on_heap else "",
        )


class _Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def byte(self):
        self.at += 1
        return self.data[self.at - 1]

    def take(self, n):
        self.at += n
        return self.data[self.at - n : self.at]

    def uint(self):
        value = 0
        while True:
            b = self.byte()
            value = value << 7 | b & 0x7F
            if not b & 0x80:
                return value


def _signature(code):
    """``(n_state, n_exc_stack, n_pos_args)`` from a bytecode prelude."""
    z = code[0]
    n_state = z >> 3 & 0xF
    n_exc = z >> 2 & 1
    n_pos = z & 3
    at = 1
    n = 0
    while z & 0x80:
        z = code[at]
        at += 1
        n_state |= (z & 0x30) << 2 * n
        n_exc |= (z & 0x02) << n
        n_pos |= (z & 0x04) << n
        n += 1
    return n_state + 1, n_exc, n_pos


def _skip_object(reader):
    kind = reader.byte()
    if kind in _NO_PAYLOAD:
        return
    if kind == _TUPLE:
        for _ in range(reader.uint()):
            _skip_object(reader)
        return
    reader.take(reader.uint())
    if kind in (_STR, _BYTES):
        reader.byte()  # the terminating zero


def _raw_code(reader):
    """``(kind, code, children)`` of one compiled function and those inside it."""
    kind_len = reader.uint()
    kind = (kind_len & 3) + _BYTECODE
    code = reader.take(kind_len >> 3)
    if kind == _NATIVE_PY:
        reader.uint()  # the prelude's offset
    elif kind != _BYTECODE:
        flags = reader.uint()
        if kind == _NATIVE_VIPER:
            rodata = reader.uint() if flags & _VIPER_RODATA else 0
            if flags & _VIPER_BSS:
                reader.uint()
            reader.take(rodata)
            if flags & _VIPER_RELOC:
                _skip_relocations(reader)
        else:
            reader.uint()
            reader.uint()
    children = []
    if kind_len >> 2 & 1:
        children = [_raw_code(reader) for _ in range(reader.uint())]
    return kind, code, children


def _skip_relocations(reader):
    while True:
        op = reader.byte()
        if op == 0xFF:
            return
        if op & 1:
            reader.uint()
        op >>= 1
        if op <= 5 and op & 1:
            reader.uint()


def _scopes(node):
    """The scopes directly inside ``node`` (not inside those), in source order."""
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _SCOPES):
            found.append(child)
        else:
            found.extend(_scopes(child))
    return found


def _inner(scope):
    """The scopes compiled as children of ``scope``: a function's or a class's come
    from its body (its decorators and defaults run in the enclosing scope)."""
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return _scopes(scope)
    found = []
    for statement in scope.body:
        found.extend([statement] if isinstance(statement, _SCOPES) else _scopes(statement))
    return found


def _scope_name(scope):
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return scope.name
    return "<%s>" % type(scope).__name__.lower()


def _walk(raw, scope, prefix, out):
    kind, code, children = raw
    inner = _inner(scope)
    if len(inner) != len(children):
        raise ValueError(
            "%s: %d scopes in the source, %d compiled" % (prefix, len(inner), len(children))
        )
    for child_scope, child in zip(inner, children, strict=True):
        name = _scope_name(child_scope)
        qualified = prefix + "." + name if prefix else name
        if child[0] == _BYTECODE and not isinstance(child_scope, ast.ClassDef):
            n_state, n_exc, n_pos = _signature(child[1])
            if isinstance(child_scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                expected = len(child_scope.args.posonlyargs) + len(child_scope.args.args)
                if n_pos < expected:  # a closure's cells come as arguments too
                    raise ValueError(
                        "%s: %d arguments compiled, %d in the source"
                        % (qualified, n_pos, expected)
                    )
            out.append(Frame(qualified, n_state, n_exc))
        _walk(child, child_scope, qualified, out)


def frames(text, name="module"):
    """Every bytecode function of a module's source ``text``, as ``Frame``s."""
    reader = _Reader(compiled(name, text))
    header = reader.take(4)
    if header[:1] != b"M" or header[1] != 6:
        raise ValueError("not a version 6 .mpy file")
    n_qstr = reader.uint()
    n_obj = reader.uint()
    for _ in range(n_qstr):
        length = reader.uint()
        if not length & 1:  # an odd length names a qstr built into the firmware
            reader.take((length >> 1) + 1)
    for _ in range(n_obj):
        _skip_object(reader)
    out = []
    _walk(_raw_code(reader), ast.parse(text), "", out)
    return out


def firmware_frames(source):
    """The ``Frame``s of a firmware file, its path relative to ``firmware/``."""
    with open(os.path.join(FIRMWARE, source)) as f:
        return frames(f.read(), os.path.splitext(os.path.basename(source))[0])


if __name__ == "__main__":
    for source in sys.argv[1:] or firmware_sources():
        for frame in firmware_frames(source):
            if frame.on_heap:
                print("%s: %r" % (source, frame))
