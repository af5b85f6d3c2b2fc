"""Structured control flow to llvm branches: xDSL's scf.if/scf.for lowering, scf.while, and cf -> llvm."""

from __future__ import annotations

from xdsl.dialects import cf, llvm, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering

from tmem_dialect.lowering.llvm_builders import InheritLocation


class WhileLowering(RewritePattern):
    """`scf.while` to a condition block and a body block (xDSL's convert-scf-to-cf has no while).

    entry: br ^before(inits); ^before(args): ...; cond_br %c, ^after(vals), ^continue(vals);
    ^after(args): ...; br ^before(yielded); ^continue(results): the code after the loop.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /) -> None:
        init_block = op.parent_block()
        assert init_block is not None
        continue_block = init_block.split_before(op)
        for i, t in enumerate(op.result_types):
            rewriter.insert_block_argument(continue_block, i, t)

        before = op.before_region.block
        after = op.after_region.block
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        rewriter.replace(
            condition,
            cf.ConditionalBranchOp(condition.condition, after, condition.args, continue_block, condition.args),
        )
        yield_op = after.last_op
        assert isinstance(yield_op, scf.YieldOp)
        rewriter.replace(yield_op, cf.BranchOp(before, *yield_op.arguments))
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(continue_block))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continue_block))
        rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(init_block))
        rewriter.replace(op, [], continue_block.args)


def lower_structured_control_flow(module: ModuleOp) -> None:
    """scf.if / scf.for (xDSL's own patterns) and scf.while to cf branches.

    Walked last op first: each split then moves only the ops after its loop or branch, which
    the later ones already moved out, so the whole lowering stays linear in the kernel size.
    """
    PatternRewriteWalker(
        InheritLocation(GreedyRewritePatternApplier([IfLowering(), ForLowering(), WhileLowering()])),
        walk_reverse=True,
    ).rewrite_module(module)


class BranchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, llvm.BrOp(op.successor, *op.arguments))


class CondBranchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter, /) -> None:
        then_block: Block = op.then_block
        else_block: Block = op.else_block
        rewriter.replace(
            op,
            llvm.CondBrOp(op.cond, then_block, op.then_arguments, else_block, op.else_arguments),
        )


def branch_patterns() -> list[RewritePattern]:
    return [BranchLowering(), CondBranchLowering()]
