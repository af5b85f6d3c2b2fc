"""Column offsets for TMEM buffers whose lifetimes conflict: exact branch and bound for small sets, first-fit beyond.

The problem is dynamic storage allocation (interval-graph colouring with fixed widths), NP-hard in
general. Two buffers may share columns when their lifetimes do not conflict, or when they sit in
different lane halves (16-lane layouts, placed at lane 0 or 16 of each warp's quarter).

Exactness: take any placement and push every buffer down, lowest first, to the lowest aligned
column its conflicting neighbours leave free. Each buffer then starts at 0 or just past a
conflicting buffer below it, and first-fit in that bottom-up order, with the same lane halves,
reproduces offsets no higher than these. So the minimum over all orders and lane choices of
first-fit is optimal; the branch and bound searches that space (twins deduplicated, pruned by the
best plan so far and by the live-set lower bound) and says whether it finished.
"""

from __future__ import annotations

from dataclasses import dataclass

from tmem_dialect import isa

EXACT_LIMIT = 10
"""Connected groups of at most this many buffers are planned exactly (within NODE_BUDGET)."""
NODE_BUDGET = 200_000
"""Search nodes per group before the exact search gives up and keeps the best plan found."""


@dataclass(frozen=True)
class Item:
    """A buffer to place: `width` columns of the lane halves `halves` (bit 2q + h)."""

    width: int
    halves: int
    lane_shifts: tuple[int, ...] = (0,)
    align: int = 1

    def halves_at(self, lane_shift: int) -> int:
        return self.halves << (lane_shift // (isa.LANES_PER_WARP // 2))


@dataclass(frozen=True)
class Slot:
    column: int
    lane_shift: int


@dataclass
class Plan:
    slots: list[Slot]
    columns: int
    """One past the last column any buffer uses (0 without buffers)."""
    exact: bool
    """The search proved `columns` minimal."""
    lower_bound: int


def _round_up(value: int, align: int) -> int:
    return -(-value // align) * align


def lower_bound(items: list[Item], live_sets: list[list[int]]) -> int:
    """Columns any placement needs: at some point, the widest lane half's load of live buffers."""
    best = 0
    for live in live_sets:
        best = max(best, *(items[i].width for i in live), 0)
        fixed = [0] * (2 * isa.WARPS_PER_WARPGROUP)
        per_quarter = [0] * isa.WARPS_PER_WARPGROUP
        for i in live:
            it = items[i]
            for q in range(isa.WARPS_PER_WARPGROUP):
                touched = [(it.halves >> (2 * q + h)) & 1 for h in (0, 1)]
                if len(it.lane_shifts) == 1:
                    for h in (0, 1):
                        fixed[2 * q + h] += it.width * touched[h]
                    per_quarter[q] += it.width * sum(touched)
                elif any(touched):
                    per_quarter[q] += it.width
        best = max(best, *fixed, *(-(-load // 2) for load in per_quarter))
    return best


class _Placer:
    """First-fit placement of items against the already placed conflicting ones."""

    def __init__(self, items: list[Item], conflicts: list[set[int]]):
        self.items = items
        self.conflicts = conflicts

    def lowest_fit(self, i: int, shift: int, placed: dict[int, Slot]) -> int:
        item = self.items[i]
        halves = item.halves_at(shift)
        blockers = []
        for j in self.conflicts[i]:
            slot = placed.get(j)
            if slot is not None and self.items[j].halves_at(slot.lane_shift) & halves:
                blockers.append((slot.column, slot.column + self.items[j].width))
        for c in sorted({0, *(_round_up(end, item.align) for _, end in blockers)}):
            if all(c + item.width <= lo or c >= hi for lo, hi in blockers):
                return c
        raise AssertionError("past every blocker there is room")

    def first_fit(self, order: list[int]) -> tuple[dict[int, Slot], int]:
        placed: dict[int, Slot] = {}
        top = 0
        for i in order:
            column, shift = min(
                (self.lowest_fit(i, s, placed), s) for s in self.items[i].lane_shifts
            )
            placed[i] = Slot(column, shift)
            top = max(top, column + self.items[i].width)
        return placed, top


class _Budget(Exception):
    pass


def _twin_classes(group: list[int], items: list[Item], conflicts: list[set[int]]) -> dict[int, int]:
    """Interchangeable buffers (same item, same neighbours) get the same class: the search
    places only the first remaining one of a class."""
    classes: dict[int, int] = {}
    for k, i in enumerate(group):
        for j in group[:k]:
            if items[i] == items[j] and conflicts[i] - {j} == conflicts[j] - {i}:
                classes[i] = classes[j]
                break
        else:
            classes[i] = i
    return classes


def _exact(group: list[int], placer: _Placer, start: tuple[dict[int, Slot], int], bound: int,
           budget: int) -> tuple[dict[int, Slot], int, bool]:
    items = placer.items
    best_slots, best_top = start
    if best_top <= bound:
        return best_slots, best_top, True
    classes = _twin_classes(group, items, placer.conflicts)
    ranked = sorted(group, key=lambda i: (-items[i].width, i))
    placed: dict[int, Slot] = {}
    nodes = 0

    def search(top: int) -> None:
        nonlocal best_slots, best_top, nodes
        nodes += 1
        if nodes > budget:
            raise _Budget
        if len(placed) == len(group):
            best_slots, best_top = dict(placed), top
            return
        tried: set[int] = set()
        for i in ranked:
            if i in placed or classes[i] in tried:
                continue
            tried.add(classes[i])
            for shift in items[i].lane_shifts:
                column = placer.lowest_fit(i, shift, placed)
                reach = max(top, column + items[i].width)
                if reach >= best_top:
                    continue
                placed[i] = Slot(column, shift)
                search(reach)
                del placed[i]
                if best_top <= bound:
                    return

    try:
        search(0)
    except _Budget:
        return best_slots, best_top, False
    return best_slots, best_top, True


def _groups(n: int, conflicts: list[set[int]]) -> list[list[int]]:
    seen: set[int] = set()
    groups = []
    for i in range(n):
        if i in seen:
            continue
        stack, group = [i], []
        seen.add(i)
        while stack:
            j = stack.pop()
            group.append(j)
            for k in conflicts[j]:
                if k not in seen:
                    seen.add(k)
                    stack.append(k)
        groups.append(sorted(group))
    return groups


def heuristic_orders(group: list[int], items: list[Item], conflicts: list[set[int]],
                     starts: list[int] | None) -> list[list[int]]:
    orders = [
        sorted(group, key=lambda i: (-items[i].width, i)),
        sorted(group, key=lambda i: (-items[i].width * (1 + len(conflicts[i])), i)),
        sorted(group, key=lambda i: (-len(conflicts[i]), -items[i].width, i)),
    ]
    if starts is not None:
        orders.append(sorted(group, key=lambda i: (starts[i], i)))  # Triton's linear scan
    return orders


def assign(items: list[Item], conflicts: list[set[int]], live_sets: list[list[int]],
           starts: list[int] | None = None, exact_limit: int = EXACT_LIMIT,
           budget: int = NODE_BUDGET) -> Plan:
    """Place every item so that no two conflicting items overlap in columns and lane halves.

    `conflicts[i]`: the items whose lifetime meets item i's. `live_sets`: the items live
    together at each program point (for the lower bound). `starts`: program order of first use.
    """
    placer = _Placer(items, conflicts)
    slots: dict[int, Slot] = {}
    top, exact = 0, True
    for group in _groups(len(items), conflicts):
        members = set(group)
        bound = lower_bound(items, [[i for i in live if i in members] for live in live_sets])
        best: tuple[dict[int, Slot], int] | None = None
        for order in heuristic_orders(group, items, conflicts, starts):
            candidate = placer.first_fit(order)
            if best is None or candidate[1] < best[1]:
                best = candidate
        assert best is not None
        proven = best[1] <= bound
        if not proven and len(group) <= exact_limit:
            group_slots, group_top, proven = _exact(group, placer, best, bound, budget)
            best = (group_slots, group_top)
        slots.update(best[0])
        top = max(top, best[1])
        exact = exact and proven
    bound = lower_bound(items, live_sets)
    return Plan([slots[i] for i in range(len(items))], top, exact, bound)
