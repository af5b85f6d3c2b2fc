"""Emit a PTX module from NVVM-level MLIR (llvm.func kernels of llvm/nvvm ops), in LLVM NVPTX's style.

Every SSA value maps to PTX operands, one per vector element: a virtual register, an immediate,
a foldable address (`[symbol+offset]`) or nothing (poison). Constants and addresses are folded
into the instructions that accept them and moved into a register, at their definition, only
when some use needs one. Block arguments are registers assigned on each incoming edge (a
parallel copy). Registers are numbered in order of first appearance, so output is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.block_order import region_order
from tmem_dialect.conventions import (
    GLOBAL_ADDRESS_SPACE,
    NVVM_KERNEL_ATTR,
    NVVM_CLUSTER_DIM_ATTR,
    NVVM_REQNTID_ATTR,
    SHARED_ADDRESS_SPACE,
    SHARED_CLUSTER_ADDRESS_SPACE,
    TMEM_ADDRESS_SPACE,
    integer_list,
    pointer_address_space,
)
from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, error, op_name
from tmem_dialect.dialects import llvm_ext, nvvm
from tmem_dialect.dialects.nvvm_tma import SHARED_CLUSTER_ADDRESS_SPACE
from tmem_dialect.dialects.llvm_switch import SwitchOp
from tmem_dialect.lowering.ptx_async import ASYNC_HANDLERS
from tmem_dialect.lowering.ptx_cluster import CLUSTER_HANDLERS
from tmem_dialect.lowering.ptx_switch import switch as _switch
from tmem_dialect.lowering.ptx_warp import WARP_HANDLERS
from tmem_dialect.lowering.ptx_values import (
    Address,
    Unsupported,
    Imm,
    Operand,
    Reg,
    RegClass,
    Undef,
    byte_size,
    element_count,
    element_type,
    float_imm,
    int_imm,
    is_float,
    register_class,
    scalar_bits,
)

STATE_SPACES = {0: "", GLOBAL_ADDRESS_SPACE: ".global", SHARED_ADDRESS_SPACE: ".shared",
                SHARED_CLUSTER_ADDRESS_SPACE: ".shared::cluster"}
# Kernel parameter types and their .param declarations (i1 travels as a byte, as LLVM does).
PARAM_TYPES = {
    "i1": ".u8", "i16": ".b16", "i32": ".b32", "i64": ".b64",
    "f16": ".b16", "f32": ".b32", "f64": ".b64",
}  # fmt: skip
MAX_VECTOR_ACCESS_BYTES = 16  # ld/st .v2/.v4 move at most 128 bits

# Function attributes that become performance-tuning directives after the .entry signature.
TUNING_DIRECTIVES = {
    NVVM_REQNTID_ATTR: ".reqntid",
    "nvvm.maxntid": ".maxntid",
    "nvvm.minctasm": ".minnctapersm",
    "nvvm.maxnreg": ".maxnreg",
    NVVM_CLUSTER_DIM_ATTR: ".reqnctapercluster",  # after .explicitcluster
}

ICMP_PTX = {
    "eq": "eq", "ne": "ne",
    "slt": "lt", "sle": "le", "sgt": "gt", "sge": "ge",
    "ult": "lt", "ule": "le", "ugt": "gt", "uge": "ge",
}  # fmt: skip
ICMP_SWAPPED = {
    "eq": "eq", "ne": "ne",
    "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
    "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule",
}  # fmt: skip

# icmp on i1: predicate -> (and/or, which operand is negated). Unsigned i1 is {0, 1}, signed {0, -1}.
I1_ORDER = {
    "ult": ("and", 0), "ule": ("or", 0), "ugt": ("and", 1), "uge": ("or", 1),
    "slt": ("and", 1), "sle": ("or", 1), "sgt": ("and", 0), "sge": ("or", 0),
}  # fmt: skip

# llvm binary op -> (PTX mnemonic pattern with {s}/{u}/{b} + width, commutative)
BINARY_OPS: dict[type[Operation], tuple[str, bool]] = {
    llvm.AddOp: ("add.s{w}", True),
    llvm.SubOp: ("sub.s{w}", False),
    llvm.MulOp: ("mul.lo.s{w}", True),
    llvm.UDivOp: ("div.u{w}", False),
    llvm.SDivOp: ("div.s{w}", False),
    llvm.URemOp: ("rem.u{w}", False),
    llvm.SRemOp: ("rem.s{w}", False),
    llvm.AndOp: ("and.b{w}", True),
    llvm.OrOp: ("or.b{w}", True),
    llvm.XOrOp: ("xor.b{w}", True),
    llvm.ShlOp: ("shl.b{w}", False),
    llvm.LShrOp: ("shr.u{w}", False),
    llvm.AShrOp: ("shr.s{w}", False),
}
CVTA = {
    (SHARED_ADDRESS_SPACE, 0): "cvta.shared.u64", (0, SHARED_ADDRESS_SPACE): "cvta.to.shared.u64",
    (GLOBAL_ADDRESS_SPACE, 0): "cvta.global.u64", (0, GLOBAL_ADDRESS_SPACE): "cvta.to.global.u64",
    (SHARED_CLUSTER_ADDRESS_SPACE, 0): "cvta.shared::cluster.u64",
    (0, SHARED_CLUSTER_ADDRESS_SPACE): "cvta.to.shared::cluster.u64",
}  # fmt: skip
PREDICATE_OPS = {llvm.AndOp: "and.pred", llvm.OrOp: "or.pred", llvm.XOrOp: "xor.pred"}
SHIFT_OPS = (llvm.ShlOp, llvm.LShrOp, llvm.AShrOp)

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
        kernels = 0
        for op in self.module.ops:
            if isinstance(op, llvm.GlobalOp):
                continue
            if isinstance(op, llvm.FuncOp):
                if not op.body.blocks:
                    continue  # a declaration: nothing to emit, nothing can call it
                if NVVM_KERNEL_ATTR not in op.attributes:
                    self.errors.append(
                        error(op, f"llvm.func @{op.sym_name.data} is not a kernel: the PTX target "
                                  f"emits only `{NVVM_KERNEL_ATTR}` functions (device functions and calls "
                                  "are outside its subset)")
                    )
                    continue
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


_Unsupported = Unsupported


@dataclass
class _Edge:
    target: Block
    args: Sequence[SSAValue]


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
            raise _Unsupported(f"type {t} has no PTX register class in this target")
        return cls

    def operands(self, value: SSAValue) -> list[Operand]:
        if value not in self.values:
            raise _Unsupported("uses a value whose definition was not emitted")
        return self.values[value]

    def operand(self, value: SSAValue, i: int = 0) -> Operand:
        found = self.operands(value)
        if i >= len(found):  # e.g. a vector kernel parameter, already reported at the kernel
            raise _Unsupported(f"uses element {i} of a value that has {len(found)} in registers")
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

    # ---- driver ------------------------------------------------------------------------------

    def run(self) -> list[_Line]:
        func = self.func
        name = self.module.symbol(func.sym_name.data)
        errors_before = len(self.module.errors)
        ftype = func.function_type
        if not isinstance(ftype.output, llvm.LLVMVoidType):
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
                except _Unsupported as e:
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
            _Line(f"\t// .globl\t{name}", func),
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

    def signature(self, func: llvm.FuncOp, name: str) -> tuple[list[_Line], list[_Line]]:
        params = []
        for i, t in enumerate(func.function_type.inputs.data):
            pname = f"{name}_param_{i}"
            space = pointer_address_space(t)
            if space == GLOBAL_ADDRESS_SPACE:
                params.append(f".param .u64 .ptr .global .align 1 {pname}")
            elif space == 0:
                params.append(f".param .u64 .ptr .align 1 {pname}")
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
            except _Unsupported as e:
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
            self.out(f"ld.param.b{cls.bits} {reg}, [{name}_param_{i}];")
            if pointer_address_space(arg.type) == GLOBAL_ADDRESS_SPACE:
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
        except _Unsupported as e:
            self.fail(op, f"'{op.name}': {e}")

    # ---- constants ---------------------------------------------------------------------------

    def constant(self, op: llvm.ConstantOp) -> None:
        t = op.result.type
        if t == IntegerType(8) and isinstance(op.value, IntegerAttr):
            # i8 constants (the descriptor fields of nvvm.tcgen05.mma_smem_desc) live in 16-bit
            # registers when one is needed, as in LLVM NVPTX; i8 memory access stays unsupported.
            self.define(op.result, [int_imm(RegClass.B16, op.value.value.data & 0xFF)])
            return
        cls = self.class_of(t)
        attr = op.value
        if isinstance(attr, DenseIntOrFPElementsAttr):
            values = attr.get_values()
            if len(values) != element_count(t):
                raise _Unsupported(f"dense constant has {len(values)} elements for type {t}")
        else:
            values = [attr.value.data]  # type: ignore[union-attr]
        elem = element_type(t)
        if is_float(elem):
            self.define(op.result, [float_imm(elem, float(v)) for v in values])
        else:
            self.define(op.result, [int_imm(cls, int(v)) for v in values])

    def undefined(self, op: Operation) -> None:
        t = op.results[0].type
        cls = self.class_of(t)
        self.define(op.results[0], [Undef(cls) for _ in range(element_count(t))])

    def zero(self, op: llvm.ZeroOp) -> None:
        t = op.res.type
        cls = self.class_of(t)
        self.define(op.res, [int_imm(cls, 0) for _ in range(element_count(t))])

    def address_of(self, op: llvm.AddressOfOp) -> None:
        name = op.global_name.root_reference.data
        glob = self.module.globals.get(name)
        if glob is None:
            raise _Unsupported(f"@{name} is not an llvm.mlir.global of this module")
        if pointer_address_space(op.result.type) != glob.addr_space.value.data:
            raise _Unsupported(f"result type {op.result.type} does not match the address space of @{name}")
        self.define(op.result, [Address(RegClass.B64, self.module.symbol(name))])

    # ---- integer arithmetic ------------------------------------------------------------------

    def binary(self, op: Operation) -> None:
        lhs, rhs = op.operands
        result = op.results[0]
        cls = self.class_of(result.type)
        if isinstance(element_type(result.type), IntegerType) is False:
            raise _Unsupported(f"integer arithmetic on {result.type}")
        if cls is RegClass.PRED:
            mnemonic = PREDICATE_OPS.get(type(op))
            if mnemonic is None:
                raise _Unsupported("i1 operands are supported by and/or/xor only")
            commutative = True
        else:
            pattern, commutative = BINARY_OPS[type(op)]
            mnemonic = pattern.format(w=cls.bits)
        if all(isinstance(x, Imm) for x in (*self.operands(lhs), *self.operands(rhs))):
            folded = [
                _fold_binary(type(op), cls, a, b)  # type: ignore[arg-type]
                for a, b in zip(self.operands(lhs), self.operands(rhs))
            ]
            if all(f is not None for f in folded):
                self.define(result, folded)  # type: ignore[arg-type]
                return
        out = self.fresh(result)
        for i, d in enumerate(out):
            a, b = self.operand(lhs, i), self.operand(rhs, i)
            if isinstance(a, Imm) and commutative and not isinstance(b, Imm):
                a_text: Reg | Imm = self.reg(rhs, i)
                b_op: Reg | Imm = a
            else:
                a_text = self.reg(lhs, i)
                b_op = self.reg_or_imm(rhs, i)
            if cls is RegClass.PRED and isinstance(b_op, Imm):
                b_op = self.as_reg(b_op)
            if isinstance(op, SHIFT_OPS) and isinstance(b_op, Reg) and cls is not RegClass.B32:
                amount = self.new_reg(RegClass.B32)
                self.out(f"cvt.u32.u{cls.bits} {amount}, {b_op};")
                b_op = amount
            self.out(f"{mnemonic} {d}, {a_text}, {b_op};")

    def icmp(self, op: llvm.ICmpOp) -> None:
        predicate = llvm.ICmpPredicateFlag.from_int(op.predicate.value.data).value
        cls = self.class_of(op.lhs.type)
        out = self.fresh(op.res)
        for i, d in enumerate(out):
            a, b = self.operand(op.lhs, i), self.operand(op.rhs, i)
            pred = predicate
            if isinstance(a, Imm) and not isinstance(b, Imm):
                lhs_op: Reg | Imm = self.reg(op.rhs, i)
                rhs_op: Reg | Imm = a
                pred = ICMP_SWAPPED[predicate]
            else:
                lhs_op, rhs_op = self.reg(op.lhs, i), self.reg_or_imm(op.rhs, i)
            if cls is RegClass.PRED:
                rhs_reg = self.as_reg(rhs_op)
                if pred == "ne":
                    self.out(f"xor.pred {d}, {lhs_op}, {rhs_reg};")
                    continue
                tmp = self.new_reg(RegClass.PRED)
                if pred == "eq":
                    self.out(f"xor.pred {tmp}, {lhs_op}, {rhs_reg};")
                    self.out(f"not.pred {d}, {tmp};")
                    continue
                # i1 as unsigned is {0, 1}, as signed {0, -1}: each order is one operand negated
                # and combined with the other (ult: !a & b, ule: !a | b, ...).
                combine, negated = I1_ORDER[pred]
                a, b = (lhs_op, rhs_reg) if negated == 0 else (rhs_reg, lhs_op)
                self.out(f"not.pred {tmp}, {a};")
                self.out(f"{combine}.pred {d}, {tmp}, {b};")
                continue
            kind = "b" if pred in ("eq", "ne") else pred[0]
            self.out(f"setp.{ICMP_PTX[pred]}.{kind}{cls.bits} {d}, {lhs_op}, {rhs_op};")

    def select(self, op: llvm.SelectOp) -> None:
        cls = self.class_of(op.res.type)
        cond = self.operand(op.cond)
        if isinstance(cond, Imm):
            self.define(op.res, list(self.operands(op.lhs if cond.bits & 1 else op.rhs)))
            return
        c = self.reg(op.cond)
        out = self.fresh(op.res)
        for i, d in enumerate(out):
            if cls is RegClass.PRED:
                a, b = self.reg(op.lhs, i), self.reg(op.rhs, i)
                t1, t2, nc = self.new_reg(cls), self.new_reg(cls), self.new_reg(cls)
                self.out(f"and.pred {t1}, {c}, {a};")
                self.out(f"not.pred {nc}, {c};")
                self.out(f"and.pred {t2}, {nc}, {b};")
                self.out(f"or.pred {d}, {t1}, {t2};")
                continue
            self.out(f"selp.b{cls.bits} {d}, {self.reg_or_imm(op.lhs, i)}, {self.reg_or_imm(op.rhs, i)}, {c};")

    # ---- casts -------------------------------------------------------------------------------

    def int_cast(self, op: Operation) -> None:
        (arg,) = op.operands
        result = op.results[0]
        src_cls, dst_cls = self.class_of(arg.type), self.class_of(result.type)
        signed = isinstance(op, llvm.SExtOp)
        operands: list[Operand] = []
        for i in range(element_count(result.type)):
            src = self.operand(arg, i)
            if isinstance(src, Imm):
                value = src.signed if signed else src.bits
                operands.append(int_imm(dst_cls, value if not (src_cls is RegClass.PRED and signed) else -value))
                continue
            if isinstance(src, Undef):
                operands.append(Undef(dst_cls))
                continue
            operands.append(self.convert(self.reg(arg, i), src_cls, dst_cls, signed))
        self.define(result, operands)

    def convert(self, src: Reg, src_cls: RegClass, dst_cls: RegClass, signed: bool) -> Reg:
        if src_cls is dst_cls:
            return src
        d = self.new_reg(dst_cls)
        if src_cls is RegClass.PRED:
            self.out(f"selp.b{dst_cls.bits} {d}, {-1 if signed else 1}, 0, {src};")
        elif dst_cls is RegClass.PRED:
            low = self.new_reg(src_cls)
            self.out(f"and.b{src_cls.bits} {low}, {src}, 1;")
            self.out(f"setp.ne.b{src_cls.bits} {d}, {low}, 0;")
        else:
            s = "s" if signed and dst_cls.bits > src_cls.bits else "u"
            self.out(f"cvt.{s}{dst_cls.bits}.{s}{src_cls.bits} {d}, {src};")
        return d

    def pointer_cast(self, op: Operation) -> None:
        (arg,) = op.operands
        result = op.results[0]
        src_cls, dst_cls = self.class_of(arg.type), self.class_of(result.type)
        src = self.operand(arg)
        if src_cls is dst_cls:
            self.define(result, [src if not isinstance(src, Address) else Address(dst_cls, src.base, src.offset)])
            return
        if isinstance(src, Imm):
            self.define(result, [int_imm(dst_cls, src.bits)])
            return
        self.define(result, [self.convert(self.reg(arg), src_cls, dst_cls, signed=False)])

    def addrspacecast(self, op: llvm_ext.AddrSpaceCastOp) -> None:
        """Between generic and shared or global pointers: cvta (what the PTX front end reads it from)."""
        spaces = (pointer_address_space(op.arg.type), pointer_address_space(op.result.type))
        if spaces == (SHARED_ADDRESS_SPACE, SHARED_CLUSTER_ADDRESS_SPACE):
            # a shared::cta address is the executing CTA's shared::cluster address (PTX ISA
            # "Shared State Space"): the same value
            self.define(op.result, list(self.operands(op.arg)))
            return
        mnemonic = CVTA.get(spaces)  # type: ignore[arg-type]
        if mnemonic is None:
            raise _Unsupported(f"address space cast from {op.arg.type} to {op.result.type}")
        d = self.new_reg(RegClass.B64)
        self.out(f"{mnemonic} {d}, {self.reg(op.arg)};")
        self.define(op.result, [d])

    def bitcast(self, op: llvm.BitcastOp) -> None:
        src_t, dst_t = op.arg.type, op.result.type
        src_cls, dst_cls = self.class_of(src_t), self.class_of(dst_t)
        if RegClass.PRED in (src_cls, dst_cls):
            raise _Unsupported("bitcast of i1 values")
        n_src, n_dst = element_count(src_t), element_count(dst_t)
        if src_cls.bits * n_src != dst_cls.bits * n_dst:
            raise _Unsupported(f"bitcast from {src_t} to {dst_t} changes the size")
        srcs = self.operands(op.arg)
        if src_cls is dst_cls:
            self.define(op.result, list(srcs))
            return
        out: list[Operand] = []
        if src_cls.bits < dst_cls.bits:
            k = dst_cls.bits // src_cls.bits
            for j in range(n_dst):
                group = srcs[j * k : (j + 1) * k]
                if all(isinstance(s, Imm) for s in group):
                    bits = sum((s.bits << (src_cls.bits * n)) for n, s in enumerate(group))  # type: ignore[union-attr]
                    out.append(Imm(dst_cls, bits))
                    continue
                d = self.new_reg(dst_cls)
                parts = ", ".join(str(self.reg(op.arg, j * k + n)) for n in range(k))
                self.out(f"mov.b{dst_cls.bits} {d}, {{{parts}}};")
                out.append(d)
        else:
            k = src_cls.bits // dst_cls.bits
            for j in range(n_src):
                s = srcs[j]
                if isinstance(s, Imm):
                    mask = (1 << dst_cls.bits) - 1
                    out.extend(Imm(dst_cls, (s.bits >> (dst_cls.bits * n)) & mask) for n in range(k))
                    continue
                parts = [self.new_reg(dst_cls) for _ in range(k)]
                self.out(f"mov.b{src_cls.bits} {{{', '.join(map(str, parts))}}}, {self.reg(op.arg, j)};")
                out.extend(parts)
        self.define(op.result, out)

    # ---- vectors -----------------------------------------------------------------------------

    def insert_element(self, op: llvm.InsertElementOp) -> None:
        elements = list(self.operands(op.vector))
        position = self.operand(op.index)
        if isinstance(position, Imm):
            index = position.bits
            if index >= len(elements):
                raise _Unsupported(f"position {index} is outside {op.vector.type}")
            elements[index] = self.operand(op.value)
            self.define(op.res, elements)
            return
        cls = self.class_of(op.res.type)
        index_cls = self.class_of(op.index.type)
        value = self.reg_or_imm(op.value)
        out: list[Operand] = []
        for j in range(len(elements)):
            hit = self.new_reg(RegClass.PRED)
            self.out(f"setp.eq.b{index_cls.bits} {hit}, {self.reg(op.index)}, {j};")
            d = self.new_reg(cls)
            self.out(f"selp.b{cls.bits} {d}, {value}, {self.reg_or_imm(op.vector, j)}, {hit};")
            out.append(d)
        self.define(op.res, out)

    def extract_element(self, op: llvm_ext.ExtractElementOp) -> None:
        elements = self.operands(op.vector)
        position = self.operand(op.position)
        if isinstance(position, Imm):
            index = position.bits
            if index >= len(elements):
                raise _Unsupported(f"position {index} is outside {op.vector.type}")
            self.define(op.res, [elements[index]])
            return
        cls = self.class_of(op.res.type)
        index_cls = self.class_of(op.position.type)
        current: Reg | Imm = self.reg_or_imm(op.vector, 0)
        for j in range(1, len(elements)):
            hit = self.new_reg(RegClass.PRED)
            self.out(f"setp.eq.b{index_cls.bits} {hit}, {self.reg(op.position)}, {j};")
            d = self.new_reg(cls)
            self.out(f"selp.b{cls.bits} {d}, {self.reg_or_imm(op.vector, j)}, {current}, {hit};")
            current = d
        self.define(op.res, [current])

    def shuffle(self, op: llvm.ShuffleVectorOp) -> None:
        cls = self.class_of(op.res.type)
        first, second = self.operands(op.v1), self.operands(op.v2)
        both = [*first, *second]
        out: list[Operand] = []
        for m in op.mask.iter_values():
            out.append(Undef(cls) if m < 0 else both[m])
        self.define(op.res, out)

    # ---- memory ------------------------------------------------------------------------------

    def state_space(self, pointer: SSAValue) -> str:
        space = pointer_address_space(pointer.type)
        if space not in STATE_SPACES:
            what = "Tensor Memory is accessed with tcgen05.ld/st only" if space == TMEM_ADDRESS_SPACE else ""
            raise _Unsupported(f"loads and stores through !llvm.ptr<{space}> are not supported. {what}".strip())
        return STATE_SPACES[space]

    def access_chunks(self, t: Attribute, alignment: int | None) -> list[tuple[int, int]]:
        """(first element, element count) of each ld/st a load/store of `t` becomes."""
        cls = self.class_of(t)
        if cls is RegClass.PRED:
            raise _Unsupported("loads and stores of i1 values")
        n = element_count(t)
        elem_bytes = cls.bits // 8
        # Without an alignment only the element's own alignment is known.
        align = alignment if alignment is not None else elem_bytes
        width = 1
        for w in (4, 2):
            if w * elem_bytes <= min(align, MAX_VECTOR_ACCESS_BYTES) and n % w == 0:
                width = w
                break
        return [(i, width) for i in range(0, n, width)]

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

    def load(self, op: llvm.LoadOp) -> None:
        if op.ordering.value.data != 0:
            raise _Unsupported("atomic loads are not supported")
        space = self.state_space(op.ptr)
        t = op.dereferenced_value.type
        cls = self.class_of(t)
        alignment = op.alignment.value.data if op.alignment is not None else None
        chunks = self.access_chunks(t, alignment)
        out = self.fresh(op.dereferenced_value)
        elem_bytes = cls.bits // 8
        for first, width in chunks:
            regs = out[first : first + width]
            vec = f".v{width}" if width > 1 else ""
            dst = f"{{{', '.join(map(str, regs))}}}" if width > 1 else str(regs[0])
            self.out(f"ld{space}{vec}.b{cls.bits} {dst}, {self.access_address(op.ptr, first * elem_bytes)};")

    def store(self, op: llvm.StoreOp) -> None:
        if op.ordering is not None and op.ordering.value.data != 0:
            raise _Unsupported("atomic stores are not supported")
        space = self.state_space(op.ptr)
        volatile = ".volatile" if op.volatile_ is not None else ""
        t = op.value.type
        cls = self.class_of(t)
        alignment = op.alignment.value.data if op.alignment is not None else None
        elem_bytes = cls.bits // 8
        for first, width in self.access_chunks(t, alignment):
            if width == 1:
                src = str(self.reg_or_imm(op.value, first))
            else:
                src = "{" + ", ".join(str(self.reg(op.value, first + j)) for j in range(width)) + "}"
            vec = f".v{width}" if width > 1 else ""
            self.out(f"st{volatile}{space}{vec}.b{cls.bits} {self.access_address(op.ptr, first * elem_bytes)}, {src};")

    def gep(self, op: llvm.GEPOp) -> None:
        indices = tuple(op.rawConstantIndices.iter_values())
        if len(indices) != 1:
            raise _Unsupported(f"getelementptr with {len(indices)} indices (the PTX target supports one)")
        if pointer_address_space(op.ptr.type) == TMEM_ADDRESS_SPACE:
            raise _Unsupported("getelementptr on a TMEM pointer: compute TMEM addresses as i32")
        size = byte_size(op.elem_type)
        if size is None:
            raise _Unsupported(f"getelementptr over {op.elem_type}, which has no PTX layout here")
        base = self.operand(op.ptr)
        if indices[0] != llvm.GEP_USE_SSA_VAL:
            offset = indices[0] * size
        else:
            index = op.ssa_indices[0]
            found = self.operand(index)
            if isinstance(found, Imm):
                offset = found.signed * size
            else:
                scaled = self.scaled_index(self.reg(index), size)
                d = self.new_reg(RegClass.B64)
                self.out(f"add.s64 {d}, {self.reg(op.ptr)}, {scaled};")
                self.define(op.result, [d])
                return
        if isinstance(base, Address):
            self.define(op.result, [Address(RegClass.B64, base.base, base.offset + offset)])
        elif isinstance(base, Reg):
            self.define(op.result, [Address(RegClass.B64, base, offset)] if offset else [base])
        else:
            d = self.new_reg(RegClass.B64)
            self.out(f"add.s64 {d}, {self.reg(op.ptr)}, {offset};")
            self.define(op.result, [d])

    def scaled_index(self, index: Reg, size: int) -> Reg:
        """index * size as a 64-bit byte offset (getelementptr indices are signed)."""
        if index.cls is RegClass.B32:
            d = self.new_reg(RegClass.B64)
            self.out(f"mul.wide.s32 {d}, {index}, {size};")
            return d
        if index.cls is RegClass.B16:
            wide = self.new_reg(RegClass.B64)
            self.out(f"cvt.s64.s16 {wide}, {index};")
            index = wide
        if index.cls is not RegClass.B64:
            raise _Unsupported("getelementptr index must be i16, i32 or i64")
        if size == 1:
            return index
        d = self.new_reg(RegClass.B64)
        if size & (size - 1) == 0:
            self.out(f"shl.b64 {d}, {index}, {size.bit_length() - 1};")
        else:
            self.out(f"mul.lo.s64 {d}, {index}, {size};")
        return d

    # ---- control flow ------------------------------------------------------------------------

    def edge_moves(self, edge: _Edge) -> list[str]:
        """A parallel copy of the branch operands into the target's block-argument registers."""
        dests: list[Reg] = []
        sources: list[tuple[SSAValue, int]] = []
        for arg, value in zip(edge.target.args, edge.args, strict=True):
            for i, d in enumerate(self.operands(arg)):
                assert isinstance(d, Reg)
                dests.append(d)
                sources.append((value, i))
        saved, self.current = self.current, []
        dest_set = set(dests)
        resolved: list[Operand] = []
        for value, i in sources:
            found = self.operand(value, i)
            if isinstance(found, Address):
                found = self.reg(value, i)
            resolved.append(found)
        temps: dict[Reg, Reg] = {}
        for (d, s) in zip(dests, resolved):
            if isinstance(s, Reg) and s in dest_set and s != d and s not in temps:
                t = self.new_reg(s.cls)
                self.out(f"{s.cls.mov} {t}, {s};")
                temps[s] = t
        for d, s in zip(dests, resolved):
            if isinstance(s, Undef) or s == d:
                continue
            src = temps.get(s, s) if isinstance(s, Reg) else s
            self.out(f"{d.cls.mov} {d}, {src};")
        moves, self.current = self.current, saved
        return moves

    def jump(self, edge: _Edge, moves: list[str]) -> None:
        for line in moves:
            self.out(line)
        if edge.target is not self.next_block:
            self.out(f"bra.uni {self.labels[edge.target]};")

    def br(self, op: llvm.BrOp) -> None:
        edge = _Edge(op.successor, op.arguments)
        self.jump(edge, self.edge_moves(edge))

    def cond_br(self, op: llvm.CondBrOp) -> None:
        then_edge = _Edge(op.then_block, op.then_arguments)
        else_edge = _Edge(op.else_block, op.else_arguments)
        cond = self.operand(op.cond)
        if isinstance(cond, Imm):
            edge = then_edge if cond.bits & 1 else else_edge
            self.jump(edge, self.edge_moves(edge))
            return
        c = self.reg(op.cond)
        then_moves, else_moves = self.edge_moves(then_edge), self.edge_moves(else_edge)
        if not then_moves and not (then_edge.target is self.next_block and not else_moves):
            self.out(f"@{c} bra {self.labels[then_edge.target]};")
            self.jump(else_edge, else_moves)
        elif not else_moves:
            self.out(f"@!{c} bra {self.labels[else_edge.target]};")
            self.jump(then_edge, then_moves)
        else:
            self.edge_labels += 1
            label = f"$L__BB{self.index}_edge{self.edge_labels}"
            self.out(f"@!{c} bra {label};")
            for line in then_moves:
                self.out(line)
            self.out(f"bra.uni {self.labels[then_edge.target]};")
            self.out(f"{label}:")
            self.jump(else_edge, else_moves)

    def ret(self, op: llvm.ReturnOp) -> None:
        if op.arg is not None:
            raise _Unsupported("kernels return no value")
        self.out("ret;")

    # ---- nvvm --------------------------------------------------------------------------------

    def special_register(self, op: nvvm.SpecialRegister) -> None:
        (d,) = self.fresh(op.res)
        self.out(f"mov.u32 {d}, {op.ptx_register};")

    def barrier(self, op: nvvm.BarrierOp) -> None:
        mnemonic = "bar.sync" if bool(op.aligned.value.data) else "barrier.sync"
        args = [str(self.reg_or_imm(op.barrierId))] if op.barrierId is not None else ["0"]
        if op.numberOfThreads is not None:
            args.append(str(self.reg_or_imm(op.numberOfThreads)))
        self.out(f"{mnemonic} {', '.join(args)};")

    def shfl_sync(self, op: nvvm.ShflSyncOp) -> None:
        (d,) = self.fresh(op.res)
        a, b, c, m = (self.reg_or_imm(v) for v in (op.val, op.offset, op.mask_and_clamp, op.thread_mask))
        self.out(f"shfl.sync.{op.kind.data.value}.b32 {d}, {a}, {b}, {c}, {m};")

    def barrier_arrive(self, op: nvvm.BarrierArriveOp) -> None:
        barrier = str(self.reg_or_imm(op.barrierId)) if op.barrierId is not None else "0"
        self.out(f"bar.arrive {barrier}, {self.reg_or_imm(op.numberOfThreads)};")

    def ncols(self, value: SSAValue) -> str:
        # A constant nCols stays an immediate, so ptxas checks it (it cannot check a register);
        # one that folding found (16 - 2) is checked here first, with our message.
        found = self.reg_or_imm(value)
        if isinstance(found, Imm) and (problem := isa.ncols_error(found.signed)):
            raise _Unsupported(problem)
        return str(found)

    def tcgen05_alloc(self, op: nvvm.Tcgen05AllocOp) -> None:
        shared = pointer_address_space(op.addr.type) == SHARED_ADDRESS_SPACE
        mnemonic = isa.alloc_mnemonic(op.cta_group_value, shared)
        self.out(f"{mnemonic} {self.address(op.addr)}, {self.ncols(op.nCols)};")

    def tcgen05_dealloc(self, op: nvvm.Tcgen05DeallocOp) -> None:
        self.out(f"{isa.dealloc_mnemonic(op.cta_group_value)} {self.reg(op.taddr)}, {self.ncols(op.nCols)};")

    def tcgen05_relinquish(self, op: nvvm.Tcgen05RelinquishAllocPermitOp) -> None:
        self.out(f"{isa.relinquish_mnemonic(op.cta_group_value)};")

    def half_split_offset(self, op: nvvm.Tcgen05LdOp | nvvm.Tcgen05StOp) -> str:
        if op.offset is None:
            return ""
        found = self.operand(op.offset)
        if not isinstance(found, Imm):
            raise _Unsupported("the 16x32bx2 half-split offset must be a constant (PTX takes an immediate)")
        return f", {found.signed}"

    def tcgen05_ld(self, op: nvvm.Tcgen05LdOp) -> None:
        mnemonic = isa.ldst_mnemonic("ld", op.isa_shape, op.num_count, isa.PACK_16B if op.pack else None)
        regs = self.fresh(op.res)
        taddr = self.reg(op.tmemAddr)
        self.out(f"{mnemonic} {{{', '.join(map(str, regs))}}}, [{taddr}]{self.half_split_offset(op)};")

    def tcgen05_st(self, op: nvvm.Tcgen05StOp) -> None:
        mnemonic = isa.ldst_mnemonic("st", op.isa_shape, op.num_count, isa.UNPACK_16B if op.unpack else None)
        regs = [str(self.reg(op.val, i)) for i in range(op.register_count)]
        taddr = self.reg(op.tmemAddr)
        self.out(f"{mnemonic} [{taddr}]{self.half_split_offset(op)}, {{{', '.join(regs)}}};")

    def tcgen05_wait(self, op: nvvm.Tcgen05WaitOp) -> None:
        self.out(f"{isa.wait_mnemonic(op.kind.data is nvvm.WaitKind.load)};")

    def tcgen05_fence(self, op: nvvm.Tcgen05FenceOp) -> None:
        self.out(f"{isa.fence_mnemonic(op.kind.data is nvvm.FenceKind.before)};")


