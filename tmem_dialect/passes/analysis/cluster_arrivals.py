"""mbarrier arrivals across a cluster: remote arrives through mapa, commit multicast, and a CTA whose mbarrier nothing arrives on.

PTX ISA "mbarrier.arrive" (a `.shared::cluster` address arrives on the mbarrier of the CTA that
address names, the result of `mapa`) and "tcgen05.commit" (`.multicast::cluster`: the mbarrier at
the same offset in each CTA of the 16-bit mask). One kernel body runs in every CTA of the
cluster (cluster_ranks.py), so an arrive through `mapa a, 0` executed by every CTA is
cluster-size arrivals per phase on CTA 0's mbarrier, and none on the others': the peer's epilogue
releasing the leader's accumulator stage (examples/warp_specialized_gemm_pair.mlir, 256 arrivals
of two CTAs' epilogue warpgroups). Arrivals are counted per thread as the one-CTA rule counts
them (mbarriers.py `_phases_known`: 32 per releasing warp).
"""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.conventions import cluster_dim
from tmem_dialect.diagnostics import error
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import messages_mbarriers as text
from tmem_dialect.passes.analysis.cluster_ranks import ClusterRanks, mapa_rank, value_at_rank
from tmem_dialect.passes.analysis.ops import OpInfo, name_of
from tmem_dialect.passes.analysis.rings import is_ring

_RELEASES = frozenset({EffectKind.COMMIT, EffectKind.MBARRIER_ARRIVE})
UNMODELLED = "ptx.unmodelled"  # the PTX front end's stand-in for an instruction it cannot model


def _may_arrive(asm: Operation) -> bool:
    """Inline asm that lift-inline-asm left as it is and that may arrive on an mbarrier."""
    text = str(asm.attributes.get("asm_string", asm.properties.get("asm_string", "")))
    return "mbarrier" in text or "tcgen05.commit" in text or "cp.async" in text


