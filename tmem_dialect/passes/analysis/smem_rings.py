"""SMEM rings fed by TMA: a cp.async.bulk(.tensor) load that refills a stage an mma may still read.

In iteration t of a ring loop the producer's TMA load completes on `full[t % N]` (its mbarrier
operand, PTX ISA "cp.async.bulk.tensor": `.mbarrier::complete_tx::bytes`) and so fills SMEM
stage t % N; the consumer waits on `full[t % N]`, issues the mma that reads the stage, and
releases it with `tcgen05.commit` on `empty[t % N]`: the commit's mbarrier phase completes only
once the mma has read its operands (PTX ISA "tcgen05.commit", tcgen05 memory consistency
model), so before refilling the stage in iteration t + N the producer must observe it (the
interpreter reports the same overwrite as ASYNC_PENDING, interpreter/producers.py).

The ring forms and parities are the mbarrier rules' (rings.py, mbarriers.py): here a TMA only
marks which side of a ring fills it (for the parity check of `_check_rings`), and each ring
TMA is checked for a wait, before it in its iteration, on a barrier of the same ring that the
consumer's commit of the mma releases.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect.diagnostics import error, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import messages_mbarriers as text
from tmem_dialect.passes.analysis.ops import OpInfo, name_of
from tmem_dialect.passes.analysis.rings import is_ring


class SmemRingRules:
    """TMA fills of SMEM ring stages against the mma that reads them."""

    def _tma_loads(self) -> list[tuple[OpInfo, object]]:
        """Every TMA load with the mbarrier key it completes on (None: not recognized)."""
        found = self.__dict__.get("_tma_memo")
        if found is None:
            found = [(info, self._mbarrier_of(info)) for info in self.info_of.values()  # type: ignore[attr-defined]
                     if info.kind is EffectKind.TMA_LOAD and info.effect is not None
                     and info.effect.mbarrier is not None]
            self.__dict__["_tma_memo"] = found
        return found

    def _tma_fills(self, waited: object, released: object) -> bool | None:
        """For `_check_rings`: the side that waits on ring barrier `waited` and whose partner
        waits on `released` fills the ring (True) when a TMA completes on `released` (its
        `full`), uses it (False) when a TMA completes on `waited`; None when no TMA says."""
        full = {key[0] for _, key in self._tma_loads() if is_ring(key)}  # type: ignore[index]
        if isinstance(released, tuple) and released[0] in full:
            return True
        if isinstance(waited, tuple) and waited[0] in full:
            return False
        return None

    def _check_smem_rings(self) -> None:
        for info, key in self._tma_loads():
            loops = self.cfg.loops_of(info.op)  # type: ignore[attr-defined]
            if not loops:
                continue  # a single load: the mbarrier rules order what observes it
            if not is_ring(key):
                self._tma_unmatched(info, key)
                continue
            self._check_refill(info, key)

    def _tma_unmatched(self, info: OpInfo, key: object) -> None:
        pointer = info.effect.mbarrier  # type: ignore[union-attr]
        diag = warning(info.op, text.tma_not_a_ring(name_of(info), key, pointer.name_hint))
        self.findings.add(FindingKind.UNPROVEN, ("tma-ring-form", info.op), diag)  # type: ignore[attr-defined]

    def _consumer_mmas(self, full: object) -> list[OpInfo]:
        """The mmas in a loop of the ring's counter that observed `full` in their iteration (the
        plain parity): the ring's users of the stages its TMA fills."""
        ring = full[1]  # type: ignore[index]
        observed = (full, ring + (0,))
        return [i for i in self.info_of.values()  # type: ignore[attr-defined]
                if i.kind is EffectKind.MMA and observed in self._acquired_at.get(i, frozenset())  # type: ignore[attr-defined]
                and any(self._loop_key(lp) == ring[1] for lp in self.cfg.loops_of(i.op))]  # type: ignore[attr-defined]

    def _check_unwaited_fill(self, info: OpInfo, full: object) -> None:
        """No mma of the ring's loops observes `full` in its iteration: one that reads the stage
        may read it before the TMA has written it (a consumer that skips its full wait). A
        warning: which shared memory an mma reads is its descriptors', not decided here."""
        ring = full[1]  # type: ignore[index]
        readers = [i for i in self.info_of.values()  # type: ignore[attr-defined]
                   if i.kind is EffectKind.MMA and any(self._loop_key(lp) == ring[1] for lp in self.cfg.loops_of(i.op))]  # type: ignore[attr-defined]
        if not readers:
            return
        mma = readers[0]
        diag = warning(mma.op, text.fill_unwaited(name_of(mma), full, ring[2], name_of(info)))
        diag.attach_note(text.filling_the_stage(name_of(info)), info.op)
        self.findings.add(FindingKind.ASYNC_PENDING, ("tma-unwaited", mma.op), diag)  # type: ignore[attr-defined]

    def _check_refill(self, info: OpInfo, full: object) -> None:
        ring = full[1]  # type: ignore[index]
        mmas = self._consumer_mmas(full)
        if not mmas:
            self._check_unwaited_fill(info, full)
            return

        def siblings(k: object) -> bool:  # another barrier array of the same ring (an `empty`)
            return is_ring(k) and k[1] == ring and k != full  # type: ignore[index]

        waited = {k for k, _ in self._acquired_at.get(info, frozenset()) if siblings(k)}  # type: ignore[attr-defined]
        commits: dict[object, tuple[OpInfo, Operation]] = {}
        for mma in mmas:
            for (k, _), release in self._releases.get(mma, {}).items():  # type: ignore[attr-defined]
                if siblings(k) and self.info_of[release.at].kind is EffectKind.COMMIT:  # type: ignore[attr-defined]
                    commits.setdefault(k, (mma, release.at))
        if waited & commits.keys():
            return  # its parity is `_check_rings`' (the filling side waits with the flipped one)
        n = ring[2]
        mma = mmas[0]
        if waited:
            # The producer waits on a barrier of the ring that no commit of the mma releases
            # (the consumer arrives on it right after issuing the mma).
            empty = sorted(waited, key=str)[0]
            releases = [i for i in self.info_of.values()  # type: ignore[attr-defined]
                        if i.kind is EffectKind.MBARRIER_ARRIVE and self._mbarrier_of(i) == empty]  # type: ignore[attr-defined]
            diag = error(info.op, text.refill_untracked(name_of(info), n, empty, name_of(mma)))
            diag.attach_note(text.reading_the_stage(name_of(mma)), mma.op)
            for release in releases[:1]:
                diag.attach_note(text.release_not_tracking(empty), release.op)
            self.findings.add(FindingKind.ASYNC_PENDING, ("tma-refill", info.op), diag)  # type: ignore[attr-defined]
            return
        trips = self._ring_trips(ring[1])  # type: ignore[attr-defined]
        if trips is not None and trips <= n:
            return  # every iteration fills a fresh stage
        # The empty barrier: a commit's barrier that only the producer's warps (or none) wait on
        # (the consumer's other commits, e.g. to an accumulator ring's full, have other waiters).
        producer = self._op_masks.get(info, 0)  # type: ignore[attr-defined]
        others = {k for k, _, m in self._ring_waits.values() if m & ~producer}  # type: ignore[attr-defined]
        commits = {k: v for k, v in commits.items() if k not in others} or commits
        the_empty = next(iter(commits)) if len(commits) == 1 else None
        if trips is None:
            diag = warning(info.op, text.refill_unwaited_unproven(name_of(info), n, the_empty, name_of(mma)))
            kind = FindingKind.UNPROVEN
        else:
            diag = error(info.op, text.refill_unwaited(name_of(info), n, the_empty, name_of(mma), trips))
            kind = FindingKind.ASYNC_PENDING
        diag.attach_note(text.reading_the_stage(name_of(mma)), mma.op)
        for empty, (_, commit) in sorted(commits.items(), key=lambda kv: str(kv[0]))[:1]:
            diag.attach_note(text.commit_releasing(empty), commit)
        self.findings.add(kind, ("tma-refill", info.op), diag)  # type: ignore[attr-defined]
