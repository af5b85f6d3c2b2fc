"""Kernel integers per thread: exact values over the block's threads plus opaque symbols with ranges and warp-uniformity.

A value is a `Form`: a per-thread constant (an int, or a numpy vector indexed by linear thread
id when it depends on %tid) plus an integer combination of `Sym`s (values we cannot compute:
kernel arguments, loads, loop induction variables). This is enough to decide the questions the
TMEM checks ask: does a branch split a warp, which lanes does warp w's taddr reach, how far
apart are two accesses' addresses.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from itertools import count

import numpy as np
from xdsl.dialects import func, llvm, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue

from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import TMEMEffect, tmem_effect
from tmem_dialect.dialects.nvvm import pointer_address_space
from tmem_dialect.dialects.tcgen05 import KERNEL_ATTR, REQNTID_ATTR, slot_symbol
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.cfg import CFG, Loop, constant_trip_count

MAX_THREADS_PER_BLOCK = 1024
NVVM_KERNEL_ATTR = "nvvm.kernel"
NVVM_REQNTID_ATTR = "nvvm.reqntid"


class Uniformity(IntEnum):
    """How far a value is shared between threads (larger = less shared)."""

    CTA = 0
    WARP = 1
    THREAD = 2


# ---------------------------------------------------------------------------------------------
# The threads of a block
# ---------------------------------------------------------------------------------------------


class ThreadSpace:
    """The threads of one CTA, as declared by `nvvm.reqntid` / `tcgen05.reqntid`.

    Without a declaration we assume a one-dimensional block of up to 1024 threads (and say so).
    """

    def __init__(self, dims: tuple[int, int, int], declared: bool):
        self.dims = dims
        self.declared = declared
        x, y, z = dims
        self.nthreads = x * y * z
        linear = np.arange(self.nthreads, dtype=np.int64)
        self.tid = {"x": linear % x, "y": (linear // x) % y, "z": linear // (x * y)}
        self.nwarps = -(-self.nthreads // isa.WARP_SIZE)
        self.all_warps = (1 << self.nwarps) - 1
        self.warp_starts = np.arange(0, self.nthreads, isa.WARP_SIZE)
        self.laneid = linear % isa.WARP_SIZE
        self.warp_index = linear // isa.WARP_SIZE

    @staticmethod
    def of_kernel(kernel: Operation) -> ThreadSpace:
        for name in (REQNTID_ATTR, NVVM_REQNTID_ATTR):
            attr = kernel.attributes.get(name) or kernel.properties.get(name)
            if isinstance(attr, DenseArrayBase):
                values = [int(v) for v in attr.get_values()]
                dims = (values + [1, 1, 1])[:3]
                if all(d > 0 for d in dims) and dims[0] * dims[1] * dims[2] <= MAX_THREADS_PER_BLOCK:
                    return ThreadSpace((dims[0], dims[1], dims[2]), True)
        return ThreadSpace((MAX_THREADS_PER_BLOCK, 1, 1), False)

    def warp_min_max(self, vec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.minimum.reduceat(vec, self.warp_starts), np.maximum.reduceat(vec, self.warp_starts)

    def warps(self, mask: int) -> Iterator[int]:
        w = 0
        while mask:
            if mask & 1:
                yield w
            mask >>= 1
            w += 1

    def mask_of(self, flags: np.ndarray) -> int:
        """Bitmask of the warps whose entry in the per-warp bool array is set."""
        mask = 0
        for w in np.flatnonzero(flags):
            mask |= 1 << int(w)
        return mask


def is_kernel(op: Operation) -> bool:
    return KERNEL_ATTR in op.attributes or NVVM_KERNEL_ATTR in op.attributes


# ---------------------------------------------------------------------------------------------
# Symbols and forms
# ---------------------------------------------------------------------------------------------

_ids = count()


class Sym:
    """A value we cannot compute, with what we know about it."""

    __slots__ = ("id", "value", "lo", "hi", "uniformity", "loop", "step", "induction_of", "allocation")

    def __init__(
        self,
        value: SSAValue | None,
        uniformity: Uniformity,
        lo: int | None = None,
        hi: int | None = None,
        loop: Loop | None = None,
        *,
        step: int | None = None,
        induction_of: Loop | None = None,
        allocation: object | None = None,
    ):
        self.id = next(_ids)
        self.value = value
        self.uniformity = uniformity
        self.lo = lo
        self.hi = hi
        self.loop = loop
        self.step = step
        self.induction_of = induction_of
        self.allocation = allocation

    @property
    def bounded(self) -> bool:
        return self.lo is not None and self.hi is not None

    def __repr__(self) -> str:
        name = self.value.name_hint if self.value is not None else None
        return f"Sym({name or self.id})"


Const = int | np.ndarray


class Form:
    """`const + sum(coeff * sym)`; `const` is an int or a per-thread int64 vector."""

    __slots__ = ("const", "terms", "_uniformity")

    def __init__(self, const: Const, terms: tuple[tuple[Sym, int], ...] = ()):
        if isinstance(const, np.ndarray) and const.size and (const == const[0]).all():
            const = int(const[0])
        self.const = const
        self.terms = terms
        self._uniformity: Uniformity | None = None

    @property
    def is_concrete(self) -> bool:
        return not self.terms

    @property
    def constant(self) -> int | None:
        return self.const if not self.terms and isinstance(self.const, int) else None

    def coeff(self, sym: Sym) -> int:
        for s, c in self.terms:
            if s is sym:
                return c
        return 0

    def __add__(self, other: Form) -> Form:
        return Form(self.const + other.const, _merge(self.terms, other.terms, 1))

    def __sub__(self, other: Form) -> Form:
        return Form(self.const - other.const, _merge(self.terms, other.terms, -1))

    def scale(self, k: int) -> Form:
        if k == 0:
            return Form(0)
        return Form(self.const * k, tuple((s, c * k) for s, c in self.terms))

    def same_as(self, other: Form) -> bool:
        if self.terms != other.terms:
            return False
        a, b = self.const, other.const
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return bool(np.array_equal(np.broadcast_to(a, np.shape(b) or np.shape(a)), b))

    def uniformity(self, space: ThreadSpace) -> Uniformity:
        if self._uniformity is None:
            u = Uniformity.CTA
            if isinstance(self.const, np.ndarray):
                lo, hi = space.warp_min_max(self.const)
                u = Uniformity.THREAD if (lo != hi).any() else Uniformity.WARP
            for s, _ in self.terms:
                u = max(u, s.uniformity)
            self._uniformity = u
        return self._uniformity

    def bounds(self) -> tuple[int, int] | None:
        """Range over every thread and every value of the symbols, None when unbounded."""
        if isinstance(self.const, np.ndarray):
            lo, hi = int(self.const.min()), int(self.const.max())
        else:
            lo = hi = self.const
        for s, c in self.terms:
            if not s.bounded:
                return None
            a, b = c * s.lo, c * s.hi  # type: ignore[operator]
            lo += min(a, b)
            hi += max(a, b)
        return lo, hi

    def warp_bounds(self, space: ThreadSpace) -> tuple[np.ndarray, np.ndarray] | None:
        """Per-warp (min, max) arrays over the warp's threads and the symbols' ranges."""
        if isinstance(self.const, np.ndarray):
            lo, hi = space.warp_min_max(self.const)
        else:
            lo = np.full(space.nwarps, self.const, dtype=np.int64)
            hi = lo.copy()
        extra_lo = extra_hi = 0
        for s, c in self.terms:
            if not s.bounded:
                return None
            a, b = c * s.lo, c * s.hi  # type: ignore[operator]
            extra_lo += min(a, b)
            extra_hi += max(a, b)
        return lo + extra_lo, hi + extra_hi

    def __repr__(self) -> str:
        const = self.const if isinstance(self.const, int) else "<per-thread>"
        terms = " + ".join(f"{c}*{s}" for s, c in self.terms)
        return f"Form({const}{' + ' + terms if terms else ''})"


def _merge(
    a: tuple[tuple[Sym, int], ...], b: tuple[tuple[Sym, int], ...], sign: int
) -> tuple[tuple[Sym, int], ...]:
    if not b:
        return a
    coeffs: dict[Sym, int] = dict(a)
    for s, c in b:
        coeffs[s] = coeffs.get(s, 0) + sign * c
    return tuple(sorted(((s, c) for s, c in coeffs.items() if c), key=lambda t: t[0].id))


# ---------------------------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------------------------

_BINARY = {
    "add": ("arith.addi", "llvm.add"),
    "sub": ("arith.subi", "llvm.sub"),
    "mul": ("arith.muli", "llvm.mul"),
    "shl": ("arith.shli", "llvm.shl"),
    "shru": ("arith.shrui", "llvm.lshr"),
    "shrs": ("arith.shrsi", "llvm.ashr"),
    "divu": ("arith.divui", "llvm.udiv"),
    "divs": ("arith.divsi", "llvm.sdiv"),
    "remu": ("arith.remui", "llvm.urem"),
    "rems": ("arith.remsi", "llvm.srem"),
    "and": ("arith.andi", "llvm.and"),
    "or": ("arith.ori", "llvm.or"),
    "xor": ("arith.xori", "llvm.xor"),
    "minu": ("arith.minui",),
    "maxu": ("arith.maxui",),
    "mins": ("arith.minsi",),
    "maxs": ("arith.maxsi",),
}
_BINARY_BY_NAME = {name: kind for kind, names in _BINARY.items() for name in names}
_CASTS = frozenset(
    {
        "arith.index_cast",
        "arith.index_castui",
        "arith.extui",
        "arith.extsi",
        "arith.trunci",
        "arith.bitcast",
        "llvm.zext",
        "llvm.sext",
        "llvm.trunc",
        "llvm.bitcast",
        "llvm.inttoptr",
        "llvm.ptrtoint",
    }
)
_COMPARISONS = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_SREG_PREFIX = "nvvm.read.ptx.sreg."
# Special registers that are the same in every thread of the CTA.
_CTA_REGISTERS = frozenset(
    f"{base}.{d}" for base in ("ntid", "ctaid", "nctaid") for d in "xyz"
) | {"nwarpid"}


def _bitwidth(t: Attribute) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, llvm.LLVMPointerType):
        return 64
    return None


def _apply(kind: str, a: Const, b: Const, width: int) -> Const | None:
    """An integer binary op on concrete (int or per-thread vector) operands; None if undefined."""
    mask = (1 << width) - 1 if width < 64 else (1 << 64) - 1

    def unsigned(x: Const) -> Const:
        return x & mask if width < 64 else x

    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    if kind == "mul":
        return a * b
    if kind == "shl":
        return a << b if np.all(np.asarray(b) >= 0) else None
    if kind in ("shru", "shrs"):
        if not np.all(np.asarray(b) >= 0):
            return None
        return (unsigned(a) if kind == "shru" else a) >> b
    if kind in ("divu", "divs", "remu", "rems"):
        if np.any(np.asarray(b) == 0):
            return None
        if kind in ("divu", "remu"):
            a, b = unsigned(a), unsigned(b)
        elif np.any(np.asarray(a) < 0) or np.any(np.asarray(b) < 0):
            return None  # C-style truncating division; not worth modelling for negatives
        return a // b if kind.startswith("div") else a % b
    if kind == "and":
        return a & b
    if kind == "or":
        return a | b
    if kind == "xor":
        return a ^ b
    if kind in ("minu", "mins"):
        return np.minimum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else min(a, b)
    if kind in ("maxu", "maxs"):
        return np.maximum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else max(a, b)
    return None


def _compare(pred: str, a: Const, b: Const, width: int) -> Const:
    if pred.startswith("u"):
        mask = (1 << width) - 1 if width < 64 else None
        if mask is not None:
            a, b = a & mask, b & mask
    result = {
        "eq": lambda: a == b,
        "ne": lambda: a != b,
        "slt": lambda: a < b,
        "sle": lambda: a <= b,
        "sgt": lambda: a > b,
        "sge": lambda: a >= b,
        "ult": lambda: a < b,
        "ule": lambda: a <= b,
        "ugt": lambda: a > b,
        "uge": lambda: a >= b,
    }[pred]()
    return result.astype(np.int64) if isinstance(result, np.ndarray) else int(bool(result))


def _interval(kind: str, a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
    """Range of `a kind b` from the operands' ranges (None: unknown)."""
    if kind == "and":
        for r in (a, b):
            if r is not None and r[0] >= 0:
                other = b if r is a else a
                hi = r[1] if other is None or other[0] < 0 else min(r[1], other[1])
                return 0, hi
        return None
    if a is None or b is None:
        return None
    (al, ah), (bl, bh) = a, b
    if kind == "add":
        return al + bl, ah + bh
    if kind == "sub":
        return al - bh, ah - bl
    if kind == "mul":
        products = [al * bl, al * bh, ah * bl, ah * bh]
        return min(products), max(products)
    if kind == "shl" and bl >= 0:
        return _interval("mul", a, (1 << bl, 1 << bh))
    if kind in ("shru", "shrs") and al >= 0 and bl >= 0:
        return al >> bh, ah >> bl
    if kind in ("divu", "divs") and al >= 0 and bl > 0:
        return al // bh, ah // bl
    if kind in ("remu", "rems") and bl > 0 and al >= 0:
        return 0, min(ah, bh - 1)
    if kind in ("minu", "mins"):
        return min(al, bl), min(ah, bh)
    if kind in ("maxu", "maxs"):
        return max(al, bl), max(ah, bh)
    if kind == "or" and al >= 0 and bl >= 0:
        return max(al, bl), (1 << max(ah, bh).bit_length()) - 1
    return None


