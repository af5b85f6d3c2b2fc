"""Per-lane integer and float arithmetic, comparisons, selects, casts and constants (arith and llvm).

The two dialects spell the same operations differently; each semantic function below serves both
(arith.addi and llvm.add share `_add`, and so on). Values are numpy arrays with 32 lanes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith, llvm
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from tmem_dialect.findings import FindingKind
from tmem_dialect.dialects import llvm_compat, llvm_ext
from tmem_dialect.integers import as_signed, funnel_shift, truth
from tmem_dialect.interpreter import values as V

IntFn = Callable[[Any, Operation, np.ndarray, np.ndarray], np.ndarray]


def _bits(a: np.ndarray) -> int:
    return 1 if a.dtype == np.bool_ else a.dtype.itemsize * 8


def _shift_amount(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(clipped shift amount, lanes where the amount is >= the width: poison, modelled as 0)."""
    amount = V.unsigned(b).astype(np.int64)
    too_big = amount >= _bits(a)
    return np.minimum(amount, _bits(a) - 1).astype(a.dtype), too_big


def _add(w, op, a, b):
    return a ^ b if a.dtype == np.bool_ else a + b


def _sub(w, op, a, b):
    return a ^ b if a.dtype == np.bool_ else a - b


def _mul(w, op, a, b):
    return a & b if a.dtype == np.bool_ else a * b


def _and(w, op, a, b):
    return a & b


def _or(w, op, a, b):
    return a | b


def _xor(w, op, a, b):
    return a ^ b


def _shl(w, op, a, b):
    s, big = _shift_amount(a, b)
    return np.where(big, np.zeros_like(a), np.left_shift(a, s))


def _lshr(w, op, a, b):
    s, big = _shift_amount(a, b)
    u = V.unsigned(a)
    return np.where(big, np.zeros_like(u), np.right_shift(u, s.view(u.dtype))).view(a.dtype)


def _ashr(w, op, a, b):
    s, big = _shift_amount(a, b)
    return np.where(big, np.where(a < 0, -1, 0).astype(a.dtype), np.right_shift(a, s))


def _nonzero_divisor(w, op, b: np.ndarray) -> np.ndarray:
    zero = b == 0
    active_zero = zero & V.lane_mask(w.mask, b)
    if active_zero.any():
        lane = int(np.argwhere(active_zero)[0][0])
        w.machine.report(
            FindingKind.DIVISION_BY_ZERO,
            "error",
            op,
            f"division by zero in warp {w.warp} (thread {w.thread_id(lane)}): undefined behavior",
            key=w.warp,
        )
    return np.where(zero, np.ones_like(b), b)


def _sdiv_parts(w, op, a, b):
    b = _nonzero_divisor(w, op, b)
    wide_a, wide_b = a.astype(np.int64), b.astype(np.int64)
    q = np.abs(wide_a) // np.abs(wide_b)
    q = np.where((wide_a < 0) != (wide_b < 0), -q, q)
    return q, wide_a, wide_b


def _divsi(w, op, a, b):
    q, _, _ = _sdiv_parts(w, op, a, b)
    return q.astype(a.dtype)


def _remsi(w, op, a, b):
    q, wa, wb = _sdiv_parts(w, op, a, b)
    return (wa - q * wb).astype(a.dtype)


def _floordivsi(w, op, a, b):
    b = _nonzero_divisor(w, op, b)
    return np.floor_divide(a.astype(np.int64), b.astype(np.int64)).astype(a.dtype)


def _ceildivsi(w, op, a, b):
    b = _nonzero_divisor(w, op, b)
    return (-np.floor_divide(-a.astype(np.int64), b.astype(np.int64))).astype(a.dtype)


