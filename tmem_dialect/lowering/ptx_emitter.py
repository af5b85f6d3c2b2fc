"""Emit a PTX module from NVVM-level MLIR (llvm.func kernels of llvm/nvvm ops), in LLVM NVPTX's style.

Every SSA value maps to PTX operands, one per vector element: a virtual register, an immediate,
a foldable address (`[symbol+offset]`) or nothing (poison). Constants and addresses are folded
into the instructions that accept them and moved into a register, at their definition, only
when some use needs one. Block arguments are registers assigned on each incoming edge (a
parallel copy). Registers are numbered in order of first appearance, so output is deterministic.

This module is the emitter's core: the module and .entry framing, kernel parameters, operands and
registers, and the walk over blocks. Each op family's instructions come from its own module
(ptx_arith, ptx_memory, ptx_branches, ptx_nvvm, ptx_async, ptx_tma, ptx_cluster, ptx_warp), whose handlers
take the function emitter and one op.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.block_order import region_order
from tmem_dialect.conventions import (
    GLOBAL_ADDRESS_SPACE,
    NVVM_CLUSTER_DIM_ATTR,
    NVVM_KERNEL_ATTR,
    NVVM_REQNTID_ATTR,
    PARAM_ADDRESS_SPACE,
    SHARED_ADDRESS_SPACE,
    integer_list,
    pointer_address_space,
)
from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, error, op_name
from tmem_dialect.lowering.ptx_arith import ARITH_HANDLERS
from tmem_dialect.lowering.ptx_async import ASYNC_HANDLERS
from tmem_dialect.lowering.ptx_branches import BRANCH_HANDLERS
from tmem_dialect.lowering.ptx_calls import CALL_HANDLERS, prototype
from tmem_dialect.lowering.ptx_cluster import CLUSTER_HANDLERS
from tmem_dialect.lowering.ptx_memory import MEMORY_HANDLERS
from tmem_dialect.lowering.ptx_nvvm import NVVM_HANDLERS
from tmem_dialect.lowering.ptx_switch import SWITCH_HANDLERS
from tmem_dialect.lowering.ptx_values import (
    Address,
    Imm,
    Operand,
    Reg,
    RegClass,
    Unsupported,
    byte_size,
    byval_layout,
    element_count,
    register_class,
    scalar_bits,
)
from tmem_dialect.lowering.ptx_warp import WARP_HANDLERS

# Kernel parameter types and their .param declarations (i1 travels as a byte, as LLVM does).
PARAM_TYPES = {
    "i1": ".u8", "i16": ".b16", "i32": ".b32", "i64": ".b64",
    "f16": ".b16", "f32": ".b32", "f64": ".b64",
}  # fmt: skip

# Function attributes that become performance-tuning directives after the .entry signature.
TUNING_DIRECTIVES = {
    NVVM_REQNTID_ATTR: ".reqntid",
    "nvvm.maxntid": ".maxntid",
    "nvvm.minctasm": ".minnctapersm",
    "nvvm.maxnreg": ".maxnreg",
    NVVM_CLUSTER_DIM_ATTR: ".reqnctapercluster",  # after .explicitcluster
}


_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_$]*|[_$][A-Za-z0-9_$]+")
_REGISTER = re.compile(r"%(rd|rs|r|p)(\d+)\b")


def ptx_identifier(name: str) -> str:
    """A PTX identifier for an MLIR symbol (LLVM NVPTX spells each invalid character `_$_`)."""
    if _IDENTIFIER.fullmatch(name):
        return name
    out = "".join(c if c.isalnum() or c in "_$" else "_$_" for c in name)
    return out if _IDENTIFIER.fullmatch(out) else "_" + out


@dataclass(frozen=True)
class PTXModule:
    """A PTX module's text and, for each line (1-based), the op it came from (None: scaffolding)."""

    text: str
    line_ops: tuple[Operation | None, ...]
    symbol_ops: dict[str, Operation] = field(default_factory=dict[str, Operation])
    """PTX identifier of each kernel and global -> its op (for messages that name a function)."""

    def op_at_line(self, line: int) -> Operation | None:
        return self.line_ops[line - 1] if 0 < line <= len(self.line_ops) else None


