"""The ISA tables of tmem_dialect.isa, checked against TMEM_FACTS.md written out independently here."""

from __future__ import annotations

import subprocess
from itertools import product

import numpy as np
import pytest

import tmem_facts

from tmem_dialect import isa
from tmem_dialect.isa import Shape

# --- The facts, transcribed from docs/tmem_facts.md (not imported from isa.py) -------------

SPELLINGS = list(tmem_facts.SPELLINGS)
REGS_PER_REPETITION = tmem_facts.REGS_PER_NUM
LANES = tmem_facts.LANES
ALL_NUMS = list(tmem_facts.ALL_NUMS)


def expected_coordinate(shape: str, t: int, r: int) -> tuple[int, int]:
    """TMEM_FACTS "Fragment mappings", spelled a second way (// and % instead of shifts and masks)."""
    if shape == "32x32b":
        return t, r
    if shape == "16x64b":
        return t // 4 + 8 * (t % 2), (t // 2) % 2 + 2 * r
    if shape == "16x128b":
        return t // 4 + 8 * (r % 2), t % 4 + 4 * (r // 2)
    if shape == "16x256b":
        return t // 4 + 8 * ((r // 2) % 2), r % 2 + 2 * (t % 4) + 8 * (r // 4)
    if shape == "16x32bx2":
        return t % 16, r
    raise AssertionError(shape)


legal = tmem_facts.legal


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_the_two_transcriptions_of_the_fragment_formulas_agree(spelling: str) -> None:
    for t in range(32):
        for r in range(128):
            assert expected_coordinate(spelling, t, r) == tmem_facts.fragment_cell(spelling, t, r)


LEGAL_ACCESSES = [(s, n) for s in SPELLINGS for n in ALL_NUMS if legal(s, n)]


def shape_of(spelling: str) -> Shape:
    return isa.shape_from_ptx(spelling)


# --- shapes, register counts, legal nums ------------------------------------------------------


def test_shapes_are_the_five_of_the_isa() -> None:
    assert sorted(s.value for s in Shape) == sorted(SPELLINGS)
    assert sorted(s.value for s in isa.SHAPES_WIDEST_FIRST) == sorted(SPELLINGS)


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_shape_properties(spelling: str) -> None:
    shape = shape_of(spelling)
    assert shape.regs_per_num == REGS_PER_REPETITION[spelling]
    assert shape.lanes == LANES[spelling]
    assert shape.needs_half_split_offset == (spelling == "16x32bx2")
    # The PTX spelling <lanes>x<bits>b names the bits per lane of one x1 access.
    if spelling != "16x32bx2":
        assert shape.bits == int(spelling.split("x")[1].removesuffix("b"))
    assert isa.slab_lane_offsets(shape) == ((0,) if spelling == "32x32b" else (0, 16))


def test_unknown_spelling_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        isa.shape_from_ptx("16x512b")


@pytest.mark.parametrize(("spelling", "num"), list(product(SPELLINGS, ALL_NUMS)))
def test_registers_per_thread_and_num_legality(spelling: str, num: int) -> None:
    shape = shape_of(spelling)
    assert isa.regs_per_thread(shape, num) == num * REGS_PER_REPETITION[spelling]
    error = isa.num_error(shape, num)
    if legal(spelling, num):
        assert error is None
        assert num in isa.legal_nums(shape)
    else:
        assert error is not None and "more than the limit of 128" in error
        assert num not in isa.legal_nums(shape)


def test_the_illegal_combinations_are_exactly_those_of_the_facts() -> None:
    illegal = {(s.value, n) for s in Shape for n in isa.NUMS if isa.num_error(s, n)}
    assert illegal == {("16x128b", 128), ("16x256b", 64), ("16x256b", 128)}


@pytest.mark.parametrize("num", [0, 3, 6, 256, -1])
def test_nums_outside_the_powers_of_two_are_illegal(num: int) -> None:
    for shape in Shape:
        assert isa.num_error(shape, num) == f"num must be one of x1, x2, x4, ..., x128, got x{num}"


# --- nCols, cta_group, the half-split offset --------------------------------------------------


def test_ncols_rule_over_a_wide_range() -> None:
    for ncols in range(-64, 2049):
        power_of_two = ncols > 0 and bin(ncols).count("1") == 1
        ok = power_of_two and 32 <= ncols <= 512
        assert (isa.ncols_error(ncols) is None) == ok, ncols
    assert isa.ncols_error(48) == "nCols must be a power of 2 in [32, 512], got 48"


