"""The TMEM dataflow of one kernel, warp by warp: outstanding async accesses, barrier intervals, fences and the allocation lifecycle, judged by memory_model's rules.

One engine serves tmem-verify and tmem-insert-waits. The state at a program point is, for
every warp that can be there, that warp's `Local` TMEM state; warps whose paths agree share one
(`WarpStates`). Branches on conditions computed from %tid send each warp only where it goes,
and branches on unknown but uniform conditions (a kernel flag) record their outcome in the
state, which keeps correlated branches apart (`if warp == 0 { alloc } ... if warp == 0
{ dealloc }`, `if flag { st } ... if flag { wait::st }`): the analysis is path-sensitive
exactly where kernels correlate branches.

Where a rule requires a wait or fence, the engine records a `Fix` and, from then on, behaves
as if it were there: insert-waits materializes the fixes; verify reports them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum

import numpy as np
from xdsl.dialects import llvm, memref
from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.diagnostics import Diagnostic, Severity, error, note, warning
from tmem_dialect.dialects.interfaces import TMEMEffect, tmem_effect
from tmem_dialect.memory_model import (
    HANDOFF,
    REGISTER_USE,
    EffectKind,
    Requirement,
    Rule,
    Wait,
    cross_thread_requirement,
    is_barrier_ordered,
    is_handoff,
    retired_by,
    rules_version,
    same_thread_requirement,
)
from tmem_dialect.passes.cells import (
    Anchor,
    Box,
    Certainty,
    Rect,
    based_on,
    disjoint_allocations,
    lane_known,
    overlap_at_distance,
    rects_of,
    split_anchor,
    warp_boxes,
)
from tmem_dialect.passes.cfg import CFG, Edge, ForwardSolver, Loop, Node
from tmem_dialect.passes.values import Form, Sym, ThreadSpace, Uniformity, Values, slot_key

# ---------------------------------------------------------------------------------------------
# Options, fixes, what each op is
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    ptx_version: tuple[int, int] = isa.DEFAULT_PTX_VERSION
    conservative: bool = False
    """Also require wait::ld before an ld's registers are used (the seed's stricter rule)."""
    insert: bool = False
    """Place every required wait/fence where it is cheapest (tmem-insert-waits); otherwise a
    definite violation is assumed fixed right where it is found, so it is reported once."""


class Action(Enum):
    WAIT_LD = "wait::ld"
    WAIT_ST = "wait::st"
    FENCE_BEFORE = "fence::before_thread_sync"
    FENCE_AFTER = "fence::after_thread_sync"

    @staticmethod
    def wait(w: Wait) -> Action:
        return Action.WAIT_LD if w is Wait.LD else Action.WAIT_ST

    @property
    def retires(self) -> EffectKind | None:
        return {Action.WAIT_LD: EffectKind.LD, Action.WAIT_ST: EffectKind.ST}.get(self)


# Order of new ops at one point: waits, then fence::before, (the op), then fence::after.
ACTION_ORDER = {Action.WAIT_LD: 0, Action.WAIT_ST: 1, Action.FENCE_BEFORE: 2, Action.FENCE_AFTER: 3}


@dataclass(frozen=True)
class Fix:
    """A wait or fence to place before `anchor` (fence::after: after it), serving `rules`."""

    anchor: Operation
    action: Action
    rules: tuple[Rule, ...]


class Category(Enum):
    EFFECT = "effect"
    SLOT_READ = "slot read"
    REGISTER_USE = "register use"
    ANCHOR = "anchor"
    """An op without TMEM effect where a hoisted wait may be placed (before a loop)."""


class OpInfo:
    """What the analysis needs to know about one op, computed once."""

    __slots__ = (
        "op", "index", "category", "effect", "kind", "anchor", "rest", "rects", "slot",
        "lds_used", "terms", "box", "ncols", "ncols_form",
    )

    def __init__(self, op: Operation, index: int, category: Category):
        self.op = op
        self.index = index
        self.category = category
        self.effect: TMEMEffect | None = None
        self.kind: EffectKind | None = None
        self.anchor: Anchor | None = None
        self.rest: Form | None = None
        self.rects: tuple[Rect, ...] | None = None
        self.slot: object | None = None
        self.lds_used: tuple[Operation, ...] = ()
        self.terms: dict[Sym, int] = {}
        """Every symbol of the address (anchor and rest) with its coefficient."""
        self.box: Box | None = None
        """Cells any warp may touch, relative to the anchor (a quick disjointness test)."""
        self.ncols: int | None = None
        """alloc/dealloc: the column count when it is a constant (also a computed one)."""
        self.ncols_form: Form | None = None
        """alloc/dealloc: the column count as a value (two equal forms are the same count)."""

    def __repr__(self) -> str:
        return f"OpInfo({self.op.name}#{self.index})"


def _name(info: OpInfo) -> str:
    return info.op.name


# ---------------------------------------------------------------------------------------------
# Per-warp state
# ---------------------------------------------------------------------------------------------

Shift = tuple[Sym, int, int | None]
"""An outstanding access from `d` in [lo, hi] iterations' worth of induction steps ago:
its induction variable had the value `iv - d`."""


class Access:
    """An outstanding ld/st (or mma/cp) of a warp (a value: equal fields, equal accesses)."""

    __slots__ = ("info", "shifts", "stale", "escaped", "_hash")

    def __init__(self, info: OpInfo, shifts: tuple[Shift, ...], stale: bool, escaped: Operation | None):
        self.info = info
        self.shifts = shifts
        self.stale = stale
        """Values its address used have changed since (a loop moved on): address unknown."""
        self.escaped = escaped
        """The first barrier it was still outstanding at."""
        self._hash = hash((id(info), shifts, stale, id(escaped)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Access)
            and self._hash == other._hash
            and self.info is other.info
            and self.shifts == other.shifts
            and self.stale == other.stale
            and self.escaped is other.escaped
        )

    @property
    def kind(self) -> EffectKind:
        assert self.info.kind is not None
        return self.info.kind

    def __repr__(self) -> str:
        return f"Access({self.info}{' stale' if self.stale else ''}{' escaped' if self.escaped else ''})"


class Local:
    """One warp's TMEM state at a program point (immutable, interned: compare with `is`)."""

    FIELDS = (
        "outstanding",  # frozenset[Access]: async accesses not yet waited for
        "epoch",  # frozenset[Operation | None]: the barriers that may have begun this interval
        "work",  # OpInfo | None: TMEM work of this warp since the last barrier
        "unfenced",  # OpInfo | None: TMEM work since this warp's last fence::before_thread_sync
        "pending",  # frozenset[(barrier, OpInfo, warps)]: barriers that ordered unfenced work
        "after_due",  # (barrier, warps) | None: barrier after TMEM work, no fence::after since
        "own_live",  # frozenset[OpInfo]: allocations this warp made and has not freed
        "known_live",  # frozenset[OpInfo]: other warps' allocations, published by a barrier
        "freed",  # frozenset[OpInfo]: allocations this warp freed on every path (must)
        "min_alloc",  # OpInfo | None: the smallest allocation so far
        "relinquished",  # OpInfo | None
        "slots",  # frozenset[object]: slots whose allocated address this warp may read
        "assume",  # frozenset[(SSAValue, bool)]: outcomes of unknown uniform branches on the path
    )
    __slots__ = FIELDS + ("key",)
    _interned: dict[tuple[object, ...], Local] = {}
    _INDEX = {name: i for i, name in enumerate(FIELDS)}

    def __init__(self, values: tuple[object, ...]):
        (
            self.outstanding, self.epoch, self.work, self.unfenced, self.pending, self.after_due,
            self.own_live, self.known_live, self.freed, self.min_alloc, self.relinquished,
            self.slots, self.assume,
        ) = values  # fmt: skip
        self.key = values

    @classmethod
    def make(cls, values: tuple[object, ...]) -> Local:
        found = cls._interned.get(values)
        if found is None:
            found = cls(values)
            cls._interned[values] = found
        return found

    def but(self, **changes: object) -> Local:
        values = list(self.key)
        for name, value in changes.items():
            values[self._INDEX[name]] = value
        return Local.make(tuple(values))

    @staticmethod
    def initial() -> Local:
        empty: frozenset[object] = frozenset()
        return Local.make(
            (empty, frozenset({None}), None, None, empty, None, empty, empty, empty, None, None, empty, empty)
        )

    outstanding: frozenset[Access]
    epoch: frozenset[Operation | None]
    work: OpInfo | None
    unfenced: OpInfo | None
    pending: frozenset[tuple[Operation, OpInfo, int]]
    after_due: tuple[Operation, int] | None
    own_live: frozenset[OpInfo]
    known_live: frozenset[OpInfo]
    freed: frozenset[OpInfo]
    min_alloc: OpInfo | None
    relinquished: OpInfo | None
    slots: frozenset[object]
    assume: frozenset[tuple[SSAValue, bool]]

    @property
    def core(self) -> tuple[object, ...]:
        """The TMEM facts without the path assumptions."""
        return self.key[:-1]


WarpStates = tuple[tuple[Local, int], ...]
"""(state, bitmask of warps in it) pairs. A warp is in several when its paths reached here with
different TMEM facts under different outcomes of unknown uniform conditions (which later
branches on the same conditions keep apart); otherwise in one."""

_MAX_PATH_STATES = 12


class _CtaFacts:
    """What the warps meeting at a barrier share."""

    def __init__(self) -> None:
        self.unfenced_warps = 0
        self.work_warps = 0
        self.unfenced: OpInfo | None = None
        self.slots: frozenset[object] = frozenset()
        self.live: frozenset[OpInfo] = frozenset()
        self.freed: frozenset[OpInfo] = frozenset()
        self.smallest: OpInfo | None = None
        self.relinquished: OpInfo | None = None

    def add(self, local: Local, mask: int) -> None:
        if local.unfenced is not None:
            self.unfenced_warps |= mask
            self.unfenced = _first(self.unfenced, local.unfenced)
        if local.work is not None:
            self.work_warps |= mask
        self.slots |= local.slots
        self.live |= local.own_live | local.known_live
        self.freed |= local.freed
        self.smallest = _smaller_alloc(self.smallest, local.min_alloc)
        self.relinquished = _first(self.relinquished, local.relinquished)