def _handler(op: Operation) -> Callable[[_FunctionEmitter, Operation], None] | None:
    handler = next((_HANDLERS[t] for t in type(op).__mro__ if t in _HANDLERS), None)
    if handler is None and isinstance(op, nvvm.SpecialRegister):
        return _FunctionEmitter.special_register
    return handler


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


def _fold_binary(kind: type[Operation], cls: RegClass, a: Imm, b: Imm) -> Imm | None:
    """The constant result of an integer op on two constants (None: leave it to the instruction)."""
    width = cls.bits
    mask = (1 << width) - 1
    ua, ub, sa, sb = a.bits & mask, b.bits & mask, a.signed, b.signed
    if kind in (llvm.UDivOp, llvm.URemOp, llvm.SDivOp, llvm.SRemOp) and ub == 0:
        return None  # undefined: let the instruction do what the hardware does
    if kind in SHIFT_OPS and ub >= width:
        return None
    value = {
        llvm.AddOp: lambda: ua + ub,
        llvm.SubOp: lambda: ua - ub,
        llvm.MulOp: lambda: ua * ub,
        llvm.UDivOp: lambda: ua // ub,
        llvm.URemOp: lambda: ua % ub,
        llvm.SDivOp: lambda: _truncating_div(sa, sb),
        llvm.SRemOp: lambda: sa - _truncating_div(sa, sb) * sb,
        llvm.AndOp: lambda: ua & ub,
        llvm.OrOp: lambda: ua | ub,
        llvm.XOrOp: lambda: ua ^ ub,
        llvm.ShlOp: lambda: ua << ub,
        llvm.LShrOp: lambda: ua >> ub,
        llvm.AShrOp: lambda: sa >> ub,
    }[kind]()
    return int_imm(cls, value)


