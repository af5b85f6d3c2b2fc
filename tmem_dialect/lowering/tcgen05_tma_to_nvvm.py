"""tcgen05.tma_load/tma_store/bulk_commit_group/bulk_wait_group -> the nvvm TMA ops (one to one).

The load's shared::cta destination becomes the executing CTA's shared::cluster address
(`llvm.addrspacecast` to `!llvm.ptr<7>`), the form upstream's op takes.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr
from xdsl.dialects import llvm
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from tmem_dialect.dialects import llvm_ext
from tmem_dialect.dialects import nvvm_tma as up
from tmem_dialect.dialects import tcgen05_tma as tc

CLUSTER_POINTER = llvm.LLVMPointerType(IntAttr(up.SHARED_CLUSTER_ADDRESS_SPACE))


class TmaLoadLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tc.TmaLoadOp, rewriter: PatternRewriter, /) -> None:
        dst = llvm_ext.AddrSpaceCastOp(op.dst, CLUSTER_POINTER)
        new = up.CpAsyncBulkTensorSharedClusterGlobalOp(dst.results[0], op.tensor_map, list(op.coordinates),
                                                        op.mbarrier, op.multicast_mask, op.cta_group_value)
        rewriter.replace(op, [dst, new], [])


class TmaStoreLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tc.TmaStoreOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, up.CpAsyncBulkTensorGlobalSharedCtaOp(op.tensor_map, op.src, list(op.coordinates)), [])


class BulkGroupLowering(RewritePattern):
    def match_and_rewrite(self, op, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, tc.BulkCommitGroupOp):
            rewriter.replace(op, up.CpAsyncBulkCommitGroupOp(), [])
        elif isinstance(op, tc.BulkWaitGroupOp):
            rewriter.replace(op, up.CpAsyncBulkWaitGroupOp(op.group.value.data, op.read is not None), [])


def tma_patterns() -> list[RewritePattern]:
    return [TmaLoadLowering(), TmaStoreLowering(), BulkGroupLowering()]
