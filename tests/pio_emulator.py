"""A cycle-counting model of one RP2040 PIO state machine, and a fake ``rp2`` around it.

Enough of the PIO to run ``drivers.pio_capture`` on CPython: the instructions that
program uses (jmp, mov, in, set, nop), delays, wrap, autopush, the joined RX FIFO and
``mov x, status``, with the register layouts of the RP2040 datasheet (EXECCTRL wrap
bottom bits 7-11, wrap top 12-16, STATUS_SEL bit 4, STATUS_N bits 0-3; SHIFTCTRL
autopush bit 16, IN_SHIFTDIR 18, PUSH_THRESH 20-24, FJOIN 30-31). An autopush into a
full FIFO raises ``Stalled``: the real machine would stop and its counter with it.

``install()`` puts a fake ``rp2`` module in ``sys.modules``: ``asm_pio`` assembles into
``Instr`` objects, ``StateMachine`` runs a ``Machine`` whose inputs come from
``rp2.levels(cycle)``, and ``PIO.irq`` records the handler so that ``rp2.run`` can call
it, level-triggered, while the RX FIFO is not empty.
"""

import sys
import types
from collections import deque

MASK = 0xFFFFFFFF


class Stalled(AssertionError):
    pass


class Instr:
    def __init__(self, op, *args):
        self.op = op
        self.args = args
        self.delay = 0

    def __getitem__(self, delay):
        self.delay = delay
        return self

    def __repr__(self):
        return "%s%r[%d]" % (self.op, self.args, self.delay)


class Assembler:
    """Collects a program written with MicroPython's PIO assembler names."""

    OPERANDS = {
        "pins": "pins", "x": "x", "y": "y", "null": "null", "isr": "isr", "osr": "osr",
        "status": "status", "pc": "pc", "y_dec": "y--", "x_dec": "x--", "not_x": "!x",
        "not_y": "!y", "x_not_y": "x!=y", "noblock": "noblock", "block": "block",
    }  # fmt: skip

    def __init__(self):
        self.code = []
        self.labels = {}
        self.wrap_target = 0
        self.wrap_top = None

    def names(self):
        names = dict(self.OPERANDS)
        names.update(
            invert=lambda src: ("invert", src),
            reverse=lambda src: ("reverse", src),
            wrap_target=self._wrap_target,
            wrap=self._wrap,
            label=self._label,
        )
        for op in ("jmp", "mov", "in_", "set", "nop", "push", "pull", "out", "irq", "wait"):
            names[op] = self._emitter(op.rstrip("_"))
        return names

    def _emitter(self, op):
        def emit(*args):
            instr = Instr(op, *args)
            self.code.append(instr)
            return instr

        return emit

    def _wrap_target(self):
        self.wrap_target = len(self.code)

    def _wrap(self):
        self.wrap_top = len(self.code) - 1

    def _label(self, name):
        self.labels[name] = len(self.code)


def asm_pio(in_shiftdir=0, autopush=False, push_thresh=32, fifo_join=0, **unused):
    def assemble(function):
        asm = Assembler()
        names = asm.names()
        scope = function.__globals__
        saved = {name: scope[name] for name in names if name in scope}
        scope.update(names)
        try:
            function()
        finally:
            for name in names:
                scope.pop(name, None)
            scope.update(saved)
        top = len(asm.code) - 1 if asm.wrap_top is None else asm.wrap_top
        execctrl = asm.wrap_target << 7 | top << 12
        shiftctrl = fifo_join << 30 | (push_thresh & 31) << 20 | in_shiftdir << 18
        shiftctrl |= int(autopush) << 16
        return [(asm.code, asm.labels), -1, -1, execctrl, shiftctrl, None, None, None]

    return assemble


