"""Memory and vector ops: memref/vector loads and stores, llvm pointers (gep, load, store, casts), vector shuffles.

Every load and store goes through Machine.load/store, which resolves per-lane addresses, reports
out-of-bounds or misaligned accesses and checks shared-memory races.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm, memref, vector
from xdsl.dialects.builtin import VectorType
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation, SSAValue

from tmem_dialect.dialects import llvm_ext
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import values as V
from tmem_dialect.interpreter.memory import MemRefValue
from tmem_dialect.interpreter.ops.scalar import convert
from tmem_dialect.interpreter.warp import WarpInterpreter

GEP_DYNAMIC = llvm.GEP_USE_SSA_VAL


def type_size(t) -> int:
    """Bytes one value of `t` occupies in memory (LLVM's layout: a struct's fields at their ABI
    alignment, the size rounded up to the struct's)."""
    if isinstance(t, llvm.LLVMArrayType):
        return t.size.data * type_size(t.type)
    if isinstance(t, llvm.LLVMStructType):
        return struct_layout(t)[1]
    count = int(np.prod(V.lane_shape(t))) if V.lane_shape(t) else 1
    return V.element_dtype(t).itemsize * count


def abi_alignment(t) -> int:
    """LLVM's ABI alignment of `t` on NVPTX (its data layout: a scalar's size, a vector's size
    rounded up to a power of 2, an aggregate's largest member's)."""
    if isinstance(t, llvm.LLVMStructType):
        return max((abi_alignment(m) for m in t.types.data), default=1)
    if isinstance(t, llvm.LLVMArrayType):
        return abi_alignment(t.type)
    size = type_size(t)
    return 1 << max(size - 1, 0).bit_length()


def struct_layout(t: llvm.LLVMStructType) -> tuple[list[int], int]:
    """(the byte offset of each field, the struct's size) of a non-packed LLVM struct."""
    offsets, at = [], 0
    for m in t.types.data:  # (xDSL 0.74's struct type has no packed form)
        align = abi_alignment(m)
        at = -(-at // align) * align
        offsets.append(at)
        at += type_size(m)
    align = abi_alignment(t)
    return offsets, -(-at // align) * align


def _linear_index(w: WarpInterpreter, op: Operation, m: MemRefValue, indices: tuple) -> np.ndarray:
    linear = np.zeros(V.WARP, dtype=np.int64)
    for d, (idx, extent, stride) in enumerate(zip(indices, m.shape, m.strides)):
        bad = ((idx < 0) | (idx >= extent)) & w.mask
        if bad.any():
            lane = int(np.argmax(bad))
            w.machine.report(
                FindingKind.MEMORY_FAULT,
                "error",
                op,
                f"index {int(idx[lane])} of dimension {d} is out of bounds (extent {extent}) in "
                f"warp {w.warp} (thread {w.thread_id(lane)})",
                key=w.warp,
            )
        linear = linear + idx.astype(np.int64) * stride
    return linear


def _addresses(m: MemRefValue, linear: np.ndarray) -> np.ndarray:
    return m.buffer.base + linear * m.dtype.itemsize


def _positions(w: WarpInterpreter, mixed: list[SSAValue | int]) -> list:
    return [p if isinstance(p, int) else w.env[p] for p in mixed]


def _in_range(w: WarpInterpreter, op: Operation, vec: np.ndarray, positions: list) -> tuple[list, np.ndarray]:
    """Positions clamped into the vector, and the lanes where one was out of range: there the
    result is poison (LLVM and the vector dialect alike), modelled as 0 and reported."""
    poison = np.zeros(V.WARP, dtype=bool)
    clamped: list = []
    for d, p in enumerate(positions):
        extent = vec.shape[1 + d]
        if isinstance(p, int):
            clamped.append(p)
            continue
        p = p.astype(np.int64)
        bad = (p < 0) | (p >= extent)
        if bad.any():
            poison |= bad
            active = bad & V.lane_mask(w.mask, bad)
            if active.any():
                lane = int(np.argmax(active))
                w.machine.report(
                    FindingKind.POISON,
                    "warning",
                    op,
                    f"position {int(p[lane])} is out of range for {extent} elements in warp {w.warp} "
                    f"(thread {w.thread_id(lane)}): the result is poison (modelled as 0)",
                    key=w.warp,
                )
            p = np.clip(p, 0, extent - 1)
        clamped.append(p)
    return clamped, poison


def _zero_lanes(value: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    if not lanes.any():
        return value
    return np.where(lanes.reshape((V.WARP,) + (1,) * (value.ndim - 1)), np.zeros_like(value), value)


def _take(w: WarpInterpreter, op: Operation, vec: np.ndarray, positions: list) -> np.ndarray:
    """vec[lane, p0, p1, ...] with static or per-lane positions."""
    positions, poison = _in_range(w, op, vec, positions)
    out = vec
    for p in positions:
        if isinstance(p, int):
            out = out[:, p]
        else:
            idx = p.reshape((V.WARP,) + (1,) * (out.ndim - 1))
            out = np.take_along_axis(out, idx, axis=1)[:, 0]
    return _zero_lanes(out, poison)


def _put(w: WarpInterpreter, op: Operation, vec: np.ndarray, positions: list, value: np.ndarray) -> np.ndarray:
    positions, poison = _in_range(w, op, vec, positions)
    out = np.array(vec, copy=True)
    lanes = np.arange(V.WARP)
    index: list = [lanes]
    for p in positions:
        index.append(np.full(V.WARP, p) if isinstance(p, int) else p)
    out[tuple(index)] = value
    return _zero_lanes(out, poison)


@register_impls
class MemoryFunctions(InterpreterFunctions):
    """memref, vector and llvm memory ops."""

    # ---- memref / vector on memrefs ----------------------------------------------------------

    @impl(memref.LoadOp)
    def run_memref_load(self, w: WarpInterpreter, op: memref.LoadOp, args: PythonValues):
        m, *indices = args
        linear = _linear_index(w, op, m, tuple(indices))
        return (w.machine.load(w, op, _addresses(m, linear), m.dtype, 0),)

    @impl(memref.StoreOp)
    def run_memref_store(self, w: WarpInterpreter, op: memref.StoreOp, args: PythonValues):
        value, m, *indices = args
        linear = _linear_index(w, op, m, tuple(indices))
        w.machine.store(w, op, _addresses(m, linear), value, m.dtype, 0)
        return ()

    @impl(vector.LoadOp)
    def run_vector_load(self, w: WarpInterpreter, op: vector.LoadOp, args: PythonValues):
        m, *indices = args
        shape = V.lane_shape(op.result.type)
        linear = _linear_index(w, op, m, tuple(indices))
        count = int(np.prod(shape))
        values = w.machine.load(w, op, _addresses(m, linear), m.dtype, count)
        return (values.reshape((V.WARP, *shape)),)

    @impl(vector.StoreOp)
    def run_vector_store(self, w: WarpInterpreter, op: vector.StoreOp, args: PythonValues):
        value, m, *indices = args
        linear = _linear_index(w, op, m, tuple(indices))
        count = int(np.prod(value.shape[1:]))
        w.machine.store(w, op, _addresses(m, linear), value.reshape(V.WARP, count), m.dtype, count)
        return ()

    @impl(memref.GetGlobalOp)
    def run_get_global(self, w: WarpInterpreter, op: memref.GetGlobalOp, args: PythonValues):
        return (w.machine.global_memref(w, op.name_.root_reference.data),)

    # ---- vector value ops ----------------------------------------------------------------------

    @impl(vector.BroadcastOp)
    def run_broadcast(self, w: WarpInterpreter, op: vector.BroadcastOp, args: PythonValues):
        (source,) = args
        shape = V.lane_shape(op.vector.type)
        src = source.reshape((V.WARP,) + (1,) * (len(shape) - (source.ndim - 1)) + source.shape[1:])
        return (np.broadcast_to(src, (V.WARP, *shape)),)

    @impl(vector.ExtractOp)
    def run_extract(self, w: WarpInterpreter, op: vector.ExtractOp, args: PythonValues):
        return (_take(w, op, args[0], _positions(w, op.get_mixed_position())),)

    @impl(vector.InsertOp)
    def run_insert(self, w: WarpInterpreter, op: vector.InsertOp, args: PythonValues):
        source, dest = args[0], args[1]
        return (_put(w, op, dest, _positions(w, op.get_mixed_position()), source),)

    @impl(vector.ShuffleOp)
    def run_shuffle(self, w: WarpInterpreter, op: vector.ShuffleOp, args: PythonValues):
        a, b = args[0], args[1]
        if a.ndim == 1:
            a, b = a[:, None], b[:, None]
        both = np.concatenate([a, b], axis=1)
        return (both[:, list(op.mask.get_values())],)

    @impl(vector.BitcastOp)
    def run_vector_bitcast(self, w: WarpInterpreter, op: vector.BitcastOp, args: PythonValues):
        from tmem_dialect.interpreter.ops.scalar import _bitcast

        return (_bitcast(args[0], op.result.type),)

    @impl(vector.ReductionOp)
    def run_reduction(self, w: WarpInterpreter, op: vector.ReductionOp, args: PythonValues):
        vec = args[0]
        kind = op.kind.data.value
        reducers = {
            "add": np.add, "mul": np.multiply, "and": np.bitwise_and, "or": np.bitwise_or,
            "xor": np.bitwise_xor, "maxsi": np.maximum, "minsi": np.minimum,
            "maximumf": np.maximum, "minimumf": np.minimum, "maxnumf": np.fmax, "minnumf": np.fmin,
        }
        if kind in ("maxui", "minui"):
            f = np.maximum if kind == "maxui" else np.minimum
            result = f.reduce(V.unsigned(vec), axis=1).view(vec.dtype)
        else:
            result = reducers[kind].reduce(vec, axis=1).astype(vec.dtype, copy=False)
        if len(args) > 1:
            result = reducers.get(kind, np.add)(result, args[1]).astype(vec.dtype, copy=False)
        return (result,)

    # ---- llvm pointers and memory -------------------------------------------------------------

    @impl(llvm.AddressOfOp)
    def run_addressof(self, w: WarpInterpreter, op: llvm.AddressOfOp, args: PythonValues):
        buf = w.machine.global_buffer(w, op.global_name.root_reference.data)
        return (np.full(V.WARP, buf.base, dtype=np.int64),)

    @impl(llvm.AllocaOp)
    def run_alloca(self, w: WarpInterpreter, op: llvm.AllocaOp, args: PythonValues):
        """LLVM's alloca: `size` elements of `elem_type` of stack memory for each thread, at the
        alloca's alignment; each execution allocates anew. The warp's 32 slots are one buffer (an
        access by one thread never reaches another's slot unless it leaves its own: out of bounds)."""
        (count,) = args
        count = np.where(w.mask, count.astype(np.int64), 0)
        if (count < 0).any():
            lane = int(np.argmax(count < 0))
            w.machine.report(FindingKind.MEMORY_FAULT, "error", op, f"llvm.alloca of {int(count[lane])} elements "
                             f"in warp {w.warp} (thread {w.thread_id(lane)})", key=w.warp)
            count = np.maximum(count, 0)
        align = op.alignment.value.data if op.alignment is not None else 1
        slot = -(-max(int(count.max()) * type_size(op.elem_type), 1) // align) * align
        buf = w.machine.memory.add_global(f"the llvm.alloca of warp {w.warp}", np.zeros(slot * V.WARP, np.uint8))
        return (buf.base + np.arange(V.WARP, dtype=np.int64) * slot,)

    @impl(llvm.GEPOp)
    def run_gep(self, w: WarpInterpreter, op: llvm.GEPOp, args: PythonValues):
        """LLVM's getelementptr: the first index steps over whole `elem_type`s, each later one
        into the array or vector element or the struct field it selects (at the field's offset)."""
        ptr, *dynamic = args
        supplied = iter(dynamic)
        offset = np.zeros_like(ptr)
        t = None
        for position, raw in enumerate(op.rawConstantIndices.get_values()):
            index = next(supplied).astype(np.int64) if raw == GEP_DYNAMIC else np.int64(raw)
            if position and isinstance(t, llvm.LLVMStructType):  # a field: its index is a constant
                offsets, _ = struct_layout(t)
                offset, t = offset + offsets[int(raw)], t.types.data[int(raw)]
                continue
            t = op.elem_type if position == 0 else _element_type(t)
            size = type_size(t) if t is not None else None
            if size is None:
                raise V.UnsupportedType(f"getelementptr into {t if position else op.elem_type} is not modelled")
            offset = offset + index * size
        return (ptr + offset,)

    @impl(llvm.LoadOp)
    def run_llvm_load(self, w: WarpInterpreter, op: llvm.LoadOp, args: PythonValues):
        (ptr,) = args
        t = op.dereferenced_value.type
        shape = V.lane_shape(t)
        count = int(np.prod(shape)) if shape else 0
        values = w.machine.load(w, op, ptr, V.element_dtype(t), count)
        return (values.reshape((V.WARP, *shape)),)

    @impl(llvm.StoreOp)
    def run_llvm_store(self, w: WarpInterpreter, op: llvm.StoreOp, args: PythonValues):
        value, ptr = args
        t = op.value.type
        shape = V.lane_shape(t)
        count = int(np.prod(shape)) if shape else 0
        data = value.reshape(V.WARP, count) if count else value
        w.machine.store(w, op, ptr, data, V.element_dtype(t), count)
        return ()

    @impl(llvm.IntToPtrOp)
    def run_inttoptr(self, w: WarpInterpreter, op: llvm.IntToPtrOp, args: PythonValues):
        return (convert(args[0], V.POINTER_DTYPE, signed=False),)

    @impl(llvm_ext.AddrSpaceCastOp)
    def run_addrspacecast(self, w: WarpInterpreter, op: llvm_ext.AddrSpaceCastOp, args: PythonValues):
        """Shared, shared::cluster (of the executing CTA) and generic addresses are one number here
        (interpreter.memory resolves a generic pointer into the shared window per CTA)."""
        return (args[0],)

    @impl(llvm.PtrToIntOp)
    def run_ptrtoint(self, w: WarpInterpreter, op: llvm.PtrToIntOp, args: PythonValues):
        return (convert(args[0], V.element_dtype(op.results[0].type), signed=False),)

    @impl(llvm.InsertElementOp)
    def run_insertelement(self, w: WarpInterpreter, op: llvm.InsertElementOp, args: PythonValues):
        vec, value, position = args
        return (_put(w, op, vec, [position], value),)

    @impl(llvm_ext.ExtractElementOp)
    def run_extractelement(self, w: WarpInterpreter, op: llvm_ext.ExtractElementOp, args: PythonValues):
        vec, position = args
        return (_take(w, op, vec, [position]),)

    @impl(llvm.ShuffleVectorOp)
    def run_shufflevector(self, w: WarpInterpreter, op: llvm.ShuffleVectorOp, args: PythonValues):
        a, b = args
        both = np.concatenate([a, b], axis=1)
        mask = [int(i) for i in op.mask.get_values()]
        # -1 (poison) lanes read element 0.
        return (both[:, [max(i, 0) for i in mask]],)


def _element_type(t):  # type: ignore[no-untyped-def]
    """The type a getelementptr index after the first selects within `t`: an array's or a
    vector's element; None for anything else (a struct's fields have their own offsets)."""
    if isinstance(t, llvm.LLVMArrayType):
        return t.type
    if isinstance(t, VectorType):
        return t.element_type
    return None

