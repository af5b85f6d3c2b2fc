"""PTX for the warp-level nvvm ops (bar.warp.sync, ldmatrix) and llvm.extractvalue/insertvalue of their structs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects import llvm
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.dialects import nvvm_warp
from tmem_dialect.lowering.ptx_values import RegClass, Unsupported

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)


def bar_warp_sync(em: Emitter, op: nvvm_warp.BarWarpSyncOp) -> None:
    em.out(f"{isa.BAR_WARP_SYNC_MNEMONIC} {em.reg_or_imm(op.mask)};")


def ldmatrix(em: Emitter, op: nvvm_warp.LdMatrixOp) -> None:
    """`ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 {d...}, [addr]`: one b32 register per matrix."""
    regs = [em.new_reg(RegClass.B32) for _ in range(op.count)]
    em.out(f"{isa.ldmatrix_mnemonic(op.count, op.transpose)} {{{', '.join(map(str, regs))}}}, [{em.reg(op.ptr)}];")
    em.define(op.res, list(regs))


def _field(op: llvm.ExtractValueOp | llvm.InsertValueOp) -> int:
    position = tuple(op.position.get_values())
    if len(position) != 1:
        raise Unsupported("only one-level struct positions are supported")
    return position[0]


def extract_value(em: Emitter, op: llvm.ExtractValueOp) -> None:
    """A struct is its fields' registers, one each (the structs ldmatrix gives)."""
    fields = em.operands(op.container)
    index = _field(op)
    if not isinstance(op.container.type, llvm.LLVMStructType) or len(fields) != len(op.container.type.types):
        raise Unsupported(f"llvm.extractvalue of {op.container.type}")
    em.define(op.res, [fields[index]])


WARP_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    nvvm_warp.BarWarpSyncOp: bar_warp_sync,
    nvvm_warp.LdMatrixOp: ldmatrix,
    llvm.ExtractValueOp: extract_value,
}
