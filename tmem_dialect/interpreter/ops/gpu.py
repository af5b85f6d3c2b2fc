"""GPU ops: special registers, barriers, and every TMEM op of tcgen05.* and nvvm.tcgen05.* via `tmem_effect`.

The TMEM ops of both dialects are registered to one implementation, `run_tmem_op`, which reads
what the op does from its TMEMEffect (kind, address operand, shape, num, packing, offset, column
count, cta_group) and never from dialect-specific operands. The warpgroup tile ops of the tcgen05
dialect (tile_load/tile_store, before lane assignment) are warpgroup-level ld/st: each warp moves
the part of the fragment that its lane quarter holds.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, OpImplResult, PythonValues, impl, register_impls
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.dialects import nvvm, nvvm_sync, nvvm_tmem, nvvm_warp, tcgen05, tcgen05_tiles
from tmem_dialect.dialects.interfaces import TMEMEffect
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import lifecycle
from tmem_dialect.interpreter import values as V
from tmem_dialect.interpreter.tmem import COLUMNS, CellSet
from tmem_dialect.interpreter.values import TMEMBufferValue
from tmem_dialect.interpreter.warp import WarpInterpreter
from tmem_dialect.layout import LANEID, TCOL, TLANE, WARPID, M
from tmem_dialect.memory_model import EffectKind

_THREADS = np.arange(V.WARP)


def ldst_cells(taddr: int, effect: TMEMEffect, active: np.ndarray | None) -> CellSet:
    """The cells of one warp's ld/st in (thread, register, half) order.

    `active` (None: the whole warp) selects the threads that take part.
    """
    assert effect.shape is not None and effect.num is not None
    lanes, cols = isa.access_cells(taddr, effect.shape, effect.num, effect.packed, effect.offset)
    per_thread = lanes[0].size
    threads = np.repeat(_THREADS, per_thread)
    lanes, cols = lanes.reshape(-1), cols.reshape(-1)
    if active is not None:
        sel = np.repeat(active, per_thread)
        lanes, cols, threads = lanes[sel], cols[sel], threads[sel]
    return CellSet.of(lanes, cols, threads)


def _cached_cells(w: WarpInterpreter, taddr: int, effect: TMEMEffect, active: np.ndarray | None) -> CellSet:
    key = (taddr, effect.shape, effect.num, effect.packed, effect.offset,
           None if active is None else active.tobytes())
    cache = w.machine.cell_sets
    found = cache.get(key)
    if found is None:
        if len(cache) > 4096:
            cache.clear()
        found = cache[key] = ldst_cells(taddr, effect, active)
    return found


def _valid_cells(access: CellSet) -> tuple[np.ndarray, np.ndarray]:
    """(flat cells inside TMEM, their lanes in the warp): what a record recomputes for messages."""
    if access.inside:
        return access.flat, access.threads
    valid = (access.lanes >= 0) & (access.lanes < isa.TMEM_LANES) & (access.cols >= 0) & (access.cols < COLUMNS)
    return access.flat[valid], access.threads[valid]


def run_ldst(w: WarpInterpreter, op: Operation, effect: TMEMEffect) -> np.ndarray | None:
    m = w.machine
    m.check_collective(w, op, op.name)
    assert effect.address is not None and effect.registers is not None
    taddr = m.uniform(w, op, w.env[effect.address], "TMEM address") & 0xFFFFFFFF
    active = None if w.mask.all() else w.mask.copy()
    access = _cached_cells(w, taddr, effect, active)
    flat, valid = m.tmem_access(w, op, effect.kind, access, lambda: _valid_cells(access),
                                V.origin(w.env[effect.address]))
    lanes = access.lanes
    regs = isa.regs_per_thread(effect.shape, effect.num)  # type: ignore[arg-type]
    halves = 2 if effect.packed else 1
    cells = m.ctas[w.cta].tmem.cells
    if effect.kind is EffectKind.LD:
        if valid is None and active is None:
            out = cells[flat].reshape(V.WARP, regs, halves)
        else:
            got = np.zeros(lanes.shape, dtype=np.uint32)
            if valid is None:
                got[:] = cells[flat]
            else:
                got[valid] = cells[flat]
            out = np.zeros((V.WARP, regs, halves), dtype=np.uint32)
            out[active if active is not None else slice(None)] = got.reshape(-1, regs, halves)
        if effect.packed:
            result = ((out[..., 0] & 0xFFFF) | ((out[..., 1] & 0xFFFF) << 16)).view(np.int32)
        else:
            result = out[..., 0].view(np.int32)
        w.note_pending_registers(result, op)
        return result
    bits = np.ascontiguousarray(w.env[effect.registers]).view(np.uint32)
    if effect.packed:
        data = np.stack([bits & 0xFFFF, bits >> 16], axis=-1)
    else:
        data = bits
    if active is not None:
        data = data[active]
    data = data.reshape(-1)
    cells[flat] = data if valid is None else data[valid]
    return None


def _cell_bits(values: np.ndarray) -> np.ndarray:
    """Element values -> 32-bit TMEM cell contents (16-bit elements in the low half)."""
    if values.dtype.itemsize == 4:
        return values.view(np.uint32)
    if values.dtype.itemsize == 2:
        return values.view(np.uint16).astype(np.uint32)
    raise V.UnsupportedType(f"TMEM tiles hold 16- or 32-bit elements, not {values.dtype}")


def _from_cell_bits(bits: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if dtype.itemsize == 4:
        return bits.astype(np.uint32).view(dtype)
    return (bits & 0xFFFF).astype(np.uint16).view(dtype)


def _tile_map(w: WarpInterpreter, op: tcgen05_tiles._TileOp, quarter: int):
    key = (id(op), quarter)
    hit = w.machine.tile_maps.get(key)
    if hit is None or hit[0] is not op:
        hit = (op, _compute_tile_map(op, quarter))
        w.machine.tile_maps[key] = hit
    return hit[1]


def _compute_tile_map(op: tcgen05_tiles._TileOp, quarter: int):
    """For warp `quarter` of the warpgroup: (TMEM lane, column) offsets and (thread, register) pairs."""
    buffer_type = op.buffer_type
    layout = buffer_type.tile_layout
    frag = op.fragment_layout
    assert frag is not None
    in_buffer = op.buffer_indices()
    n = in_buffer.size
    region = np.arange(n, dtype=np.int64)
    tmem = layout.shard_coords(in_buffer)
    regs = frag.shard_coords(region)
    zero = np.zeros(n, dtype=np.int64)
    lane, col = tmem.get(TLANE, zero), tmem.get(TCOL, zero)
    parts = []
    for rep in frag.replica_offsets():
        warp = regs.get(WARPID, zero) + rep.get(WARPID, 0)
        thread = regs.get(LANEID, zero) + rep.get(LANEID, 0)
        reg = regs.get(M, zero) + rep.get(M, 0)
        sel = warp == quarter
        parts.append((lane[sel], col[sel], thread[sel], reg[sel]))
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))


def run_tile(w: WarpInterpreter, op: tcgen05_tiles._TileOp, args: PythonValues):
    m = w.machine
    m.check_collective(w, op, op.name)
    load = isinstance(op, tcgen05_tiles.TileLoadOp)
    buffer: TMEMBufferValue = args[0] if load else args[1]
    taddr = m.uniform(w, op, buffer.taddr, "TMEM buffer address") & 0xFFFFFFFF
    lane_off, col_off, thread, reg = _tile_map(w, op, w.warp_in_cta % isa.WARPS_PER_WARPGROUP)
    on = w.mask[thread]
    lane_off, col_off, thread, reg = lane_off[on], col_off[on], thread[on], reg[on]
    lanes = isa.taddr_lane(taddr) + lane_off
    cols = isa.taddr_column(taddr) + col_off
    kind = EffectKind.LD if load else EffectKind.ST
    access = CellSet.of(lanes, cols, thread)
    flat, valid = m.tmem_access(w, op, kind, access, lambda: _valid_cells(access), V.origin(buffer.taddr))
    cells = m.ctas[w.cta].tmem.cells
    if load:
        result_type = op.results[0].type
        out = V.zeros(result_type)
        got = np.zeros(lanes.shape, dtype=np.uint32)
        got[valid if valid is not None else slice(None)] = cells[flat]
        out[thread, reg] = _from_cell_bits(got, out.dtype)
        w.note_pending_registers(out, op)
        return (out,)
    value = args[0]
    bits = _cell_bits(np.ascontiguousarray(value[thread, reg]))
    cells[flat] = bits if valid is None else bits[valid]
    return ()


def run_tmem_op(w: WarpInterpreter, op: Operation) -> PythonValues:
    """The semantics of any op with a TMEM effect, whichever dialect it belongs to."""
    m = w.machine
    effect = m.effect_of(op)
    kind = effect.kind
    if kind is EffectKind.ALLOC:
        lifecycle.alloc(m, w, op, effect)
    elif kind is EffectKind.DEALLOC:
        lifecycle.dealloc(m, w, op, effect)
    elif kind is EffectKind.RELINQUISH:
        lifecycle.relinquish(m, w, op, effect)
    elif kind in (EffectKind.LD, EffectKind.ST):
        result = run_ldst(w, op, effect)
        return (result,) if result is not None else ()
    elif kind in (EffectKind.WAIT_LD, EffectKind.WAIT_ST):
        m.wait(w, op, kind)
    elif kind in (EffectKind.FENCE_BEFORE, EffectKind.FENCE_AFTER):
        m.fence(w, kind)
    elif kind is EffectKind.BARRIER:
        run_barrier(w, op)
    else:
        from tmem_dialect.interpreter.ops.producers import run_effect  # issue 10: mma, mbarriers, ...

        result = run_effect(w, op, effect)
        if result is not None:
            return result
        m.report(FindingKind.UNSUPPORTED, "error", op,
                 f"the interpreter does not model {kind.value} accesses ({op.name})")
    return ()


def run_barrier(w: WarpInterpreter, op: Operation) -> None:
    barrier_id, count, aligned = 0, None, True
    if isinstance(op, nvvm_sync.BarrierOp):
        if op.barrierId is not None:
            barrier_id = w.machine.uniform(w, op, w.env[op.barrierId], "barrier id")
        if op.numberOfThreads is not None:
            count = w.machine.uniform(w, op, w.env[op.numberOfThreads], "thread count")
        aligned = op.aligned.value.data != 0
    w.machine.barrier(w, op, barrier_id, count, aligned)


def run_barrier_arrive(w: WarpInterpreter, op: nvvm_sync.BarrierArriveOp) -> None:
    m = w.machine
    barrier_id = m.uniform(w, op, w.env[op.barrierId], "barrier id") if op.barrierId is not None else 0
    count = m.uniform(w, op, w.env[op.numberOfThreads], "thread count")
    m.barrier(w, op, barrier_id, count, aligned=True, wait=False)


def shuffle(w: WarpInterpreter, op: Operation, kind: nvvm_warp.ShflKind, value: np.ndarray, b: np.ndarray,
            c: np.ndarray) -> np.ndarray:
    """shfl.sync: each lane reads `value` of the source lane the PTX ISA's pseudocode computes
    from the mode, b (lane, offset or mask) and c (clamp in bits 4..0, segment mask in 12..8)."""
    lane = np.arange(V.WARP)
    bval = b.astype(np.int64) & 31
    cval = c.astype(np.int64) & 31
    segmask = (c.astype(np.int64) >> 8) & 31
    max_lane = (lane & segmask) | (cval & ~segmask)
    if kind is nvvm_warp.ShflKind.up:
        j = lane - bval
        valid = j >= max_lane
    elif kind is nvvm_warp.ShflKind.down:
        j = lane + bval
        valid = j <= max_lane
    elif kind is nvvm_warp.ShflKind.bfly:
        j = lane ^ bval
        valid = j <= max_lane
    else:
        j = (lane & segmask) | (bval & ~segmask)
        valid = j <= max_lane
    j = np.where(valid, j, lane)
    inactive = w.mask & ~w.mask[j]
    if inactive.any():
        i = int(np.argmax(inactive))
        w.machine.report(
            FindingKind.POISON, "warning", op,
            f"{op.name} in warp {w.warp}: thread {w.thread_id(i)} reads lane {int(j[i])}, which does not "
            "execute the shuffle: the result is undefined (modelled as its own value)",
            key=w.warp,
        )
        j = np.where(inactive, lane, j)
    return value[j]


def generic_tmem_impl() -> tuple[InterpreterFunctions, object]:
    """(functions, impl) for an op class registered nowhere but with a TMEM effect model."""

    def run(ft, w: WarpInterpreter, op: Operation, args: PythonValues) -> OpImplResult:
        return OpImplResult(run_tmem_op(w, op), None)

    return InterpreterFunctions(), run


def _tmem_impl(op_type: type[Operation]):
    @impl(op_type)
    def run(self, w: WarpInterpreter, op: Operation, args: PythonValues) -> PythonValues:
        return run_tmem_op(w, op)

    return run


def _sreg_impl(op_type: type[nvvm.SpecialRegister]):
    name = op_type.name.removeprefix("nvvm.read.ptx.sreg.")

    @impl(op_type)
    def run(self, w: WarpInterpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (w.special_registers[name],)

    return run


TMEM_OPS: tuple[type[Operation], ...] = (
    tcgen05.AllocOp,
    tcgen05.DeallocOp,
    tcgen05.RelinquishAllocPermitOp,
    tcgen05.LdOp,
    tcgen05.StOp,
    tcgen05.WaitOp,
    tcgen05.FenceOp,
    nvvm_tmem.Tcgen05AllocOp,
    nvvm_tmem.Tcgen05DeallocOp,
    nvvm_tmem.Tcgen05RelinquishAllocPermitOp,
    nvvm_tmem.Tcgen05LdOp,
    nvvm_tmem.Tcgen05StOp,
    nvvm_tmem.Tcgen05WaitOp,
    nvvm_tmem.Tcgen05FenceOp,
    nvvm_sync.BarrierOp,
)


def _gpu_namespace() -> dict:
    ns: dict = {"__doc__": "TMEM ops of both dialects, barriers, special registers, TMEM tiles."}
    for op_type in TMEM_OPS:
        ns[f"run_{op_type.name.replace('.', '_')}"] = _tmem_impl(op_type)
    for op_type in nvvm.SPECIAL_REGISTERS:
        ns[f"run_{op_type.name.replace('.', '_')}"] = _sreg_impl(op_type)
    return ns


class _GPUOps(InterpreterFunctions):
    @impl(nvvm_sync.ClusterArriveOp)
    def run_cluster_arrive(self, w: WarpInterpreter, op: nvvm_sync.ClusterArriveOp, args: PythonValues):
        w.machine.cluster_arrive(w, op, relaxed=False, aligned=op.aligned is not None)
        return ()

    @impl(nvvm_sync.ClusterArriveRelaxedOp)
    def run_cluster_arrive_relaxed(self, w: WarpInterpreter, op: nvvm_sync.ClusterArriveRelaxedOp, args: PythonValues):
        w.machine.cluster_arrive(w, op, relaxed=True, aligned=op.aligned is not None)
        return ()

    @impl(nvvm_sync.ClusterWaitOp)
    def run_cluster_wait(self, w: WarpInterpreter, op: nvvm_sync.ClusterWaitOp, args: PythonValues):
        w.machine.cluster_wait(w, op, aligned=op.aligned is not None)
        return ()

    @impl(nvvm_warp.ShflSyncOp)
    def run_shfl_sync(self, w: WarpInterpreter, op: nvvm_warp.ShflSyncOp, args: PythonValues):
        _, value, b, c = args
        return (shuffle(w, op, op.kind.data, value, b, c),)

    @impl(nvvm_sync.BarrierArriveOp)
    def run_barrier_arrive(self, w: WarpInterpreter, op: nvvm_sync.BarrierArriveOp, args: PythonValues):
        run_barrier_arrive(w, op)
        return ()

    @impl(tcgen05_tiles.DeclBufferOp)
    def run_decl_buffer(self, w: WarpInterpreter, op: tcgen05_tiles.DeclBufferOp, args: PythonValues):
        return (TMEMBufferValue(args[0]),)

    @impl(tcgen05_tiles.TileLoadOp)
    def run_tile_load(self, w: WarpInterpreter, op: tcgen05_tiles.TileLoadOp, args: PythonValues):
        return run_tile(w, op, args)

    @impl(tcgen05_tiles.TileStoreOp)
    def run_tile_store(self, w: WarpInterpreter, op: tcgen05_tiles.TileStoreOp, args: PythonValues):
        return run_tile(w, op, args)


GPUFunctions = register_impls(type("GPUFunctions", (_GPUOps,), _gpu_namespace()))
