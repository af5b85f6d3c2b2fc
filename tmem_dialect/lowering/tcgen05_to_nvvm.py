"""tcgen05.* -> nvvm.tcgen05.* (upstream MLIR's ops) and func.func kernels -> llvm.func with nvvm.kernel.

TMEM addresses are i32 at the tcgen05 level; each use becomes `llvm.inttoptr ... to !llvm.ptr<6>`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, UnitAttr, i32, i64
from xdsl.ir import Attribute, Operation, Region
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from tmem_dialect.conventions import NVVM_KERNEL_ATTR, NVVM_SPELLING, TMEM_ADDRESS_SPACE
from tmem_dialect.dialects import nvvm_tmem, tcgen05, tcgen05_tiles
from tmem_dialect.lowering.llvm_builders import TypeConverter, as_pointer, constant, inttoptr
from tmem_dialect.lowering.tcgen05_mma_to_nvvm import mma_patterns
from tmem_dialect.lowering.tcgen05_tma_to_nvvm import tma_patterns

TMEM = TMEM_ADDRESS_SPACE


@dataclass
class AllocLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcgen05.AllocOp, rewriter: PatternRewriter, /) -> None:
        slot = as_pointer(rewriter, op.slot, self.converter, op)
        ncols = constant(op.ncols.value.data, i32)
        rewriter.replace(op, [ncols, nvvm_tmem.Tcgen05AllocOp(slot, ncols, op.cta_group_value)], [])


class DeallocLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcgen05.DeallocOp, rewriter: PatternRewriter, /) -> None:
        taddr = inttoptr(op.taddr, TMEM)
        ncols = constant(op.ncols.value.data, i32)
        rewriter.replace(op, [taddr, ncols, nvvm_tmem.Tcgen05DeallocOp(taddr, ncols, op.cta_group_value)], [])


class RelinquishLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcgen05.RelinquishAllocPermitOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, nvvm_tmem.Tcgen05RelinquishAllocPermitOp(op.cta_group_value), [])


def _offset(op: tcgen05.LdOp | tcgen05.StOp) -> list[Operation]:
    """The 16x32bx2 half-split offset: an i64 constant operand upstream (an immediate in PTX)."""
    value = op.offset_value
    return [] if value is None else [constant(value, i64)]


class LdStLowering(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, (tcgen05.LdOp, tcgen05.StOp)):
            return
        taddr = inttoptr(op.taddr, TMEM)
        offset = _offset(op)
        k = offset[0] if offset else None
        if isinstance(op, tcgen05.LdOp):
            new: Operation = nvvm_tmem.Tcgen05LdOp(taddr, op.isa_shape, op.num_count, pack=op.pack is not None, offset=k)
        else:
            new = nvvm_tmem.Tcgen05StOp(taddr, op.value, op.isa_shape, unpack=op.unpack is not None, offset=k)
        rewriter.replace(op, [taddr, *offset, new], list(new.results))


class WaitLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcgen05.WaitOp, rewriter: PatternRewriter, /) -> None:
        load = op.kind.data is tcgen05.WaitKind.load
        rewriter.replace(op, nvvm_tmem.Tcgen05WaitOp(nvvm_tmem.WaitKind.load if load else nvvm_tmem.WaitKind.store), [])


class FenceLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcgen05.FenceOp, rewriter: PatternRewriter, /) -> None:
        before = op.kind.data is tcgen05.FenceKind.before_thread_sync
        rewriter.replace(op, nvvm_tmem.Tcgen05FenceOp(nvvm_tmem.FenceKind.before if before else nvvm_tmem.FenceKind.after), [])


class DeclBufferLowering(RewritePattern):
    """A TMEM buffer is a view for tile ops; once they are lowered (tmem-assign-lanes) it has no uses."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcgen05_tiles.DeclBufferOp, rewriter: PatternRewriter, /) -> None:
        if not op.result.uses:
            rewriter.erase(op)


@dataclass
class FuncLowering(RewritePattern):
    """func.func -> llvm.func: memref parameters become pointers, index becomes the index integer,
    `tcgen05.kernel` / `tcgen05.reqntid` become `nvvm.kernel` / `nvvm.reqntid`."""

    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter, /) -> None:
        inputs = [self.converter.convert(t) for t in op.function_type.inputs.data]
        outputs = [self.converter.convert(t) for t in op.function_type.outputs.data]
        result: Attribute = outputs[0] if outputs else llvm.LLVMVoidType()
        body = rewriter.move_region_contents_to_new_regions(op.body)
        if body.blocks:
            for arg, t in zip(body.blocks.first.args, inputs, strict=True):  # type: ignore[union-attr]
                if arg.type != t:
                    rewriter.replace_value_with_new_type(arg, t)
        attributes: dict[str, Attribute] = {}
        for name, attr in op.attributes.items():
            new_name = NVVM_SPELLING.get(name, name)
            attributes[new_name] = UnitAttr() if new_name == NVVM_KERNEL_ATTR else attr
        other: dict[str, Attribute | None] = {}
        if op.arg_attrs is not None and any(d.data for d in op.arg_attrs.data):
            other["arg_attrs"] = ArrayAttr([DictionaryAttr(dict(d.data)) for d in op.arg_attrs.data])
        new = llvm.FuncOp(
            op.sym_name.data,
            llvm.LLVMFunctionType(inputs, result),
            linkage=llvm.LinkageAttr("external"),
            body=body if body.blocks else Region(),
            other_props=other,
            extra_attrs=attributes,
        )
        rewriter.replace(op, new, [])


class ReturnLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, llvm.ReturnOp(op.arguments[0] if op.arguments else None), [])


def tcgen05_patterns(converter: TypeConverter) -> list[RewritePattern]:
    return [
        AllocLowering(converter),
        DeallocLowering(),
        RelinquishLowering(),
        LdStLowering(),
        WaitLowering(),
        FenceLowering(),
        DeclBufferLowering(),
        *mma_patterns(),
        *tma_patterns(),
        FuncLowering(converter),
        ReturnLowering(),
    ]

