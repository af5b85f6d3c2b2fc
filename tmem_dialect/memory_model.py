"""The tcgen05 memory-consistency rules: which access pairs need which wait or fence, per PTX version.

The single place that states TMEM_FACTS.md "Completion and ordering". tmem-verify,
tmem-insert-waits and the interpreter consult it; none of them restates a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tmem_dialect import isa


class EffectKind(Enum):
    """The TMEM-relevant behaviours of an op."""

    ALLOC = "alloc"
    DEALLOC = "dealloc"
    RELINQUISH = "relinquish_alloc_permit"
    LD = "ld"
    ST = "st"
    MMA = "mma"
    CP = "cp"
    WAIT_LD = "wait::ld"
    WAIT_ST = "wait::st"
    FENCE_BEFORE = "fence::before_thread_sync"
    FENCE_AFTER = "fence::after_thread_sync"
    BARRIER = "barrier"
    SHIFT = "shift"
    """tcgen05.shift: async; moves the rows of TMEM columns one lane down (reads and writes TMEM)."""
    COMMIT = "commit"
    """tcgen05.commit: the mbarrier arrives once all prior async tcgen05 ops (mma, cp, shift) of
    this thread complete; the completion mechanism of those ops (not of ld/st)."""
    MBARRIER_INIT = "mbarrier.init"
    """mbarrier.init: sets the expected arrival count; phase 0 begins."""
    MBARRIER_ARRIVE = "mbarrier.arrive"
    """mbarrier.arrive (with a count, or .expect_tx): an arrival on the current phase; it releases
    this thread's prior memory operations to whoever observes the phase completing."""
    MBARRIER_EXPECT_TX = "mbarrier.expect_tx"
    """mbarrier.expect_tx: raises the phase's pending transaction count."""
    MBARRIER_COMPLETE_TX = "mbarrier.complete_tx"
    """mbarrier.complete_tx: lowers the pending transaction count (as an async copy's bytes land)."""
    MBARRIER_WAIT = "mbarrier.wait"
    """mbarrier.try_wait / test_wait (parity or token): observing a completed phase acquires what
    the arrivals released (the consumer side of commit -> mbarrier -> wait)."""
    MBARRIER_INVAL = "mbarrier.inval"
    """mbarrier.inval: the object stops being an mbarrier (its memory may be reused)."""
    FENCE_MBARRIER_INIT = "fence.mbarrier_init"
    """fence.mbarrier_init.release.cluster: makes prior mbarrier.init visible to the cluster and the async proxy."""
    FENCE_PROXY_ASYNC = "fence.proxy.async"
    """fence.proxy.async: orders generic-proxy shared-memory writes (st.shared) before async-proxy
    reads (tcgen05.mma/cp operands, TMA) that follow."""
    ELECT = "elect.sync"
    """elect.sync: one lane of the warp is elected (the usual issuer of mma/commit)."""
    TMA_LOAD = "cp.async.bulk load"
    """cp.async.bulk(.tensor) global -> shared: an async-proxy write of shared memory (in each CTA
    of its multicast mask) that completes its bytes on the mbarrier (complete_tx); the data is
    visible to whoever observes that phase (PTX ISA "cp.async.bulk.tensor", "mbarrier")."""
    BULK_STORE = "cp.async.bulk store"
    """cp.async.bulk(.tensor) shared -> global: an async-proxy read of shared memory (st.shared
    before it needs fence.proxy.async) and a write of global memory, tracked by bulk async-groups."""
    BULK_COMMIT_GROUP = "cp.async.bulk.commit_group"
    """Closes the thread's bulk async-group of stores issued since the last commit."""
    BULK_WAIT_GROUP = "cp.async.bulk.wait_group"
    """Waits until at most N bulk async-groups of the thread are pending (.read: their source
    reads done, so the shared memory may be reused; without it also their writes are visible)."""
    TMA_PREFETCH = "prefetch.tensor"
    """cp.async.bulk.prefetch.tensor / prefetch.tensormap: a cache hint, no memory effect."""

    @property
    def is_async_access(self) -> bool:
        return self in _ASYNC

    @property
    def reads_tmem(self) -> bool:
        return self in (EffectKind.LD, EffectKind.MMA, EffectKind.SHIFT)

    @property
    def writes_tmem(self) -> bool:
        return self in (EffectKind.ST, EffectKind.MMA, EffectKind.CP, EffectKind.SHIFT)

    @property
    def is_mbarrier_op(self) -> bool:
        return self in _MBARRIER

    @property
    def is_warp_collective(self) -> bool:
        """Executed with `.sync.aligned`: every thread of the warp, same operands."""
        return self in _COLLECTIVE


_ASYNC = frozenset({EffectKind.LD, EffectKind.ST, EffectKind.MMA, EffectKind.CP, EffectKind.SHIFT})
_MBARRIER = frozenset(
    {
        EffectKind.MBARRIER_INIT,
        EffectKind.MBARRIER_ARRIVE,
        EffectKind.MBARRIER_EXPECT_TX,
        EffectKind.MBARRIER_COMPLETE_TX,
        EffectKind.MBARRIER_WAIT,
        EffectKind.MBARRIER_INVAL,
    }
)
_COLLECTIVE = frozenset(
    {
        EffectKind.ALLOC,
        EffectKind.DEALLOC,
        EffectKind.RELINQUISH,
        EffectKind.LD,
        EffectKind.ST,
        EffectKind.WAIT_LD,
        EffectKind.WAIT_ST,
    }
)


class Wait(Enum):
    """The completion mechanism that retires an outstanding access."""

    LD = "wait::ld"
    ST = "wait::st"

    @property
    def effect(self) -> EffectKind:
        return EffectKind.WAIT_LD if self is Wait.LD else EffectKind.WAIT_ST


