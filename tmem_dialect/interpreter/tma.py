"""Run-time semantics of TMA: tensor and bulk copies into shared memory (complete_tx on the mbarrier), bulk stores and their groups.

The copies move their bytes when issued (the interpreter computes every result at issue) and the
model tracks what the hardware leaves in flight:
- a load (cp.async.bulk(.tensor) global -> shared::cluster) writes the box, in the tensor map's
  swizzle, into the shared memory of each destination CTA (`destinations`: the CTA its
  shared::cluster address names (a shared::cta address: the issuer's), or each CTA of the
  multicast mask at the same CTA-relative offset), and completes box-bytes of transactions on one
  mbarrier per destination (`isa.load_barrier_cta`). Elements outside the tensor are zero (PTX ISA 5.5
  "Tiled Mode"). The write
  is by the issuing warp at its clock of issue: the mbarrier's phase releases it (complete_tx
  carries that clock), so a reader that observed the phase is ordered after it and any other
  reader is a shared-memory race; the issuing warp itself must not read before the phase
  completed. Overwriting operands an mma/cp still reads is reported (interpreter.producers).
- a store (shared -> global) reads shared memory through the async proxy (st.shared before it
  needs fence.proxy.async, interpreter.producers.check_proxy) and writes the global buffer
  (elements outside the tensor are not written). Its reads stay in flight until the warp's
  cp.async.bulk.wait_group(.read) retires its group: writing those bytes before is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import producers as P
from tmem_dialect.interpreter.lanes import AsCta
from tmem_dialect.interpreter.memory import Buffer, MemoryFault
from tmem_dialect.interpreter.tensor_map import TensorMap, box_geometry, smem_addresses

if TYPE_CHECKING:
    from tmem_dialect.interpreter.machine import Machine
    from tmem_dialect.interpreter.warp import WarpInterpreter


class TmaError(Exception):
    """A copy the run cannot perform: the message says why (reported at the op)."""

    def __init__(self, kind: FindingKind, message: str):
        super().__init__(message)
        self.kind = kind


@dataclass
class PendingLoad:
    """A load's bytes in one CTA: the issuing warp may read them once this phase completed."""

    warp: int
    op: Operation
    cta: int
    barrier: int
    phase: int


@dataclass
class BulkStore:
    warp: int
    op: Operation
    done_clock: int | None = None  # the issuing warp's clock when wait_group(.read) retired it


@dataclass
class WarpGroups:
    """The bulk async-groups of one warp: stores not yet committed, committed groups oldest first."""

    open: list[BulkStore] = field(default_factory=list)
    committed: list[list[BulkStore]] = field(default_factory=list)


