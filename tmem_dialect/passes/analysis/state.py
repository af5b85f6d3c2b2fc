"""The per-warp TMEM state at a program point, its interning and its joins (owned by one analysis)."""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

from xdsl.ir import Operation, SSAValue

from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis.ops import OpInfo, first, smaller_alloc
from tmem_dialect.passes.forms import Sym

Shift = tuple[Sym, int, int | None]


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
        "reads",  # frozenset[(slot read op, OpInfo)]: the allocations each slot read may have seen
        "issued",  # frozenset[OpInfo]: TMEM accesses this warp issued (may): what an arrive releases
        "acquired",  # frozenset[(mbarrier, parity)]: mbarrier phases this warp observed (must)
        "arrivals",  # frozenset[(mbarrier, count | None)]: this warp's releases to each mbarrier so far
        "assume",  # frozenset[(SSAValue, bool)]: outcomes of unknown uniform branches on the path
    )
    __slots__ = FIELDS + ("key", "table")
    _INDEX = {name: i for i, name in enumerate(FIELDS)}
    assert FIELDS[-1] == "assume"  # (assuming() replaces the last field)

    def __init__(self, values: tuple[object, ...], table: StateTable):
        (
            self.outstanding, self.epoch, self.work, self.unfenced, self.pending, self.after_due,
            self.own_live, self.known_live, self.freed, self.min_alloc, self.relinquished,
            self.slots, self.reads, self.issued, self.acquired, self.arrivals, self.assume,
        ) = values  # fmt: skip
        self.key = values
        self.table = table

    def but(self, **changes: object) -> Local:
        values = list(self.key)
        for name, value in changes.items():
            values[self._INDEX[name]] = value
        return self.table.make(tuple(values))

    def assuming(self, assume: frozenset[tuple[SSAValue, bool]]) -> Local:
        """`but(assume=assume)`, the change every branch edge makes: the last field, replaced
        without going through the names."""
        return self.table.make(self.key[:-1] + (assume,))  # (FIELDS ends with "assume": checked below)

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
    reads: frozenset[tuple[Operation, OpInfo]]
    issued: frozenset[OpInfo]
    acquired: frozenset[tuple[object, int]]
    arrivals: frozenset[tuple[object, int | None]]
    assume: frozenset[tuple[SSAValue, bool]]

    @property
    def core(self) -> tuple[object, ...]:
        """The TMEM facts without the path assumptions."""
        return self.key[:-1]


class StateTable:
    """The states of one analysis: each distinct `Local` made once (so states compare with
    `is` and joins are memoized by identity). Owned by one analysis, so analyses can run at once."""

    def __init__(self) -> None:
        self._interned: dict[tuple[object, ...], Local] = {}
        self.join_memo: dict[tuple[int, int], Local] = {}
        self.normalize_memo: dict[WarpStates, WarpStates] = {}

    def clear(self) -> None:
        """Forget every state: each Local refers to its table, so the table's references to them
        make a cycle only the cyclic collector could free."""
        self._interned.clear()
        self.join_memo.clear()
        self.normalize_memo.clear()

    def make(self, values: tuple[object, ...]) -> Local:
        found = self._interned.get(values)
        if found is None:
            found = Local(values, self)
            self._interned[values] = found
        return found

    def initial(self) -> Local:
        """A warp at kernel entry: nothing outstanding, allocated or learnt."""
        empty: frozenset[object] = frozenset()
        return self.make(
            (empty, frozenset({None}), None, None, empty, None, empty, empty, empty, None, None, empty, empty,
             empty, empty, empty, empty)
        )


WarpStates = tuple[tuple[Local, int], ...]


_MAX_PATH_STATES = 12


class CtaFacts:
    """What the warps meeting at a barrier share."""

    def __init__(self) -> None:
        self.unfenced_warps = 0
        self.work_warps = 0
        self.unfenced: OpInfo | None = None
        self.unfenced_at: Operation | None = None
        """The barrier op the warp with the earliest unfenced work arrives at (its fence goes there)."""
        self.slots: frozenset[object] = frozenset()
        self.live: frozenset[OpInfo] = frozenset()
        self.freed: frozenset[OpInfo] = frozenset()
        self.smallest: OpInfo | None = None
        self.relinquished: OpInfo | None = None
        self.acquired: frozenset[object] = frozenset()

    def add(self, local: Local, mask: int, at: Operation) -> None:
        """`local` (of the warps in `mask`) meets the others, arriving at barrier op `at`."""
        if local.unfenced is not None:
            self.unfenced_warps |= mask
            earliest = first(self.unfenced, local.unfenced)
            if earliest is not self.unfenced:
                self.unfenced, self.unfenced_at = earliest, at
        if local.work is not None:
            self.work_warps |= mask
        # (A union copies the set even when it adds nothing; these are mostly empty.)
        if local.slots:
            self.slots |= local.slots
        if local.own_live or local.known_live:
            self.live |= local.own_live | local.known_live
        if local.freed:
            self.freed |= local.freed
        if local.min_alloc is not None:
            self.smallest = smaller_alloc(self.smallest, local.min_alloc)
        if local.relinquished is not None:
            self.relinquished = first(self.relinquished, local.relinquished)
        if local.acquired:
            self.acquired |= local.acquired


