"""TMA instructions (cp.async.bulk(.tensor), its groups, prefetch.tensormap) as the nvvm TMA ops.

The spellings are isa.tma's mnemonic functions (what the PTX target emits), so import and
emission are inverse by construction; the `.tile` qualifier (the default load mode) may be left
out, as ptxas allows.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerType, i32, i64
from xdsl.ir import SSAValue

from tmem_dialect import isa
from tmem_dialect.conventions import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from tmem_dialect.dialects import llvm_ext
from tmem_dialect.dialects import nvvm_tma as t
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.syntax import Address, Instruction, Reg, Symbol

i16 = IntegerType(16)
CLUSTER = t.SHARED_CLUSTER_ADDRESS_SPACE


def _variants(text: str, hint: bool) -> list[str]:
    out = [text + isa.l2_hint_suffix(hint)]
    if ".tile" in text:
        out.append(text.replace(".tile", "", 1) + isa.l2_hint_suffix(hint))
    return out


_LOAD = {
    v: (dims, cta_only, mc, group, hint)
    for dims in range(isa.TMA_MIN_DIMS, isa.TMA_MAX_DIMS + 1)
    for cta_only in (False, True)
    for mc in (False, True)
    for group in (None, 1, 2)
    for hint in (False, True)
    for v in _variants(isa.tensor_load_mnemonic(dims, cta_only, mc, group), hint)
}
_STORE = {v: (dims, hint) for dims in range(1, 6) for hint in (False, True)
          for v in _variants(isa.tensor_store_mnemonic(dims), hint)}
_PREFETCH = {v: (dims, hint) for dims in range(1, 6) for hint in (False, True)
             for v in _variants(isa.tensor_prefetch_mnemonic(dims), hint)}
_BULK_LOAD = {
    isa.bulk_load_mnemonic(mc).replace(".shared::cluster.", ".shared::cta." if cta else ".shared::cluster.", 1)
    + isa.l2_hint_suffix(hint): (mc, cta, hint)
    for mc in (False, True) for cta in (False, True) for hint in (False, True) if not (mc and cta)
}
_BULK_STORE = {isa.BULK_STORE_MNEMONIC + isa.l2_hint_suffix(h): h for h in (False, True)}
_WAIT = {isa.bulk_wait_group_mnemonic(r): r for r in (False, True)}


def _shared(ctx: FunctionImporter, operand, space: int) -> SSAValue:
    """A shared address in `space` (3, or 7: a shared::cta symbol or register seen cluster-wide)."""
    if not isinstance(operand, Address) or operand.coordinates is not None:
        raise Invalid("expected a shared-memory address [...]")
    if space == CLUSTER and isinstance(operand.base, Symbol):
        ptr = ctx.address(operand, SHARED_ADDRESS_SPACE)
        cast = llvm_ext.AddrSpaceCastOp(ptr, llvm.LLVMPointerType(IntAttr(CLUSTER)))
        return ctx.add(cast).results[0]
    return ctx.address(operand, space)


def _tensor(ctx: FunctionImporter, operand, dims: int) -> tuple[SSAValue, list[SSAValue]]:
    if not isinstance(operand, Address) or operand.coordinates is None:
        raise Invalid("expected a tensor operand [tensorMap, {coordinates}]")
    elements = operand.coordinates.elements
    if len(elements) != dims or any(c is None for c in elements):
        raise Invalid(f"a {dims}d tensor copy takes {dims} coordinates")
    base = operand.base
    if isinstance(base, Reg):
        tmap = ctx.int_to_pointer(ctx.read(base, i64), llvm.LLVMPointerType())
    else:
        tmap = ctx.address(Address(base, 0), 0)  # a kernel parameter's name
    return tmap, [ctx.read(c, i32) for c in elements]


def _count(ins: Instruction, n: int) -> None:
    if len(ins.operands) != n:
        raise Invalid(f"'{ins.opcode}' takes {n} operands, got {len(ins.operands)}")


def _hint_operand(ctx: FunctionImporter, ins: Instruction, hint: bool) -> SSAValue | None:
    return ctx.read(ins.operands[-1], i64) if hint else None


def cp_async(ctx: FunctionImporter, ins: Instruction) -> None:
    """cp.async.bulk{.tensor,.prefetch.tensor,.commit_group,.wait_group}: the nvvm TMA ops
    (cp.async without .bulk, the Ampere copy, stays unmodelled)."""
    op = ins.opcode
    if op == isa.BULK_COMMIT_GROUP:
        ctx.add(t.CpAsyncBulkCommitGroupOp())
        return
    if op in _WAIT:
        _count(ins, 1)
        n = ins.operands[0]
        if not hasattr(n, "value"):
            raise Invalid(f"'{op}' takes an integer constant")
        ctx.add(t.CpAsyncBulkWaitGroupOp(int(n.value), _WAIT[op]))  # type: ignore[union-attr]
        return
    if op in _LOAD:
        dims, cta_only, mc, group, hint = _LOAD[op]
        _count(ins, 3 + mc + hint)
        dst = _shared(ctx, ins.operands[0], SHARED_ADDRESS_SPACE if cta_only else CLUSTER)
        tmap, coords = _tensor(ctx, ins.operands[1], dims)
        bar = _shared(ctx, ins.operands[2], SHARED_ADDRESS_SPACE)
        mask = ctx.read(ins.operands[3], i16) if mc else None
        new = t.CpAsyncBulkTensorSharedClusterGlobalOp(dst, tmap, coords, bar, mask, group, cta_only)
        if hint:
            new = _with(new, "l2CacheHint", _hint_operand(ctx, ins, hint))
        ctx.add(new)
        return
    if op in _STORE:
        dims, hint = _STORE[op]
        _count(ins, 2 + hint)
        tmap, coords = _tensor(ctx, ins.operands[0], dims)
        new = t.CpAsyncBulkTensorGlobalSharedCtaOp(tmap, _shared(ctx, ins.operands[1], SHARED_ADDRESS_SPACE), coords)
        ctx.add(_with(new, "l2CacheHint", _hint_operand(ctx, ins, hint)) if hint else new)
        return
    if op in _PREFETCH:
        dims, hint = _PREFETCH[op]
        _count(ins, 1 + hint)
        tmap, coords = _tensor(ctx, ins.operands[0], dims)
        new = t.CpAsyncBulkTensorPrefetchOp(tmap, coords)
        ctx.add(_with(new, "l2CacheHint", _hint_operand(ctx, ins, hint)) if hint else new)
        return
    if op in _BULK_LOAD:
        mc, cta, hint = _BULK_LOAD[op]
        _count(ins, 4 + mc + hint)
        dst = _shared(ctx, ins.operands[0], SHARED_ADDRESS_SPACE if cta else CLUSTER)
        src = ctx.address(ins.operands[1], GLOBAL_ADDRESS_SPACE) if not _generic_reg(ins.operands[1]) else _global_reg(ctx, ins.operands[1])
        new = t.CpAsyncBulkSharedClusterGlobalOp(dst, src, _shared(ctx, ins.operands[3], SHARED_ADDRESS_SPACE),
                                                 ctx.read(ins.operands[2], i32),
                                                 ctx.read(ins.operands[4], i16) if mc else None)
        ctx.add(_with(new, "l2CacheHint", _hint_operand(ctx, ins, hint)) if hint else new)
        return
    if op in _BULK_STORE:
        hint = _BULK_STORE[op]
        _count(ins, 3 + hint)
        dst = _global_reg(ctx, ins.operands[0]) if _generic_reg(ins.operands[0]) else ctx.address(ins.operands[0], GLOBAL_ADDRESS_SPACE)
        new = t.CpAsyncBulkGlobalSharedCtaOp(dst, _shared(ctx, ins.operands[1], SHARED_ADDRESS_SPACE), ctx.read(ins.operands[2], i32))
        ctx.add(_with(new, "l2CacheHint", _hint_operand(ctx, ins, hint)) if hint else new)
        return
    raise Unmodelled(f"unmodelled instruction '{op}'")


def _generic_reg(operand) -> bool:
    return isinstance(operand, Address) and isinstance(operand.base, Reg) and operand.coordinates is None


def _global_reg(ctx: FunctionImporter, operand: Address) -> SSAValue:
    return ctx.address(operand, GLOBAL_ADDRESS_SPACE)


def _with(op, field: str, value: SSAValue | None):
    """The op rebuilt with one more optional operand (the L2 cache hint)."""
    if value is None:
        return op
    names = [d[0] for d in type(op).get_irdl_definition().operands]
    groups = []
    for name in names:
        current = getattr(op, name)
        if name == field:
            groups.append([value])
        elif isinstance(current, SSAValue):
            groups.append([current])
        elif current is None:
            groups.append([])
        else:
            groups.append(list(current))
    new = type(op).build(operands=groups, properties=dict(op.properties))
    op.erase(safe_erase=False)
    return new


def prefetch(ctx: FunctionImporter, ins: Instruction) -> None:
    if ins.opcode != isa.PREFETCH_TENSORMAP:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    _count(ins, 1)
    operand = ins.operands[0]
    if not isinstance(operand, Address):
        raise Invalid("prefetch.tensormap takes an address [...]")
    ptr = (ctx.int_to_pointer(ctx.read(operand.base, i64), llvm.LLVMPointerType())
           if isinstance(operand.base, Reg) else ctx.address(operand, 0))
    ctx.add(t.PrefetchOp(ptr))


HANDLERS = {"cp.async": cp_async, "prefetch.tensormap": prefetch}
