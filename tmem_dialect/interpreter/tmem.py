"""One CTA's Tensor Memory: 128 x 512 cells of 32 bits, the column allocator, and race detection.

Every asynchronous access (ld, st, and the warpgroup tile ops) is an `AccessRecord`: issued at a
clock of its warp, completed at that warp's next wait of the matching kind. Each cell remembers
its last writer and, per warp, its last reader; a new access is checked against them with the
rules of tmem_dialect.memory_model and the happens-before clocks of interpreter.sync, so a race is
reported whichever order this run happened to execute the two accesses in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.findings import FindingKind
from tmem_dialect import memory_model as mm
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.interpreter.sync import WarpClock

LANES, COLUMNS = isa.TMEM_LANES, isa.TMEM_COLUMNS
CELLS = LANES * COLUMNS


def cell_text(flat: int) -> str:
    return f"TMEM lane {flat // COLUMNS}, column {flat % COLUMNS}"


class CellSet:
    """The cells of one warp's access (read-only flat arrays), with their bounds precomputed.

    When the cells are exactly the rectangle lane_range x col_range (fragments are bijective, so
    a matching count suffices), per-cell metadata is read and written through a slice (`rect`).
    """

    def __init__(self, lanes: np.ndarray | None, cols: np.ndarray | None, threads: np.ndarray | None,
                 lane_range: tuple[int, int], col_range: tuple[int, int],
                 rect: tuple[slice, slice] | None = None):
        self._lanes, self._cols, self._threads = lanes, cols, threads
        self._flat: np.ndarray | None = None
        self.lane_range, self.col_range, self.rect = lane_range, col_range, rect

    @staticmethod
    def of(lanes: np.ndarray, cols: np.ndarray, threads: np.ndarray) -> CellSet:
        for a in (lanes, cols, threads):
            a.setflags(write=False)
        if not lanes.size:
            return CellSet(lanes, cols, threads, (0, 0), (0, 0))
        (l0, l1), (c0, c1) = (int(lanes.min()), int(lanes.max())), (int(cols.min()), int(cols.max()))
        cells = CellSet(lanes, cols, threads, (l0, l1), (c0, c1))
        inside = l0 >= 0 and l1 < LANES and c0 >= 0 and c1 < COLUMNS
        if inside and (l1 - l0 + 1) * (c1 - c0 + 1) == lanes.size and np.unique(cells.flat).size == lanes.size:
            cells.rect = (slice(l0, l1 + 1), slice(c0, c1 + 1))
        return cells

    @staticmethod
    def rectangle(lanes: range, cols: range) -> CellSet:
        """All cells of lanes x cols (lane-major), e.g. the columns a dealloc frees; arrays on demand."""
        return CellSet(None, None, None, (lanes.start, lanes.stop - 1), (cols.start, cols.stop - 1),
                       (slice(lanes.start, lanes.stop), slice(cols.start, cols.stop)))

    def _expand(self) -> None:
        assert self.rect is not None
        lanes, cols = self.rect
        width = cols.stop - cols.start
        self._lanes = np.repeat(np.arange(lanes.start, lanes.stop), width)
        self._cols = np.tile(np.arange(cols.start, cols.stop), lanes.stop - lanes.start)
        self._threads = np.zeros_like(self._lanes)

    @property
    def lanes(self) -> np.ndarray:
        if self._lanes is None:
            self._expand()
        return self._lanes  # type: ignore[return-value]

    @property
    def cols(self) -> np.ndarray:
        if self._cols is None:
            self._expand()
        return self._cols  # type: ignore[return-value]

    @property
    def threads(self) -> np.ndarray:
        if self._threads is None:
            self._expand()
        return self._threads  # type: ignore[return-value]

    @property
    def flat(self) -> np.ndarray:
        if self._flat is None:
            self._flat = self.lanes * COLUMNS + self.cols
            self._flat.setflags(write=False)
        return self._flat

    @property
    def size(self) -> int:
        if self._lanes is not None:
            return self._lanes.size
        assert self.rect is not None
        return (self.rect[0].stop - self.rect[0].start) * (self.rect[1].stop - self.rect[1].start)

    @property
    def inside(self) -> bool:
        """Every cell lies inside the 128 x 512 TMEM."""
        (l0, l1), (c0, c1) = self.lane_range, self.col_range
        return l0 >= 0 and l1 < LANES and c0 >= 0 and c1 < COLUMNS

    def select(self, keep: np.ndarray) -> CellSet:
        return CellSet.of(self.lanes[keep], self.cols[keep], self.threads[keep])

    def ids(self, per_cell: np.ndarray) -> np.ndarray:
        """The entries of a per-cell metadata array (flat, 128*512) for these cells."""
        if self.rect is not None:
            return per_cell.reshape(LANES, COLUMNS)[self.rect]
        return per_cell[self.flat]

    def assign(self, per_cell: np.ndarray, value: int) -> None:
        if self.rect is not None:
            per_cell.reshape(LANES, COLUMNS)[self.rect] = value
        else:
            per_cell[self.flat] = value

    def flat_at(self, ids: np.ndarray, rid: int) -> int:
        """The flat index of the first cell whose entry in `ids` (from `ids()`) is `rid`."""
        pos = int(np.argmax((ids == rid).reshape(-1)))
        if self.rect is None:
            return int(self.flat[pos])
        width = self.rect[1].stop - self.rect[1].start
        return (self.rect[0].start + pos // width) * COLUMNS + self.rect[1].start + pos % width


@dataclass
class AccessRecord:
    """One warp's asynchronous access (or a dealloc) of a set of TMEM cells."""

    id: int
    warp: int
    kind: EffectKind
    op: Operation
    issue: int
    completion: int | None
    # (flat cell indices, lane in the warp of each cell) of the access, recomputed for messages.
    cells: Callable[[], tuple[np.ndarray, np.ndarray]]
    first_thread: int = 0  # CTA thread index of the warp's lane 0

    def thread_at(self, flat: int) -> int | None:
        cells, lanes = self.cells()
        hit = np.flatnonzero(cells == flat)
        return self.first_thread + int(lanes[hit[0]]) if hit.size else None


