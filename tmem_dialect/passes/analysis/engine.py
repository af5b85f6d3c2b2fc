"""The fixpoint over a kernel's CFG, warp by warp: set-up, transfer through nodes, edges and loop back-edges."""

from __future__ import annotations

from itertools import count

from xdsl.dialects import llvm, memref
from xdsl.ir import Operation, SSAValue

from tmem_dialect.diagnostics import Diagnostic
from tmem_dialect.dialects.interfaces import TMEMEffect, has_tmem_effect, tmem_effect
from tmem_dialect.dialects.llvm_switch import SwitchOp
from tmem_dialect.memory_model import EffectKind, Requirement, Rule, is_handoff
from tmem_dialect.op_types import OpIndex, is_a, walk_ops
from tmem_dialect.passes.analysis.ops import Action, Category, Findings, OpInfo, Options
from tmem_dialect.passes.analysis.state import (
    Access,
    Local,
    Shift,
    StateTable,
    WarpStates,
    canonical,
    join_states,
    normalize,
)
from tmem_dialect.passes.cells import (
    Box,
    Certainty,
    based_on,
    rects_of,
    split_anchor,
    warp_boxes,
)
from tmem_dialect.passes.cfg import CFG, Edge, ForwardSolver, Loop, Node
from tmem_dialect.passes.forms import Form, Sym
from tmem_dialect.passes.threads import ThreadSpace, Uniformity
from tmem_dialect.passes.values import Values, slot_key

_SLOT_LOADS = (llvm.LoadOp, memref.LoadOp)
Outcome = tuple[SSAValue, bool]  # a branch condition and the way a path took at it
EdgePlan = tuple[int, Outcome | None, Outcome | None, Loop | None, Outcome | None]  # (Engine._edge_plan)


def cluster_barrier_wait(op: Operation) -> bool:
    """`barrier.cluster.wait` after a (releasing) `barrier.cluster.arrive` of the same block: every
    thread of the cluster, so every warp of this CTA, meets there, as at a CTA barrier. After an
    `arrive.relaxed` (no release) or with the arrive out of sight it orders nothing we rely on."""
    if op.name != "nvvm.cluster.wait":
        return False
    previous = op.prev_op
    while previous is not None:
        if previous.name == "nvvm.cluster.arrive":
            return True
        if previous.name in ("nvvm.cluster.arrive.relaxed", "nvvm.cluster.wait") or tmem_effect(previous) is not None:
            return False  # relaxed, or TMEM work between the arrive and the wait: not a plain barrier
        previous = previous.prev_op
    return False


def defined_in(sym: Sym, loop: Loop) -> bool:
    scope = sym.loop
    while scope is not None:
        if scope is loop:
            return True
        scope = scope.parent
    return False


