"""tcgen05.mma/cp/shift/commit, the descriptor ops and the mbarrier ops -> upstream nvvm ops.

TMEM addresses (i32) become `llvm.inttoptr ... to !llvm.ptr<6>`; descriptor ops become constants
(instr_desc) or `nvvm.tcgen05.mma_smem_desc` over their encoded fields (smem_desc).
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, i1, i8, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tmem_dialect import isa
from tmem_dialect.dialects import nvvm
from tmem_dialect.dialects import nvvm_async as up
from tmem_dialect.dialects import tcgen05_cp as cp
from tmem_dialect.dialects import tcgen05_desc as td
from tmem_dialect.dialects import tcgen05_mbarrier as mb
from tmem_dialect.dialects import tcgen05_mma as tc
from tmem_dialect.lowering.llvm_builders import constant, inttoptr

TMEM = nvvm.TMEM_ADDRESS_SPACE


def _group(cta_group: int) -> nvvm.CTAGroupKindAttr:
    return nvvm.CTAGroupKindAttr(nvvm.CTAGroupKind.of(cta_group))


def _block_scale(op: tc.MmaOp) -> up.BlockScaleAttr:
    """Upstream names the block size (default / block16 / block32); .scale_vec::NX is the same
    block size spelled per kind (1X on mxf8f6f4 and 2X on mxf4* are 32 elements, 4X is 16)."""
    sv = op.isa_scale_vec
    if sv is None:
        return up.DEFAULT_BLOCK_SCALE
    size = isa.scale_block_size(op.isa_kind, sv)
    return up.BlockScaleAttr(up.BlockScale.block16 if size == 16 else up.BlockScale.block32)


class MmaLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tc.MmaOp, rewriter: PatternRewriter, /) -> None:
        new_ops: list[Operation] = []

        def tmem(value: SSAValue) -> SSAValue:
            ptr = inttoptr(value, TMEM)
            new_ops.append(ptr)
            return ptr.results[0]

        d = tmem(op.d)
        a = tmem(op.a) if op.a_in_tmem else op.a
        values: dict[str, SSAValue] = {
            "matrixD": d, "matrixA": a, "matrixB": op.b, "idesc": op.idesc, "enableInputD": op.enable_input_d,
        }  # fmt: skip
        kind = up.MMAKindAttr(up.MMAKind(op.isa_kind.value))
        props: dict = {"kind": kind}
        ws = op.ws is not None
        if op.sparse_metadata is not None:
            values["sparseMetadata"] = tmem(op.sparse_metadata)
        if op.isa_kind.block_scaled:
            assert op.scale_a is not None and op.scale_b is not None
            values["scaleA"] = tmem(op.scale_a)
            values["scaleB"] = tmem(op.scale_b)
            props["blockScale"] = _block_scale(op)
        if op.disable_output_lane is not None:
            values["disableOutputLane"] = op.disable_output_lane
        if op.zero_column_mask is not None:
            values["zeroColMask"] = op.zero_column_mask
        if op.scale_input_d is not None:
            scale = constant(op.scale_input_d.value.data, i64)
            new_ops.append(scale)
            values["scaleInputD"] = scale.result
        if ws:
            cls = up.Tcgen05MMAWsSparseOp if op.sparse else up.Tcgen05MMAWsOp
            props |= {"collectorBBuffer": up.B0, "collectorOp": up.DISCARD}
        else:
            props |= {"ctaGroup": _group(op.cta_group_value), "collectorOp": up.DISCARD, "collectorOpB": up.DISCARD}
            if op.isa_kind.block_scaled:
                cls = up.Tcgen05MMASparseBlockScaleOp if op.sparse else up.Tcgen05MMABlockScaleOp
            else:
                cls = up.Tcgen05MMASparseOp if op.sparse else up.Tcgen05MMAOp
        new = cls.build_from(values, props, {})
        rewriter.replace(op, [*new_ops, new], [])


class CpLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cp.CpOp, rewriter: PatternRewriter, /) -> None:
        taddr = inttoptr(op.taddr, TMEM)
        new = up.Tcgen05CpOp(taddr, op.smem_desc, op.isa_shape, op.cta_group_value, op.isa_multicast, op.isa_source)
        rewriter.replace(op, [taddr, new], [])


class ShiftLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cp.ShiftOp, rewriter: PatternRewriter, /) -> None:
        taddr = inttoptr(op.taddr, TMEM)
        rewriter.replace(op, [taddr, up.Tcgen05ShiftOp(taddr, op.cta_group_value)], [])


class CommitLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cp.CommitOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, up.Tcgen05CommitOp(op.mbarrier, op.cta_group_value, op.multicast_mask), [])


class InstrDescLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: td.InstrDescOp, rewriter: PatternRewriter, /) -> None:
        value = op.descriptor.encode()
        signed = value - (1 << 32) if value >= 1 << 31 else value
        rewriter.replace(op, llvm.ConstantOp(IntegerAttr(signed, i32), i32), None)


class SmemDescLowering(RewritePattern):
    """start = (address & 0x3FFFF) >> 4 at run time; the constant fields are encoded here."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: td.SmemDescOp, rewriter: PatternRewriter, /) -> None:
        mask = constant(isa.SHARED_WINDOW - 1, i32)
        four = constant(4, i32)
        masked = llvm.AndOp(op.address, mask.result)
        start = llvm.LShrOp(masked.res, four.result)
        desc = op.descriptor()
        lbo = constant(desc.leading_byte_offset >> 4, i32)
        sbo = constant(desc.stride_byte_offset >> 4, i32)
        base = constant(desc.base_offset, i8)
        mode = constant(desc.lbo_mode, i1)
        swizzle = constant(desc.swizzle.value, i8)
        new = up.Tcgen05MmaSmemDescOp(start.res, lbo.result, sbo.result, base.result, mode.result, swizzle.result)
        rewriter.replace(op, [mask, four, masked, start, lbo, sbo, base, mode, swizzle, new], new.results)