def _divui(w, op, a, b):
    b = _nonzero_divisor(w, op, b)
    return (V.unsigned(a) // V.unsigned(b)).view(a.dtype)


def _remui(w, op, a, b):
    b = _nonzero_divisor(w, op, b)
    return (V.unsigned(a) % V.unsigned(b)).view(a.dtype)


def _ceildivui(w, op, a, b):
    b = _nonzero_divisor(w, op, b)
    ua, ub = V.unsigned(a), V.unsigned(b)
    return ((ua // ub) + (ua % ub != 0)).astype(ua.dtype).view(a.dtype)


def _maxsi(w, op, a, b):
    return np.maximum(a, b)


def _minsi(w, op, a, b):
    return np.minimum(a, b)


def _maxui(w, op, a, b):
    return np.maximum(V.unsigned(a), V.unsigned(b)).view(a.dtype)


def _minui(w, op, a, b):
    return np.minimum(V.unsigned(a), V.unsigned(b)).view(a.dtype)


_ICMP: dict[int, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    0: np.equal,
    1: np.not_equal,
    2: np.less,
    3: np.less_equal,
    4: np.greater,
    5: np.greater_equal,
}


def icmp(predicate: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer comparison with the shared arith.cmpi / llvm.icmp predicate numbering."""
    if predicate >= 6:
        a, b = V.unsigned(a), V.unsigned(b)
        predicate -= 4
    elif predicate >= 2 and a.dtype == np.bool_:
        a, b = -a.astype(np.int8), -b.astype(np.int8)  # signed i1: true is -1
    return _ICMP[predicate](a, b)


def fcmp(predicate: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Float comparison: 0 false, 1-6 ordered eq/gt/ge/lt/le/ne, 7 ord, 8-13 unordered, 14 uno, 15 true."""
    unordered = np.isnan(a) | np.isnan(b)
    with np.errstate(invalid="ignore"):
        rel = {1: a == b, 2: a > b, 3: a >= b, 4: a < b, 5: a <= b, 6: a != b}
    if predicate == 0:
        return np.zeros(a.shape, dtype=bool)
    if predicate == 15:
        return np.ones(a.shape, dtype=bool)
    if predicate == 7:
        return ~unordered
    if predicate == 14:
        return unordered
    if predicate <= 6:
        return rel[predicate] & ~unordered
    return rel[predicate - 7] | unordered


def convert(value: np.ndarray, target: np.dtype, signed: bool) -> np.ndarray:
    """Integer width change: sign or zero extension, or truncation (two's complement wrap)."""
    if target == np.bool_:
        return truth(value)
    if value.dtype == np.bool_:
        ext = value.astype(target)
        return -ext if signed else ext
    source = value if signed else V.unsigned(value)
    if target.itemsize < value.dtype.itemsize:
        return value.astype(target)
    return source.astype(target if signed else V.unsigned_dtype(target)).view(target)


def _binary(op_type: type[Operation], fn: IntFn):
    @impl(op_type)
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (fn(interpreter, op, args[0], args[1]),)

    return run


def _float_binary(op_type: type[Operation], fn: Callable[[np.ndarray, np.ndarray], np.ndarray]):
    @impl(op_type)
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        with np.errstate(all="ignore"):
            return (fn(args[0], args[1]).astype(args[0].dtype, copy=False),)

    return run


def _cast(op_type: type[Operation], fn: Callable[[np.ndarray, np.dtype], np.ndarray]):
    @impl(op_type)
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        with np.errstate(all="ignore"):
            return (fn(args[0], V.element_dtype(op.results[0].type)),)

    return run


def _select(cond: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if cond.ndim < a.ndim:
        cond = cond.reshape(cond.shape + (1,) * (a.ndim - cond.ndim))
    return np.where(cond, a, b)


def _bitcast(value: np.ndarray, result_type) -> np.ndarray:
    dtype = V.element_dtype(result_type)
    shape = V.lane_shape(result_type)
    flat = np.ascontiguousarray(value).reshape(V.WARP, -1)
    return flat.view(dtype).reshape((V.WARP, *shape))


def _to_int(value, target, signed):
    info = np.iinfo(target) if target != np.bool_ else None
    with np.errstate(all="ignore"):
        if info is None:
            return value != 0
        if signed:
            return np.trunc(np.nan_to_num(value)).clip(info.min, info.max).astype(target)
        u = np.iinfo(V.unsigned_dtype(target))
        return np.trunc(np.nan_to_num(value)).clip(0, u.max).astype(u.dtype).view(target)


@register_impls
class ScalarFunctions(InterpreterFunctions):
    """arith and llvm scalar/vector-elementwise ops on per-lane numpy arrays."""

    def __init__(self):
        self._constants: dict[int, tuple[Operation, np.ndarray]] = {}

    def _constant(self, op: Operation, attr) -> PythonValues:
        hit = self._constants.get(id(op))
        if hit is None or hit[0] is not op:
            hit = (op, V.constant(attr, op.results[0].type))
            self._constants[id(op)] = hit
        return (hit[1],)

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter, op: arith.ConstantOp, args):
        return self._constant(op, op.value)

    @impl(llvm.ConstantOp)
    def run_llvm_constant(self, interpreter, op: llvm.ConstantOp, args):
        return self._constant(op, op.value)

    @impl(llvm.UndefOp)
    def run_undef(self, interpreter, op: llvm.UndefOp, args):
        return (V.zeros(op.res.type),)

    @impl(llvm_ext.PoisonOp)
    def run_poison(self, interpreter, op: llvm_ext.PoisonOp, args):
        return (V.zeros(op.res.type),)

    @impl(llvm.ZeroOp)
    def run_zero(self, interpreter, op: llvm.ZeroOp, args):
        return (V.zeros(op.results[0].type),)

    # integer arithmetic (arith and llvm)
    run_addi = _binary(arith.AddiOp, _add)
    run_subi = _binary(arith.SubiOp, _sub)
    run_muli = _binary(arith.MuliOp, _mul)
    run_andi = _binary(arith.AndIOp, _and)
    run_ori = _binary(arith.OrIOp, _or)
    run_xori = _binary(arith.XOrIOp, _xor)
    run_shli = _binary(arith.ShLIOp, _shl)
    run_shrui = _binary(arith.ShRUIOp, _lshr)
    run_shrsi = _binary(arith.ShRSIOp, _ashr)
    run_divsi = _binary(arith.DivSIOp, _divsi)
    run_remsi = _binary(arith.RemSIOp, _remsi)
    run_divui = _binary(arith.DivUIOp, _divui)
    run_remui = _binary(arith.RemUIOp, _remui)
    run_floordivsi = _binary(arith.FloorDivSIOp, _floordivsi)
    run_ceildivsi = _binary(arith.CeilDivSIOp, _ceildivsi)
    run_ceildivui = _binary(arith.CeilDivUIOp, _ceildivui)
    run_maxsi = _binary(arith.MaxSIOp, _maxsi)
    run_minsi = _binary(arith.MinSIOp, _minsi)
    run_maxui = _binary(arith.MaxUIOp, _maxui)
    run_minui = _binary(arith.MinUIOp, _minui)
    run_llvm_add = _binary(llvm.AddOp, _add)
    run_llvm_sub = _binary(llvm.SubOp, _sub)
    run_llvm_mul = _binary(llvm.MulOp, _mul)
    run_llvm_and = _binary(llvm.AndOp, _and)
    run_llvm_or = _binary(llvm.OrOp, _or)
    run_llvm_xor = _binary(llvm.XOrOp, _xor)
    run_llvm_shl = _binary(llvm.ShlOp, _shl)
    run_llvm_lshr = _binary(llvm.LShrOp, _lshr)
    run_llvm_ashr = _binary(llvm.AShrOp, _ashr)
    run_llvm_udiv = _binary(llvm.UDivOp, _divui)
    run_llvm_urem = _binary(llvm.URemOp, _remui)
    run_llvm_sdiv = _binary(llvm.SDivOp, _divsi)
    run_llvm_srem = _binary(llvm.SRemOp, _remsi)

    # float arithmetic
    run_addf = _float_binary(arith.AddfOp, np.add)
    run_subf = _float_binary(arith.SubfOp, np.subtract)
    run_mulf = _float_binary(arith.MulfOp, np.multiply)
    run_divf = _float_binary(arith.DivfOp, np.divide)
    run_maximumf = _float_binary(arith.MaximumfOp, np.maximum)
    run_minimumf = _float_binary(arith.MinimumfOp, np.minimum)
    run_maxnumf = _float_binary(arith.MaxnumfOp, np.fmax)
    run_minnumf = _float_binary(arith.MinnumfOp, np.fmin)
    run_llvm_fadd = _float_binary(llvm.FAddOp, np.add)
    run_llvm_fsub = _float_binary(llvm.FSubOp, np.subtract)
    run_llvm_fmul = _float_binary(llvm.FMulOp, np.multiply)
    run_llvm_fdiv = _float_binary(llvm.FDivOp, np.divide)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter, op, args):
        return (-args[0],)

    @impl(llvm.FNegOp)
    def run_llvm_fneg(self, interpreter, op, args):
        return (-args[0],)

    # comparisons and selects
    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter, op: arith.CmpiOp, args):
        return (icmp(op.predicate.value.data, args[0], args[1]),)

    @impl(llvm.ICmpOp)
    def run_icmp(self, interpreter, op: llvm.ICmpOp, args):
        return (icmp(op.predicate.value.data, args[0], args[1]),)

    @impl(arith.CmpfOp)
    def run_cmpf(self, interpreter, op: arith.CmpfOp, args):
        return (fcmp(op.predicate.value.data, args[0], args[1]),)

    @impl(llvm.FCmpOp)
    def run_fcmp(self, interpreter, op: llvm.FCmpOp, args):
        return (fcmp(op.predicate.value.data, args[0], args[1]),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter, op, args):
        return (_select(*args),)

    @impl(llvm.SelectOp)
    def run_llvm_select(self, interpreter, op, args):
        return (_select(*args),)

    # integer width changes
    run_extsi = _cast(arith.ExtSIOp, lambda v, t: convert(v, t, True))
    run_extui = _cast(arith.ExtUIOp, lambda v, t: convert(v, t, False))
    run_trunci = _cast(arith.TruncIOp, lambda v, t: convert(v, t, True))
    run_index_cast = _cast(arith.IndexCastOp, lambda v, t: convert(v, t, True))
    run_llvm_sext = _cast(llvm.SExtOp, lambda v, t: convert(v, t, True))
    run_llvm_zext = _cast(llvm.ZExtOp, lambda v, t: convert(v, t, False))
    run_llvm_trunc = _cast(llvm.TruncOp, lambda v, t: convert(v, t, True))

    # int <-> float and float width changes
    run_sitofp = _cast(arith.SIToFPOp, lambda v, t: v.astype(t))
    run_uitofp = _cast(arith.UIToFPOp, lambda v, t: V.unsigned(v).astype(t))
    run_fptosi = _cast(arith.FPToSIOp, lambda v, t: _to_int(v, t, True))
    run_fptoui = _cast(arith.FPToUIOp, lambda v, t: _to_int(v, t, False))
    run_extf = _cast(arith.ExtFOp, lambda v, t: v.astype(t))
    run_truncf = _cast(arith.TruncFOp, lambda v, t: v.astype(t))
    run_llvm_sitofp = _cast(llvm.SIToFPOp, lambda v, t: v.astype(t))
    run_llvm_fpext = _cast(llvm.FPExtOp, lambda v, t: v.astype(t))
    run_llvm_fptrunc = _cast(llvm.FPTruncOp, lambda v, t: v.astype(t))

    @impl(arith.BitcastOp)
    def run_bitcast(self, interpreter, op: arith.BitcastOp, args):
        return (_bitcast(args[0], op.result.type),)

    @impl(llvm.BitcastOp)
    def run_llvm_bitcast(self, interpreter, op: llvm.BitcastOp, args):
        return (_bitcast(args[0], op.results[0].type),)

    @impl(llvm_compat.FshlOp)
    def run_fshl(self, interpreter, op: llvm_compat.FshlOp, args):
        return (_funnel_shift(args, right=False),)

    @impl(llvm_compat.FshrOp)
    def run_fshr(self, interpreter, op: llvm_compat.FshrOp, args):
        return (_funnel_shift(args, right=True),)


def _funnel_shift(args, right: bool) -> np.ndarray:
    """llvm.intr.fshl / fshr per lane, by the one integer semantics (tmem_dialect.integers)."""
    high, low, amount = args
    width = _bits(high)
    return as_signed(funnel_shift(high, low, amount, width, right), width).astype(high.dtype)