class Machine:
    """One state machine, one instruction (plus its delay) per ``step``."""

    def __init__(self, program, levels):
        (self.code, self.labels), _, _, execctrl, shiftctrl = program[:5]
        self.wrap_bottom = execctrl >> 7 & 31
        self.wrap_top = execctrl >> 12 & 31
        self.status_rx = execctrl >> 4 & 1
        self.status_n = execctrl & 15
        self.in_right = shiftctrl >> 18 & 1
        self.autopush = shiftctrl >> 16 & 1
        self.push_thresh = shiftctrl >> 20 & 31 or 32
        self.depth = 8 if shiftctrl >> 30 == 2 else 4
        self.levels = levels
        self.x = self.y = self.isr = self.osr = 0
        self.isr_count = 0
        self.pc = 0
        self.cycle = 0
        self.fifo = deque()
        self.pushed = []  # every word pushed, in order
        self.pc_cycles = {}  # pc -> cycles at which it ran, for the timing tests

    def step(self):
        instr = self.code[self.pc]
        self.pc_cycles.setdefault(self.pc, []).append(self.cycle)
        self.pc = self.execute(instr)
        self.cycle += 1 + instr.delay

    def execute(self, instr):
        """Run one instruction; returns the next pc."""
        following = self.wrap_bottom if self.pc == self.wrap_top else self.pc + 1
        if instr.op == "jmp":
            condition, label = instr.args if len(instr.args) == 2 else (None, instr.args[0])
            return self.labels[label] if self._condition(condition) else following
        if instr.op == "mov":
            self._write(instr.args[0], self._read(instr.args[1]))
        elif instr.op == "in":
            self._shift_in(self._read(instr.args[0]), instr.args[1])
        elif instr.op == "set":
            self._write(instr.args[0], instr.args[1])
        elif instr.op != "nop":
            raise NotImplementedError(instr.op)
        return following

    def _condition(self, condition):
        if condition is None:
            return True
        if condition == "y--":
            taken = self.y != 0
            self.y = (self.y - 1) & MASK
            return taken
        if condition == "x!=y":
            return self.x != self.y
        if condition == "!x":
            return self.x == 0
        raise NotImplementedError(condition)

    def _read(self, source):
        if isinstance(source, tuple):
            operation, inner = source
            value = self._read(inner)
            if operation == "invert":
                return ~value & MASK
            return int(f"{value:032b}"[::-1], 2)
        if source == "pins":
            return self.levels(self.cycle) & MASK
        if source == "null":
            return 0
        if source == "status":
            assert self.status_rx, "status must test the RX FIFO"
            return MASK if len(self.fifo) < self.status_n else 0
        return getattr(self, source)

    def _write(self, destination, value):
        setattr(self, destination, value & MASK)
        if destination == "isr":
            self.isr_count = 0

    def _shift_in(self, value, bits):
        data = value & ((1 << bits) - 1)
        if bits == 32:
            self.isr = data
        elif self.in_right:
            self.isr = (self.isr >> bits | data << (32 - bits)) & MASK
        else:
            self.isr = (self.isr << bits | data) & MASK
        self.isr_count = min(32, self.isr_count + bits)
        if self.autopush and self.isr_count >= self.push_thresh:
            if len(self.fifo) >= self.depth:
                raise Stalled("autopush into a full RX FIFO at cycle %d" % self.cycle)
            self.fifo.append(self.isr)
            self.pushed.append(self.isr)
            self.isr = 0
            self.isr_count = 0


class FakeStateMachine:
    def __init__(self, rp2, sm_id, program, freq=-1, *, in_base=None, **unused):
        assert in_base is not None and in_base.id == 0, "buttons are GPIO 0-15"
        self.rp2 = rp2
        self.id = sm_id
        self.machine = Machine(program, lambda cycle: rp2.levels(cycle))
        self.running = False
        rp2.machines.append(self)

    def exec(self, text):
        asm = Assembler()
        exec(text, asm.names())
        self.machine.execute(asm.code[0])

    def active(self, value):
        self.running = bool(value)

    def rx_fifo(self):
        return len(self.machine.fifo)

    def get(self):
        while not self.machine.fifo:
            self.machine.step()
        return self.machine.fifo.popleft()


class FakePIO:
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2

    def __init__(self, rp2, block):
        self.rp2 = rp2
        self.block = block

    def irq(self, handler=None, trigger=0xF00, hard=False):
        self.rp2.irq_handlers[self.block] = (handler, trigger, hard)


def install(levels=lambda cycle: 0xFFFFFFFF):
    """Put a fake ``rp2`` in ``sys.modules`` and return it; set ``rp2.levels`` to drive pins."""
    rp2 = types.ModuleType("rp2")
    rp2.levels = levels
    rp2.machines = []
    rp2.irq_handlers = {}
    rp2.asm_pio = asm_pio
    rp2.PIO = lambda block: FakePIO(rp2, block)
    for name in ("SHIFT_LEFT", "SHIFT_RIGHT", "JOIN_NONE", "JOIN_TX", "JOIN_RX"):
        setattr(rp2.PIO, name, getattr(FakePIO, name))
    rp2.StateMachine = lambda *args, **kwargs: FakeStateMachine(rp2, *args, **kwargs)
    rp2.run = lambda until, irq=True: run(rp2, until, irq)
    sys.modules["rp2"] = rp2
    return rp2


def run(rp2, until, irq=True):
    """Run every active machine to cycle ``until``; with ``irq``, call the FIFO handler
    between instructions whenever its machine's RX FIFO is not empty (RXNEMPTY bits)."""
    for sm in rp2.machines:
        machine = sm.machine
        handler, trigger, hard = rp2.irq_handlers.get(sm.id >> 2, (None, 0, False))
        wants_fifo = handler is not None and trigger & (1 << (sm.id & 3))
        while sm.running and machine.cycle < until:
            machine.step()
            if irq and wants_fifo and machine.fifo:
                assert hard
                handler(None)
