"""A cycle-counting model of one RP2040 PIO state machine, and a fake ``rp2`` around it.

Enough of the PIO to run ``drivers.pio_capture`` on CPython. ``asm_pio`` assembles as
MicroPython 1.28's ``rp2.asm_pio`` does (``ports/rp2/modules/rp2.py``): 16-bit
instruction words with the RP2040 datasheet's encodings, two passes for forward labels,
and the nine-field list it returns since 1.26 (the program, load offsets for PIO0, PIO1
and PIO2, EXECCTRL, SHIFTCTRL, then out, set and side-set pin settings). ``Machine``
then decodes and runs those words, reading EXECCTRL and SHIFTCTRL at the datasheet's
bit positions (EXECCTRL wrap bottom bits 7-11, wrap top 12-16, STATUS_SEL bit 4,
STATUS_N bits 0-3; SHIFTCTRL autopush bit 16, IN_SHIFTDIR 18, PUSH_THRESH 20-24, FJOIN
30-31): what the firmware patches into the list is what the machine runs. An autopush
into a full FIFO raises ``Stalled``: the real machine would stop and its counter with it.

``install()`` puts a fake ``rp2`` module in ``sys.modules``: ``StateMachine`` runs a
``Machine`` whose inputs come from ``rp2.levels(cycle)``, and ``PIO.irq`` records the
handler so that ``rp2.run`` can call it, level-triggered, while the RX FIFO is not empty.
"""

import sys
import types
from array import array
from collections import deque

MASK = 0xFFFFFFFF

# asm_pio's fields, as MicroPython >= 1.26 returns them.
PROG_DATA = 0
PROG_EXECCTRL = 4
PROG_SHIFTCTRL = 5
PROG_FIELDS = 9

# Operand values of MicroPython's assembler (its _pio_funcs).
OPERANDS = {
    "gpio": 0, "pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "status": 5,
    "isr": 6, "osr": 7, "exec": 8, "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4,
    "x_not_y": 5, "pin": 6, "not_osre": 7, "noblock": 0x01, "block": 0x21,
}  # fmt: skip


class Stalled(AssertionError):
    pass


class Emitter:
    """Builds the program words, as MicroPython's PIOASMEmit does for what this uses."""

    def __init__(self, in_shiftdir, autopush, push_thresh, fifo_join):
        shiftctrl = (
            fifo_join << 30 | (push_thresh & 0x1F) << 20 | in_shiftdir << 18 | autopush << 16
        )
        self.prog = [array("H"), -1, -1, -1, 0, shiftctrl, None, None, None]
        self.labels = {}
        self.wrap_used = False
        self.pass_ = 0
        self.num_instr = 0

    def names(self):
        names = dict(OPERANDS)
        names.update(
            invert=lambda src: src | 0x08,
            reverse=lambda src: src | 0x10,
            wrap_target=self.wrap_target,
            wrap=self.wrap,
            label=self.label,
            jmp=self.jmp,
            mov=self.mov,
            in_=self.in_,
            set=self.set,
            nop=self.nop,
        )
        return names

    def start_pass(self, pass_):
        if pass_ == 1 and not self.wrap_used and self.num_instr:
            self.wrap()
        self.pass_ = pass_
        self.num_instr = 0

    def __getitem__(self, delay):
        if self.pass_ > 0:
            assert delay <= 31, "delay too large"
            self.prog[PROG_DATA][-1] |= delay << 8
        return self

    def wrap_target(self):
        self.prog[PROG_EXECCTRL] |= self.num_instr << 7

    def wrap(self):
        self.prog[PROG_EXECCTRL] |= (self.num_instr - 1) << 12
        self.wrap_used = True

    def label(self, name):
        if self.pass_ == 0:
            self.labels[name] = self.num_instr

    def word(self, instr, label=None):
        self.num_instr += 1
        if self.pass_ > 0:
            address = label if label is None or isinstance(label, int) else self.labels[label]
            self.prog[PROG_DATA].append(instr | (address or 0))
        return self

    def jmp(self, cond, label=None):
        if label is None:
            cond, label = 0, cond
        return self.word(cond << 5, label)

    def mov(self, dest, src):
        return self.word(0xA000 | (4 if dest == 8 else dest) << 5 | src)

    def in_(self, src, bits):
        assert 0 < bits <= 32
        return self.word(0x4000 | src << 5 | bits & 0x1F)

    def set(self, dest, data):
        return self.word(0xE000 | dest << 5 | data)

    def nop(self):
        return self.word(0xA042)