def _first(a: OpInfo | None, b: OpInfo | None) -> OpInfo | None:
    if a is None:
        return b
    if b is None:
        return a
    return a if a.index <= b.index else b


def _smaller_alloc(a: OpInfo | None, b: OpInfo | None) -> OpInfo | None:
    if a is None or b is None:
        return a or b
    na, nb = _least_ncols(a), _least_ncols(b)
    if na != nb:
        return a if na < nb else b
    return _first(a, b)


def _ncols(info: OpInfo) -> int:
    """The column count; an unknown count is taken as the largest (a dealloc's best match)."""
    return info.ncols or isa.TMEM_COLUMNS


def _least_ncols(info: OpInfo) -> int:
    """The smallest column count `info` may have (an unknown count may be the least legal)."""
    return info.ncols if info.ncols is not None else isa.NCOLS_MIN


def _same_ncols(a: OpInfo, b: OpInfo) -> bool:
    if a.ncols is not None and b.ncols is not None:
        return a.ncols == b.ncols
    return a.ncols_form is not None and b.ncols_form is not None and a.ncols_form.same_as(b.ncols_form)


def _few_warps(mask: int) -> str:
    return ", ".join(str(w) for w in range(mask.bit_length()) if mask >> w & 1)


def _warps_text(mask: int) -> str:
    single = not mask & (mask - 1)
    return f"warp{'' if single else 's'} {_few_warps(mask)} never reach{'es' if single else ''}"


def _other_warp(issuers: int, executing: int) -> bool:
    """Some warp in `executing` differs from some warp in `issuers`."""
    return bool(issuers and executing) and not (issuers == executing and issuers & (issuers - 1) == 0)


# ---------------------------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------------------------


@dataclass
class Findings:
    diagnostics: list[Diagnostic] = field(default_factory=list[Diagnostic])
    fixes: list[Fix] = field(default_factory=list[Fix])
    _seen: set[tuple[object, ...]] = field(default_factory=set[tuple[object, ...]])

    def add(self, key: tuple[object, ...], diagnostic: Diagnostic) -> None:
        if key not in self._seen:
            self._seen.add(key)
            self.diagnostics.append(diagnostic)


