"""TMEM buffers: the !tcgen05.tmem type and its TIRx layouts, tcgen05.decl_buffer, warpgroup tile_load/tile_store."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Data,
    Operation,
    ParametrizedAttribute,
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

from tmem_dialect import isa
from tmem_dialect.dialects.tcgen05 import AllocOp, loaded_slot, same_slot
from tmem_dialect.layout import AXES, LANEID, TCOL, TLANE, WARPID, Iter, M, TileLayout

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


