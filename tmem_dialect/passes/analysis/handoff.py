"""Handoffs between warps: barriers, what the warps meeting there learn, and rule 3's fences around them."""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect.diagnostics import warning
from tmem_dialect.memory_model import HANDOFF
from tmem_dialect.passes.analysis.ops import (
    Action,
    OpInfo,
    name_of,
    other_warp,
    warps_text,
)
from tmem_dialect.passes.analysis.state import (
    Access,
    CtaFacts,
    Local,
    WarpStates,
    canonical,
)


class HandoffRules:
    """Barriers and rule 3's fences."""

    def _fences_for(self, info: OpInfo, local: Local, mask: int) -> Local:
        """`info` is TMEM work: the barriers before it that order other warps' work need fences."""
        changes: dict[str, object] = {}
        if local.pending:
            kept = []
            for barrier, earlier, issuers in local.pending:
                if other_warp(issuers, mask):
                    self._require_fence(barrier, Action.FENCE_BEFORE, earlier, info)
                else:
                    kept.append((barrier, earlier, issuers))
            if len(kept) != len(local.pending):
                changes["pending"] = frozenset(kept)
        if local.after_due is not None:
            barrier, issuers = local.after_due
            if other_warp(issuers, mask):
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
            diag.attach_note(f"{name_of(earlier)} is ordered by the barrier", earlier.op)
        diag.attach_note(f"{name_of(later)} in another warp runs after it", later.op)
        self.fix_reasons[(barrier, action)] = diag
        self._requeue(barrier, action)


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
            cta = CtaFacts()
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
        return canonical(out)


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
                warning(op, f"{warps_text(missing)} this barrier; the TMEM checks "
                        "assume every warp of the CTA takes part in it"),
            )