class KernelAnalysis:
    """Runs the dataflow over one function and collects diagnostics and fixes."""

    def __init__(self, function: Operation, options: Options):
        # Interned states and memos are per analysis (they are keyed by object identity).
        Local._interned.clear()
        _JOIN_MEMO.clear()
        self.function = function
        self.options = options
        self.cfg = CFG(function)
        self.space = ThreadSpace.of_kernel(function)
        self._box_cache: dict[OpInfo, list[tuple[Box, ...]] | None] = {}
        self._requirements: dict[EffectKind, dict[str, Requirement]] = {}
        self._waits_in: dict[Loop, set[EffectKind]] = {}
        self._trackable: dict[SSAValue, bool] = {}
        self.ops = list(function.walk())
        self.effects = {op: e for op in self.ops if (e := tmem_effect(op)) is not None}
        self.infos: dict[Node, list[OpInfo]] = {}
        self.info_of: dict[Operation, OpInfo] = {}
        slots = self._collect_slots()
        self.values = Values(function, self.cfg, self.space, slots, self.effects)
        self._build_infos()
        self._access_kinds = {
            i.op.name: i.kind for i in self.info_of.values() if i.kind is not None and i.kind.is_async_access
        }
        self.fixes_before: dict[Operation, dict[Action, set[Rule]]] = {}
        self.fixes_after: dict[Operation, dict[Action, set[Rule]]] = {}
        self.fix_reasons: dict[tuple[Operation, Action], Diagnostic] = {}
        self.findings = Findings()
        self._report = False
        self._local_fixes: dict[Node, list[tuple[Operation, Action]]] = {}
        self._placed_at_cause = 0
        # Waits placed away from their cause (in front of a loop), and the ops that wait right
        # before themselves anyway, which makes such a wait redundant for them.
        self._hoisted: dict[Operation, set[Action]] = {}
        self._waited_at_cause: set[tuple[Operation, Action]] = set()
        self._edge_masks: dict[Edge, int] = {}
        self._join_memo: dict[tuple[int, int], Local] = {}
        self._back_memo: dict[tuple[int, int], Local] = {}
        self._distance_memo: dict[tuple[Access, OpInfo, int], Certainty] = {}
        self.solver: ForwardSolver[WarpStates] = ForwardSolver(
            self.cfg,
            ((Local.initial(), self.space.all_warps),),
            self._transfer,
            self._edge,
            _join_states,
        )

    # ---- set-up ------------------------------------------------------------------------------

    def _collect_slots(self) -> set[object]:
        slots: set[object] = set()
        for effect in self.effects.values():
            if effect.kind is EffectKind.ALLOC and effect.address is not None:
                key = slot_key(effect.address)
                if key is not None:
                    slots.add(key)
        return slots

    def _build_infos(self) -> None:
        ld_results: dict[SSAValue, Operation] = {}
        anchors = {lp.entry_op for lp in self.cfg.loops if lp.entry_op is not None}
        # Source order (not graph order): "earlier" in a report means earlier in the text.
        position = {op: i for i, op in enumerate(self.ops)}
        for node in self.cfg.nodes:
            infos: list[OpInfo] = []
            for op in node.ops:
                index = position[op]
                info = self._info(op, index, ld_results)
                if info is None and op in anchors:
                    info = OpInfo(op, index, Category.ANCHOR)
                if info is not None:
                    infos.append(info)
                    self.info_of[op] = info
            self.infos[node] = infos

    def _info(self, op: Operation, index: int, ld_results: dict[SSAValue, Operation]) -> OpInfo | None:
        effect = self.effects.get(op)
        if effect is not None:
            info = OpInfo(op, index, Category.EFFECT)
            info.effect = effect
            info.kind = effect.kind
            if effect.kind in (EffectKind.ALLOC, EffectKind.DEALLOC):
                info.ncols = effect.ncols
                if effect.ncols is not None:
                    info.ncols_form = Form(effect.ncols)
                elif effect.ncols_value is not None:
                    info.ncols_form = self.values.form(effect.ncols_value)
                    if info.ncols_form is not None and info.ncols_form.uniformity(self.space) is Uniformity.CTA:
                        info.ncols = info.ncols_form.constant
            if effect.kind is EffectKind.ALLOC and effect.address is not None:
                info.slot = slot_key(effect.address)
            elif effect.address is not None:
                form = self.values.form(effect.address)
                info.rects = rects_of(effect)
                if form is not None:
                    info.anchor, info.rest = split_anchor(form)
                    info.slot = based_on(form)
                    info.terms = dict(form.terms)
                    info.box = self._union_box(info)
            if effect.kind is EffectKind.LD and effect.registers is not None:
                ld_results[effect.registers] = op
            return info
        if isinstance(op, (llvm.LoadOp, memref.LoadOp)):
            key = slot_key(op.operands[0])
            if key is not None and key in self.values.slots:
                info = OpInfo(op, index, Category.SLOT_READ)
                info.slot = key
                return info
        if self.options.conservative:
            used = tuple(ld_results[v] for v in op.operands if v in ld_results)
            if used:
                info = OpInfo(op, index, Category.REGISTER_USE)
                info.lds_used = used
                return info
        return None

    def _union_box(self, info: OpInfo) -> Box | None:
        per_warp = self._boxes(info)
        if per_warp is None:
            return None
        boxes = [b for warp in per_warp for b in warp]
        return Box(
            min(b.lane_lo for b in boxes),
            max(b.lane_hi for b in boxes),
            min(b.col_lo for b in boxes),
            max(b.col_hi for b in boxes),
            False,
        )

    # ---- running -----------------------------------------------------------------------------

    def run(self) -> Findings:
        self.solver.run()
        self._report_pass()
        if self._handoff_fixes:
            # Waits placed before handoff barriers (found only once every warp's accesses are
            # known) may make waits placed at single accesses redundant: solve once more with
            # them in place; the waits still needed come back.
            self._local_fixes_dropped()
            self._waited_at_cause.clear()
            self.findings = Findings()
            self.solver = ForwardSolver(
                self.cfg, self.solver.initial, self._transfer, self._edge, _join_states
            )
            self._report = False
            self.solver.run()
            self._report_pass()
        if self.options.insert:
            self._drop_idle_waits()
        self._check_static()
        self.findings.diagnostics.extend(self.fix_reasons.values())
        for table in (self.fixes_before, self.fixes_after):
            for anchor, actions in table.items():
                self.findings.fixes.extend(
                    Fix(anchor, a, tuple(sorted(r, key=lambda rule: rule.number)))
                    for a, r in actions.items()
                )
        return self.findings

    def _report_pass(self) -> None:
        """Replay every node once on its final state, collecting what only the whole picture
        shows: events per barrier interval, warps per op, the state at kernel exit."""
        self._report = True
        self._handoff_fixes = False
        self._retiring: set[tuple[Operation, Action]] = set()
        self._replayed = {(anchor, action) for anchor, actions in self.fixes_before.items() for action in actions}
        self._events: dict[Operation | None, dict[tuple[OpInfo, Operation | None], int]] = {}
        self._op_masks: dict[OpInfo, int] = {}
        self._node_masks: dict[Node, int] = {}
        self._slot_reads: list[
            tuple[OpInfo, int, frozenset[Operation | None], bool, frozenset[tuple[SSAValue, bool]]]
        ] = []
        for node in self.cfg.nodes:
            state = self.solver.in_state.get(node)
            if state is None:
                continue
            mask = 0
            for _, m in state:
                mask |= m
            self._node_masks[node] = mask
            if node is self.cfg.exit:
                self._check_exit(state)
            self._transfer(node, state)
        self._check_intervals()

    def _local_fixes_dropped(self) -> None:
        for fixes in self._local_fixes.values():
            for anchor, action in fixes:
                actions = self.fixes_before.get(anchor, {})
                actions.pop(action, None)
                if not actions:
                    self.fixes_before.pop(anchor, None)
        self._local_fixes.clear()

    # ---- transfer ----------------------------------------------------------------------------

    def _transfer(self, node: Node, state: WarpStates) -> WarpStates:
        # A wait placed at its cause retires accesses in the warp state that needed it, but the
        # states of other warps and paths went through the op before it existed: run the node
        # again until it adds none, so every state leaving it has the wait (each op gets a wait
        # of a kind once, which bounds the reruns). The replay runs each node once, by design.
        while True:
            placed = self._placed_at_cause
            out = self._transfer_once(node, state)
            if self._report or self._placed_at_cause == placed:
                return out

    def _transfer_once(self, node: Node, state: WarpStates) -> WarpStates:
        for info in self.infos[node]:
            before = self.fixes_before.get(info.op)
            if before:
                if self._report:
                    self._note_retiring(info.op, before, state)
                state = self._apply(before, state)
            if info.kind is not None and is_handoff(info.kind):
                state = self._barrier(info, state)
            else:
                state = _canonical([(self._step(info, local, mask), mask) for local, mask in state])
            after = self.fixes_after.get(info.op)
            if after:
                state = self._apply(after, state)
        # Ops a fix may be anchored at that carry no TMEM effect (loop ops, branch terminators).
        return state

    def _note_retiring(self, anchor: Operation, actions: dict[Action, set[Rule]], state: WarpStates) -> None:
        """Which placed waits retire an outstanding access on some path (the others go)."""
        for action in actions:
            kind = action.retires
            if kind is not None and any(a.kind is kind for local, _ in state for a in local.outstanding):
                self._retiring.add((anchor, action))

    def _drop_idle_waits(self) -> None:
        """Drop placed waits that retire nothing on any path of the final solution: a wait at its
        cause may have made one placed earlier (before a handoff barrier) idle. Without effect
        on any state, removing them changes nothing else. (Waits placed during the replay itself
        were not seen by it: they stay.)"""
        for anchor, actions in list(self.fixes_before.items()):
            for action in [a for a in actions if a.retires is not None]:
                if (anchor, action) in self._replayed and (anchor, action) not in self._retiring:
                    del actions[action]
                    self.fix_reasons.pop((anchor, action), None)
            if not actions:
                del self.fixes_before[anchor]

    def _apply(self, actions: dict[Action, set[Rule]], state: WarpStates) -> WarpStates:
        out = []
        for local, mask in state:
            for action in actions:
                local = self._virtual(action, local)
            out.append((local, mask))
        return _canonical(out)

    def _virtual(self, action: Action, local: Local) -> Local:
        retires = action.retires
        if retires is not None:
            return self._retire(local, retires)
        if action is Action.FENCE_BEFORE:
            return local.but(unfenced=None) if local.unfenced is not None else local
        return local.but(after_due=None) if local.after_due is not None else local

    def _retire(self, local: Local, kind: EffectKind) -> Local:
        kept = frozenset(a for a in local.outstanding if a.kind is not kind)
        return local if len(kept) == len(local.outstanding) else local.but(outstanding=kept)

    def _step(self, info: OpInfo, local: Local, mask: int) -> Local:
        if self._report:
            self._op_masks[info] = self._op_masks.get(info, 0) | mask
        if info.category is Category.SLOT_READ:
            if self._report:
                visible = info.slot in local.slots
                self._slot_reads.append((info, mask, local.epoch, visible, self._cta_assumptions(local)))
                self._record(info, None, local, mask)
            return local
        if info.category is Category.REGISTER_USE:
            return self._register_use(info, local, mask)
        if info.category is Category.ANCHOR:
            return local
        kind = info.kind
        assert kind is not None
        if kind in (EffectKind.WAIT_LD, EffectKind.WAIT_ST):
            retired = retired_by(kind)
            assert retired is not None
            return self._retire(local, retired)
        if kind is EffectKind.FENCE_BEFORE:
            return local.but(unfenced=None) if local.unfenced is not None else local
        if kind is EffectKind.FENCE_AFTER:
            return local.but(after_due=None) if local.after_due is not None else local
        if is_barrier_ordered(kind):
            local = self._fences_for(info, local, mask)
        if kind.is_async_access or kind is EffectKind.DEALLOC:
            local = self._same_thread(info, local, mask)
        if self._report:
            self._record(info, None, local, mask)
        if kind.is_async_access:
            access = self._access(info, (), False, None)
            local = local.but(outstanding=local.outstanding | {access})
        elif kind is EffectKind.ALLOC:
            local = self._alloc(info, local, mask)
        elif kind is EffectKind.DEALLOC:
            local = self._dealloc(info, local, mask)
        elif kind is EffectKind.RELINQUISH:
            local = local.but(relinquished=_first(local.relinquished, info))
        return local

    def _record(self, info: OpInfo, escaped: Operation | None, local: Local, mask: int) -> None:
        key = (info, escaped, self._cta_assumptions(local))
        for label in local.epoch:
            events = self._events.setdefault(label, {})
            events[key] = events.get(key, 0) | mask

    def _cta_assumptions(self, local: Local) -> frozenset[tuple[SSAValue, bool]]:
        return frozenset(
            (c, s) for c, s in local.assume if self.values.uniformity(c) is Uniformity.CTA
        )

    def _access(
        self, info: OpInfo, shifts: tuple[Shift, ...], stale: bool, escaped: Operation | None
    ) -> Access:
        return Access(info, shifts, stale, escaped)

    # ---- fences (rule 3's canonical form) ----------------------------------------------------

    def _fences_for(self, info: OpInfo, local: Local, mask: int) -> Local:
        """`info` is TMEM work: the barriers before it that order other warps' work need fences."""
        changes: dict[str, object] = {}
        if local.pending:
            kept = []
            for barrier, earlier, issuers in local.pending:
                if _other_warp(issuers, mask):
                    self._require_fence(barrier, Action.FENCE_BEFORE, earlier, info)
                else:
                    kept.append((barrier, earlier, issuers))
            if len(kept) != len(local.pending):
                changes["pending"] = frozenset(kept)
        if local.after_due is not None:
            barrier, issuers = local.after_due
            if _other_warp(issuers, mask):
                self._require_fence(barrier, Action.FENCE_AFTER, None, info)
                changes["after_due"] = None
        if local.work is None:
            changes["work"] = info
        if local.unfenced is None:
            changes["unfenced"] = info
        return local.but(**changes) if changes else local

    def _require_fence(
        self, barrier: Operation, action: Action, earlier: OpInfo | None, later: OpInfo
    ) -> None:
        table = self.fixes_before if action is Action.FENCE_BEFORE else self.fixes_after
        actions = table.setdefault(barrier, {})
        if action in actions:
            return
        actions[action] = {HANDOFF}
        where = "before" if action is Action.FENCE_BEFORE else "after"
        diag = warning(
            barrier,
            f"this barrier orders TMEM work between warps but has no tcgen05.{action.value} "
            f"{where} it: the canonical pattern of {HANDOFF.cite()} fences both sides "
            "(Triton and CuTe output omit the fences)",
        )
        if earlier is not None:
            diag.attach_note(f"{_name(earlier)} is ordered by the barrier", earlier.op)
        diag.attach_note(f"{_name(later)} in another warp runs after it", later.op)
        self.fix_reasons[(barrier, action)] = diag
        self._requeue(barrier, action)

    def _requeue(self, op: Operation, action: Action) -> None:
        """A wait or fence placed away from where it was found removes facts that may already
        flow downstream (and around loops): solve that part again. Waits and fences placed
        there so far may rest on those facts: drop them; what is still needed comes back."""
        node = self.cfg.node_of.get(op)
        if node is None:
            return
        region = self.solver.restart_from(node)
        # Only waits placed right where they were found are dropped: they come back without
        # restarting anything, so the waits placed away from their cause (each added once)
        # bound the number of restarts.
        for member in region:
            for anchor, other in self._local_fixes.pop(member, ()):
                actions = self.fixes_before.get(anchor, {})
                actions.pop(other, None)
                if not actions:
                    self.fixes_before.pop(anchor, None)

    # ---- same-thread rules 1, 2 and 4 --------------------------------------------------------

    def _same_thread(self, info: OpInfo, local: Local, mask: int) -> Local:
        if not local.outstanding:
            return local
        assert info.kind is not None
        conflicts: dict[Wait, list[tuple[Access, Certainty, Requirement]]] = {}
        needs = self._requirements_after(info.kind)
        for access in local.outstanding:
            req = needs.get(access.info.op.name) if needs else None
            if req is None:
                continue
            certainty = self._same_thread_overlap(access, info, mask)
            if certainty is not Certainty.NONE:
                conflicts.setdefault(req.wait, []).append((access, certainty, req))
        for wait, found in sorted(conflicts.items(), key=lambda kv: kv[0].value):
            definite = [f for f in found if f[1] is Certainty.DEFINITE]
            if self._report:
                self._report_same_thread(info, found)
            if self.options.insert or definite:
                rule = (definite or found)[0][2].rule
                anchor = self._wait_position(info, wait, [a for a, _, _ in found], local)
                local = self._place_wait(anchor, info, wait, rule, local)
        return local

    def _requirements_after(self, later: EffectKind) -> dict[str, Requirement]:
        """By op name (a cheap key) of an outstanding access, the wait `later` needs after it."""
        found = self._requirements.get(later)
        if found is None:
            found = {}
            for op_name, earlier in self._access_kinds.items():
                req = same_thread_requirement(earlier, later, self.options.ptx_version)
                if req is not None and req.wait is not None:
                    found[op_name] = req
            self._requirements[later] = found
        return found

    def _place_wait(self, anchor: Operation, at: OpInfo, wait: Wait, rule: Rule, local: Local) -> Local:
        action = Action.wait(wait)
        if not self.options.insert:
            # verify: assume the reported violation fixed right here, so it is reported once.
            return self._virtual(action, local)
        actions = self.fixes_before.setdefault(anchor, {})
        if action not in actions:
            actions[action] = {rule}
            if anchor is not at.op:
                self._requeue(anchor, action)
            else:
                self._local_fixes.setdefault(self.cfg.node_of[anchor], []).append((anchor, action))
                self._placed_at_cause += 1
        else:
            actions[action].add(rule)
        if anchor is not at.op:
            self._hoisted.setdefault(anchor, set()).add(action)
            return local
        if (at.op, action) not in self._waited_at_cause:
            self._waited_at_cause.add((at.op, action))
            self._drop_hoisted_for(at.op, action)
        return self._virtual(action, local)

    def _drop_hoisted_for(self, op: Operation, action: Action) -> None:
        """`op` waits right before itself after all (a later iteration of its loop needs that),
        and that wait retires whatever a wait of the same kind hoisted in front of the loop did
        for it. Drop such hoisted waits: solving the loop again brings one back if another op
        still needs it. Each op does this once per wait kind, which bounds the restarts."""
        for loop in self.cfg.loops_of(op):
            anchor = loop.entry_op
            hoisted = self._hoisted.get(anchor) if anchor is not None else None
            if hoisted is None or action not in hoisted:
                continue
            hoisted.discard(action)
            actions = self.fixes_before.get(anchor, {})
            actions.pop(action, None)
            if not actions:
                self.fixes_before.pop(anchor, None)
            self._requeue(anchor, action)

    def _wait_position(self, at: OpInfo, wait: Wait, accesses: list[Access], local: Local) -> Operation:
        """Where one wait serving `at` costs least: for a dealloc of accesses issued before the
        last barrier, before that barrier (the other warps need their wait there anyway, rule 4);
        else outside every loop that issued none of them (unless `at` needs its own wait anyway);
        else right before `at`."""
        if not self.options.insert or (at.op, Action.wait(wait)) in self._waited_at_cause:
            return at.op
        loops = self.cfg.loops_of(at.op)
        if at.kind is EffectKind.DEALLOC and all(a.escaped is not None for a in accesses):
            # Outstanding since before a barrier, they were outstanding at the last one too.
            if len(local.epoch) == 1 and (barrier := next(iter(local.epoch))) is not None:
                if set(self.cfg.loops_of(barrier)) <= set(loops):
                    return barrier
        for loop in loops:
            if loop.entry_op is None:
                continue
            if not any(loop.contains_op(self.cfg, a.info.op) for a in accesses):
                return loop.entry_op
        return at.op

    def _same_thread_overlap(self, access: Access, info: OpInfo, mask: int) -> Certainty:
        key = (access, info, mask)
        found = self._distance_memo.get(key)
        if found is None:
            found = self._distance_overlap(access, info, mask)
            self._distance_memo[key] = found
        return found

    def _distance_overlap(self, access: Access, info: OpInfo, mask: int) -> Certainty:
        earlier = access.info
        if earlier.rects is None or info.rects is None:
            return Certainty.MAY
        if earlier.anchor is None or info.anchor is None:
            return Certainty.MAY
        if earlier.slot is not None and info.slot is not None and earlier.slot != info.slot:
            return Certainty.NONE  # two live allocations never share cells
        if (
            earlier.box is not None
            and info.box is not None
            and earlier.anchor == info.anchor
            and not earlier.box.meets(info.box)
        ):
            return Certainty.NONE  # every value the addresses can take keeps them apart
        if access.stale:
            return Certainty.MAY
        assert earlier.rest is not None and info.rest is not None
        terms = dict(info.terms)
        for sym, c in earlier.terms.items():
            terms[sym] = terms.get(sym, 0) - c
        diff = Form(info.rest.const - earlier.rest.const, tuple((t, c) for t, c in terms.items() if c))
        extra_lo: int | None = 0
        extra_hi: int | None = 0
        shifted = False
        for sym, lo, hi in access.shifts:
            c = earlier.terms.get(sym, 0)
            if not c:
                continue
            shifted = True
            a = c * lo
            b = c * hi if hi is not None else None
            if b is None:
                if c > 0:
                    extra_lo = None if extra_lo is None else extra_lo + a
                    extra_hi = None
                else:
                    extra_hi = None if extra_hi is None else extra_hi + a
                    extra_lo = None
            else:
                extra_lo = None if extra_lo is None else extra_lo + min(a, b)
                extra_hi = None if extra_hi is None else extra_hi + max(a, b)
        ranged = False
        for sym, c in diff.terms:
            if not sym.bounded:
                return Certainty.MAY
            a, b = c * sym.lo, c * sym.hi  # type: ignore[operator]
            ranged = True
            extra_lo = None if extra_lo is None else extra_lo + min(a, b)
            extra_hi = None if extra_hi is None else extra_hi + max(a, b)
        best = Certainty.NONE
        if isinstance(diff.const, int):
            consts = [(diff.const, diff.const)]
        else:
            lo_arr, hi_arr = self.space.warp_min_max(diff.const)
            consts = [(int(lo_arr[w]), int(hi_arr[w])) for w in self.space.warps(mask)]
        for c_lo, c_hi in consts:
            d_lo = None if extra_lo is None else c_lo + extra_lo
            d_hi = None if extra_hi is None else c_hi + extra_hi
            found = overlap_at_distance(d_lo, d_hi, earlier.rects, info.rects)
            if found is Certainty.MAY and shifted and not ranged and d_lo is not None:
                # The nearest earlier iteration (distance lo) is a real one when the loop
                # repeats: overlapping there is definite.
                if overlap_at_distance(d_lo, d_lo, earlier.rects, info.rects) is Certainty.DEFINITE:
                    found = Certainty.DEFINITE if self._repeats(access) else found
            if found is Certainty.MAY and ranged and not shifted and c_lo == c_hi:
                if self._overlaps_for_every_iteration(access, info, diff, c_lo):
                    found = Certainty.DEFINITE
            best = max(best, found)
            if best is Certainty.DEFINITE:
                break
        return best

    def _overlaps_for_every_iteration(self, access: Access, info: OpInfo, diff: Form, const: int) -> bool:
        """Definite for loops over chunks: the earlier access ran in loops that have finished
        (every iteration's instance still outstanding: no retiring wait in them), and for every
        iteration of the loops around `info` some earlier instance overlaps exactly."""
        earlier = access.info
        assert earlier.rects is not None and info.rects is not None
        here = set(self.cfg.loops_of(info.op))
        later_vars: list[tuple[list[int], int]] = []
        earlier_vars: list[tuple[list[int], int]] = []
        for sym, c in diff.terms:
            values = _induction_values(sym)
            loop = sym.induction_of
            if values is None or loop is None:
                return False
            if sym in info.terms and sym not in earlier.terms and loop in here:
                later_vars.append((values, c))
            elif sym in earlier.terms and sym not in info.terms and loop not in here:
                if access.kind in self._loop_waits(loop):
                    return False
                earlier_vars.append((values, c))
            else:
                return False
        later_sums = _combinations(later_vars)
        earlier_sums = _combinations(earlier_vars)
        if later_sums is None or earlier_sums is None:
            return False
        return all(
            any(
                overlap_at_distance(const + a + b, const + a + b, earlier.rects, info.rects)
                is Certainty.DEFINITE
                for b in earlier_sums
            )
            for a in later_sums
        )

    def _loop_waits(self, loop: Loop) -> set[EffectKind]:
        """The access kinds a wait somewhere inside `loop` retires."""
        found = self._waits_in.get(loop)
        if found is None:
            found = set()
            for node in loop.nodes:
                for i in self.infos[node]:
                    if i.kind in (EffectKind.WAIT_LD, EffectKind.WAIT_ST):
                        found.add(retired_by(i.kind))
            self._waits_in[loop] = found  # type: ignore[assignment]
        return found  # type: ignore[return-value]

    def _repeats(self, access: Access) -> bool:
        for sym, _, _ in access.shifts:
            loop = sym.induction_of
            op = loop.op if loop is not None else None
            if op is None or loop is None or (loop.trip_count or 0) < 2:
                return False
        return True

    def _report_same_thread(self, info: OpInfo, found: list[tuple[Access, Certainty, Requirement]]) -> None:
        definite = [f for f in found if f[1] is Certainty.DEFINITE]
        access, certainty, req = (definite or found)[0]
        earlier = access.info
        assert req.wait is not None
        wait = f"tcgen05.{req.wait.value}"
        what = _verb(info.kind)
        still = "reads" if access.kind is EffectKind.LD else "writes"
        if certainty is Certainty.DEFINITE:
            if info.kind is EffectKind.DEALLOC:
                text = (
                    f"{_name(info)} frees TMEM cells that an outstanding {_name(earlier)} of the "
                    f"same warp still {still}: {wait} must come before it ({req.rule.cite()})"
                )
            else:
                text = (
                    f"{_name(info)} {what} TMEM cells that an outstanding {_name(earlier)} of the "
                    f"same warp still {still}: {wait} must come between them ({req.rule.cite()})"
                )
            diag = error(info.op, text)
        else:
            diag = warning(
                info.op,
                f"cannot prove that {_name(info)} and an outstanding {_name(earlier)} of the same "
                f"warp touch different TMEM cells; {wait} between them would order them "
                f"({req.rule.cite()})",
            )
        diag.attach_note(f"the outstanding {_name(earlier)}", earlier.op)
        self.findings.add(("same-thread", info.op, req.wait), diag)

    # ---- conservative register use -----------------------------------------------------------

    def _register_use(self, info: OpInfo, local: Local, mask: int) -> Local:
        pending = [a for a in local.outstanding if a.info.op in info.lds_used]
        if not pending:
            return local
        if self._report:
            diag = note(
                info.op,
                "conservative: uses the registers of a tcgen05.ld before tcgen05.wait::ld (legal: "
                "the ISA honors the register dependency; the seed's stricter rule waits first)",
            )
            diag.attach_note("the tcgen05.ld", pending[0].info.op)
            self.findings.add(("register-use", info.op), diag)
        anchor = self._wait_position(info, Wait.LD, pending, local)
        return self._place_wait(anchor, info, Wait.LD, REGISTER_USE, local)

    # ---- barriers ----------------------------------------------------------------------------

    def _barrier(self, info: OpInfo, state: WarpStates) -> WarpStates:
        """Every warp meets here: each learns what the others did before (allocations, frees,
        relinquish, unfenced work), from the paths that can happen in the same run as its own."""
        barrier = info.op
        all_warps = 0
        for _, mask in state:
            all_warps |= mask
        if self._report:
            self._op_masks[info] = self._op_masks.get(info, 0) | all_warps
            self._check_barrier(info, all_warps)
        out = []
        for local, mask in state:
            cta = _CtaFacts()
            for other, other_mask in state:
                if other is local or self._compatible(local, other):
                    cta.add(other, other_mask)
            escaped = []
            for access in local.outstanding:
                if self._report:
                    self._record_escape(access, barrier, mask, local)
                escaped.append(
                    access if access.escaped is not None
                    else self._access(access.info, access.shifts, access.stale, barrier)
                )
            pending = local.pending
            if cta.unfenced is not None:
                pending = pending | {(barrier, cta.unfenced, cta.unfenced_warps)}
            own = local.own_live - cta.freed
            out.append(
                (
                    local.but(
                        outstanding=frozenset(escaped),
                        epoch=frozenset({barrier}),
                        work=None,
                        unfenced=None,
                        pending=pending,
                        after_due=(barrier, cta.work_warps) if cta.work_warps else local.after_due,
                        own_live=own,
                        known_live=(cta.live - cta.freed) - own,
                        min_alloc=cta.smallest,
                        relinquished=cta.relinquished,
                        slots=cta.slots,
                    ),
                    mask,
                )
            )
        return _canonical(out)

    def _record_escape(self, access: Access, barrier: Operation, mask: int, local: Local) -> None:
        events = self._events.setdefault(barrier, {})
        key = (access.info, access.escaped or barrier, self._cta_assumptions(local))
        events[key] = events.get(key, 0) | mask

    def _check_barrier(self, info: OpInfo, warps: int) -> None:
        op = info.op
        if getattr(op, "numberOfThreads", None) is not None:
            self.findings.add(
                ("named-barrier", op),
                warning(op, "a barrier with a thread count synchronizes only some warps; the TMEM "
                        "checks treat it as a barrier of the whole CTA"),
            )
        missing = self.space.all_warps & ~warps
        if missing and self.space.declared:
            self.findings.add(
                ("barrier-reach", op),
                warning(op, f"{_warps_text(missing)} this barrier; the TMEM checks "
                        "assume every warp of the CTA takes part in it"),
            )

    # ---- allocation lifecycle ----------------------------------------------------------------

    def _check_ncols(self, info: OpInfo) -> None:
        """nCols is a power of 2 in [32, 512], the same in every thread of the warp (ISA)."""
        op, form = info.op, info.ncols_form
        if info.ncols is not None:
            if err := isa.ncols_error(info.ncols):
                self.findings.add(("ncols", op), error(op, err))
        elif form is not None and form.uniformity(self.space) is Uniformity.THREAD:
            sure = form.is_concrete
            self.findings.add(
                ("ncols", op),
                (error if sure else warning)(
                    op, f"{op.name} is warp-collective but its column count "
                    f"{'differs' if sure else 'may differ'} between the threads of a warp"
                ),
            )
        elif info.kind is EffectKind.ALLOC:
            self.findings.add(
                ("ncols", op),
                warning(op, "the column count is not a constant: cannot check that it is a power "
                        f"of 2 in [{isa.NCOLS_MIN}, {isa.NCOLS_MAX}]"),
            )

    def _alloc(self, info: OpInfo, local: Local, mask: int) -> Local:
        if self._report:
            self._check_ncols(info)
            if local.relinquished is not None:
                self.findings.add(
                    ("alloc-after-relinquish", info.op),
                    error(info.op, "tcgen05.alloc is reachable after tcgen05.relinquish_alloc_permit: "
                          "the CTA gave up its right to allocate").attach_note(
                        "the CTA relinquished its allocation permit here", local.relinquished.op
                    ),
                )
            earlier = local.min_alloc
            if earlier is not None and earlier.ncols is not None and info.ncols is not None:
                if earlier.ncols < info.ncols:
                    self.findings.add(
                        ("alloc-grows", info.op),
                        error(info.op, f"tcgen05.alloc of {info.ncols} columns follows an allocation of "
                              f"{earlier.ncols} columns on some path: allocation sizes must not "
                              "increase within a CTA").attach_note(
                            f"the earlier allocation of {earlier.ncols} columns", earlier.op
                        ),
                    )
            elif (
                earlier is not None
                and not _same_ncols(earlier, info)
                and info.ncols != isa.NCOLS_MIN
                and earlier.ncols != isa.NCOLS_MAX
            ):
                self.findings.add(
                    ("alloc-grows", info.op),
                    warning(info.op, "cannot tell whether this tcgen05.alloc asks for more columns "
                            "than an earlier allocation on some path (a column count is not a "
                            "constant): allocation sizes must not increase within a CTA").attach_note(
                        "the earlier allocation", earlier.op
                    ),
                )
        smallest = _smaller_alloc(local.min_alloc, info)
        slots = local.slots | {info.slot} if info.slot is not None else local.slots
        return local.but(own_live=local.own_live | {info}, min_alloc=smallest, slots=slots)

    def _dealloc(self, info: OpInfo, local: Local, mask: int) -> Local:
        live = local.own_live | local.known_live
        if info.slot is None:
            if self._report:
                self.findings.add(
                    ("dealloc-unknown", info.op),
                    warning(info.op, "cannot tell which allocation this tcgen05.dealloc frees: its "
                            "address is not loaded from a tcgen05.alloc slot"),
                )
            matching = [a for a in live if _ncols(a) == _ncols(info)][:1]
        else:
            matching = sorted((a for a in live if a.slot == info.slot), key=lambda a: a.index)
        if self._report:
            self._check_ncols(info)
            self._check_dealloc(info, local, matching)
        if not matching:
            return local
        freed = matching[0]
        return local.but(
            own_live=local.own_live - {freed},
            known_live=local.known_live - {freed},
            freed=local.freed | {freed},
        )

    def _check_dealloc(self, info: OpInfo, local: Local, matching: list[OpInfo]) -> None:
        op = info.op
        allocs = [i for i in self.info_of.values() if i.kind is EffectKind.ALLOC and i.slot == info.slot]
        if not matching:
            if info.slot is None:
                return
            diag = error(op, "tcgen05.dealloc frees TMEM that is not allocated on some path to it "
                         "(never allocated, or already freed)")
            for a in allocs[:1]:
                diag.attach_note("the allocation it would free", a.op)
            self.findings.add(("dealloc-unallocated", op), diag)
            return
        alloc = matching[0]
        assert info.effect is not None and alloc.effect is not None
        if info.ncols is not None and alloc.ncols is not None:
            if info.ncols != alloc.ncols:
                self.findings.add(
                    ("dealloc-size", op),
                    error(op, f"tcgen05.dealloc frees {info.ncols} columns but the allocation "
                          f"it frees has {alloc.ncols}").attach_note(
                        f"allocated {alloc.ncols} columns here", alloc.op
                    ),
                )
        elif not _same_ncols(info, alloc):
            self.findings.add(
                ("dealloc-size", op),
                warning(op, "cannot tell whether this tcgen05.dealloc frees as many columns as the "
                        "allocation it frees (a column count is not a constant)").attach_note(
                    "the allocation", alloc.op
                ),
            )
        rest = info.rest
        if rest is not None and rest.constant is not None and rest.constant != 0:
            lanes, cols = isa.taddr_step(rest.constant)
            self.findings.add(
                ("dealloc-offset", op),
                error(op, "tcgen05.dealloc must get the address tcgen05.alloc returned; this one is "
                      f"offset by {lanes} lanes and {cols} columns").attach_note(
                    "the allocation", alloc.op
                ),
            )

    def _check_exit(self, state: WarpStates) -> None:
        returns = [e.source.ops[-1] for e in self.cfg.exit.preds if e.source.ops]
        for local, mask in state:
            for alloc in sorted(local.own_live, key=lambda a: a.index):
                if self._surely_freed_elsewhere(alloc, local, mask, state):
                    continue
                diag = error(alloc.op, "TMEM allocated here may still be allocated when the kernel "
                             "exits: every path must tcgen05.dealloc it")
                exit_op = self._leaking_exit(alloc, returns)
                if exit_op is not None:
                    diag.attach_note("a path leaves the kernel here with it allocated", exit_op)
                self.findings.add(("leak", alloc.op), diag)

    def _surely_freed_elsewhere(self, alloc: OpInfo, local: Local, mask: int, state: WarpStates) -> bool:
        """Some other warp frees `alloc` on every one of its paths that can run with this one."""
        owner = (mask & -mask).bit_length() - 1
        for warp in self.space.warps(self.space.all_warps & ~(1 << owner)):
            paths = [
                other for other, m in state
                if m >> warp & 1 and (other is local or self._compatible(local, other))
            ]
            if paths and all(alloc in other.freed for other in paths):
                return True
        return False

    def _leaking_exit(self, alloc: OpInfo, returns: list[Operation]) -> Operation | None:
        for edge in self.cfg.exit.preds:
            state = self.solver.edge_state.get(edge)
            if state is None or not edge.source.ops:
                continue
            if any(alloc in local.own_live for local, _ in state):
                return edge.source.ops[-1]
        return returns[0] if returns else None

    # ---- edges -------------------------------------------------------------------------------

    def _edge(self, edge: Edge, state: WarpStates) -> WarpStates | None:
        allowed = self._edge_mask(edge)
        outcome = self._assumption(edge)
        out = []
        for local, mask in state:
            m = mask & allowed
            if not m:
                continue
            if outcome is not None:
                condition, sense = outcome
                if (condition, not sense) in local.assume:
                    continue  # this path already took the other way at the same condition
                if outcome not in local.assume:
                    local = local.but(assume=local.assume | {outcome})
            if edge.back_of is not None:
                local = self._next_iteration(local, edge.back_of)
            out.append((local, m))
        if not out:
            return None
        return _normalize(out) if outcome is not None or len(out) > 1 else tuple(out)

    def _assumption(self, edge: Edge) -> tuple[SSAValue, bool] | None:
        """The outcome an edge records: for a condition no thread id decides, that is the same
        for a whole warp (or CTA) and the same every time it is tested (not loop-defined)."""
        branch = edge.source.branch
        if edge.sense is None or branch is None or branch.condition is None:
            return None
        condition = branch.condition
        if condition not in self._trackable:
            split = self.values.split(condition)
            form = self.values.form(condition)
            self._trackable[condition] = (
                (split is None or not split.exact)
                and self.values.uniformity(condition) <= Uniformity.WARP
                and form is not None
                and all(sym.loop is None for sym, _ in form.terms)
            )
        return (condition, edge.sense) if self._trackable[condition] else None

    def _compatible(self, a: Local, b: Local) -> bool:
        """Two warps' paths can happen in one run: no CTA-uniform condition went both ways."""
        if not a.assume or not b.assume:
            return True
        return not any(
            (c, not s) in b.assume and self.values.uniformity(c) is Uniformity.CTA for c, s in a.assume
        )

    def _edge_mask(self, edge: Edge) -> int:
        found = self._edge_masks.get(edge)
        if found is None:
            found = self.space.all_warps
            branch = edge.source.branch
            if edge.sense is not None and branch is not None and branch.condition is not None:
                split = self.values.split(branch.condition)
                if split is not None:
                    found = split.may_true if edge.sense else split.may_false
            self._edge_masks[edge] = found
        return found

    def _next_iteration(self, local: Local, loop: Loop) -> Local:
        """Outstanding accesses seen from the next iteration: induction variables moved on by
        at least one step, other values defined in the loop are unknown."""
        if not local.outstanding:
            return local
        key = (id(local), id(loop))
        found = self._back_memo.get(key)
        if found is None:
            found = local.but(outstanding=frozenset(self._shift(a, loop) for a in local.outstanding))
            self._back_memo[key] = found
        return found

    def _shift(self, access: Access, loop: Loop) -> Access:
        info = access.info
        if access.stale or info.rest is None:
            return access
        shifts = dict((s, (lo, hi)) for s, lo, hi in access.shifts)
        stale = False
        for sym, _ in info.rest.terms:
            if sym.induction_of is loop and sym.step:
                # Seen from a later iteration the variable has moved on by at least one step
                # and at most across its whole range (widened at once: converges in one round).
                cap = sym.hi - sym.lo if sym.bounded else None  # type: ignore[operator]
                shifts[sym] = (sym.step, cap)
            elif _defined_in(sym, loop):
                stale = True
        if stale:
            return self._access(info, (), True, access.escaped)
        packed = tuple(sorted(((s, lo, hi) for s, (lo, hi) in shifts.items()), key=lambda t: t[0].id))
        return self._access(info, packed, False, access.escaped)

    # ---- whole-kernel checks after the dataflow ----------------------------------------------

    def _check_intervals(self) -> None:
        for label, events in self._events.items():
            self._check_interval(label, events)
            self._check_concurrent_allocs(events)
        self._check_slot_reads()

    def _check_concurrent_allocs(self, events: dict[tuple[OpInfo, Operation | None], int]) -> None:
        """Two tcgen05.alloc of different warps in one barrier interval: nothing orders them,
        but one warp of a CTA allocates, never two concurrently (the same op run by several
        warps is _check_single_warp's)."""
        allocs = sorted(
            ((info, mask, assume) for (info, escaped, assume), mask in events.items()
             if info.kind is EffectKind.ALLOC and escaped is None),
            key=lambda a: a[0].index,
        )
        for i, (a, amask, a_assume) in enumerate(allocs):
            for b, bmask, b_assume in allocs[i + 1:]:
                if a.op is b.op or not _other_warp(amask, bmask):
                    continue
                if any((c, not v) in b_assume for c, v in a_assume):
                    continue  # different ways at one CTA-uniform condition
                wa = (amask & -amask).bit_length() - 1
                wb_mask = bmask & ~(1 << wa) or bmask
                wb = (wb_mask & -wb_mask).bit_length() - 1
                sure = self._exists(max(wa, wb)) and self._decided(a) and self._decided(b)
                text = (
                    f"{_name(b)} of warp {wb} and {_name(a)} of warp {wa} are not ordered by a "
                    "barrier: one warp of a CTA allocates, never two concurrently"
                    if sure else
                    f"cannot prove that a barrier orders {_name(b)} after {_name(a)} of another "
                    "warp: one warp of a CTA allocates, never two concurrently"
                )
                self.findings.add(
                    ("concurrent-alloc", b.op),
                    (error if sure else warning)(b.op, text).attach_note(
                        f"the other {_name(a)}", a.op
                    ),
                )

    def _check_interval(
        self, label: Operation | None, events: dict[tuple[OpInfo, Operation | None], int]
    ) -> None:
        items = [
            (info, escaped, mask, assume)
            for (info, escaped, assume), mask in events.items()
            if info.category is Category.EFFECT and info.kind is not None
            and (info.kind.is_async_access or info.kind is EffectKind.DEALLOC)
        ]
        if not items:
            return
        boxes = {item[0]: self._boxes(item[0]) for item in items}
        # Sweep over columns: only boxes that share a column can conflict.
        entries = []
        unknown = []
        for i, (info, escaped, mask, _) in enumerate(items):
            per_warp = boxes[info]
            if per_warp is None:
                unknown.append(i)
                continue
            for w in self.space.warps(mask):
                for box in per_warp[w]:
                    entries.append((box.col_lo, box.col_hi, w, i, box))
        entries.sort(key=lambda e: e[0])
        active: list[tuple[int, int, int, int, Box]] = []
        pairs: dict[tuple[int, int], tuple[int, int, bool]] = {}
        for entry in entries:
            col_lo = entry[0]
            active = [a for a in active if a[1] >= col_lo]
            for other in active:
                if other[2] == entry[2]:
                    continue
                a_info, b_info = items[other[3]][0], items[entry[3]][0]
                if a_info.anchor != b_info.anchor:
                    continue
                if other[4].meets(entry[4]):
                    key = (min(other[3], entry[3]), max(other[3], entry[3]))
                    exact = other[4].exact and entry[4].exact
                    prev = pairs.get(key)
                    if prev is None or (exact and not prev[2]):
                        warps = (other[2], entry[2]) if key[0] == other[3] else (entry[2], other[2])
                        pairs[key] = (warps[0], warps[1], exact)
            active.append(entry)
        # Different anchors: disjoint if different allocations, otherwise unknown.
        anchored = [i for i in range(len(items)) if boxes[items[i][0]] is not None]
        by_anchor: dict[object, list[int]] = {}
        for i in anchored:
            by_anchor.setdefault(_anchor_key(items[i][0].anchor), []).append(i)
        if len(by_anchor) > 1:
            groups = list(by_anchor.values())
            for gi in range(len(groups)):
                for gj in range(gi + 1, len(groups)):
                    ia, ja = items[groups[gi][0]][0], items[groups[gj][0]][0]
                    if disjoint_allocations(ia.anchor or (), ja.anchor or ()):
                        continue
                    for i in groups[gi]:
                        for j in groups[gj]:
                            self._may_pair(items, i, j, pairs)
        for i in unknown:
            for j in range(len(items)):
                a, b = min(i, j), max(i, j)
                self._may_pair(items, a, b, pairs)
        for (i, j), (wi, wj, exact) in sorted(pairs.items()):
            self._conflict(label, items[i], items[j], wi, wj, exact)

    def _may_pair(self, items, i: int, j: int, pairs: dict[tuple[int, int], tuple[int, int, bool]]) -> None:
        """Record a possible conflict between items i <= j, run by two different warps."""
        mi, mj = items[i][2], items[j][2]
        for wi in self.space.warps(mi):
            others = mj & ~(1 << wi)
            if others:
                pairs.setdefault((i, j), (wi, (others & -others).bit_length() - 1, False))
                return

    def _conflict(self, label, a_item, b_item, wa: int, wb: int, exact: bool) -> None:
        a_info, a_escaped, _, a_assume = a_item
        b_info, b_escaped, _, b_assume = b_item
        if any((c, not s) in b_assume for c, s in a_assume):
            return  # the two paths took different ways at one CTA-uniform condition
        if a_escaped is not None and b_escaped is not None:
            return  # both carried over from an earlier interval, where they met already
        if b_escaped is not None or (a_escaped is None and b_info.index < a_info.index):
            a_info, b_info, a_escaped, b_escaped, wa, wb = b_info, a_info, b_escaped, a_escaped, wb, wa
        assert a_info.kind is not None and b_info.kind is not None
        req = cross_thread_requirement(a_info.kind, b_info.kind)
        if req is None and a_escaped is None:
            req = cross_thread_requirement(b_info.kind, a_info.kind)
        if req is None:
            return
        # Without a declared block size, warp max(wa, wb) may not exist: say so, do not claim.
        exact = exact and self._exists(max(wa, wb))
        if a_escaped is not None:
            if self.options.insert and req.wait is not None:
                # The access was outstanding at every barrier up to the one this interval began
                # with: one wait there serves all such accesses (unless that one is in a loop).
                at = a_escaped
                if label is not None and set(self.cfg.loops_of(label)) <= set(self.cfg.loops_of(a_escaped)):
                    at = label
                actions = self.fixes_before.setdefault(at, {})
                action = Action.wait(req.wait)
                if action not in actions:
                    self._handoff_fixes = True
                actions.setdefault(action, set()).add(req.rule)
            wait = f"tcgen05.{req.wait.value}" if req.wait is not None else "its completion"
            if exact:
                verb = "frees" if b_info.kind is EffectKind.DEALLOC else "touches"
                text = (
                    f"{_name(b_info)} of warp {wb} {verb} TMEM cells that {_name(a_info)} of "
                    f"warp {wa} accessed, and warp {wa} did not wait for it ({wait}) before the "
                    f"barrier that orders them ({req.rule.cite()})"
                )
            else:
                text = (
                    f"cannot prove that {_name(b_info)} of warp {wb} touches other TMEM cells than "
                    f"{_name(a_info)} of warp {wa}, which warp {wa} did not wait for ({wait}) "
                    f"before the barrier ({req.rule.cite()})"
                )
            diag = (error if exact else warning)(b_info.op, text)
            diag.attach_note(f"the {_name(a_info)} of warp {wa}", a_info.op)
            diag.attach_note("the barrier it was still outstanding at", a_escaped)
        else:
            if exact:
                text = (
                    f"{_name(b_info)} of warp {wb} and {_name(a_info)} of warp {wa} touch the same "
                    f"TMEM cells with no wait and barrier between them ({req.rule.cite()})"
                )
            else:
                text = (
                    f"cannot prove that {_name(b_info)} of warp {wb} and {_name(a_info)} of warp "
                    f"{wa} touch different TMEM cells; nothing orders them ({req.rule.cite()})"
                )
            diag = (error if exact else warning)(b_info.op, text)
            if a_info.op is not b_info.op:
                diag.attach_note(f"the {_name(a_info)}", a_info.op)
        self.findings.add(("cross", a_info.op, b_info.op, a_escaped), diag)

    def _boxes(self, info: OpInfo) -> list[tuple[Box, ...]] | None:
        if info.rest is None or info.rects is None or info.anchor is None:
            return None
        if info not in self._box_cache:
            self._box_cache[info] = warp_boxes(info.rest, info.rects, self.space)
        return self._box_cache[info]

    def _check_slot_reads(self) -> None:
        allocs: dict[Operation | None, list[tuple[OpInfo, int, frozenset[tuple[SSAValue, bool]]]]] = {}
        for label, events in self._events.items():
            for (info, escaped, assume), mask in events.items():
                if info.kind is EffectKind.ALLOC and escaped is None:
                    allocs.setdefault(label, []).append((info, mask, assume))
        for read, mask, epoch, visible, assume in self._slot_reads:
            racing = [
                (alloc, amask)
                for label in epoch
                for alloc, amask, alloc_assume in allocs.get(label, [])
                if alloc.slot == read.slot
                and _other_warp(amask, mask)
                and not any((c, not v) in alloc_assume for c, v in assume)
            ]
            if racing:
                alloc, amask = racing[0]
                sure = self._exists(1) and self._decided(alloc) and self._decided(read)
                self.findings.add(
                    ("slot-race", read.op),
                    (error if sure else warning)(
                        read.op, "reads the TMEM address that another warp's tcgen05.alloc "
                          "writes, with no barrier between them: other warps may read the slot "
                          "only after a CTA barrier").attach_note("the tcgen05.alloc", alloc.op),
                )
            elif not visible:
                self.findings.add(
                    ("slot-early", read.op),
                    error(read.op, "reads the TMEM address slot before any tcgen05.alloc wrote it"),
                )

    def _check_static(self) -> None:
        """Lane quarters, warp-uniform addresses, warp-collective ops under divergent branches."""
        for info, mask in sorted(self._op_masks.items(), key=lambda kv: kv[0].index):
            if info.category is not Category.EFFECT or info.kind is None:
                continue
            kind = info.kind
            if kind in (EffectKind.LD, EffectKind.ST):
                self._check_lanes(info, mask)
            if kind.is_warp_collective:
                self._check_divergence(info)
            if kind in (EffectKind.ALLOC, EffectKind.DEALLOC) and mask & (mask - 1):
                self._check_single_warp(info, mask)

    def _exists(self, warp: int) -> bool:
        """Warp `warp` surely exists: the block size is declared (and reaches it), or it is warp 0."""
        return warp == 0 or self.space.declared

    def _check_lanes(self, info: OpInfo, mask: int) -> None:
        op = info.op
        if info.rest is None or info.anchor is None or info.rects is None:
            return
        uniformity = info.rest.uniformity(self.space)
        if uniformity is Uniformity.THREAD:
            if isinstance(info.rest.const, np.ndarray):
                lo, hi = self.space.warp_min_max(info.rest.const)
                split = [w for w in self.space.warps(mask) if lo[w] != hi[w]]
                if split:
                    self.findings.add(
                        ("taddr-split", op),
                        error(op, f"the TMEM address of {op.name} differs between threads of warp "
                              f"{split[0]}; every thread of a warp must pass the same address"),
                    )
                    return
            self.findings.add(
                ("taddr-unknown", op),
                warning(op, f"cannot prove that every thread of a warp passes the same TMEM address "
                        f"to {op.name}"),
            )
            return
        boxes = self._boxes(info) if lane_known(info.anchor) else None
        unsure: int | None = None
        outside: str | None = None
        for w in self.space.warps(mask):
            quarter = isa.lane_quarter(w)
            q_lo, q_hi = quarter.start, quarter.stop - 1
            if boxes is None:
                unsure = w if unsure is None else unsure
                continue
            rel_lo, rel_hi = self._lane_range(info, w)
            allowed_lo = max(q_lo - l0 for l0, _, _, _ in info.rects)
            allowed_hi = min(q_hi - (l1 - 1) for _, l1, _, _ in info.rects)
            if rel_lo >= allowed_lo and rel_hi <= allowed_hi:
                continue
            if rel_hi < allowed_lo or rel_lo > allowed_hi or allowed_lo > allowed_hi:
                lo = min(b.lane_lo for b in boxes[w])
                hi = max(b.lane_hi for b in boxes[w])
                text = (
                    f"warp {w} accesses TMEM lanes {lo}..{hi}, outside its lane quarter "
                    f"{q_lo}..{q_hi}: warp w may only access lanes 32*(w%4)..32*(w%4)+31 "
                    "(add (32*(w%4)) << 16 to the address)"
                )
                if self._exists(w):
                    self.findings.add(("lanes", op), error(op, text))
                    return
                outside = outside or f"if the block has warp {w}, " + text
                continue
            unsure = w if unsure is None else unsure
        if outside is not None:
            self.findings.add(("lanes", op), warning(op, outside))
            return
        if unsure is not None:
            q = isa.lane_quarter(unsure)
            self.findings.add(
                ("lanes-unknown", op),
                warning(op, f"cannot prove that warp {unsure}'s {op.name} stays in its lane quarter "
                        f"{q.start}..{q.stop - 1}: the lane of its address is not known statically"),
            )

    def _lane_range(self, info: OpInfo, w: int) -> tuple[int, int]:
        assert info.rest is not None
        bounds = info.rest.warp_bounds(self.space)
        assert bounds is not None
        lo, hi = int(bounds[0][w]), int(bounds[1][w])
        return lo >> isa.LANE_SHIFT, hi >> isa.LANE_SHIFT

    def _check_divergence(self, info: OpInfo) -> None:
        node = self.cfg.node_of.get(info.op)
        if node is None:
            return
        unsure: Node | None = None
        for branch_node in sorted(self.cfg.controlling_branches(node), key=lambda n: n.order):
            branch = branch_node.branch
            if branch is None:
                continue
            reach = self._node_masks.get(branch_node, 0)
            if branch.condition is not None:
                split = self.values.split(branch.condition)
                if split is not None:
                    torn = split.torn & reach
                    if torn:
                        w = (torn & -torn).bit_length() - 1
                        self._report_divergence(info, branch.op, w)
                        return
                    if split.exact:
                        continue
                if self.values.uniformity(branch.condition) is Uniformity.THREAD:
                    unsure = unsure or branch_node
            elif self.values.loop_bounds_split(branch.op):
                self._report_divergence(info, branch.op, None)
                return
            elif self.values.loop_uniformity(branch.op) is Uniformity.THREAD or any(
                self.values.uniformity(v) is Uniformity.THREAD for v in branch.op.operands
                if branch.op.successors
            ):
                unsure = unsure or branch_node
        if unsure is not None and unsure.branch is not None:
            self.findings.add(
                ("divergence-unknown", info.op),
                warning(info.op, f"cannot prove that every thread of a warp reaches this "
                        f"{info.op.name} (warp-collective, .sync.aligned) together").attach_note(
                    "this condition may differ between threads of a warp", unsure.branch.op
                ),
            )

    def _report_divergence(self, info: OpInfo, branch: Operation, warp: int | None) -> None:
        where = f"warp {warp}" if warp is not None else "a warp"
        self.findings.add(
            ("divergence", info.op),
            error(info.op, f"{info.op.name} is warp-collective (.sync.aligned) but runs under a "
                  f"condition that splits {where}: it depends on the lane, not only on the "
                  "warp index").attach_note(
                f"this condition differs between threads of {where}", branch
            ),
        )

    def _decided(self, info: OpInfo) -> bool:
        """Which warps run `info` is decided by thread ids alone (no unknown condition on the way)."""
        node = self.cfg.node_of.get(info.op)
        return node is not None and all(
            b.branch is not None and b.branch.condition is not None
            and (split := self.values.split(b.branch.condition)) is not None
            and not (split.may_true & split.may_false)
            for b in self.cfg.controlling_branches(node)
        )

    def _check_single_warp(self, info: OpInfo, mask: int) -> None:
        exact = self._decided(info)
        verb = "allocate" if info.kind is EffectKind.ALLOC else "free"
        text = (
            f"{info.op.name} runs in warps {_few_warps(mask)}: exactly one warp of the CTA may "
            f"{verb} (guard it with a condition on the warp index)"
        )
        if exact and self._exists(1):
            self.findings.add(("one-warp", info.op), error(info.op, text))
        else:
            self.findings.add(
                ("one-warp", info.op),
                warning(info.op, f"cannot prove that only one warp runs this {info.op.name}; "
                        "exactly one warp of the CTA may " + verb),
            )