@dataclass(frozen=True)
class Split:
    """How the warps evaluate a branch condition, as warp bitmasks.

    `may_true` / `may_false`: warps in which some thread may see true / false; `torn`: warps
    in which some thread surely sees true and another surely false; `exact`: every thread's
    value is known.
    """

    may_true: int
    may_false: int
    torn: int
    exact: bool


_TRUTH_AND = ("arith.andi", "llvm.and")
_TRUTH_OR = ("arith.ori", "llvm.or")
_TRUTH_XOR = ("arith.xori", "llvm.xor")


class Values:
    """Forms of every integer (and TMEM/shared pointer) value of one function."""

    def __init__(
        self,
        function: Operation,
        cfg: CFG,
        space: ThreadSpace,
        slots: set[object],
        effects: dict[Operation, TMEMEffect] | None = None,
    ):
        self.function = function
        self.effects = effects if effects is not None else {
            op: e for op in function.walk() if (e := tmem_effect(op)) is not None
        }
        self.cfg = cfg
        self.space = space
        self.slots = slots
        self._loop_of_op = {lp.op: lp for lp in cfg.loops if lp.op is not None}
        self._header_loop = {lp.header: lp for lp in cfg.loops}
        self._carried: dict[SSAValue, Uniformity] = {}
        self._forms: dict[SSAValue, Form | None] = {}
        self._uniformity: dict[SSAValue, Uniformity] = {}
        self._splits: dict[SSAValue, Split | None] = {}
        self._in_progress: set[SSAValue] = set()
        self._evaluate_all()

    # ---- public ------------------------------------------------------------------------------

    def form(self, value: SSAValue) -> Form | None:
        """The form of an integer/pointer value; None for other types."""
        if value in self._forms:
            return self._forms[value]
        if value in self._in_progress:
            # A cycle through a loop-carried value: answer optimistically; the loop-carried
            # fixpoint in _evaluate_all corrects the uniformity if the guess was wrong.
            return self._opaque(value, self._carried.get(value, Uniformity.CTA))
        if sys.getrecursionlimit() < 20000:
            sys.setrecursionlimit(20000)
        self._in_progress.add(value)
        try:
            found = self._compute(value)
        finally:
            self._in_progress.discard(value)
        self._forms[value] = found
        return found

    def uniformity(self, value: SSAValue) -> Uniformity:
        f = self.form(value)
        if f is not None:
            return f.uniformity(self.space)
        if value not in self._uniformity:
            self._uniformity[value] = self._default_uniformity(value)
        return self._uniformity[value]

    def split(self, condition: SSAValue) -> Split | None:
        """Per-warp outcome of an i1 condition as far as thread ids decide it (None: not at all)."""
        if condition in self._splits:
            return self._splits[condition]
        truth = self._truth(condition, 0)
        result = None
        if truth is not None:
            can_true, can_false = truth
            space = self.space
            t_lo, t_hi = space.warp_min_max(can_true.astype(np.int64))
            f_lo, f_hi = space.warp_min_max(can_false.astype(np.int64))
            sure_true = (can_true & ~can_false).astype(np.int64)
            sure_false = (can_false & ~can_true).astype(np.int64)
            _, some_true = space.warp_min_max(sure_true)
            _, some_false = space.warp_min_max(sure_false)
            result = Split(
                space.mask_of(t_hi == 1),
                space.mask_of(f_hi == 1),
                space.mask_of((some_true == 1) & (some_false == 1)),
                bool(((can_true ^ can_false)).all()),
            )
        self._splits[condition] = result
        return result

    def _truth(self, value: SSAValue, depth: int) -> tuple[np.ndarray, np.ndarray] | None:
        """Per thread: can `value` be true, can it be false (None: no thread id involved)."""
        n = self.space.nthreads
        f = self.form(value)
        if f is not None and f.is_concrete:
            on = np.broadcast_to(np.asarray(f.const) != 0, (n,))
            return on, ~on
        owner = value.owner
        if depth > 16 or not isinstance(owner, Operation) or len(owner.operands) != 2:
            return None
        if owner.name not in _TRUTH_AND + _TRUTH_OR + _TRUTH_XOR:
            return None
        unknown = (np.ones(n, dtype=bool), np.ones(n, dtype=bool))
        a = self._truth(owner.operands[0], depth + 1)
        b = self._truth(owner.operands[1], depth + 1)
        if a is None and b is None:
            return None
        (ta, fa), (tb, fb) = a or unknown, b or unknown
        if owner.name in _TRUTH_AND:
            return ta & tb, fa | fb
        if owner.name in _TRUTH_OR:
            return ta | tb, fa & fb
        return (ta & fb) | (fa & tb), (ta & tb) | (fa & fb)

    def loop_uniformity(self, loop_op: Operation) -> Uniformity:
        """Whether every thread of a warp runs the same iterations of an scf.for."""
        if isinstance(loop_op, scf.ForOp):
            return max(self.uniformity(v) for v in (loop_op.lb, loop_op.ub, loop_op.step))
        return Uniformity.CTA

    def loop_bounds_split(self, loop_op: Operation) -> bool:
        """True when the bounds of an scf.for provably give threads of one warp different trip counts."""
        if not isinstance(loop_op, scf.ForOp):
            return False
        forms = [self.form(v) for v in (loop_op.lb, loop_op.ub, loop_op.step)]
        if any(f is None or not f.is_concrete for f in forms):
            return False
        lb, ub, step = (np.broadcast_to(f.const, (self.space.nthreads,)) for f in forms)  # type: ignore[union-attr]
        if (step <= 0).any():
            return False
        trips = np.maximum(0, -(-(ub - lb) // step))
        lo, hi = self.space.warp_min_max(trips)
        return bool((lo != hi).any())

    # ---- evaluation --------------------------------------------------------------------------

    def _evaluate_all(self) -> None:
        # Loop-carried values start as uniform as their initial values; if a later iteration
        # feeds them something less uniform, raise them and evaluate again (rarely needed twice).
        for _ in range(4):
            for op in self.function.walk():
                for r in op.results:
                    self.form(r)
            raised = False
            for carried, incoming in self._loop_carried():
                need = max((self.uniformity(v) for v in incoming), default=Uniformity.CTA)
                if need > self._carried.get(carried, Uniformity.CTA):
                    self._carried[carried] = need
                    raised = True
            if not raised:
                return
            self._forms.clear()
            self._uniformity.clear()
            self._splits.clear()

    def _loop_carried(self) -> Iterator[tuple[SSAValue, list[SSAValue]]]:
        for op in self.function.walk():
            if isinstance(op, scf.ForOp):
                yield_op = op.body.block.last_op
                if yield_op is not None:
                    for arg, yielded in zip(op.body.block.args[1:], yield_op.operands):
                        yield arg, [yielded]
            elif isinstance(op, scf.WhileOp):
                after_yield = op.after_region.block.last_op
                if after_yield is not None:
                    for arg, yielded in zip(op.before_region.block.args, after_yield.operands):
                        yield arg, [yielded]
        for block, incoming in self._block_incoming().items():
            for i, arg in enumerate(block.args):
                yield arg, [values[i] for values in incoming if i < len(values)]

    def _block_incoming(self) -> dict[Block, list[list[SSAValue]]]:
        if not hasattr(self, "_incoming"):
            incoming: dict[Block, list[list[SSAValue]]] = {}
            for op in self.function.walk():
                for i, succ in enumerate(op.successors):
                    incoming.setdefault(succ, []).append(list(_successor_operands(op, i)))
            self._incoming = incoming
        return self._incoming

    def _opaque(
        self, value: SSAValue, uniformity: Uniformity, bounds: tuple[int, int] | None = None, **kw: object
    ) -> Form:
        lo, hi = bounds if bounds is not None else (None, None)
        return Form(0, ((Sym(value, uniformity, lo, hi, self._loop_of_value(value), **kw), 1),))  # type: ignore[arg-type]

    def _loop_of_value(self, value: SSAValue) -> Loop | None:
        if isinstance(value, OpResult):
            loops = self.cfg.loops_of(value.op)
        else:
            assert isinstance(value, BlockArgument)
            first = value.block.first_op
            loops = self.cfg.loops_of(first) if first is not None else ()
        return loops[-1] if loops else None

    def _default_uniformity(self, value: SSAValue) -> Uniformity:
        if isinstance(value, BlockArgument):
            return self._block_arg_uniformity(value, [])
        op = value.owner
        assert isinstance(op, Operation)
        if isinstance(op, (func.CallOp, llvm.CallOp)) or op.name == "llvm.inline_asm":
            return Uniformity.THREAD
        effect = self.effects.get(op)
        if effect is not None and effect.kind is EffectKind.LD:
            return Uniformity.THREAD
        if op.name.startswith(_SREG_PREFIX):
            reg = op.name.removeprefix(_SREG_PREFIX)
            return Uniformity.CTA if reg in _CTA_REGISTERS else (
                Uniformity.WARP if reg == "warpid" else Uniformity.THREAD
            )
        return max((self.uniformity(v) for v in op.operands), default=Uniformity.CTA)

    def _block_arg_uniformity(self, arg: BlockArgument, incoming: list[SSAValue]) -> Uniformity:
        parent = arg.block.parent_op()
        if arg.block is self.function.regions[0].blocks.first:
            return Uniformity.CTA  # kernel parameters
        u = self._carried.get(arg, Uniformity.CTA)
        if incoming:
            u = max(u, *(self.uniformity(v) for v in incoming))
        if isinstance(parent, scf.ForOp) and arg.index == 0:
            u = max(u, self.loop_uniformity(parent))
        return u

    def _compute(self, value: SSAValue) -> Form | None:
        width = _bitwidth(value.type)
        if width is None:
            return None
        if isinstance(value, BlockArgument):
            return self._block_argument(value)
        op = value.owner
        assert isinstance(op, Operation)
        name = op.name
        operands = list(op.operands)
        if name in ("arith.constant", "llvm.mlir.constant"):
            attr = getattr(op, "value", None)
            if isinstance(attr, IntegerAttr):
                # xDSL keeps `true : i1` as -1 (signed); an i1 here is its truth value, 0 or 1,
                # as comparisons produce it, so that `xori %c, %true` negates %c.
                v = int(attr.value.data)
                return Form(v & 1 if width == 1 else v)
            return self._opaque(value, Uniformity.CTA)
        if name.startswith(_SREG_PREFIX):
            return self._special_register(value, name.removeprefix(_SREG_PREFIX))
        if name in _CASTS and len(operands) == 1:
            inner = self.form(operands[0])
            if inner is not None:
                return inner
            return self._opaque(value, self.uniformity(operands[0]))
        if name in _BINARY_BY_NAME and len(operands) == 2:
            return self._binary(value, _BINARY_BY_NAME[name], operands, width)
        if name in ("arith.cmpi", "llvm.icmp"):
            return self._comparison(value, op, operands)
        if name in ("arith.select", "llvm.select"):
            return self._select(value, operands)
        if name == "llvm.mlir.addressof":
            return self._opaque(value, Uniformity.CTA, allocation=None)
        if isinstance(op, scf.IfOp):
            return self._if_result(value, op)
        if name in ("llvm.load", "memref.load"):
            return self._load(value, op)
        return self._opaque(value, self._default_uniformity(value))

    def _special_register(self, value: SSAValue, reg: str) -> Form:
        space = self.space
        if reg.startswith("tid."):
            d = reg[-1]
            if space.declared or d == "x":
                return Form(space.tid[d].copy())
            return self._opaque(value, Uniformity.THREAD)
        if reg == "laneid":
            return Form(space.laneid.copy())
        if reg.startswith("ntid.") and space.declared:
            return Form(space.dims["xyz".index(reg[-1])])
        if reg in _CTA_REGISTERS:
            return self._opaque(value, Uniformity.CTA, (0, (1 << 31) - 1))
        # %warpid is the physical warp slot, not the warp's index in the CTA (PTX ISA).
        return self._opaque(value, Uniformity.WARP if reg == "warpid" else Uniformity.THREAD)

    def _binary(self, value: SSAValue, kind: str, operands: list[SSAValue], width: int) -> Form:
        a, b = (self.form(v) for v in operands)
        if a is not None and b is not None:
            if kind == "add":
                return a + b
            if kind == "sub":
                return a - b
            if kind == "mul" and (a.constant is not None or b.constant is not None):
                return a.scale(b.constant) if b.constant is not None else b.scale(a.constant)  # type: ignore[arg-type]
            if kind == "shl" and b.constant is not None and 0 <= b.constant < width:
                return a.scale(1 << b.constant)
            if a.is_concrete and b.is_concrete:
                result = _apply(kind, a.const, b.const, width)
                if result is not None:
                    return Form(result)
        bounds = _interval(
            kind,
            a.bounds() if a is not None else None,
            b.bounds() if b is not None else None,
        )
        u = max(self.uniformity(operands[0]), self.uniformity(operands[1]))
        return self._opaque(value, u, bounds)

    def _comparison(self, value: SSAValue, op: Operation, operands: list[SSAValue]) -> Form:
        predicate = getattr(op, "predicate", None)
        a, b = (self.form(v) for v in operands)
        width = _bitwidth(operands[0].type) or 64
        if (
            isinstance(predicate, IntegerAttr)
            and a is not None
            and b is not None
            and a.is_concrete
            and b.is_concrete
        ):
            return Form(_compare(_COMPARISONS[predicate.value.data], a.const, b.const, width))
        u = max(self.uniformity(operands[0]), self.uniformity(operands[1]))
        return self._opaque(value, u, (0, 1))

    def _select(self, value: SSAValue, operands: list[SSAValue]) -> Form:
        cond, a, b = (self.form(v) for v in operands)
        if a is not None and b is not None and a.same_as(b):
            return a
        if cond is not None and cond.is_concrete and a is not None and b is not None:
            if a.is_concrete and b.is_concrete:
                return Form(np.where(np.asarray(cond.const) != 0, a.const, b.const))
        bounds = None
        if a is not None and b is not None and (ra := a.bounds()) and (rb := b.bounds()):
            bounds = (min(ra[0], rb[0]), max(ra[1], rb[1]))
        u = max(self.uniformity(v) for v in operands)
        return self._opaque(value, u, bounds)

    def _if_result(self, value: SSAValue, op: scf.IfOp) -> Form:
        assert isinstance(value, OpResult)
        yields = [r.block.last_op for r in (op.true_region, op.false_region) if r.blocks]
        forms = [self.form(y.operands[value.index]) for y in yields if y is not None]
        if len(forms) == 2 and all(f is not None for f in forms):
            a, b = forms
            assert a is not None and b is not None
            if a.same_as(b):
                return a
            cond = self.form(op.cond)
            if cond is not None and cond.is_concrete and a.is_concrete and b.is_concrete:
                return Form(np.where(np.asarray(cond.const) != 0, a.const, b.const))
        u = self.uniformity(op.cond)
        for y in yields:
            if y is not None:
                u = max(u, self.uniformity(y.operands[value.index]))
        return self._opaque(value, u)

    def _load(self, value: SSAValue, op: Operation) -> Form:
        pointer = op.operands[0]
        key = slot_key(pointer)
        if key is not None and key in self.slots:
            # The TMEM base address tcgen05.alloc wrote: lane 0, a column inside the 512.
            return self._opaque(
                value, Uniformity.CTA, (0, isa.TMEM_COLUMNS - 1), allocation=key
            )
        return self._opaque(value, max((self.uniformity(v) for v in op.operands), default=Uniformity.CTA))

    def _block_argument(self, arg: BlockArgument) -> Form:
        block = arg.block
        parent = block.parent_op()
        if block is self.function.regions[0].blocks.first:
            return self._opaque(arg, Uniformity.CTA)
        if isinstance(parent, scf.ForOp) and block is parent.body.block:
            loop = self._loop_of_op.get(parent)
            if arg.index == 0:
                return self._induction(arg, parent, loop)
            init = parent.iter_args[arg.index - 1]
            return self._opaque(arg, max(self.uniformity(init), self._carried.get(arg, Uniformity.CTA)))
        if isinstance(parent, scf.WhileOp):
            if block is parent.before_region.block:
                init = parent.arguments[arg.index]
                u = max(self.uniformity(init), self._carried.get(arg, Uniformity.CTA))
                return self._opaque(arg, u)
            cond_op = parent.before_region.block.last_op
            if isinstance(cond_op, scf.ConditionOp) and arg.index < len(cond_op.args):
                forwarded = self.form(cond_op.args[arg.index])
                if forwarded is not None:
                    return forwarded
            return self._opaque(arg, Uniformity.THREAD)
        if isinstance(parent, (scf.IfOp, scf.ExecuteRegionOp, scf.IndexSwitchOp)) or parent is None:
            return self._opaque(arg, Uniformity.THREAD)
        return self._phi(arg)

    def _induction(self, arg: BlockArgument, op: scf.ForOp, loop: Loop | None) -> Form:
        lb, ub, step = (self.form(v) for v in (op.lb, op.ub, op.step))
        u = self.loop_uniformity(op)
        step_c = step.constant if step is not None else None
        bounds = None
        trips = constant_trip_count(op)
        if lb is not None and lb.constant is not None and step_c and step_c > 0 and trips:
            bounds = (lb.constant, lb.constant + (trips - 1) * step_c)
        elif lb is not None and ub is not None and (rl := lb.bounds()) and (ru := ub.bounds()):
            bounds = (rl[0], ru[1] - 1)
        return Form(
            0,
            ((Sym(arg, u, *(bounds or (None, None)), loop, step=step_c, induction_of=loop), 1),),
        )

    def _phi(self, arg: BlockArgument) -> Form:
        incoming = [vals[arg.index] for vals in self._block_incoming().get(arg.block, []) if arg.index < len(vals)]
        join = self._node_of_block(arg.block)
        loop = self._header_loop.get(join) if join is not None else None
        if loop is not None:
            if (iv := self._unstructured_induction(arg, loop, incoming)) is not None:
                return iv
            known = [v for v in incoming if not self._over_back_edge(v, loop)]
            return self._opaque(arg, self._block_arg_uniformity(arg, known))
        forms = [self.form(v) for v in incoming]
        if forms and all(f is not None for f in forms) and all(f.same_as(forms[0]) for f in forms[1:]):  # type: ignore[union-attr]
            return forms[0]  # type: ignore[return-value]
        u = self._block_arg_uniformity(arg, incoming)
        for condition in self._join_conditions(arg.block):
            u = max(u, self.uniformity(condition))
        return self._opaque(arg, u)

    def _node_of_block(self, block: Block):
        first = block.first_op
        return self.cfg.node_of.get(first) if first is not None else None

    def _over_back_edge(self, value: SSAValue, loop: Loop) -> bool:
        owner = value.owner
        block = owner.parent_block() if isinstance(owner, Operation) else owner
        while block is not None:
            node = self._node_of_block(block)
            if node is not None:
                return node in loop.nodes
            parent = block.parent_op()
            block = parent.parent_block() if parent is not None else None
        return False

    def _join_conditions(self, block: Block) -> list[SSAValue]:
        """Conditions of the branches whose paths this block merges: the values it receives
        differ between threads if such a branch does."""
        join = self._node_of_block(block)
        if join is None:
            return []
        inside = self.cfg.controlling_branches(join)
        found: list[SSAValue] = []
        for edge in join.preds:
            for b in self.cfg.controlling_branches(edge.source) | {edge.source}:
                if b not in inside and b.branch is not None and b.branch.condition is not None:
                    found.append(b.branch.condition)
        return found

    def _unstructured_induction(
        self, arg: BlockArgument, loop: Loop, incoming: list[SSAValue]
    ) -> Form | None:
        """`^header(%i): ... br ^header(%i + c)`: an induction variable with step c > 0."""
        inits: list[SSAValue] = []
        step: int | None = None
        for v in incoming:
            owner = v.owner
            if isinstance(owner, Operation) and owner.name in ("llvm.add", "arith.addi") and arg in owner.operands:
                other = owner.operands[1] if owner.operands[0] is arg else owner.operands[0]
                c = self.form(other)
                if c is None or c.constant is None or c.constant <= 0 or (step is not None and step != c.constant):
                    return None
                step = c.constant
            else:
                inits.append(v)
        if step is None or len(inits) != 1:
            return None
        init = self.form(inits[0])
        u = max(self.uniformity(inits[0]), Uniformity.CTA)
        lo = init.constant if init is not None else None
        hi = self._exit_bound(arg, loop, step)
        return Form(0, ((Sym(arg, u, lo, hi if lo is not None else None, loop, step=step, induction_of=loop), 1),))

    def _exit_bound(self, arg: BlockArgument, loop: Loop, step: int) -> int | None:
        """The largest value an induction variable takes, from `icmp lt %i, C` deciding the loop."""
        for node in loop.nodes:
            branch = node.branch
            if branch is None or branch.condition is None:
                continue
            cmp = branch.condition.owner
            if not isinstance(cmp, Operation) or cmp.name not in ("llvm.icmp", "arith.cmpi"):
                continue
            predicate = getattr(cmp, "predicate", None)
            if not isinstance(predicate, IntegerAttr) or cmp.operands[0] is not arg:
                continue
            bound = self.form(cmp.operands[1])
            pred = _COMPARISONS[predicate.value.data]
            stays = [e for e in node.succs if e.target in loop.nodes]
            if bound is None or bound.constant is None or len(stays) != 1 or stays[0].sense is not True:
                continue
            if pred in ("slt", "ult"):
                return bound.constant - 1
            if pred in ("sle", "ule"):
                return bound.constant
        return None


def _successor_operands(op: Operation, index: int) -> Iterable[SSAValue]:
    if isinstance(op, (llvm.BrOp,)) or op.name == "cf.br":
        return op.operands
    if op.name in ("cf.cond_br", "llvm.cond_br"):
        return getattr(op, "then_arguments" if index == 0 else "else_arguments")
    return ()


def slot_key(pointer: SSAValue) -> object | None:
    """What identifies a shared-memory TMEM address slot: its global's name, or the value itself."""
    symbol = slot_symbol(pointer)
    if symbol is not None:
        return symbol
    if isinstance(pointer.type, llvm.LLVMPointerType) and pointer_address_space(pointer.type) in (0, 3):
        return pointer
    if isinstance(pointer.type, MemRefType):
        return pointer
    return None
