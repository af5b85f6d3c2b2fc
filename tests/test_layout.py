"""Properties of the TIRx layout algebra (tmem_dialect.layout), checked by brute force with hypothesis."""

from __future__ import annotations

from itertools import product
from math import prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from tmem_dialect.dialects import make_context
from tmem_dialect.dialects.tcgen05_tiles import LayoutAttr
from tmem_dialect.layout import (
    AXES,
    LANEID,
    REGISTER_AXES,
    TCOL,
    TLANE,
    TMEM_AXES,
    WARPID,
    Iter,
    M,
    TileLayout,
)

# --- strategies -------------------------------------------------------------------------------

iters = st.builds(
    Iter,
    extent=st.integers(1, 6),
    stride=st.integers(0, 12),
    axis=st.sampled_from(AXES),
)


@st.composite
def layouts(draw, axes=AXES, max_shard=4, max_replica=2, with_offset=True) -> TileLayout:
    axis = st.sampled_from(axes)
    shard = draw(st.lists(st.builds(Iter, st.integers(1, 6), st.integers(0, 12), axis), min_size=1, max_size=max_shard))
    replica = draw(st.lists(st.builds(Iter, st.integers(1, 3), st.integers(0, 12), axis), max_size=max_replica))
    offset: dict[str, int] = {}
    if with_offset:
        for a in draw(st.lists(axis, max_size=2, unique=True)):
            offset[a] = draw(st.integers(1, 20))
    return TileLayout(tuple(shard), tuple(replica), tuple(offset.items()))


# --- an independent, slow model of L(x) -------------------------------------------------------


def brute_shard(layout: TileLayout, flat: int) -> dict[str, int]:
    """D(x) + O for one flat index: peel digits row-major from the last iter."""
    coords = {a: 0 for a in layout.axes}
    rest = flat
    for it in reversed(layout.shard):
        coords[it.axis] += (rest % it.extent) * it.stride
        rest //= it.extent
    for a, v in layout.offset:
        coords[a] += v
    return coords


def brute_all(layout: TileLayout, flat: int) -> list[dict[str, int]]:
    """L(x): one coordinate per replica r in R."""
    base = brute_shard(layout, flat)
    out = []
    for digits in product(*(range(it.extent) for it in layout.replica)):
        c = dict(base)
        for it, d in zip(layout.replica, digits):
            c[it.axis] += d * it.stride
        out.append(c)
    return out


def brute_injective(layout: TileLayout) -> bool:
    seen = {tuple(sorted(brute_shard(layout, i).items())) for i in range(layout.size)}
    return len(seen) == layout.size


def parse_layout(text: str) -> TileLayout:
    attr = Parser(make_context(), f"#tcgen05.layout<{text}>").parse_attribute()
    assert isinstance(attr, LayoutAttr)
    return attr.data


# --- evaluation ---------------------------------------------------------------------------------


@given(layouts())
def test_shard_coords_match_the_definition(layout: TileLayout) -> None:
    coords = layout.shard_coords()
    for i in range(layout.size):
        assert {a: int(coords[a][i]) for a in coords} == brute_shard(layout, i)


@given(layouts())
def test_apply_is_shard_coords_plus_every_replica(layout: TileLayout) -> None:
    shape = tuple(it.extent for it in layout.shard)
    coords = layout.shard_coords()
    for flat, coord in enumerate(product(*(range(d) for d in shape))):
        got = layout.apply(*coord)
        assert got == brute_all(layout, flat)
        # The first replica is r = 0: the shard coordinate itself.
        assert got[0] == {a: int(coords[a][flat]) for a in layout.axes}
        assert len(got) == prod(it.extent for it in layout.replica)


