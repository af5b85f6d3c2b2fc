"""Kernel integers per thread: exact values over the block's threads plus opaque symbols with ranges and warp-uniformity.

A value is a `Form`: a per-thread constant (an int, or a numpy vector indexed by linear thread
id when it depends on %tid) plus an integer combination of `Sym`s (values we cannot compute:
kernel arguments, loads, loop induction variables). This is enough to decide the questions the
TMEM checks ask: does a branch split a warp, which lanes does warp w's taddr reach, how far
apart are two accesses' addresses.
"""


from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator

import numpy as np
from xdsl.dialects import func, llvm, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from tmem_dialect import integers, isa
from tmem_dialect.conventions import GENERIC_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.dialects.interfaces import TMEMEffect, has_tmem_effect, tmem_effect
from tmem_dialect.dialects.llvm_switch import SwitchOp
from tmem_dialect.dialects.tcgen05 import slot_symbol
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.op_types import OpIndex, is_a, walk_ops
from tmem_dialect.passes.block_values import BlockArgumentValues, one_trip_pinned
from tmem_dialect.passes.carried import CarriedRings
from tmem_dialect.passes.cfg import CFG, Loop
from tmem_dialect.passes.forms import Form, Sym
from tmem_dialect.passes.int_eval import (
    BINARY_BY_NAME,
    CASTS,
    COMPARISONS,
    TRUTH_AND,
    TRUTH_OR,
    TRUTH_XOR,
    Split,
    apply_binary,
    bitwidth,
    compare,
    interval,
)
from tmem_dialect.passes.threads import (
    CTA_REGISTERS,
    SREG_PREFIX,
    ThreadSpace,
    Uniformity,
)

_UNSET = object()  # not in a cache (None is a value: not an integer)
_COMPUTING = object()  # a form being computed (asked again meanwhile: a use-def cycle)


_SCF_LOOPS = (scf.ForOp, scf.WhileOp)