def test_cta_group() -> None:
    assert isa.cta_group_error(1) is None and isa.cta_group_error(2) is None
    for bad in (0, 3, 4, -1):
        assert isa.cta_group_error(bad) == f"cta_group must be 1 or 2, got {bad}"


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_half_split_offset_iff_16x32bx2(spelling: str) -> None:
    shape = shape_of(spelling)
    if spelling == "16x32bx2":
        assert isa.half_split_offset_error(shape, 16) is None
        assert isa.half_split_offset_error(shape, 0) is None
        assert "requires the half-split offset" in isa.half_split_offset_error(shape, None)
        # ptxas accepts any immediate; the add wraps on the 32-bit address.
        assert isa.half_split_offset_error(shape, -1) is None
    else:
        assert isa.half_split_offset_error(shape, None) is None
        assert f"not {spelling}" in isa.half_split_offset_error(shape, 16)


# --- addresses and lane quarters ----------------------------------------------------------------


def test_taddr_fields() -> None:
    for lane, column in [(0, 0), (1, 0), (0, 511), (127, 511), (96, 17)]:
        taddr = isa.make_taddr(lane, column)
        assert taddr == lane * 65536 + column
        assert (isa.taddr_lane(taddr), isa.taddr_column(taddr)) == (lane, column)


@pytest.mark.parametrize("warp", range(12))
def test_warp_lane_quarter(warp: int) -> None:
    first = 32 * (warp % 4)
    assert isa.warp_lane_base(warp) == first
    assert list(isa.lane_quarter(warp)) == list(range(first, first + 32))
    # Triton's spelling of the same address offset.
    assert isa.warp_taddr_offset(warp) == (warp & 3) << 21


# --- fragment maps ---------------------------------------------------------------------------


def test_the_three_examples_of_the_facts() -> None:
    assert isa.fragment_coordinate(Shape.S16x64b, 1, 0) == (8, 0)
    assert isa.fragment_coordinate(Shape.S16x128b, 31, 1) == (15, 3)
    assert isa.fragment_coordinate(Shape.S16x256b, 1, 3) == (8, 3)


@pytest.mark.parametrize(("spelling", "num"), LEGAL_ACCESSES)
def test_fragment_matches_the_formulas(spelling: str, num: int) -> None:
    frag = isa.fragment(shape_of(spelling), num)
    regs = num * REGS_PER_REPETITION[spelling]
    assert frag.lane.shape == frag.column.shape == (32, regs, 1)
    assert frag.regs == regs
    for t in range(32):
        for r in range(regs):
            assert (frag.lane[t, r, 0], frag.column[t, r, 0]) == expected_coordinate(spelling, t, r)
    assert list(frag.upper_half) == [spelling == "16x32bx2" and t >= 16 for t in range(32)]


@pytest.mark.parametrize(("spelling", "num"), LEGAL_ACCESSES)
def test_fragment_covers_its_rectangle_exactly_once(spelling: str, num: int) -> None:
    """Each (thread, register) of a half owns one cell, and together they tile lanes x columns."""
    frag = isa.fragment(shape_of(spelling), num)
    columns = num * REGS_PER_REPETITION[spelling] * 32 // (LANES[spelling] if spelling != "16x32bx2" else 32)
    assert frag.columns == columns
    for half in ([False, True] if spelling == "16x32bx2" else [False]):
        threads = np.nonzero(frag.upper_half == half)[0]
        cells = {(int(a), int(b)) for t in threads for a, b in zip(frag.lane[t, :, 0], frag.column[t, :, 0])}
        lanes = 16 if spelling == "16x32bx2" else LANES[spelling]
        assert cells == set(product(range(lanes), range(columns)))
        assert len(cells) == len(threads) * frag.regs


@pytest.mark.parametrize(("spelling", "num"), LEGAL_ACCESSES)
def test_packed_fragment_doubles_columns(spelling: str, num: int) -> None:
    plain = isa.fragment(shape_of(spelling), num)
    packed = isa.fragment(shape_of(spelling), num, packed=True)
    assert packed.regs == plain.regs  # pack does not change the register count
    assert packed.columns == 2 * plain.columns
    assert packed.lane.shape == (32, plain.regs, 2)
    assert (packed.lane[..., 0] == plain.lane[..., 0]).all()
    assert (packed.lane[..., 1] == plain.lane[..., 0]).all()
    # Low half of a register = column 2c, high half = column 2c + 1.
    assert (packed.column[..., 0] == 2 * plain.column[..., 0]).all()
    assert (packed.column[..., 1] == 2 * plain.column[..., 0] + 1).all()


def test_fragments_are_read_only() -> None:
    frag = isa.fragment(Shape.S32x32b, 4)
    with pytest.raises(ValueError):
        frag.lane[0, 0, 0] = 5