_MAX_ENUMERATED = 512


def _induction_values(sym: Sym) -> list[int] | None:
    """Every value an scf.for induction variable with constant bounds takes (None: unknown)."""
    loop = sym.induction_of
    if loop is None or loop.op is None or loop.op.name != "scf.for" or not sym.step or not sym.bounded:
        return None
    if loop.trip_count is None:
        return None
    values = list(range(sym.lo, sym.hi + 1, sym.step))  # type: ignore[arg-type]
    return values if 0 < len(values) <= _MAX_ENUMERATED else None


def _combinations(variables: list[tuple[list[int], int]]) -> list[int] | None:
    """All sums of coeff * value over the variables' value lists (None when too many)."""
    sums = [0]
    for values, coeff in variables:
        sums = [s + coeff * v for s in sums for v in values]
        if len(sums) > _MAX_ENUMERATED:
            return None
    return sums


def _defined_in(sym: Sym, loop: Loop) -> bool:
    scope = sym.loop
    while scope is not None:
        if scope is loop:
            return True
        scope = scope.parent
    return False


def _anchor_key(anchor: Anchor | None) -> object:
    return tuple((s.id, c) for s, c in anchor or ())


def _verb(kind: EffectKind | None) -> str:
    return {
        EffectKind.LD: "reads",
        EffectKind.ST: "overwrites",
        EffectKind.MMA: "accesses",
        EffectKind.CP: "overwrites",
        EffectKind.DEALLOC: "frees",
    }.get(kind, "touches")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# WarpStates algebra