class Values(BlockArgumentValues):
    """Forms of every integer (and TMEM/shared pointer) value of one function."""

    def __init__(
        self,
        function: Operation,
        cfg: CFG,
        space: ThreadSpace,
        slots: set[object],
        effects: dict[Operation, TMEMEffect] | None = None,
        known: dict[SSAValue, Form] | None = None,
        index: OpIndex | None = None,
    ):
        self.function = function
        # Walked once, read by every round.
        self.op_index = OpIndex(walk_ops(function)) if index is None else index
        self.ops = self.op_index.ops
        self.effects = effects if effects is not None else {
            op: e for op in self.op_index.where(has_tmem_effect) if (e := tmem_effect(op)) is not None
        }
        self.cfg = cfg
        self.space = space
        self.slots = slots
        self._loop_of_op = {lp.op: lp for lp in cfg.loops if lp.op is not None}
        self._header_loop = {lp.header: lp for lp in cfg.loops}
        self._carried: dict[SSAValue, Uniformity] = {}
        self._carried_rings = CarriedRings(cfg)  # the ranges of carried ring registers
        self._forms: dict[SSAValue, Form | None | object] = {}  # (_COMPUTING while it is)
        self._uniformity: dict[SSAValue, Uniformity] = {}
        self._splits: dict[SSAValue, Split | None] = {}
        # While _solve_carried runs: which values read each value's form (the value being
        # computed when form() was asked), so that raising a carried value's uniformity
        # re-evaluates only what depends on it. None once evaluation is done.
        self._readers: defaultdict[SSAValue, list[SSAValue]] | None = defaultdict(list)
        self._computing: list[SSAValue] = []
        self._known = known or {}  # values proven elsewhere (a dispatch round's state byte)
        if sys.getrecursionlimit() < 20000:
            sys.setrecursionlimit(20000)  # forms are computed recursively, operands first
        self._solve_carried()

    # ---- public ------------------------------------------------------------------------------

    def form(self, value: SSAValue) -> Form | None:
        """The form of an integer/pointer value; None for other types."""
        if self._readers is not None and self._computing:
            self._readers[value].append(self._computing[-1])
        forms = self._forms
        found = forms.get(value, _UNSET)
        if found is not _UNSET:
            if found is _COMPUTING:
                # A cycle through a loop-carried value: answer optimistically; the loop-carried
                # fixpoint in _solve_carried corrects the uniformity if the guess was wrong.
                return self._opaque(value, self._carried.get(value, Uniformity.CTA))
            return found  # type: ignore[return-value]
        if self._known and value in self._known:
            return self._known[value]
        # (The mark in the cache, not a set of values in progress: one hash of the value less.)
        forms[value] = _COMPUTING
        self._computing.append(value)
        try:
            found = self._compute(value)
        except BaseException:
            del forms[value]
            raise
        finally:
            self._computing.pop()
        forms[value] = found
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
        if _is_election(condition):
            # elect.sync: true in exactly one thread of each warp, which one the ISA leaves open
            # ("deterministically" chosen): every warp of two or more threads is torn.
            sizes = np.bincount(self.space.warp_index, minlength=self.space.nwarps)
            result = Split(self.space.all_warps, self.space.all_warps, self.space.mask_of(sizes > 1), False)
        elif truth is not None:
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

    def switch_masks(self, value: SSAValue, cases: list[int]) -> list[int] | None:
        """Per successor of a multi-way branch on `value` (the default first, then each case):
        the warps some thread of which may take it, when thread ids decide `value` (a role
        dispatch on the warp index, as Triton's warp-specialized partitions are); else None."""
        form = self.form(value)
        if form is None or form.terms:
            return None
        values = np.broadcast_to(np.asarray(form.const, dtype=np.int64), (self.space.nthreads,))
        width = bitwidth(value.type) or 64
        values = integers.wrap(values, width) if width < 64 else values
        cases = [int(integers.wrap(c, width)) if width < 64 else c for c in cases]
        taken = [~np.isin(values, cases)] + [values == c for c in cases]
        return [self.space.mask_of(self.space.warp_min_max(t.astype(np.int64))[1] == 1) for t in taken]

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
        if owner.name not in TRUTH_AND + TRUTH_OR + TRUTH_XOR:
            return None
        unknown = (np.ones(n, dtype=bool), np.ones(n, dtype=bool))
        a = self._truth(owner.operands[0], depth + 1)
        b = self._truth(owner.operands[1], depth + 1)
        if a is None and b is None:
            return None
        (ta, fa), (tb, fb) = a or unknown, b or unknown
        if owner.name in TRUTH_AND:
            return ta & tb, fa | fb
        if owner.name in TRUTH_OR:
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

    def _solve_carried(self) -> None:
        # Loop-carried values start as uniform as their initial values; if a later iteration
        # feeds them something less uniform, raise them and evaluate again what depends on
        # them (rarely needed twice). Only what flows into a block argument is evaluated here:
        # every use-def cycle passes through one, so any other value, computed when first
        # asked for, depends on nothing the fixpoint can still change.
        carried_values = list(self._loop_carried())  # the IR does not change meanwhile
        for _ in range(4):
            raised = []
            for carried, incoming in carried_values:
                need = max((self.uniformity(v) for v in incoming), default=Uniformity.CTA)
                if need > self._carried.get(carried, Uniformity.CTA):
                    self._carried[carried] = need
                    raised.append(carried)
            if not raised:
                break
            self._forget(raised)
        self._readers = None

    def _forget(self, raised: list[SSAValue]) -> None:
        """Drop the forms of `raised` and of every value whose evaluation read one of them."""
        assert self._readers is not None
        stale, pending = set(raised), list(raised)
        while pending:
            for reader in self._readers.get(pending.pop(), ()):
                if reader not in stale:
                    stale.add(reader)
                    pending.append(reader)
        for value in stale:
            self._forms.pop(value, None)
        self._uniformity.clear()
        self._splits.clear()

    def _loop_carried(self) -> Iterator[tuple[SSAValue, list[SSAValue]]]:
        for op in self.op_index.of(_SCF_LOOPS):
            if is_a(op, scf.ForOp):
                yield_op = op.body.block.last_op
                if yield_op is not None:
                    for arg, yielded in zip(op.body.block.args[1:], yield_op.operands):
                        yield arg, [yielded]
            elif is_a(op, scf.WhileOp):
                after_yield = op.after_region.block.last_op
                if after_yield is not None:
                    for arg, yielded in zip(op.before_region.block.args, after_yield.operands):
                        yield arg, [yielded]
        for block, incoming in self._block_incoming().items():
            for i, arg in enumerate(block.args):
                yield arg, [values[i] for values in incoming if i < len(values)]

    def incoming(self, arg: BlockArgument) -> list[SSAValue]:
        """What each branch into the argument's block passes for it."""
        return [values[arg.index] for values in self._block_incoming().get(arg.block, []) if arg.index < len(values)]

    def _block_incoming(self) -> dict[Block, list[list[SSAValue]]]:
        if not hasattr(self, "_incoming"):
            incoming: dict[Block, list[list[SSAValue]]] = {}
            # Only a block's last op branches (the CFG reads successors there too); asking every
            # op for its successors costs more than the rest of this scan.
            for op in self.ops:
                if op.next_op is not None:
                    continue
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
        if self._broadcast_lane(op) is not None:
            return Uniformity.WARP
        if op.name.startswith(SREG_PREFIX):
            reg = op.name.removeprefix(SREG_PREFIX)
            return Uniformity.CTA if reg in CTA_REGISTERS else (
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
        width = bitwidth(value.type)
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
                return Form(int(integers.truth(v)) if width == 1 else v)
            return self._opaque(value, Uniformity.CTA)
        if name.startswith(SREG_PREFIX):
            return self._special_register(value, name.removeprefix(SREG_PREFIX))
        if name in CASTS and len(operands) == 1:
            inner = self.form(operands[0])
            if inner is not None:
                return inner
            return self._opaque(value, self.uniformity(operands[0]))
        if name in BINARY_BY_NAME and len(operands) == 2:
            return self._binary(value, BINARY_BY_NAME[name], operands, width)
        if name in ("arith.cmpi", "llvm.icmp"):
            return self._comparison(value, op, operands)
        if name in ("arith.select", "llvm.select"):
            return self._select(value, operands)
        if name == "llvm.mlir.addressof":
            return self._opaque(value, Uniformity.CTA, allocation=None)
        if isinstance(op, scf.IfOp):
            return self._if_result(value, op)
        if name == "nvvm.shfl.sync":
            return self._shuffle(value, op)
        if name in ("llvm.load", "memref.load"):
            return self._load(value, op)
        return self._opaque(value, self._default_uniformity(value))

    def _broadcast_lane(self, op: Operation) -> int | None:
        """The lane whose value `shfl.sync.idx` gives every thread of the warp: a constant source
        lane, clamp 31 (segments of the whole warp) and a full member mask; None otherwise."""
        if op.name != "nvvm.shfl.sync" or getattr(op.properties.get("kind"), "data", None) != "idx":
            return None
        mask, _, lane, clamp = (self.form(v) for v in op.operands)
        if mask is None or lane is None or clamp is None:
            return None
        if mask.constant is None or mask.constant & 0xFFFFFFFF != 0xFFFFFFFF:
            return None
        if lane.constant is None or clamp.constant is None or clamp.constant & 0x1F1F != 0x1F:
            return None
        return lane.constant & 0x1F

    def _shuffle(self, value: SSAValue, op: Operation) -> Form:
        """`shfl.sync.idx` from one lane (CuTe's "make warp uniform"): each thread gets that
        lane's value, so a function of %tid becomes one value per warp."""
        lane = self._broadcast_lane(op)
        source = self.form(op.operands[1]) if lane is not None else None
        if lane is None or source is None or any(s.uniformity is Uniformity.THREAD for s, _ in source.terms):
            return self._opaque(value, self._default_uniformity(value))
        const = source.const
        if isinstance(const, np.ndarray):
            linear = np.arange(const.size)
            const = const[np.clip(linear - self.space.laneid + lane, 0, const.size - 1)]
        return Form(const, source.terms)

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
        if reg in CTA_REGISTERS:
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
                result = apply_binary(kind, a.const, b.const, width)
                if result is not None:
                    return Form(result)
        bounds = interval(
            kind,
            a.bounds() if a is not None else None,
            b.bounds() if b is not None else None,
        )
        u = max(self.uniformity(operands[0]), self.uniformity(operands[1]))
        return self._opaque(value, u, bounds)

    def _comparison(self, value: SSAValue, op: Operation, operands: list[SSAValue]) -> Form:
        predicate = getattr(op, "predicate", None)
        a, b = (one_trip_pinned(self.form(v), op) for v in operands)
        width = bitwidth(operands[0].type) or 64
        if (
            isinstance(predicate, IntegerAttr)
            and a is not None
            and b is not None
            and a.is_concrete
            and b.is_concrete
        ):
            return Form(compare(COMPARISONS[predicate.value.data], a.const, b.const, width))
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
        key = slot_key(op.operands[0]) if self.slots else None  # (most kernels load no slot)
        if key is not None and key in self.slots:
            # The TMEM base address tcgen05.alloc wrote: lane 0, a column inside the 512.
            return self._opaque(
                value, Uniformity.CTA, (0, isa.TMEM_COLUMNS - 1), allocation=key
            )
        return self._opaque(value, max((self.uniformity(v) for v in op.operands), default=Uniformity.CTA))

def _successor_operands(op: Operation, index: int) -> Iterable[SSAValue]:
    if isinstance(op, (llvm.BrOp,)) or op.name == "cf.br":
        return op.operands
    if op.name in ("cf.cond_br", "llvm.cond_br"):
        return getattr(op, "then_arguments" if index == 0 else "else_arguments")
    if isinstance(op, SwitchOp):
        return op.successor_operands(index)
    return ()


def _is_election(condition: SSAValue) -> bool:
    """The predicate of elect.sync (tcgen05.elect_sync, nvvm.elect.sync)."""
    owner = condition.owner
    if not isinstance(owner, Operation):
        return False
    effect = tmem_effect(owner)
    return effect is not None and effect.kind is EffectKind.ELECT


def slot_key(pointer: SSAValue) -> object | None:
    """What identifies a shared-memory TMEM address slot: its global's name, or the value itself."""
    symbol = slot_symbol(pointer)
    if symbol is not None:
        return symbol
    if isinstance(pointer.type, llvm.LLVMPointerType) and pointer_address_space(pointer.type) in (
        GENERIC_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
    ):
        return pointer
    if isinstance(pointer.type, MemRefType):
        return pointer
    return None