@dataclass
class Allocation:
    id: int
    base: int
    ncols: int
    warp: int
    op: Operation
    cta_group: int
    live: bool = True
    dealloc_op: Operation | None = None
    freed_clock: np.ndarray | None = None
    clock: int = 0  # the allocating warp's clock when it allocated


@dataclass
class Problem:
    """A finding before it becomes a diagnostic: kind, severity, message, related ops."""

    kind: FindingKind
    severity: str
    message: str
    notes: list[tuple[str, Operation | None]] = field(default_factory=list)
    related: Operation | None = None
    unordered_warp: int | None = None  # the other warp, when nothing ordered its access


class Allocator:
    """The TMEM column allocator of one CTA: power-of-2 ranges, aligned to their size."""

    def __init__(self):
        self.owner = np.full(COLUMNS, -1, dtype=np.int32)
        self.allocations: list[Allocation] = []
        self.last_ncols: int | None = None
        self.last_alloc: Allocation | None = None
        self.relinquished: Operation | None = None

    def find_room(self, ncols: int) -> int | None:
        """Lowest free column range of `ncols` columns aligned to `ncols` (None: full)."""
        for base in range(0, COLUMNS - ncols + 1, ncols):
            if (self.owner[base : base + ncols] < 0).all():
                return base
        return None

    def take(self, base: int, ncols: int, warp: int, op: Operation, cta_group: int) -> Allocation:
        a = Allocation(len(self.allocations), base, ncols, warp, op, cta_group)
        self.allocations.append(a)
        self.owner[base : base + ncols] = a.id
        self.last_ncols, self.last_alloc = ncols, a
        return a

    def freed_clocks(self, base: int, ncols: int) -> list[np.ndarray]:
        """Clocks of the deallocs that last freed columns in [base, base+ncols)."""
        out = []
        for a in self.allocations:
            if not a.live and a.freed_clock is not None and a.base < base + ncols and base < a.base + a.ncols:
                out.append(a.freed_clock)
        return out

    def live_at(self, base: int) -> Allocation | None:
        for a in self.allocations:
            if a.live and a.base == base:
                return a
        return None

    def freed_at(self, base: int) -> Allocation | None:
        found = None
        for a in self.allocations:
            if not a.live and a.base == base:
                found = a
        return found

    def free(self, a: Allocation, op: Operation, clock: np.ndarray) -> None:
        a.live = False
        a.dealloc_op = op
        a.freed_clock = clock.copy()
        self.owner[a.base : a.base + a.ncols] = -1

    def last_freed_column(self, column: int) -> Allocation | None:
        found = None
        for a in self.allocations:
            if not a.live and a.base <= column < a.base + a.ncols:
                found = a
        return found


