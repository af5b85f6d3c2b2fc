"""The machine a kernel runs on: CTAs with TMEM, allocators, barriers and shared memory; findings.

The operations here are the semantics of TMEM effects (tmem_dialect.dialects.interfaces): the op
implementations of both dialects ask `tmem_effect(op)` and call into this module, so tcgen05.* and
nvvm.tcgen05.* share one implementation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation

from tmem_dialect.findings import FindingKind
from tmem_dialect import diagnostics as diag
from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import TMEMEffect, tmem_effect
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.interpreter import producers, provenance, shared_memory, tma
from tmem_dialect.interpreter import tmem as tm
from tmem_dialect.interpreter.lanes import WarpLanes
from tmem_dialect.interpreter.memory import SHARED, AddressSpace, Buffer, Memory, MemoryFault, MemRefValue
from tmem_dialect.interpreter.sync import (
    Aborted,
    Barrier,
    Blocked,
    ClusterBarrier,
    Scheduler,
    WarpClock,
    complete_barrier,
)
from tmem_dialect.interpreter.values import WARP

YIELD_EVERY = 4096


def _words(index: np.ndarray, dtype: np.dtype, count: int) -> np.ndarray:
    """The 32-bit words an access of `count` (0: one) elements at element `index` touches."""
    first = index.astype(np.int64) * dtype.itemsize
    nbytes = dtype.itemsize * max(count, 1)
    return np.unique((first[:, None] + np.arange(0, nbytes, 4)) // 4)


@dataclass(frozen=True)
class Options:
    """How a run judges the kernel."""

    ptx_version: tuple[int, int] = isa.DEFAULT_PTX_VERSION
    conservative: bool = False  # report register use before wait::ld (as a note)
    max_warp_ops: int = 20_000_000
    schedule: str = "round-robin"  # which ready warp runs next: round-robin, reverse, random:SEED
    dynamic_shared_bytes: int = 0  # the size of `.extern .shared x[]` (dynamic shared memory, set at launch)


@dataclass
class Finding:
    """A diagnostic and the misuse category it belongs to (for comparing runs)."""

    kind: FindingKind
    diagnostic: diag.Diagnostic


@dataclass
class PairMatch:
    """A cta_group::2 rendezvous: the two warps (one per CTA) that execute the same op together."""

    kind: EffectKind
    first: WarpLanes
    first_op: Operation
    operands: tuple = ()  # what the first warp passed (column count, address): the peer must agree
    second: WarpLanes | None = None
    done: bool = False


@dataclass(frozen=True)
class BarrierPassage:
    """A warp passed a CTA barrier (bar.sync or bar.arrive), and who took part."""

    barrier_id: int
    participants: frozenset[int]
    op: Operation


@dataclass
class CTA:
    """One CTA of the cluster: its rank (%cluster_ctarank), warps, TMEM, shared memory and CTA barriers.

    Its mbarriers live in `producers.of(machine).mbarriers`, keyed by (rank, shared address)."""

    index: int
    threads: int
    warps: list[int]
    tmem: tm.TensorMemory
    shared: AddressSpace
    barriers: dict[int, Barrier] = field(default_factory=dict)

    @property
    def pair(self) -> tuple[int, int]:
        """The ranks of its cta_group::2 pair: CTAs 2k and 2k+1."""
        return self.index & ~1, self.index | 1

    @property
    def peer(self) -> int:
        return self.index ^ 1


class Machine:
    """All state of one kernel run."""

    def __init__(self, threads: int, ctas: int, options: Options):
        self.options = options
        self.threads = threads
        self.warps_per_cta = (threads + WARP - 1) // WARP
        self.warp_count = self.warps_per_cta * ctas
        self.memory = Memory(ctas)
        self.ctas = [
            CTA(
                c,
                threads,
                list(range(c * self.warps_per_cta, (c + 1) * self.warps_per_cta)),
                tm.TensorMemory(self.warps_per_cta, c * self.warps_per_cta),
                self.memory.shared_spaces[c],
            )
            for c in range(ctas)
        ]
        self.clocks = [WarpClock.new(w, self.warp_count) for w in range(self.warp_count)]
        self.history = tm.History(self.warp_count)
        self.scheduler = Scheduler(self.warp_count, options.schedule)
        self.shared = shared_memory.SharedShadows(self.warp_count, self.clocks, self.report)
        self.findings: list[Finding] = []
        self._seen: set[tuple] = set()
        self._pair_waiting: dict[tuple[EffectKind, int], PairMatch] = {}
        self.peer_exited: set[int] = set()  # CTAs whose pair op found the peer CTA exited (reported)
        # (warp, CTA) -> (clock, op) of the warp's last access to that other CTA's shared memory;
        # per warp, its vector clock when it exited
        self.remote_accesses: dict[tuple[int, int], tuple[int, Operation]] = {}
        self.exit_clocks: dict[int, np.ndarray] = {}
        self.warp_interpreters: list[WarpLanes] = []
        self.total_ops = 0
        self.cells_moved = 0
        # symbol -> one buffer per CTA (the same buffer for every CTA unless it is shared memory)
        self.globals: dict[str, list[Buffer]] = {}
        self.global_shapes: dict[str, tuple[tuple[int, ...], np.dtype]] = {}
        self.tile_maps: dict[tuple[int, int], tuple[Operation, tuple[np.ndarray, ...]]] = {}
        self.cell_sets: dict[tuple, tm.CellSet] = {}
        self.block_orders: dict[int, dict] = {}
        # per warp, the CTA barriers it passed; per (CTA, barrier id), this generation's arrivals
        self.barrier_log: list[list[BarrierPassage]] = [[] for _ in range(self.warp_count)]
        self._arrivals: dict[tuple[int, int], list[tuple[int, Operation]]] = {}
        # barrier.cluster over every thread of every CTA; per warp, the phase it arrived for
        # (until it waits) and how many cluster waits it completed
        self.cluster = ClusterBarrier(threads * ctas)
        self.cluster_pending: dict[int, int] = {}
        self.cluster_waits = [0] * self.warp_count
        self.cluster_waits_at_pair_alloc: dict[int, int] = {}  # id(region) -> {block: position in region_order}
        self._effects: dict[int, tuple[Operation, TMEMEffect]] = {}  # ld/st geometry by (taddr, shape, num, ...)
        # Observation hook (tools.pictures): called as observer(warp, op) after each op a warp ran.
        self.observer: Callable[[WarpInterpreter, Operation], None] | None = None

    def cta(self, rank: int) -> CTA:
        """CTA `rank` of the cluster (%cluster_ctarank): where TMA multicast, commit multicast and
        shared::cluster accesses deliver."""
        return self.ctas[rank]

    def shared_target(self, w: WarpLanes, address: int) -> tuple[int, int]:
        """(CTA rank, shared::cta address) that a shared or shared::cluster address of warp `w` names."""
        return self.memory.shared_target(address, w.cta)

    def effect_of(self, op: Operation) -> TMEMEffect:
        """tmem_effect(op), computed once per op of the run (an op's effect is static)."""
        hit = self._effects.get(id(op))
        if hit is None or hit[0] is not op:
            effect = tmem_effect(op)
            assert effect is not None
            hit = self._effects[id(op)] = (op, effect)
        return hit[1]

    # ---- module globals ---------------------------------------------------------------------

    def global_buffer(self, w: WarpLanes, name: str) -> Buffer:
        return self.globals[name][w.cta]

    def global_memref(self, w: WarpLanes, name: str):
        shape, dtype = self.global_shapes[name]
        return MemRefValue(self.globals[name][w.cta], shape, dtype)

    # ---- findings -----------------------------------------------------------------------

    def report(
        self,
        kind: FindingKind,
        severity: str,
        op: Operation | None,
        message: str,
        notes: list[tuple[str, Operation | None]] | tuple = (),
        key: tuple | None = None,
    ) -> None:
        """Record a finding once per (kind, op, key)."""
        dedupe = (kind, id(op), key if key is not None else message)
        if dedupe in self._seen:
            return
        self._seen.add(dedupe)
        make = {"error": diag.error, "warning": diag.warning, "note": diag.note}[severity]
        d = make(op, message)
        for text, at in notes:
            d.attach_note(text, at)
        self.findings.append(Finding(kind, d))

    def report_problem(self, p: tm.Problem, op: Operation, consumer: int | None = None) -> None:
        kind, message, notes = p.kind, p.message, p.notes
        if p.unordered_warp is not None and consumer is not None:
            found = self._barrier_excluding(p.unordered_warp, consumer)
            if found is not None:
                me, other, passage = found
                kind = FindingKind.BARRIER_SCOPE
                message += (f"; warp {me} synchronized through barrier {passage.barrier_id}, which only "
                            f"{warp_list(sorted(passage.participants))} take part in, not warp {other}")
                notes = [*notes, (f"barrier {passage.barrier_id} of warp {me}", passage.op)]
        self.report(kind, p.severity, op, message, notes, key=(kind, id(p.related)))

    def _barrier_excluding(self, a: int, b: int) -> tuple[int, int, BarrierPassage] | None:
        """(warp, other warp, barrier) when the last barrier one of two warps passed excludes the
        other: two warps whose accesses nothing ordered, and one of them synchronized through a
        barrier the other does not take part in (a named barrier of the wrong scope)."""
        for me, other in ((a, b), (b, a)):
            log = self.barrier_log[me]
            if log and other not in log[-1].participants:
                return me, other, log[-1]
        return None

    # ---- per-warp helpers ---------------------------------------------------------------

    def count_op(self, w: WarpLanes) -> None:
        self.total_ops += 1
        if self.total_ops > self.options.max_warp_ops:
            self.report(
                FindingKind.STEP_LIMIT,
                "error",
                w.current_op,
                f"the run stopped after {self.options.max_warp_ops} interpreted warp operations "
                f"(warp {w.warp} was here); the kernel may not terminate",
            )
            self.scheduler.abort()
            raise Aborted()
        w.since_yield += 1
        if w.since_yield >= YIELD_EVERY:
            w.since_yield = 0
            self.scheduler.yield_now(w.warp)

    def check_collective(self, w: WarpLanes, op: Operation, what: str) -> None:
        """A `.sync.aligned` op must be executed by every (non-exited) thread of the warp."""
        if w.is_full:
            return
        missing = np.flatnonzero(w.alive & ~w.mask)
        self.report(
            FindingKind.PARTIAL_COLLECTIVE,
            "error",
            op,
            f"{what} is warp-collective (.sync.aligned) but warp {w.warp} executes it with only "
            f"{int(w.mask.sum())} of its {int(w.alive.sum())} threads (thread {w.thread_id(int(missing[0]))} "
            "does not take this path)",
            key="once per op",
        )

    def uniform(self, w: WarpLanes, op: Operation, values: np.ndarray, what: str) -> int:
        """The warp-uniform value of a collective operand (reports lanes that differ)."""
        lane = int(np.argmax(w.mask))
        first = values[lane]
        differs = (values != first) & w.mask
        if differs.any():
            other = int(np.argmax(differs))
            self.report(
                FindingKind.DIVERGENT_OPERAND,
                "error",
                op,
                f"the {what} of a warp-collective op must be the same in every thread, but in warp "
                f"{w.warp} thread {w.thread_id(lane)} has {int(first)} and thread "
                f"{w.thread_id(other)} has {int(values[other])}",
                key="once per op",
            )
        return int(first)

    # ---- memory (with shared-memory race detection) -------------------------------------

    def load(self, w: WarpLanes, op: Operation, addresses: np.ndarray, dtype: np.dtype, count: int):
        if not w.mask.any():
            return np.zeros((WARP, count) if count else (WARP,), dtype=dtype)
        try:
            values, acc = self.memory.load(addresses, w.mask, dtype, count, w.cta)
        except MemoryFault as e:
            self._fault(w, op, "load", e)
            return np.zeros((WARP, count) if count else (WARP,), dtype=dtype)
        if acc.buffer.space == SHARED:
            values = self.shared.loaded(w, op, acc.buffer, acc.index, dtype, count, values)
            if acc.buffer.cta != w.cta:
                self.remote_access(w, op, acc.buffer.cta)
            tma.shared_read(self, w, op, acc.buffer, _words(acc.index[w.mask], dtype, count))  # a TMA load in flight
        return values

    def store(self, w: WarpLanes, op: Operation, addresses: np.ndarray, values: np.ndarray,
              dtype: np.dtype, count: int) -> None:
        if not w.mask.any():
            return
        try:
            acc = self.memory.store(addresses, w.mask, values, dtype, count, w.cta)
        except MemoryFault as e:
            self._fault(w, op, "store", e)
            return
        if acc.buffer.space == SHARED:
            self.shared.stored(w, op, acc.buffer, acc.index, dtype, count, values)
            if acc.buffer.cta != w.cta:
                self.remote_access(w, op, acc.buffer.cta)
            # issue 10: a store into the operands of an mma/cp still in flight
            producers.shared_write(self, w, op, acc.buffer, np.unique(acc.index[w.mask] * dtype.itemsize // 4))
            tma.shared_write(self, w, op, acc.buffer, _words(acc.index[w.mask], dtype, count))  # a bulk store reading it

    def remote_access(self, w: WarpLanes, op: Operation, cta: int) -> None:
        """Warp `w` accessed the shared memory of another CTA of the cluster: that CTA must not exit
        before it (interpreter.cluster checks, after the run, that a cluster barrier orders it)."""
        self.remote_accesses[(w.warp, cta)] = (self.clocks[w.warp].now, op)

    def _fault(self, w: WarpLanes, op: Operation, what: str, e: MemoryFault) -> None:
        self.report(FindingKind.MEMORY_FAULT, "error", op, f"invalid {what} in warp {w.warp}: {e}", key=w.warp)

    # ---- TMEM data movement ---------------------------------------------------------------

    def tmem_access(
        self,
        w: WarpLanes,
        op: Operation,
        kind: EffectKind,
        access: tm.CellSet,
        cells: Callable[[], tuple[np.ndarray, np.ndarray]],
        derived_from: tm.Allocation | None = None,
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Check and record one warp's access of the cells of `access`.

        `derived_from` is the allocation the access's address derives from (provenance), when
        known: the access is then judged against that allocation, not just any live one.

        Returns the flat indices of the cells inside TMEM and the mask selecting them from
        `access` (None: all of them are inside).
        """
        cta = self.ctas[w.cta]
        valid = None
        if not access.inside:
            lanes, cols = access.lanes, access.cols
            valid = (lanes >= 0) & (lanes < tm.LANES) & (cols >= 0) & (cols < tm.COLUMNS)
            i = int(np.argmax(~valid))
            self.report(
                FindingKind.OUT_OF_BOUNDS,
                "error",
                op,
                f"{op.name} of warp {w.warp} (thread {w.thread_id(int(access.threads[i]))}) addresses "
                f"TMEM lane {int(lanes[i])}, column {int(cols[i])}, outside the "
                f"{tm.LANES} x {tm.COLUMNS} Tensor Memory",
                key=w.warp,
            )
            access = access.select(valid)
            if not access.flat.size:
                return access.flat, valid
        lanes, cols, threads, flat = access.lanes, access.cols, access.threads, access.flat
        quarter = isa.lane_quarter(w.warp_in_cta)
        # An empty access (a warp with no element of a tile) has no lane range to check.
        if access.size and (access.lane_range[0] < quarter.start or access.lane_range[1] >= quarter.stop):
            outside = (lanes < quarter.start) | (lanes >= quarter.stop)
            i = int(np.argmax(outside))
            self.report(
                FindingKind.LANE_QUARTER,
                "error",
                op,
                f"{op.name} of warp {w.warp} (thread {w.thread_id(int(threads[i]))}) accesses "
                f"{tm.cell_text(int(flat[i]))}, outside the warp's lane quarter "
                f"{quarter.start}..{quarter.stop - 1} (warp w may access lanes 32*(w%4)..32*(w%4)+31)",
                key=w.warp,
            )
        allocator = cta.tmem.allocator
        c0, c1 = access.col_range
        if derived_from is not None:
            inside = derived_from.live and derived_from.base <= c0 and c1 < derived_from.base + derived_from.ncols
            found = None if inside or not access.size else provenance.check(allocator, derived_from, cols)
            if found is not None:
                finding, what, notes = found
                self.report(finding, "error", op, f"{op.name} of warp {w.warp} accesses TMEM {what}", notes,
                            key=w.warp)
        elif (allocator.owner[c0 : c1 + 1] < 0).any():
            unallocated = allocator.owner[cols] < 0
            if unallocated.any():
                i = int(np.argmax(unallocated))
                column = int(cols[i])
                freed = allocator.last_freed_column(column)
                if freed is not None:
                    finding, notes, what = FindingKind.USE_AFTER_FREE, [("it was freed here", freed.dealloc_op)], "freed"
                else:
                    finding, notes, what = FindingKind.UNALLOCATED, [], "not allocated"
                self.report(
                    finding,
                    "error",
                    op,
                    f"{op.name} of warp {w.warp} (thread {w.thread_id(int(threads[i]))}) accesses "
                    f"{tm.cell_text(int(flat[i]))}, which is {what}",
                    notes,
                    key=w.warp,
                )

        def thread_of(f: int) -> int | None:
            hit = np.flatnonzero(flat == f)
            return w.thread_id(int(threads[hit[0]])) if hit.size else None

        producers.check_access(self, w, op, kind, flat)  # issue 10: D of an mma still in flight
        clock = self.clocks[w.warp]
        for p in tm.conflicts(cta.tmem, self.history, access, kind, w.warp, op, clock, thread_of,
                              self.options.ptx_version, self._seen):
            self.report_problem(p, op, w.warp)
        rec = self.history.new(w.warp, kind, op, clock, cells, w.thread_id(0))
        tm.record(cta.tmem, rec, access)
        self.cells_moved += flat.size
        return flat, valid

    def wait(self, w: WarpLanes, op: Operation, kind: EffectKind) -> None:
        self.check_collective(w, op, op.name)
        self.history.complete(w.warp, kind, self.clocks[w.warp])
        if kind is EffectKind.WAIT_LD:
            w.pending_registers.clear()

    def fence(self, w: WarpLanes, kind: EffectKind) -> None:
        clock = self.clocks[w.warp]
        if kind is EffectKind.FENCE_BEFORE:
            clock.fence_before()
        else:
            clock.fence_after()

    # ---- barriers ---------------------------------------------------------------------------

    def barrier(self, w: WarpLanes, op: Operation, barrier_id: int, count: int | None,
                aligned: bool, wait: bool = True) -> None:
        """bar.sync (`wait`) or bar.arrive at CTA barrier `barrier_id` expecting `count` threads
        (None: all threads of the CTA). Only the participating warps are ordered."""
        if aligned:
            self.check_collective(w, op, f"{op.name} (bar.sync, aligned)")
        if problem := isa.named_barrier_error(barrier_id, count):
            self.report(FindingKind.BARRIER_COUNT, "error", op, problem)
            return  # ptxas rejects the kernel; no generation of this barrier is well defined
        cta = self.ctas[w.cta]
        expected = count if count is not None else cta.threads
        b = cta.barriers.get(barrier_id)
        if b is None:
            b = cta.barriers[barrier_id] = Barrier(expected)
        if b.arrived_threads and b.expected != expected:
            self.report(
                FindingKind.BARRIER_COUNT,
                "error",
                op,
                f"warp {w.warp} arrives at barrier {barrier_id} expecting {expected} threads while "
                f"other warps expect {b.expected}",
            )
        b.expected = expected
        b.arrived_threads += int(w.mask.sum())
        arrivals = self._arrivals.setdefault((w.cta, barrier_id), [])
        arrivals.append((w.warp, op))
        if wait:
            b.warps.append(w.warp)
            b.ops.append(op)
        else:
            b.arrive(self.clocks[w.warp])
        if b.arrived_threads >= b.expected:
            participants = frozenset(warp for warp, _ in arrivals)
            for warp, at in arrivals:
                self.barrier_log[warp].append(BarrierPassage(barrier_id, participants, at))
            arrivals.clear()
            complete_barrier(b, self.clocks)
            producers.after_barrier(self, sorted(participants))  # issue 10: async completion known to one is known to all
            return
        if not wait:
            return
        generation = b.generation
        self.scheduler.block(
            w.warp,
            f"warp {w.warp} waits at barrier {barrier_id}",
            lambda: b.generation != generation,
            op,
        )

    def cluster_arrive(self, w: WarpLanes, op: Operation, relaxed: bool, aligned: bool) -> None:
        if aligned:
            self.check_collective(w, op, f"{op.name} (aligned)")
        if w.warp in self.cluster_pending:
            self.report(FindingKind.BARRIER_COUNT, "error", op,
                        f"warp {w.warp} arrives at the cluster barrier again before waiting for its "
                        "previous arrival (barrier.cluster.wait)", key=w.warp)
        phase = self.cluster.arrive(self.clocks[w.warp], int(w.mask.sum()), relaxed)
        self.cluster_pending[w.warp] = phase
        if not relaxed:
            producers.cluster_arrive(self, w.warp, phase)  # async completion it knows is released

    def cluster_wait(self, w: WarpLanes, op: Operation, aligned: bool) -> None:
        if aligned:
            self.check_collective(w, op, f"{op.name} (aligned)")
        phase = self.cluster_pending.pop(w.warp, None)
        if phase is None:
            self.report(FindingKind.BARRIER_COUNT, "error", op,
                        f"warp {w.warp} waits at the cluster barrier without having arrived "
                        "(barrier.cluster.arrive)", key=w.warp)
            return
        cluster = self.cluster
        if phase not in cluster.joined:
            self.scheduler.block(
                w.warp,
                f"warp {w.warp} waits at the cluster barrier ({cluster.arrived_threads} of "
                f"{cluster.expected} threads of the cluster arrived)",
                lambda: phase in cluster.joined,
                op,
            )
        vc, fenced = cluster.joined[phase]
        self.clocks[w.warp].acquire(vc, fenced)
        producers.cluster_wait(self, w.warp, phase)
        self.clocks[w.warp].tick()
        self.cluster_waits[w.warp] += 1

    def deadlock(self, stuck: list[tuple[int, Blocked]]) -> None:
        """No warp can make progress: one error per op where warps wait forever, naming them."""
        exited = [w for w, wi in enumerate(self.warp_interpreters) if wi.finished]
        by_op: dict[int, list[tuple[int, Blocked]]] = {}
        for warp, blocked in stuck:
            by_op.setdefault(id(blocked.op), []).append((warp, blocked))
        for group in by_op.values():
            warps = [w for w, _ in group]
            first, blocked = group[0]
            detail = blocked.reason
            if len(warps) > 1:
                detail += f" (so {'does' if len(warps) == 2 else 'do'} {warp_list(warps[1:])})"
            cta = self.ctas[self.warp_interpreters[first].cta]
            for b in cta.barriers.values():
                if first in b.warps:
                    detail += f"; {b.arrived_threads} of {b.expected} threads arrived"
            if exited:
                detail += f"; {warp_list(exited)} {'has' if len(exited) == 1 else 'have'} exited"
            others = sorted(w for w, _ in stuck if w not in warps)
            if others:
                detail += f"; {warp_list(others)} {'is' if len(others) == 1 else 'are'} blocked elsewhere"
            op = blocked.op if isinstance(blocked.op, Operation) else None
            notes = []
            if blocked.kind is FindingKind.OUT_OF_TMEM:
                # An alloc that waits forever for columns: the live allocations exceed the budget.
                notes = [(f"{a.ncols} columns allocated here by warp {a.warp} are still live", a.op)
                         for a in cta.tmem.allocator.allocations if a.live]
            self.report(blocked.kind, "error", op, f"deadlock: {detail}", notes, key=first)


def warp_list(warps: list[int]) -> str:
    return ("warp " if len(warps) == 1 else "warps ") + ", ".join(map(str, warps))
