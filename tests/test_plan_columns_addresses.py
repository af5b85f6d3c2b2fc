"""Buffers taken by address (tcgen05.buffer_address): the planned GEMM example computes what
numpy and the hand-allocated kernel do, and run_kernel plans buffers or reports why it cannot."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from example_sources import planned
from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module

ROOT = Path(__file__).parent.parent
EXAMPLE = (ROOT / "examples" / "gemm_f16_tile.mlir").read_text()
HAND = (Path(__file__).parent / "data" / "gemm_f16_tile_hand.mlir").read_text()


def _operands(seed: int):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((128, 64)).astype(np.float16)
    b = rng.standard_normal((256, 64)).astype(np.float16)
    return a, b


def _run(text: str, a, b, schedule: str = "round-robin"):
    return run_kernel(text, kernel="gemm_f16_tile",
                      args=[a.reshape(-1), b.reshape(-1), np.zeros(32768, np.float32)],
                      filename="gemm_f16_tile.mlir", schedule=schedule)


def test_the_example_declares_its_accumulator_and_the_plan_allocates_it() -> None:
    assert "tcgen05.alloc" not in EXAMPLE and "tcgen05.dealloc" not in EXAMPLE
    assert "tcgen05.buffer :" in EXAMPLE and "tcgen05.buffer_address %acc [0, 0]" in EXAMPLE
    text = planned(EXAMPLE, "gemm_f16_tile.mlir")
    assert "tcgen05.buffer" not in text  # neither the buffer nor its address survives
    assert text.count("tcgen05.alloc ") == 1 and text.count("tcgen05.dealloc ") == 1
    assert 'tmem.planned_columns = "columns [0, 256), lane offset 0"' in text
    # the mma takes the published base itself (column 0 of the allocation)
    assert "tcgen05.mma f16 %tmem_base," in text
    # the dealloc follows the accumulator read, the last use
    assert text.index("tcgen05.tile_load %acc") < text.index("tcgen05.dealloc ")


def test_planned_gemm_equals_numpy_and_the_hand_allocated_kernel() -> None:
    a, b = _operands(7)
    for schedule in ("round-robin", "reverse"):
        res = _run(planned(EXAMPLE, "gemm_f16_tile.mlir"), a, b, schedule)
        assert res.diagnostics == [], res.render()
        c = res.args[2].reshape(128, 256)
        ref = a.astype(np.float64) @ b.astype(np.float64).T
        np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-4)
        d = np.zeros((128, 256), np.float32)
        for k in range(4):  # docs/interpreter.md: float64 sums, one f32 rounding per k-step
            s = slice(16 * k, 16 * k + 16)
            d = (a[:, s].astype(np.float64) @ b[:, s].astype(np.float64).T + d).astype(np.float32)
        np.testing.assert_array_equal(c, d)
        hand = _run(HAND, a, b, schedule)
        assert hand.diagnostics == [], hand.render()
        np.testing.assert_array_equal(c, hand.args[2].reshape(128, 256))


def test_run_kernel_plans_the_source_it_is_given_but_not_a_module_in_place() -> None:
    a, b = _operands(1)
    module = parse_module(make_context(), EXAMPLE, "gemm_f16_tile.mlir")
    res = run_kernel(module, "gemm_f16_tile", args=[a.reshape(-1), b.reshape(-1), np.zeros(32768, np.float32)])
    assert res.diagnostics == [], res.render()
    assert any(op.name == "tcgen05.buffer" for op in module.walk())  # the caller's module untouched


UNOBSERVED = """
!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>
func.func @k(%a: i64, %b: i64) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %false = arith.constant false
  %acc = tcgen05.buffer : !acc
  %d = tcgen05.buffer_address %acc [0, 0] : !acc
  %idesc = tcgen05.instr_desc f16 m 128 n 256 a f16 b f16 d f32
  tcgen05.mma f16 %d, %a, %b, %idesc, %false : i64
  func.return
}
"""


def test_run_kernel_reports_an_unplannable_buffer_at_the_op() -> None:
    res = run_kernel(UNOBSERVED, "k", args=[0, 0], filename="k.mlir")
    assert res.kinds("error") == {FindingKind.INVALID_IR}, res.render()
    text = res.render()
    assert "k.mlir:8:3: error: the last use of this TMEM buffer is an asynchronous 'tcgen05.mma'" in text
    assert "the buffer is declared here" in text
