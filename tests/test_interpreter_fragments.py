"""Store-then-load through the interpreter for every shape and num, with and without pack/unpack.

Each expected value is computed from the fragment formulas of TMEM_FACTS.md as tests/tmem_facts.py
transcribes them (not taken from tmem_dialect.isa), and checked value by value: the registers an ld returns,
the TMEM cells an st writes, and the round trip.
"""

from __future__ import annotations

import numpy as np
import pytest

from tmem_facts import LEGAL_NUMS, REGS_PER_NUM
from tmem_facts import fragment_cell as formula

from tmem_dialect.interpreter import run_kernel

HALF_SPLIT = 16 << 16  # immHalfSplitoff: threads 16..31 use taddr + 16 lanes
COLUMNS = 512


def base_of(shape: str, t: int, lane0: int, col0: int) -> tuple[int, int]:
    """The thread's base (lane, column): taddr, or taddr + immHalfSplitoff for 16x32bx2 t >= 16."""
    if shape == "16x32bx2" and t >= 16:
        return lane0 + (HALF_SPLIT >> 16), col0 + (HALF_SPLIT & 0xFFFF)
    return lane0, col0


def cells_of(shape: str, t: int, r: int, packed: bool, lane0: int, col0: int) -> list[tuple[int, int]]:
    """Absolute cells of (t, r): one cell, or (2c, 2c+1) with pack/unpack (low half first)."""
    lane, col = formula(shape, t, r)
    bl, bc = base_of(shape, t, lane0, col0)
    if packed:
        return [(bl + lane, bc + 2 * col), (bl + lane, bc + 2 * col + 1)]
    return [(bl + lane, bc + col)]


def fragment_kernel(shape: str, num: int, packed: bool, lane0: int, col0: int) -> str:
    regs = num * REGS_PER_NUM[shape]
    vec = f"vector<{regs}xi32>"
    buf = f"memref<{32 * regs}xi32>"
    off = f", offset {HALF_SPLIT}" if shape == "16x32bx2" else ""
    ld_flag = " pack" if packed else ""
    st_flag = " unpack" if packed else ""
    fill = []
    for k in range(4):
        fill.append(f"""
  %ci{k} = arith.constant {128 * k} : index
  %pi{k} = arith.addi %row, %ci{k} : index
  %pv{k} = vector.load %pat[%pi{k}] : memref<16384xi32>, vector<128xi32>
  %cc{k} = arith.constant {128 * k} : i32
  %pa{k} = arith.addi %base, %cc{k} : i32
  tcgen05.st %pv{k}, %pa{k} shape_32x32b x128 : vector<128xi32>""")
    return f"""
llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
func.func @frag(%pat: memref<16384xi32>, %in: {buf}, %out1: {buf}, %out2: {buf}) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>}} {{
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %slot, 512 : !llvm.ptr<3>
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.index_cast %tid : i32 to index
  %c512 = arith.constant 512 : index
  %row = arith.muli %t, %c512 : index
  {"".join(fill)}
  tcgen05.wait store
  %cregs = arith.constant {regs} : index
  %first = arith.muli %t, %cregs : index
  %where = arith.constant {(lane0 << 16) + col0} : i32
  %addr = arith.addi %base, %where : i32
  %r1 = tcgen05.ld %addr{off} shape_{shape} x{num}{ld_flag} : {vec}
  tcgen05.wait load
  vector.store %r1, %out1[%first] : {buf}, {vec}
  %v = vector.load %in[%first] : {buf}, {vec}
  tcgen05.st %v, %addr{off} shape_{shape} x{num}{st_flag} : {vec}
  tcgen05.wait store
  %r2 = tcgen05.ld %addr{off} shape_{shape} x{num}{ld_flag} : {vec}
  tcgen05.wait load
  vector.store %r2, %out2[%first] : {buf}, {vec}
  tcgen05.dealloc %base, 512
  func.return
}}
"""


CASES = [
    (shape, num, packed)
    for shape, nums in LEGAL_NUMS.items()
    for num in nums
    for packed in (False, True)
]