@given(layouts(), st.data())
def test_apply_with_a_logical_shape(layout: TileLayout, data) -> None:
    """A logical shape whose size matches the shard flattens row-major the same way."""
    size = layout.size
    split = data.draw(st.sampled_from([d for d in range(1, size + 1) if size % d == 0]))
    shape = (split, size // split)
    i, j = data.draw(st.integers(0, shape[0] - 1)), data.draw(st.integers(0, shape[1] - 1))
    assert layout.apply(i, j, shape=shape) == brute_all(layout, i * shape[1] + j)


def test_apply_rejects_a_coordinate_of_the_wrong_rank() -> None:
    layout = TileLayout.row_major((4, 4), (TLANE, TCOL))
    with pytest.raises(ValueError):
        layout.apply(1)


@given(layouts())
def test_digits_invert_row_major_flattening(layout: TileLayout) -> None:
    flat = np.arange(layout.size)
    digits = layout.digits(flat)
    rebuilt = np.zeros_like(flat)
    for it, d in zip(layout.shard, digits):
        assert ((0 <= d) & (d < it.extent)).all()
        rebuilt = rebuilt * it.extent + d
    assert (rebuilt == flat).all()


@given(layouts())
def test_span_is_one_past_the_largest_coordinate(layout: TileLayout) -> None:
    for axis in AXES:
        values = [c[axis] for i in range(layout.size) for c in brute_all(layout, i) if axis in c]
        assert layout.span(axis) == (max(values) + 1 if values else 0)


@given(layouts())
def test_replica_offsets_enumerate_r(layout: TileLayout) -> None:
    offsets = layout.replica_offsets()
    assert len(offsets) == prod(it.extent for it in layout.replica)
    expected = []
    for digits in product(*(range(it.extent) for it in layout.replica)):
        o: dict[str, int] = {}
        for it, d in zip(layout.replica, digits):
            o[it.axis] = o.get(it.axis, 0) + d * it.stride
        expected.append(o)
    assert offsets == expected


# --- injectivity ------------------------------------------------------------------------------


@settings(max_examples=400)
@given(layouts(max_shard=5))
def test_injectivity_detection_agrees_with_brute_force(layout: TileLayout) -> None:
    assert layout.shard_is_injective() == brute_injective(layout)


@pytest.mark.parametrize(
    ("text", "injective"),
    [
        ("S[(128, 256) : (1@TLane, 1@TCol)]", True),
        ("S[(2, 3) : (3@TCol, 2@TCol)]", True),  # not mixed radix, still one-to-one
        ("S[(3, 3) : (2@TCol, 3@TCol)]", True),
        ("S[(2, 2) : (1@TCol, 1@TCol)]", False),
        ("S[(2, 3) : (2@TCol, 1@TCol)]", False),  # 6 elements, 5 columns
        ("S[(4, 32, 4) : (1@warpid, 1@laneid, 2)]", True),
        ("S[(5, 2) : (0@TLane, 1@TCol)]", False),  # a zero stride with extent > 1
        ("S[(1, 8) : (0@TLane, 1@TCol)]", True),  # a zero stride with extent 1 is harmless
    ],
)
def test_injectivity_examples(text: str, injective: bool) -> None:
    layout = TileLayout(parse_layout_iters(text))
    assert layout.shard_is_injective() == injective
    assert layout.shard_is_injective() == brute_injective(layout)
    if injective:
        assert parse_layout(text) == layout
    else:
        with pytest.raises(ParseError, match="the shard is not injective"):
            parse_layout(text)


def parse_layout_iters(text: str) -> tuple[Iter, ...]:
    """Iters of a shard written in the notation, without the parser's well-formedness check."""
    extents_text, strides_text = text.removeprefix("S[").removesuffix("]").split(" : ")
    extents = [int(e) for e in extents_text.strip("()").split(", ")]
    iters = []
    for e, s in zip(extents, strides_text.strip("()").split(", ")):
        value, _, axis = s.partition("@")
        iters.append(Iter(e, int(value), axis or M))
    return tuple(iters)


def test_injectivity_of_huge_mixed_radix_layouts_is_instant() -> None:
    layout = TileLayout((Iter(1 << 15, 1 << 15, TCOL), Iter(1 << 15, 1, TCOL)))
    assert layout.shard_is_injective()
    assert TileLayout((Iter(1 << 15, 1, TCOL), Iter(1 << 15, 1, TCOL))).errors() != []


def test_undecidably_large_layouts_are_reported_not_hung() -> None:
    # Not mixed radix (strides 2 and 3 overlap) and more than 4M elements on one axis.
    layout = TileLayout((Iter(3, 2, M), Iter(2, 3, M), Iter(1 << 20, 8, M)))
    errors = layout.errors()
    assert errors and "cannot decide" in errors[0]


# --- construction, text, parsing ------------------------------------------------------------------


@given(st.lists(st.integers(1, 8), min_size=1, max_size=3), st.data())
def test_row_major(shape: list[int], data) -> None:
    axes = tuple(data.draw(st.permutations(AXES))[: len(shape)])
    layout = TileLayout.row_major(tuple(shape), axes)
    assert layout.size == prod(shape)
    assert layout.shard_is_injective()
    for coord in product(*(range(d) for d in shape)):
        assert layout.apply(*coord) == [dict(zip(axes, coord))]


@settings(max_examples=300)
@given(layouts())
def test_format_parse_round_trip(layout: TileLayout) -> None:
    """What format() prints, the MLIR attribute parser reads back to an equal layout."""
    if layout.errors():
        with pytest.raises(ParseError, match="malformed layout"):
            parse_layout(layout.format())
        return
    parsed = parse_layout(layout.format())
    assert parsed.shard == layout.shard
    assert parsed.replica == layout.replica
    assert dict(parsed.offset) == dict(layout.offset)
    assert parsed.format() == layout.format()
    assert str(LayoutAttr(parsed)) == f"#tcgen05.layout<{layout.format()}>"


def test_format_examples() -> None:
    assert TileLayout.row_major((128, 256), (TLANE, TCOL)).format() == "S[(128, 256) : (1@TLane, 1@TCol)]"
    layout = TileLayout(
        (Iter(4, 1, WARPID), Iter(32, 1, LANEID), Iter(64, 1, M)),
        (Iter(2, 64, TCOL),),
        ((TCOL, 16),),
    )
    assert layout.format() == "S[(4, 32, 64) : (1@warpid, 1@laneid, 1)] + R[2 : 64@TCol] + 16@TCol"
    assert TileLayout((Iter(8, 1, M),), (), ((M, 3),)).format() == "S[8 : 1] + 3"


def test_parser_sums_offsets_and_concatenates_replicas() -> None:
    layout = parse_layout("S[8 : 1] + R[2 : 8] + 4@TCol + R[3 : 16] + 2@TCol + 1")
    assert layout.replica == (Iter(2, 8, M), Iter(3, 16, M))
    assert dict(layout.offset) == {TCOL: 6, M: 1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("S[(2, 2) : (1@TLane)]", "2 extents but 1 strides"),
        ("S[4 : 1@Lane]", "unknown layout axis 'Lane'"),
        ("S[4 : 1@TLane] + 2@Col", "unknown layout axis 'Col'"),
        ("R[4 : 1@TLane]", "Expected 'S' to start a layout shard"),
        ("S[(2, 2) : (1@TLane, 1@TLane)]", "not injective"),
        ("S[0 : 1@TLane]", "shard extent must be positive, got 0"),
        ("S[4 : 1@TLane] + R[2 : -1@TCol]", "replica stride must be non-negative"),
        ("S[4 : 1@TLane] + -2@TCol", "offset on TCol must be non-negative"),
        ("S[4294967296 : 1@TLane]", "out of range"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_layout(text)


# --- well-formedness -------------------------------------------------------------------------


@given(layouts(axes=TMEM_AXES, max_replica=0))
def test_tmem_errors_bound_the_reach(layout: TileLayout) -> None:
    errors = layout.tmem_errors()
    lanes, cols = layout.span(TLANE), layout.span(TCOL)
    if not brute_injective(layout):
        assert errors and "not injective" in errors[0]
    elif lanes > 128:
        assert any(f"TLane extent {lanes} exceeds the 128 TMEM lanes" in e for e in errors)
    elif cols > 512:
        assert any(f"TCol extent {cols} exceeds the 512 TMEM columns" in e for e in errors)
    else:
        assert errors == []


def test_tmem_bounds_at_the_edge() -> None:
    assert TileLayout.row_major((128, 512), TMEM_AXES).tmem_errors() == []
    assert TileLayout.row_major((128, 512), TMEM_AXES).with_offset(TCOL, 1).tmem_errors() == [
        "TCol extent 513 exceeds the 512 TMEM columns"
    ]
    assert TileLayout.row_major((128, 8), TMEM_AXES).with_offset(TLANE, 1).tmem_errors() == [
        "TLane extent 129 exceeds the 128 TMEM lanes"
    ]


def test_axis_restrictions() -> None:
    frag_in_tmem = TileLayout.row_major((32, 4), (LANEID, M))
    assert "axis 'laneid' is not allowed here" in frag_in_tmem.tmem_errors()[0]
    tmem_as_frag = TileLayout.row_major((32, 4), (LANEID, TCOL))
    assert "axis 'TCol' is not allowed here" in tmem_as_frag.fragment_errors()[0]
    assert TileLayout((), ()).errors()[0] == "the shard S[...] needs at least one iter"


@given(layouts(axes=REGISTER_AXES, max_replica=1))
def test_fragment_errors_bound_warps_and_lanes(layout: TileLayout) -> None:
    errors = layout.fragment_errors()
    if not brute_injective(layout):
        assert errors
    elif layout.span(LANEID) > 32 or layout.span(WARPID) > 4:
        assert errors
    else:
        assert errors == []


@given(layouts(axes=REGISTER_AXES))
def test_elements_per_thread(layout: TileLayout) -> None:
    expected = layout.span(M) if M in layout.axes else 1
    assert layout.elements_per_thread() == expected
    assert expected >= 1


def test_with_offset_accumulates_and_drops_zero() -> None:
    layout = TileLayout.row_major((4, 4), TMEM_AXES).with_offset(TCOL, 8).with_offset(TCOL, 8)
    assert layout.offset_of(TCOL) == 16
    assert layout.with_offset(TCOL, -16).offset == ()


# --- the MLIR attribute and type built from Python ----------------------------------------------


def test_layout_attr_verifies_when_built_in_python() -> None:
    from xdsl.utils.exceptions import VerifyException

    LayoutAttr(TileLayout.row_major((4, 4), TMEM_AXES)).verify()
    with pytest.raises(VerifyException, match="malformed layout: the shard is not injective"):
        LayoutAttr(TileLayout((Iter(2, 0, TCOL),))).verify()


def test_tmem_buffer_type_verifies_when_built_in_python() -> None:
    from xdsl.dialects.builtin import f16, f32, f64
    from xdsl.utils.exceptions import VerifyException

    from tmem_dialect.dialects.tcgen05_tiles import TMEMBufferType

    ok = TMEMBufferType((128, 64), f16, TileLayout.row_major((128, 64), TMEM_AXES))
    assert str(ok) == "!tcgen05.tmem<128x64xf16, S[(128, 64) : (1@TLane, 1@TCol)]>"
    assert ok.get_shape() == (128, 64)
    cases = [
        ((128, 64), f64, TileLayout.row_major((128, 64), TMEM_AXES), "16 or 32 bits wide"),
        ((128, 64), f32, TileLayout.row_major((128, 32), TMEM_AXES), "covers 4096 elements"),
        ((256, 2), f32, TileLayout.row_major((256, 2), TMEM_AXES), "TLane extent 256"),
        (
            (128, 2),
            f32,
            TileLayout(TileLayout.row_major((128, 2), TMEM_AXES).shard, (Iter(2, 2, TCOL),)),
            "cannot replicate",
        ),
    ]
    for shape, element, layout, message in cases:
        with pytest.raises(VerifyException, match=message):
            TMEMBufferType(shape, element, layout)


@settings(max_examples=150)
@given(
    st.lists(st.integers(1, 16), min_size=0, max_size=3),
    st.sampled_from(["f32", "i32", "f16", "bf16", "i16"]),
    st.integers(0, 64),
    st.data(),
)
def test_tmem_buffer_type_print_parse_round_trip(shape, element, col_offset, data) -> None:
    """Any valid buffer type prints to text the parser reads back to an equal type."""
    from tmem_dialect.dialects.tcgen05_tiles import TMEMBufferType

    # Place each dimension on TLane or TCol, mixed radix within each axis so the shard is injective.
    axes = [data.draw(st.sampled_from(TMEM_AXES)) for _ in shape]
    stride = {TLANE: 1, TCOL: 1}
    iters = []
    for extent, axis in reversed(list(zip(shape, axes))):
        iters.append(Iter(extent, stride[axis], axis))
        stride[axis] *= extent
    layout = TileLayout(tuple(reversed(iters)) or (Iter(1, 1, TCOL),)).with_offset(TCOL, col_offset)
    text = f"!tcgen05.tmem<{''.join(f'{d}x' for d in shape)}{element}, {layout.format()}>"
    if layout.tmem_errors():
        with pytest.raises(ParseError):
            Parser(make_context(), text).parse_type()
        return
    parsed = Parser(make_context(), text).parse_type()
    assert isinstance(parsed, TMEMBufferType)
    assert parsed.get_shape() == tuple(shape)
    assert str(parsed) == text
    assert Parser(make_context(), str(parsed)).parse_type() == parsed
