"""Handoffs between warps: barriers, what the warps meeting there learn, and rule 3's fences around them."""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.diagnostics import warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import HANDOFF
from tmem_dialect.passes.analysis import messages_ordering as text
from tmem_dialect.passes.analysis import messages_warps as warp_text
from tmem_dialect.passes.analysis.ops import (
    Action,
    OpInfo,
    name_of,
    other_warp,
)
from tmem_dialect.passes.analysis.state import (
    Access,
    CtaFacts,
    Local,
    WarpStates,
    canonical,
    join_states,
)
from tmem_dialect.passes.cfg import Node
from tmem_dialect.passes.values import Values


def barrier_id(barrier: Operation, values: Values) -> int | None:
    """A barrier op's constant id (0 when it has none); None when it is not a constant."""
    if barrier.name == "nvvm.cluster.wait":
        return -1  # the cluster barrier is not named barrier 0
    ident = getattr(barrier, "barrierId", None)
    if ident is None:
        return 0
    form = values.form(ident)
    return form.constant if form is not None and isinstance(form.constant, int) else None


def barrier_count(op: Operation, values: Values) -> int | None:
    """A named barrier op's constant thread count; None without one or when it is not a constant."""
    count = getattr(op, "numberOfThreads", None)
    form = values.form(count) if count is not None else None
    return form.constant if form is not None and isinstance(form.constant, int) else None


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
        diag = warning(barrier, text.missing_fence(action.value, action is Action.FENCE_BEFORE))
        if earlier is not None:
            diag.attach_note(text.ordered_by_barrier(name_of(earlier)), earlier.op)
        diag.attach_note(text.runs_after_in_another_warp(name_of(later)), later.op)
        self.fix_reasons[(barrier, action)] = diag
        self._requeue(barrier, action)

    def _barrier(self, info: OpInfo, state: WarpStates) -> WarpStates:
        """Every warp meets here: each learns what the others did before (allocations, frees,
        relinquish, unfenced work), from the paths that can happen in the same run as its own."""
        barrier = info.op
        meeting = state + self._partner_arrivals(barrier, state)
        all_warps = 0
        for _, mask in meeting:
            all_warps |= mask
        if self._report:
            self._op_masks[info] = self._op_masks.get(info, 0) | all_warps
            self._check_barrier(info, all_warps)
            label = self._interval_of(barrier)
            warps, parents = self._meetings.get(label, (0, frozenset()))
            self._meetings[label] = (
                warps | all_warps,
                parents | {self._interval_of(e) for local, _ in meeting for e in local.epoch},
            )
        participants = self._participants(barrier, state, meeting)
        # What a warp learns depends only on which participants its path is compatible with:
        # states with the same answer (usually all of them) share one CtaFacts.
        shared: dict[tuple[bool, ...], CtaFacts] = {}
        everyone = (True,) * len(participants)  # (a path without assumptions excludes none)
        out = []
        for local, mask in state:
            seen = everyone if not local.assume else tuple(
                other is local or self._compatible(local, other) for other, _, _ in participants
            )
            cta = shared.get(seen)
            if cta is None:
                cta = shared[seen] = CtaFacts()
                for (other, other_mask, at), compatible in zip(participants, seen):
                    if compatible:
                        cta.add(other, other_mask, at)
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
                pending = pending | {(cta.unfenced_at, cta.unfenced, cta.unfenced_warps)}
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
                        acquired=cta.acquired,  # what any warp observed is ordered before the barrier
                    ),
                    mask,
                )
            )
        return canonical(out)

    def _participants(
        self, barrier: Operation, state: WarpStates, meeting: WarpStates
    ) -> list[tuple[Local, int, Operation]]:
        """Each warp state meeting at `barrier` with the barrier op it arrives at."""
        found = [(local, mask, barrier) for local, mask in state]
        for partner in self._barrier_partners(barrier):
            found.extend((local, mask, partner) for local, mask in self._arrivals.get(partner, ()))
        return found

    def _partner_arrivals(self, barrier: Operation, state: WarpStates) -> WarpStates:
        """The states arriving at the partners of `barrier` (the same barrier reached by other
        ops on paths exclusive of this one, e.g. the two branches of an if). Arrivals only grow:
        when this barrier's grow, its partners run again with them."""
        partners = self._barrier_partners(barrier)
        if not partners:
            return ()
        previous = self._arrivals.get(barrier)
        arrived = state if previous is None else join_states(previous, state)
        if arrived != previous:
            self._arrivals[barrier] = arrived
            if not self._report:
                for partner in partners:
                    self.solver.requeue(self.cfg.node_of[partner], force=True)
        found: list[tuple[Local, int]] = []
        for partner in partners:
            found.extend(self._arrivals.get(partner, ()))
        return tuple(found)

    def _barrier_partners(self, barrier: Operation) -> tuple[Operation, ...]:
        """Barrier ops with the same id whose paths exclude each other's: the warps reaching
        either meet at one barrier (a role's branch and another role's branch both sync)."""
        found = self._partners.get(barrier)
        if found is None:
            found = ()
            node = self.cfg.node_of.get(barrier)
            branches = self.cfg.controlling_branches(node) if node is not None else frozenset()
            if branches:
                ident = self._barrier_id(barrier)
                found = tuple(
                    other.op for other in self._barriers
                    if other.op is not barrier
                    and self._barrier_id(other.op) == ident
                    and (other_node := self.cfg.node_of.get(other.op)) is not None
                    and other_node is not node  # one straight-line run: one runs after the other
                    and self._same_count(barrier, other.op)
                    and branches & self.cfg.controlling_branches(other_node)
                    and not self._reaches(node, other_node)
                    and not self._reaches(other_node, node)
                )
            self._partners[barrier] = found
        return found

    def _same_count(self, a: Operation, b: Operation) -> bool:
        """Two barrier ops may be one instance only with one thread count (PTX ISA barrier{.cta}:
        "Different warps may execute different forms of the barrier{.cta} instruction using the
        same barrier name and thread count"); a count not known statically may be either."""
        first, second = self._thread_count(a), self._thread_count(b)
        return first is None or second is None or first == second

    def _thread_count(self, op: Operation) -> int | None:
        """The threads a barrier op waits for (the CTA's without a count), if known statically;
        memoized as `_barrier_id` is, for the same pairwise comparisons."""
        if op not in self._thread_counts:
            if getattr(op, "numberOfThreads", None) is None:
                self._thread_counts[op] = self.space.nthreads if self.space.declared else None
            else:
                self._thread_counts[op] = self._barrier_count(op)
        return self._thread_counts[op]

    def _barrier_id(self, barrier: Operation) -> int | None:
        # (Memoized: finding partners compares each barrier's id with every other's, and reading
        # an optional operand is slow in xDSL.)
        if barrier not in self._barrier_ids:
            self._barrier_ids[barrier] = barrier_id(barrier, self.values)
        return self._barrier_ids[barrier]

    def _reaches(self, source: Node, target: Node) -> bool:
        seen = self._reachable.get(source)
        if seen is None:
            seen = set()
            work = [e.target for e in source.succs]
            while work:
                n = work.pop()
                if n not in seen:
                    seen.add(n)
                    work.extend(e.target for e in n.succs)
            self._reachable[source] = seen
        return target in seen

    def _interval_of(self, barrier: Operation | None) -> Operation | None:
        """The barrier op naming the interval a barrier begins: one for each class of barriers that
        partners connect (a partner of a partner may be the same instance too)."""
        if barrier is None:
            return None
        found = self._interval_labels.get(barrier)
        if found is None:
            component, work = {barrier}, [barrier]
            while work:
                for partner in self._barrier_partners(work.pop()):
                    if partner not in component:
                        component.add(partner)
                        work.append(partner)
            found = min(component, key=lambda op: self.info_of[op].index)
            self._interval_labels.update(dict.fromkeys(component, found))
        return found

    def _record_escape(self, access: Access, barrier: Operation, mask: int, local: Local) -> None:
        events = self._events.setdefault(self._interval_of(barrier), {})
        key = (access.info, access.escaped or barrier, self._cta_assumptions(local))
        events[key] = events.get(key, 0) | mask

    def _check_barrier(self, info: OpInfo, warps: int) -> None:
        op = info.op
        count = getattr(op, "numberOfThreads", None)
        if count is not None and self.space.declared and self._partial(op):
            threads = warps.bit_count() * isa.WARP_SIZE
            constant = self._barrier_count(op)
            if constant != threads:
                self.findings.add(
                    FindingKind.BARRIER_SCOPE, ("named-barrier", op),
                    warning(op, warp_text.barrier_count(constant, threads, warps)),
                )
            return  # warps outside a named barrier's count are not expected to reach it
        if count is not None and not self.space.declared:
            self.findings.add(
                FindingKind.BARRIER_SCOPE, ("named-barrier", op),
                warning(op, warp_text.barrier_block_size_unknown()),
            )
        missing = self.space.all_warps & ~warps
        if missing and self.space.declared:
            self.findings.add(
                FindingKind.BARRIER_SCOPE, ("barrier-reach", op),
                warning(op, warp_text.barrier_not_reached(missing)),
            )

    def _barrier_count(self, op: Operation) -> int | None:
        return barrier_count(op, self.values)

    def _partial(self, label: Operation | None) -> bool:
        """A named barrier for fewer threads than the CTA (bar.sync id, count): it orders only the
        warps that take part (PTX ISA "barrier{.cta}": the count of threads expected). Its count
        must be a constant to be known partial; a non-constant count is partial unless proven
        otherwise (the check says so)."""
        if label is None or getattr(label, "numberOfThreads", None) is None or not self.space.declared:
            return False
        return self._barrier_count(label) != self.space.nthreads