def _truncating_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


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


_HANDLERS: dict[type[Operation], Callable[[_FunctionEmitter, Operation], None]] = {
    llvm.ConstantOp: _FunctionEmitter.constant,
    llvm_ext.PoisonOp: _FunctionEmitter.undefined,
    llvm.UndefOp: _FunctionEmitter.undefined,
    llvm.ZeroOp: _FunctionEmitter.zero,
    llvm.AddressOfOp: _FunctionEmitter.address_of,
    **{t: _FunctionEmitter.binary for t in BINARY_OPS},
    llvm.ICmpOp: _FunctionEmitter.icmp,
    llvm.SelectOp: _FunctionEmitter.select,
    llvm.ZExtOp: _FunctionEmitter.int_cast,
    llvm.SExtOp: _FunctionEmitter.int_cast,
    llvm.TruncOp: _FunctionEmitter.int_cast,
    llvm.IntToPtrOp: _FunctionEmitter.pointer_cast,
    llvm.PtrToIntOp: _FunctionEmitter.pointer_cast,
    llvm.BitcastOp: _FunctionEmitter.bitcast,
    llvm_ext.AddrSpaceCastOp: _FunctionEmitter.addrspacecast,
    llvm.InsertElementOp: _FunctionEmitter.insert_element,
    llvm_ext.ExtractElementOp: _FunctionEmitter.extract_element,
    llvm.ShuffleVectorOp: _FunctionEmitter.shuffle,
    llvm.GEPOp: _FunctionEmitter.gep,
    llvm.LoadOp: _FunctionEmitter.load,
    llvm.StoreOp: _FunctionEmitter.store,
    llvm.BrOp: _FunctionEmitter.br,
    llvm.CondBrOp: _FunctionEmitter.cond_br,
    SwitchOp: lambda em, op: _switch(em, op, _Edge),
    llvm.ReturnOp: _FunctionEmitter.ret,
    nvvm.BarrierOp: _FunctionEmitter.barrier,
    nvvm.BarrierArriveOp: _FunctionEmitter.barrier_arrive,
    nvvm.ShflSyncOp: _FunctionEmitter.shfl_sync,
    nvvm.Tcgen05AllocOp: _FunctionEmitter.tcgen05_alloc,
    nvvm.Tcgen05DeallocOp: _FunctionEmitter.tcgen05_dealloc,
    nvvm.Tcgen05RelinquishAllocPermitOp: _FunctionEmitter.tcgen05_relinquish,
    nvvm.Tcgen05LdOp: _FunctionEmitter.tcgen05_ld,
    nvvm.Tcgen05StOp: _FunctionEmitter.tcgen05_st,
    nvvm.Tcgen05WaitOp: _FunctionEmitter.tcgen05_wait,
    nvvm.Tcgen05FenceOp: _FunctionEmitter.tcgen05_fence,
    **ASYNC_HANDLERS,
    **CLUSTER_HANDLERS,
    **WARP_HANDLERS,
}  # type: ignore[dict-item]