class ClusterArrivalRules:
    """Which CTA's mbarrier each release arrives on, and the phases that follow."""

    def _cluster(self) -> ClusterRanks | None:
        """The CTA ranks of the kernel's declared cluster; None without one."""
        if "_cluster_ranks" not in self.__dict__:
            dims = cluster_dim(self.cfg.func)  # type: ignore[attr-defined]
            size = dims[0] * dims[1] * dims[2] if dims is not None else 0
            self.__dict__["_cluster_ranks"] = (
                ClusterRanks(self.cfg, size, self._reaches) if size else None  # type: ignore[attr-defined]
            )
        return self.__dict__["_cluster_ranks"]

    def _release_targets(self, info: OpInfo, ranks: ClusterRanks) -> dict[int, frozenset[int]] | None:
        """For each CTA rank running the release, the ranks whose mbarrier it arrives on; None
        when the rank does not decide them."""
        effect = info.effect
        if effect is None or effect.mbarrier is None:
            return None
        found: dict[int, frozenset[int]] = {}
        remote = mapa_rank(effect.mbarrier)
        for rank in ranks.running(info.op):
            if effect.multicast is not None:
                mask = value_at_rank(effect.multicast, rank)
                if mask is None:
                    return None
                targets = frozenset(r for r in range(ranks.size) if mask >> r & 1)
            elif remote is not None:
                target = value_at_rank(remote, rank)
                if target is None or not 0 <= target < ranks.size:
                    return None
                targets = frozenset({target})
            else:
                targets = frozenset({rank})
            found[rank] = targets
        return found

    def _cluster_arrivals(self, key: object, ranks: ClusterRanks, releases: list[OpInfo]) -> list[int] | None:
        """The threads arriving on each CTA's mbarrier `key` per phase, over `releases`."""
        arrivals = [0] * ranks.size
        for info in releases:
            targets = self._release_targets(info, ranks)
            if targets is None:
                return None
            threads = isa.WARP_SIZE * self._op_masks.get(info, 0).bit_count()  # type: ignore[attr-defined]
            for per_rank in targets.values():
                for target in per_rank:
                    arrivals[target] += threads
        return arrivals

    def _ops_on(self, key: object, kinds: frozenset[EffectKind]) -> list[OpInfo]:
        infos = [i for i in self.info_of.values() if i.kind in kinds]  # type: ignore[attr-defined]
        return self._same_mbarrier(key, infos)  # type: ignore[attr-defined]

    def _cluster_phases_known(self, key: object) -> bool | None:
        """With releases through mapa (arrives on another CTA's mbarrier): each phase completes
        when, in every CTA that waits on the mbarrier, the threads arriving there from the whole
        cluster are its init count. None when no release goes through mapa."""
        releases = list(self._release_ops.get(key, ()))  # type: ignore[attr-defined]
        if not any(i.effect is not None and i.effect.mbarrier is not None and mapa_rank(i.effect.mbarrier) is not None
                   for i in releases):
            return None
        ranks = self._cluster()
        arrivals = self._cluster_arrivals(key, ranks, releases) if ranks is not None else None
        if ranks is None or arrivals is None:
            return False  # mapa in a kernel without a cluster, or a target the rank does not decide
        counts = {self._init_count(i) for i in self._ops_on(key, frozenset({EffectKind.MBARRIER_INIT}))}  # type: ignore[attr-defined]
        waiting = {r for i in self._ops_on(key, frozenset({EffectKind.MBARRIER_WAIT})) for r in ranks.running(i.op)}
        return len(counts) == 1 and all(arrivals[r] in counts for r in waiting)

    def _check_cluster_arrivals(self) -> None:
        """A wait, in some CTA, on an mbarrier that no release of any CTA arrives on: its phase
        never completes (a commit without the multicast that reaches the peer)."""
        ranks = self._cluster() or ClusterRanks(self.cfg, 1, self._reaches)  # type: ignore[attr-defined]
        if ranks.size > 1:
            self._check_init_fences(ranks)  # type: ignore[attr-defined]
        if self._some_release_unknown():
            return  # a release whose mbarrier is not known may be the one a wait needs
        waits: dict[object, list[OpInfo]] = {}
        for info in self.info_of.values():  # type: ignore[attr-defined]
            if info.kind is EffectKind.MBARRIER_WAIT and (key := self._mbarrier_of(info)) is not None:  # type: ignore[attr-defined]
                waits.setdefault(key, []).append(info)
        for key, infos in waits.items():
            releases = self._ops_on(key, _RELEASES)
            if not is_ring(key) and self._ring_releases_on(key):
                continue  # a release to a run-time stage of the same array may be this one
            arrivals = self._cluster_arrivals(key, ranks, releases)
            if arrivals is None:
                continue  # a target the rank does not decide
            counts = {self._init_count(i) for i in self._ops_on(key, frozenset({EffectKind.MBARRIER_INIT}))}  # type: ignore[attr-defined]
            needed = next(iter(counts)) if len(counts) == 1 and None not in counts else None
            for info in infos:
                short = [r for r in ranks.running(info.op) if arrivals[r] == 0
                         or (needed is not None and arrivals[r] < needed and self._once_per_phase(info, releases))]
                if short and self._waits_for_a_completion(info, key):
                    self._report_short(info, sorted(short), arrivals, needed, releases, ranks)

    def _some_release_unknown(self) -> bool:
        """A release (arrive, commit) whose mbarrier the analysis cannot name, or an instruction
        the PTX front end could not model (it may be one)."""
        for info in self.info_of.values():  # type: ignore[attr-defined]
            if info.kind in _RELEASES and self._mbarrier_of(info) is None:  # type: ignore[attr-defined]
                return True
        return any(op.name == UNMODELLED or (op.name == "llvm.inline_asm" and _may_arrive(op))
                   for node in self.cfg.nodes for op in node.ops)  # type: ignore[attr-defined]

    def _ring_releases_on(self, key: object) -> bool:
        """Some release goes to a run-time stage `t % N` of the array `key` is an element of."""
        base = key[0] if isinstance(key, tuple) else None
        return any(is_ring(k := self._mbarrier_of(i)) and k[0] == base  # type: ignore[attr-defined, index]
                   for i in self.info_of.values() if i.kind in _RELEASES)  # type: ignore[attr-defined]

    def _once_per_phase(self, wait: OpInfo, releases: list[OpInfo]) -> bool:
        """Each release runs once per phase the wait observes: outside loops, or in the wait's
        innermost loop (a ring's release in iteration t completes stage t % N's phase), with no
        arrive count other than 1 (so the per-thread count is exact, or over: never under)."""
        loops = self.cfg.loops_of(wait.op)  # type: ignore[attr-defined]
        for info in releases:
            theirs = self.cfg.loops_of(info.op)  # type: ignore[attr-defined]
            if theirs and (not loops or theirs[-1] is not loops[-1]):
                return False
            count = info.effect.count if info.effect is not None else None
            if info.kind is EffectKind.MBARRIER_ARRIVE and count is not None and self._init_count(info) != 1:  # type: ignore[attr-defined]
                return False
        return True

    def _waits_for_a_completion(self, info: OpInfo, key: object) -> bool:
        """The wait needs some phase to complete: parity 0 (the first phase), or a ring's flipped
        parity in a loop that runs past its stages."""
        parity = self._wait_parity(info, key)  # type: ignore[attr-defined]
        if parity == 0:
            return True
        if isinstance(parity, tuple) and parity[0] == "ring":
            if parity[-1] == 0:
                return True
            trips = self._ring_trips(key[1][1])  # type: ignore[attr-defined, index]
            return trips is not None and trips > key[1][2]  # type: ignore[index]
        return False

    def _report_short(self, info: OpInfo, short: list[int], arrivals: list[int], needed: int | None,
                      releases: list[OpInfo], ranks: ClusterRanks) -> None:
        if ranks.size == 1:
            diag = error(info.op, text.starved(None if arrivals[0] == 0 else arrivals[0], needed))
        else:
            given = None if all(arrivals[r] == 0 for r in short) else [arrivals[r] for r in short]
            diag = error(info.op, text.cluster_starved(short, given, needed))
        for release in releases if ranks.size > 1 else ():
            targets = self._release_targets(release, ranks) or {}
            reached = sorted({t for per_rank in targets.values() for t in per_rank})
            own = targets and all(per_rank == {rank} for rank, per_rank in targets.items())
            diag.attach_note(text.release_arrives(name_of(release), None if own else reached), release.op)
        op: Operation = info.op
        self.findings.add(FindingKind.DEADLOCK, ("cluster-starved", op), diag)  # type: ignore[attr-defined]
