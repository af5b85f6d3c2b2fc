"""Small CuTe DSL kernels that use TMEM on sm_100a: each KERNELS entry compiles one ahead of time, keeping its PTX in a directory."""


import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
import cutlass.utils.blackwell_helpers as sm100
from cutlass.cute.nvgpu import cpasync, tcgen05
from cutlass.cute.runtime import make_fake_compact_tensor
from cutlass.memory import SmemAllocator, TmemAllocator

F16, F32 = cutlass.Float16, cutlass.Float32


def _accumulator_mma(m: int, n: int, acc_dtype=F32, k: int = 16) -> cute.TiledMma:
    """A 1-CTA f16 tcgen05 MMA whose accumulator fragment gives the TMEM layout of an m x n tile of acc_dtype."""
    return cute.make_tiled_mma(tcgen05.MmaF16BF16Op(
        F16, acc_dtype, (m, n, k), tcgen05.CtaGroup.ONE, tcgen05.OperandSource.SMEM,
        tcgen05.OperandMajorMode.K, tcgen05.OperandMajorMode.K))


@cute.struct
class SlotStorage:
    tmem_slot: cutlass.Int32


def roundtrip_kernel(ld_op, st_op, dtype, m: int, n: int, wait_ld: bool):
    """Global -> registers -> TMEM (st_op) -> registers (ld_op) -> global, an m x n tile, then dealloc."""
    columns = max(32, n * dtype.width // 32)

    @cute.kernel
    def roundtrip(src: cute.Tensor, dst: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        slot = SmemAllocator().allocate(SlotStorage).tmem_slot.ptr
        if warp == 0:
            cute.arch.alloc_tmem(columns, slot)
            cute.arch.relinquish_tmem_alloc_permit()
        cute.arch.barrier()
        tmem_ptr = cute.arch.retrieve_tmem_ptr(dtype, 16, slot)
        mma = _accumulator_mma(m, n, dtype)
        tile = cute.make_tensor(tmem_ptr, mma.make_fragment_C(mma.partition_shape_C((m, n))).layout)
        thr = mma.get_slice(0)
        g_src, g_dst = thr.partition_C(src), thr.partition_C(dst)
        store = tcgen05.make_tmem_copy(cute.make_copy_atom(st_op, dtype), tile).get_slice(tidx)
        load = tcgen05.make_tmem_copy(cute.make_copy_atom(ld_op, dtype), tile).get_slice(tidx)
        regs = cute.make_rmem_tensor(store.partition_S(g_src).shape, dtype)
        cute.autovec_copy(store.partition_S(g_src), regs)
        cute.copy(store, regs, store.partition_D(tile))
        cute.arch.fence_view_async_tmem_store()
        back = cute.make_rmem_tensor(load.partition_D(g_dst).shape, dtype)
        cute.copy(load, load.partition_S(tile), back)
        if wait_ld:
            cute.arch.fence_view_async_tmem_load()
        cute.autovec_copy(back, load.partition_D(g_dst))
        cute.arch.barrier()
        if warp == 0:
            cute.arch.dealloc_tmem(tmem_ptr, columns)

    @cute.jit
    def host(src: cute.Tensor, dst: cute.Tensor):
        roundtrip(src, dst).launch(grid=(1, 1, 1), block=(128, 1, 1))

    return host, [make_fake_compact_tensor(dtype, (m, n), stride_order=(1, 0)) for _ in range(2)]


# ---- a tutorial-style GEMM: TMA loads, one tcgen05.mma thread, mbarrier pipelines, TMEM epilogue ----

GEMM_MNK = (128, 64, 64)   # one CTA tile, K in one block of four k=16 MMAs
GEMM_STAGES = 2


@cute.struct
class GemmStorage:
    ab_full_empty: cute.struct.MemRange[cutlass.Int64, GEMM_STAGES * 2]
    acc_full_empty: cute.struct.MemRange[cutlass.Int64, 2]
    tmem_slot: cutlass.Int32


def gemm_kernel(wait_ld: bool):
    """C = A @ B^T (f16 in, f32 accumulate in TMEM), A M x K and B N x K, K-major."""
    bm, bn, bk = GEMM_MNK

    @cute.kernel
    def gemm(tiled_mma: cute.TiledMma, tma_a: cute.CopyAtom, mA: cute.Tensor, tma_b: cute.CopyAtom,
             mB: cute.Tensor, mC: cute.Tensor, a_layout: cute.ComposedLayout, b_layout: cute.ComposedLayout):
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        smem = SmemAllocator()
        storage = smem.allocate(GemmStorage)
        sA = smem.allocate_tensor(F16, a_layout.outer, 128, a_layout.inner)
        sB = smem.allocate_tensor(F16, b_layout.outer, 128, b_layout.inner)
        if warp == 0:
            cute.arch.alloc_tmem(bn, storage.tmem_slot.ptr)
            cute.arch.relinquish_tmem_alloc_permit()
        tx_bytes = cute.size_in_bytes(F16, cute.select(a_layout, mode=[0, 1, 2])) + \
            cute.size_in_bytes(F16, cute.select(b_layout, mode=[0, 1, 2]))
        ab_producer, ab_consumer = pipeline.PipelineTmaUmma.create(
            num_stages=GEMM_STAGES,
            producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
            consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
            tx_count=tx_bytes, barrier_storage=storage.ab_full_empty.data_ptr(),
        ).make_participants()
        acc_producer, acc_consumer = pipeline.PipelineUmmaAsync.create(
            num_stages=1,
            producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
            consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 128),
            barrier_storage=storage.acc_full_empty.data_ptr(),
        ).make_participants()
        gA = cute.local_tile(mA, GEMM_MNK, (0, 0, None), proj=(1, None, 1))
        gB = cute.local_tile(mB, GEMM_MNK, (0, 0, None), proj=(None, 1, 1))
        gC = cute.local_tile(mC, GEMM_MNK, (0, 0, None), proj=(1, 1, None))
        thr_mma = tiled_mma.get_slice(0)
        tCgA, tCgB, tCgC = thr_mma.partition_A(gA), thr_mma.partition_B(gB), thr_mma.partition_C(gC)
        tCrA, tCrB = tiled_mma.make_fragment_A(sA), tiled_mma.make_fragment_B(sB)
        acc_layout = tiled_mma.make_fragment_C(tiled_mma.partition_shape_C((bm, bn))).layout
        tAsA, tAgA = cpasync.tma_partition(tma_a, 0, cute.make_layout(1), cute.group_modes(sA, 0, 3),
                                           cute.group_modes(tCgA, 0, 3))
        tBsB, tBgB = cpasync.tma_partition(tma_b, 0, cute.make_layout(1), cute.group_modes(sB, 0, 3),
                                           cute.group_modes(tCgB, 0, 3))
        cute.arch.barrier()  # the TMEM address is in shared memory
        acc = cute.make_tensor(cute.arch.retrieve_tmem_ptr(F32, 16, storage.tmem_slot.ptr), acc_layout)
        load_atom = cute.make_copy_atom(tcgen05.Ld32x32bOp(tcgen05.Repetition.x64), F32)
        tmem_load = tcgen05.make_tmem_copy(load_atom, acc).get_slice(tidx)
        tDtC, tDgC = tmem_load.partition_S(acc), tmem_load.partition_D(tCgC)
        if warp == 0:
            acc_empty = acc_producer.acquire_and_advance()
            for k_tile in cutlass.range(cute.size(gA, mode=[2])):
                ab_empty = ab_producer.acquire_and_advance()
                cute.copy(tma_a, tAgA[(None, ab_empty.count)], tAsA[(None, ab_empty.index)],
                          tma_bar_ptr=ab_empty.barrier)
                cute.copy(tma_b, tBgB[(None, ab_empty.count)], tBsB[(None, ab_empty.index)],
                          tma_bar_ptr=ab_empty.barrier)
                ab_full = ab_consumer.wait_and_advance()
                for k_block in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
                    coord = (None, None, k_block, ab_full.index)
                    cute.gemm(tiled_mma, acc, tCrA[coord], tCrB[coord], acc)
                    tiled_mma.set(tcgen05.Field.ACCUMULATE, True)
                ab_full.release()
            acc_empty.commit()
        acc_full = acc_consumer.wait_and_advance()
        regs = cute.make_rmem_tensor(tDgC.shape, F32)
        cute.copy(tmem_load, tDtC, regs)
        if wait_ld:
            cute.arch.fence_view_async_tmem_load()
        cute.autovec_copy(regs, tDgC)
        acc_full.release()
        cute.arch.barrier()
        if warp == 0:
            cute.arch.dealloc_tmem(acc.iterator, bn)

    @cute.jit
    def host(a: cute.Tensor, b: cute.Tensor, c: cute.Tensor):
        mma_op = tcgen05.MmaF16BF16Op(F16, F32, (bm, bn, 16), tcgen05.CtaGroup.ONE, tcgen05.OperandSource.SMEM,
                                      tcgen05.OperandMajorMode.K, tcgen05.OperandMajorMode.K)
        tiled_mma = cute.make_tiled_mma(mma_op)
        a_layout = sm100.make_smem_layout_a(tiled_mma, GEMM_MNK, F16, GEMM_STAGES)
        b_layout = sm100.make_smem_layout_b(tiled_mma, GEMM_MNK, F16, GEMM_STAGES)
        tma_op = cpasync.CopyBulkTensorTileG2SOp(tcgen05.CtaGroup.ONE)
        tma_a, tma_ta = cute.nvgpu.make_tiled_tma_atom_A(tma_op, a, cute.select(a_layout, mode=[0, 1, 2]),
                                                         GEMM_MNK, tiled_mma)
        tma_b, tma_tb = cute.nvgpu.make_tiled_tma_atom_B(tma_op, b, cute.select(b_layout, mode=[0, 1, 2]),
                                                         GEMM_MNK, tiled_mma)
        gemm(tiled_mma, tma_a, tma_ta, tma_b, tma_tb, c, a_layout, b_layout).launch(
            grid=(1, 1, 1), block=(128, 1, 1))

    a = make_fake_compact_tensor(F16, (bm, bk), stride_order=(1, 0), assumed_align=16)
    b = make_fake_compact_tensor(F16, (bn, bk), stride_order=(1, 0), assumed_align=16)
    c = make_fake_compact_tensor(F32, (bm, bn), stride_order=(1, 0), assumed_align=16)
    return host, [a, b, c]


# ---- a 2-CTA GEMM: a CTA pair (cluster 2x1) and cta_group::2 tcgen05.mma / alloc / commit ----

PAIR_MNK = (256, 64, 64)   # the pair's tile: each CTA holds 128 rows of A and C, 32 rows of B


@cute.struct
class PairStorage:
    acc_full: cutlass.Int64
    dealloc: cutlass.Int64
    tmem_slot: cutlass.Int32


def gemm_pair_kernel():
    """C = A @ B^T on a CTA pair: each CTA copies its half of A and B into shared memory with plain
    loads, a cluster barrier publishes them, the leader CTA's one thread issues the cta_group::2 MMAs
    and a multicast commit to both CTAs' mbarriers, and each CTA reads its 128 rows from TMEM."""
    bm, bn, bk = PAIR_MNK

    @cute.kernel
    def gemm_pair(tiled_mma: cute.TiledMma, mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor,
                  a_layout: cute.ComposedLayout, b_layout: cute.ComposedLayout):
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        rank = cute.arch.make_warp_uniform(cute.arch.block_idx_in_cluster())
        smem = SmemAllocator()
        storage = smem.allocate(PairStorage)
        sA = smem.allocate_tensor(F16, a_layout.outer, 128, a_layout.inner)
        sB = smem.allocate_tensor(F16, b_layout.outer, 128, b_layout.inner)
        if warp == 0:
            with cute.arch.elect_one():
                cute.arch.mbarrier_init(storage.acc_full.ptr, 1)
        tmem = TmemAllocator(storage.tmem_slot.ptr, barrier_for_retrieve=pipeline.NamedBarrier(1, 128),
                             is_two_cta=True, two_cta_tmem_dealloc_mbar_ptr=storage.dealloc.ptr)
        cute.arch.cluster_arrive_relaxed()  # the peer runs, and its mbarriers are initialized, before the pair allocates
        cute.arch.cluster_wait()
        tmem.allocate(bn)
        thr_mma = tiled_mma.get_slice(rank)
        gA = cute.local_tile(mA, PAIR_MNK, (0, 0, None), proj=(1, None, 1))
        gB = cute.local_tile(mB, PAIR_MNK, (0, 0, None), proj=(None, 1, 1))
        gC = cute.local_tile(mC, PAIR_MNK, (0, 0, None), proj=(1, 1, None))
        tCgA = thr_mma.partition_A(gA)[(None, None, None, 0)]
        tCgB = thr_mma.partition_B(gB)[(None, None, None, 0)]
        tCgC = thr_mma.partition_C(gC)
        sA0, sB0 = sA[(None, None, None, 0)], sB[(None, None, None, 0)]
        # each thread copies whole 16-element K runs (no two warps write one 32-bit word)
        for kb in cutlass.range(4):
            for c in cutlass.range(16):
                sA0[((tidx, c), 0, kb)] = tCgA[((tidx, c), 0, kb)]
        for c in cutlass.range(16):
            sB0[((tidx % 32, c), 0, tidx // 32)] = tCgB[((tidx % 32, c), 0, tidx // 32)]
        cute.arch.fence_view_async_shared()  # the MMA reads shared memory through the async proxy
        cute.arch.cluster_arrive()
        cute.arch.cluster_wait()
        tmem.wait_for_alloc()
        tCrA, tCrB = tiled_mma.make_fragment_A(sA), tiled_mma.make_fragment_B(sB)
        acc_layout = tiled_mma.make_fragment_C(tiled_mma.partition_shape_C((bm, bn))).layout
        acc = cute.make_tensor(tmem.retrieve_ptr(F32), acc_layout)
        load_atom = cute.make_copy_atom(tcgen05.Ld32x32bOp(tcgen05.Repetition.x64), F32)
        tmem_load = tcgen05.make_tmem_copy(load_atom, acc).get_slice(tidx)
        tDtC, tDgC = tmem_load.partition_S(acc), tmem_load.partition_D(tCgC)
        if rank == 0 and warp == 0:
            for k_block in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
                coord = (None, None, k_block, 0)
                cute.gemm(tiled_mma, acc, tCrA[coord], tCrB[coord], acc)
                tiled_mma.set(tcgen05.Field.ACCUMULATE, True)
            with cute.arch.elect_one():
                tcgen05.commit(storage.acc_full.ptr, 0b11, tcgen05.CtaGroup.TWO)
        tmem.relinquish_alloc_permit()
        cute.arch.mbarrier_wait(storage.acc_full.ptr, 0)
        regs = cute.make_rmem_tensor(tDgC.shape, F32)
        cute.copy(tmem_load, tDtC, regs)
        cute.arch.fence_view_async_tmem_load()
        cute.autovec_copy(regs, tDgC)
        cute.arch.barrier()
        tmem.free(acc.iterator, bn)

    @cute.jit
    def host(a: cute.Tensor, b: cute.Tensor, c: cute.Tensor):
        mma_op = tcgen05.MmaF16BF16Op(F16, F32, (bm, bn, 16), tcgen05.CtaGroup.TWO, tcgen05.OperandSource.SMEM,
                                      tcgen05.OperandMajorMode.K, tcgen05.OperandMajorMode.K)
        tiled_mma = cute.make_tiled_mma(mma_op)
        a_layout = sm100.make_smem_layout_a(tiled_mma, PAIR_MNK, F16, 1)
        b_layout = sm100.make_smem_layout_b(tiled_mma, PAIR_MNK, F16, 1)
        gemm_pair(tiled_mma, a, b, c, a_layout, b_layout).launch(grid=(2, 1, 1), block=(128, 1, 1),
                                                                 cluster=(2, 1, 1))

    a = make_fake_compact_tensor(F16, (bm, bk), stride_order=(1, 0), assumed_align=16)
    b = make_fake_compact_tensor(F16, (bn, bk), stride_order=(1, 0), assumed_align=16)
    c = make_fake_compact_tensor(F32, (bm, bn), stride_order=(1, 0), assumed_align=16)
    return host, [a, b, c]


def _compiler(make):
    def build(dump_dir: str) -> None:
        host, args = make()
        cute.compile(host, *args, options=f"--keep-ptx --dump-dir={dump_dir}")
    return build


R = tcgen05.Repetition
KERNELS = {
    "tmem_roundtrip_32x32b": _compiler(lambda: roundtrip_kernel(
        tcgen05.Ld32x32bOp(R.x32), tcgen05.St32x32bOp(R.x32), F32, 128, 32, True)),
    "tmem_roundtrip_f16_packed": _compiler(lambda: roundtrip_kernel(
        tcgen05.Ld32x32bOp(R.x16, tcgen05.Pack.PACK_16b_IN_32b),
        tcgen05.St32x32bOp(R.x16, tcgen05.Unpack.UNPACK_32b_IN_16b), F16, 128, 32, True)),
    "tmem_roundtrip_no_wait_ld": _compiler(lambda: roundtrip_kernel(
        tcgen05.Ld32x32bOp(R.x32), tcgen05.St32x32bOp(R.x32), F32, 128, 32, False)),
    "gemm_tma_umma": _compiler(lambda: gemm_kernel(True)),
    "gemm_tma_umma_no_wait_ld": _compiler(lambda: gemm_kernel(False)),
    "gemm_2cta": _compiler(gemm_pair_kernel),
}
