"""Shared pieces of convert-tcgen05-to-nvvm: type conversion, constants, pointer casts, scalarization."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.dialects.builtin import UnknownLoc
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from tmem_dialect.conventions import TMEM_ADDRESS_SPACE, memref_address_space
from tmem_dialect.dialects.llvm_ext import ExtractElementOp, PoisonOp

DEFAULT_INDEX_BITWIDTH = 64


@dataclass(frozen=True)
class TypeConverter:
    """index -> i<index_bitwidth> (also inside vectors); memref -> !llvm.ptr<its address space>."""

    index_bitwidth: int = DEFAULT_INDEX_BITWIDTH

    @property
    def index_type(self) -> IntegerType:
        return IntegerType(self.index_bitwidth)

    def convert(self, t: Attribute) -> Attribute:
        if isinstance(t, IndexType):
            return self.index_type
        if isinstance(t, VectorType) and isinstance(t.get_element_type(), IndexType):
            return VectorType(self.index_type, t.get_shape())
        if isinstance(t, MemRefType):
            space = memref_address_space(t)
            assert space is not None, f"unsupported memory space of {t}"
            return llvm.LLVMPointerType(IntAttr(space))
        return t

    def convert_element(self, t: Attribute) -> Attribute:
        return self.convert(t.get_element_type() if isinstance(t, VectorType) else t)


def constant(value: int, t: Attribute) -> llvm.ConstantOp:
    """`llvm.mlir.constant(value : t) : t` for an integer type t."""
    assert isinstance(t, IntegerType)
    op = llvm.ConstantOp(IntegerAttr(value, t), t)
    op.result.name_hint = f"c{value if value >= 0 else f'm{-value}'}_{t}"
    return op


def as_pointer(rewriter: PatternRewriter, value: SSAValue, converter: TypeConverter, before: Operation) -> SSAValue:
    """`value` as an !llvm.ptr: memrefs go through an unrealized cast that the pass folds away."""
    if isinstance(value.type, llvm.LLVMPointerType):
        return value
    cast = UnrealizedConversionCastOp.get([value], [converter.convert(value.type)])
    rewriter.insert(cast, InsertPoint.before(before))
    return cast.results[0]


def inttoptr(value: SSAValue, address_space: int) -> llvm.IntToPtrOp:
    """`llvm.inttoptr %v : i32 to !llvm.ptr<space>` (xDSL's builder only makes generic pointers)."""
    op = llvm.IntToPtrOp.create(operands=[value], result_types=[llvm.LLVMPointerType(IntAttr(address_space))])
    op.results[0].name_hint = "tmem_ptr" if address_space == TMEM_ADDRESS_SPACE else "ptr"
    return op


def scalarize(
    rewriter: PatternRewriter,
    op: Operation,
    operands: Sequence[SSAValue],
    result_type: Attribute,
    make: Callable[[list[SSAValue]], Sequence[Operation]],
) -> None:
    """Replace `op` by per-element scalar code: extract element i of every vector operand,
    build the scalar result with `make` (its last op's result), insert it into the result.

    Scalar operands are passed to every element unchanged. What the NVPTX backend does to
    vector arithmetic anyway; the NVVM level then needs no vector arithmetic.
    """
    if not isinstance(result_type, VectorType):
        new_ops = list(make(list(operands)))
        rewriter.replace(op, new_ops, [new_ops[-1].results[0]])
        return
    (count,) = result_type.get_shape()
    new_ops: list[Operation] = [acc := PoisonOp(result_type)]
    vector = acc.res
    for i in range(count):
        new_ops.append(index := constant(i, i32))
        elements: list[SSAValue] = []
        for v in operands:
            if isinstance(v.type, VectorType):
                new_ops.append(extract := ExtractElementOp(v, index.result))
                elements.append(extract.res)
            else:
                elements.append(v)
        scalar_ops = list(make(elements))
        new_ops.extend(scalar_ops)
        new_ops.append(insert := llvm.InsertElementOp(vector, scalar_ops[-1].results[0], index.result))
        vector = insert.res
    rewriter.replace(op, new_ops, [vector])


@dataclass
class InheritLocation(RewritePattern):
    """Run `inner` (a pattern or a whole applier); every op it inserts without a location takes
    the rewritten op's, so diagnostics (and ptxas errors) on lowered code point at the source."""

    inner: RewritePattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        location = op.location

        def stamp(new: Operation) -> None:
            if isinstance(new.location, UnknownLoc):
                new.location = location

        rewriter.operation_insertion_handler.append(stamp)
        try:
            self.inner.match_and_rewrite(op, rewriter)
        finally:
            rewriter.operation_insertion_handler.remove(stamp)

