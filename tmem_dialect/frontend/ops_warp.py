"""bar.warp.sync and ldmatrix (the forms isa.ldmatrix_mnemonic names) as the warp-level nvvm ops."""

from __future__ import annotations

from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Attribute

from tmem_dialect import isa
from tmem_dialect.dialects import nvvm_warp
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.syntax import Instruction, VectorOperand

_SHARED = 3
_LDMATRIX = {isa.ldmatrix_mnemonic(n, t): (n, t) for n in isa.LDMATRIX_COUNTS for t in (False, True)}
# `.shared::cta` is the same state space as `.shared`
_LDMATRIX |= {m.replace(".shared.", ".shared::cta."): form for m, form in _LDMATRIX.items()}


def bar_warp_sync(ctx: FunctionImporter, ins: Instruction) -> None:
    """bar.warp.sync membermask."""
    if ins.opcode != isa.BAR_WARP_SYNC_MNEMONIC:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    if len(ins.operands) != 1:
        raise Invalid(f"'{ins.opcode}' takes a member mask")
    ctx.add(nvvm_warp.BarWarpSyncOp(ctx.read(ins.operands[0], i32)))


@cache  # (two forms per count; the attributes' constructors verify them on every call)
def ldmatrix_form(count: int, transpose: bool) -> tuple[Attribute, dict[str, Attribute]]:
    """The result type and properties of `nvvm_warp.LdMatrixOp(ptr, count, transpose)`, in its
    order (tests/test_frontend_construct.py pins them)."""
    result = i32 if count == 1 else llvm.LLVMStructType.from_type_list([i32] * count)
    layout = nvvm_warp.MMALayout.col if transpose else nvvm_warp.MMALayout.row
    return result, {"num": IntegerAttr(count, i32), "layout": nvvm_warp.MMALayoutAttr(layout),
                    "shape": nvvm_warp.LdStMatrixShapeAttr(8, 8),
                    "eltType": nvvm_warp.LdStMatrixEltTypeAttr(nvvm_warp.LdStMatrixEltType.b16)}


def ldmatrix(ctx: FunctionImporter, ins: Instruction) -> None:
    """ldmatrix.sync.aligned.m8n8.xN{.trans}.shared{::cta}.b16 {d...}, [addr]."""
    form = _LDMATRIX.get(ins.opcode)
    if form is None:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    count, transpose = form
    if len(ins.operands) != 2:
        raise Invalid(f"'{ins.opcode}' takes the destination registers and an address")
    dest, address = ins.operands
    dests = dest.elements if isinstance(dest, VectorOperand) else [dest]
    if len(dests) != count:
        raise Invalid(f"'{ins.opcode}' writes {count} registers, not {len(dests)}")
    result_type, properties = ldmatrix_form(count, transpose)
    result = ctx.create(nvvm_warp.LdMatrixOp, [ctx.address(address, _SHARED)], [result_type], properties).results[0]
    if count == 1:
        ctx.write(dests[0], result)
        return
    for i, d in enumerate(dests):
        if d is not None:
            ctx.write(d, ctx.extract_value(result, i, i32))


HANDLERS = {"bar.warp": bar_warp_sync, "ldmatrix": ldmatrix}
