"""The instruction table: each PTX opcode maps to the handler that builds its ops, or is known to be unmodelled.

An opcode is looked up by its first two components (`tcgen05.ld`, `cp.async`), then its first
(`add`). Every instruction ends as ops, or as an "unmodelled instruction" error at its line (an
opaque op with a warning under --allow-unmodelled): nothing is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, IntAttr, IntegerAttr, StringAttr, UnregisteredOp, i32, i64
from xdsl.ir import Attribute, SSAValue

from tmem_dialect.frontend import ops_async, ops_call, ops_cluster, ops_memory, ops_scalar, ops_sync, ops_tma, ops_warp
from tmem_dialect.frontend import types as T
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.syntax import Address, Imm, Instruction, Reg, Special, Symbol, VectorOperand

Handler = Callable[[FunctionImporter, Instruction], None]

HANDLERS: dict[str, Handler] = {
    **ops_scalar.HANDLERS,
    **ops_memory.HANDLERS,
    **ops_sync.HANDLERS,
    **ops_cluster.HANDLERS,
    **ops_async.HANDLERS,
    **ops_tma.HANDLERS,
    **ops_warp.HANDLERS,
    **ops_call.HANDLERS,
}

# Valid PTX the importer has no op for yet (forms of the handled ones it cannot model say so
# themselves): a located "unmodelled instruction" error rather than "unknown".
UNMODELLED = frozenset(
    "cp.async cp.reduce "
    "mma wgmma ldmatrix stmatrix movmatrix brx trap nanosleep prefetch prefetchu griddepcontrol "
    "redux match activemask getctarank st.async red.async multimem applypriority discard "
    "createpolicy isspacep membar fence tensormap clusterlaunchcontrol popc clz brev bfind fns "
    "addc subc mul24 mad24 sad madc testp copysign rcp sqrt rsqrt sin cos lg2 ex2 tanh slct dp4a dp2a "
    "tex tld4 txq suld sust sured suq pmevent alloca stackrestore stacksave".split()
)


def _unmodelled(ctx: FunctionImporter, ins: Instruction) -> None:
    """The handler of an opcode with none: an "unmodelled instruction" error at the line."""
    parts = ins.parts
    two = ".".join(parts[:2])
    if two in UNMODELLED or parts[0] in UNMODELLED:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (not an instruction the PTX front end knows)")


class _HandlerTable(dict):
    """The handler of each opcode: HANDLERS by its first two parts, else its first, else _unmodelled.
    Found on an opcode's first lookup (`table[opcode]`; a kernel has few distinct opcodes), then a
    dict hit: the importer's loop calls `HANDLER_OF[ins.opcode](ctx, ins)`, no Python call between."""

    def __missing__(self, opcode: str) -> Handler:
        parts = opcode.split(".")
        found = self[opcode] = HANDLERS.get(".".join(parts[:2])) or HANDLERS.get(parts[0]) or _unmodelled
        return found


HANDLER_OF: dict[str, Handler] = _HandlerTable()


def translate(ctx: FunctionImporter, ins: Instruction) -> None:
    HANDLER_OF[ins.opcode](ctx, ins)


# PTX instructions that write no register operand (the first operand is read).
_NO_DESTINATION = frozenset({
    "st", "red", "bar", "barrier", "mbarrier.arrive", "cp", "tcgen05.st", "tcgen05.mma", "tcgen05.cp",
    "tcgen05.commit", "tcgen05.shift", "fence", "membar", "prefetch", "mbarrier.init", "mbarrier.inval",
    "mbarrier.expect_tx", "st.async", "red.async", "setmaxnreg", "griddepcontrol", "stmatrix", "trap",
    "nanosleep", "tensormap",
})
_NO_DESTINATION_PARTS = max(p.count(".") + 1 for p in _NO_DESTINATION)


_WRITES_FIRST: dict[str, bool] = {}  # by opcode (a kernel has few distinct ones)


def writes_first_operand(ins: Instruction) -> bool:
    """Whether the instruction's first operand is a destination: no dot-separated prefix of its
    opcode (`st`, `st.async`, ...) is in _NO_DESTINATION."""
    found = _WRITES_FIRST.get(ins.opcode)
    if found is None:
        parts = ins.parts
        prefixes = range(1, min(len(parts), _NO_DESTINATION_PARTS) + 1)
        found = _WRITES_FIRST[ins.opcode] = not any(".".join(parts[:n]) in _NO_DESTINATION for n in prefixes)
    return found


