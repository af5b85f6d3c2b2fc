"""Property: any sequence of waited ld/st of mixed shapes, nums and packing behaves like a plain
128 x 512 array of 32-bit cells addressed by the TMEM_FACTS formulas (a Python reference model)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_interpreter_fragments import HALF_SPLIT, LEGAL_NUMS, REGS_PER_NUM, cells_of
from tmem_dialect.interpreter import run_kernel

COLS_PER_NUM = {"32x32b": 1, "16x64b": 2, "16x128b": 4, "16x256b": 8, "16x32bx2": 1}


@st.composite
def access(draw):
    shape = draw(st.sampled_from(list(LEGAL_NUMS)))
    num = draw(st.sampled_from([n for n in LEGAL_NUMS[shape] if n <= 8]))
    packed = draw(st.booleans())
    width = num * COLS_PER_NUM[shape] * (2 if packed else 1)
    col = draw(st.integers(0, (256 - width) // 4)) * 4
    lane = 0 if shape in ("32x32b", "16x32bx2") else draw(st.sampled_from([0, 16]))
    return draw(st.sampled_from(["st", "ld"])), shape, num, packed, lane, col


def _kernel(ops) -> str:
    lines = []
    for i, (kind, shape, num, packed, lane, col) in enumerate(ops):
        regs = num * REGS_PER_NUM[shape]
        vec = f"vector<{regs}xi32>"
        off = f", offset {HALF_SPLIT}" if shape == "16x32bx2" else ""
        lines.append(f"  %w{i} = arith.constant {(lane << 16) + col} : i32")
        lines.append(f"  %a{i} = arith.addi %base, %w{i} : i32")
        lines.append(f"  %c{i} = arith.constant {i * 32 * 128} : index")
        lines.append(f"  %o{i} = arith.addi %c{i}, %first : index")
        if kind == "st":
            lines.append(f"  %v{i} = vector.load %in[%o{i}] : memref<{32 * 128 * len(ops)}xi32>, {vec}")
            flag = " unpack" if packed else ""
            lines.append(f"  tcgen05.st %v{i}, %a{i}{off} shape_{shape} x{num}{flag} : {vec}")
            lines.append("  tcgen05.wait store")
        else:
            flag = " pack" if packed else ""
            lines.append(f"  %v{i} = tcgen05.ld %a{i}{off} shape_{shape} x{num}{flag} : {vec}")
            lines.append("  tcgen05.wait load")
            lines.append(f"  vector.store %v{i}, %out[%o{i}] : memref<{32 * 128 * len(ops)}xi32>, {vec}")
    size = 32 * 128 * len(ops)
    return f"""
llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
func.func @p(%in: memref<{size}xi32>, %out: memref<{size}xi32>) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>}} {{
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  tcgen05.alloc %slot, 256 : !llvm.ptr<3>
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.index_cast %tid : i32 to index
  %c128 = arith.constant 128 : index
  %first = arith.muli %t, %c128 : index
{chr(10).join(lines)}
  tcgen05.dealloc %base, 256
  func.return
}}
"""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(access(), min_size=1, max_size=6), st.integers(0, 2**32 - 1))
def test_waited_accesses_match_a_plain_cell_array(ops, seed) -> None:
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 2**32, size=32 * 128 * len(ops), dtype=np.uint64).astype(np.uint32)
    result = run_kernel(_kernel(ops), kernel="p",
                        args=[values.view(np.int32), np.zeros(values.size, np.int32)])
    assert result.diagnostics == [], result.render()
    model = np.zeros((128, 512), dtype=np.uint32)
    out = result.args[1].view(np.uint32)
    for i, (kind, shape, num, packed, lane, col) in enumerate(ops):
        regs = num * REGS_PER_NUM[shape]
        for t in range(32):
            for r in range(regs):
                at = i * 32 * 128 + t * 128 + r
                cells = cells_of(shape, t, r, packed, lane, col)
                if kind == "st":
                    if packed:
                        model[cells[0]] = int(values[at]) & 0xFFFF
                        model[cells[1]] = int(values[at]) >> 16
                    else:
                        model[cells[0]] = values[at]
                elif packed:
                    want = (int(model[cells[0]]) & 0xFFFF) | ((int(model[cells[1]]) & 0xFFFF) << 16)
                    assert int(out[at]) == want, (i, t, r)
                else:
                    assert int(out[at]) == int(model[cells[0]]), (i, t, r)
