"""vector -> llvm patterns for 1-D vectors: broadcast, extract, insert, shuffle, bitcast."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, VectorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from tmem_dialect.dialects.llvm_ext import ExtractElementOp, PoisonOp
from tmem_dialect.lowering.llvm_builders import TypeConverter, constant


def position_value(op: vector.ExtractOp | vector.InsertOp) -> tuple[list[Operation], SSAValue]:
    """The (single) position of a 1-D extract/insert as an integer SSA value."""
    (static,) = op.static_position.get_values()
    if static == DYNAMIC_INDEX:
        return [], op.dynamic_position[0]
    c = constant(static, i32)
    return [c], c.result


@dataclass
class BroadcastLowering(RewritePattern):
    """Upstream's form: insert the scalar at element 0 of a poison vector, then splat it with a
    zero shuffle mask (a vector<1xT> source is splatted directly)."""

    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BroadcastOp, rewriter: PatternRewriter, /) -> None:
        result_type = self.converter.convert(op.vector.type)
        assert isinstance(result_type, VectorType)
        (count,) = result_type.get_shape()
        source = op.source
        new_ops: list[Operation] = []
        if isinstance(source.type, VectorType):
            if source.type.get_shape() == (count,):
                rewriter.replace(op, [], [source])
                return
            single = source
        else:
            one = VectorType(result_type.get_element_type(), [1])
            new_ops += [poison := PoisonOp(one), zero := constant(0, i32)]
            new_ops += [insert := llvm.InsertElementOp(poison.res, source, zero.result)]
            if count == 1:
                rewriter.replace(op, new_ops)
                return
            single = insert.res
        mask = DenseArrayBase.from_list(i32, [0] * count)
        new_ops.append(llvm.ShuffleVectorOp(single, single, mask, result_type))
        rewriter.replace(op, new_ops)


class ExtractLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter, /) -> None:
        new_ops, position = position_value(op)
        new_ops.append(ExtractElementOp(op.vector, position))
        rewriter.replace(op, new_ops)


class InsertLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InsertOp, rewriter: PatternRewriter, /) -> None:
        new_ops, position = position_value(op)
        new_ops.append(llvm.InsertElementOp(op.dest, op.source, position))
        rewriter.replace(op, new_ops)


def _vector_length(value: SSAValue) -> int:
    t = value.type
    assert isinstance(t, VectorType)
    return t.get_shape()[0]


def _widen(value: SSAValue, length: int, converter: TypeConverter) -> tuple[list[Operation], SSAValue]:
    """`value` padded to `length` elements (with copies of element 0, never poison)."""
    have = _vector_length(value)
    if have == length:
        return [], value
    t = value.type
    assert isinstance(t, VectorType)
    wide = converter.convert(VectorType(t.get_element_type(), [length]))
    mask = DenseArrayBase.from_list(i32, [*range(have), *([0] * (length - have))])
    pad = llvm.ShuffleVectorOp(value, value, mask, wide)
    return [pad], pad.res


@dataclass
class ShuffleLowering(RewritePattern):
    """vector.shuffle allows operands of different lengths; LLVM's shufflevector does not, so
    the shorter one is widened first and the mask renumbered."""

    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ShuffleOp, rewriter: PatternRewriter, /) -> None:
        n1, n2 = _vector_length(op.v1), _vector_length(op.v2)
        width = max(n1, n2)
        pad1, v1 = _widen(op.v1, width, self.converter)
        pad2, v2 = _widen(op.v2, width, self.converter)
        indices = [i if i < n1 else i - n1 + width for i in op.mask.get_values()]
        mask = DenseArrayBase.from_list(i32, indices)
        result_type = self.converter.convert(op.result.type)
        rewriter.replace(op, [*pad1, *pad2, llvm.ShuffleVectorOp(v1, v2, mask, result_type)])


@dataclass
class BitcastLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BitcastOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, llvm.BitcastOp(op.source, self.converter.convert(op.result.type)))


def vector_patterns(converter: TypeConverter) -> list[RewritePattern]:
    return [
        BroadcastLowering(converter),
        ExtractLowering(),
        InsertLowering(),
        ShuffleLowering(converter),
        BitcastLowering(converter),
    ]