# --- access_cells and footprints -----------------------------------------------------------------


@pytest.mark.parametrize(("spelling", "num"), LEGAL_ACCESSES)
@pytest.mark.parametrize("packed", [False, True])
def test_access_cells_add_the_base_address(spelling: str, num: int, packed: bool) -> None:
    shape = shape_of(spelling)
    offset = 64 if spelling == "16x32bx2" else None
    taddr = isa.make_taddr(32, 8)
    lane, column = isa.access_cells(taddr, shape, num, packed, offset)
    frag = isa.fragment(shape, num, packed)
    for t in range(32):
        upper = spelling == "16x32bx2" and t >= 16
        assert (lane[t] == 32 + frag.lane[t]).all()
        assert (column[t] == 8 + (64 if upper else 0) + frag.column[t]).all()


def test_16x32bx2_upper_half_reads_at_taddr_plus_offset() -> None:
    # Offset of 16 lanes (16 << 16): threads 16..31 read lanes 16..31 of the same columns.
    lane, column = isa.access_cells(isa.make_taddr(0, 0), Shape.S16x32bx2, 2, offset=16 << 16)
    for t in range(32):
        assert list(lane[t, :, 0]) == [t] * 2
        assert list(column[t, :, 0]) == [0, 1]
    # A column offset: the upper half lands beside the lower half.
    lane, column = isa.access_cells(isa.make_taddr(96, 100), Shape.S16x32bx2, 1, offset=256)
    assert lane[3, 0, 0] == 96 + 3 and column[3, 0, 0] == 100
    assert lane[19, 0, 0] == 96 + 3 and column[19, 0, 0] == 356
    # The add is on the whole 32-bit address: a column carry moves into the lane field.
    lane, column = isa.access_cells(isa.make_taddr(0, 0xFFFF), Shape.S16x32bx2, 1, offset=1)
    assert (lane[16, 0, 0], column[16, 0, 0]) == (1, 0)


@pytest.mark.parametrize(("spelling", "num"), LEGAL_ACCESSES)
@pytest.mark.parametrize("packed", [False, True])
def test_footprint_is_the_bounding_box_of_the_cells(spelling: str, num: int, packed: bool) -> None:
    shape = shape_of(spelling)
    offset = (16 << 16) + 32 if spelling == "16x32bx2" else None
    fp = isa.footprint(shape, num, packed, offset)
    lane, column = isa.access_cells(0, shape, num, packed, offset)
    halves = [False, True] if spelling == "16x32bx2" else [False]
    assert len(fp.lane_ranges) == len(fp.column_ranges) == len(halves)
    for i, half in enumerate(halves):
        threads = [t for t in range(32) if (spelling == "16x32bx2" and t >= 16) == half]
        lanes, cols = lane[threads], column[threads]
        assert fp.lane_ranges[i] == (int(lanes.min()), int(lanes.max()) + 1)
        assert fp.column_ranges[i] == (int(cols.min()), int(cols.max()) + 1)


# --- PTX spelling, targets, and ptxas as the oracle -------------------------------------------


def test_mnemonics() -> None:
    assert isa.ldst_mnemonic("ld", Shape.S16x64b, 8, isa.PACK_16B) == (
        "tcgen05.ld.sync.aligned.16x64b.x8.pack::16b.b32"
    )
    assert isa.ldst_mnemonic("st", Shape.S32x32b, 1) == "tcgen05.st.sync.aligned.32x32b.x1.b32"
    assert isa.alloc_mnemonic(2) == "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32"
    assert isa.dealloc_mnemonic(1) == "tcgen05.dealloc.cta_group::1.sync.aligned.b32"
    assert isa.relinquish_mnemonic(1) == "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned"
    assert isa.wait_mnemonic(True) == "tcgen05.wait::ld.sync.aligned"
    assert isa.wait_mnemonic(False) == "tcgen05.wait::st.sync.aligned"
    assert isa.fence_mnemonic(True) == "tcgen05.fence::before_thread_sync"
    assert isa.fence_mnemonic(False) == "tcgen05.fence::after_thread_sync"
    assert isa.packing_error("ld", isa.PACK_16B) is None
    assert isa.packing_error("st", isa.UNPACK_16B) is None
    assert isa.packing_error("ld", isa.UNPACK_16B) is not None
    assert isa.packing_error("st", isa.PACK_16B) is not None