def asm_pio(in_shiftdir=0, autopush=False, push_thresh=32, fifo_join=0, **unused):
    emit = Emitter(in_shiftdir, int(autopush), push_thresh, fifo_join)

    def assemble(function):
        names = emit.names()
        scope = function.__globals__
        saved = {name: scope[name] for name in names if name in scope}
        try:
            scope.update(names)
            for pass_ in (0, 1):
                emit.start_pass(pass_)
                function()
        finally:
            for name in names:
                scope.pop(name, None)
            scope.update(saved)
        return emit.prog

    return assemble


def encode(text):
    """One instruction word from its text, as ``StateMachine.exec`` assembles it."""
    emit = Emitter(0, 0, 32, 0)
    emit.pass_ = 1
    exec(text, emit.names())
    (word,) = emit.prog[PROG_DATA]
    return word


class Machine:
    """One state machine, one instruction (plus its delay) per ``step``."""

    def __init__(self, program, levels):
        assert len(program) == PROG_FIELDS, "MicroPython >= 1.26 returns nine fields"
        self.code = list(program[PROG_DATA])
        execctrl = program[PROG_EXECCTRL]
        shiftctrl = program[PROG_SHIFTCTRL]
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
        word = self.code[self.pc]
        self.pc_cycles.setdefault(self.pc, []).append(self.cycle)
        self.pc = self.execute(word)
        self.cycle += 1 + (word >> 8 & 31)

    def execute(self, word):
        """Run one instruction word; returns the next pc."""
        following = self.wrap_bottom if self.pc == self.wrap_top else self.pc + 1
        op = word >> 13
        field = word >> 5 & 7
        low = word & 31
        if op == 0:  # jmp
            return low if self._condition(field) else following
        if op == 5:  # mov
            self._write(field, self._mov_source(word & 0x1F))
        elif op == 2:  # in
            self._shift_in(self._read(field), low or 32)
        elif op == 7:  # set
            self._write(field, low)
        else:
            raise NotImplementedError("instruction 0x%04x" % word)
        return following

    def _condition(self, condition):
        if condition == 0:
            return True
        if condition == 1:
            return self.x == 0
        if condition == 4:
            taken = self.y != 0
            self.y = (self.y - 1) & MASK
            return taken
        if condition == 5:
            return self.x != self.y
        raise NotImplementedError("jmp condition %d" % condition)

    def _mov_source(self, bits):
        value = self._read(bits & 7)
        operation = bits >> 3
        if operation == 1:
            return ~value & MASK
        if operation == 2:
            return int(f"{value:032b}"[::-1], 2)
        return value

    def _read(self, source):
        if source == 0:
            return self.levels(self.cycle) & MASK
        if source == 3:
            return 0
        if source == 5:
            assert self.status_rx, "status must test the RX FIFO"
            return MASK if len(self.fifo) < self.status_n else 0
        return getattr(self, {1: "x", 2: "y", 6: "isr", 7: "osr"}[source])

    def _write(self, destination, value):
        name = {1: "x", 2: "y", 6: "isr", 7: "osr"}[destination]
        setattr(self, name, value & MASK)
        if name == "isr":
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
        self.machine.execute(encode(text))

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


class FakeDMA:
    """A claimed DMA channel. On the host the display never starts one: its DMA path is
    viper code, which the host has no emitter for."""

    claimed = 0

    def __init__(self):
        self.channel = FakeDMA.claimed % 12
        FakeDMA.claimed += 1


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
    rp2.DMA = FakeDMA
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