# ---------------------------------------------------------------------------------------------


def _canonical(pairs: Iterable[tuple[Local, int]]) -> WarpStates:
    merged: dict[Local, int] = {}
    for local, mask in pairs:
        merged[local] = merged.get(local, 0) | mask
    return tuple(sorted(merged.items(), key=lambda kv: kv[1]))


_JOIN_MEMO: dict[tuple[int, int], Local] = {}


def _join_states(a: WarpStates, b: WarpStates) -> WarpStates:
    if a == b:
        return a
    return _normalize((*a, *b))


def _normalize(entries: Iterable[tuple[Local, int]]) -> WarpStates:
    """Paths meet: states under the same assumptions merge warp by warp; states with equal TMEM
    facts merge whatever their assumptions (keeping those they share); repeat until neither
    applies. The rest stay apart (at most _MAX_PATH_STATES, else one state per warp)."""
    state = _canonical(entries)
    while True:
        by_assumption: dict[frozenset[tuple[SSAValue, bool]], list[tuple[Local, int]]] = {}
        for local, mask in state:
            by_assumption.setdefault(local.assume, []).append((local, mask))
        merged: list[tuple[Local, int]] = []
        for group in by_assumption.values():
            acc: WarpStates = ()
            for entry in group:
                acc = _join_disjoint(acc, (entry,))
            merged.extend(acc)
        by_core: dict[tuple[object, ...], list[tuple[Local, int]]] = {}
        for local, mask in merged:
            by_core.setdefault(local.core, []).append((local, mask))
        out: list[tuple[Local, int]] = []
        for group in by_core.values():
            local, mask = group[0]
            if len(group) > 1:
                assume = frozenset.intersection(*(l.assume for l, _ in group))
                for _, m in group[1:]:
                    mask |= m
                local = local.but(assume=assume)
            out.append((local, mask))
        new = _canonical(out)
        if new == state:
            break
        state = new
    return _collapse(state) if len(state) > _MAX_PATH_STATES else state