class Engine:
    """The fixpoint over one function; rule families supply the transfer of each op."""

    def __init__(self, function: Operation, options: Options, known: dict[SSAValue, Form] | None = None,
                 index: OpIndex | None = None):
        # Interned states and memos are per analysis (they are keyed by object identity).
        self.states = StateTable()
        self.function = function
        self.options = options
        self.cfg = CFG(function)
        self.space = ThreadSpace.of_kernel(function)
        self._box_cache: dict[OpInfo, list[tuple[Box, ...]] | None] = {}
        self._requirements: dict[EffectKind, dict[str, Requirement]] = {}
        self._waits_in: dict[Loop, set[EffectKind]] = {}
        self._trackable: dict[SSAValue, bool] = {}
        self._compatible_memo: dict[tuple[frozenset, frozenset], bool] = {}
        self._cta_memo: dict[frozenset[tuple[SSAValue, bool]], frozenset[tuple[SSAValue, bool]]] = {}
        # (`index`: the function's walk, when the caller has it.)
        self.op_index = OpIndex(walk_ops(function)) if index is None else index
        self.ops = self.op_index.ops
        self.tmem_effects = {
            op: e for op in self.op_index.where(has_tmem_effect) if (e := tmem_effect(op)) is not None
        }
        """The ops' own TMEM effects, in op order (`effects` adds what the analysis treats as one)."""
        cluster_waits = self.op_index.named(lambda name: name == "nvvm.cluster.wait")
        self.effects = self.tmem_effects | {
            op: TMEMEffect(EffectKind.BARRIER) for op in cluster_waits if cluster_barrier_wait(op)
        }
        self.infos: dict[Node, list[OpInfo]] = {}
        self.info_of: dict[Operation, OpInfo] = {}
        slots = self._collect_slots()
        self.values = Values(function, self.cfg, self.space, slots, self.effects, known, self.op_index)
        self._build_infos()
        self._barriers = [i for i in self.info_of.values() if i.kind is not None and is_handoff(i.kind)]
        # Only kernels that release TMEM through mbarriers pay for tracking what each warp issued.
        self._tracks_releases = any(
            i.kind in (EffectKind.COMMIT, EffectKind.MBARRIER_ARRIVE) for i in self.info_of.values()
        )
        self._partners: dict[Operation, tuple[Operation, ...]] = {}
        self._barrier_ids: dict[Operation, int | None] = {}
        self._thread_counts: dict[Operation, int | None] = {}
        self._interval_labels: dict[Operation, Operation] = {}
        self._arrivals: dict[Operation, WarpStates] = {}
        self._reachable: dict[Node, set[Node]] = {}
        self._allocs = [i for i in self.info_of.values() if i.kind is EffectKind.ALLOC]
        self._deallocs = [i for i in self.info_of.values() if i.kind is EffectKind.DEALLOC]
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
        self._edge_plans: dict[Edge, EdgePlan] = {}
        self._edge_markers: dict[Edge, tuple[tuple[str, Loop, object], ...]] = {}
        self._join_memo: dict[tuple[int, int], Local] = {}
        self._back_memo: dict[tuple[int, int], Local] = {}
        self._distance_memo: dict[tuple[Access, OpInfo, int], Certainty] = {}
        self._mbarrier_keys: dict[Operation, object] = {}
        self._releases: dict[OpInfo, dict[object, object]] = {}
        self._acquired_at: dict[OpInfo, frozenset[object]] = {}
        self._releasers: dict[object, int] = {}
        self._release_ops: dict[object, set[OpInfo]] = {}
        self._every_iteration: dict[Loop, frozenset[object]] = {}
        self._ring_waits: dict[OpInfo, tuple[object, int, int]] = {}
        self._exit_memo: dict[Edge, tuple[Loop, ...]] = {}
        self._one_trip_memo: dict[Loop, tuple[SSAValue, bool] | None] = {}
        self._header_loops: dict[Node, Loop] = {lp.header: lp for lp in self.cfg.loops}
        self._loop_keys: dict[Loop, object] = {}
        self.solver: ForwardSolver[WarpStates] = ForwardSolver(
            self.cfg,
            ((self.states.initial(), self.space.all_warps),),
            self._transfer,
            self._edge,
            join_states,
        )

    def _collect_slots(self) -> set[object]:
        slots: set[object] = set()
        for effect in self.effects.values():
            if effect.kind is EffectKind.ALLOC and effect.address is not None:
                key = slot_key(effect.address)
                if key is not None:
                    slots.add(key)
        return slots

    def release(self) -> None:
        """Drop the analysis's cyclic structures (interned states, the CFG) when its findings are
        all that is wanted: the rest is then freed by reference counting, not left to the cyclic
        collector (13k objects after one verify of dot.ptx)."""
        self.states.clear()
        self.cfg.release()
        self.__dict__.clear()  # (memos that hold the analysis's own bound methods: more cycles)

    def _build_infos(self) -> None:
        ld_results: dict[SSAValue, Operation] = {}
        anchors = {lp.entry_op for lp in self.cfg.loops if lp.entry_op is not None}
        # Source order (not graph order): "earlier" in a report means earlier in the text.
        # (By id: an op's hash is a Python-level call, and this maps every op of the function.)
        position = dict(zip(map(id, self.ops), count()))
        # Most ops carry nothing the analysis reads: only the ops with an effect, the anchors and
        # the loads of a TMEM address slot can get an OpInfo (conservative: any op reading an
        # ld's registers), so the others are passed over by id, without asking _info.
        wanted: set[int] | None = None
        if not self.options.conservative:
            wanted = {id(op) for op in self.effects} | {id(op) for op in anchors}
            if self.values.slots:
                wanted.update(id(op) for op in self.op_index.of(_SLOT_LOADS))
        for node in self.cfg.nodes:
            infos: list[OpInfo] = []
            for op in node.ops:
                if wanted is not None and id(op) not in wanted:
                    continue
                index = position[id(op)]
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
        if self.values.slots and is_a(op, _SLOT_LOADS):
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
        fixes_before, fixes_after = self.fixes_before, self.fixes_after  # (mostly empty: no op hashed)
        for info in self.infos[node]:
            before = fixes_before.get(info.op) if fixes_before else None
            if before:
                if self._report:
                    self._note_retiring(info.op, before, state)
                state = self._apply(before, state)
            if info.kind is not None and is_handoff(info.kind):
                state = self._barrier(info, state)
            else:
                stepped = [(self._step(info, local, mask), mask) for local, mask in state]
                # An op that leaves every warp state as it was (most non-TMEM ops, a wait with
                # nothing to retire) leaves the state canonical as it was.
                if any(new is not old for (new, _), (old, _) in zip(stepped, state)):
                    state = canonical(stepped)
            after = fixes_after.get(info.op) if fixes_after else None
            if after:
                state = self._apply(after, state)
        # Ops a fix may be anchored at that carry no TMEM effect (loop ops, branch terminators).
        return state

    def _apply(self, actions: dict[Action, set[Rule]], state: WarpStates) -> WarpStates:
        out = []
        for local, mask in state:
            for action in actions:
                local = self._virtual(action, local)
            out.append((local, mask))
        return canonical(out)

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

    def _record(self, info: OpInfo, escaped: Operation | None, local: Local, mask: int) -> None:
        key = (info, escaped, self._cta_assumptions(local))
        for barrier in local.epoch:
            events = self._events.setdefault(self._interval_of(barrier), {})
            events[key] = events.get(key, 0) | mask

    def _cta_assumptions(self, local: Local) -> frozenset[tuple[SSAValue, bool]]:
        # (Memoized by the assumptions: the report pass asks it at every access of every path,
        # and the values' uniformity no longer changes once they are solved.)
        found = self._cta_memo.get(local.assume)
        if found is None:
            found = self._cta_memo[local.assume] = frozenset(
                (c, s) for c, s in local.assume if self.values.uniformity(c) is Uniformity.CTA
            )
        return found

    def _access(
        self, info: OpInfo, shifts: tuple[Shift, ...], stale: bool, escaped: Operation | None
    ) -> Access:
        return Access(info, shifts, stale, escaped)

    def _edge(self, edge: Edge, state: WarpStates) -> WarpStates | None:
        plan = self._edge_plans.get(edge)
        if plan is None:
            plan = self._edge_plans[edge] = self._edge_plan(edge)
        allowed, outcome, other_way, loop_of_test, once = plan
        markers = self._edge_markers.get(edge)  # (made once, when first needed)
        out = []
        for local, mask in state:
            m = mask & allowed
            if not m:
                continue
            if outcome is not None:
                if other_way in local.assume:
                    continue  # this path already took the other way at the same condition
                if outcome not in local.assume:
                    local = local.assuming(local.assume | {outcome})
            if edge.back_of is not None:
                local = self._next_iteration(local, edge.back_of)
            if once is not None:
                local = self._one_trip_step(edge, local, loop_of_test, once)  # type: ignore[arg-type]
                if local is None:
                    continue
            if markers is None:
                exits = self._exits(edge) if self._tracks_releases else ()
                markers = tuple(("after", loop, self._loop_key(loop)) for loop in exits)
                self._edge_markers[edge] = markers
            for marker in markers:
                if marker not in local.acquired:
                    local = local.but(acquired=local.acquired | {marker})
            out.append((local, m))
        if not out:
            return None
        return normalize(out) if outcome is not None or len(out) > 1 else tuple(out)

    def _edge_plan(self, edge: Edge) -> EdgePlan:
        """What `_edge` reads of an edge, the same at every visit (each part is memoized):
        the warps it may take, the outcome it records and the other way at that condition,
        the loop whose test it is part of and that loop's one-trip exit."""
        outcome = self._assumption(edge)
        headers = self._header_loops
        loop_of_test = edge.back_of or headers.get(edge.source) or headers.get(edge.target)
        once = self._one_trip_exit(loop_of_test) if loop_of_test is not None else None
        other_way = (outcome[0], not outcome[1]) if outcome is not None else None
        return self._edge_mask(edge), outcome, other_way, loop_of_test, once

    def _one_trip_step(self, edge: Edge, local: Local, loop: Loop, once: tuple[SSAValue, bool]) -> Local | None:
        """A loop of blocks whose body runs once: entering, its header test continues; back
        from the body, it leaves. (Recorded as the outcome the path takes at the test, and
        dropped on the way out.) None: this path does not take the edge."""
        condition, leave = once
        entered, returned = (condition, not leave), (condition, leave)
        if edge.back_of is loop:
            return local.assuming((local.assume - {entered}) | {returned})
        if edge.target is loop.header and edge.source not in loop.nodes:
            return local.assuming((local.assume - {returned}) | {entered})
        if edge.source is not loop.header:
            return local
        if edge.target in loop.nodes:
            return None if returned in local.assume else local
        if entered in local.assume:
            return None
        return local.assuming(local.assume - {returned})

    def _one_trip_exit(self, loop: Loop) -> tuple[SSAValue, bool] | None:
        if loop not in self._one_trip_memo:
            self._one_trip_memo[loop] = self.values.one_trip_exit(loop)
        return self._one_trip_memo[loop]

    def _exits(self, edge: Edge) -> tuple[Loop, ...]:
        """The scf.for loops an edge leaves (the mbarrier rules mark what follows a ring loop)."""
        found = self._exit_memo.get(edge)
        if found is None:
            inside = set(edge.target.loops)
            found = tuple(lp for lp in edge.source.loops if lp not in inside and self._loop_key(lp) is not None)
            self._exit_memo[edge] = found
        return found

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
        key = (a.assume, b.assume)  # (few distinct pairs meet: a barrier asks it of every two states)
        found = self._compatible_memo.get(key)
        if found is None:
            found = self._compatible_memo[key] = not any(
                (c, not s) in b.assume and self.values.uniformity(c) is Uniformity.CTA for c, s in a.assume
            )
        return found

    def _edge_mask(self, edge: Edge) -> int:
        found = self._edge_masks.get(edge)
        if found is None:
            found = self.space.all_warps
            branch = edge.source.branch
            if edge.sense is not None and branch is not None and branch.condition is not None:
                split = self.values.split(branch.condition)
                if split is not None:
                    found = split.may_true if edge.sense else split.may_false
            elif branch is not None and isinstance(branch.op, SwitchOp) and len(edge.source.succs) == len(branch.op.successors):
                # A role dispatch (Triton's warp-specialized partitions): the successors are in
                # order, the default first; each takes the warps whose value selects it.
                masks = self.values.switch_masks(branch.op.value, [c for c, _, _ in branch.op.case_list()])
                if masks is not None:
                    found = masks[edge.source.succs.index(edge)]
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
            elif defined_in(sym, loop):
                stale = True
        if stale:
            return self._access(info, (), True, access.escaped)
        packed = tuple(sorted(((s, lo, hi) for s, (lo, hi) in shifts.items()), key=lambda t: t[0].id))
        return self._access(info, packed, False, access.escaped)

    def _boxes(self, info: OpInfo) -> list[tuple[Box, ...]] | None:
        if info.rest is None or info.rects is None or info.anchor is None:
            return None
        if info not in self._box_cache:
            self._box_cache[info] = warp_boxes(info.rest, info.rects, self.space)
        return self._box_cache[info]

    def _exists(self, warp: int) -> bool:
        """Warp `warp` surely exists: the block size is declared (and reaches it), or it is warp 0."""
        return warp == 0 or self.space.declared

    def _decided(self, info: OpInfo) -> bool:
        """Which warps run `info` is decided by thread ids alone (no unknown condition on the way)."""
        node = self.cfg.node_of.get(info.op)
        return node is not None and all(
            (b.branch is not None and b.branch.condition is not None
             and (split := self.values.split(b.branch.condition)) is not None
             and not (split.may_true & split.may_false))
            or self._switch_decided(b)
            for b in self.cfg.controlling_branches(node)
        )

    def _switch_decided(self, node: Node) -> bool:
        """A multi-way branch that sends each warp, whole, one way."""
        op = node.branch.op if node.branch is not None else None
        if not isinstance(op, SwitchOp):
            return False
        masks = self.values.switch_masks(op.value, [c for c, _, _ in op.case_list()])
        return masks is not None and sum(m.bit_count() for m in masks) == self.space.nwarps