def emit_ptx(
    module: ModuleOp, version: tuple[int, int] = isa.DEFAULT_PTX_VERSION, arch: str = isa.DEFAULT_PTX_ARCH
) -> PTXModule:
    """Emit the PTX module; raises DiagnosticError naming every op outside the supported subset."""
    return _ModuleEmitter(module, version, arch).run()


@dataclass
class _Line:
    text: str
    op: Operation | None = None


class _ModuleEmitter:
    def __init__(self, module: ModuleOp, version: tuple[int, int], arch: str):
        self.module = module
        self.version = version
        self.arch = arch
        self.errors: list[Diagnostic] = []
        self.globals: dict[str, llvm.GlobalOp] = {}
        self.identifiers: dict[str, str] = {}

    def symbol(self, name: str) -> str:
        return self.identifiers.setdefault(name, ptx_identifier(name))

    def run(self) -> PTXModule:
        if err := isa.ptx_target_error(self.version, self.arch):
            raise DiagnosticError([error(None, err)])
        if self.version > isa.MAX_PTX_VERSION:
            v = isa.MAX_PTX_VERSION
            raise DiagnosticError(
                [error(None, f"-t ptx: version={self.version[0]}.{self.version[1]} is newer than PTX ISA "
                             f"{v[0]}.{v[1]}, the newest version this target emits")]
            )
        lines = [
            _Line("//"),
            _Line("// Generated by tmem-opt (tmem-dialect): NVVM-level MLIR to PTX"),
            _Line("//"),
            _Line(""),
            _Line(f".version {self.version[0]}.{self.version[1]}"),
            _Line(f".target {self.arch}"),
            _Line(".address_size 64"),
            _Line(""),
        ]
        for op in self.module.ops:
            if isinstance(op, llvm.GlobalOp):
                self.globals[op.sym_name.data] = op
        body: list[_Line] = []
        for op in self.module.ops:
            if isinstance(op, llvm.GlobalOp):
                body.extend(self.emit_global(op))
        # Device functions: a prototype of each first, so calls may precede a body in any order.
        for op in self.module.ops:
            if isinstance(op, llvm.FuncOp) and op.body.blocks and NVVM_KERNEL_ATTR not in op.attributes:
                try:
                    body.append(_Line(prototype(op, self.symbol(op.sym_name.data)) + ";", op))
                except Unsupported as e:
                    self.errors.append(error(op, f"device function @{op.sym_name.data}: {e}"))
        if len(body) and body[-1].op is not None and isinstance(body[-1].op, llvm.FuncOp):
            body.append(_Line(""))
        kernels = 0
        for op in self.module.ops:
            if isinstance(op, llvm.GlobalOp):
                continue
            if isinstance(op, llvm.FuncOp):
                if not op.body.blocks:
                    if NVVM_KERNEL_ATTR not in op.attributes and self._called(op):
                        self.errors.append(error(op, f"llvm.func @{op.sym_name.data} is called but has no body: the "
                                                     "PTX target emits no external declarations"))
                    continue  # a declaration: nothing to emit
                body.extend(_FunctionEmitter(self, op, kernels).run())
                kernels += 1
                continue
            self.errors.append(
                error(op, f"'{op_name(op)}' is not supported by the PTX target at module level{_lower_first_hint(op)}")
            )
        if self.errors:
            raise DiagnosticError(self.errors)
        lines.extend(body)
        symbol_ops: dict[str, Operation] = {}
        for op in self.module.ops:
            if isinstance(op, (llvm.FuncOp, llvm.GlobalOp)) and op.sym_name.data in self.identifiers:
                symbol_ops[self.identifiers[op.sym_name.data]] = op
        return PTXModule(
            "\n".join(line.text for line in lines) + "\n", tuple(l.op for l in lines), symbol_ops
        )

    def _called(self, func: llvm.FuncOp) -> bool:
        name = func.sym_name.data
        return any(isinstance(o, llvm.CallOp) and o.callee is not None and o.callee.root_reference.data == name
                   for o in self.module.walk())

    def emit_global(self, op: llvm.GlobalOp) -> list[_Line]:
        name = op.sym_name.data
        space = op.addr_space.value.data
        if space != SHARED_ADDRESS_SPACE:
            self.errors.append(
                error(op, f"global @{name} is in address space {space}; the PTX target emits only "
                          "shared-memory globals (addr_space = 3)")
            )
            return []
        if op.value is not None or op.body.blocks:
            self.errors.append(error(op, f"shared-memory global @{name} cannot have an initializer in PTX"))
            return []
        size = byte_size(op.global_type)
        if size is None:
            self.errors.append(error(op, f"global @{name} has type {op.global_type}, which has no PTX layout here"))
            return []
        align = op.alignment.value.data if op.alignment is not None else _natural_alignment(op.global_type)
        bits = scalar_bits(op.global_type)
        if size == 0 and op.linkage is not None and op.linkage.linkage.data == "external":
            # `[0 x i8]`, external: the kernel's dynamic shared memory, sized at launch
            decl = f".extern .shared .align {align} .b8 {self.symbol(name)}[];"
        elif bits in (16, 32, 64) and not isinstance(op.global_type, VectorType):
            decl = f".shared .align {align} .b{bits} {self.symbol(name)};"
        else:
            decl = f".shared .align {align} .b8 {self.symbol(name)}[{size}];"
        return [_Line(decl, op), _Line("")]