def _collapse(state: WarpStates) -> WarpStates:
    """One state per warp again (their join): bounds the number of path states."""
    acc: WarpStates = ()
    for entry in state:
        acc = _join_disjoint(acc, (entry,))
    return acc


def _join_disjoint(a: WarpStates, b: WarpStates) -> WarpStates:
    """Warp by warp: a warp in both gets the join of its two states."""
    if a == b:
        return a
    cover_a = cover_b = 0
    for _, m in a:
        cover_a |= m
    for _, m in b:
        cover_b |= m
    out: list[tuple[Local, int]] = []
    for la, ma in a:
        only = ma & ~cover_b
        if only:
            out.append((la, only))
        for lb, mb in b:
            both = ma & mb
            if both:
                out.append((_join_local(la, lb), both))
    for lb, mb in b:
        only = mb & ~cover_a
        if only:
            out.append((lb, only))
    return _canonical(out)


def _join_local(a: Local, b: Local) -> Local:
    if a is b:
        return a
    key = (id(a), id(b))
    found = _JOIN_MEMO.get(key)
    if found is not None:
        return found
    after = a.after_due
    if after is None or (b.after_due is not None and b.after_due[0] is not after[0]):
        after = b.after_due if after is None else after
    elif b.after_due is not None:
        after = (after[0], after[1] | b.after_due[1])
    found = Local.make(
        (
            _join_accesses(a.outstanding, b.outstanding),
            a.epoch | b.epoch,
            _first(a.work, b.work),
            _first(a.unfenced, b.unfenced),
            a.pending | b.pending,
            after,
            a.own_live | b.own_live,
            a.known_live | b.known_live,
            a.freed & b.freed,
            _smaller_alloc(a.min_alloc, b.min_alloc),
            _first(a.relinquished, b.relinquished),
            a.slots | b.slots,
            a.assume & b.assume,
        )
    )
    _JOIN_MEMO[key] = found
    return found


