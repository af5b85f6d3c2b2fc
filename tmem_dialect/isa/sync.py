"""Completion and synchronization facts: tcgen05.commit, mbarriers, proxy fences, elect, pipelined pairs.

Sources: PTX ISA 9.7.16.7.1 "tcgen05.commit"; 9.7.13.15 "Parallel Synchronization and
Communication Instructions: mbarrier" (9.7.13.15.1 object, .2 phases, .11 init, .12 inval,
.13 expect_tx, .14 complete_tx, .15 arrive, .16 arrive_drop, .17 test_wait/try_wait);
9.7.13.4 "membar/fence" (fence.proxy.async, fence.mbarrier_init); 9.7.13.x "elect.sync";
9.7.16.6 "tcgen05 Memory Consistency Model", 9.7.16.6.3 "Pipelined tcgen05 instructions".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tmem_dialect.isa.core import WARP_SIZE

MBARRIER_BYTES = 8  # an mbarrier object is a 64-bit, 8-byte aligned shared-memory word
MBARRIER_ALIGN = 8
# init count: the expected arrival count, in [1, 2^20 - 1] (9.7.13.15.1)
MBARRIER_MAX_COUNT = (1 << 20) - 1
# tx-count range of expect_tx / complete_tx / arrive.expect_tx: [0, 2^20 - 1]
MBARRIER_MAX_TX = (1 << 20) - 1
COMMIT_MULTICAST_BITS = 16  # commit's multicast mask: one bit per CTA of the cluster


# bar{.cta}.sync / bar.arrive / barrier.sync (PTX ISA 9.7.13.1 "bar, barrier"): 16 named barriers
# per CTA; a thread count, when given, is a multiple of the warp size (ptxas 13.0 rejects
# constants that break either: "Barrier number '16' out of range, expected to be in range
# [0..15]", "Number of threads participating in barrier must be in multiple of warp size").
NAMED_BARRIERS = 16


def named_barrier_error(barrier_id: int | None, threads: int | None) -> str | None:
    """Why constant operands of a named barrier are not ones the ISA allows (None: they are)."""
    if barrier_id is not None and not 0 <= barrier_id < NAMED_BARRIERS:
        return f"barrier id {barrier_id} is out of range: a CTA has barriers 0..{NAMED_BARRIERS - 1}"
    if threads is not None and (threads <= 0 or threads % WARP_SIZE):
        return f"a barrier's thread count must be a positive multiple of the warp size ({WARP_SIZE}), got {threads}"
    return None


def mbarrier_count_error(count: int) -> str | None:
    if not 1 <= count <= MBARRIER_MAX_COUNT:
        return f"an mbarrier arrival count must be in [1, {MBARRIER_MAX_COUNT}], got {count}"
    return None


def tx_count_error(count: int) -> str | None:
    if not 0 <= count <= MBARRIER_MAX_TX:
        return f"a transaction count must be in [0, {MBARRIER_MAX_TX}], got {count}"
    return None


def parity_error(parity: int) -> str | None:
    if parity not in (0, 1):
        return f"a phase parity is 0 or 1, got {parity}"
    return None


def commit_mnemonic(cta_group: int, multicast: bool) -> str:
    """`tcgen05.commit.cta_group::N.mbarrier::arrive::one.shared::cluster{.multicast::cluster}.b64`."""
    mc = ".multicast::cluster" if multicast else ""
    return f"tcgen05.commit.cta_group::{cta_group}.mbarrier::arrive::one.shared::cluster{mc}.b64"


def commit_multicast_error(cta_group: int, multicast: bool) -> str | None:
    """The multicast mask signals the mbarriers of several CTAs; PTX allows it with either
    cta_group, and kernels use it with cta_group::2 to reach both CTAs of the pair [ptxas]."""
    return None


class ProxyKind(Enum):
    """fence.proxy kinds (upstream #nvvm.proxy_kind)."""

    ALIAS = "alias"
    ASYNC = "async"
    ASYNC_GLOBAL = "async.global"
    ASYNC_SHARED = "async.shared"


def fence_proxy_mnemonic(kind: ProxyKind, shared_space: str | None = None) -> str:
    """`fence.proxy.async` / `fence.proxy.async.global` / `fence.proxy.async.shared::{cta|cluster}`."""
    if kind is ProxyKind.ASYNC_SHARED:
        return f"fence.proxy.async.shared::{shared_space or 'cta'}"
    return f"fence.proxy.{kind.value}"


FENCE_MBARRIER_INIT = "fence.mbarrier_init.release.cluster"
ELECT_SYNC = "elect.sync"


# ---- pipelined tcgen05 pairs (9.7.16.6.3) -----------------------------------------------------


class PipelineCondition(Enum):
    """What must hold for an asynchronous pair to be ordered without a wait."""

    SAME_CTA_GROUP = "same cta_group"
    SAME_CTA_GROUP_ACCUMULATOR_SHAPE = "same cta_group, same accumulator and shape"


@dataclass(frozen=True)
class PipelinedPair:
    earlier: str  # "mma", "cp", "shift" (cp4x256b: tcgen05.cp.4x256b only)
    later: str
    condition: PipelineCondition


# Asynchronous tcgen05 pairs of one thread that the ISA executes in issue order: the later op
# observes the earlier one's effect without any wait. Every other async pair is unordered.
PIPELINED_PAIRS = (
    PipelinedPair("mma", "mma", PipelineCondition.SAME_CTA_GROUP_ACCUMULATOR_SHAPE),
    PipelinedPair("cp", "mma", PipelineCondition.SAME_CTA_GROUP),
    PipelinedPair("shift", "mma", PipelineCondition.SAME_CTA_GROUP),
    PipelinedPair("shift", "cp4x256b", PipelineCondition.SAME_CTA_GROUP),
    PipelinedPair("mma", "shift", PipelineCondition.SAME_CTA_GROUP),
)


def pipelined(earlier: str, later: str) -> PipelinedPair | None:
    """The pipelined-pair entry for (earlier, later) async op names, or None."""
    return next((p for p in PIPELINED_PAIRS if (p.earlier, p.later) == (earlier, later)), None)


# ---- clusters and register reconfiguration ------------------------------------------------------
# PTX ISA "setmaxnreg" (miscellaneous instructions): the count is an immediate, a multiple of 8 in [24, 256]; "the same
# setmaxnreg instruction must be executed by all warps in a warpgroup", and the warpgroup must
# synchronize explicitly before its next setmaxnreg. PTX ISA "mapa" (data movement): the address of the same
# shared variable in CTA b of the cluster (.shared::cluster: shared in, shared::cluster out).
SETMAXNREG_MIN, SETMAXNREG_MAX, SETMAXNREG_STEP = 24, 256, 8
MAX_CLUSTER_CTAS = 16  # the non-portable maximum cluster size (8 is portable)


def setmaxnreg_error(count: int) -> str | None:
    """Why `count` is not a legal setmaxnreg register count (upstream's verifier wording)."""
    if count % SETMAXNREG_STEP:
        return f"new register size must be multiple of {SETMAXNREG_STEP}, got {count}"
    if not SETMAXNREG_MIN <= count <= SETMAXNREG_MAX:
        return f"new register size must be in between {SETMAXNREG_MIN} to {SETMAXNREG_MAX}, got {count}"
    return None


def setmaxnreg_mnemonic(increase: bool) -> str:
    """`setmaxnreg.{inc|dec}.sync.aligned.u32`."""
    return f"setmaxnreg.{'inc' if increase else 'dec'}.sync.aligned.u32"


def mapa_mnemonic(shared: bool) -> str:
    """`mapa.shared::cluster.u64` (a shared address in, a shared::cluster address out) or `mapa.u64`."""
    return "mapa.shared::cluster.u64" if shared else "mapa.u64"


def cluster_barrier_mnemonic(what: str, aligned: bool) -> str:
    """`barrier.cluster.{arrive|arrive.relaxed|wait}{.aligned}`."""
    return f"barrier.cluster.{what}{'.aligned' if aligned else ''}"


# PTX ISA "ldmatrix" (warp-level matrix load from shared memory; the section of the warp-level
# matrix instructions) and "bar.warp.sync": the forms the nvvm subset has. .num counts 8x8 b16 matrices.
LDMATRIX_COUNTS = (1, 2, 4)
BAR_WARP_SYNC_MNEMONIC = "bar.warp.sync"


def ldmatrix_mnemonic(count: int, transpose: bool) -> str:
    """`ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16`."""
    return f"ldmatrix.sync.aligned.m8n8.x{count}{'.trans' if transpose else ''}.shared.b16"
