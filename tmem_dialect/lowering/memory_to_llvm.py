"""memref/vector memory access -> llvm.getelementptr + llvm.load/store on bare pointers; shared globals.

A memref becomes a bare `!llvm.ptr<space>` to its first element (global buffers `!llvm.ptr<1>`,
shared memory `!llvm.ptr<3>`); an access linearizes its indices with the memref's static
strides, reusing xDSL's helpers from convert-memref-to-ptr.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm, memref, vector
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    StridedLayoutAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.transforms.convert_memref_to_ptr import build_strides_offset, get_strides

from tmem_dialect.dialects.llvm_ext import LoadOp, StoreOp
from tmem_dialect.conventions import memref_address_space
from tmem_dialect.lowering.llvm_builders import TypeConverter, as_pointer
from tmem_dialect.lowering.ptx_values import byte_size


def element_pointer(
    rewriter: PatternRewriter,
    op: Operation,
    ref: SSAValue,
    indices: tuple[SSAValue, ...],
    converter: TypeConverter,
) -> SSAValue:
    """A pointer to ref[indices]: one getelementptr over the memref's element type."""
    ref_type = ref.type
    assert isinstance(ref_type, MemRefType)
    builder = Builder(InsertPoint.before(op))
    builder.extend_from_listener(rewriter)  # index arithmetic is located (and revisited) like the rest
    pointer = as_pointer(rewriter, ref, converter, op)
    strides = get_strides(ref, ref_type, builder)
    linear = build_strides_offset(indices, strides, builder)
    layout = ref_type.layout
    offset = layout.get_offset() if isinstance(layout, StridedLayoutAttr) else 0
    if offset:  # a static offset (the legality check rejects dynamic ones)
        start = builder.insert(arith.ConstantOp.from_int_and_width(offset, IndexType())).result
        linear = start if linear is None else builder.insert(arith.AddiOp(linear, start)).result
    if linear is None or _is_zero(linear):
        return pointer
    index = builder.insert(arith.IndexCastOp(linear, converter.index_type))
    element = converter.convert(ref_type.get_element_type())
    gep = llvm.GEPOp.from_mixed_indices(pointer, [index.result], element, result_type=pointer.type)  # type: ignore[arg-type]
    rewriter.insert(gep, InsertPoint.before(op))
    return gep.result


def _is_zero(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, IntegerAttr)
        and owner.value.value.data == 0
    )


def _alignment(t: Attribute) -> int | None:
    """The element's natural alignment: all a memref access is known to have."""
    return byte_size(t)


@dataclass
class MemrefLoadLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter, /) -> None:
        pointer = element_pointer(rewriter, op, op.memref, tuple(op.indices), self.converter)
        t = self.converter.convert(op.res.type)
        rewriter.replace(op, LoadOp(pointer, t))


@dataclass
class MemrefStoreLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter, /) -> None:
        pointer = element_pointer(rewriter, op, op.memref, tuple(op.indices), self.converter)
        rewriter.replace(op, StoreOp(op.value, pointer))


@dataclass
class VectorLoadLowering(RewritePattern):
    """A vector load with the element's alignment (upstream's vector-to-llvm does the same)."""

    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.LoadOp, rewriter: PatternRewriter, /) -> None:
        pointer = element_pointer(rewriter, op, op.base, tuple(op.indices), self.converter)
        t = self.converter.convert(op.result.type)
        align = _alignment(self.converter.convert_element(t))
        rewriter.replace(op, LoadOp(pointer, t, alignment=align))


@dataclass
class VectorStoreLowering(RewritePattern):
    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.StoreOp, rewriter: PatternRewriter, /) -> None:
        pointer = element_pointer(rewriter, op, op.base, tuple(op.indices), self.converter)
        align = _alignment(self.converter.convert_element(op.vector.type))
        rewriter.replace(op, StoreOp(op.vector, pointer, alignment=align))


@dataclass
class GetGlobalLowering(RewritePattern):
    """memref.get_global of a shared-memory global -> llvm.mlir.addressof (cast back for its users)."""

    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GetGlobalOp, rewriter: PatternRewriter, /) -> None:
        pointer_type = self.converter.convert(op.memref.type)
        address = llvm.AddressOfOp(op.name_, pointer_type)  # type: ignore[arg-type]
        cast = UnrealizedConversionCastOp.get([address.result], [op.memref.type])
        rewriter.replace(op, [address, cast])


@dataclass
class GlobalLowering(RewritePattern):
    """memref.global in shared memory -> llvm.mlir.global internal, addr_space 3.

    A one-element memref becomes a global of its element type (the slot form of the examples),
    larger ones an !llvm.array.
    """

    converter: TypeConverter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GlobalOp, rewriter: PatternRewriter, /) -> None:
        t = op.type
        element = self.converter.convert(t.get_element_type())
        count = 1
        for d in t.get_shape():
            count *= d
        global_type: Attribute = element if count == 1 else llvm.LLVMArrayType(count, element)
        space = memref_address_space(t)
        assert space is not None
        alignment = op.alignment.value.data if op.alignment is not None else _alignment(element)
        rewriter.replace(
            op,
            llvm.GlobalOp(global_type, op.sym_name, "internal", addr_space=space, alignment=alignment),
        )


def memory_patterns(converter: TypeConverter) -> list[RewritePattern]:
    return [
        MemrefLoadLowering(converter),
        MemrefStoreLowering(converter),
        VectorLoadLowering(converter),
        VectorStoreLowering(converter),
        GetGlobalLowering(converter),
        GlobalLowering(converter),
    ]
