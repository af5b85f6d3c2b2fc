"""Special registers, bar/barrier and the tcgen05 instructions the nvvm dialect has, as nvvm ops.

The tcgen05 spellings are matched against isa.py's mnemonic functions (what the PTX target
emits), so the importer and the emitter are inverse by construction.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerType, i32, i64
from xdsl.ir import Attribute, SSAValue

from tmem_dialect import isa
from tmem_dialect.dialects import nvvm, nvvm_sync, nvvm_tmem, nvvm_warp
from tmem_dialect.frontend import types as T
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.ops_memory import build_vector, split_vector
from tmem_dialect.frontend.syntax import Imm, Instruction, VectorOperand

_PTR6 = llvm.LLVMPointerType(IntAttr(nvvm.TMEM_ADDRESS_SPACE))


def special_register(ctx: FunctionImporter, name: str) -> SSAValue:
    op_type = nvvm.SPECIAL_REGISTER_BY_NAME.get(f"nvvm.read.ptx.sreg.{nvvm.sreg_name(name)}")
    if op_type is None:
        raise Unmodelled(f"unmodelled special register '%{name}'")
    return ctx.add(op_type()).results[0]


def barrier(ctx: FunctionImporter, ins: Instruction) -> None:
    """bar{.cta}.sync / barrier{.cta}.sync{.aligned} a{, b}: nvvm.barrier (aligned = bar's form)."""
    parts = ins.parts
    rest = parts[1:]
    if rest[:1] == ["cta"]:
        rest = rest[1:]
    aligned = parts[0] == "bar"
    if parts[0] == "barrier" and rest[1:] == ["aligned"]:
        aligned, rest = True, rest[:1]
    if rest != ["sync"]:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    if not 1 <= len(ins.operands) <= 2:
        raise Invalid(f"'{ins.opcode}' takes a barrier id and an optional thread count")
    operands = [ctx.read(operand, i32) for operand in ins.operands]
    ctx.create(nvvm_sync.BarrierOp, operands, [], barrier_properties(len(operands), aligned))


def barrier_properties(operands: int, aligned: bool) -> dict[str, Attribute]:
    """What `nvvm_sync.BarrierOp(id, count)` (count given when `operands` is 2) holds after its
    `aligned` is set, in that order (tests/test_frontend_construct.py pins them)."""
    return {"operandSegmentSizes": T.dense_array(i32, (1, operands - 1)), "aligned": nvvm.TRUE if aligned else nvvm.FALSE}


def _tmem_pointer(ctx: FunctionImporter, operand) -> SSAValue:
    value = ctx.read(operand, i32)
    return ctx.int_to_pointer(value, _PTR6)


_ALLOC = {isa.alloc_mnemonic(g, shared): (g, shared) for g in isa.CTA_GROUPS for shared in (True, False)}
_DEALLOC = {isa.dealloc_mnemonic(g): g for g in isa.CTA_GROUPS}
_RELINQUISH = {isa.relinquish_mnemonic(g): g for g in isa.CTA_GROUPS}
_WAIT = {isa.wait_mnemonic(load): load for load in (True, False)}
_FENCE = {isa.fence_mnemonic(before): before for before in (True, False)}
_LDST = {
    isa.ldst_mnemonic(op, shape, num, packing): (op, shape, num, packing is not None)
    for op, packing_flag in (("ld", isa.PACK_16B), ("st", isa.UNPACK_16B))
    for shape in isa.Shape
    for num in isa.NUMS
    for packing in (None, packing_flag)
}


def _spelled(ins: Instruction, table: dict):
    found = table.get(ins.opcode)
    if found is None:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    return found


def tcgen05_alloc(ctx: FunctionImporter, ins: Instruction) -> None:
    group, shared = _spelled(ins, _ALLOC)
    if len(ins.operands) != 2:
        raise Invalid(f"'{ins.opcode}' takes an address and a column count")
    slot = ctx.address(ins.operands[0], nvvm.SHARED_ADDRESS_SPACE if shared else 0)
    ctx.add(nvvm_tmem.Tcgen05AllocOp(slot, ctx.read(ins.operands[1], i32), group))


def tcgen05_dealloc(ctx: FunctionImporter, ins: Instruction) -> None:
    group = _spelled(ins, _DEALLOC)
    if len(ins.operands) != 2:
        raise Invalid(f"'{ins.opcode}' takes a TMEM address and a column count")
    ctx.add(nvvm_tmem.Tcgen05DeallocOp(_tmem_pointer(ctx, ins.operands[0]), ctx.read(ins.operands[1], i32), group))


def tcgen05_relinquish(ctx: FunctionImporter, ins: Instruction) -> None:
    ctx.add(nvvm_tmem.Tcgen05RelinquishAllocPermitOp(_spelled(ins, _RELINQUISH)))


def tcgen05_wait(ctx: FunctionImporter, ins: Instruction) -> None:
    load = _spelled(ins, _WAIT)
    ctx.add(nvvm_tmem.Tcgen05WaitOp(nvvm_tmem.WaitKind.load if load else nvvm_tmem.WaitKind.store))


def tcgen05_fence(ctx: FunctionImporter, ins: Instruction) -> None:
    before = _spelled(ins, _FENCE)
    ctx.add(nvvm_tmem.Tcgen05FenceOp(nvvm_tmem.FenceKind.before if before else nvvm_tmem.FenceKind.after))


def _half_split_offset(ctx: FunctionImporter, shape: isa.Shape, operand) -> SSAValue | None:
    if not shape.needs_half_split_offset:
        return None
    if not isinstance(operand, Imm) or operand.is_float:
        raise Invalid("the 16x32bx2 half-split offset must be an immediate")
    return ctx.constant(int(operand.value), i64)


def _registers(ins: Instruction, operand, count: int) -> list:
    if not isinstance(operand, VectorOperand) or len(operand.elements) != count:
        raise Invalid(f"'{ins.opcode}' moves {count} registers per thread: give {{...}} with {count}")
    return operand.elements


def tcgen05_ldst(ctx: FunctionImporter, ins: Instruction) -> None:
    op, shape, num, packed = _spelled(ins, _LDST)
    regs = isa.regs_per_thread(shape, num)
    ops = ins.operands
    want = 3 if shape.needs_half_split_offset else 2
    if len(ops) != want:
        raise Invalid(f"'{ins.opcode}' takes {want} operands")
    if op == "ld":
        dests, address = ops[0], ops[1]
        offset_operand = ops[2] if want == 3 else None
    else:
        address, dests = ops[0], ops[-1]
        offset_operand = ops[1] if want == 3 else None
    if not isinstance(address, Imm) and not hasattr(address, "base"):
        raise Invalid("the TMEM address is written [%r]")
    if getattr(address, "offset", 0):
        raise Invalid("a TMEM address takes no offset inside [...]")
    taddr = _tmem_pointer(ctx, address.base)  # type: ignore[union-attr]
    offset = _half_split_offset(ctx, shape, offset_operand)
    elements = _registers(ins, dests, regs)
    if op == "ld":
        result = ctx.add(nvvm_tmem.Tcgen05LdOp(taddr, shape, num, pack=packed, offset=offset)).results[0]
        for e, x in zip(elements, split_vector(ctx, result, regs)):
            if e is not None:
                ctx.write(e, x)
        return
    values = [ctx.read(e, i32) if e is not None else ctx.undefined(i32) for e in elements]
    vec = build_vector(ctx, values, i32)
    ctx.add(nvvm_tmem.Tcgen05StOp(taddr, vec, shape, unpack=packed, offset=offset))


def shfl(ctx: FunctionImporter, ins: Instruction) -> None:
    """shfl.sync.{up,down,bfly,idx}.b32 d, a, b, c, membermask: nvvm.shfl.sync."""
    parts = ins.parts
    if len(parts) != 4 or parts[1] != "sync" or parts[3] != "b32" or parts[2] not in nvvm_warp.ShflKind.__members__:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    if ins.extra is not None:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}' with a |p validity predicate")
    if len(ins.operands) != 5:
        raise Invalid(f"'{ins.opcode}' takes d, a, b, c and a member mask")
    d, a, b, c, mask = ins.operands
    op = nvvm_warp.ShflSyncOp.create(
        operands=[ctx.read(mask, i32), ctx.read(a, i32), ctx.read(b, i32), ctx.read(c, i32)],
        properties={"kind": nvvm_warp.ShflKindAttr(nvvm_warp.ShflKind(parts[2]))},
        result_types=[i32],
    )
    ctx.write(d, ctx.add(op).results[0])