TCGEN05_LEVEL_DIALECTS = ("tcgen05.", "func.", "arith.", "scf.", "cf.", "memref.", "vector.")


def _lower_first_hint(op: Operation) -> str:
    """For tcgen05-level input: say which pass turns it into what the target reads."""
    if op.name.startswith(TCGEN05_LEVEL_DIALECTS):
        return "; lower the kernel first with -p convert-tcgen05-to-nvvm"
    return ""


def _natural_alignment(t: Attribute) -> int:
    if isinstance(t, llvm.LLVMArrayType):
        return _natural_alignment(t.type)
    if isinstance(t, VectorType):
        return _natural_alignment(t.get_element_type())
    return byte_size(t) or 1


@dataclass
class _FunctionEmitter:
    module: _ModuleEmitter
    func: llvm.FuncOp
    index: int
    values: dict[SSAValue, list[Operand]] = field(default_factory=dict[SSAValue, list[Operand]])
    buckets: dict[Operation, list[str]] = field(default_factory=dict[Operation, list[str]])
    materialized: dict[tuple[SSAValue, int], Reg] = field(default_factory=dict[tuple[SSAValue, int], Reg])
    counters: dict[RegClass, int] = field(default_factory=dict[RegClass, int])
    labels: dict[Block, str] = field(default_factory=dict[Block, str])
    edge_labels: int = 0
    current: list[str] = field(default_factory=list[str])
    next_block: Block | None = None

    # ---- registers and operands ------------------------------------------------------------

    def new_reg(self, cls: RegClass) -> Reg:
        n = self.counters.get(cls, 0) + 1
        self.counters[cls] = n
        return Reg(cls, n)

    def out(self, line: str) -> None:
        self.current.append(line)

    def define(self, value: SSAValue, operands: list[Operand]) -> None:
        self.values[value] = operands

    def fresh(self, value: SSAValue) -> list[Reg]:
        """New registers for every element of `value`, recorded as its definition."""
        cls = self.class_of(value.type)
        regs = [self.new_reg(cls) for _ in range(element_count(value.type))]
        self.define(value, list(regs))
        return regs

    def class_of(self, t: Attribute) -> RegClass:
        cls = register_class(t)
        if cls is None:
            raise Unsupported(f"type {t} has no PTX register class in this target")
        return cls

    def operands(self, value: SSAValue) -> list[Operand]:
        if value not in self.values:
            raise Unsupported("uses a value whose definition was not emitted")
        return self.values[value]

    def operand(self, value: SSAValue, i: int = 0) -> Operand:
        found = self.operands(value)
        if i >= len(found):  # e.g. a vector kernel parameter, already reported at the kernel
            raise Unsupported(f"uses element {i} of a value that has {len(found)} in registers")
        return found[i]

    def reg(self, value: SSAValue, i: int = 0) -> Reg:
        """Element i of `value` in a register, moved there at its definition if it is folded."""
        found = self.operand(value, i)
        if isinstance(found, Reg):
            return found
        key = (value, i)
        if key in self.materialized:
            return self.materialized[key]
        owner = value.owner
        bucket = self.buckets[owner] if isinstance(owner, Operation) and owner in self.buckets else self.current
        reg = self.materialize(found, bucket)
        self.materialized[key] = reg
        return reg

    def materialize(self, operand: Operand, bucket: list[str]) -> Reg:
        if isinstance(operand, Reg):
            return operand
        reg = self.new_reg(operand.cls)
        if isinstance(operand, Imm):
            bucket.append(f"{operand.cls.mov} {reg}, {operand};")
        elif isinstance(operand, Address):
            base = operand.base
            if operand.offset == 0:
                bucket.append(f"{operand.cls.mov} {reg}, {base};")
            elif isinstance(base, str):
                bucket.append(f"{operand.cls.mov} {reg}, {operand};")
            else:
                bucket.append(f"add.s{operand.cls.bits} {reg}, {base}, {operand.offset};")
        # Undef: a register nobody writes, as LLVM leaves an undef value
        return reg

    def reg_or_imm(self, value: SSAValue, i: int = 0) -> Reg | Imm:
        found = self.operand(value, i)
        return found if isinstance(found, Imm) else self.reg(value, i)

    def as_reg(self, operand: Operand) -> Reg:
        """A register for an operand that is not an SSA value's own (materialized at this op)."""
        return self.materialize(operand, self.current)

    def address(self, value: SSAValue) -> str:
        return self.access_address(value, 0)

    def access_address(self, pointer: SSAValue, byte_offset: int) -> str:
        found = self.operand(pointer)
        if isinstance(found, Address):
            address = Address(found.cls, found.base, found.offset + byte_offset)
        else:
            reg = self.reg(pointer)
            address = Address(reg.cls, reg, byte_offset)
        if not -(2**31) <= address.offset < 2**31:
            # The immediate of `[reg+imm]` is 32-bit: a wider offset is added in a register.
            return f"[{self.as_reg(address)}]"
        return f"[{address}]"

    # ---- driver ------------------------------------------------------------------------------

    def run(self) -> list[_Line]:
        func = self.func
        name = self.module.symbol(func.sym_name.data)
        errors_before = len(self.module.errors)
        ftype = func.function_type
        if self.is_kernel and not isinstance(ftype.output, llvm.LLVMVoidType):
            self.fail(func, f"kernel @{func.sym_name.data} returns {ftype.output}; PTX kernels return nothing")
        if ftype.is_variadic:
            self.fail(func, f"kernel @{func.sym_name.data} is variadic")
        header, directives = self.signature(func, name)
        # Unreachable blocks never run (LLVM deletes them); MLIR lets them use values no
        # definition dominates, even their own later results, so they are not emitted at all.
        order = region_order(func.body)
        reachable = _reachable(func.body)
        for block in order:
            if block not in reachable:
                for op in block.ops:
                    if _handler(op) is None:
                        self.fail(op, f"'{op_name(op)}' is not supported by the PTX target{_lower_first_hint(op)}")
        blocks = [b for b in func.body.blocks if b in reachable]
        for i, block in enumerate(blocks[1:], start=1):
            self.labels[block] = f"$L__BB{self.index}_{i}"
        for block in blocks[1:]:
            for arg in block.args:
                try:
                    self.fresh(arg)
                except Unsupported as e:
                    self.fail(func, f"block argument of type {arg.type}: {e}")
        prologue = self.current = []
        self.load_params(func, name)
        following = {b: blocks[i + 1] if i + 1 < len(blocks) else None for i, b in enumerate(blocks)}
        # Definitions before uses: visit blocks in reverse post-order, whatever their text order.
        for block in order:
            if block not in reachable:
                continue
            self.next_block = following[block]
            for op in block.ops:
                self.current = self.buckets[op] = []
                self.emit_op(op)
        if len(self.module.errors) > errors_before:
            return []
        body: list[_Line] = [_Line(f"\t{line}", func) for line in prologue]
        referenced = {
            word
            for lines in self.buckets.values()
            for line in lines
            if not line.endswith(":")
            for word in re.findall(r"\$L__BB\w+", line)
        }
        for bi, block in enumerate(blocks):
            if bi > 0 and self.labels[block] in referenced:
                body.append(_Line(f"{self.labels[block]}:", None))
            for op in block.ops:
                for line in self.buckets[op]:
                    body.append(_Line(line if line.endswith(":") and line.startswith("$") else f"\t{line}", op))
        body, used = _renumber(body)
        declarations = [
            _Line(f"\t.reg {cls.declaration} \t%{cls.prefix}<{used[cls] + 1}>;", func)
            for cls in RegClass
            if used.get(cls)
        ]
        return [
            *([_Line(f"\t// .globl\t{name}", func)] if self.is_kernel else []),
            *header,
            *directives,
            _Line("{", func),
            *declarations,
            _Line("", func),
            *body,
            _Line("", func),
            _Line("}", func),
            _Line(""),
        ]

    def fail(self, op: Operation, message: str) -> None:
        self.module.errors.append(error(op, message))

    @property
    def is_kernel(self) -> bool:
        return NVVM_KERNEL_ATTR in self.func.attributes

    def signature(self, func: llvm.FuncOp, name: str) -> tuple[list[_Line], list[_Line]]:
        if not self.is_kernel:  # a device function (ptx_calls.py): .param .bN values, no directives
            try:
                return [_Line(prototype(func, name), func)], []
            except Unsupported:
                return [], []  # reported with its prototype
        params = []
        for i, t in enumerate(func.function_type.inputs.data):
            pname = f"{name}_param_{i}"
            space = pointer_address_space(t)
            if space == GLOBAL_ADDRESS_SPACE:
                params.append(f".param .u64 .ptr .global .align 1 {pname}")
            elif space == 0:
                params.append(f".param .u64 .ptr .align 1 {pname}")
            elif space == PARAM_ADDRESS_SPACE:  # a byval parameter, by its own address
                layout = byval_layout(func, i)
                if layout is None:
                    self.fail(func, f"kernel parameter {i} is !llvm.ptr<{PARAM_ADDRESS_SPACE}> without the "
                                    "llvm.byval = !llvm.array<N x i8> its bytes need")
                    continue
                size, align = layout
                params.append(f".param .align {align} .b8 {pname}[{size}]")
            elif str(t) in PARAM_TYPES:
                params.append(f".param {PARAM_TYPES[str(t)]} {pname}")
            else:
                self.fail(func, f"kernel parameter {i} has type {t}; the PTX target takes integers "
                                "(i1, i16, i32, i64), f16/f32/f64, !llvm.ptr<1> and !llvm.ptr parameters")
        header = [_Line(f".visible .entry {name}(", func)]
        header += [_Line(f"\t{p}{',' if i + 1 < len(params) else ''}", func) for i, p in enumerate(params)]
        header.append(_Line(")", func))
        directives = []
        # In TUNING_DIRECTIVES' order, not the attribute dictionary's (iree-opt prints it sorted).
        order = list(TUNING_DIRECTIVES)
        for attr_name, attr in sorted(func.attributes.items(),
                                      key=lambda kv: order.index(kv[0]) if kv[0] in order else -1):
            if attr_name == NVVM_KERNEL_ATTR:
                continue
            directive = TUNING_DIRECTIVES.get(attr_name)
            if directive is None:
                if attr_name.startswith("nvvm."):
                    self.fail(func, f"function attribute '{attr_name}' is not supported by the PTX target")
                continue
            values = integer_list(attr)
            if values is None or not values or (directive in (".reqntid", ".maxntid", ".reqnctapercluster")
                                                 and len(values) > 3):
                self.fail(func, f"'{attr_name}' must be an integer or an array<i32> of 1 to 3 sizes, got {attr}")
                continue
            if directive == ".reqnctapercluster":
                directives.append(_Line(".explicitcluster", func))
            directives.append(_Line(f"{directive} {', '.join(map(str, values))}", func))
        return header, directives

    def load_params(self, func: llvm.FuncOp, name: str) -> None:
        entry = func.body.blocks.first
        assert entry is not None
        for i, arg in enumerate(entry.args):
            try:
                cls = self.class_of(arg.type)
            except Unsupported as e:
                self.fail(func, f"kernel parameter {i}: {e}")
                continue
            if cls is RegClass.PRED:
                byte, low = self.new_reg(RegClass.B16), self.new_reg(RegClass.B16)
                self.out(f"ld.param.u8 {byte}, [{name}_param_{i}];")
                self.out(f"and.b16 {low}, {byte}, 1;")
                reg = self.new_reg(cls)
                self.out(f"setp.ne.b16 {reg}, {low}, 0;")
                self.define(arg, [reg])
                continue
            reg = self.new_reg(cls)
            if pointer_address_space(arg.type) == PARAM_ADDRESS_SPACE:  # its own address (PTX ISA 5.1.6.1)
                self.out(f"mov.b64 {reg}, {name}_param_{i};")
                self.define(arg, [reg])
                continue
            self.out(f"ld.param.b{cls.bits} {reg}, [{name}_param_{i}];")
            if pointer_address_space(arg.type) == GLOBAL_ADDRESS_SPACE and self.is_kernel:
                global_reg = self.new_reg(cls)
                self.out(f"cvta.to.global.u64 {global_reg}, {reg};")
                reg = global_reg
            self.define(arg, [reg])

    def emit_op(self, op: Operation) -> None:
        handler = _handler(op)
        if handler is None:
            self.fail(op, f"'{op_name(op)}' is not supported by the PTX target{_lower_first_hint(op)} (see "
                          "docs/lowering.md for the NVVM-level op set it emits)")
            return
        try:
            handler(self, op)
        except Unsupported as e:
            self.fail(op, f"'{op.name}': {e}")


