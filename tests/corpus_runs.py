"""The inputs the corpus kernels run on and the numpy checks of their outputs, shared by the PTX and MLIR runs.

Each builder returns (args, check): the kernel arguments in parameter order, as the PTX file takes
them (CuTe's by-value structs are their fields, in order: run_kernel passes an MLIR twin's struct
parameters the same way), and a function of the run's argument buffers that says whether the
numbers are numpy's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tmem_dialect.interpreter.tensor_map import TensorMap

CORPUS = Path(__file__).parent / "corpus"
RNG = np.random.default_rng(12)
SMEM = 64 * 1024  # the dynamic shared memory the kernels get at launch
SCRATCH = [np.zeros(16, np.uint8), np.zeros(16, np.uint8)]  # Triton's global and profile scratch pointers


def _tile(shape, dtype):
    return RNG.integers(-8, 8, shape).astype(dtype)


def _roundtrip(rows: int, cols: int, dtype, triton: bool):
    src = _tile(rows * cols, dtype)
    return [src, np.zeros_like(src), *(SCRATCH if triton else [])], lambda out: np.array_equal(out[1], src)


def _mma(triton: bool):
    a, b = _tile((128, 32), np.float16), _tile((32, 64), np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    args = [a.ravel(), b.ravel(), np.zeros(128 * 64, np.float32), *SCRATCH]
    return args, lambda out: np.array_equal(out[2].reshape(128, 64), want)


def _dot(k: int):
    """triton/dot.ptx: C (128x64 f32) = A (128xK f16) @ B (Kx64 f16), K a multiple of BK = 32 (ldmatrix operands)."""
    a, b = _tile((128, k), np.float16), _tile((k, 64), np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    args = [a.ravel(), b.ravel(), np.zeros(128 * 64, np.float32), np.int32(k), *SCRATCH]
    return args, lambda out: np.array_equal(out[2].reshape(128, 64), want)


def _cute_tma_gemm():
    """cute/gemm_tma_umma*.ptx: C (128x64 f32) = A (128x64 f16) @ B^T (B 64x64 f16), both K-major and
    loaded by TMA through byval tensor maps (128B swizzle, one box per tensor), which CuTe passes
    instead of pointers: the maps own the tensors. The TiledMma fields: three flag bytes and four
    disable-output-lane words, all zero."""
    a, b = _tile((128, 64), np.float16), _tile((64, 64), np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32).T
    maps = [
        TensorMap(-1, "f16", (64, rows), (64, rows), swizzle="128B", data=t)
        for t, rows in ((a, 128), (b, 64))
    ]
    args = [np.int16(0)] * 3 + [np.int32(0)] * 4 + [*maps, np.zeros(128 * 64, np.float32)]
    return args, lambda out: np.array_equal(out[-1].reshape(128, 64), want)


def pair_gemm():
    """cute/gemm_2cta.ptx: C (256x64 f32) = A (256x64 f16) @ B^T (B 64x64 f16, K-major), one cta_group::2
    MMA tile across the CTA pair. The TiledMma struct's fields: three flag bytes (accumulate, negate
    A, negate B: all off) and the eight disable-output-lane words (none disabled)."""
    a, b = _tile((256, 64), np.float16), _tile((64, 64), np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32).T
    args = [np.int16(0)] * 3 + [np.int32(0)] * 8 + [a.ravel(), b.ravel(), np.zeros(256 * 64, np.float32)]
    return args, lambda out: np.array_equal(out[-1].reshape(256, 64), want)


def dot_ws(k: int):
    """triton/dot_ws.ptx (and .mlir): C (128x64 f32) = A (128xK f16) @ B^T (B 64xK f16), K a multiple of
    BK = 32, in 4 default and 4 worker warps (its .reqntid 256). Each Triton tensor descriptor is a
    128-byte byval tensor map (in the param window; the PTX kernel takes its 32-bit .param address,
    the MLIR one a byval pointer) followed by its shape (two i32) and strides (two i64, in elements);
    the boxes are [BK, BM] and [BK, BN] with the 64-byte swizzle of a 64-byte (BK f16) row, the
    layout the mma's shared-memory descriptors name. Then C, K and the two scratch pointers."""
    a, b = _tile((128, k), np.float16), _tile((64, k), np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32).T
    ma, mb = (
        TensorMap(-1, "f16", (k, rows), (32, rows), swizzle="64B", data=t) for t, rows in ((a, 128), (b, 64))
    )
    shape_a, shape_b = ([np.int32(rows), np.int32(k), np.int64(k), np.int64(1)] for rows in (128, 64))
    args = [ma, *shape_a, mb, *shape_b, np.zeros(128 * 64, np.float32), np.int32(k), *SCRATCH]
    return args, lambda out: np.array_equal(out[10].reshape(128, 64), want)


# triton/dot_ws runs to numpy's product, and the interpreter reports what the PTX ISA forbids in
# Triton's code (expected.json's note says where): setmaxnreg not warpgroup-uniform, as tmem-verify
# does. (The default partition's four warps all store the same state word with no barrier between
# them: every order leaves the same bytes, which the PTX memory model, not requiring race freedom,
# makes no race.)
DOT_WS_FINDINGS = {"setmaxnreg-uniform"}


RUNS = {
    "cute/gemm_tma_umma.ptx": _cute_tma_gemm,
    "cute/tmem_roundtrip_32x32b.ptx": lambda: _roundtrip(128, 32, np.float32, False),
    "cute/tmem_roundtrip_f16_packed.ptx": lambda: _roundtrip(128, 32, np.float16, False),
    "triton/gluon_tmem_roundtrip_f32.ptx": lambda: _roundtrip(128, 32, np.float32, True),
    "triton/gluon_tmem_roundtrip_f16_packed.ptx": lambda: _roundtrip(128, 64, np.float16, True),
    "triton/gluon_tmem_roundtrip_m64.ptx": lambda: _roundtrip(64, 32, np.float32, True),
    "triton/gluon_mma_mbarrier.ptx": lambda: _mma(True),
    "triton/gluon_tmem_copy.ptx": lambda: _roundtrip(128, 32, np.float32, True),
    "triton/dot.ptx": lambda: _dot(64),
}
PAIR_RUNS = {"cute/gemm_2cta.ptx": pair_gemm}  # on a cluster of two CTAs
# the twin without wait::ld: the interpreter reports the same misuse tmem-verify does
MISUSED = {
    "cute/tmem_roundtrip_no_wait_ld.ptx": (
        lambda: _roundtrip(128, 32, np.float32, False),
        "dealloc-outstanding",
    ),
    "cute/gemm_tma_umma_no_wait_ld.ptx": (_cute_tma_gemm, "dealloc-outstanding"),
}
