"""arith -> llvm patterns for the integer op set of tcgen05 kernels (vector operands are scalarized)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from tmem_dialect.lowering.llvm_builders import TypeConverter, constant, scalarize

# One llvm op per arith op, applied per element.
DIRECT_BINARY: dict[type[Operation], type[Operation]] = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRUIOp: llvm.LShrOp,
    arith.ShRSIOp: llvm.AShrOp,
}
# min/max: icmp + select with this predicate (pick lhs when it holds).
MIN_MAX: dict[type[Operation], str] = {
    arith.MinSIOp: "slt",
    arith.MaxSIOp: "sgt",
    arith.MinUIOp: "ult",
    arith.MaxUIOp: "ugt",
}
SIGNED_DIVISION = (arith.DivSIOp, arith.RemSIOp)


def icmp(lhs: SSAValue, rhs: SSAValue, predicate: str) -> llvm.ICmpOp:
    flag = llvm.ICmpPredicateFlag(predicate)
    return llvm.ICmpOp(lhs, rhs, IntegerAttr(flag.to_int(), 64))


def signed_division(op: Operation, a: SSAValue, b: SSAValue) -> list[Operation]:
    """sdiv/srem through udiv/urem on magnitudes (the NVVM-level op set has no signed division).

    q = |a| udiv |b|, negated when the signs differ; r = |a| urem |b|, with the sign of a.
    Exact for every input arith.divsi/remsi defines (INT_MIN / -1 is undefined there).
    """
    t = a.type
    ops: list[Operation] = [zero := constant(0, t)]
    ops += [a_neg := icmp(a, zero.result, "slt"), neg_a := llvm.SubOp(zero.result, a)]
    ops += [abs_a := llvm.SelectOp(a_neg.res, neg_a.res, a)]
    ops += [b_neg := icmp(b, zero.result, "slt"), neg_b := llvm.SubOp(zero.result, b)]
    ops += [abs_b := llvm.SelectOp(b_neg.res, neg_b.res, b)]
    if isinstance(op, arith.DivSIOp):
        ops += [q := llvm.UDivOp(abs_a.res, abs_b.res)]
        ops += [signs_differ := llvm.XOrOp(a_neg.res, b_neg.res), neg_q := llvm.SubOp(zero.result, q.res)]
        ops += [llvm.SelectOp(signs_differ.res, neg_q.res, q.res)]
    else:
        ops += [r := llvm.URemOp(abs_a.res, abs_b.res), neg_r := llvm.SubOp(zero.result, r.res)]
        ops += [llvm.SelectOp(a_neg.res, neg_r.res, r.res)]
    return ops


@dataclass
class BinaryLowering(RewritePattern):
    converter: TypeConverter

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        kind = type(op)
        if kind not in DIRECT_BINARY and kind not in MIN_MAX and not isinstance(op, SIGNED_DIVISION):
            return
        lhs, rhs = op.operands
        result_type = self.converter.convert(op.results[0].type)

        def make(elements: list[SSAValue]) -> list[Operation]:
            a, b = elements
            if kind in DIRECT_BINARY:
                return [DIRECT_BINARY[kind].create(operands=[a, b], result_types=[a.type])]
            if kind in MIN_MAX:
                return [cmp := icmp(a, b, MIN_MAX[kind]), llvm.SelectOp(cmp.res, a, b)]
            return signed_division(op, a, b)

        scalarize(rewriter, op, [lhs, rhs], result_type, make)


@dataclass
class ConstantLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter, /) -> None:
        t = self.converter.convert(op.result.type)
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr):
            assert isinstance(t, VectorType)
            new_value = DenseIntOrFPElementsAttr.from_list(t, value.get_values())  # type: ignore[arg-type]
        elif isinstance(value, IntegerAttr):
            assert isinstance(t, IntegerType)
            new_value = IntegerAttr(value.value.data, t)
        else:
            assert isinstance(value, FloatAttr)
            new_value = value
        rewriter.replace(op, llvm.ConstantOp(new_value, t))


@dataclass
class CmpiLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter, /) -> None:
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        # xDSL types every arith.cmpi result i1, even on vectors; upstream's is vector<Nxi1>.
        operand_type = op.lhs.type
        result_type: Attribute = (
            VectorType(IntegerType(1), operand_type.get_shape())
            if isinstance(operand_type, VectorType)
            else IntegerType(1)
        )
        scalarize(rewriter, op, [op.lhs, op.rhs], result_type, lambda e: [icmp(e[0], e[1], predicate)])


@dataclass
class SelectLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /) -> None:
        result_type = self.converter.convert(op.result.type)
        scalarize(
            rewriter,
            op,
            [op.cond, op.lhs, op.rhs],
            result_type,
            lambda e: [llvm.SelectOp(e[0], e[1], e[2])],
        )


@dataclass
class CastLowering(RewritePattern):
    """index_cast, extui, extsi, trunci: same width -> nothing; else zext/sext/trunc per element."""

    converter: TypeConverter

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, (arith.IndexCastOp, arith.ExtUIOp, arith.ExtSIOp, arith.TruncIOp)):
            return
        (source,) = op.operands
        result_type = self.converter.convert(op.results[0].type)
        source_width = _width(self.converter.convert_element(source.type))
        target_width = _width(self.converter.convert_element(result_type))
        if source_width == target_width:
            rewriter.replace(op, [], [source])
            return
        if target_width < source_width:
            cast: type[Operation] = llvm.TruncOp
        elif isinstance(op, arith.ExtUIOp):
            cast = llvm.ZExtOp
        else:
            cast = llvm.SExtOp  # index_cast sign-extends, as upstream arith defines it
        target_element = self.converter.convert_element(result_type)
        scalarize(
            rewriter,
            op,
            [source],
            result_type,
            lambda e: [cast.create(operands=[e[0]], result_types=[target_element])],
        )


@dataclass
class BitcastLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.BitcastOp, rewriter: PatternRewriter, /) -> None:
        result_type = self.converter.convert(op.result.type)
        rewriter.replace(op, llvm.BitcastOp(op.input, result_type))


def _width(t: object) -> int:
    assert isinstance(t, IntegerType), t
    return t.width.data


def arith_patterns(converter: TypeConverter) -> list[RewritePattern]:
    return [
        BinaryLowering(converter),
        ConstantLowering(converter),
        CmpiLowering(converter),
        SelectLowering(converter),
        CastLowering(converter),
        BitcastLowering(converter),
    ]