class MbarrierLowering(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        new: Operation
        if isinstance(op, mb.MbarrierInitOp):
            new = up.MBarrierInitOp(op.mbarrier, op.count)
        elif isinstance(op, mb.MbarrierArriveOp):
            new = up.MBarrierArriveOp(op.mbarrier, op.count)
        elif isinstance(op, mb.MbarrierArriveExpectTxOp):
            new = up.MBarrierArriveExpectTxOp(op.mbarrier, op.tx_count)
        elif isinstance(op, mb.MbarrierExpectTxOp):
            new = up.MBarrierExpectTxOp(op.mbarrier, op.tx_count)
        elif isinstance(op, mb.MbarrierCompleteTxOp):
            new = up.MBarrierCompleteTxOp(op.mbarrier, op.tx_count)
        elif isinstance(op, mb.MbarrierTryWaitOp):
            new = up.MBarrierTryWaitOp(op.mbarrier, op.phase)
        elif isinstance(op, mb.MbarrierTestWaitOp):
            new = up.MBarrierTestWaitOp(op.mbarrier, op.phase)
        elif isinstance(op, mb.MbarrierWaitParityOp):
            ticks = constant(0, i32)
            rewriter.replace(op, [ticks, up.MBarrierTryWaitParityOp(op.mbarrier, op.parity, ticks.result)], [])
            return
        elif isinstance(op, mb.MbarrierInvalOp):
            new = up.MBarrierInvalOp(op.mbarrier)
        elif isinstance(op, mb.FenceMbarrierInitOp):
            new = up.FenceMbarrierInitOp()
        elif isinstance(op, mb.FenceProxyAsyncOp):
            new = up.FenceProxyOp(up.ProxyKind.async_shared, up.SharedSpace.cta)
        elif isinstance(op, mb.ElectSyncOp):
            new = up.ElectSyncOp()
        else:
            return
        rewriter.replace(op, new, new.results)


def mma_patterns() -> list[RewritePattern]:
    return [
        MmaLowering(),
        CpLowering(),
        ShiftLowering(),
        CommitLowering(),
        InstrDescLowering(),
        SmemDescLowering(),
        MbarrierLowering(),
    ]
