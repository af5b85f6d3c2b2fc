"""mbarriers and the asynchronous tcgen05 ops they complete: phases, happens-before, and the misuse they expose.

The PTX ISA (9.7.13.15 "mbarrier"): an mbarrier counts the arrivals and the transaction bytes of
its current phase; when both reach zero the phase completes, the pending count resets to the
expected count and the next phase begins. A wait names a phase by parity (try_wait/test_wait
.parity P succeeds once the phase of parity P completed: on a fresh barrier, phase 0 is in
progress and parity 1 names the phase "before" it, which counts as complete) or by the state
token an arrive returned. A successful wait acquires what the arrivals of that phase released.

Happens-before, with the interpreter's vector clocks (interpreter.sync.WarpClock):
- an arrive releases the arriving warp's clock into the phase (`release`);
- the phase's completion joins every arrival's release;
- a wait that observes the phase acquires the join.

Asynchronous tcgen05 ops (mma, cp, shift) complete only through tcgen05.commit: the commit makes
the barrier arrive when all prior async ops of the thread complete. We model their completion as
a second family of clocks, `async_done[W]` = the last async sequence number of warp W known
complete; a commit's arrival carries it, a wait acquires it, and `AsyncTracker.complete_for`
asks whether an observer knows an op complete. An op is never known complete to its own warp
before that warp observed the commit's phase (the ISA gives no other way).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation

from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter.sync import WarpClock

# An mbarrier's 64-bit word holds phase, counts and tx; the ISA bounds (9.7.13.15.1 "Contents of
# the mbarrier object"): expected arrival count in [1, 2^20 - 1], tx-count in [-(2^20 - 1), 2^20 - 1].
MAX_ARRIVE_COUNT = (1 << 20) - 1
MAX_TX_COUNT = (1 << 20) - 1


@dataclass
class Misuse:
    """A finding of the model, before the machine turns it into a diagnostic at an op."""

    kind: FindingKind
    message: str
    notes: list[tuple[str, Operation | None]] = field(default_factory=list)


@dataclass
class Phase:
    """What the arrivals of one phase released (vector clocks of the warps that arrived)."""

    release: np.ndarray
    async_done: np.ndarray
    fenced: np.ndarray
    """What the arrivals had fenced (tcgen05.fence::before_thread_sync), as a barrier carries it."""
    arrivals: list[tuple[int, Operation | None]] = field(default_factory=list)


@dataclass
class MBarrier:
    """One mbarrier object in shared memory."""

    address: int
    cta: int
    expected: int
    init_warp: int
    init_clock: int
    init_op: Operation | None
    warps: int
    phase: int = 0  # index of the phase in progress (= number of completed phases)
    pending: int = 0
    tx: int = 0
    valid: bool = True
    fence_clock: int | None = None  # clock of the init warp's fence.mbarrier_init after init
    current: Phase = field(init=False)
    completed: dict[int, Phase] = field(default_factory=dict)  # the last two completed phases
    version: int = 0  # bumps on every change (a spinning test_wait can see progress)

    def __post_init__(self):
        self.pending = self.expected
        self.current = self._new_phase()

    def _new_phase(self) -> Phase:
        zeros = lambda: np.zeros(self.warps, dtype=np.int64)  # noqa: E731
        return Phase(zeros(), zeros(), zeros())

    @property
    def parity(self) -> int:
        """Parity of the phase in progress."""
        return self.phase & 1

    def state(self) -> str:
        arrived = self.expected - self.pending
        text = (f"mbarrier at {self.address:#x} is in phase {self.phase} (parity {self.parity}) with "
                f"{arrived} of {self.expected} arrivals")
        if self.tx:
            text += f" and {self.tx} transaction bytes outstanding"
        return text

    def parity_complete(self, parity: int) -> bool:
        """Has the phase of parity `parity` completed (the latest such phase, ISA semantics)?"""
        return self.parity != (parity & 1)

    def phase_of_parity(self, parity: int) -> int:
        """Index of the latest completed phase of this parity (-1: the phase before init)."""
        return self.phase - 1 if ((self.phase - 1) & 1) == (parity & 1) else self.phase - 2


class AsyncTracker:
    """Sequence numbers of the async tcgen05 ops of each warp, and which a commit covers."""

    def __init__(self, warps: int):
        self.issued = np.zeros(warps, dtype=np.int64)  # last async op sequence number per warp
        self.committed = np.zeros(warps, dtype=np.int64)  # covered by a commit so far
        self.known = np.zeros((warps, warps), dtype=np.int64)  # known[U][W]: W's ops known done by U

    def issue(self, warp: int) -> int:
        self.issued[warp] += 1
        return int(self.issued[warp])

    def complete_for(self, observer: int, warp: int, seq: int) -> bool:
        return seq <= self.known[observer, warp]

    def share(self, warps: list[int]) -> None:
        """A CTA barrier among `warps`: what one knows complete, all do (happens-before)."""
        joined = self.known[warps].max(axis=0)
        self.known[warps] = joined

    def uncommitted(self, warp: int) -> bool:
        return self.issued[warp] > self.committed[warp]


class MBarriers:
    """Every mbarrier of a run, by (CTA, shared address)."""

    def __init__(self, warps: int):
        self.warps = warps
        self.barriers: dict[tuple[int, int], MBarrier] = {}
        self.tracker = AsyncTracker(warps)
        # (cta, address) -> [(warp issuing commit, async sequence covered, commit op)] not yet arrived
        self.commits: dict[tuple[int, int], list[tuple[int, int, Operation | None]]] = {}

    def get(self, cta: int, address: int) -> MBarrier | None:
        return self.barriers.get((cta, address))

    # ---- lifecycle -------------------------------------------------------------------------

    def init(self, cta: int, address: int, count: int, warp: int, clock: WarpClock,
             op: Operation | None) -> list[Misuse]:
        out = []
        if not 1 <= count <= MAX_ARRIVE_COUNT:
            out.append(Misuse(FindingKind.MBARRIER_COUNT,
                              f"mbarrier.init with count {count}: the expected arrival count must be in "
                              f"[1, {MAX_ARRIVE_COUNT}] (PTX ISA 9.7.13.15.1)"))
            count = max(1, min(count, MAX_ARRIVE_COUNT))
        old = self.get(cta, address)
        if old is not None and old.valid and self._in_use(old):
            out.append(Misuse(FindingKind.MBARRIER_IN_USE,
                              f"mbarrier.init of a barrier that is still in use: {old.state()}",
                              [("it was initialized here", old.init_op)]))
        self.barriers[(cta, address)] = MBarrier(address, cta, count, warp, clock.now, op, self.warps)
        clock.tick()
        return out

    def fence_init(self, warp: int, clock: WarpClock) -> None:
        """fence.mbarrier_init.release.cluster: orders this warp's earlier inits for the cluster."""
        for b in self.barriers.values():
            if b.init_warp == warp and b.fence_clock is None:
                b.fence_clock = clock.now
        clock.tick()

    def inval(self, cta: int, address: int, warp: int, clock: WarpClock) -> list[Misuse]:
        b, out = self._usable(cta, address, warp, clock, "mbarrier.inval", peer=False)
        if b is None:
            return out
        if self._in_use(b):
            out.append(Misuse(FindingKind.MBARRIER_IN_USE,
                              f"mbarrier.inval while the barrier is in use: {b.state()}"
                              + self._pending_commit_text(b), [("initialized here", b.init_op)]))
        b.valid = False
        b.version += 1
        return out

    def _in_use(self, b: MBarrier) -> bool:
        return b.pending != b.expected or b.tx != 0 or bool(self.commits.get((b.cta, b.address)))

    def _pending_commit_text(self, b: MBarrier) -> str:
        pend = self.commits.get((b.cta, b.address))
        return f"; a tcgen05.commit of warp {pend[0][0]} will still arrive on it" if pend else ""

    def _usable(self, cta: int, address: int, warp: int, clock: WarpClock | None, what: str,
                peer: bool) -> tuple[MBarrier | None, list[Misuse]]:
        """The barrier, if initialized, valid and its init visible to `warp`; else the misuse."""
        b = self.get(cta, address)
        if b is None:
            return None, [Misuse(FindingKind.MBARRIER_UNINITIALIZED,
                                 f"{what} on shared address {address:#x}, where no mbarrier.init ran")]
        if not b.valid:
            return None, [Misuse(FindingKind.MBARRIER_UNINITIALIZED,
                                 f"{what} on an mbarrier after its mbarrier.inval", [("initialized here", b.init_op)])]
        if peer:
            # From another CTA of the cluster: the init must be fenced for the cluster
            # (fence.mbarrier_init.release.cluster) and that fence ordered before this use (a
            # cluster barrier).
            if b.fence_clock is None:
                return b, [Misuse(FindingKind.MBARRIER_UNINITIALIZED,
                                  f"{what} from the peer CTA on an mbarrier whose init was not made visible to "
                                  "the cluster: fence.mbarrier_init.release.cluster and a cluster barrier "
                                  "must follow mbarrier.init", [("initialized here", b.init_op)])]
            if clock is not None and not clock.knows(b.init_warp, b.fence_clock):
                return b, [Misuse(FindingKind.MBARRIER_UNINITIALIZED,
                                  f"{what} of warp {warp} from another CTA on an mbarrier whose "
                                  "fence.mbarrier_init is not ordered before it: a cluster barrier must "
                                  "follow the fence", [("initialized here", b.init_op)])]
        elif clock is not None and warp != b.init_warp and not clock.knows(b.init_warp, b.init_clock):
            return b, [Misuse(FindingKind.MBARRIER_UNINITIALIZED,
                              f"{what} of warp {warp} on an mbarrier whose mbarrier.init by warp "
                              f"{b.init_warp} is not visible to it: no barrier orders the init before this use",
                              [("initialized here", b.init_op)])]
        return b, []

    # ---- arrivals --------------------------------------------------------------------------

    def arrive(self, cta: int, address: int, warp: int, clock: WarpClock | None, count: int = 1,
               op: Operation | None = None, tx: int = 0, async_done: np.ndarray | None = None,
               peer: bool = False) -> tuple[int | None, list[Misuse]]:
        """An arrive (with expect_tx bytes `tx`); returns the state token (the phase arrived on)."""
        b, out = self._usable(cta, address, warp, clock, op.name if op else "mbarrier.arrive", peer)
        if b is None:
            return None, out
        if tx:
            out += self._add_tx(b, tx)
        token = b.phase
        if clock is not None:
            np.maximum(b.current.release, clock.vc, out=b.current.release)
            np.maximum(b.current.fenced, clock.fenced, out=b.current.fenced)
            clock.tick()
        if async_done is not None:
            np.maximum(b.current.async_done, async_done, out=b.current.async_done)
        b.current.arrivals.append((warp, op))
        if count > b.pending:
            out.append(Misuse(FindingKind.MBARRIER_COUNT,
                              f"arrive with count {count} on a phase that expects only {b.pending} more "
                              f"arrival(s): {b.state()} (the pending count would underflow)",
                              [("initialized here", b.init_op)]))
            count = b.pending
        b.pending -= count
        if b.pending == 0 and b.tx < 0:
            out.append(Misuse(FindingKind.TX_COUNT,
                              f"the last arrival of the phase leaves {-b.tx} more transaction bytes completed than "
                              f"expected: {b.state()} (a phase completes when its arrivals are in and its "
                              "tx-count is zero, PTX ISA 9.7.13.15.2)", [("initialized here", b.init_op)]))
        self._maybe_complete(b)
        return token, out

    def expect_tx(self, cta: int, address: int, warp: int, clock: WarpClock | None, tx: int,
                  op: Operation | None = None) -> list[Misuse]:
        b, out = self._usable(cta, address, warp, clock, op.name if op else "mbarrier.expect_tx", False)
        if b is not None:
            out += self._add_tx(b, tx)
        return out

    def complete_tx(self, cta: int, address: int, tx: int, release: np.ndarray | None = None) -> list[Misuse]:
        """Transaction bytes arrived (TMA, or mbarrier.complete_tx); `release`: the writer's clock."""
        b = self.get(cta, address)
        if b is None or not b.valid:
            return [Misuse(FindingKind.MBARRIER_UNINITIALIZED,
                           f"complete_tx on shared address {address:#x}, where no valid mbarrier is")]
        out = []
        # The tx-count may go negative (its range is [-(2^20 - 1), 2^20 - 1], PTX ISA 9.7.13.15.1):
        # bytes may complete before the expect_tx that announces them (a peer CTA's TMA on the
        # leader's full barrier, before the leader's arrive.expect_tx). Only once every arrival of
        # the phase is in can no expect_tx come with an arrive: then surplus bytes are a mismatch.
        if tx > b.tx and b.pending == 0:
            out.append(Misuse(FindingKind.TX_COUNT,
                              f"complete_tx of {tx} bytes when only {b.tx} were expected: {b.state()} "
                              "(the transaction count goes negative; expect_tx must come first or match)",
                              [("initialized here", b.init_op)]))
        b.tx -= tx
        if release is not None:
            np.maximum(b.current.release, release, out=b.current.release)
        self._maybe_complete(b)
        return out

    def _add_tx(self, b: MBarrier, tx: int) -> list[Misuse]:
        b.tx += tx
        b.version += 1
        if abs(b.tx) > MAX_TX_COUNT:
            return [Misuse(FindingKind.TX_COUNT,
                           f"the transaction count {b.tx} leaves the range [-{MAX_TX_COUNT}, {MAX_TX_COUNT}] "
                           "(PTX ISA 9.7.13.15.1)", [("initialized here", b.init_op)])]
        return []

    def _maybe_complete(self, b: MBarrier) -> None:
        b.version += 1
        if b.pending == 0 and b.tx <= 0:
            b.completed[b.phase] = b.current
            b.completed.pop(b.phase - 2, None)
            b.phase += 1
            b.pending = b.expected
            b.tx = 0
            b.current = b._new_phase()

    # ---- commit: the arrive of async tcgen05 ops ------------------------------------------

    def commit(self, cta: int, address: int, warp: int, clock: WarpClock, op: Operation | None,
               peer: bool = False) -> list[Misuse]:
        """tcgen05.commit: arrive once when every prior async tcgen05 op of the warp is complete.

        The interpreter computes an op's results when it issues, so every prior op is complete
        now: the arrival happens at once, carrying "warp's ops up to its latest issued seq".
        """
        t = self.tracker
        t.committed[warp] = t.issued[warp]
        done = np.zeros(self.warps, dtype=np.int64)
        done[warp] = t.issued[warp]
        _, out = self.arrive(cta, address, warp, clock, 1, op, async_done=done, peer=peer)
        return out

    # ---- waits -----------------------------------------------------------------------------

    def wait_ready(self, b: MBarrier, parity: int | None, token: int | None) -> bool:
        if not b.valid:
            return False
        if token is not None:
            return b.phase > token
        assert parity is not None
        return b.parity_complete(parity)

    def observe(self, b: MBarrier, warp: int, clock: WarpClock, parity: int | None,
                token: int | None) -> Misuse | None:
        """A wait that succeeded: acquire what the observed phase released. Returns a note-level
        Misuse when the wait passed on the phase before init (nothing is acquired then)."""
        index = token if token is not None else b.phase_of_parity(parity or 0)
        phase = b.completed.get(index)
        if index < 0:
            return Misuse(FindingKind.MBARRIER_PHASE,
                          f"this wait on parity {parity} of a barrier in phase {b.phase} names the phase "
                          "before mbarrier.init, which counts as complete: it passes at once and orders "
                          "nothing", [("initialized here", b.init_op)])
        if phase is None:
            # Two or more phases completed since: the ISA's parity wait still succeeds; what the
            # older phase released is included in the newer ones only if the arrivals chained.
            phase = b.completed.get(b.phase - 1)
        if phase is not None:
            clock.acquire(phase.release, phase.fenced)
            np.maximum(self.tracker.known[warp], phase.async_done, out=self.tracker.known[warp])
            clock.tick()
        return None

    # ---- the end of a run ------------------------------------------------------------------

    def stuck_wait(self, b: MBarrier, parity: int | None, token: int | None) -> Misuse:
        """Why a wait on `b` can never succeed (for a deadlock report): the barrier's state."""
        arrived = b.expected - b.pending
        what = f"parity {parity}" if token is None else f"the phase of state token {token}"
        if not b.valid:
            return Misuse(FindingKind.MBARRIER_UNINITIALIZED, f"waits on {what} of an invalidated mbarrier")
        if b.tx > 0:
            kind = FindingKind.TX_COUNT
            why = f"{b.tx} expected transaction bytes never arrive"
        elif arrived > 0:
            kind = FindingKind.MBARRIER_COUNT
            why = f"only {arrived} of the {b.expected} arrivals the barrier was initialized with arrive"
        else:
            kind = FindingKind.MBARRIER_PHASE
            why = "nothing ever arrives on this phase"
            if token is None and b.phase == 0 and (parity or 0) == 0:
                why += " (parity 0 names the first phase; a fresh 'empty' barrier is waited on with parity 1)"
        return Misuse(kind, f"waits forever on {what}: {b.state()}; {why}", [("initialized here", b.init_op)])

    def leftovers(self) -> list[tuple[MBarrier, Misuse]]:
        """Barriers whose current phase has some but not all arrivals, or bytes pending, at exit."""
        out = []
        for b in self.barriers.values():
            if not b.valid:
                continue
            arrived = b.expected - b.pending
            if b.tx > 0:
                out.append((b, Misuse(FindingKind.TX_COUNT, f"at exit, {b.state()}: the expected bytes never arrived")))
            elif 0 < arrived < b.expected:
                out.append((b, Misuse(FindingKind.MBARRIER_COUNT,
                                      f"at exit, {b.state()}: the phase never completed (does the "
                                      "arrival count match mbarrier.init's count?)")))
        return out
