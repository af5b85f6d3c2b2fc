"""Handoffs through mbarriers: what a tcgen05.commit or an mbarrier.arrive releases, what a wait acquires, and releases that come before their wait::ld.

The PTX ISA's tcgen05 memory consistency model (section "tcgen05 Memory Consistency Model",
and tcgen05.commit): a commit makes the mbarrier track the completion of every prior async
tcgen05 operation (mma, cp, shift) of the thread, and a thread that observes the phase complete
(mbarrier.try_wait / test_wait) is ordered after them. An mbarrier.arrive releases the thread's
prior operations the same way, but a tcgen05.ld or st is complete only after its
tcgen05.wait::ld / wait::st: an arrive before that wait hands over cells still being read (the
flashinfer bug of issue 11).

The engine tracks, per warp, the TMEM accesses it issued and the mbarriers whose phase it
observed; here each release is recorded against the accesses it covers, and a cross-warp pair
of accesses is ordered when the later one's warp observed an mbarrier the earlier one was
released to, in the phase that release completes. An mbarrier is named by its shared global
and constant byte offset, a phase by its parity: a warp's n-th release (from 0) to an mbarrier
completes its phase n (every arriving thread arrives once per phase), which a wait with parity
n % 2 observes. An mbarrier chosen by a run-time index (a ring's `full[i % N]`), a release count
that differs between paths or grows in a loop, and a parity that is not a constant are not
matched: such a pair stays unproven and is reported as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.diagnostics import error
from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import HANDOFF, EffectKind, wait_retiring
from tmem_dialect.passes.analysis import messages_mbarriers as text
from tmem_dialect.passes.analysis.carried_rules import CarriedRingRules
from tmem_dialect.passes.analysis.chains import Chains
from tmem_dialect.passes.analysis.cluster_arrivals import ClusterArrivalRules
from tmem_dialect.passes.analysis.cluster_ranks import MAPA
from tmem_dialect.passes.analysis.ops import Action, OpInfo, name_of
from tmem_dialect.passes.analysis.rings import (
    Counter,
    is_ring,
    loop_key,
    ring_parity,
    ring_stage,
    scf_counter,
    strip,
)
from tmem_dialect.passes.analysis.state import Local
from tmem_dialect.passes.carried import CarriedRings
from tmem_dialect.passes.cells import warp_boxes
from tmem_dialect.passes.cfg import Loop
from tmem_dialect.passes.forms import Form
from tmem_dialect.passes.int_eval import CASTS, folded_constant
from tmem_dialect.passes.values import slot_key

# What each kind of release covers: commit the async tcgen05 ops, arrive the completed ld/st.
_COMMITTED = frozenset({EffectKind.MMA, EffectKind.CP, EffectKind.SHIFT})
_ARRIVED = frozenset({EffectKind.LD, EffectKind.ST})
MBARRIER_SYNC = frozenset({EffectKind.COMMIT, EffectKind.MBARRIER_ARRIVE, EffectKind.MBARRIER_WAIT})


@dataclass(frozen=True)
class Release:
    """How an access was released to one mbarrier (over every release op and path)."""

    at: Operation
    """A release op (the first one recorded)."""
    early: Operation | None
    """A release op the access was still in flight at (its wait::ld/st came later), if any."""
    repeats: bool
    """Some release op shares a loop with the access: its next instance follows the release."""


class Order(Enum):
    """What the mbarrier rules say of a pair of accesses in two warps."""

    ORDERED = "ordered"
    REPORTED = "reported"
    """Not ordered, and already reported here (an early release, a ring race): the cross-warp
    check adds no second diagnostic for the pair."""


def mbarrier_key(pointer: SSAValue, counter: Counter = scf_counter) -> object | None:
    """The mbarrier a pointer names: (shared global or value, constant byte offset), or
    (global, ("ring", loop, N)) for the stage `t % N` of a ring; None for another run-time index.
    Through GEPs and through the integer arithmetic compilers emit for shared addresses
    (Triton's `inttoptr(trunc(ptrtoint @global_smem) + 12288)`)."""
    offset = 0
    stage: tuple[object, int] | None = None
    value = pointer
    while True:
        owner = value.owner
        if isinstance(owner, llvm.GEPOp):
            indices = tuple(owner.rawConstantIndices.iter_values())
            size = _element_bytes(owner.elem_type)
            if len(owner.ssa_indices) == 1 and len(indices) == 1 and size is not None and stage is None:
                folded = folded_constant(owner.ssa_indices[0])
                if folded is not None:
                    offset += folded * size  # a constant index left unfolded (`mul 0, 1`)
                    value = owner.ptr
                    continue
                stage = ring_stage(owner.ssa_indices[0], counter)
                if stage is None or size != isa.MBARRIER_BYTES:
                    return None
            elif owner.ssa_indices or len(indices) != 1 or size is None:
                return None  # a run-time index, or a field of an aggregate
            else:
                offset += indices[0] * size
            value = owner.ptr
        elif isinstance(owner, Operation) and owner.name in ("llvm.inttoptr", "llvm.ptrtoint", *CASTS) \
                and len(owner.operands) == 1:
            value = owner.operands[0]
        elif isinstance(owner, Operation) and owner.name == MAPA:
            value = owner.operands[0]  # the same variable in another CTA: ClusterRanks tells which
        elif isinstance(owner, Operation) and owner.name in ("llvm.add", "arith.addi") and len(owner.operands) == 2:
            a, b = owner.operands
            if (c := constant_int(b)) is not None or (c := constant_int(a)) is not None:
                offset += c
                value = a if constant_int(b) is not None else b
                continue
            scaled = _ring_bytes(b, counter) or _ring_bytes(a, counter)
            if scaled is None or stage is not None:
                return None
            stage = scaled
            value = a if _ring_bytes(b, counter) else b
        else:
            break
    base = slot_key(value)
    if base is None:
        return None
    if stage is not None:
        return (base, ("ring", *stage)) if offset == 0 else None
    return (base, offset)


def _ring_bytes(value: SSAValue, counter: Counter) -> tuple[object, int] | None:
    """`stage * 8` (or `stage << 3`): the byte offset of mbarrier `stage` of an array."""
    owner = strip(value).owner
    if not isinstance(owner, Operation) or len(owner.operands) != 2:
        return None
    x, c = owner.operands
    k = constant_int(strip(c))  # through the sext of PTX's mul.wide
    if owner.name in ("llvm.mul", "arith.muli") and k == isa.MBARRIER_BYTES:
        return ring_stage(x, counter)
    if owner.name in ("llvm.shl", "arith.shli") and k is not None and 1 << k == isa.MBARRIER_BYTES:
        return ring_stage(x, counter)
    return None


def _element_bytes(t) -> int | None:  # type: ignore[no-untyped-def]
    from tmem_dialect.kernel_checks import type_size

    return type_size(t)


class MbarrierRules(ClusterArrivalRules, CarriedRingRules):
    """commit / arrive / wait on mbarriers as point-to-point handoffs between warps."""

    def _mbarrier_step(self, info: OpInfo, local: Local, mask: int) -> Local:
        key = self._mbarrier_of(info)
        if key is None:
            return local
        if info.kind is EffectKind.MBARRIER_WAIT:
            parity = self._wait_parity(info, key)
            if self._report and is_ring(key) and parity is not None:
                self._ring_waits[info] = (key, parity[-1], self._ring_waits.get(info, (key, 0, 0))[2] | mask)  # type: ignore[index]
            if parity is None or (key, parity) in local.acquired:
                return local
            return local.but(acquired=local.acquired | {(key, parity)})
        # A release: this warp's n-th (from 0) arrival on the mbarrier completes its phase n.
        if self._report:
            self._releasers[key] = self._releasers.get(key, 0) | mask
            self._release_ops.setdefault(key, set()).add(info)
        if is_ring(key):
            # The release in iteration t is the (t / N)-th to stage t % N: it completes phase t / N.
            if self._report:
                self._release(info, (key, key[1] + (0,)), local)
            return local
        counts = dict(local.arrivals)
        count = counts.get(key, 0)
        if self._report and count is not None:
            self._release(info, (key, count % 2), local)
        counts[key] = None if count is None else count + 1
        return local.but(arrivals=frozenset(counts.items()))

    def _wait_parity(self, info: OpInfo, key: object) -> object | None:
        """The phase parity a wait observes: a CTA-uniform constant (not a token), or for a
        ring's stage the ring parity `(t / N) & 1` (^ 1) of the same loop and N."""
        phase = info.effect.phase if info.effect is not None else None
        if phase is None or not isinstance(phase.type, IntegerType) or phase.type.width.data != 32:
            return None
        if is_ring(key):
            found = ring_parity(phase, self._ring_counter)
            if found is None or found[:2] != key[1][1:]:
                return None  # a ring stage waited with a parity of another form: unproven
            return ("ring", *found)
        form = self.values.form(phase)
        if form is None or form.constant is None:
            return None
        return form.constant & 1

    def _mbarrier_of(self, info: OpInfo) -> object | None:
        found = self._mbarrier_keys.get(info.op, False)
        if found is False:
            pointer = info.effect.mbarrier if info.effect is not None else None
            found = mbarrier_key(pointer, self._ring_counter) if pointer is not None else None
            found = self._one_stage_ring(info, found)  # a single mbarrier with a carried phase
            self._mbarrier_keys[info.op] = found
        return found

    def _release(self, info: OpInfo, key: object, local: Local) -> None:
        covered = _COMMITTED if info.kind is EffectKind.COMMIT else _ARRIVED
        in_flight = {a.info for a in local.outstanding}
        loops = set(self.cfg.loops_of(info.op))
        for access in local.issued:
            if access.kind not in covered:
                continue
            early = info.op if access in in_flight and wait_retiring(access.kind) is not None else None
            repeats = bool(loops & set(self.cfg.loops_of(access.op)))
            per_barrier = self._releases.setdefault(access, {})
            old = per_barrier.get(key)
            if old is not None:
                early = old.early or early
                repeats = old.repeats or repeats
                info_op = old.at
            else:
                info_op = info.op
            per_barrier[key] = Release(info_op, early, repeats)

    def _phases_known(self, key: object) -> bool:
        """Each phase of the mbarrier completes with one release of every releasing warp: one
        warp releases to it, or its mbarrier.init count is the threads of all releasing warps.
        (Two warps committing to a count-1 mbarrier complete its phases in either order.)"""
        remote = self._cluster_phases_known(key)
        if remote is not None:
            return remote
        warps = self._releasers.get(key, 0)
        if warps & (warps - 1) == 0:
            return True
        inits = [i for i in self.info_of.values() if i.kind is EffectKind.MBARRIER_INIT]
        counts = {self._init_count(i) for i in self._same_mbarrier(key, inits)}
        return counts == {isa.WARP_SIZE * bin(warps).count("1")}

    def _same_mbarrier(self, key: object, infos: Iterable[OpInfo]) -> list[OpInfo]:
        """The ops of `infos` on mbarrier `key`; for a ring, on any stage of its array."""
        if is_ring(key):
            return [i for i in infos if isinstance(k := self._mbarrier_of(i), tuple) and key[0] in (k[0], k)]  # type: ignore[index]
        return [i for i in infos if self._mbarrier_of(i) == key]

    def _init_count(self, info: OpInfo) -> int | None:
        count = info.effect.count if info.effect is not None else None
        form = self.values.form(count) if count is not None else None
        return form.constant if form is not None else None

    def _note_acquired(self, info: OpInfo, local: Local) -> None:
        """The mbarriers observed before `info` on every path and warp that reaches it."""
        old = self._acquired_at.get(info)
        self._acquired_at[info] = local.acquired if old is None else old & local.acquired

    def _released_to(self, earlier: OpInfo, later: OpInfo) -> tuple[object, Release] | None:
        releases = self._releases.get(earlier)
        if not releases:
            return None
        acquired = self._acquired_at.get(later, frozenset())
        found = [(key, r) for key, r in releases.items()
                 if key in acquired and not is_ring(key[0]) and self._phases_known(key[0])]
        if not found:
            return None
        return min(found, key=lambda kr: kr[1].early is not None)  # a clean release first

    def _mbarrier_order(self, a: OpInfo, b: OpInfo, wa: int, wb: int) -> Order | None:
        """Whether mbarrier phases order `a` (warp wa) and `b` (warp wb) one way or the other,
        and, when that release repeats in a loop, the other way as well (the next instance of
        the released access comes after the observer's access)."""
        if self._chain_order(a, b, wa, wb):
            return Order.ORDERED
        ring = self._ring_order(a, b, wa, wb)
        if ring is not None:
            return ring
        for first_, second, w1, w2 in ((a, b, wa, wb), (b, a, wb, wa)):
            found = self._released_to(first_, second)
            if found is None:
                continue
            if found[1].early is not None:
                self._report_early(first_, second, w1, w2, found[1])
                return Order.REPORTED
            if not found[1].repeats:
                return Order.ORDERED
            back = self._released_to(second, first_)
            if back is None:
                return None
            if back[1].early is not None:
                self._report_early(second, first_, w2, w1, back[1])
                return Order.REPORTED
            return Order.ORDERED
        return None

    def _chain_order(self, a: OpInfo, b: OpInfo, wa: int, wb: int) -> bool:
        """An mma/cp/shift of one elected thread whose every instance before the other op a
        wait of every warp has seen complete (chains.py: a software-pipelined commit chain)."""
        for first_, second, w in ((a, b, wa), (b, a, wb)):
            if first_.kind in _COMMITTED and self._chains.orders(first_.op, w, second.op):
                return True
        return False

    @property
    def _chains(self) -> Chains:
        found = self.__dict__.get("_chains_memo")
        if found is None:
            found = self.__dict__["_chains_memo"] = Chains(self.function, self.cfg, self.values, self.effects)
        return found

    # ---- rings ------------------------------------------------------------------------------

    def _ring_releases(self, access: OpInfo) -> list[tuple[object, Release]]:
        return [(key, r) for key, r in self._releases.get(access, {}).items()
                if is_ring(key[0]) and self._phases_known(key[0])]

    def _ring_order(self, a: OpInfo, b: OpInfo, wa: int, wb: int) -> Order | None:
        """A producer access p (iteration t) and a consumer access c (iteration t') of one ring:
        p's release of `full[t % N]` observed by c's wait with the same parity orders t <= t';
        c's release of `empty[t' % N]` observed by p's wait with the flipped parity orders
        t' <= t - N; in between, t' and t name different stages, whose cells must be apart.
        A consumer access after the consumer loop (a dealloc) is ordered after every p when
        the loop observed `full` every iteration."""
        for p, c, wp, wc in ((a, b, wa, wb), (b, a, wb, wa)):
            # A ring parity names iteration t only inside a loop of the ring's counter.
            forward = [(key, r) for key, r in self._ring_releases(p)
                       if key[1][-1] == 0 and key in self._acquired_at.get(c, frozenset())
                       and self._in_ring_loop(p, key) and self._in_ring_loop(c, key)]
            if not forward:
                if any(self._after_every_iteration(c, key) and not self._in_ring_loop(c, key)
                       for key, _ in self._ring_releases(p)):
                    return Order.ORDERED
                continue
            key, release = forward[0]
            if release.early is not None:
                self._report_early(p, c, wp, wc, release)
                return Order.REPORTED
            acquired_p = self._acquired_at.get(p, frozenset())
            backward = [(k, r) for k, r in self._ring_releases(c)
                        if k[1][:-1] == key[1][:-1] and (k[0], k[1][:-1] + (1,)) in acquired_p]
            if not backward:
                return self._ring_race(p, c, wp, wc, key[0][1], refill=True)
            if backward[0][1].early is not None:
                self._report_early(c, p, wc, wp, backward[0][1])
                return Order.REPORTED
            return Order.ORDERED if self._stages_apart(p, c, key[0][1]) else None
        # No release of one side is observed by the other in the same iteration: when the two
        # are a ring's fill and use (the filler writes), iteration t of both meet unordered.
        for p, c, wp, wc in ((a, b, wa, wb), (b, a, wb, wa)):
            if p.kind is not None and p.kind.writes_tmem and not (c.kind and c.kind.writes_tmem):
                for key, _ in self._ring_releases(p):
                    if self._in_ring_loop(p, key) and self._in_ring_loop(c, key):
                        return self._ring_race(p, c, wp, wc, key[0][1], refill=False)
        return None

    def _ring_race(self, p: OpInfo, c: OpInfo, wp: int, wc: int, ring: tuple, refill: bool) -> Order | None:
        """A ring's filler p and user c whose stages are apart but whose same-stage instances
        nothing orders: without `refill`, c's iteration t against p's iteration t (c does not
        wait for the fill); with it, p's iteration t + N against c's iteration t (p refills a
        stage c may still use), which happens when the loop runs more than N times."""
        if not self._stages_apart(p, c, ring):
            return None
        n = ring[2]
        trips = self._ring_trips(ring[1])
        if refill and (trips is None or trips <= n):
            return None
        if refill:
            diag = error(p.op, text.ring_refill_race(name_of(p), wp, n, name_of(c), wc))
            diag.attach_note(text.the_op_of_warp(name_of(c), wc), c.op)
            kind = FindingKind.HANDOFF
        else:
            diag = error(c.op, text.ring_use_race(name_of(c), wc, n, name_of(p), wp))
            diag.attach_note(text.the_op_of_warp(name_of(p), wp), p.op)
            kind = FindingKind.ASYNC_PENDING if p.kind in _COMMITTED else FindingKind.HANDOFF
        self.findings.add(kind, ("ring-race", p.op, c.op, refill), diag)
        return Order.REPORTED

    def _ring_trips(self, key: object) -> int | None:
        """Iterations of a ring counter with constant bounds."""
        if isinstance(key, tuple) and len(key) == 3:
            if key[0] == "blocks" and isinstance(key[1], int) and isinstance(key[2], int):
                return key[2] - key[1] + 1
            if isinstance(key[0], int) and isinstance(key[2], int):
                return key[2] - key[0]
        return None

    def _check_rings(self) -> None:
        """The parities of a two-barrier ring: the side that fills the stages (it writes TMEM or
        commits) waits on the other's barrier with the flipped parity, which a fresh mbarrier
        passes at once; the side that uses them waits with the plain one. Both plain: each
        side waits for the other's release of the same iteration (deadlock); both flipped: the
        user passes before the first fill."""
        stages: dict[object, dict[int, Operation]] = {}
        for info in self.info_of.values():
            if info.kind in MBARRIER_SYNC and is_ring(key := self._mbarrier_of(info)):
                stages.setdefault(key[0], {}).setdefault(key[1][2], info.op)  # type: ignore[index]
        for base, ops in stages.items():
            if len(ops) > 1:
                (n1, op1), (n2, op2) = sorted(ops.items())[:2]
                self.findings.add(FindingKind.MBARRIER_PHASE, ("ring-stages", op2), error(
                    op2, text.ring_stages_disagree(base, n2, n1)).attach_note(text.stages_here(n1), op1))
        by_warps: dict[tuple[object, int], list[tuple[OpInfo, object, int]]] = {}
        for info, (key, flip, mask) in self._ring_waits.items():
            by_warps.setdefault((key[1], mask), []).append((info, key, flip))
        for (ring, mask), waits in by_warps.items():
            for info, key, flip in waits:
                releasers = self._releasers.get(key, 0)
                partner = [(i, k, f) for (r, m), ws in by_warps.items() if r == ring and m == releasers
                           for i, k, f in ws if self._releasers.get(k, 0) == mask and k != key]
                if not partner or releasers & mask:
                    continue
                other, other_key, other_flip = partner[0]
                tma = self._tma_fills(key, other_key)  # smem_rings.py: a TMA completing on one marks its side
                mine_fills = self._fills(mask, ring) if tma is None else tma
                theirs_fill = self._fills(releasers, ring) if tma is None else not tma
                if flip == other_flip == 0 and mine_fills and not theirs_fill:
                    self.findings.add(FindingKind.DEADLOCK, ("ring-parity", info.op), error(
                        info.op, text.ring_parity_deadlock(ring[2])).attach_note(text.other_sides_wait(), other.op))
                elif flip == other_flip == 1 and not mine_fills and theirs_fill:
                    self.findings.add(FindingKind.MBARRIER_PHASE, ("ring-parity", info.op), error(
                        info.op, text.ring_parity_flipped(ring[2])).attach_note(text.filling_sides_wait(), other.op))
        self._check_carried()

    def _fills(self, warps: int, ring: tuple[object, ...]) -> bool:
        """Warps `warps` write TMEM (mma, cp, st) or commit inside a loop of the ring's counter."""
        for info, m in self._op_masks.items():
            if not m & warps or info.kind is None:
                continue
            if not (info.kind.writes_tmem or info.kind is EffectKind.COMMIT):
                continue
            if any(self._loop_key(lp) == ring[1] for lp in self.cfg.loops_of(info.op)):
                return True
        return False

    def _ring_counter(self, value: SSAValue) -> object | None:
        """The loop counter `value` is (an induction variable), or the Carried sequence of a
        value a loop carries (carried.py)."""
        found = self._induction_counter(value)
        return found if found is not None else self._carried_rings.carried(strip(value))

    @property
    def _carried_rings(self) -> CarriedRings:
        found = self.__dict__.get("_carried_memo")
        if found is None:
            found = self.__dict__["_carried_memo"] = CarriedRings(self.cfg, self._induction_counter, self._loop_key)
        return found

    def _induction_counter(self, value: SSAValue) -> object | None:
        """The loop counter `value` is: an scf.for's induction variable, or (NVVM level) a loop
        of blocks' induction variable with step 1 and constant bounds."""
        found = scf_counter(value)
        if found is not None:
            return found
        form = self.values.form(strip(value))
        if form is None or form.const != 0 or len(form.terms) != 1 or form.terms[0][1] != 1:
            return None
        sym = form.terms[0][0]
        loop = sym.induction_of
        if loop is None or loop.op is not None or sym.step != 1 or sym.lo is None or sym.hi is None:
            return None
        return ("blocks", sym.lo, sym.hi)

    def _loop_key(self, loop: Loop) -> object | None:
        """The counter of a loop (an scf.for's bounds, or its block induction variable's)."""
        if loop in self._loop_keys:
            return self._loop_keys[loop]
        found = loop_key(loop.op)
        if found is None and loop.op is None and loop.header.ops:
            block = loop.header.ops[0].parent_block()
            for arg in block.args if block is not None else ():
                if (key := self._induction_counter(arg)) is not None:
                    found = key
                    break
        if found is None and self._has_mbarrier_sync(loop):
            found = self._carried_rings.loop_key(loop)  # its iterations: for the values it carries
        self._loop_keys[loop] = found
        return found

    def _in_ring_loop(self, info: OpInfo, key: object) -> bool:
        ring = key[0][1]  # type: ignore[index]
        return any(self._loop_key(lp) == ring[1] for lp in self.cfg.loops_of(info.op))

    def _after_every_iteration(self, info: OpInfo, key: object) -> bool:
        """`info` follows a loop of the ring's counter that observed `key` in every iteration."""
        markers = self._acquired_at.get(info, frozenset())
        ring = key[0][1]  # type: ignore[index]
        return any(
            isinstance(m, tuple) and m[0] == "after" and m[2] == ring[1]
            and key in self._every_iteration.get(m[1], frozenset())
            for m in markers
        )

    def _stages_apart(self, p: OpInfo, c: OpInfo, ring: tuple[object, ...]) -> bool:
        """The cells of stage s and stage s' != s of the two accesses never meet: both add
        W * (t % N) to one anchor, and everything else spans fewer than W columns (a ring of
        one stage has no other stage)."""
        if ring[2] == 1:
            return True
        spans = []
        for info in (p, c):
            if info.rest is None or info.rects is None or info.anchor != p.anchor:
                return False
            stage = [(s, k) for s, k in info.rest.terms if s.value is not None
                     and ring_stage(s.value, self._ring_counter) == (ring[1], ring[2])]
            if len(stage) != 1:
                return False
            sym, stride = stage[0]
            others = Form(info.rest.const, tuple(tk for tk in info.rest.terms if tk[0] is not sym))
            boxes = warp_boxes(others, info.rects, self.space)
            if boxes is None:
                return False
            cols = [(b.col_lo, b.col_hi) for warp in boxes for b in warp]
            if not cols:
                return False
            spans.append((stride, min(lo for lo, _ in cols), max(hi for _, hi in cols)))
        strides = {s for s, _, _ in spans}
        if len(strides) != 1:
            return False
        stride = strides.pop()
        width = max(hi for _, _, hi in spans) - min(lo for _, lo, _ in spans) + 1
        return 0 < width <= stride < (1 << isa.LANE_SHIFT)

    def _report_early(self, a: OpInfo, b: OpInfo, wa: int, wb: int, release: Release) -> None:
        assert a.kind is not None and release.early is not None
        wait = wait_retiring(a.kind)
        assert wait is not None
        if self.options.insert:
            # tmem-insert-waits: the wait goes right before the arrive (the analysis runs again
            # with it in place, and the release is then a clean one).
            actions = self.fixes_before.setdefault(release.early, {})
            if Action.wait(wait) not in actions:
                self._handoff_fixes = True
            actions.setdefault(Action.wait(wait), set()).add(HANDOFF)
        diag = error(release.early, text.early_release(name_of(a), wa, wait.value, name_of(b), wb))
        diag.attach_note(text.the_op_of_warp(name_of(a), wa), a.op)
        diag.attach_note(text.the_op_of_warp(name_of(b), wb), b.op)
        self.findings.add(FindingKind.HANDOFF, ("early-release", release.early, a.op), diag)