class TensorMemory:
    """The cells and access history of one CTA's TMEM."""

    def __init__(self, warps_in_cta: int, first_warp: int):
        self.cells = np.zeros(CELLS, dtype=np.uint32)
        self.writer = np.full(CELLS, -1, dtype=np.int64)
        self.readers: dict[int, np.ndarray] = {}
        self.allocator = Allocator()
        self.first_warp = first_warp
        self.warps_in_cta = warps_in_cta
        self.wild_readers: set[int] = set()

    def reader_array(self, warp: int) -> np.ndarray:
        arr = self.readers.get(warp)
        if arr is None:
            arr = np.full(CELLS, -1, dtype=np.int64)
            self.readers[warp] = arr
        return arr

    def note_read(self, warp: int, access: CellSet) -> None:
        """Remember when a warp read outside its own lane quarter (then every check sees it)."""
        quarter = (warp - self.first_warp) % isa.WARPS_PER_WARPGROUP
        lo, hi = access.lane_range
        if lo // isa.LANES_PER_WARP != quarter or hi // isa.LANES_PER_WARP != quarter:
            self.wild_readers.add(warp)

    def readers_of(self, access: CellSet, everything: bool) -> list[np.ndarray]:
        """Reader arrays that can hold reads of these cells: warps of their lane quarters, wild ones."""
        if everything or not access.size:
            return list(self.readers.values())
        lo, hi = access.lane_range
        quarters = set(range(lo // isa.LANES_PER_WARP, hi // isa.LANES_PER_WARP + 1))
        return [
            arr for w, arr in self.readers.items()
            if (w - self.first_warp) % isa.WARPS_PER_WARPGROUP in quarters or w in self.wild_readers
        ]


class History:
    """Access records of the whole run (ids index `records`), outstanding accesses per warp."""

    def __init__(self, warps: int):
        self.records: list[AccessRecord] = []
        self.outstanding: list[dict[EffectKind, list[AccessRecord]]] = [
            {EffectKind.LD: [], EffectKind.ST: []} for _ in range(warps)
        ]

    def new(
        self,
        warp: int,
        kind: EffectKind,
        op: Operation,
        clock: WarpClock,
        cells: Callable[[], tuple[np.ndarray, np.ndarray]],
        first_thread: int,
        synchronous: bool = False,
    ) -> AccessRecord:
        rec = AccessRecord(
            len(self.records), warp, kind, op, clock.now, clock.now if synchronous else None, cells,
            first_thread,
        )
        self.records.append(rec)
        if not synchronous:
            self.outstanding[warp].setdefault(kind, []).append(rec)
        return rec

    def complete(self, warp: int, wait_kind: EffectKind, clock: WarpClock) -> None:
        """A wait::ld / wait::st of `warp`: its outstanding accesses of that kind complete now."""
        kind = mm.retired_by(wait_kind)
        if kind is None:
            return
        for rec in self.outstanding[warp].get(kind, []):
            rec.completion = clock.now
        self.outstanding[warp][kind] = []


def _unique_ids(ids: np.ndarray) -> np.ndarray:
    """The distinct record ids (>= 0) in `ids`; -1 marks cells nobody touched."""
    if ids.size == 0:
        return ids
    lo, hi = ids.min(), ids.max()
    if lo == hi:
        return np.array([lo]) if lo >= 0 else np.array([], dtype=np.int64)
    ids = ids.reshape(-1)
    if hi < 4 * ids.size:
        counts = np.bincount(ids[ids >= 0] if lo < 0 else ids, minlength=int(hi) + 1)
        return np.flatnonzero(counts)
    u = np.unique(ids)
    return u[u >= 0]


def _verb(kind: EffectKind) -> str:
    if kind is EffectKind.DEALLOC:
        return "frees"
    return "writes" if kind.writes_tmem else "reads"


def _who(warp: int, thread: int | None) -> str:
    return f"warp {warp}" + (f" (thread {thread})" if thread is not None else "")


def check_pair(
    a: AccessRecord,
    b_kind: EffectKind,
    b_warp: int,
    b_op: Operation,
    clock: WarpClock,
    pending_fenced: np.ndarray,
    flat: int,
    b_thread: int | None,
    ptx_version: tuple[int, int],
) -> Problem | None:
    """Is access `b` (about to happen in warp `b_warp`) ordered after the earlier access `a`?"""
    if not (a.kind.writes_tmem or b_kind.writes_tmem or b_kind is EffectKind.DEALLOC
            or a.kind is EffectKind.DEALLOC):
        return None  # read after read
    where = cell_text(flat)
    b_text = f"{b_op.name} of {_who(b_warp, b_thread)} {_verb(b_kind)} {where}"
    if a.warp == b_warp:
        if a.completion is not None:
            return None
        if a.kind is EffectKind.DEALLOC:
            return None
        req = mm.same_thread_requirement(a.kind, b_kind, ptx_version)
        if req is None:
            return None
        return Problem(
            FindingKind.of_rule(req.rule),
            "error",
            f"{b_text} while the {a.op.name} of the same warp on it is still outstanding: "
            f"{req.rule.cite()} needs tcgen05.{req.wait.value} in between",
            [(f"the outstanding {a.op.name} of warp {a.warp}", a.op)],
            a.op,
        )
    a_text = f"the {a.op.name} of {_who(a.warp, a.thread_at(flat))}"
    if a.kind is EffectKind.DEALLOC:
        if a.completion is not None and clock.knows(a.warp, a.completion):
            return None  # ordered after the dealloc: the access itself finds the columns free
        return Problem(
            FindingKind.USE_AFTER_FREE,
            "error",
            f"{b_text}, which {a_text} freed, and nothing orders the two",
            [(f"warp {a.warp} freed it here", a.op)],
            a.op,
        )
    req = mm.cross_thread_requirement(a.kind, b_kind)
    if req is None:
        return None
    if a.completion is not None and clock.knows(a.warp, a.completion):
        # Completed and handed over. The fence::before_thread_sync that makes this the canonical
        # handoff must follow the access (it orders the async op before the barrier).
        if clock.knows_fenced(a.warp, a.issue):
            return None
        if pending_fenced[a.warp] >= a.issue:
            missing = f"warp {b_warp} has no tcgen05.fence::after_thread_sync after the barrier"
        else:
            missing = f"warp {a.warp} has no tcgen05.fence::before_thread_sync before the barrier"
        return Problem(
            FindingKind.MISSING_FENCE,
            "warning",
            f"{b_text}, which {a_text} used; a barrier orders the two but {missing} "
            f"(the canonical handoff of {mm.HANDOFF.cite()} fences both sides)",
            [(f"{a.op.name} of warp {a.warp} accessed it here", a.op)],
            a.op,
        )
    kind = FindingKind.of_rule(req.rule)
    wait = f"tcgen05.{req.wait.value}" if req.wait is not None else "completion"
    if clock.knows(a.warp, a.issue):
        return Problem(
            kind,
            "error",
            f"{b_text} while {a_text} on it is still outstanding: warp {a.warp} synchronized with "
            f"warp {b_warp} before completing it; {req.rule.cite()} needs {wait} before the barrier",
            [(f"the outstanding {a.op.name} of warp {a.warp}", a.op)],
            a.op,
        )
    return Problem(
        kind,
        "error",
        f"{b_text}, which {a_text} also accesses, with no barrier ordering the two: "
        f"{req.rule.cite()} needs {wait}, tcgen05.fence::before_thread_sync, a barrier and "
        "tcgen05.fence::after_thread_sync between them",
        [(f"the {a.op.name} of warp {a.warp}", a.op)],
        a.op,
        a.warp,
    )


def conflicts(
    tm: TensorMemory,
    history: History,
    access: CellSet,
    kind: EffectKind,
    warp: int,
    op: Operation,
    clock: WarpClock,
    thread_of: Callable[[int], int | None],
    ptx_version: tuple[int, int],
    seen: set[tuple],
) -> list[Problem]:
    """Problems of a new access of `kind` by `warp` on the cells of `access`, against the history.

    `seen` holds (kind, op id, op id) keys already reported, so a loop reports a pair once.
    """
    problems: list[Problem] = []
    sources = [tm.writer]
    if kind.writes_tmem or kind is EffectKind.DEALLOC:
        sources.extend(tm.readers_of(access, kind is EffectKind.DEALLOC))
    for source in sources:
        ids = access.ids(source)
        for rid in _unique_ids(ids):
            a = history.records[int(rid)]
            if a.warp == warp and a.completion is not None:
                continue
            first = access.flat_at(ids, int(rid))
            p = check_pair(a, kind, warp, op, clock, clock.pending_fenced, first,
                           thread_of(first), ptx_version)
            if p is None:
                continue
            key = (p.kind, id(op), id(a.op))
            if key in seen:
                continue
            seen.add(key)
            problems.append(p)
    return problems


def record(tm: TensorMemory, rec: AccessRecord, access: CellSet) -> None:
    """Make `rec` the latest writer (st, dealloc) or this warp's latest reader (ld) of the cells."""
    if rec.kind.writes_tmem or rec.kind is EffectKind.DEALLOC:
        access.assign(tm.writer, rec.id)
    else:
        access.assign(tm.reader_array(rec.warp), rec.id)
        tm.note_read(rec.warp, access)