def wait_retiring(kind: EffectKind) -> Wait | None:
    """The wait that completes an outstanding access of `kind` (None: not retired by a wait)."""
    return {EffectKind.LD: Wait.LD, EffectKind.ST: Wait.ST}.get(kind)


def retired_by(wait_kind: EffectKind) -> EffectKind | None:
    """The access kind a wait op completes."""
    return {EffectKind.WAIT_LD: EffectKind.LD, EffectKind.WAIT_ST: EffectKind.ST}.get(wait_kind)


@dataclass(frozen=True)
class Rule:
    """One named ordering rule of TMEM_FACTS.md, with the ISA sentence it rests on."""

    number: int
    name: str
    summary: str

    def cite(self) -> str:
        return f"rule {self.number} ({self.name})"


ANTI_DEPENDENCY = Rule(
    1,
    "anti-dependency",
    "a later st/mma/cp to TMEM cells an outstanding ld of the same thread reads needs wait::ld in between",
)
STORE_COMPLETION = Rule(
    2,
    "store completion",
    "a st followed by ld/mma/st of the same cells in the same thread needs wait::st in between",
)
HANDOFF = Rule(
    3,
    "handoff",
    "threads that issued async tcgen05 accesses must wait for them before synchronizing with "
    "consumer threads; canonical form fences with before_thread_sync/after_thread_sync",
)
DEALLOC_COMPLETION = Rule(
    4,
    "dealloc",
    "before dealloc, every warp's accesses to those columns have completed (rule 3)",
)
REGISTER_USE = Rule(
    0,
    "conservative register use",
    "the seed document's stricter rule: wait::ld before using the ld's registers; the ISA does "
    "not require it (the true register dependency is honored)",
)

def rules_version(text: str) -> tuple[int, int]:
    """The PTX ISA version whose ordering rules an option asks for (`"8.6"`); tcgen05 exists only
    from the first version any architecture has it, so an older one is an error, not 8.6's rules."""
    version = isa.parse_ptx_version(text)
    first = min(isa.TCGEN05_ARCHS.values())
    if version < first:
        raise ValueError(f"tcgen05 exists from PTX ISA {first[0]}.{first[1]} on, got {text}")
    return version


PipelinedFrom = tuple[int, int]
PIPELINED_SAME_WARP_VERSION: PipelinedFrom = (9, 4)
# Same-warp pairs that PTX ISA 9.4 pipelines (no wait needed when targeting 9.4 or later).
_PIPELINED_PAIRS = frozenset(
    {
        (EffectKind.ST, EffectKind.LD),
        (EffectKind.ST, EffectKind.ST),
        (EffectKind.LD, EffectKind.ST),
    }
)


@dataclass(frozen=True)
class Requirement:
    """The wait a later access needs after an earlier one on overlapping cells, and why.

    `wait` is None for accesses no tcgen05.wait retires (mma, cp: tcgen05.commit + mbarrier).
    """

    wait: Wait | None
    rule: Rule


def same_thread_requirement(
    earlier: EffectKind,
    later: EffectKind,
    ptx_version: tuple[int, int] = isa.DEFAULT_PTX_VERSION,
) -> Requirement | None:
    """What orders `later` after an outstanding `earlier` of the same thread on the same cells.

    None means the ISA orders the pair by itself (read after read, or a pair that PTX 9.4
    pipelines when targeting 9.4 or later).
    """
    if ptx_version >= PIPELINED_SAME_WARP_VERSION and (earlier, later) in _PIPELINED_PAIRS:
        return None
    if earlier is EffectKind.LD and later.writes_tmem:
        return Requirement(Wait.LD, ANTI_DEPENDENCY)
    if earlier is EffectKind.ST and (later.reads_tmem or later.writes_tmem):
        return Requirement(Wait.ST, STORE_COMPLETION)
    if later is EffectKind.DEALLOC:
        wait = wait_retiring(earlier)
        if wait is not None:
            return Requirement(wait, DEALLOC_COMPLETION)
    return None


def handoff_requirement(outstanding: EffectKind) -> Requirement | None:
    """The wait an outstanding access needs before a barrier hands TMEM to other threads."""
    wait = wait_retiring(outstanding)
    return Requirement(wait, HANDOFF) if wait is not None else None


def is_handoff(kind: EffectKind) -> bool:
    """Ops that synchronize this thread with others (bar.sync, mbarrier arrive)."""
    return kind is EffectKind.BARRIER


def cross_thread_requirement(earlier: EffectKind, later: EffectKind) -> Requirement | None:
    """What orders `later` in another warp after `earlier` on overlapping cells (rules 3-4).

    The earlier warp waits for its access (the returned wait), then a barrier hands the cells
    over. None: the pair needs no ordering (two reads).
    """
    if later is EffectKind.DEALLOC:
        if earlier.is_async_access:
            return Requirement(wait_retiring(earlier), DEALLOC_COMPLETION)
        return None
    if not (earlier.is_async_access and later.is_async_access):
        return None
    if not (earlier.writes_tmem or later.writes_tmem):
        return None
    return Requirement(wait_retiring(earlier), HANDOFF)


# The tcgen05 work a CTA barrier orders between warps: the canonical pattern fences it with
# fence::before_thread_sync before the barrier and fence::after_thread_sync after it (rule 3).
_BARRIER_ORDERED = _ASYNC | {EffectKind.ALLOC, EffectKind.DEALLOC, EffectKind.RELINQUISH}


def is_barrier_ordered(kind: EffectKind) -> bool:
    """tcgen05 work whose order across warps a barrier establishes (and fences surround)."""
    return kind in _BARRIER_ORDERED