class TmaState:
    """The TMA state of one run (created on first use: `of(machine)`)."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self.maps: dict[int, tuple[TensorMap, Buffer]] = {}  # tensor-map object address -> (fields, tensor buffer)
        self.pending: dict[int, dict[int, PendingLoad]] = {}  # id(shared buffer) -> word -> load in flight
        self.store_reads: dict[int, dict[int, BulkStore]] = {}  # id(shared buffer) -> word -> store reading it
        self.groups: dict[int, WarpGroups] = {}

    # ---- tensor maps -----------------------------------------------------------------------

    def tensor_map(self, address: int) -> tuple[TensorMap, Buffer]:
        found = self.maps.get(address)
        if found is None:
            raise TmaError(FindingKind.BAD_DESCRIPTOR,
                           f"the tensor-map operand {address:#x} is not the address of a tensor map the run "
                           "passed (tensor maps are kernel arguments: run_kernel TensorMap / --arg tensormap:...)")
        return found

    # ---- where a copy lands ----------------------------------------------------------------

    def destinations(self, w: WarpInterpreter, mask: int | None, home: int | None = None) -> list[int]:
        """The CTAs a copy writes: `home` (the CTA its shared::cluster destination address names,
        by default the issuer's), or each CTA rank of the multicast mask (the machine's CTAs are
        the cluster's ranks, machine.cta(rank))."""
        if mask is None:
            return [w.cta if home is None else home]
        ranks = [r for r in range(isa.MULTICAST_MASK_BITS) if mask >> r & 1]
        missing = [r for r in ranks if r >= len(self.machine.ctas)]
        if missing:
            raise TmaError(FindingKind.MEMORY_FAULT,
                           f"the multicast mask {mask:#06x} names CTA rank {missing[0]}, but the cluster of this run "
                           f"has {len(self.machine.ctas)} CTA(s)")
        return ranks

    def _cluster_address(self, w: WarpInterpreter, address: int, what: str) -> tuple[int, int]:
        """(CTA, shared::cta address) of a shared or shared::cluster operand."""
        try:
            return self.machine.shared_target(w, address)
        except MemoryFault as e:
            raise TmaError(FindingKind.MEMORY_FAULT, f"the {what}: {e}") from None

    def _shared_buffer(self, cta: int, addresses: np.ndarray, what: str) -> Buffer:
        space = self.machine.memory.shared_spaces[cta]
        lo, hi = int(addresses.min()), int(addresses.max())
        buf = space.find(lo)
        if buf is None or hi >= buf.base + buf.nbytes:
            bad = lo if buf is None else hi
            raise TmaError(FindingKind.MEMORY_FAULT,
                           f"{what} shared address {bad:#x} of CTA {cta}, which is not inside one shared buffer")
        return buf

    # ---- loads -----------------------------------------------------------------------------

    def tensor_load(self, w: WarpInterpreter, op: Operation, dst: int, tmap: int, coords: list[int],
                    barrier: int, mask: int | None, cta_group: int | None) -> None:
        tm, src = self.tensor_map(tmap)
        if len(coords) != len(tm.dims):
            raise TmaError(FindingKind.BAD_DESCRIPTOR,
                           f"a {len(coords)}-D copy through a rank-{len(tm.dims)} tensor map")
        home, dst = self._cluster_address(w, dst, "shared::cluster destination")
        if dst % isa.SMEM_ALIGN:
            raise TmaError(FindingKind.MEMORY_FAULT,
                           f"the shared destination {dst:#x} of a tensor copy is not {isa.SMEM_ALIGN}-byte aligned")
        offsets, inside = box_geometry(tm, np.asarray(coords))
        eb = tm.element_bytes
        if tm.extent_bytes() > src.nbytes:
            raise TmaError(FindingKind.MEMORY_FAULT,
                           f"the tensor map's tensor ends at byte {tm.extent_bytes()} of {src.name} ({src.nbytes} bytes)")
        gather = np.where(inside[:, None], offsets[:, None] + np.arange(eb), 0)
        data = np.where(inside[:, None], src.raw[gather], 0).astype(np.uint8)  # out of bound: zero
        addresses = smem_addresses(tm, dst, len(offsets))
        self._deliver(w, op, home, addresses, data, barrier, mask, cta_group, tm.box_bytes)

    def bulk_load(self, w: WarpInterpreter, op: Operation, dst: int, src_address: int, size: int,
                  barrier: int, mask: int | None) -> None:
        if err := isa.bulk_size_error(size):
            raise TmaError(FindingKind.MEMORY_FAULT, err)
        home, dst = self._cluster_address(w, dst, "shared::cluster destination")
        if dst % isa.BULK_ALIGN or src_address % isa.BULK_ALIGN:
            raise TmaError(FindingKind.MEMORY_FAULT, f"cp.async.bulk addresses must be {isa.BULK_ALIGN}-byte aligned "
                           f"(destination {dst:#x}, source {src_address:#x})")
        buf = self.machine.memory.global_space.find(src_address)
        if buf is None or src_address + size > buf.base + buf.nbytes:
            raise TmaError(FindingKind.MEMORY_FAULT, f"the source {src_address:#x} + {size} bytes is not inside one global buffer")
        data = buf.raw[src_address - buf.base:src_address - buf.base + size].reshape(-1, 1)
        addresses = dst + np.arange(size, dtype=np.int64).reshape(-1, 1)
        self._deliver(w, op, home, addresses, data, barrier, mask, None, size)

    def _deliver(self, w: WarpInterpreter, op: Operation, home: int, addresses: np.ndarray, data: np.ndarray,
                 barrier: int, mask: int | None, cta_group: int | None, tx: int) -> None:
        """Write the bytes into each destination CTA and complete `tx` bytes on its mbarrier."""
        m = self.machine
        targets = self.destinations(w, mask, home)
        named, barrier = self._cluster_address(w, barrier, "mbarrier operand")
        barrier_ctas = [isa.load_barrier_cta(c, named, mask is not None, cta_group) for c in targets]
        if any(c >= len(m.ctas) for c in barrier_ctas):
            raise TmaError(FindingKind.MEMORY_FAULT,
                           f"the mbarrier of the CTA pair of CTA {targets[0]} is CTA {max(barrier_ctas)}, outside "
                           f"the cluster of {len(m.ctas)} CTA(s)")
        buffers = [self._shared_buffer(c, addresses, "a TMA copy writes") for c in targets]
        producers = P.of(m)
        clock = m.clocks[w.warp]
        flat = addresses.reshape(-1)
        for cta, bcta, buf in zip(targets, barrier_ctas, buffers):
            words = np.unique((flat - buf.base) // 4)
            shadow = m.shared.shadow_of(buf)
            m.shared._races(w, op, buf, shadow, np.unique(flat - buf.base), write=True)  # generic accesses no barrier orders before it
            self._overwrites_a_load_in_flight(w, op, buf, words)
            producers.check_shared_write(AsCta(w, cta), op, buf, words)  # an mma/cp still reading the stage
            buf.raw[flat - buf.base] = data.reshape(-1)
            shadow.written[flat - buf.base] = True
            shadow.origin[words] = None
            b = producers.mbarriers.get(bcta, barrier)
            pending = self.pending.setdefault(id(buf), {})
            record = PendingLoad(w.warp, op, bcta, barrier, b.phase if b is not None else -1)
            for word in words.tolist():
                pending[word] = record
        # The CTAs the copy writes or signals must not exit before it: a waiter that observed its
        # phase knows the issue (complete_tx releases the issuer's clock there).
        for cta in sorted({*targets, *barrier_ctas} - {w.cta}):
            m.remote_access(w, op, cta)
        release = clock.vc.copy()
        clock.tick()
        for bcta in barrier_ctas:
            for misuse in producers.mbarriers.complete_tx(bcta, barrier, tx, release):
                producers.report(op, misuse)
        m.cells_moved += int(data.size) * len(targets)

    def _overwrites_a_load_in_flight(self, w: WarpInterpreter, op: Operation, buf: Buffer, words: np.ndarray) -> None:
        """A copy into bytes an earlier copy writes, before this warp knows that one complete: the
        two asynchronous writes are unordered (and the earlier data may never have been
        consumed): a ring's producer refilling a stage without waiting on its empty barrier.

        Known complete: the earlier copy's phase completed and this warp's clock covers what that
        phase released (a wait on it, or a chain of waits: the consumer's commit on the empty
        barrier after it waited on the full one)."""
        pending = self.pending.get(id(buf))
        if not pending:
            return
        mb = P.of(self.machine).mbarriers
        clock = self.machine.clocks[w.warp]
        for word in words.tolist():
            rec = pending.get(word)
            if rec is None:
                continue
            b = mb.get(rec.cta, rec.barrier)
            if b is None:
                continue
            released = b.completed.get(rec.phase)
            if b.phase > rec.phase and (released is None or (clock.vc >= released.release).all()):
                continue
            why = ("its mbarrier phase has not completed" if b.phase <= rec.phase else
                   f"warp {w.warp} has not observed the phase it completes on")
            self.machine.report(
                FindingKind.ASYNC_PENDING, "error", op,
                f"{op.name} of warp {w.warp} writes {buf.name} (byte {word * 4}), which the {rec.op.name} of warp "
                f"{rec.warp} may still be writing: {why} ({b.state()}); a stage may be refilled only after its "
                "consumer released it (wait on the stage's empty barrier)",
                [(f"the earlier {rec.op.name}", rec.op)], key=(id(rec.op), w.warp, "refill"))
            return

    # ---- generic reads and writes of shared memory ----------------------------------------

    def shared_read(self, w: WarpInterpreter, op: Operation, buf: Buffer, words: np.ndarray) -> None:
        """The issuing warp reads bytes of a load whose mbarrier phase has not completed."""
        pending = self.pending.get(id(buf))
        if not pending:
            return
        mb = P.of(self.machine).mbarriers
        for word in words.tolist():
            rec = pending.get(word)
            if rec is None:
                continue
            b = mb.get(rec.cta, rec.barrier)
            if b is None or b.phase > rec.phase:
                del pending[word]
                continue
            if rec.warp == w.warp:
                self.machine.report(
                    FindingKind.ASYNC_PENDING, "error", op,
                    f"{op.name} of warp {w.warp} reads {buf.name} (byte {word * 4}), which its {rec.op.name} is "
                    f"still writing: the mbarrier phase the copy completes on has not completed "
                    f"({b.state()}); wait on it first", [(f"the {rec.op.name}", rec.op)], key=(id(rec.op), w.warp))
                return

    def shared_write(self, w: WarpInterpreter, op: Operation, buf: Buffer, words: np.ndarray) -> None:
        """A generic store into bytes a bulk store may still read."""
        reads = self.store_reads.get(id(buf))
        if not reads:
            return
        for word in words.tolist():
            store = reads.get(word)
            if store is None:
                continue
            done = store.done_clock is not None and (
                store.warp == w.warp or self.machine.clocks[w.warp].knows(store.warp, store.done_clock))
            if done:
                del reads[word]
                continue
            self.machine.report(
                FindingKind.ASYNC_PENDING, "error", op,
                f"{op.name} of warp {w.warp} writes {buf.name} (byte {word * 4}), which the {store.op.name} of warp "
                f"{store.warp} may still be reading: shared memory a bulk store reads may be reused only after "
                "cp.async.bulk.wait_group.read retires its group (and a barrier hands that to other warps)",
                [(f"the {store.op.name}", store.op)], key=(id(store.op), w.warp))
            return

    # ---- stores and bulk groups ------------------------------------------------------------

    def tensor_store(self, w: WarpInterpreter, op: Operation, tmap: int, coords: list[int], src: int) -> None:
        tm, dst = self.tensor_map(tmap)
        if len(coords) != len(tm.dims):
            raise TmaError(FindingKind.BAD_DESCRIPTOR, f"a {len(coords)}-D store through a rank-{len(tm.dims)} tensor map")
        if tm.extent_bytes() > dst.nbytes:
            raise TmaError(FindingKind.MEMORY_FAULT,
                           f"the tensor map's tensor ends at byte {tm.extent_bytes()} of {dst.name} ({dst.nbytes} bytes)")
        offsets, inside = box_geometry(tm, np.asarray(coords))
        addresses = smem_addresses(tm, src, len(offsets))
        data = self._read_shared(w, op, addresses)
        eb = tm.element_bytes
        targets = (offsets[inside][:, None] + np.arange(eb)).reshape(-1)
        dst.raw[targets] = data[inside].reshape(-1)  # out of bound: not written

    def bulk_store(self, w: WarpInterpreter, op: Operation, dst_address: int, src: int, size: int) -> None:
        if err := isa.bulk_size_error(size):
            raise TmaError(FindingKind.MEMORY_FAULT, err)
        buf = self.machine.memory.global_space.find(dst_address)
        if buf is None or dst_address + size > buf.base + buf.nbytes:
            raise TmaError(FindingKind.MEMORY_FAULT, f"the destination {dst_address:#x} + {size} bytes is not inside one global buffer")
        data = self._read_shared(w, op, src + np.arange(size, dtype=np.int64).reshape(-1, 1))
        buf.raw[dst_address - buf.base:dst_address - buf.base + size] = data.reshape(-1)

    def _read_shared(self, w: WarpInterpreter, op: Operation, addresses: np.ndarray) -> np.ndarray:
        """The async-proxy read of a store: fenced after generic writes, ordered after other warps'
        writes, in flight until the group retires."""
        m = self.machine
        buf = self._shared_buffer(w.cta, addresses, "a bulk store reads")
        flat = addresses.reshape(-1)
        words = np.unique((flat - buf.base) // 4)
        P.of(m).check_proxy(w, op, flat, op.name)
        shadow = m.shared.shadow_of(buf)
        m.shared._races(w, op, buf, shadow, np.unique(flat - buf.base), write=False)
        self.shared_read(w, op, buf, words)
        store = BulkStore(w.warp, op)
        self.groups.setdefault(w.warp, WarpGroups()).open.append(store)
        reads = self.store_reads.setdefault(id(buf), {})
        for word in words.tolist():
            reads[word] = store
        return buf.raw[flat - buf.base].reshape(addresses.shape)

    def commit_group(self, w: WarpInterpreter) -> None:
        g = self.groups.setdefault(w.warp, WarpGroups())
        g.committed.append(g.open)
        g.open = []

    def wait_group(self, w: WarpInterpreter, pending: int) -> None:
        """Retire the oldest groups until at most `pending` remain (every copy finished at issue)."""
        g = self.groups.get(w.warp)
        if g is None:
            return
        clock = self.machine.clocks[w.warp]
        while len(g.committed) > pending:
            for store in g.committed.pop(0):
                store.done_clock = clock.now
        clock.tick()


def of(machine: Machine) -> TmaState:
    state = getattr(machine, "_tma", None)
    if state is None:
        state = TmaState(machine)
        machine._tma = state
    return state


def shared_read(machine: Machine, w: WarpInterpreter, op: Operation, buf: Buffer, words: np.ndarray) -> None:
    """Hook: a generic load of these words of a shared buffer."""
    state = getattr(machine, "_tma", None)
    if state is not None and state.pending:
        state.shared_read(w, op, buf, words)


def shared_write(machine: Machine, w: WarpInterpreter, op: Operation, buf: Buffer, words: np.ndarray) -> None:
    """Hook: a generic store to these words of a shared buffer."""
    state = getattr(machine, "_tma", None)
    if state is not None and state.store_reads:
        state.shared_write(w, op, buf, words)