def canonical(pairs: Iterable[tuple[Local, int]]) -> WarpStates:
    merged: dict[Local, int] = {}
    for local, mask in pairs:
        merged[local] = merged.get(local, 0) | mask
    if len(merged) < 2:
        return tuple(merged.items())
    return tuple(sorted(merged.items(), key=_MASK))


_MASK = itemgetter(1)  # (a stable sort by mask; itemgetter runs in C)


def join_states(a: WarpStates, b: WarpStates) -> WarpStates:
    if a == b:
        return a
    return normalize((*a, *b))


def normalize(entries: Iterable[tuple[Local, int]]) -> WarpStates:
    """Paths meet: states under the same assumptions merge warp by warp; states with equal TMEM
    facts merge whatever their assumptions (keeping those they share); repeat until neither
    applies. The rest stay apart (at most _MAX_PATH_STATES, else one state per warp)."""
    state = canonical(entries)
    if not state:
        return state
    memo = state[0][0].table.normalize_memo  # a pure function of interned states
    found = memo.get(state)
    if found is None:
        found = memo[state] = _normalize(state)
    return found


def _normalize(state: WarpStates) -> WarpStates:
    while True:
        by_assumption: dict[frozenset[tuple[SSAValue, bool]], list[tuple[Local, int]]] = {}
        for local, mask in state:
            by_assumption.setdefault(local.assume, []).append((local, mask))
        merged: list[tuple[Local, int]] = []
        for group in by_assumption.values():
            merged.extend(_join_each(group))
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
                local = local.assuming(assume)
            out.append((local, mask))
        new = canonical(out)
        if new == state:
            break
        state = new
    return _collapse(state) if len(state) > _MAX_PATH_STATES else state


def _collapse(state: WarpStates) -> WarpStates:
    """One state per warp again (their join): bounds the number of path states."""
    return _join_each(state)


def _join_each(entries: WarpStates | list[tuple[Local, int]]) -> WarpStates:
    """The entries joined one after the other, warp by warp."""
    local, mask = entries[0]
    acc: WarpStates = ((local, mask),) if mask else ()  # (what joining it to nothing gives)
    for entry in entries[1:]:
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
    return canonical(out)


def _join_local(a: Local, b: Local) -> Local:
    if a is b:
        return a
    key = (id(a), id(b))
    memo = a.table.join_memo
    found = memo.get(key)
    if found is not None:
        return found
    after = a.after_due
    if after is None or (b.after_due is not None and b.after_due[0] is not after[0]):
        after = b.after_due if after is None else after
    elif b.after_due is not None:
        after = (after[0], after[1] | b.after_due[1])
    found = a.table.make(
        (
            _join_accesses(a.outstanding, b.outstanding),
            a.epoch | b.epoch,
            first(a.work, b.work),
            first(a.unfenced, b.unfenced),
            a.pending | b.pending,
            after,
            a.own_live | b.own_live,
            a.known_live | b.known_live,
            a.freed & b.freed,
            smaller_alloc(a.min_alloc, b.min_alloc),
            first(a.relinquished, b.relinquished),
            a.slots | b.slots,
            a.reads | b.reads,
            a.issued | b.issued,
            a.acquired & b.acquired,
            _join_counts(a.arrivals, b.arrivals),
            a.assume & b.assume,
        )
    )
    memo[key] = found
    return found


def _join_counts(
    a: frozenset[tuple[object, int | None]], b: frozenset[tuple[object, int | None]]
) -> frozenset[tuple[object, int | None]]:
    """Release counts per mbarrier: a count the two paths disagree on (or one path lacks) is unknown."""
    if a == b:
        return a
    da, db = dict(a), dict(b)
    return frozenset((key, da.get(key) if da.get(key, -1) == db.get(key, -1) else None) for key in da.keys() | db.keys())


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