def _run_case(shape: str, num: int, packed: bool, lane0: int, col0: int):
    regs = num * REGS_PER_NUM[shape]
    rng = np.random.default_rng(num * 31 + len(shape) + packed)
    pattern = rng.integers(0, 2**32, size=128 * COLUMNS // 4, dtype=np.uint64).astype(np.uint32)
    pattern = pattern.view(np.int32)  # 32 lanes x 512 columns that warp 0 fills
    values = rng.integers(0, 2**32, size=32 * regs, dtype=np.uint64).astype(np.uint32).view(np.int32)
    result = run_kernel(
        fragment_kernel(shape, num, packed, lane0, col0),
        kernel="frag",
        args=[pattern, values, np.zeros(32 * regs, np.int32), np.zeros(32 * regs, np.int32)],
    )
    assert result.errors == [], result.render()
    assert result.warnings == [], result.render()
    return pattern.view(np.uint32).reshape(32, COLUMNS), values.view(np.uint32), result


@pytest.mark.parametrize(
    "shape,num,packed", CASES, ids=[f"{s}.x{n}{'.pack' if p else ''}" for s, n, p in CASES]
)
def test_store_then_load_matches_formulas(shape: str, num: int, packed: bool) -> None:
    lane0, col0 = 0, 0
    pattern, values, result = _run_case(shape, num, packed, lane0, col0)
    regs = num * REGS_PER_NUM[shape]
    loaded = result.args[2].view(np.uint32).reshape(32, regs)
    round_trip = result.args[3].view(np.uint32).reshape(32, regs)
    stored = values.reshape(32, regs)
    tmem = result.tmem[0]
    expected_tmem = np.zeros((128, COLUMNS), dtype=np.uint32)
    expected_tmem[:32] = pattern
    for t in range(32):
        for r in range(regs):
            cells = cells_of(shape, t, r, packed, lane0, col0)
            if packed:
                (l0, c0), (l1, c1) = cells
                want = (int(pattern[l0, c0]) & 0xFFFF) | ((int(pattern[l1, c1]) & 0xFFFF) << 16)
                assert int(loaded[t, r]) == want, (t, r, cells)
                low, high = int(stored[t, r]) & 0xFFFF, int(stored[t, r]) >> 16
                assert int(tmem[l0, c0]) & 0xFFFF == low, (t, r, cells)
                assert int(tmem[l1, c1]) & 0xFFFF == high, (t, r, cells)
                expected_tmem[l0, c0] = int(tmem[l0, c0])  # upper halves: not specified by the ISA
                expected_tmem[l1, c1] = int(tmem[l1, c1])
            else:
                ((lane, col),) = cells
                assert int(loaded[t, r]) == int(pattern[lane, col]), (t, r, lane, col)
                assert int(tmem[lane, col]) == int(stored[t, r]), (t, r, lane, col)
                expected_tmem[lane, col] = stored[t, r]
            assert int(round_trip[t, r]) == int(stored[t, r]), (t, r)
    # Nothing outside the footprint changed.
    assert (tmem == expected_tmem).all()


@pytest.mark.parametrize("shape", ["16x64b", "16x128b", "16x256b"])
def test_16_lane_shapes_at_lane_16_and_a_column_offset(shape: str) -> None:
    pattern, values, result = _run_case(shape, 2, False, 16, 40)
    regs = 2 * REGS_PER_NUM[shape]
    loaded = result.args[2].view(np.uint32).reshape(32, regs)
    for t in range(32):
        for r in range(regs):
            ((lane, col),) = cells_of(shape, t, r, False, 16, 40)
            assert 16 <= lane < 32
            assert int(loaded[t, r]) == int(pattern[lane, col])
            assert int(result.tmem[0][lane, col]) == int(values.reshape(32, regs)[t, r])


NVVM_FRAGMENT = """
llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
llvm.func @frag(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {{nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>}} {{
  %ncols = llvm.mlir.constant(512 : i32) : i32
  %regs = llvm.mlir.constant({regs} : i32) : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  nvvm.tcgen05.alloc %slot, %ncols : !llvm.ptr<3>, i32
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %taddr = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %first = llvm.mul %tid, %regs : i32
  %src = llvm.getelementptr %in[%first] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  %v = llvm.load %src : !llvm.ptr<1> -> vector<{regs}xi32>
  {offset_def}
  nvvm.tcgen05.st %taddr, %v{offset_use}{unpack} shape = shape_{shape} : vector<{regs}xi32>
  nvvm.tcgen05.wait <store>
  %w = nvvm.tcgen05.ld %taddr{offset_use}{pack} shape = shape_{shape} : vector<{regs}xi32>
  nvvm.tcgen05.wait <load>
  %dst = llvm.getelementptr %out[%first] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %w, %dst : vector<{regs}xi32>, !llvm.ptr<1>
  %bp = llvm.inttoptr %base : i32 to !llvm.ptr<6>
  nvvm.tcgen05.dealloc %bp, %ncols : !llvm.ptr<6>, i32
  llvm.return
}}
"""


@pytest.mark.parametrize("shape", list(LEGAL_NUMS))
@pytest.mark.parametrize("packed", [False, True])
def test_nvvm_ops_share_the_fragment_semantics(shape: str, packed: bool) -> None:
    """nvvm.tcgen05.st/ld (num implied by the vector length) write the same cells as the formulas."""
    num = 4
    regs = num * REGS_PER_NUM[shape]
    half = shape == "16x32bx2"
    text = NVVM_FRAGMENT.format(
        regs=regs,
        shape=shape,
        offset_def=f"%off = llvm.mlir.constant({HALF_SPLIT} : i64) : i64" if half else "",
        offset_use=", %off" if half else "",
        unpack=" unpack" if packed else "",
        pack=" pack" if packed else "",
    )
    values = np.arange(1, 32 * regs + 1, dtype=np.int32) * 65539
    result = run_kernel(text, kernel="frag", args=[values, np.zeros(32 * regs, np.int32)])
    assert result.errors == [], result.render()
    assert (result.args[1] == values).all()
    stored = values.view(np.uint32).reshape(32, regs)
    for t in range(32):
        for r in range(regs):
            cells = cells_of(shape, t, r, packed, 0, 0)
            if packed:
                assert int(result.tmem[0][cells[0]]) & 0xFFFF == int(stored[t, r]) & 0xFFFF
                assert int(result.tmem[0][cells[1]]) & 0xFFFF == int(stored[t, r]) >> 16
            else:
                assert int(result.tmem[0][cells[0]]) == int(stored[t, r])
