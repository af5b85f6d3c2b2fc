"""Op implementations of the nvvm TMA ops: each issuing lane's copy, store, group op or prefetch (interpreter.tma)."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation, SSAValue

from tmem_dialect.dialects import nvvm_tma as t
from tmem_dialect.dialects import tcgen05_tma as tc
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import tma as T
from tmem_dialect.interpreter.warp import WarpInterpreter


def _lanes(w: WarpInterpreter, value: SSAValue) -> np.ndarray:
    v = np.asarray(w.env[value])
    if v.ndim == 0:
        v = np.full(len(w.mask), v)
    return v.astype(np.int64)


def _issuing(w: WarpInterpreter, op: Operation) -> np.ndarray:
    """The lanes that issue the copy: active, and with the predicate operand set."""
    lanes = w.mask.copy()
    predicate = getattr(op, "predicate", None)
    if predicate is not None:
        lanes &= _lanes(w, predicate) != 0
    return np.flatnonzero(lanes)


def _mode_is_tile(w: WarpInterpreter, op: Operation) -> bool:
    mode = op.properties.get("mode")
    if mode is None or mode.data.value == "tile":  # type: ignore[attr-defined]
        return True
    w.machine.report(FindingKind.UNSUPPORTED, "error", op,
                     f"the interpreter models the tile mode of {op.name} only, not {mode.data.value}")  # type: ignore[attr-defined]
    return False


def _run(w: WarpInterpreter, op: Operation, issue) -> PythonValues:
    """issue(lane) for each issuing lane; a TmaError becomes a finding at the op."""
    state = T.of(w.machine)
    for lane in _issuing(w, op):
        try:
            issue(state, int(lane))
        except T.TmaError as e:
            w.machine.report(e.kind, "error", op, f"{op.name} of warp {w.warp} (thread {w.thread_id(int(lane))}): {e}",
                             key=str(e))
    return ()


def _tensor_load(w: WarpInterpreter, op: Operation, dst_value: SSAValue, tmap_value: SSAValue, bar_value: SSAValue,
                 mask_value: SSAValue | None) -> PythonValues:
    dst, tmap, bar = _lanes(w, dst_value), _lanes(w, tmap_value), _lanes(w, bar_value)
    coords = [_lanes(w, c) for c in op.coordinates]  # type: ignore[attr-defined]
    mask = _lanes(w, mask_value) & 0xFFFF if mask_value is not None else None
    group = op.cta_group_value  # type: ignore[attr-defined]
    return _run(w, op, lambda s, i: s.tensor_load(
        w, op, int(dst[i]), int(tmap[i]), [int(np.int32(c[i])) for c in coords], int(bar[i]),
        None if mask is None else int(mask[i]), group))


def _tensor_store(w: WarpInterpreter, op: Operation, tmap_value: SSAValue, src_value: SSAValue) -> PythonValues:
    tmap, src = _lanes(w, tmap_value), _lanes(w, src_value)
    coords = [_lanes(w, c) for c in op.coordinates]  # type: ignore[attr-defined]
    return _run(w, op, lambda s, i: s.tensor_store(w, op, int(tmap[i]), [int(np.int32(c[i])) for c in coords], int(src[i])))


@register_impls
class TmaFunctions(InterpreterFunctions):
    """The TMA ops of upstream NVVM and of the tcgen05 level."""

    @impl(t.CpAsyncBulkTensorSharedClusterGlobalOp)
    def run_tensor_load(self, w: WarpInterpreter, op: t.CpAsyncBulkTensorSharedClusterGlobalOp, args: PythonValues):
        if not _mode_is_tile(w, op):
            return ()
        return _tensor_load(w, op, op.dstMem, op.tmaDescriptor, op.mbar, op.multicastMask)

    @impl(tc.TmaLoadOp)
    def run_tcgen05_tma_load(self, w: WarpInterpreter, op: tc.TmaLoadOp, args: PythonValues):
        return _tensor_load(w, op, op.dst, op.tensor_map, op.mbarrier, op.multicast_mask)

    @impl(tc.TmaStoreOp)
    def run_tcgen05_tma_store(self, w: WarpInterpreter, op: tc.TmaStoreOp, args: PythonValues):
        return _tensor_store(w, op, op.tensor_map, op.src)

    @impl(t.CpAsyncBulkSharedClusterGlobalOp)
    def run_bulk_load(self, w: WarpInterpreter, op: t.CpAsyncBulkSharedClusterGlobalOp, args: PythonValues):
        dst, src, bar, size = (_lanes(w, v) for v in (op.dstMem, op.srcMem, op.mbar, op.size))
        mask = _lanes(w, op.multicastMask) & 0xFFFF if op.multicastMask is not None else None
        return _run(w, op, lambda s, i: s.bulk_load(
            w, op, int(dst[i]), int(src[i]), int(size[i]), int(bar[i]), None if mask is None else int(mask[i])))

    @impl(t.CpAsyncBulkTensorGlobalSharedCtaOp)
    def run_tensor_store(self, w: WarpInterpreter, op: t.CpAsyncBulkTensorGlobalSharedCtaOp, args: PythonValues):
        if not _mode_is_tile(w, op):
            return ()
        return _tensor_store(w, op, op.tmaDescriptor, op.srcMem)

    @impl(t.CpAsyncBulkGlobalSharedCtaOp)
    def run_bulk_store(self, w: WarpInterpreter, op: t.CpAsyncBulkGlobalSharedCtaOp, args: PythonValues):
        if op.byteMask is not None:
            w.machine.report(FindingKind.UNSUPPORTED, "error", op, "the interpreter does not model the byte mask of cp.async.bulk")
            return ()
        dst, src, size = (_lanes(w, v) for v in (op.dstMem, op.srcMem, op.size))
        return _run(w, op, lambda s, i: s.bulk_store(w, op, int(dst[i]), int(src[i]), int(size[i])))

    @impl(tc.BulkCommitGroupOp)
    def run_tcgen05_commit_group(self, w: WarpInterpreter, op: tc.BulkCommitGroupOp, args: PythonValues):
        return self.run_commit_group(w, op, args)

    @impl(t.CpAsyncBulkCommitGroupOp)
    def run_commit_group(self, w: WarpInterpreter, op: t.CpAsyncBulkCommitGroupOp, args: PythonValues):
        if w.mask.any():
            T.of(w.machine).commit_group(w)
        return ()

    @impl(tc.BulkWaitGroupOp)
    def run_tcgen05_wait_group(self, w: WarpInterpreter, op: tc.BulkWaitGroupOp, args: PythonValues):
        return self.run_wait_group(w, op, args)

    @impl(t.CpAsyncBulkWaitGroupOp)
    def run_wait_group(self, w: WarpInterpreter, op: t.CpAsyncBulkWaitGroupOp, args: PythonValues):
        if w.mask.any():
            T.of(w.machine).wait_group(w, op.group.value.data)
        return ()

    @impl(t.CpAsyncBulkTensorPrefetchOp)
    def run_tensor_prefetch(self, w: WarpInterpreter, op: t.CpAsyncBulkTensorPrefetchOp, args: PythonValues):
        tmap = _lanes(w, op.tmaDescriptor)
        return _run(w, op, lambda s, i: s.tensor_map(int(tmap[i])))  # a cache hint: the map must exist

    @impl(t.PrefetchOp)
    def run_prefetch(self, w: WarpInterpreter, op: t.PrefetchOp, args: PythonValues):
        tmap = _lanes(w, op.addr)
        return _run(w, op, lambda s, i: s.tensor_map(int(tmap[i])))
