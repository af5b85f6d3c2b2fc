"""Op implementations of the warp-level nvvm.bar.warp.sync and nvvm.ldmatrix, and of llvm.extractvalue /
llvm.insertvalue on the struct values ldmatrix gives (a struct is a tuple of per-lane arrays)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls

from tmem_dialect.dialects import nvvm_warp
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import values as V
from tmem_dialect.interpreter.warp import WarpInterpreter

_LANES = np.arange(V.WARP)


def ldmatrix_fragments(rows: np.ndarray, count: int, transpose: bool) -> list[np.ndarray]:
    """The i32 register j of each lane from the rows lanes 0..8*count-1 addressed (`rows[l]` holds the
    8 b16 elements of row l; matrix j is rows 8j..8j+7). PTX ISA, ldmatrix: lane t receives elements
    (t / 4, 2 (t % 4)) and (t / 4, 2 (t % 4) + 1) of each matrix, the first in the low half; with
    .trans, element (r, c) of the stored matrix is read as (c, r)."""
    t = _LANES
    out = []
    for j in range(count):
        matrix = rows[8 * j : 8 * j + 8].astype(np.uint16)
        if transpose:
            matrix = matrix.T
        lo = matrix[t // 4, 2 * (t % 4)].astype(np.uint32)
        hi = matrix[t // 4, 2 * (t % 4) + 1].astype(np.uint32)
        out.append((lo | (hi << 16)).view(np.int32))
    return out


@register_impls
class WarpLevelFunctions(InterpreterFunctions):
    @impl(nvvm_warp.BarWarpSyncOp)
    def run_bar_warp_sync(self, w: WarpInterpreter, op: nvvm_warp.BarWarpSyncOp, args: PythonValues):
        # The warp runs in lockstep here, so the lanes of the mask have converged already; what
        # is left to check is the ISA's requirement that every executing lane is in the mask.
        mask = np.broadcast_to(np.asarray(args[0]).astype(np.int64) & 0xFFFFFFFF, (V.WARP,))
        outside = w.mask & (((mask >> _LANES) & 1) == 0)
        if outside.any():
            lane = int(np.argmax(outside))
            w.machine.report(
                FindingKind.PARTIAL_COLLECTIVE, "error", op,
                f"bar.warp.sync in warp {w.warp}: thread {w.thread_id(lane)} executes it but its member "
                f"mask {int(mask[lane]):#010x} does not name lane {lane}",
                key="once per op",
            )
        return ()

    @impl(nvvm_warp.LdMatrixOp)
    def run_ldmatrix(self, w: WarpInterpreter, op: nvvm_warp.LdMatrixOp, args: PythonValues):
        w.machine.check_collective(w, op, "ldmatrix")
        count = op.count
        addresses = np.broadcast_to(np.asarray(args[0]), (V.WARP,))
        saved = w.mask
        w.set_mask(saved & (_LANES < 8 * count))  # lanes 0..8*count-1 name the rows
        try:
            rows = w.machine.load(w, op, addresses, np.dtype(np.int16), 8)
        finally:
            w.set_mask(saved)
        fragments = ldmatrix_fragments(rows, count, op.transpose)
        return (fragments[0],) if count == 1 else (tuple(fragments),)

    @impl(llvm.ExtractValueOp)
    def run_extractvalue(self, w: WarpInterpreter, op: llvm.ExtractValueOp, args: PythonValues):
        value = args[0]
        for index in op.position.get_values():
            value = value[index]
        return (value,)

    @impl(llvm.InsertValueOp)
    def run_insertvalue(self, w: WarpInterpreter, op: llvm.InsertValueOp, args: PythonValues):
        container, value = args
        return (_inserted(container, tuple(op.position.get_values()), value),)


def _inserted(container: tuple, position: tuple[int, ...], value) -> tuple:
    """The struct (a tuple) with the member at `position` (nested indices) replaced by `value`."""
    index, *rest = position
    items = list(container)
    items[index] = _inserted(items[index], tuple(rest), value) if rest else value
    return tuple(items)