def vote(ctx: FunctionImporter, ins: Instruction) -> None:
    """vote.sync.{all,any,uni}.pred d, {!}a, membermask / vote.sync.ballot.b32 d, {!}a, membermask."""
    parts = ins.parts
    kinds = {("all", "pred"), ("any", "pred"), ("uni", "pred"), ("ballot", "b32")}
    if len(parts) != 4 or parts[1] != "sync" or (parts[2], parts[3]) not in kinds:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    if len(ins.operands) != 3:
        raise Invalid(f"'{ins.opcode}' takes d, a predicate and a member mask")
    d, a, mask = ins.operands
    op = nvvm_warp.VoteSyncOp(nvvm_warp.VoteSyncKind(parts[2]), ctx.read(mask, i32), ctx.read(a, IntegerType(1)))
    ctx.write(d, ctx.add(op).results[0])


def tcgen05(ctx: FunctionImporter, ins: Instruction) -> None:
    head = ins.parts[1].split("::")[0]
    handler = {
        "alloc": tcgen05_alloc, "dealloc": tcgen05_dealloc, "relinquish_alloc_permit": tcgen05_relinquish,
        "wait": tcgen05_wait, "fence": tcgen05_fence, "ld": tcgen05_ldst, "st": tcgen05_ldst,
    }.get(head)  # fmt: skip
    if handler is None:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    handler(ctx, ins)


HANDLERS = {
    "bar": barrier, "barrier": barrier, "shfl": shfl, "vote": vote,
    **{f"tcgen05.{k}": tcgen05 for k in ("alloc", "dealloc", "relinquish_alloc_permit", "ld", "st")},
    "tcgen05.wait::ld": tcgen05, "tcgen05.wait::st": tcgen05,
    "tcgen05.fence::before_thread_sync": tcgen05, "tcgen05.fence::after_thread_sync": tcgen05,
}  # fmt: skip

