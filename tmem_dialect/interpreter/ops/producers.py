"""Op implementations of the TMEM producers (tcgen05.mma, commit, the mbarrier ops, proxy fences, elect.sync, descriptor ops).

The ops describe themselves with a TMEMEffect (tmem_dialect.dialects.interfaces); `run_effect`
reads the operands the effect names and calls interpreter.producers. The descriptor-building ops
have no TMEM effect and get their own implementations (ProducerFunctions).
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import TMEMEffect
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import producers as P
from tmem_dialect.interpreter.producer_mma import MmaOperands
from tmem_dialect.interpreter.warp import WarpInterpreter
from tmem_dialect.memory_model import EffectKind

HANDLED = frozenset(
    getattr(EffectKind, name)
    for name in ("MMA", "CP", "SHIFT", "COMMIT", "MBARRIER_INIT", "MBARRIER_ARRIVE", "MBARRIER_EXPECT_TX",
                 "MBARRIER_COMPLETE_TX", "MBARRIER_WAIT", "MBARRIER_INVAL", "FENCE_MBARRIER_INIT",
                 "FENCE_PROXY_ASYNC", "ELECT")
    if hasattr(EffectKind, name)
)


def _lanes_of(w: WarpInterpreter, value) -> np.ndarray:
    """Per-lane int64 values of an SSA operand (scalars broadcast)."""
    v = np.asarray(w.env[value])
    if v.ndim == 0:
        v = np.full(len(w.mask), v)
    return v.astype(np.int64)


def _uint(values: np.ndarray, bits: int) -> np.ndarray:
    """The low `bits` bits as unsigned (uint64 arrays: a 64-bit descriptor may have bit 63 set)."""
    u = np.asarray(values).astype(np.int64).view(np.uint64)
    return u if bits == 64 else u & np.uint64((1 << bits) - 1)


def run_effect(w: WarpInterpreter, op: Operation, effect: TMEMEffect) -> PythonValues | None:
    """The semantics of an issue-10 op; None when `effect.kind` is not one of ours."""
    kind = effect.kind
    if kind not in HANDLED:
        return None
    state = P.of(w.machine)
    if kind is EffectKind.MMA:
        _mma(w, op, effect, state)
        return ()
    if kind is EffectKind.CP:
        taddr = _uint(_lanes_of(w, effect.address), 32)
        desc = _uint(_lanes_of(w, op.smem_desc), 64)
        for lane in np.flatnonzero(w.mask):
            state.cp(w, op, int(taddr[lane]), int(desc[lane]), op.isa_shape, op.isa_multicast, effect.cta_group or 1,
                     op.isa_source)
        return ()
    if kind is EffectKind.SHIFT:
        taddr = _uint(_lanes_of(w, effect.address), 32)
        for lane in np.flatnonzero(w.mask):
            state.shift(w, op, int(taddr[lane]), effect.cta_group or 1)
        return ()
    if kind is EffectKind.COMMIT:
        address = w.machine.uniform(w, op, _lanes_of(w, effect.mbarrier), "mbarrier address")
        mask = None
        if effect.multicast is not None:
            mask = w.machine.uniform(w, op, _lanes_of(w, effect.multicast), "multicast mask") & 0xFFFF
        state.commit(w, op, address, effect.cta_group or 1, mask)
        return ()
    if kind is EffectKind.FENCE_PROXY_ASYNC:
        state.fence_proxy_async(w)
        return ()
    if kind is EffectKind.FENCE_MBARRIER_INIT:
        state.fence_init(w)
        return ()
    if kind is EffectKind.ELECT:
        elected = np.zeros(len(w.mask), dtype=bool)
        if w.mask.any():
            elected[int(np.argmax(w.mask))] = True
        return (elected,)
    addresses = _lanes_of(w, effect.mbarrier)
    if kind is EffectKind.MBARRIER_INIT:
        state.init(w, op, addresses, _lanes_of(w, effect.count))
        return ()
    if kind is EffectKind.MBARRIER_INVAL:
        state.inval(w, op, addresses)
        return ()
    tx_operand = getattr(op, "tx_count", None) or getattr(op, "txcount", None)  # tcgen05 / nvvm spelling
    if kind is EffectKind.MBARRIER_EXPECT_TX:
        state.expect_tx(w, op, addresses, _lanes_of(w, tx_operand if tx_operand is not None else effect.count))
        return ()
    if kind is EffectKind.MBARRIER_COMPLETE_TX:
        state.complete_tx(w, op, addresses, _lanes_of(w, tx_operand if tx_operand is not None else effect.count))
        return ()
    if kind is EffectKind.MBARRIER_ARRIVE:
        if tx_operand is not None:
            tokens = state.arrive(w, op, addresses, None, _lanes_of(w, tx_operand))
        else:
            counts = None if effect.count is None else _lanes_of(w, effect.count)
            tokens = state.arrive(w, op, addresses, counts, None)
        return (tokens,) if op.results else ()
    if kind is EffectKind.MBARRIER_WAIT:
        phase = _lanes_of(w, effect.phase)
        is_token = effect.phase.type.bitwidth == 64 if hasattr(effect.phase.type, "bitwidth") else False
        blocking = "test" not in op.name  # test_wait / test.wait never block
        done = state.wait(w, op, addresses, None if is_token else phase, phase if is_token else None, blocking)
        return (done,) if op.results else ()
    return None


def _named(op: Operation, *names: str):
    """The first of the attributes `names` the op has (tcgen05 and nvvm spell operands differently)."""
    for name in names:
        value = getattr(op, name, None)
        if value is not None:
            return value
    return None


def _mma(w: WarpInterpreter, op: Operation, effect: TMEMEffect, state: P.Producers) -> None:
    """Each active thread issues one mma (kernels elect one with elect.sync)."""
    d = _uint(_lanes_of(w, effect.address), 32)
    a = _lanes_of(w, _named(op, "a", "matrixA"))
    b = _uint(_lanes_of(w, _named(op, "b", "matrixB")), 64)
    idesc = _uint(_lanes_of(w, op.idesc), 32)
    acc = _lanes_of(w, effect.accumulate) != 0
    a_tmem = op.a_in_tmem
    scale = _named(op, "scale_input_d", "scaleInputD")
    if scale is None:
        scale_input_d = None
    elif isinstance(scale, SSAValue):
        scale_input_d = w.machine.uniform(w, op, _lanes_of(w, scale), "scale-input-d")
    else:
        scale_input_d = scale.value.data
    _warn_unmodelled_mma_parts(w, op)
    scale_a = None if (va := _named(op, "scale_a", "scaleA")) is None else _uint(_lanes_of(w, va), 32)
    scale_b = None if (vb := _named(op, "scale_b", "scaleB")) is None else _uint(_lanes_of(w, vb), 32)
    mask_value = _named(op, "disable_output_lane", "disableOutputLane")
    lane_mask = None if mask_value is None else np.asarray(w.env[mask_value]).astype(np.int64)
    zcm_value = _named(op, "zero_column_mask", "zeroColMask")
    zero_columns = None if zcm_value is None else _uint(_lanes_of(w, zcm_value), 64)
    ws = getattr(op, "ws", None) is not None or bool(getattr(op, "WS", False))
    for lane in np.flatnonzero(w.mask):
        operands = MmaOperands(
            kind=op.isa_kind,
            cta_group=effect.cta_group or 1,
            d_taddr=int(d[lane]),
            b_desc=int(b[lane]),
            idesc=int(idesc[lane]),
            accumulate=bool(acc[lane]),
            a_desc=None if a_tmem else int(_uint(a, 64)[lane]),
            a_taddr=int(_uint(a, 32)[lane]) if a_tmem else None,
            scale_input_d=scale_input_d,
            ws=ws,
            scale_a_taddr=None if scale_a is None else int(scale_a[lane]),
            scale_b_taddr=None if scale_b is None else int(scale_b[lane]),
            scale_vec=getattr(op, "isa_scale_vec", None),
            disable_output_lane=None if lane_mask is None else tuple(int(x) for x in lane_mask[lane].reshape(-1)),
            zero_column_mask=None if zero_columns is None else int(zero_columns[lane]),
            collector_b=_collector_b(op) if ws else None,
        )
        state.mma(w, op, operands)


def _collector_b(op: Operation) -> tuple[int, isa.CollectorUsage]:
    """(buffer, usage) of a .ws mma's `.collector::bN::op`: nvvm's collectorBBuffer / collectorOp
    properties; tcgen05.mma has no collector clause, i.e. the default .collector::b0::discard."""
    buffer = op.properties.get("collectorBBuffer")
    usage = op.properties.get("collectorOp")
    index = 0 if buffer is None else int(buffer.data.value[1:])
    return index, isa.CollectorUsage.DISCARD if usage is None else isa.CollectorUsage(usage.data.value)


def _warn_unmodelled_mma_parts(w: WarpInterpreter, op: Operation) -> None:
    """What of this mma the numerics leave out, said once per op (docs/interpreter.md): the .sp
    metadata (D is computed as the dense product of A as stored). The ordering checks run all
    the same."""
    if _named(op, "sparse_metadata", "sparseMetadata") is not None:
        w.machine.report(FindingKind.UNSUPPORTED, "warning", op,
                         f"{op.name}: the interpreter does not model the sparsity metadata (D is the dense product "
                         "of A as stored): its D is not the instruction's result", key=("mma-unmodelled", id(op)))


def _descriptor_functions() -> type[InterpreterFunctions]:
    """impls of tcgen05.smem_desc / tcgen05.instr_desc (when the dialect defines them)."""
    ns: dict = {"__doc__": "The descriptor-building ops: a descriptor value from named fields."}
    try:
        from tmem_dialect.dialects import tcgen05_desc as D
    except ImportError:  # the ops are not in this tree yet
        return register_impls(type("ProducerFunctions", (InterpreterFunctions,), ns))

    @impl(D.SmemDescOp)
    def run_smem_desc(self, w: WarpInterpreter, op, args: PythonValues):
        start = _uint(args[0], 32)
        base = np.uint64(op.descriptor(0).encode())  # the constant fields
        start_field = ((start & np.uint64(isa.SHARED_WINDOW - 1)) >> np.uint64(4)) << np.uint64(isa.START_ADDRESS[0])
        return ((base | start_field).view(np.int64),)

    @impl(D.InstrDescOp)
    def run_instr_desc(self, w: WarpInterpreter, op, args: PythonValues):
        return (np.full(len(w.mask), op.descriptor.encode(), dtype=np.uint32).view(np.int32),)

    ns["run_smem_desc"] = run_smem_desc
    ns["run_instr_desc"] = run_instr_desc

    try:
        from tmem_dialect.dialects.nvvm_async import Tcgen05MmaSmemDescOp
    except ImportError:
        Tcgen05MmaSmemDescOp = None
    if Tcgen05MmaSmemDescOp is not None:

        @impl(Tcgen05MmaSmemDescOp)
        def run_nvvm_smem_desc(self, w: WarpInterpreter, op, args: PythonValues):
            """Each operand is its bitfield's value (start, LBO, SBO already >> 4), placed at the
            field's bit position, with the fixed 0b001 of bits 46-48 (isa.smem)."""
            fields = (isa.START_ADDRESS, isa.LEADING_BYTE_OFFSET, isa.STRIDE_BYTE_OFFSET, isa.BASE_OFFSET,
                      isa.LBO_MODE, isa.SWIZZLE)
            value = np.full(len(w.mask), 1, dtype=np.uint64) << np.uint64(isa.FIXED_001[0])
            for (low, width), arg in zip(fields, args):
                value |= (_uint(arg, 64) & np.uint64((1 << width) - 1)) << np.uint64(low)
            return (value.view(np.int64),)

        ns["run_nvvm_smem_desc"] = run_nvvm_smem_desc
    return register_impls(type("ProducerFunctions", (InterpreterFunctions,), ns))


ProducerFunctions = _descriptor_functions()
