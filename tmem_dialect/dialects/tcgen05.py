"""The tcgen05 dialect: Tensor Memory allocation, warp-level ld/st, waits, fences, TMEM buffers and tiles."""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto
from math import prod

import numpy as np
from xdsl.dialects import arith, llvm, memref
from xdsl.dialects.builtin import (
    I32,
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Data,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.conventions import KERNEL_ATTR, REQNTID_ATTR, SHARED_ADDRESS_SPACE  # noqa: F401 (re-exported)
from tmem_dialect.dialects.cta_group import CtaGroupOp
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.layout import AXES, LANEID, TCOL, TLANE, WARPID, Iter, M, TileLayout
from tmem_dialect.memory_model import EffectKind

# ---------------------------------------------------------------------------------------------
# Enum attributes
# ---------------------------------------------------------------------------------------------


class ShapeKind(StrEnum):
    """`.shape` of tcgen05.ld/st, spelled as MLIR's NVVM dialect spells it."""

    shape_16x64b = auto()
    shape_16x128b = auto()
    shape_16x256b = auto()
    shape_32x32b = auto()
    shape_16x32bx2 = auto()

    @property
    def isa_shape(self) -> isa.Shape:
        return isa.shape_from_ptx(self.value.removeprefix("shape_"))

    @staticmethod
    def of(shape: isa.Shape) -> ShapeKind:
        return ShapeKind("shape_" + shape.value)


class NumKind(StrEnum):
    """`.num` of tcgen05.ld/st: how many times the shape repeats along columns."""

    x1 = auto()
    x2 = auto()
    x4 = auto()
    x8 = auto()
    x16 = auto()
    x32 = auto()
    x64 = auto()
    x128 = auto()

    @property
    def count(self) -> int:
        return int(self.value[1:])

    @staticmethod
    def of(count: int) -> NumKind:
        return NumKind(f"x{count}")


class WaitKind(StrEnum):
    load = auto()
    store = auto()


class FenceKind(StrEnum):
    before_thread_sync = auto()
    after_thread_sync = auto()


@irdl_attr_definition
class ShapeAttr(EnumAttribute[ShapeKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.shape"


@irdl_attr_definition
class NumAttr(EnumAttribute[NumKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.num"


@irdl_attr_definition
class WaitKindAttr(EnumAttribute[WaitKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.wait_kind"


@irdl_attr_definition
class FenceKindAttr(EnumAttribute[FenceKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.fence_kind"


# ---------------------------------------------------------------------------------------------
# Layouts and TMEM buffer types
# ---------------------------------------------------------------------------------------------


def _parse_iters(parser: AttrParser) -> tuple[Iter, ...]:
    """`(e0, e1) : (s0@a0, s1)` or `e : s@a`."""

    def parse_term() -> tuple[int, str]:
        stride = parser.parse_integer(allow_boolean=False, context_msg=" (layout stride)")
        axis = parser.parse_optional_symbol_name()
        name = axis.data if axis is not None else M
        if name not in AXES:
            parser.raise_error(f"unknown layout axis '{name}' (expected one of {', '.join(AXES)})")
        return stride, name

    if parser.parse_optional_punctuation("(") is not None:
        extents = [parser.parse_integer(allow_boolean=False)]
        while parser.parse_optional_punctuation(",") is not None:
            extents.append(parser.parse_integer(allow_boolean=False))
        parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        terms = [parse_term()]
        while parser.parse_optional_punctuation(",") is not None:
            terms.append(parse_term())
        parser.parse_punctuation(")")
    else:
        extents = [parser.parse_integer(allow_boolean=False)]
        parser.parse_punctuation(":")
        terms = [parse_term()]
    if len(extents) != len(terms):
        parser.raise_error(
            f"layout has {len(extents)} extents but {len(terms)} strides; they must pair up"
        )
    return tuple(Iter(e, s, a) for e, (s, a) in zip(extents, terms))


def parse_tile_layout(parser: AttrParser) -> TileLayout:
    """The TIRx notation `S[...] (+ R[...])? (+ n@axis)*`."""
    start = parser.pos
    parser.parse_keyword("S", " to start a layout shard S[...]")
    with parser.in_square_brackets():
        shard = _parse_iters(parser)
    replica: tuple[Iter, ...] = ()
    offset: dict[str, int] = {}
    while parser.parse_optional_punctuation("+") is not None:
        if parser.parse_optional_keyword("R") is not None:
            with parser.in_square_brackets():
                replica += _parse_iters(parser)
            continue
        value = parser.parse_integer(allow_boolean=False, context_msg=" (layout offset)")
        axis = parser.parse_optional_symbol_name()
        name = axis.data if axis is not None else M
        if name not in AXES:
            parser.raise_error(f"unknown layout axis '{name}'")
        offset[name] = offset.get(name, 0) + value
    layout = TileLayout(shard, replica, tuple(offset.items()))
    if errors := layout.errors():
        parser.raise_error(f"malformed layout: {errors[0]}", start, parser.pos)
    return layout


@irdl_attr_definition
class LayoutAttr(Data[TileLayout]):
    """A TIRx tile layout: `#tcgen05.layout<S[(128, 256) : (1@TLane, 1@TCol)]>`."""

    name = "tcgen05.layout"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TileLayout:
        with parser.in_angle_brackets():
            return parse_tile_layout(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.format()}>")

    def verify(self) -> None:
        if errors := self.data.errors():
            raise VerifyException(f"malformed layout: {errors[0]}")


def _element_bits(element_type: Attribute) -> int | None:
    width = getattr(element_type, "bitwidth", None)
    return width if isinstance(width, int) else None


@irdl_attr_definition
class TMEMBufferType(ParametrizedAttribute, TypeAttribute):
    """A tile in Tensor Memory: `!tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>`.

    Each element occupies one 32-bit TMEM cell; 16-bit elements sit in the low half of a cell,
    the form tcgen05.ld pack::16b and tcgen05.st unpack::16b move.
    """

    name = "tcgen05.tmem"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    layout: LayoutAttr

    def __init__(self, shape: Sequence[int], element_type: Attribute, layout: TileLayout):
        super().__init__(
            ArrayAttr(IntAttr(d) for d in shape), element_type, LayoutAttr(layout)
        )

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @property
    def tile_layout(self) -> TileLayout:
        return self.layout.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            start = parser.pos
            shape, element_type = parser.parse_ranked_shape()
            parser.parse_punctuation(",")
            layout = parse_tile_layout(parser)
            if error := tmem_buffer_error(tuple(shape), element_type, layout):
                parser.raise_error(error, start, parser.pos)
        return [ArrayAttr(IntAttr(d) for d in shape), element_type, LayoutAttr(layout)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string("".join(f"{d}x" for d in self.get_shape()))  # rank 0: no "x"
        printer.print_attribute(self.element_type)
        printer.print_string(f", {self.tile_layout.format()}>")

    def verify(self) -> None:
        if error := tmem_buffer_error(self.get_shape(), self.element_type, self.tile_layout):
            raise VerifyException(error)


def tmem_buffer_error(
    shape: tuple[int, ...], element_type: Attribute, layout: TileLayout
) -> str | None:
    if any(d <= 0 for d in shape):
        # The parser reads a dynamic `?` as a negative sentinel: spell it back as `?`.
        dims = "x".join(str(d) if d >= 0 else "?" for d in shape)
        return f"TMEM buffer dimensions must be static and positive, got {dims}"
    if _element_bits(element_type) not in (16, 32):
        return f"TMEM buffer elements must be 16 or 32 bits wide, got {element_type}"
    if layout.replica:
        return "a TMEM buffer layout cannot replicate (R[...]): every element has one cell"
    if errors := layout.tmem_errors():
        return f"malformed TMEM layout: {errors[0]}"
    if layout.size != prod(shape):
        return (
            f"layout shard covers {layout.size} elements but the buffer "
            f"{'x'.join(map(str, shape))} has {prod(shape)}"
        )
    return None


# ---------------------------------------------------------------------------------------------
# Shared verification helpers
# ---------------------------------------------------------------------------------------------


def _int(attr: IntegerAttr | None) -> int | None:
    return None if attr is None else attr.value.data


def _check(error: str | None) -> None:
    if error is not None:
        raise VerifyException(error)


def is_shared_slot_type(t: Attribute) -> bool:
    """A 32-bit shared-memory slot tcgen05.alloc can write the TMEM address into.

    Either an upstream-style `!llvm.ptr<3>` (from llvm.mlir.addressof of an addrspace-3
    global) or a `memref<1xi32, 3>`.
    """
    if isinstance(t, llvm.LLVMPointerType):
        space = t.addr_space
        return isinstance(space, IntAttr) and space.data == SHARED_ADDRESS_SPACE
    if not isinstance(t, MemRefType) or t.get_element_type() != i32:
        return False
    if t.get_shape() != (1,):
        return False
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        return space.value.data == SHARED_ADDRESS_SPACE
    return str(space) == "#gpu.address_space<workgroup>"


def slot_symbol(slot: SSAValue) -> str | None:
    """The global a shared slot addresses (llvm.mlir.addressof / memref.get_global), if visible."""
    owner = slot.owner
    if isinstance(owner, llvm.AddressOfOp):
        return owner.global_name.root_reference.data
    if isinstance(owner, memref.GetGlobalOp):
        return owner.name_.root_reference.data
    return None


def loaded_slot(value: SSAValue) -> SSAValue | None:
    """The shared slot `value` was loaded from (llvm.load / memref.load), if it was."""
    owner = value.owner
    if isinstance(owner, llvm.LoadOp):
        return owner.ptr
    if isinstance(owner, memref.LoadOp):
        return owner.memref
    return None


def same_slot(a: SSAValue, b: SSAValue) -> bool:
    if a == b:
        return True
    sym = slot_symbol(a)
    return sym is not None and sym == slot_symbol(b)




# ---------------------------------------------------------------------------------------------
# Allocation lifecycle
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class AllocOp(CtaGroupOp, TMEMEffectOp):
    """Allocate `ncols` TMEM columns and write the base address into a shared-memory slot.

    Warp-collective and blocking (`tcgen05.alloc.cta_group::N.sync.aligned.shared::cta.b32`).
    """

    name = "tcgen05.alloc"

    # Any type parses; verify_ says precisely which slot types are shared memory.
    slot = operand_def()
    ncols = prop_def(IntegerAttr[I32])

    assembly_format = "$slot `,` $ncols (`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($slot)"

    def __init__(self, slot: SSAValue | Operation, ncols: int, cta_group: int = 1):
        super().__init__(
            operands=[slot],
            properties={"ncols": IntegerAttr(ncols, i32), "cta_group": IntegerAttr(cta_group, i32)},
        )

    def verify_(self) -> None:
        super().verify_()
        _check(isa.ncols_error(self.ncols.value.data))
        if not is_shared_slot_type(self.slot.type):
            raise VerifyException(
                "the address slot must be shared memory, !llvm.ptr<3> or memref<1xi32, 3>, "
                f"got {self.slot.type}"
            )

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(
            EffectKind.ALLOC, self.slot, self.cta_group_value, ncols=self.ncols.value.data
        )


@irdl_op_definition
class DeallocOp(CtaGroupOp, TMEMEffectOp):
    """Free `ncols` TMEM columns at `taddr` (`tcgen05.dealloc.cta_group::N.sync.aligned.b32`)."""

    name = "tcgen05.dealloc"

    taddr = operand_def(i32)
    ncols = prop_def(IntegerAttr[I32])

    assembly_format = "$taddr `,` $ncols (`cta_group` `(` $cta_group^ `)`)? attr-dict"

    def __init__(self, taddr: SSAValue | Operation, ncols: int, cta_group: int = 1):
        super().__init__(
            operands=[taddr],
            properties={"ncols": IntegerAttr(ncols, i32), "cta_group": IntegerAttr(cta_group, i32)},
        )

    def verify_(self) -> None:
        super().verify_()
        _check(isa.ncols_error(self.ncols.value.data))

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(
            EffectKind.DEALLOC, self.taddr, self.cta_group_value, ncols=self.ncols.value.data
        )


@irdl_op_definition
class RelinquishAllocPermitOp(CtaGroupOp, TMEMEffectOp):
    """Give up the CTA's right to allocate; any later alloc by this CTA is illegal."""

    name = "tcgen05.relinquish_alloc_permit"

    assembly_format = "(`cta_group` `(` $cta_group^ `)`)? attr-dict"

    def __init__(self, cta_group: int = 1):
        super().__init__(properties={"cta_group": IntegerAttr(cta_group, i32)})

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.RELINQUISH, cta_group=self.cta_group_value)


# ---------------------------------------------------------------------------------------------
# Warp-level data movement
# ---------------------------------------------------------------------------------------------


class _LdStOp(IRDLOperation, TMEMEffectOp):
    """Shared by tcgen05.ld and tcgen05.st: shape, num, 16-bit packing, half-split offset."""

    taddr = operand_def(i32)
    shape = prop_def(ShapeAttr)
    num = prop_def(NumAttr)
    pack = opt_prop_def(UnitAttr)
    unpack = opt_prop_def(UnitAttr)
    offset = opt_prop_def(IntegerAttr[I64])

    @property
    def isa_shape(self) -> isa.Shape:
        return self.shape.data.isa_shape

    @property
    def num_count(self) -> int:
        return self.num.data.count

    @property
    def packed(self) -> bool:
        return self.pack is not None or self.unpack is not None

    @property
    def offset_value(self) -> int | None:
        return _int(self.offset)

    @property
    def register_type(self) -> Attribute:
        raise NotImplementedError

    def verify_(self) -> None:
        shape, num = self.isa_shape, self.num_count
        _check(isa.num_error(shape, num))
        _check(isa.half_split_offset_error(shape, self.offset_value))
        regs = isa.regs_per_thread(shape, num)
        expected = VectorType(i32, [regs])
        if self.register_type != expected:
            raise VerifyException(
                f"shape {shape.value} x{num} moves {regs} registers per thread "
                f"(num x {shape.regs_per_num}), so the register value must be {expected}, "
                f"got {self.register_type}"
            )

    def _effect(self, kind: EffectKind, registers: SSAValue) -> TMEMEffect:
        return TMEMEffect(
            kind,
            self.taddr,
            shape=self.isa_shape,
            num=self.num_count,
            packed=self.packed,
            offset=self.offset_value,
            registers=registers,
        )


def _ldst_properties(
    shape: isa.Shape, num: int, offset: int | None, packing: str | None
) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {
        "shape": ShapeAttr(ShapeKind.of(shape)),
        "num": NumAttr(NumKind.of(num)),
    }
    if offset is not None:
        props["offset"] = IntegerAttr(offset, i64)
    if packing is not None:
        props[packing] = UnitAttr()
    return props


@irdl_op_definition
class LdOp(_LdStOp):
    """Asynchronously load a warp's fragment from TMEM (`tcgen05.ld.sync.aligned`)."""

    name = "tcgen05.ld"

    result = result_def(VectorType)

    assembly_format = (
        "$taddr (`,` `offset` $offset^)? $shape $num (`pack` $pack^)? (`unpack` $unpack^)? "
        "attr-dict `:` type($result)"
    )

    def __init__(
        self,
        taddr: SSAValue | Operation,
        shape: isa.Shape,
        num: int,
        *,
        pack: bool = False,
        offset: int | None = None,
    ):
        super().__init__(
            operands=[taddr],
            result_types=[VectorType(i32, [isa.regs_per_thread(shape, num)])],
            properties=_ldst_properties(shape, num, offset, "pack" if pack else None),
        )

    @property
    def register_type(self) -> Attribute:
        return self.result.type

    def verify_(self) -> None:
        if self.unpack is not None:
            raise VerifyException("unpack::16b is only valid on tcgen05.st; tcgen05.ld takes pack::16b")
        super().verify_()

    def tmem_effect(self) -> TMEMEffect:
        return self._effect(EffectKind.LD, self.result)


@irdl_op_definition
class StOp(_LdStOp):
    """Asynchronously store a warp's fragment into TMEM (`tcgen05.st.sync.aligned`)."""

    name = "tcgen05.st"

    value = operand_def(VectorType)

    assembly_format = (
        "$value `,` $taddr (`,` `offset` $offset^)? $shape $num (`pack` $pack^)? "
        "(`unpack` $unpack^)? attr-dict `:` type($value)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        taddr: SSAValue | Operation,
        shape: isa.Shape,
        num: int,
        *,
        unpack: bool = False,
        offset: int | None = None,
    ):
        # IRDL orders operands by definition: StOp's own `value` precedes the inherited `taddr`.
        super().__init__(
            operands=[value, taddr],
            properties=_ldst_properties(shape, num, offset, "unpack" if unpack else None),
        )

    @property
    def register_type(self) -> Attribute:
        return self.value.type

    def verify_(self) -> None:
        if self.pack is not None:
            raise VerifyException("pack::16b is only valid on tcgen05.ld; tcgen05.st takes unpack::16b")
        super().verify_()

    def tmem_effect(self) -> TMEMEffect:
        return self._effect(EffectKind.ST, self.value)


@irdl_op_definition
class WaitOp(IRDLOperation, TMEMEffectOp):
    """Block until all prior tcgen05.ld (load) or tcgen05.st (store) of this thread completed."""

    name = "tcgen05.wait"

    kind = prop_def(WaitKindAttr)

    assembly_format = "$kind attr-dict"

    def __init__(self, kind: WaitKind):
        super().__init__(properties={"kind": WaitKindAttr(kind)})

    def tmem_effect(self) -> TMEMEffect:
        load = self.kind.data is WaitKind.load
        return TMEMEffect(EffectKind.WAIT_LD if load else EffectKind.WAIT_ST)


@irdl_op_definition
class FenceOp(IRDLOperation, TMEMEffectOp):
    """Order async tcgen05 ops against a thread synchronization (`tcgen05.fence::*`)."""

    name = "tcgen05.fence"

    kind = prop_def(FenceKindAttr)

    assembly_format = "$kind attr-dict"

    def __init__(self, kind: FenceKind):
        super().__init__(properties={"kind": FenceKindAttr(kind)})

    def tmem_effect(self) -> TMEMEffect:
        before = self.kind.data is FenceKind.before_thread_sync
        return TMEMEffect(EffectKind.FENCE_BEFORE if before else EffectKind.FENCE_AFTER)


# ---------------------------------------------------------------------------------------------
# Buffers and warpgroup tiles (before lane assignment)
# ---------------------------------------------------------------------------------------------


def column_offset_of(taddr: SSAValue) -> tuple[SSAValue, int, int]:
    """Peel `base + constant` additions: (base value, lane offset, column offset).

    The constants are summed as 32-bit address distances and then split into a signed lane
    and column step (`isa.taddr_step`), so `base + 64 + -32` is column 32, lane 0.
    """
    total = 0
    while isinstance(owner := taddr.owner, arith.AddiOp):
        const, other = None, None
        for a, b in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            if isinstance(a.owner, arith.ConstantOp) and isinstance(a.owner.value, IntegerAttr):
                const, other = a.owner.value.value.data, b
                break
        if const is None or other is None:
            break
        total += const
        taddr = other
    lane, col = isa.taddr_step(total)
    return taddr, lane, col


def allocations_of(taddr: SSAValue) -> list[AllocOp]:
    """The tcgen05.alloc ops of the enclosing function that wrote the slot `taddr` was loaded from."""
    slot = loaded_slot(taddr)
    if slot is None:
        return []
    func = taddr.owner
    while func is not None and not isinstance(func.parent_op(), (ModuleOp, type(None))):
        func = func.parent_op()
    if func is None:
        return []
    return [op for op in func.walk() if isinstance(op, AllocOp) and same_slot(op.slot, slot)]


@irdl_op_definition
class DeclBufferOp(IRDLOperation):
    """View an allocated TMEM address as a laid-out buffer (TIRx `T.decl_buffer(scope="tmem")`)."""

    name = "tcgen05.decl_buffer"

    taddr = operand_def(i32)
    result = result_def(TMEMBufferType)

    assembly_format = "$taddr attr-dict `:` type($result)"

    def __init__(self, taddr: SSAValue | Operation, buffer_type: TMEMBufferType):
        super().__init__(operands=[taddr], result_types=[buffer_type])

    @property
    def buffer_type(self) -> TMEMBufferType:
        assert isinstance(self.result.type, TMEMBufferType)
        return self.result.type

    def verify_(self) -> None:
        base, lane_off, col_off = column_offset_of(self.taddr)
        layout = self.buffer_type.tile_layout
        if lane_off < 0:
            raise VerifyException(
                f"buffer starts at TMEM lane {lane_off} of its base address, before lane 0"
            )
        if lane_off + layout.span(TLANE) > isa.TMEM_LANES:
            raise VerifyException(
                f"buffer reaches TMEM lane {lane_off + layout.span(TLANE) - 1}, beyond the "
                f"{isa.TMEM_LANES} lanes"
            )
        allocs = allocations_of(base)
        if not allocs:
            return
        ncols = max(a.ncols.value.data for a in allocs)
        if col_off < 0:
            raise VerifyException(
                f"buffer starts at column {col_off} of its allocation, before the allocation's first column"
            )
        needed = col_off + layout.span(TCOL)
        if needed > ncols:
            raise VerifyException(
                f"buffer needs columns [0, {needed}) of its allocation but the allocation "
                f"has {ncols} columns"
            )


def default_fragment(region: tuple[int, int]) -> TileLayout | None:
    """The register fragment a tile op uses when it names none: one row per thread of a warpgroup.

    Row i goes to warp i // 32, lane i % 32; column j is register element j. Defined for
    128-row regions only: other heights have no single natural fragment.
    """
    rows, cols = region
    if rows != isa.WARPS_PER_WARPGROUP * isa.WARP_SIZE:
        return None
    return TileLayout(
        (
            Iter(isa.WARPS_PER_WARPGROUP, 1, WARPID),
            Iter(isa.WARP_SIZE, 1, LANEID),
            Iter(cols, 1, M),
        )
    )


class _TileOp(IRDLOperation):
    """Shared by tile_load and tile_store: a static region of a TMEM buffer and its fragment."""

    buffer = operand_def(TMEMBufferType)
    offsets = prop_def(DenseArrayBase.constr(i64))
    sizes = prop_def(DenseArrayBase.constr(i64))
    frag = opt_prop_def(LayoutAttr)

    @property
    def buffer_type(self) -> TMEMBufferType:
        assert isinstance(self.buffer.type, TMEMBufferType)
        return self.buffer.type

    @property
    def region_offsets(self) -> tuple[int, ...]:
        return tuple(self.offsets.get_values())

    @property
    def region_sizes(self) -> tuple[int, ...]:
        return tuple(self.sizes.get_values())

    def buffer_indices(self) -> np.ndarray:
        """The buffer's flat (row-major) index of each region element, in region row-major order.

        A rank-0 buffer has one element and an empty region: index 0.
        """
        sizes, offsets = self.region_sizes, self.region_offsets
        if not sizes:
            return np.zeros(1, dtype=np.int64)
        coords = np.unravel_index(np.arange(prod(sizes), dtype=np.int64), sizes)
        return np.ravel_multi_index(
            tuple(c + o for c, o in zip(coords, offsets)), self.buffer_type.get_shape()
        ).astype(np.int64)

    def region_element(self, index: int) -> tuple[int, ...]:
        """The buffer coordinates of the index-th region element (row-major)."""
        sizes = self.region_sizes
        coords = np.unravel_index(index, sizes) if sizes else ()
        return tuple(int(c) + o for c, o in zip(coords, self.region_offsets))

    @property
    def fragment_layout(self) -> TileLayout | None:
        if self.frag is not None:
            return self.frag.data
        sizes = self.region_sizes
        return default_fragment((sizes[0], sizes[1])) if len(sizes) == 2 else None

    @property
    def register_type(self) -> Attribute:
        raise NotImplementedError

    def verify_(self) -> None:
        shape = self.buffer_type.get_shape()
        offsets, sizes = self.region_offsets, self.region_sizes
        if len(offsets) != len(shape) or len(sizes) != len(shape):
            raise VerifyException(
                f"region needs {len(shape)} offsets and sizes for a rank-{len(shape)} buffer, "
                f"got {len(offsets)} and {len(sizes)}"
            )
        for d, (o, s, n) in enumerate(zip(offsets, sizes, shape)):
            if o < 0 or s <= 0 or o + s > n:
                raise VerifyException(
                    f"region [{o}, {o + s}) of dimension {d} is outside the buffer extent {n}"
                )
        frag = self.fragment_layout
        if frag is None:
            raise VerifyException(
                f"a {'x'.join(map(str, sizes))} region has no default register fragment "
                "(only 128-row regions do); give one with `frag <S[...]>`"
            )
        if errors := frag.fragment_errors():
            raise VerifyException(f"malformed register fragment: {errors[0]}")
        if frag.size != prod(sizes):
            raise VerifyException(
                f"register fragment covers {frag.size} elements but the region has {prod(sizes)}"
            )
        element = self.buffer_type.element_type
        per_thread = frag.elements_per_thread()
        expected = VectorType(element, [per_thread])
        if self.register_type != expected:
            raise VerifyException(
                f"each thread holds {per_thread} elements of this fragment, so the register "
                f"value must be {expected}, got {self.register_type}"
            )


@irdl_op_definition
class TileLoadOp(_TileOp):
    """A warpgroup reads a region of a TMEM buffer into its register fragment.

    tmem-assign-lanes turns it into per-warp tcgen05.ld ops.
    """

    name = "tcgen05.tile_load"

    result = result_def(VectorType)

    assembly_format = (
        "$buffer $offsets $sizes (`frag` $frag^)? attr-dict "
        "`:` type($buffer) `->` type($result)"
    )

    def __init__(
        self,
        buffer: SSAValue,
        offsets: Sequence[int],
        sizes: Sequence[int],
        result_type: Attribute,
        frag: TileLayout | None = None,
    ):
        props: dict[str, Attribute] = {
            "offsets": DenseArrayBase.from_list(i64, offsets),
            "sizes": DenseArrayBase.from_list(i64, sizes),
        }
        if frag is not None:
            props["frag"] = LayoutAttr(frag)
        super().__init__(operands=[buffer], result_types=[result_type], properties=props)

    @property
    def register_type(self) -> Attribute:
        return self.result.type


@irdl_op_definition
class TileStoreOp(_TileOp):
    """A warpgroup writes its register fragment into a region of a TMEM buffer.

    tmem-assign-lanes turns it into per-warp tcgen05.st ops.
    """

    name = "tcgen05.tile_store"

    value = operand_def(VectorType)

    assembly_format = (
        "$value `,` $buffer $offsets $sizes (`frag` $frag^)? attr-dict "
        "`:` type($value) `,` type($buffer)"
    )

    def __init__(
        self,
        value: SSAValue,
        buffer: SSAValue,
        offsets: Sequence[int],
        sizes: Sequence[int],
        frag: TileLayout | None = None,
    ):
        props: dict[str, Attribute] = {
            "offsets": DenseArrayBase.from_list(i64, offsets),
            "sizes": DenseArrayBase.from_list(i64, sizes),
        }
        if frag is not None:
            props["frag"] = LayoutAttr(frag)
        super().__init__(operands=[value, buffer], properties=props)

    @property
    def register_type(self) -> Attribute:
        return self.value.type


# Kernel attributes on func.func (the tcgen05-level equivalents of nvvm.kernel / nvvm.reqntid)
# are KERNEL_ATTR and REQNTID_ATTR of tmem_dialect.conventions.

from tmem_dialect.dialects.tcgen05_mma import ASYNC_ATTRS, ASYNC_OPS
from tmem_dialect.dialects.tcgen05_tma import TMA_OPS

TCGEN05 = Dialect(
    "tcgen05",
    [
        *ASYNC_OPS,
        *TMA_OPS,
        AllocOp,
        DeallocOp,
        RelinquishAllocPermitOp,
        LdOp,
        StOp,
        WaitOp,
        FenceOp,
        DeclBufferOp,
        TileLoadOp,
        TileStoreOp,
    ],
    [
        ShapeAttr,
        NumAttr,
        WaitKindAttr,
        FenceKindAttr,
        LayoutAttr,
        TMEMBufferType,
        *ASYNC_ATTRS,
    ],
)
