"""Small Triton and Gluon kernels that use TMEM on sm_100a: the sources generate.py compiles for the corpus."""

import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.blackwell import (
    TensorMemoryLayout,
    allocate_tensor_memory,
    tcgen05_commit,
    tcgen05_copy,
    tcgen05_mma,
)
from triton.experimental.gluon.language.nvidia.hopper import mbarrier


@gluon.jit
def tmem_roundtrip(src, dst, M: gl.constexpr, N: gl.constexpr, COL_STRIDE: gl.constexpr):
    """Global -> registers -> TMEM -> registers -> global, an M x N tile of src's element type."""
    tmem = allocate_tensor_memory(src.dtype.element_ty, [M, N], TensorMemoryLayout(block=(M, N), col_stride=COL_STRIDE))
    reg: gl.constexpr = tmem.get_reg_layout()
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, reg))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, reg))
    offsets = rows[:, None] * N + cols[None, :]
    tmem.store(gl.load(src + offsets))
    gl.store(dst + offsets, tmem.load(reg))


@gluon.jit
def mma_mbarrier(a_ptr, b_ptr, c_ptr, M: gl.constexpr, N: gl.constexpr, K: gl.constexpr):
    """One 128xNxK f16 tcgen05.mma into a TMEM accumulator, completion through tcgen05.commit on an mbarrier."""
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [gl.num_warps(), 1], [1, 0])
    a_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([M, K], gl.float16)
    b_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([K, N], gl.float16)
    rm = gl.arange(0, M, layout=gl.SliceLayout(1, blocked))
    rk = gl.arange(0, K, layout=gl.SliceLayout(0, blocked))
    rk2 = gl.arange(0, K, layout=gl.SliceLayout(1, blocked))
    rn = gl.arange(0, N, layout=gl.SliceLayout(0, blocked))
    a_smem = gl.allocate_shared_memory(gl.float16, [M, K], a_layout, gl.load(a_ptr + rm[:, None] * K + rk[None, :]))
    b_smem = gl.allocate_shared_memory(gl.float16, [K, N], b_layout, gl.load(b_ptr + rk2[:, None] * N + rn[None, :]))
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    acc = allocate_tensor_memory(gl.float32, [M, N], TensorMemoryLayout(block=(M, N), col_stride=1))
    tcgen05_mma(a_smem, b_smem, acc, use_acc=False)
    tcgen05_commit(bar)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    reg: gl.constexpr = acc.get_reg_layout()
    out = acc.load(reg)
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, reg))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, reg))
    gl.store(c_ptr + rows[:, None] * N + cols[None, :], out)


@gluon.jit
def tmem_copy(src, dst, M: gl.constexpr, N: gl.constexpr):
    """Global -> shared memory -> TMEM by tcgen05.cp (completion through tcgen05.commit on an mbarrier) -> global."""
    blocked: gl.constexpr = gl.BlockedLayout([1, 4], [1, 32], [gl.num_warps(), 1], [1, 0])
    rm = gl.arange(0, M, layout=gl.SliceLayout(1, blocked))
    rn = gl.arange(0, N, layout=gl.SliceLayout(0, blocked))
    smem_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([M, N], gl.float32)
    smem = gl.allocate_shared_memory(gl.float32, [M, N], smem_layout, gl.load(src + rm[:, None] * N + rn[None, :]))
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    tmem = allocate_tensor_memory(gl.float32, [M, N], TensorMemoryLayout(block=(M, N), col_stride=1))
    tcgen05_copy(smem, tmem)
    tcgen05_commit(bar)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    reg: gl.constexpr = tmem.get_reg_layout()
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, reg))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, reg))
    gl.store(dst + rows[:, None] * N + cols[None, :], tmem.load(reg))


@triton.jit
def dot(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """A K loop of tl.dot: on sm_100 Triton puts the accumulator in TMEM and issues tcgen05.mma."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def dot_ws(a_desc, b_desc, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """A warp-specialized K loop (tl.range(warp_specialize=True)) over TMA tensor descriptors."""
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, warp_specialize=True):
        a = a_desc.load([0, k])
        b = b_desc.load([0, k])
        acc = tl.dot(a, b.T, acc)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