def _join_accesses(a: frozenset[Access], b: frozenset[Access]) -> frozenset[Access]:
    """Union; the same access reached with different loop distances keeps their hull."""
    union = a | b
    if len(union) == len(a) or len(union) == len(b):
        return union
    by_key: dict[tuple[object, ...], list[Access]] = {}
    for access in union:
        by_key.setdefault((access.info, access.stale, access.escaped), []).append(access)
    if all(len(v) == 1 for v in by_key.values()):
        return union
    out = set()
    for (info, stale, escaped), group in by_key.items():
        if len(group) == 1 or stale:
            out.update(group)
            continue
        syms: dict[Sym, tuple[int, int | None]] = {}
        complete = True
        for access in group:
            names = {s for s, _, _ in access.shifts}
            if syms and names != set(syms):
                complete = False
            for s, lo, hi in access.shifts:
                if s in syms:
                    olo, ohi = syms[s]
                    syms[s] = (min(lo, olo), None if hi is None or ohi is None else max(hi, ohi))
                else:
                    syms[s] = (lo, hi)
        if not complete or any(not a.shifts for a in group):
            out.update(group)
            continue
        shifts = tuple(sorted(((s, lo, hi) for s, (lo, hi) in syms.items()), key=lambda t: t[0].id))
        out.add(Access(group[0].info, shifts, False, escaped))  # type: ignore[arg-type]
    return frozenset(out)


