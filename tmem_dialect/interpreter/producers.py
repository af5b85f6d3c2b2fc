"""The issue-10 state of a run: async tcgen05 completion, commit, proxy fences and the hooks the machine calls.

The machine (interpreter.machine) owns TMEM, shared memory and the clocks; this module adds the
state issue 10 needs beside them, created on first use (`of(machine)`):
- the mbarriers of the run and the completion of asynchronous tcgen05 ops (interpreter.mbarrier);
- which TMEM cells an mma wrote (per CTA), so that reading, overwriting, freeing or handing D
  over before the commit's phase was observed is reported (`check_tmem`);
- fence.proxy.async per warp, so that an mma reading shared memory that a generic-proxy store
  wrote without a proxy fence in between is reported (`check_proxy`).
The ops themselves are parts of Producers: mma in interpreter.producer_mma (the numbers come from
interpreter.tensor_core), cp and shift in interpreter.producer_copies, the mbarrier ops in
interpreter.producer_barriers.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter.mbarrier import MBarriers, Misuse
from tmem_dialect.interpreter.memory import MemoryFault
from tmem_dialect.interpreter.producer_barriers import BarrierOps, StuckReason
from tmem_dialect.interpreter.producer_copies import CopyIssue
from tmem_dialect.interpreter.producer_mma import MmaIssue
from tmem_dialect.interpreter.smem_descriptor import DescriptorError
from tmem_dialect.interpreter.tmem import CELLS, CellSet, cell_text, conflicts
from tmem_dialect.memory_model import EffectKind

if TYPE_CHECKING:
    from tmem_dialect.interpreter.machine import Machine
    from tmem_dialect.interpreter.warp import WarpInterpreter


@dataclass
class AsyncRecord:
    """One asynchronous tcgen05 op (mma, cp, shift) that wrote TMEM cells."""

    warp: int
    seq: int
    op: Operation
    cta: int


class Producers(MmaIssue, CopyIssue, BarrierOps):
    """The issue-10 state of one run."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self.mbarriers = MBarriers(machine.warp_count)
        self.async_writer = [np.full(CELLS, -1, dtype=np.int64) for _ in machine.ctas]
        self.async_tmem_reader = [np.full(CELLS, -1, dtype=np.int64) for _ in machine.ctas]  # mma operands in TMEM
        self.records: list[AsyncRecord] = []
        self.proxy_fences: list[list[int]] = [[] for _ in range(machine.warp_count)]
        self.stuck: dict[int, tuple[StuckReason, Operation]] = {}  # warps blocked in an mbarrier wait
        self.async_reads: dict[int, np.ndarray] = {}  # id(shared buffer) -> per word, the async op reading it
        self.cluster_known: dict[int, np.ndarray] = {}  # cluster barrier phase -> the join its arrivals knew complete
        # per CTA, the .ws B collector buffers: None or ((kind, B type, N, K, column shift), B) of the last ::fill
        self.collector_b: list[list] = [[None] * isa.COLLECTOR_B_BUFFERS for _ in machine.ctas]

    # ---- findings --------------------------------------------------------------------------

    def report(self, op: Operation | None, misuse: Misuse, severity: str = "error", key=None) -> None:
        self.machine.report(misuse.kind, severity, op, misuse.message, misuse.notes,
                            key=key if key is not None else misuse.message)

    # ---- generic proxy -> async proxy ------------------------------------------------------

    def fence_proxy_async(self, w: WarpInterpreter) -> None:
        clock = self.machine.clocks[w.warp]
        self.proxy_fences[w.warp].append(clock.now)
        clock.tick()

    def mark_async_reads(self, cta: int, addresses: np.ndarray, record: int) -> None:
        """The async op `record` reads these shared bytes until it is known complete."""
        for buf in self.machine.memory.shared_spaces[cta].buffers:
            inside = (addresses >= buf.base) & (addresses < buf.base + buf.nbytes)
            if inside.any():
                words = self.async_reads.get(id(buf))
                if words is None:
                    words = self.async_reads[id(buf)] = np.full((buf.nbytes + 3) // 4, -1, dtype=np.int64)
                words[(addresses[inside] - buf.base) // 4] = record

    def check_shared_write(self, w: WarpInterpreter, op: Operation, buf, words: np.ndarray) -> None:
        """A generic-proxy store to shared words an async op may still read (the stage an mma
        reads must not be refilled before its commit's phase is observed)."""
        readers = self.async_reads.get(id(buf))
        if readers is None:
            return
        ids = readers[words]
        for rid in np.unique(ids[ids >= 0]):
            rec = self.records[int(rid)]
            if not self.mbarriers.tracker.complete_for(w.warp, rec.warp, rec.seq):
                word = int(words[np.argmax(ids == rid)])
                self.report(op, Misuse(
                    FindingKind.ASYNC_PENDING,
                    f"{op.name} of warp {w.warp} writes {buf.name} (byte {word * 4}), which the {rec.op.name} of "
                    f"warp {rec.warp} may still be reading: the operands of an mma/cp may be overwritten only "
                    "after its commit's mbarrier phase is observed",
                    [(f"the {rec.op.name} of warp {rec.warp}", rec.op)]), key=(id(rec.op), w.warp, "smem"))
        readers[words] = -1

    def check_proxy(self, w: WarpInterpreter, op: Operation, addresses: np.ndarray, what: str) -> None:
        """The async proxy (this mma) reads shared bytes `addresses`: each generic-proxy write to
        them must be followed by a fence.proxy.async of the writing warp that this warp knows."""
        m = self.machine
        space = m.memory.shared_spaces[w.cta]
        clock = m.clocks[w.warp]
        for buf in space.buffers:
            inside = (addresses >= buf.base) & (addresses < buf.base + buf.nbytes)
            if not inside.any():
                continue
            shadow = m.shared.shadow_of(buf)
            words = np.unique(addresses[inside] - buf.base)  # bytes (the race shadow is per byte)
            writers = shadow.writer[words]
            # A TMA copy writes through the async proxy itself: no fence.proxy.async is due after
            # it (its completion is its mbarrier's); only generic-proxy stores need one.
            by_async_proxy = shadow.async_proxy[words]
            written = (writers >= 0) & ~by_async_proxy
            for p in np.unique(writers[written]):
                p = int(p)
                mine = written & (writers == p)
                last = int(shadow.write_clock[words[mine]].max())
                fences = self.proxy_fences[p]
                after = bisect_left(fences, last)  # a fence at the store's clock follows it (stores do not tick)
                word = int(words[mine][np.argmax(shadow.write_clock[words[mine]])])
                wop = shadow.write_op[word]
                # The fence must be ordered before this read: in a CTA pair the writer may be a warp
                # of the peer CTA, whose fence a cluster barrier orders (its clocks join).
                fenced = after < len(fences) and clock.knows(p, fences[after])
                if fenced:
                    continue
                who = "this warp" if p == w.warp else f"warp {p}"
                if after < len(fences):
                    why = f"{who} executed fence.proxy.async after the store, but nothing orders that fence before this {what}"
                else:
                    why = f"no fence.proxy.async of {who} follows the store"
                self.report(op, Misuse(
                    FindingKind.MISSING_PROXY_FENCE,
                    f"{op.name} of warp {w.warp} reads {buf.name} (byte {word}) through the async proxy, "
                    f"which {who} wrote with a generic-proxy store: {why} (shared memory written by "
                    "st.shared must be made visible to the async proxy with fence.proxy.async before "
                    "tcgen05.mma/cp or TMA read it)",
                    [("the generic-proxy store", wop)]), key=(id(wop), w.warp))

    def shared_reader(self, w: WarpInterpreter, op: Operation):
        """read(addresses) -> uint8 bytes of the CTA's shared memory (faults raise MemoryFault)."""
        space = self.machine.memory.shared_spaces[w.cta]

        def read(addresses: np.ndarray) -> np.ndarray:
            lo, hi = int(addresses.min()), int(addresses.max())
            buf = space.find(lo)
            if buf is None or hi >= buf.base + buf.nbytes:
                bad = lo if buf is None else hi
                raise MemoryFault(f"shared address {bad:#x} is not inside one shared buffer"
                                  + ("" if buf is None else f" ({buf.name} ends at {buf.base + buf.nbytes:#x})"))
            return buf.raw[addresses - buf.base]

        return read

    def _operand_error(self, w: WarpInterpreter, op: Operation, e: Exception) -> None:
        if isinstance(e, DescriptorError):
            self.report(op, Misuse(FindingKind.BAD_DESCRIPTOR, f"{op.name}: {e}"))
        else:
            self.machine.report(FindingKind.MEMORY_FAULT, "error", op,
                                f"{op.name} of warp {w.warp} reads an operand outside shared memory: {e}", key=w.warp)

    def _new_record(self, w: WarpInterpreter, op: Operation) -> int:
        """Number a new async op of warp `w` (complete only once a commit's phase is observed)."""
        seq = self.mbarriers.tracker.issue(w.warp)
        self.records.append(AsyncRecord(w.warp, seq, op, w.cta))
        return len(self.records) - 1

    def _writable(self, w: WarpInterpreter, op: Operation, cta: int, flat: np.ndarray, verb: str) -> bool:
        """Checks of an async write of TMEM cells `flat` of CTA `cta`; False: not allocated."""
        if not self._d_allocated(w, op, cta, flat):
            return False
        self.check_tmem(w, op, flat.reshape(-1), verb, same_warp_pipelined=True)
        self.check_tmem_readers(w, op, cta, flat.reshape(-1), verb, same_warp_pipelined=True)
        self._check_history(w, op, cta, flat)
        return True

    def _write(self, cta: int, flat: np.ndarray, cells: np.ndarray, record: int) -> None:
        self.machine.ctas[cta].tmem.cells[flat] = cells
        self.async_writer[cta][flat.reshape(-1)] = record
        self.machine.cells_moved += flat.size

    def _check_history(self, w: WarpInterpreter, op: Operation, cta: int, flat: np.ndarray) -> None:
        """D's cells against the ld/st history (an ld of D the mma overwrites, unordered or
        outstanding), with the rules of memory_model as for any TMEM write."""
        m = self.machine
        lanes, cols = flat.reshape(-1) // isa.TMEM_COLUMNS, flat.reshape(-1) % isa.TMEM_COLUMNS
        access = CellSet.of(lanes, cols, np.zeros_like(lanes))
        kind = EffectKind.CP if op.name.endswith(".cp") else EffectKind.MMA
        for p in conflicts(m.ctas[cta].tmem, m.history, access, kind, w.warp, op, m.clocks[w.warp],
                           lambda f: None, m.options.ptx_version, m._seen):
            m.report_problem(p, op)

    def _d_allocated(self, w: WarpInterpreter, op: Operation, cta: int, flat: np.ndarray) -> bool:
        cols = flat.reshape(-1) % isa.TMEM_COLUMNS
        owner = self.machine.ctas[cta].tmem.allocator.owner
        bad = owner[cols] < 0
        if bad.any():
            i = int(np.argmax(bad))
            self.machine.report(FindingKind.UNALLOCATED, "error", op,
                                f"{op.name} of warp {w.warp} writes D to {cell_text(int(flat.reshape(-1)[i]))}, "
                                "which is not allocated", key=w.warp)
            return False
        return True

    # ---- completion and its observers ------------------------------------------------------

    def check_tmem(self, w: WarpInterpreter, op: Operation, flat: np.ndarray, verb: str,
                   same_warp_pipelined: bool = False) -> None:
        """Warp `w` accesses TMEM cells `flat` (ld, st, cp, mma, dealloc): every async op that
        wrote them must be known complete to it (observed through commit -> mbarrier -> wait).

        `same_warp_pipelined`: the access is itself an mma/cp of the same warp, which the ISA
        pipelines after that warp's earlier async tcgen05 ops (9.7.16.6 implicit pipelining).
        """
        ids = self.async_writer[w.cta][flat]
        tracker = self.mbarriers.tracker
        for rid, rec in self._in_flight(w, ids, same_warp_pipelined):
            cell = int(flat[np.argmax(ids == rid)])
            if tracker.committed[rec.warp] >= rec.seq:
                why = (f"the tcgen05.commit that tracks it has arrived, but warp {w.warp} has not observed "
                       "that mbarrier phase (an mbarrier wait, or a barrier after a warp that waited)")
            else:
                why = f"no tcgen05.commit of warp {rec.warp} tracks it yet"
            self.report(op, Misuse(
                FindingKind.ASYNC_PENDING,
                f"{op.name} of warp {w.warp} {verb} {cell_text(cell)} while the {rec.op.name} of warp "
                f"{rec.warp} that writes it may still be in flight: {why}; D may be read, overwritten, "
                "freed or handed over only after the commit's mbarrier phase is observed",
                [(f"the {rec.op.name} of warp {rec.warp}", rec.op)]), key=(id(rec.op), w.warp))

    def _in_flight(self, w: WarpInterpreter, ids: np.ndarray, same_warp_pipelined: bool):
        """(record id, record) of each async op among `ids` (-1: none) that warp `w` does not
        know complete; an mma/cp of the same warp is pipelined after its own (`same_warp_pipelined`)."""
        tracker = self.mbarriers.tracker
        for rid in np.unique(ids[ids >= 0]):
            rec = self.records[int(rid)]
            if same_warp_pipelined and rec.warp == w.warp:
                continue
            if not tracker.complete_for(w.warp, rec.warp, rec.seq):
                yield int(rid), rec

    def check_tmem_readers(self, w: WarpInterpreter, op: Operation, cta: int, flat: np.ndarray, verb: str,
                           same_warp_pipelined: bool = False) -> None:
        """Warp `w` overwrites or frees TMEM cells `flat` that an async op (an mma reading its
        scale factors) may still be reading: that op must be known complete to `w` (its operands
        may be overwritten only after its commit's mbarrier phase is observed). The cells then no
        longer hold an operand in flight."""
        readers = self.async_tmem_reader[cta]
        ids = readers[flat]
        for rid, rec in self._in_flight(w, ids, same_warp_pipelined):
            cell = int(flat[np.argmax(ids == rid)])
            self.report(op, Misuse(
                FindingKind.ASYNC_PENDING,
                f"{op.name} of warp {w.warp} {verb} {cell_text(cell)}, which the {rec.op.name} of warp {rec.warp} "
                "may still be reading: the TMEM operands of an mma may be overwritten or freed only after its "
                "commit's mbarrier phase is observed",
                [(f"the {rec.op.name} of warp {rec.warp}", rec.op)]), key=(id(rec.op), w.warp, "tmem-read"))
        readers[flat] = -1

    def commit(self, w: WarpInterpreter, op: Operation, address: int, cta_group: int,
               multicast: int | None = None) -> None:
        """tcgen05.commit: an arrive (on this CTA's barrier, or on each CTA of `multicast`)."""
        m = self.machine
        clock = m.clocks[w.warp]
        # The mbarrier address is shared::cluster: it may name a barrier of another CTA; with a
        # multicast mask (bit r: %cluster_ctarank r) the same offset in each CTA of the mask.
        try:
            home, address = m.shared_target(w, address)
        except MemoryFault as e:
            m.report(FindingKind.MEMORY_FAULT, "error", op, f"{op.name} of warp {w.warp}: {e}", key=w.warp)
            return
        targets = [home]
        if multicast is not None:
            beyond = multicast >> len(m.ctas)
            if beyond:
                m.report(FindingKind.MEMORY_FAULT, "error", op,
                         f"{op.name} of warp {w.warp} multicasts to CTA rank "
                         f"{len(m.ctas) + (beyond & -beyond).bit_length() - 1}, but the cluster has "
                         f"{len(m.ctas)} CTAs", key=w.warp)
            targets = [c for c in range(len(m.ctas)) if multicast >> c & 1]
        for c in targets:
            for misuse in self.mbarriers.commit(c, address, w.warp, clock, op, peer=c != w.cta):
                self.report(op, misuse)

    def on_cta_barrier(self, warps: list[int]) -> None:
        """A barrier among `warps` completed: what one knows complete, all do."""
        self.mbarriers.tracker.share(warps)

    def finish(self) -> None:
        """At the end of the run: why each mbarrier wait that never returned is stuck (beside the
        deadlock report), then phases left with partial arrivals or pending bytes."""
        for reason, op in self.stuck.values():
            self.report(op, reason.misuse())
        if self.stuck:
            return
        for b, misuse in self.mbarriers.leftovers():
            self.report(b.init_op, misuse, severity="warning")


def after_barrier(machine: Machine, warps: list[int]) -> None:
    """Hook: a CTA barrier among `warps` completed (nothing to do before any producer ran)."""
    state = getattr(machine, "_producers", None)
    if state is not None:
        state.on_cta_barrier(warps)


def cluster_arrive(machine: Machine, warp: int, phase: int) -> None:
    """Hook: `warp` arrived (release) at phase `phase` of the cluster barrier: the async ops it
    knows complete are known to every warp that waits for that phase (barrier.cluster.arrive has
    release and .wait acquire semantics, PTX ISA "barrier.cluster"), in either CTA of a pair."""
    state = getattr(machine, "_producers", None)
    if state is not None:
        known = state.cluster_known.get(phase)
        row = state.mbarriers.tracker.known[warp]
        state.cluster_known[phase] = row.copy() if known is None else np.maximum(known, row)


def cluster_wait(machine: Machine, warp: int, phase: int) -> None:
    """Hook: `warp` passed phase `phase` of the cluster barrier."""
    state = getattr(machine, "_producers", None)
    if state is not None and (known := state.cluster_known.get(phase)) is not None:
        tracker = state.mbarriers.tracker
        np.maximum(tracker.known[warp], known, out=tracker.known[warp])


def shared_write(machine: Machine, w: WarpInterpreter, op: Operation, buf, words: np.ndarray) -> None:
    """Hook: a generic-proxy store of warp `w` to these words of a shared buffer."""
    state = getattr(machine, "_producers", None)
    if state is not None and state.async_reads:
        state.check_shared_write(w, op, buf, words)


def finish(machine: Machine) -> None:
    """Hook: the run ended."""
    state = getattr(machine, "_producers", None)
    if state is not None:
        state.finish()


def check_access(machine: Machine, w: WarpInterpreter, op: Operation, kind: EffectKind, flat: np.ndarray) -> None:
    """Hook: warp `w` accesses TMEM cells `flat` with ld/st/tile ops, or frees them (DEALLOC)."""
    state = getattr(machine, "_producers", None)
    if state is None:
        return
    flat = np.asarray(flat).reshape(-1)
    verb = {EffectKind.DEALLOC: "frees"}.get(kind, "writes" if kind.writes_tmem else "reads")
    state.check_tmem(w, op, flat, verb)
    if kind.writes_tmem or kind is EffectKind.DEALLOC:
        state.check_tmem_readers(w, op, w.cta, flat, verb)
        state.async_writer[w.cta][flat] = -1  # these cells no longer hold an async op's result


def of(machine: Machine) -> Producers:
    """The issue-10 state of a run, created on first use."""
    state = getattr(machine, "_producers", None)
    if state is None:
        state = Producers(machine)
        machine._producers = state
    return state
