"""mapa, setmaxnreg and barrier.cluster as the nvvm ops the PTX target emits them from."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerType, i32

from tmem_dialect import isa
from tmem_dialect.conventions import GENERIC_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from tmem_dialect.dialects import nvvm_cluster, nvvm_sync
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.syntax import Imm, Instruction

_MAPA = {
    f"mapa{space}.{t}": (shared, int(t[1:]))
    for shared, space in ((True, ".shared::cluster"), (False, ""))
    for t in ("u32", "u64")
}
_SETMAXNREG = {isa.setmaxnreg_mnemonic(inc): inc for inc in (True, False)}
_CLUSTER_BARRIER = {
    isa.cluster_barrier_mnemonic(what, aligned): (op, aligned)
    for what, op in (("arrive", nvvm_sync.ClusterArriveOp), ("arrive.relaxed", nvvm_sync.ClusterArriveRelaxedOp),
                     ("wait", nvvm_sync.ClusterWaitOp))
    for aligned in (True, False)
}


def mapa(ctx: FunctionImporter, ins: Instruction) -> None:
    """mapa{.shared::cluster}.{u32,u64} d, a, b: nvvm.mapa on the pointer a holds."""
    found = _MAPA.get(ins.opcode)
    if found is None:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    shared, width = found
    if len(ins.operands) != 3:
        raise Invalid(f"'{ins.opcode}' takes a destination, an address and a CTA rank")
    d, a, b = ins.operands
    space = SHARED_ADDRESS_SPACE if shared else GENERIC_ADDRESS_SPACE
    t = IntegerType(width)
    pointer = llvm.LLVMPointerType(IntAttr(space)) if space else llvm.LLVMPointerType()
    value = ctx.read(a, t)
    ptr = ctx.int_to_pointer(value, pointer)
    mapped = ctx.add(nvvm_cluster.MapaOp(ptr, ctx.read(b, i32))).results[0]
    ctx.write(d, ctx.add(llvm.PtrToIntOp(mapped, t)).results[0])


def setmaxnreg(ctx: FunctionImporter, ins: Instruction) -> None:
    """setmaxnreg.{inc,dec}.sync.aligned.u32 N: nvvm.setmaxregister (N an immediate, checked)."""
    increase = _SETMAXNREG.get(ins.opcode)
    if increase is None:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    if len(ins.operands) != 1 or not isinstance(ins.operands[0], Imm) or ins.operands[0].is_float:
        raise Invalid(f"'{ins.opcode}' takes one immediate register count")
    count = int(ins.operands[0].value)
    if err := isa.setmaxnreg_error(count):
        raise Invalid(f"'{ins.opcode}': {err}")
    ctx.add(nvvm_cluster.SetMaxRegisterOp(increase, count))


def cluster_barrier(ctx: FunctionImporter, ins: Instruction) -> None:
    """barrier.cluster.{arrive,arrive.relaxed,wait}{.aligned}: nvvm.cluster.*."""
    found = _CLUSTER_BARRIER.get(ins.opcode)
    if found is None:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    if ins.operands:
        raise Invalid(f"'{ins.opcode}' takes no operands")
    op_type, aligned = found
    ctx.add(op_type(aligned))


HANDLERS = {"mapa": mapa, "setmaxnreg": setmaxnreg, "barrier.cluster": cluster_barrier}