def test_ptx_targets() -> None:
    assert isa.parse_ptx_version("8.6") == (8, 6)
    for bad in ("8", "8.x", "v8.6", ""):
        with pytest.raises(ValueError):
            isa.parse_ptx_version(bad)
    assert isa.ptx_target_error((8, 6), "sm_100a") is None
    assert isa.ptx_target_error((8, 6), "sm_100f") is not None  # needs 8.8
    assert isa.ptx_target_error((8, 8), "sm_103a") is None
    assert isa.ptx_target_error((9, 0), "sm_90a") is not None  # no tcgen05


def _ptxas() -> str:
    try:
        from tmem_dialect.lowering.ptxas import find_ptxas
    except ImportError:  # the lowering layer is optional for these tests
        import shutil

        found = shutil.which("ptxas")
    else:
        found = find_ptxas()
    if not found:
        pytest.skip("ptxas is not installed (pip install nvidia-cuda-nvcc, or put it on PATH)")
    return found


def _kernel(body: list[str], regs: int) -> str:
    return "\n".join(
        [
            ".version 8.6",
            ".target sm_100a",
            ".address_size 64",
            ".visible .entry k()",
            "{",
            f"  .reg .b32 %r<{regs + 1}>;",
            "  .reg .b32 %t;",
            "  mov.u32 %t, 0;",
            *[f"  {line}" for line in body],
            "  ret;",
            "}",
            "",
        ]
    )


def _ldst_line(op: str, shape: Shape, num: int, packing: str | None) -> str:
    regs = ", ".join(f"%r{i}" for i in range(isa.regs_per_thread(shape, num)))
    imm = ", 16" if shape.needs_half_split_offset else ""
    mnemonic = isa.ldst_mnemonic(op, shape, num, packing)
    if op == "ld":
        return f"{mnemonic} {{{regs}}}, [%t]{imm};"
    return f"{mnemonic} [%t]{imm}, {{{regs}}};"


def _assemble(ptxas: str, text: str, tmp_path) -> subprocess.CompletedProcess[str]:
    src = tmp_path / "k.ptx"
    src.write_text(text)
    return subprocess.run(
        [ptxas, "-arch=sm_100a", str(src), "-o", str(tmp_path / "k.cubin")],
        capture_output=True,
        text=True,
    )


def test_ptxas_accepts_every_legal_access(tmp_path) -> None:
    """Every shape x legal num x packing of ld and st, as isa.py spells it, assembles."""
    ptxas = _ptxas()
    body = []
    for op, packing in (("ld", None), ("ld", isa.PACK_16B), ("st", None), ("st", isa.UNPACK_16B)):
        for shape in Shape:
            for num in isa.legal_nums(shape):
                body.append(_ldst_line(op, shape, num, packing))
    body += [isa.wait_mnemonic(True) + ";", isa.wait_mnemonic(False) + ";"]
    body += [isa.fence_mnemonic(True) + ";", isa.fence_mnemonic(False) + ";"]
    result = _assemble(ptxas, _kernel(body, 128), tmp_path)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("op", "spelling", "num", "packing"),
    [
        ("ld", "16x128b", 128, None),
        ("st", "16x256b", 64, None),
        ("ld", "16x256b", 128, None),
        ("st", "32x32b", 1, isa.PACK_16B),
        ("ld", "32x32b", 1, isa.UNPACK_16B),
    ],
)
def test_ptxas_rejects_what_isa_calls_illegal(op, spelling, num, packing, tmp_path) -> None:
    ptxas = _ptxas()
    shape = shape_of(spelling)
    assert isa.num_error(shape, num) is not None or isa.packing_error(op, packing) is not None
    line = _ldst_line(op, shape, num, packing)
    result = _assemble(ptxas, _kernel([line], isa.regs_per_thread(shape, num)), tmp_path)
    assert result.returncode != 0


@pytest.mark.parametrize("ncols", [16, 48, 1024, 32, 512])
def test_ptxas_agrees_on_immediate_ncols(ncols: int, tmp_path) -> None:
    ptxas = _ptxas()
    body = [
        ".shared .align 4 .b32 slot;",
        f"{isa.alloc_mnemonic(1)} [slot], {ncols};",
        f"{isa.relinquish_mnemonic(1)};",
        f"{isa.dealloc_mnemonic(1)} %t, {ncols};",
    ]
    result = _assemble(ptxas, _kernel(body, 1), tmp_path)
    assert (result.returncode == 0) == (isa.ncols_error(ncols) is None), result.stderr


def test_ptxas_wants_the_half_split_offset_only_on_16x32bx2(tmp_path) -> None:
    ptxas = _ptxas()
    missing = "tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {%r0}, [%t];"
    extra = "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r0}, [%t], 16;"
    for line in (missing, extra):
        assert _assemble(ptxas, _kernel([line], 1), tmp_path).returncode != 0, line