# ---------------------------------------------------------------------------------------------
# Entry points shared by tmem-verify and tmem-insert-waits
# ---------------------------------------------------------------------------------------------


@contextmanager
def frozen_heap() -> Iterator[None]:
    """No cyclic garbage collection while the analysis runs: it allocates many small states
    (acyclic: reference counting frees them) and each collection would scan the whole module
    and every state made so far, making the passes superlinear in the kernel's size."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_options(ptx_version: str | float, conservative: bool, insert: bool) -> Options:
    """Options from pass arguments; a malformed PTX version is a diagnostic, not a traceback."""
    from tmem_dialect.diagnostics import DiagnosticError

    text = ptx_version if isinstance(ptx_version, str) else f"{ptx_version:.1f}"
    try:
        version = rules_version(text)
    except ValueError as e:
        raise DiagnosticError([Diagnostic(Severity.ERROR, f"option ptx-version: {e}")]) from None
    return Options(version, conservative, insert)


def tmem_functions(module: Operation) -> list[Operation]:
    """Functions (func.func, llvm.func) that use TMEM, in module order."""
    from xdsl.dialects import func

    found = []
    for op in module.walk():
        if isinstance(op, (func.FuncOp, llvm.FuncOp)) and op.regions[0].blocks:
            if any(tmem_effect(inner) is not None or _is_tile_op(inner) for inner in op.walk()):
                found.append(op)
    return found


def _is_tile_op(op: Operation) -> bool:
    return op.name in ("tcgen05.tile_load", "tcgen05.tile_store")


def function_names(functions: list[Operation]) -> set[str]:
    return {f.sym_name.data for f in functions}  # type: ignore[attr-defined]


def unanalysed(function: Operation, cfg: CFG, tmem_callees: set[str]) -> list[Diagnostic]:
    """Warnings for TMEM use the analysis cannot see into: it never passes them silently.

    `tmem_callees`: names of the module's functions that use TMEM."""
    from xdsl.dialects import func

    found: list[Diagnostic] = []
    for op in cfg.unsupported:
        if any(tmem_effect(inner) is not None for inner in op.walk()):
            found.append(warning(op, f"TMEM operations inside {op.name} are not analysed "
                                 "(unsupported control flow)"))
    for op in function.walk():
        if _is_tile_op(op):
            found.append(warning(op, f"{op.name} is a warpgroup access: run tmem-assign-lanes "
                                 "before the TMEM rules can be checked or waits inserted"))
        elif isinstance(op, (func.CallOp, llvm.CallOp)):
            callee = getattr(op, "callee", None)
            name = getattr(getattr(callee, "root_reference", None), "data", None)
            if name in tmem_callees:
                found.append(warning(op, f"call to @{name}, which uses TMEM: TMEM rules are "
                                     "checked within each function, not across calls"))
        elif op.name == "llvm.inline_asm" and "tcgen05" in str(op.attributes.get("asm_string", "")):
            found.append(warning(op, "inline PTX with tcgen05 instructions is not analysed"))
    return found
