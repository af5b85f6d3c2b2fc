"""Cluster semantics on the machine: mapa, accesses to a peer CTA's shared memory, setmaxnreg's warpgroup rule."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter.lanes import WarpLanes
from tmem_dialect.interpreter.machine import Machine
from tmem_dialect.interpreter.memory import CLUSTER_RANK_SHIFT, CTA_WINDOW, SHARED_BASE, SHARED_LIMIT


def mapa(m: Machine, w: WarpLanes, op: Operation, addresses: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Per lane: the shared::cluster address, in CTA `rank`, of the shared variable at `address`.

    Every lane gets a result; an address outside shared memory or a rank outside the cluster is
    reported (the ISA leaves the result undefined) and maps to the lane's own address."""
    addresses = np.asarray(addresses, dtype=np.int64)
    ranks = np.asarray(ranks, dtype=np.int64)
    local = addresses & (CTA_WINDOW - 1)
    shared = (addresses >= SHARED_BASE) & (addresses < SHARED_LIMIT)
    size = len(m.ctas)
    bad_rank = w.mask & ((ranks < 0) | (ranks >= size))
    bad_address = w.mask & ~shared
    if bad_rank.any():
        lane = int(np.argmax(bad_rank))
        m.report(FindingKind.MEMORY_FAULT, "error", op,
                 f"{op.name} of warp {w.warp} (thread {w.thread_id(lane)}) maps to CTA rank "
                 f"{int(ranks[lane])}, but the cluster has {size} CTAs (ranks 0..{size - 1})", key=w.warp)
    if bad_address.any():
        lane = int(np.argmax(bad_address))
        m.report(FindingKind.MEMORY_FAULT, "error", op,
                 f"{op.name} of warp {w.warp} (thread {w.thread_id(lane)}) maps address "
                 f"{int(addresses[lane]):#x}, which is not a shared-memory address", key=w.warp)
    ok = shared & ~bad_rank
    return np.where(ok, ((ranks + 1) << CLUSTER_RANK_SHIFT) | local, addresses)


@dataclass
class _Reconfiguration:
    """setmaxnreg executions of one warp: (op, count), in order, and the clock of each."""

    ops: list[tuple[Operation, int]] = field(default_factory=list)
    clocks: list[int] = field(default_factory=list)


def _state(m: Machine) -> dict[int, _Reconfiguration]:
    state = getattr(m, "_setmaxnreg", None)
    if state is None:
        state = m._setmaxnreg = {}  # type: ignore[attr-defined]
    return state


def _warpgroup(m: Machine, w: WarpLanes) -> list[int]:
    """The warps of `w`'s warpgroup (four consecutive warps of the CTA from a multiple of 4)."""
    cta = m.cta(w.cta)
    first = w.warp_in_cta // isa.WARPS_PER_WARPGROUP * isa.WARPS_PER_WARPGROUP
    return [cta.warps[i] for i in range(first, min(first + isa.WARPS_PER_WARPGROUP, len(cta.warps)))]


def setmaxnreg(m: Machine, w: WarpLanes, op: Operation, increase: bool, count: int) -> None:
    """setmaxnreg.{inc,dec}.sync.aligned: every warp of the warpgroup executes the same instruction
    (PTX ISA "setmaxnreg"), and synchronizes with the others before the next one."""
    m.check_collective(w, op, f"{op.name} (.sync.aligned)")
    state = _state(m)
    mine = state.setdefault(w.warp, _Reconfiguration())
    k = len(mine.ops)
    clock = m.clocks[w.warp]
    for other in _warpgroup(m, w):
        theirs = state.get(other)
        if other == w.warp or theirs is None:
            continue
        if k < len(theirs.ops) and theirs.ops[k][0] is not op:
            their_op, their_count = theirs.ops[k]
            m.report(
                FindingKind.SETMAXNREG_UNIFORM, "error", op,
                f"setmaxnreg is not warpgroup-uniform: warp {w.warp} executes this setmaxnreg "
                f"({'inc' if increase else 'dec'} {count}) as its setmaxnreg #{k + 1}, warp {other} of its "
                f"warpgroup executes another one ({their_count} registers) there; all warps of a warpgroup "
                "must execute the same setmaxnreg",
                [(f"the setmaxnreg of warp {other}", their_op)], key=("differs", k))
        if k >= 1 and k - 1 < len(theirs.clocks) and not clock.knows(other, theirs.clocks[k - 1]):
            m.report(
                FindingKind.SETMAXNREG_UNIFORM, "error", op,
                f"warp {w.warp} executes its setmaxnreg #{k + 1} before synchronizing with warp {other} of its "
                "warpgroup after the previous one: the warpgroup must synchronize explicitly between "
                "setmaxnreg instructions", [(f"the previous setmaxnreg of warp {other}", theirs.ops[k - 1][0])],
                key=("unsynchronized", k))
    mine.ops.append((op, count))
    mine.clocks.append(clock.now)
    clock.tick()


def check_setmaxnreg_at_exit(m: Machine) -> None:
    """After the run: a warp of a warpgroup that executed fewer setmaxnreg than another did."""
    state = _state(m)
    if not state:
        return
    for cta in m.ctas:
        for first in range(0, len(cta.warps), isa.WARPS_PER_WARPGROUP):
            group = cta.warps[first : first + isa.WARPS_PER_WARPGROUP]
            counts = {warp: len(state[warp].ops) if warp in state else 0 for warp in group}
            most = max(counts.values())
            leader = max(group, key=lambda warp: counts[warp])
            for warp, n in counts.items():
                if n < most:
                    op, regs = state[leader].ops[n]
                    m.report(
                        FindingKind.SETMAXNREG_UNIFORM, "error", op,
                        f"setmaxnreg is not warpgroup-uniform: warp {leader} executes this setmaxnreg "
                        f"({regs} registers) but warp {warp} of its warpgroup never does (it executes "
                        f"{n} setmaxnreg in all); all warps of a warpgroup must execute the same setmaxnreg",
                        key=("missing", warp))


def check_remote_accesses(m: Machine) -> None:
    """After the run: every access of a warp to another CTA's shared memory is ordered before that
    CTA exits, i.e. before the exit of one of its warps (a CTA's shared memory is gone once its last
    warp exits: the cluster barrier before exit in every cluster kernel, or a peer warp that waits
    on the mbarrier the access arrives on, as CUTLASS's 2-CTA TMEM dealloc does). Judged by
    happens-before, not by this schedule."""
    for (warp, cta), (clock, op) in sorted(m.remote_accesses.items(), key=lambda kv: kv[0]):
        exits = [(peer, m.exit_clocks.get(peer)) for peer in m.cta(cta).warps]
        if any(known is None or known[warp] >= clock for _, known in exits):
            continue
        m.report(
            FindingKind.PEER_EXITED, "error", op,
            f"warp {warp} accesses the shared memory of CTA {cta}, whose warps may exit before the access "
            "(the exit of none of them is ordered after it): nothing orders the access before the peer CTA "
            "exits (a cluster barrier after the last remote access keeps the peer's shared memory alive)",
            key=cta)  # once per op and peer CTA