def _handler(op: Operation) -> Callable[[_FunctionEmitter, Operation], None] | None:
    return next((_HANDLERS[t] for t in type(op).__mro__ if t in _HANDLERS), None)


def _reachable(region) -> set[Block]:  # type: ignore[no-untyped-def]
    """The blocks of a function body reachable from its entry."""
    entry = region.blocks.first
    seen: set[Block] = set()
    stack = [entry] if entry is not None else []
    while stack:
        block = stack.pop()
        if block in seen:
            continue
        seen.add(block)
        term = block.last_op
        stack.extend(term.successors if term is not None else ())
    return seen


_CLASS_BY_PREFIX = {cls.prefix: cls for cls in RegClass}


def _renumber(lines: list[_Line]) -> tuple[list[_Line], dict[RegClass, int]]:
    """Number registers per class in order of first appearance, as LLVM's output reads.

    Returns the renumbered lines and the highest number used per class.
    """
    numbers: dict[tuple[str, str], int] = {}
    used: dict[RegClass, int] = {}

    def rename(m: re.Match[str]) -> str:
        key = (m.group(1), m.group(2))
        if key not in numbers:
            cls = _CLASS_BY_PREFIX[m.group(1)]
            used[cls] = used.get(cls, 0) + 1
            numbers[key] = used[cls]
        return f"%{m.group(1)}{numbers[key]}"

    return [_Line(_REGISTER.sub(rename, line.text), line.op) for line in lines], used


# One table per op family, each in its module (ptx_arith, ptx_memory, ...); an op's handler is
# found through its class or a base class (the special registers share one).
_HANDLERS: dict[type[Operation], Callable[[_FunctionEmitter, Operation], None]] = {
    **ARITH_HANDLERS,
    **MEMORY_HANDLERS,
    **BRANCH_HANDLERS,
    **CALL_HANDLERS,
    **SWITCH_HANDLERS,
    **NVVM_HANDLERS,
    **ASYNC_HANDLERS,
    **CLUSTER_HANDLERS,
    **WARP_HANDLERS,
}
