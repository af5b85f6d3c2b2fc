"""Interpreted tcgen05.mma against numpy: a 128x256x64 f16 GEMM tile (4 k-steps of 128x256x16).

1. examples/gemm_f16_tile.mlir run by run_kernel (global -> shared, descriptors, 4 mmas, commit,
   mbarrier wait, tile_load epilogue, store: the whole kernel, 4 warps);
2. the tensor-core path of the interpreter alone: per k-step, decode the two SMEM descriptors
   (128B swizzle, K-major), gather and decode A (128x16) and B (256x16) from shared-memory bytes,
   D = A·B (+D) in float64, round to f32 and write D into TMEM cells in its accumulator layout;
3. numpy's matmul of the same tile (float32 128x64 @ 64x256).
Prints the times and their ratios to numpy, measured in this run; asserts only that the results agree.

Run: python bench/bench_mma.py
"""

from __future__ import annotations

import os
import time

# One BLAS thread: on a loaded 2-core machine a threaded BLAS spends milliseconds synchronizing
# on a 128x64x256 product, which would measure the load, not numpy or the interpreter.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from tmem_dialect import isa
from tmem_dialect.interpreter import smem_descriptor as sd
from tmem_dialect.interpreter import tensor_core as tc

M, N, K, KSTEP = 128, 256, 64, 16
A_BASE, B_BASE = 0x0, 0x8000  # 1024-aligned stages


def swizzled_tile(values: np.ndarray, base: int, raw: np.ndarray) -> None:
    """Write an (rows, 64) f16 tile K-major with the 128B swizzle (one 128-byte row per row)."""
    rows = values.shape[0]
    bits = values.view(np.uint16).astype(np.uint32)
    i = np.arange(rows)[:, None]
    kb = np.arange(64)[None, :] * 2
    at = base + (i // 8) * 1024 + (i % 8) * 128 + ((kb // 16) ^ (i % 8)) * 16 + kb % 16
    raw[at] = bits & 0xFF
    raw[at + 1] = bits >> 8


def interpreted(raw: np.ndarray, cells: np.ndarray) -> np.ndarray:
    read = lambda addresses: raw[addresses]
    f16 = isa.DType.F16
    idesc = tc.decode_instr(isa.InstrDescriptor(isa.Kind.F16, M, N, f16, f16).encode(), isa.Kind.F16)
    flat = tc.accumulator_flat(0, M, N, 1)
    for step in range(K // KSTEP):
        a_desc = sd.encode(A_BASE + 32 * step, 16, 1024, 2)
        b_desc = sd.encode(B_BASE + 32 * step, 16, 1024, 2)
        a = tc.read_smem_operand(read, a_desc, isa.Kind.F16, f16, M, KSTEP, False)
        b = tc.read_smem_operand(read, b_desc, isa.Kind.F16, f16, N, KSTEP, False)
        d = tc.from_cells(cells[flat], isa.DType.F32) if step else None
        cells[flat] = tc.to_cells(tc.multiply(idesc, a, b, d))
    return tc.from_cells(cells[flat], isa.DType.F32)


def _best(n, run):
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - t)
    return best, out


def bench_example(a: np.ndarray, b: np.ndarray, ref: np.ndarray) -> float | None:
    try:
        from tmem_dialect.dialects import tcgen05_mma  # noqa: F401
    except ImportError:
        print("examples/gemm_f16_tile.mlir: skipped (the tcgen05.mma ops are not in this tree)")
        return None
    from pathlib import Path

    from tmem_dialect.dialects import make_context
    from tmem_dialect.interpreter import run_kernel
    from tmem_dialect.ir import parse_module

    text = (Path(__file__).parent.parent / "examples" / "gemm_f16_tile.mlir").read_text()
    module = parse_module(make_context(), text)

    def run():
        res = run_kernel(module, kernel="gemm_f16_tile",
                         args=[a.reshape(-1), b.reshape(-1), np.zeros(M * N, np.float32)])
        assert res.errors == [], res.render()
        return res.args[2].reshape(M, N)

    t, c = _best(3, run)
    assert np.allclose(c, ref, rtol=1e-5, atol=1e-4)
    return t


def main() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((N, K)).astype(np.float16)
    raw = np.zeros(0x8000 + N * 128, dtype=np.uint8)
    swizzled_tile(a, A_BASE, raw)
    swizzled_tile(b, B_BASE, raw)
    cells = np.zeros(isa.TMEM_LANES * isa.TMEM_COLUMNS, dtype=np.uint32)
    t_interp, d = _best(20, lambda: interpreted(raw, cells))
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    t_numpy, ref = _best(20, lambda: a32 @ b32.T)
    assert np.allclose(d, ref, rtol=1e-5, atol=1e-4)
    t_kernel = bench_example(a, b, ref)
    print(f"numpy float32 matmul of the tile: {t_numpy * 1e3:.3f} ms")
    if t_kernel is not None:
        print(f"examples/gemm_f16_tile.mlir under run_kernel (whole kernel): {t_kernel * 1e3:.1f} ms "
              f"= {t_kernel / t_numpy:.0f}x numpy")
    print(f"tensor-core path only (4 mmas: descriptor decode, gather, matmul, TMEM write): "
          f"{t_interp * 1e3:.2f} ms = {t_interp / t_numpy:.0f}x numpy")


if __name__ == "__main__":
    main()
