"""TMEM allocation lifecycle on the machine: alloc, dealloc, relinquish, CTA-pair rendezvous, leaks."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from tmem_dialect.findings import FindingKind
from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import TMEMEffect
from tmem_dialect.interpreter import producers
from tmem_dialect.interpreter import tmem as tm
from tmem_dialect.interpreter.lanes import WarpLanes
from tmem_dialect.interpreter.machine import CTA, Machine, PairMatch
from tmem_dialect.interpreter.memory import MemRefValue
from tmem_dialect.interpreter.values import WARP, derived, origin
from tmem_dialect.memory_model import EffectKind


def check_cta_group(m: Machine, w: WarpLanes, op: Operation, group: int) -> int:
    if group == 2 and m.cta(w.cta).peer >= len(m.ctas):
        if len(m.ctas) < 2:
            why = "run the kernel with cta_pair=True or cluster=N, N even (tmem-run --cta-pair, --cluster N)"
        else:
            why = (f"CTA {w.cta} is the last of a cluster of {len(m.ctas)}, so it has no peer (pairs are "
                   "CTAs 2k and 2k+1): run an even cluster size")
        m.report(FindingKind.CTA_PAIR_REQUIRED, "error", op, f"cta_group::2 needs a CTA pair: {why}")
        return 1
    return group


def alloc(m: Machine, w: WarpLanes, op: Operation, effect: TMEMEffect) -> None:
    m.check_collective(w, op, op.name)
    ncols = _ncols(m, w, op, effect)
    group = check_cta_group(m, w, op, effect.cta_group or 1)
    if ncols is None:
        return
    if group == 2:
        _check_cluster_barrier(m, w, op, EffectKind.ALLOC)
        match = _rendezvous(m, w, op, EffectKind.ALLOC, (("column count", ncols),))
        if match.second is w:
            peer = match.first
            base = _wait_for_room(m, w, op, ncols, [m.cta(c) for c in m.cta(w.cta).pair])
            _take(m, peer, match.first_op, ncols, base, 2)
            _take(m, w, op, ncols, base, 2)
            match.done = True
        elif match.second is None:  # the peer CTA exited (reported): this CTA's half goes on alone
            _take(m, w, op, ncols, _wait_for_room(m, w, op, ncols, [m.cta(w.cta)]), 2)
        return
    base = _wait_for_room(m, w, op, ncols, [m.ctas[w.cta]])
    _take(m, w, op, ncols, base, 1)


def _take(m: Machine, w: WarpLanes, op: Operation, ncols: int, base: int, group: int) -> None:
    cta = m.ctas[w.cta]
    alloc = cta.tmem.allocator
    if alloc.relinquished is not None:
        m.report(
            FindingKind.ALLOC_AFTER_RELINQUISH,
            "error",
            op,
            f"warp {w.warp} allocates TMEM after this CTA gave up its allocation permit",
            [("tcgen05.relinquish_alloc_permit was executed here", alloc.relinquished)],
        )
    if alloc.last_ncols is not None and ncols > alloc.last_ncols:
        m.report(
            FindingKind.ALLOC_SIZE_INCREASE,
            "error",
            op,
            f"warp {w.warp} allocates {ncols} TMEM columns after an allocation of "
            f"{alloc.last_ncols}: allocation sizes must not increase within a CTA",
            [(f"the earlier allocation of {alloc.last_ncols} columns", alloc.last_alloc.op if alloc.last_alloc else None)],
        )
    clock = m.clocks[w.warp]
    # Judged before the allocator's ordering edge below: that edge exists only because this
    # schedule ran the other warp's dealloc first; the program itself does not order them.
    previous = alloc.last_alloc
    if previous is not None and previous.warp != w.warp and not clock.knows(previous.warp, previous.clock):
        m.report(
            FindingKind.CONCURRENT_ALLOC,
            "error",
            op,
            f"warp {w.warp} allocates TMEM while warp {previous.warp}'s allocation is not ordered "
            "before it by a barrier: one warp of a CTA allocates, never two concurrently",
            [(f"the allocation of warp {previous.warp}", previous.op)],
        )
    for freed in alloc.freed_clocks(base, ncols):
        # The allocator hands out freed columns only after the dealloc: an ordering edge.
        clock.acquire(freed)
        np.maximum(clock.fenced, freed, out=clock.fenced)
    taken = alloc.take(base, ncols, w.warp, op, group)
    taken.clock = clock.now
    slot = w.env[_slot_value(m, op)]
    address = isa.make_taddr(0, base)
    _write_slot(m, w, op, slot, address, taken)


def _slot_value(m: Machine, op: Operation):
    effect = m.effect_of(op)
    assert effect.address is not None
    return effect.address


def _write_slot(m: Machine, w: WarpLanes, op: Operation, slot, address: int, allocation: tm.Allocation) -> None:
    # the words written remember the allocation: loads of them yield addresses derived from it
    value = derived(np.full(WARP, address, dtype=np.uint32).view(np.int32), allocation)
    if isinstance(slot, MemRefValue):
        addresses = np.full(WARP, slot.buffer.base, dtype=np.int64)
    else:
        addresses = np.full(WARP, m.uniform(w, op, slot, "address slot"), dtype=np.int64)
    # Only one thread's write is needed; the collective writes the same value from all.
    m.store(w, op, addresses, value, np.dtype(np.int32), 0)


def _wait_for_room(m: Machine, w: WarpLanes, op: Operation, ncols: int, ctas: list[CTA]) -> int:
    def room() -> int | None:
        lo = 0
        while lo + ncols <= tm.COLUMNS:
            if all((c.tmem.allocator.owner[lo : lo + ncols] < 0).all() for c in ctas):
                return lo
            lo += ncols
        return None

    base = room()
    while base is None:
        free = min(int((c.tmem.allocator.owner < 0).sum()) for c in ctas)
        scattered = ", not in one aligned range" if free >= ncols else ""
        m.scheduler.block(
            w.warp,
            f"tcgen05.alloc of warp {w.warp} waits for {ncols} free TMEM columns "
            f"({free} are free{scattered}) and no other warp frees any",
            lambda: room() is not None,
            op,
            FindingKind.OUT_OF_TMEM,
        )
        base = room()
    return base


def _ncols(m: Machine, w: WarpLanes, op: Operation, effect: TMEMEffect) -> int | None:
    if effect.ncols is not None:
        n = effect.ncols  # static, or an NVVM operand from a constant (upstream does not check it)
    else:
        assert effect.ncols_value is not None
        n = m.uniform(w, op, w.env[effect.ncols_value], "column count")
    if err := isa.ncols_error(n):
        m.report(FindingKind.BAD_NCOLS, "error", op, f"warp {w.warp}: {err}", key=w.warp)
        return None
    return n


def _check_cluster_barrier(m: Machine, w: WarpLanes, op: Operation, kind: EffectKind) -> None:
    """A pair alloc needs the peer CTA running, a pair dealloc needs it still running: a cluster
    barrier (barrier.cluster.arrive + wait) before each, the dealloc's after the alloc
    (TMEM_FACTS.md, allocation lifecycle, cta_group::2)."""
    waits = m.cluster_waits[w.warp]
    since = m.cluster_waits_at_pair_alloc.get(w.warp, 0) if kind is EffectKind.DEALLOC else 0
    if kind is EffectKind.ALLOC:
        m.cluster_waits_at_pair_alloc[w.warp] = waits
    if waits > since:
        return
    after = " after the pair allocation" if kind is EffectKind.DEALLOC and w.warp in m.cluster_waits_at_pair_alloc else ""
    m.report(
        FindingKind.CLUSTER_BARRIER_MISSING,
        "error",
        op,
        f"{op.name} (cta_group::2) of warp {w.warp} has no cluster barrier before it{after} "
        f"(barrier.cluster.arrive and barrier.cluster.wait): the peer CTA must be running when the "
        f"pair {'allocates' if kind is EffectKind.ALLOC else 'deallocates'}",
        key=w.warp,
    )


def _rendezvous(m: Machine, w: WarpLanes, op: Operation, kind: EffectKind, operands: tuple = ()) -> PairMatch:
    """cta_group::2: the first warp of the pair blocks until the peer CTA's warp arrives; the two
    must pass the same `operands` ((name, value) pairs)."""
    peer_cta = m.cta(w.cta).peer
    waiting = m._pair_waiting.get((kind, peer_cta))
    if waiting is not None:
        del m._pair_waiting[(kind, peer_cta)]
        waiting.second = w
        for (what, mine), (_, theirs) in zip(operands, waiting.operands):
            if mine != theirs:
                m.report(
                    FindingKind.PEER_MISMATCH,
                    "error",
                    op,
                    f"{op.name} (cta_group::2) of warp {w.warp} in CTA {w.cta} has {what} {mine}, its "
                    f"peer warp {waiting.first.warp} in CTA {peer_cta} {theirs}: the two halves of a "
                    "CTA pair's op must agree",
                    [(f"the peer's {waiting.first_op.name}", waiting.first_op)],
                    key=what,
                )
        # No happens-before: PTX ISA 9.7.16.5 "Issue Granularity" says only that the first warp
        # *could* block until the peer's warp performs the op, not that it orders their memory
        # accesses (a cluster barrier does that), so the two warps' clocks stay apart.
        return waiting
    match = PairMatch(kind, w, op, operands)
    m._pair_waiting[(kind, w.cta)] = match
    peer_warps = [m.warp_interpreters[p] for p in m.cta(peer_cta).warps] if m.warp_interpreters else []
    exited = lambda: bool(peer_warps) and all(p.finished for p in peer_warps)  # noqa: E731
    m.scheduler.block(
        w.warp,
        f"{op.name} (cta_group::2) of warp {w.warp} waits for a warp of the peer CTA "
        f"{peer_cta} to execute it too",
        lambda: match.done or exited(),
        op,
    )
    if not match.done:
        # Every thread of the peer CTA exited: its half of the pair op never comes (reported once
        # per CTA; later pair ops of this CTA go on alone).
        del m._pair_waiting[(kind, w.cta)]
        match.done = True
        if w.cta in m.peer_exited:
            return match
        m.peer_exited.add(w.cta)
        what = {EffectKind.ALLOC: "allocation", EffectKind.DEALLOC: "deallocation"}.get(kind, "op")
        m.report(
            FindingKind.PEER_EXITED,
            "error",
            op,
            f"{op.name} (cta_group::2) of warp {w.warp} in CTA {w.cta}: every thread of the peer CTA "
            f"{peer_cta} exited without executing its half of the pair {what}; the peer CTA must still "
            "be running (keep it alive with a cluster barrier before the pair dealloc)",
            key=w.warp,
        )
    return match


def dealloc(m: Machine, w: WarpLanes, op: Operation, effect: TMEMEffect) -> None:
    m.check_collective(w, op, op.name)
    ncols = _ncols(m, w, op, effect)
    group = check_cta_group(m, w, op, effect.cta_group or 1)
    assert effect.address is not None
    address = w.env[effect.address]
    taddr = m.uniform(w, op, address, "TMEM address") & 0xFFFFFFFF
    if ncols is None:
        return
    if group == 2:
        _check_cluster_barrier(m, w, op, EffectKind.DEALLOC)
        match = _rendezvous(m, w, op, EffectKind.DEALLOC,
                            (("column count", ncols), ("TMEM address", f"{taddr:#x}")))
        if match.second is w:
            match.done = True
    _free(m, w, op, taddr, ncols, origin(address))


def _free(m: Machine, w: WarpLanes, op: Operation, taddr: int, ncols: int,
          derived_from: tm.Allocation | None) -> None:
    cta = m.ctas[w.cta]
    alloc = cta.tmem.allocator
    lane, column = isa.taddr_lane(taddr), isa.taddr_column(taddr)
    if lane != 0:
        m.report(
            FindingKind.BAD_DEALLOC,
            "error",
            op,
            f"warp {w.warp} deallocates address lane {lane}, column {column}: tcgen05.dealloc "
            "takes the allocation's base address (lane 0)",
        )
    a = alloc.live_at(column)
    if derived_from is not None and not derived_from.live and a is not None and a is not derived_from:
        m.report(
            FindingKind.STALE_BASE,
            "error",
            op,
            f"warp {w.warp} deallocates TMEM column {column} through a stale base: the allocation "
            f"of {derived_from.ncols} columns its address derives from was freed, and this frees the "
            "newer allocation there",
            [("the allocation the address derives from", derived_from.op),
             ("it was freed here", derived_from.dealloc_op),
             (f"the live allocation of {a.ncols} columns at column {a.base}", a.op)],
        )
    if a is None:
        freed = alloc.freed_at(column)
        if freed is not None:
            m.report(
                FindingKind.DOUBLE_DEALLOC,
                "error",
                op,
                f"warp {w.warp} deallocates TMEM column {column} again: the allocation of "
                f"{freed.ncols} columns there was already freed",
                [("it was freed here", freed.dealloc_op), ("it was allocated here", freed.op)],
            )
        else:
            m.report(
                FindingKind.BAD_DEALLOC,
                "error",
                op,
                f"warp {w.warp} deallocates TMEM column {column}, where no allocation starts",
            )
        return
    if a.ncols != ncols:
        m.report(
            FindingKind.WRONG_SIZE_DEALLOC,
            "error",
            op,
            f"warp {w.warp} deallocates {ncols} columns at TMEM column {column} but the "
            f"allocation there has {a.ncols}",
            [(f"the allocation of {a.ncols} columns", a.op)],
        )
    freed = tm.CellSet.rectangle(range(tm.LANES), range(a.base, a.base + a.ncols))
    producers.check_access(m, w, op, EffectKind.DEALLOC, freed.flat)  # issue 10: an mma in flight
    clock = m.clocks[w.warp]
    for p in tm.conflicts(cta.tmem, m.history, freed, EffectKind.DEALLOC, w.warp, op, clock,
                          lambda f: None, m.options.ptx_version, m._seen):
        m.report_problem(p, op, w.warp)
    rec = m.history.new(w.warp, EffectKind.DEALLOC, op, clock,
                           lambda: (freed.flat, freed.threads), w.thread_id(0), synchronous=True)
    tm.record(cta.tmem, rec, freed)
    alloc.free(a, op, clock.vc)
    clock.tick()


def relinquish(m: Machine, w: WarpLanes, op: Operation, effect: TMEMEffect) -> None:
    m.check_collective(w, op, op.name)
    group = check_cta_group(m, w, op, effect.cta_group or 1)
    if group == 2:
        match = _rendezvous(m, w, op, EffectKind.RELINQUISH)
        if match.second is w:
            match.done = True
    alloc = m.ctas[w.cta].tmem.allocator
    if alloc.relinquished is None:
        alloc.relinquished = op


def check_leaks(m: Machine) -> None:
    for cta in m.ctas:
        for a in cta.tmem.allocator.allocations:
            if a.live:
                where = f" of CTA {cta.index}" if len(m.ctas) > 1 else ""
                m.report(
                    FindingKind.LEAK,
                    "error",
                    a.op,
                    f"TMEM leak: the {a.ncols} columns that warp {a.warp} allocated here at "
                    f"column {a.base}{where} are never deallocated before the kernel exits",
                    key=cta.index,
                )
