"""PTX for the base nvvm ops: tcgen05 alloc, dealloc, ld/st, wait, fence; bar.sync/arrive, shfl.sync, sregs.

Mnemonics come from `isa`; a constant nCols that folding found is checked here, as ptxas would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.conventions import SHARED_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.dialects import nvvm, nvvm_sync, nvvm_tmem, nvvm_warp
from tmem_dialect.lowering.ptx_values import Imm, Unsupported

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)


def special_register(em: Emitter, op: nvvm.SpecialRegister) -> None:
    (d,) = em.fresh(op.res)
    em.out(f"mov.u32 {d}, {op.ptx_register};")


def barrier(em: Emitter, op: nvvm_sync.BarrierOp) -> None:
    mnemonic = "bar.sync" if bool(op.aligned.value.data) else "barrier.sync"
    args = [str(em.reg_or_imm(op.barrierId))] if op.barrierId is not None else ["0"]
    if op.numberOfThreads is not None:
        args.append(str(em.reg_or_imm(op.numberOfThreads)))
    em.out(f"{mnemonic} {', '.join(args)};")


def shfl_sync(em: Emitter, op: nvvm_warp.ShflSyncOp) -> None:
    (d,) = em.fresh(op.res)
    a, b, c, m = (em.reg_or_imm(v) for v in (op.val, op.offset, op.mask_and_clamp, op.thread_mask))
    em.out(f"shfl.sync.{op.kind.data.value}.b32 {d}, {a}, {b}, {c}, {m};")


def barrier_arrive(em: Emitter, op: nvvm_sync.BarrierArriveOp) -> None:
    barrier = str(em.reg_or_imm(op.barrierId)) if op.barrierId is not None else "0"
    em.out(f"bar.arrive {barrier}, {em.reg_or_imm(op.numberOfThreads)};")


def ncols(em: Emitter, value: SSAValue) -> str:
    # A constant nCols stays an immediate, so ptxas checks it (it cannot check a register);
    # one that folding found (16 - 2) is checked here first, with our message.
    found = em.reg_or_imm(value)
    if isinstance(found, Imm) and (problem := isa.ncols_error(found.signed)):
        raise Unsupported(problem)
    return str(found)


def tcgen05_alloc(em: Emitter, op: nvvm_tmem.Tcgen05AllocOp) -> None:
    shared = pointer_address_space(op.addr.type) == SHARED_ADDRESS_SPACE
    mnemonic = isa.alloc_mnemonic(op.cta_group_value, shared)
    em.out(f"{mnemonic} {em.address(op.addr)}, {ncols(em, op.nCols)};")


def tcgen05_dealloc(em: Emitter, op: nvvm_tmem.Tcgen05DeallocOp) -> None:
    em.out(f"{isa.dealloc_mnemonic(op.cta_group_value)} {em.reg(op.taddr)}, {ncols(em, op.nCols)};")


def tcgen05_relinquish(em: Emitter, op: nvvm_tmem.Tcgen05RelinquishAllocPermitOp) -> None:
    em.out(f"{isa.relinquish_mnemonic(op.cta_group_value)};")


def half_split_offset(em: Emitter, op: nvvm_tmem.Tcgen05LdOp | nvvm_tmem.Tcgen05StOp) -> str:
    if op.offset is None:
        return ""
    found = em.operand(op.offset)
    if not isinstance(found, Imm):
        raise Unsupported("the 16x32bx2 half-split offset must be a constant (PTX takes an immediate)")
    return f", {found.signed}"


def tcgen05_ld(em: Emitter, op: nvvm_tmem.Tcgen05LdOp) -> None:
    mnemonic = isa.ldst_mnemonic("ld", op.isa_shape, op.num_count, isa.PACK_16B if op.pack else None)
    regs = em.fresh(op.res)
    taddr = em.reg(op.tmemAddr)
    em.out(f"{mnemonic} {{{', '.join(map(str, regs))}}}, [{taddr}]{half_split_offset(em, op)};")


def tcgen05_st(em: Emitter, op: nvvm_tmem.Tcgen05StOp) -> None:
    mnemonic = isa.ldst_mnemonic("st", op.isa_shape, op.num_count, isa.UNPACK_16B if op.unpack else None)
    regs = [str(em.reg(op.val, i)) for i in range(op.register_count)]
    taddr = em.reg(op.tmemAddr)
    em.out(f"{mnemonic} [{taddr}]{half_split_offset(em, op)}, {{{', '.join(regs)}}};")


def tcgen05_wait(em: Emitter, op: nvvm_tmem.Tcgen05WaitOp) -> None:
    em.out(f"{isa.wait_mnemonic(op.kind.data is nvvm_tmem.WaitKind.load)};")


def tcgen05_fence(em: Emitter, op: nvvm_tmem.Tcgen05FenceOp) -> None:
    em.out(f"{isa.fence_mnemonic(op.kind.data is nvvm_tmem.FenceKind.before)};")


NVVM_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    nvvm.SpecialRegister: special_register,  # found through each register op's base class
    nvvm_sync.BarrierOp: barrier,
    nvvm_sync.BarrierArriveOp: barrier_arrive,
    nvvm_warp.ShflSyncOp: shfl_sync,
    nvvm_tmem.Tcgen05AllocOp: tcgen05_alloc,
    nvvm_tmem.Tcgen05DeallocOp: tcgen05_dealloc,
    nvvm_tmem.Tcgen05RelinquishAllocPermitOp: tcgen05_relinquish,
    nvvm_tmem.Tcgen05LdOp: tcgen05_ld,
    nvvm_tmem.Tcgen05StOp: tcgen05_st,
    nvvm_tmem.Tcgen05WaitOp: tcgen05_wait,
    nvvm_tmem.Tcgen05FenceOp: tcgen05_fence,
}