def opaque(ctx: FunctionImporter, ins: Instruction) -> None:
    """`"ptx.unmodelled"(reads) {ptx = "..."}`: stands for the instruction in verification only.

    It reads every register operand; its results are the registers of the first operand (for
    instructions with a destination), whose values are unknown from here on.
    """
    writes: list[Reg] = []
    first = ins.operands[0] if ins.operands else None
    if writes_first_operand(ins):
        if isinstance(first, Reg):
            writes = [first]
        elif isinstance(first, VectorOperand):
            writes = [e for e in first.elements if isinstance(e, Reg)]
        if isinstance(ins.extra, Reg):
            writes.append(ins.extra)
    reads: list[SSAValue] = []
    for i, operand in enumerate(ins.operands):
        if i == 0 and writes:
            continue
        regs = operand.elements if isinstance(operand, VectorOperand) else [operand]
        if isinstance(operand, Address):
            regs = [operand.base] + (list(operand.coordinates.elements) if operand.coordinates else [])
        for r in regs:
            if isinstance(r, Reg):
                # a `.param` variable (a call's argument) is its value, not an address to read
                reads.append(ctx.ssa.read(ctx.current, r.var) if r.var.param else ctx.read(r, T.register_type(r.var.type)))
    op = UnregisteredOp.with_name("ptx.unmodelled").create(
        operands=reads,
        result_types=[T.register_type(r.var.type) for r in writes],
        attributes={"ptx": StringAttr(ins.opcode)},
    )
    ctx.add(op)
    for r, value in zip(writes, op.results):
        ctx.write(r, value)


def read_other(ctx: FunctionImporter, operand, t: Attribute) -> SSAValue:
    """Special registers, variable addresses (`mov.u64 %rd, smem`) as values of type `t`."""
    if isinstance(operand, Special):
        return ctx.coerce(ops_sync.special_register(ctx, operand.name), t)
    if isinstance(operand, Symbol):
        param = ctx.params.get(operand.name)
        if param is not None and param.count is not None:  # an address-taken byval parameter
            # its .param-space address (PTX ISA 5.1.6.1), 32 or 64 bits wide: the param window
            # fits 32 bits (Triton's mov.b32 + cvt.u64.u32 + cvta.param), cvta.param makes it generic
            pointer = ctx.param_value(operand.name)
            if T.bits(t) == 64:
                return ctx.coerce(ctx.pointer_as_int(pointer), t)
            if T.bits(t) != 32:
                raise Invalid(f"the address of parameter '{operand.name}' is 32 or 64 bits wide")
            return ctx.coerce(ctx.build(llvm.PtrToIntOp, [pointer], i32), t)
        if param is not None:  # a scalar parameter is a value here, not memory with an address
            raise Unmodelled(f"unmodelled instruction '{ctx.ins.opcode if ctx.ins else 'mov'}' (the address "  # type: ignore[union-attr]
                             f"of scalar parameter '{operand.name}')")
        glob = ctx.module.globals.get(operand.name)
        if glob is None:
            raise Invalid(f"use of undeclared variable '{operand.name}'")
        ptr = ctx.add(llvm.AddressOfOp(operand.name, llvm.LLVMPointerType(IntAttr(glob.addr_space.value.data))))
        value = ctx.add(llvm.PtrToIntOp(ptr.results[0], i64)).results[0]
        return ctx.coerce(value, t)
    if isinstance(operand, VectorOperand):
        raise Invalid("a vector operand here is not supported")
    raise Invalid(f"unexpected operand {type(operand).__name__.lower()} here")


def address(ctx: FunctionImporter, operand: Address, space: int) -> SSAValue:
    """The pointer `[base+offset]` in address space `space` (i8 steps, which the emitter folds)."""
    if operand.coordinates is not None:
        raise Invalid("a tensor address [tensor-map, {coordinates}] is taken only by the TMA instructions")
    ptr_type = T.pointer_type(space)
    base = operand.base
    if isinstance(base, Symbol):
        glob = ctx.module.globals.get(base.name)
        if glob is None:
            raise Invalid(f"use of undeclared variable '{base.name}'")
        glob_space = glob.addr_space.value.data
        if glob_space != space and space != 0:
            raise Invalid(f"'{base.name}' is not in this state space")
        ptr = ctx.add(llvm.AddressOfOp(base.name, T.pointer_type(glob_space))).results[0]
        if space == 0 and glob_space != 0:
            raise Unmodelled("a generic access to a variable of another state space")
    elif isinstance(base, Reg):
        width = 32 if base.var.type.endswith("32") else 64
        value = ctx.read(base, T.int_type(width))
        ptr = ctx.int_to_pointer(value, ptr_type)
    elif isinstance(base, Imm):
        value = ctx.constant(int(base.value), i64)
        ptr = ctx.int_to_pointer(value, ptr_type)
    else:
        raise Invalid("unsupported address base")
    if operand.offset:
        ptr = ctx.build(llvm.GEPOp, [ptr], ptr.type, _byte_step(operand.offset))
    return ptr


@cache
def _byte_step(offset: int) -> dict[str, Attribute]:
    """The properties of `llvm.getelementptr %p[offset] : i8` (as GEPOp's __init__ builds them)."""
    return {"rawConstantIndices": DenseArrayBase.from_list(i32, [offset]), "elem_type": T.int_type(8),
            "noWrapFlags": IntegerAttr(0, 32)}
