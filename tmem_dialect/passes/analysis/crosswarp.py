"""Cross-warp ordering after the fixpoint: conflicts per barrier interval, concurrent allocs, slot reads."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from tmem_dialect.diagnostics import error, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind, cross_thread_requirement
from tmem_dialect.passes.analysis import messages_allocations as alloc_text
from tmem_dialect.passes.analysis import messages_ordering as text
from tmem_dialect.passes.analysis.messages_names import name_unknown
from tmem_dialect.passes.analysis.ops import (
    Action,
    Category,
    OpInfo,
    name_of,
    other_warp,
)
from tmem_dialect.passes.cells import Anchor, Box, disjoint_allocations


def anchor_key(anchor: Anchor | None) -> object:
    return tuple((s.id, c) for s, c in anchor or ())


class CrossWarpRules:
    """Checks across warps, per barrier interval, after the fixpoint."""

    def _check_intervals(self) -> None:
        for events in self._events.values():
            self._check_concurrent_allocs(events)
        for group in self._interval_groups():
            if len(group) == 1:
                self._check_interval(group[0], self._events[group[0]])
            else:
                self._check_interval(group[0], {}, group)
        self._check_slot_reads()

    def _interval_groups(self) -> list[list[Operation | None]]:
        """Intervals whose events may run concurrently: a partial named barrier (bar.sync id, count)
        begins an interval only for the warps that take part, so its interval joins the ones those
        warps came from, where the other warps still are (union-find over the barriers' parents)."""
        parent: dict[Operation | None, Operation | None] = {label: label for label in self._events}

        def find(x: Operation | None) -> Operation | None:
            while parent.setdefault(x, x) is not x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for label, (_, parents) in self._meetings.items():
            if self._partial(label):
                for p in parents:
                    if p is not label:
                        parent[find(label)] = find(p)
        groups: dict[Operation | None, list[Operation | None]] = {}
        for label in self._events:
            groups.setdefault(find(label), []).append(label)
        return list(groups.values())

    def _ordered_by_barriers(self, x: Operation | None, wa: int, y: Operation | None, wb: int) -> bool:
        """Warp wa's event in interval x and warp wb's in interval y (of one group) are ordered: on
        every chain of barriers from one interval back to the other, some barrier has both warps."""
        if x is y:
            return False
        if not self._partial(x) and not self._partial(y):
            return True  # two intervals of whole-CTA barriers: a barrier separates them
        both = (1 << wa) | (1 << wb)
        return self._chains_blocked(y, x, both) or self._chains_blocked(x, y, both)

    def _chains_blocked(self, later: Operation | None, earlier: Operation | None, both: int) -> bool:
        """`earlier` is an ancestor of `later` and every chain of parents from `later` to it passes
        a barrier that both warps of `both` take part in (`later` itself included)."""
        stack, seen = [later], set()
        while stack:
            label = stack.pop()
            if label in seen:
                continue
            seen.add(label)
            warps, parents = self._meetings.get(label, (0, frozenset()))
            if label is not None and warps & both == both:
                continue  # blocked: both warps meet here
            for p in parents:
                if p is earlier:
                    return False  # a chain reaches `earlier` with no barrier of both warps
                stack.append(p)
        return self._is_ancestor(earlier, later)

    def _is_ancestor(self, earlier: Operation | None, later: Operation | None) -> bool:
        stack, seen = [later], set()
        while stack:
            label = stack.pop()
            if label in seen:
                continue
            seen.add(label)
            for p in self._meetings.get(label, (0, frozenset()))[1]:
                if p is earlier:
                    return True
                stack.append(p)
        return False

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
                if a.op is b.op or not other_warp(amask, bmask):
                    continue
                if any((c, not v) in b_assume for c, v in a_assume):
                    continue  # different ways at one CTA-uniform condition
                wa = (amask & -amask).bit_length() - 1
                wb_mask = bmask & ~(1 << wa) or bmask
                wb = (wb_mask & -wb_mask).bit_length() - 1
                sure = self._exists(max(wa, wb)) and self._decided(a) and self._decided(b)
                message = (alloc_text.concurrent_allocs(name_of(b), wb, name_of(a), wa) if sure else
                           alloc_text.concurrent_allocs_unproven(name_of(b), name_of(a)))
                self.findings.add(
                    FindingKind.CONCURRENT_ALLOC, ("concurrent-alloc", b.op),
                    (error if sure else warning)(b.op, message).attach_note(alloc_text.the_other(name_of(a)), a.op),
                )

    def _check_interval(
        self, label: Operation | None, events: dict[tuple[OpInfo, Operation | None], int],
        group: list[Operation | None] | None = None,
    ) -> None:
        """Conflicts between warps in one interval, or in a group of intervals that partial named
        barriers split (each event then has its interval, and pairs those barriers order are skipped)."""
        sources = [(label, events)] if group is None else [(g, self._events[g]) for g in group]
        items = []
        where: list[Operation | None] = []
        for interval, interval_events in sources:
            for (info, escaped, assume), mask in interval_events.items():
                if (info.category is Category.EFFECT and info.kind is not None
                        and (info.kind.is_async_access or info.kind is EffectKind.DEALLOC)):
                    items.append((info, escaped, mask, assume))
                    where.append(interval)
        if not items:
            return

        def ordered(i: int, wi: int, j: int, wj: int) -> bool:
            return group is not None and self._ordered_by_barriers(where[i], wi, where[j], wj)
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
                if other[2] == entry[2] or ordered(other[3], other[2], entry[3], entry[2]):
                    continue
                a_info, b_info = items[other[3]][0], items[entry[3]][0]
                if a_info.anchor != b_info.anchor:
                    continue
                if other[4].meets(entry[4]):
                    key = (min(other[3], entry[3]), max(other[3], entry[3]))
                    box_a, box_b = other[4], entry[4]
                    exact = (box_a.exact and (box_b.exact or box_a.covers(box_b))) or (box_b.exact and box_b.covers(box_a))
                    prev = pairs.get(key)
                    if prev is None or (exact and not prev[2]):
                        warps = (other[2], entry[2]) if key[0] == other[3] else (entry[2], other[2])
                        pairs[key] = (warps[0], warps[1], exact)
            active.append(entry)
        # Different anchors: disjoint if different allocations, otherwise unknown.
        anchored = [i for i in range(len(items)) if boxes[items[i][0]] is not None]
        by_anchor: dict[object, list[int]] = {}
        for i in anchored:
            by_anchor.setdefault(anchor_key(items[i][0].anchor), []).append(i)
        if len(by_anchor) > 1:
            groups = list(by_anchor.values())
            for gi in range(len(groups)):
                for gj in range(gi + 1, len(groups)):
                    ia, ja = items[groups[gi][0]][0], items[groups[gj][0]][0]
                    if disjoint_allocations(ia.anchor or (), ja.anchor or ()):
                        continue
                    for i in groups[gi]:
                        for j in groups[gj]:
                            self._may_pair(items, i, j, pairs, ordered)
        for i in unknown:
            for j in range(len(items)):
                a, b = min(i, j), max(i, j)
                self._may_pair(items, a, b, pairs, ordered)
        for (i, j), (wi, wj, exact) in sorted(pairs.items()):
            if not exact:
                decided = self._decide_periodic(where[j], items[i], items[j])
                if decided is False:
                    continue  # disjoint in every pair of iterations that can overlap
                if decided is not None:
                    wi, wj, exact = *decided, True
            self._conflict(where[j], items[i], items[j], wi, wj, exact)

    def _decide_periodic(self, label, a_item, b_item) -> tuple[int, int] | bool | None:
        """Loop-indexed addresses (periodic.py), over every pair of warps: the warps of a pair
        that touch a common cell, False when no pair does, None when undecidable."""
        a_info, a_escaped, a_mask, _ = a_item
        b_info, b_escaped, b_mask, _ = b_item
        if a_escaped is not None or b_escaped is not None:
            return None
        undecided = False
        for wa in self.space.warps(a_mask):
            for wb in self.space.warps(b_mask & ~(1 << wa)):
                verdict = self._periodic_overlap(label, a_info, wa, b_info, wb)
                if verdict:
                    return wa, wb
                undecided = undecided or verdict is None
        return None if undecided else False

    def _may_pair(self, items, i: int, j: int, pairs: dict[tuple[int, int], tuple[int, int, bool]], ordered) -> None:
        """Record a possible conflict between items i <= j, run by two different warps."""
        mi, mj = items[i][2], items[j][2]
        for wi in self.space.warps(mi):
            for wj in self.space.warps(mj & ~(1 << wi)):
                if not ordered(i, wi, j, wj):
                    pairs.setdefault((i, j), (wi, wj, False))
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
        if self._mbarrier_order(a_info, b_info, wa, wb) is not None:
            return  # ordered through an mbarrier (or reported as released before its wait)
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
            wait = req.wait.value if req.wait is not None else None
            if exact:
                frees = b_info.kind is EffectKind.DEALLOC
                message = text.unwaited_before_barrier(name_of(b_info), wb, frees, name_of(a_info), wa, wait,
                                                       req.rule)
            else:
                message = text.unwaited_before_barrier_unproven(
                    name_of(b_info), wb, name_of(a_info), wa, wait, req.rule, name_unknown(b_info.rest, a_info.rest)
                )
            diag = (error if exact else warning)(b_info.op, message)
            diag.attach_note(text.the_op_of_warp(name_of(a_info), wa), a_info.op)
            diag.attach_note(text.outstanding_at_barrier(), a_escaped)
        else:
            if exact:
                message = text.unordered(name_of(b_info), wb, name_of(a_info), wa, req.rule)
            else:
                message = text.unordered_unproven(name_of(b_info), wb, name_of(a_info), wa, req.rule,
                                                  name_unknown(b_info.rest, a_info.rest))
            diag = (error if exact else warning)(b_info.op, message)
            if a_info.op is not b_info.op:
                diag.attach_note(text.the_op(name_of(a_info)), a_info.op)
        # An mma/cp/shift completes only through its commit's mbarrier phase: the interpreter
        # calls touching its cells before that phase is observed ASYNC_PENDING, and so do we.
        kind = FindingKind.ASYNC_PENDING if req.wait is None and a_info.kind is not EffectKind.DEALLOC else FindingKind.of_rule(req.rule)
        self.findings.add(kind, ("cross", a_info.op, b_info.op, a_escaped), diag)

    def _check_slot_reads(self) -> None:
        allocs: dict[Operation | None, list[tuple[OpInfo, int, frozenset[tuple[SSAValue, bool]]]]] = {}
        for label, events in self._events.items():
            for (info, escaped, assume), mask in events.items():
                if info.kind is EffectKind.ALLOC and escaped is None:
                    allocs.setdefault(label, []).append((info, mask, assume))
        for read, mask, epoch, visible, assume in self._slot_reads:
            racing = [
                (alloc, amask)
                for barrier in epoch
                for alloc, amask, alloc_assume in allocs.get(self._interval_of(barrier), [])
                if alloc.slot == read.slot
                and other_warp(amask, mask)
                and not any((c, not v) in alloc_assume for c, v in assume)
            ]
            if racing:
                alloc, amask = racing[0]
                sure = self._exists(1) and self._decided(alloc) and self._decided(read)
                self.findings.add(
                    FindingKind.SHARED_RACE, ("slot-race", read.op),
                    (error if sure else warning)(read.op, alloc_text.slot_race()).attach_note(
                        alloc_text.the_alloc(), alloc.op),
                )
            elif not visible:
                self.findings.add(
                    FindingKind.UNINITIALIZED_READ, ("slot-early", read.op),
                    error(read.op, alloc_text.slot_read_early()),
                )
