"""One kernel's analysis: the engine composed with every rule family, and the report pass after the fixpoint."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind, is_barrier_ordered, retired_by
from tmem_dialect.passes.analysis.completion import SameThreadRules
from tmem_dialect.passes.analysis.crosswarp import CrossWarpRules
from tmem_dialect.passes.analysis.engine import Engine
from tmem_dialect.passes.analysis.handoff import HandoffRules
from tmem_dialect.passes.analysis.lifecycle import LifecycleRules
from tmem_dialect.passes.analysis.mbarrier_inits import USES as INIT_USES
from tmem_dialect.passes.analysis.mbarrier_inits import MbarrierInitRules
from tmem_dialect.passes.analysis.mbarriers import MBARRIER_SYNC, MbarrierRules
from tmem_dialect.passes.analysis.ops import (
    Action,
    Category,
    Findings,
    Fix,
    OpInfo,
    first,
)
from tmem_dialect.passes.analysis.pairs import PairRules
from tmem_dialect.passes.analysis.periodic import PeriodicAddresses
from tmem_dialect.passes.analysis.placement import Placement
from tmem_dialect.passes.analysis.provenance import ProvenanceRules
from tmem_dialect.passes.analysis.setmaxnreg import SetMaxNRegRules
from tmem_dialect.passes.analysis.smem_rings import SmemRingRules
from tmem_dialect.passes.analysis.state import Local, join_states
from tmem_dialect.passes.analysis.static_forms import StaticFormRules
from tmem_dialect.passes.cfg import ForwardSolver, Node


class KernelAnalysis(
    SameThreadRules,
    HandoffRules,
    LifecycleRules,
    ProvenanceRules,
    CrossWarpRules,
    PeriodicAddresses,
    MbarrierRules,
    MbarrierInitRules,
    SmemRingRules,
    PairRules,
    SetMaxNRegRules,
    StaticFormRules,
    Placement,
    Engine,
):
    """Runs the dataflow over one function and collects diagnostics and fixes."""

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
                self.cfg, self.solver.initial, self._transfer, self._edge, join_states
            )
            self._report = False
            self.solver.run()
            self._report_pass()
        if self.options.insert:
            self._drop_idle_waits()
        self._check_static()
        for (anchor, action), diag in self.fix_reasons.items():
            self.findings.add(FindingKind.MISSING_FENCE, ("fence", anchor, action), diag)
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
        self._meetings: dict[Operation | None, tuple[int, frozenset[Operation | None]]] = {}
        self._node_masks: dict[Node, int] = {}
        self._releases = {}
        self._acquired_at = {}
        self._releasers = {}
        self._release_ops = {}
        self._every_iteration = {}
        self._ring_waits = {}
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
            out = self._transfer(node, state)
            for edge in node.succs:
                if edge.back_of is not None and out:
                    # What every warp observed by the end of each iteration (the mbarrier rules).
                    seen = frozenset.intersection(*(local.acquired for local, _ in out))
                    old = self._every_iteration.get(edge.back_of)
                    self._every_iteration[edge.back_of] = seen if old is None else old & seen
        self._check_intervals()
        self._check_rings()
        self._check_cluster_arrivals()
        self._check_smem_rings()

    def _step(self, info: OpInfo, local: Local, mask: int) -> Local:
        if self._report:
            self._op_masks[info] = self._op_masks.get(info, 0) | mask
        if info.category is Category.SLOT_READ:
            if self._report:
                visible = info.slot in local.slots
                self._slot_reads.append((info, mask, local.epoch, visible, self._cta_assumptions(local)))
                self._record(info, None, local, mask)
            return self._read_slot(info, local)
        if info.category is Category.REGISTER_USE:
            return self._register_use(info, local, mask)
        if info.category is Category.ANCHOR:
            return local
        kind = info.kind
        assert kind is not None
        traits = info.step_traits
        if traits is None:
            traits = info.step_traits = _step_traits(kind)
        retired, init_use, mbarrier_sync, barrier_ordered, async_access = traits
        if retired is not None:
            return self._retire(local, retired)
        if kind is EffectKind.FENCE_BEFORE:
            return local.but(unfenced=None) if local.unfenced is not None else local
        if kind is EffectKind.FENCE_AFTER:
            return local.but(after_due=None) if local.after_due is not None else local
        if kind is EffectKind.MBARRIER_INIT:
            return self._mbarrier_init(info, local)
        if init_use and self._report:
            self._check_init_visible(info, local, mask)
        if mbarrier_sync:
            return self._mbarrier_step(info, local, mask)
        if barrier_ordered:
            local = self._fences_for(info, local, mask)
        if async_access or kind is EffectKind.DEALLOC:
            local = self._same_thread(info, local, mask)
        if self._report:
            self._record(info, None, local, mask)
            if self._tracks_releases:
                self._note_acquired(info, local)
        if async_access:
            if self._report:
                self._check_allocation(info, local, mask)
            access = self._access(info, (), False, None)
            if self._tracks_releases and info not in local.issued:
                local = local.but(outstanding=local.outstanding | {access}, issued=local.issued | {info})
            else:
                local = local.but(outstanding=local.outstanding | {access})
        elif kind is EffectKind.ALLOC:
            local = self._alloc(info, local, mask)
        elif kind is EffectKind.DEALLOC:
            local = self._dealloc(info, local, mask)
        elif kind is EffectKind.RELINQUISH:
            local = local.but(relinquished=first(local.relinquished, info))
        return local


def _step_traits(kind: EffectKind) -> tuple[EffectKind | None, bool, bool, bool, bool]:
    """What `_step` asks of an op's kind, asked once per op: the kind a wait retires (None for
    other ops), whether it uses an mbarrier init, synchronizes through an mbarrier, is ordered
    by barriers, is an async access. (Each is a set test, and an Enum's hash is a Python call.)"""
    retired = retired_by(kind) if kind in (EffectKind.WAIT_LD, EffectKind.WAIT_ST) else None
    return retired, kind in INIT_USES, kind in MBARRIER_SYNC, is_barrier_ordered(kind), kind.is_async_access
