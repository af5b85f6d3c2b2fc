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

from dataclasses import dataclass
from enum import Enum

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.diagnostics import error
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import HANDOFF, EffectKind, wait_retiring
from tmem_dialect.passes.analysis.ops import Action, OpInfo, name_of
from tmem_dialect.passes.analysis.state import Local
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
    ORDERED = "ordered"
    EARLY = "released before its wait"


def mbarrier_key(pointer: SSAValue) -> object | None:
    """The mbarrier a pointer names: (shared global or value, constant byte offset); None when
    the offset is chosen at run time."""
    offset = 0
    while isinstance(gep := pointer.owner, llvm.GEPOp):
        indices = tuple(gep.rawConstantIndices.iter_values())
        size = _element_bytes(gep.elem_type)
        if gep.ssa_indices or len(indices) != 1 or size is None:
            return None  # a run-time index, or a field of an aggregate
        offset += indices[0] * size
        pointer = gep.ptr
    base = slot_key(pointer)
    return None if base is None else (base, offset)


def _element_bytes(t) -> int | None:  # type: ignore[no-untyped-def]
    from tmem_dialect.kernel_checks import type_size

    return type_size(t)


class MbarrierRules:
    """commit / arrive / wait on mbarriers as point-to-point handoffs between warps."""

    def _mbarrier_step(self, info: OpInfo, local: Local, mask: int) -> Local:
        key = self._mbarrier_of(info)
        if key is None:
            return local
        if info.kind is EffectKind.MBARRIER_WAIT:
            parity = self._wait_parity(info)
            if parity is None or (key, parity) in local.acquired:
                return local
            return local.but(acquired=local.acquired | {(key, parity)})
        # A release: this warp's n-th (from 0) arrival on the mbarrier completes its phase n.
        counts = dict(local.arrivals)
        count = counts.get(key, 0)
        if self._report:
            self._releasers[key] = self._releasers.get(key, 0) | mask
            if count is not None:
                self._release(info, (key, count % 2), local)
        counts[key] = None if count is None else count + 1
        return local.but(arrivals=frozenset(counts.items()))

    def _wait_parity(self, info: OpInfo) -> int | None:
        """The phase parity a wait observes, when it is a CTA-uniform constant (not a token)."""
        phase = info.effect.phase if info.effect is not None else None
        if phase is None or not isinstance(phase.type, IntegerType) or phase.type.width.data != 32:
            return None
        form = self.values.form(phase)
        if form is None or form.constant is None:
            return None
        return form.constant & 1

    def _mbarrier_of(self, info: OpInfo) -> object | None:
        found = self._mbarrier_keys.get(info.op, False)
        if found is False:
            pointer = info.effect.mbarrier if info.effect is not None else None
            found = mbarrier_key(pointer) if pointer is not None else None
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
        warps = self._releasers.get(key, 0)
        if warps & (warps - 1) == 0:
            return True
        counts = {self._init_count(i) for i in self.info_of.values()
                  if i.kind is EffectKind.MBARRIER_INIT and self._mbarrier_of(i) == key}
        return counts == {isa.WARP_SIZE * bin(warps).count("1")}

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
        found = [(key, r) for key, r in releases.items() if key in acquired and self._phases_known(key[0])]
        if not found:
            return None
        return min(found, key=lambda kr: kr[1].early is not None)  # a clean release first

    def _mbarrier_order(self, a: OpInfo, b: OpInfo, wa: int, wb: int) -> Order | None:
        """Whether mbarrier phases order `a` (warp wa) and `b` (warp wb) one way or the other,
        and, when that release repeats in a loop, the other way as well (the next instance of
        the released access comes after the observer's access)."""
        for first_, second, w1, w2 in ((a, b, wa, wb), (b, a, wb, wa)):
            found = self._released_to(first_, second)
            if found is None:
                continue
            if found[1].early is not None:
                self._report_early(first_, second, w1, w2, found[1])
                return Order.EARLY
            if not found[1].repeats:
                return Order.ORDERED
            back = self._released_to(second, first_)
            if back is None:
                return None
            if back[1].early is not None:
                self._report_early(second, first_, w2, w1, back[1])
                return Order.EARLY
            return Order.ORDERED
        return None

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
        diag = error(
            release.early,
            f"this arrive releases TMEM cells that {name_of(a)} of warp {wa} may still be "
            f"accessing: warp {wa} waits for it (tcgen05.{wait.value}) only after the arrive, "
            f"and {name_of(b)} of warp {wb}, which observes this mbarrier, touches the same "
            f"cells ({HANDOFF.cite()})",
        )
        diag.attach_note(f"the {name_of(a)} of warp {wa}", a.op)
        diag.attach_note(f"the {name_of(b)} of warp {wb}", b.op)
        self.findings.add(FindingKind.HANDOFF, ("early-release", release.early, a.op), diag)
