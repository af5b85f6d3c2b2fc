"""mbarrier inits made visible before use: by a barrier to the CTA's other warps, by fence.mbarrier_init to the cluster.

PTX ISA "mbarrier.init" and the memory consistency model: an init is a write to shared memory
like any other, so a warp other than the initializing one may use the mbarrier (wait, arrive,
commit to it, expect_tx, a TMA completing on it) only after a barrier ordered the init before
the use; and another CTA of the cluster (an arrive through mapa, a multicast commit or TMA) only
after `fence.mbarrier_init.release.cluster` and a cluster barrier (PTX ISA
"fence.mbarrier_init"). The interpreter checks the same on a run (interpreter/mbarrier.py,
`_usable`). Which inits a warp has seen travels with the TMEM slots the barriers publish
(`Local.slots`, tagged `INIT`): an error when no path makes the init visible.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect.diagnostics import error
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.dialects.nvvm_sync import ClusterArriveOp, ClusterArriveRelaxedOp
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import messages_mbarriers as text
from tmem_dialect.passes.analysis.cluster_ranks import ClusterRanks
from tmem_dialect.passes.analysis.ops import OpInfo, name_of
from tmem_dialect.passes.analysis.state import Local

INIT = "mbarrier-init"
"""The tag of an mbarrier's init in `Local.slots`: (INIT, its mbarrier key)."""
USES = frozenset({EffectKind.COMMIT, EffectKind.MBARRIER_ARRIVE, EffectKind.MBARRIER_WAIT,
                  EffectKind.MBARRIER_EXPECT_TX, EffectKind.TMA_LOAD})
_REMOTE_USES = frozenset({EffectKind.COMMIT, EffectKind.MBARRIER_ARRIVE, EffectKind.TMA_LOAD})
CLUSTER_ARRIVES = frozenset({ClusterArriveOp.name, ClusterArriveRelaxedOp.name})


class MbarrierInitRules:
    """Each use of an mbarrier after an init it can see."""

    def _mbarrier_init(self, info: OpInfo, local: Local) -> Local:
        key = self._mbarrier_of(info)  # type: ignore[attr-defined]
        if key is None or (INIT, key) in local.slots:
            return local
        return local.but(slots=local.slots | {(INIT, key)})

    def _check_init_visible(self, info: OpInfo, local: Local, mask: int) -> None:
        """A use of an mbarrier whose every init is another warp's, with no barrier after it
        on any path to the use."""
        key = self._mbarrier_of(info)  # type: ignore[attr-defined]
        if key is None:
            return
        inits = self._same_mbarrier(key, self._inits())  # type: ignore[attr-defined]
        if not inits or any((INIT, self._mbarrier_of(i)) in local.slots for i in inits):  # type: ignore[attr-defined]
            return
        init = inits[0]
        if not self._op_masks.get(init, 0) or self._op_masks.get(init, 0) & mask:  # type: ignore[attr-defined]
            return  # not run at all, or run by this warp (its own init is ordered before)
        self.findings.add(FindingKind.MBARRIER_UNINITIALIZED, ("init-unordered", info.op), error(  # type: ignore[attr-defined]
            info.op, text.init_not_visible(name_of(info))).attach_note(text.the_init(), init.op))

    def _inits(self) -> list[OpInfo]:
        found = self.__dict__.get("_init_memo")
        if found is None:
            found = self.__dict__["_init_memo"] = [
                i for i in self.info_of.values() if i.kind is EffectKind.MBARRIER_INIT]  # type: ignore[attr-defined]
        return found

    def _check_init_fences(self, ranks: ClusterRanks) -> None:
        """An mbarrier that another CTA reaches (an arrive through mapa, a commit's or a TMA's
        multicast) is initialized, then `fence.mbarrier_init.release.cluster`, then the cluster
        barrier: on a path from its init to a cluster arrive without the fence, the peer may
        use it uninitialized (PTX ISA "fence.mbarrier_init"; interpreter/mbarrier.py)."""
        inits = self._inits()
        unfenced: dict[Operation, OpInfo] = {}  # each unfenced init, with a remote use of its mbarrier
        for info in self.info_of.values():  # type: ignore[attr-defined]
            if info.kind not in _REMOTE_USES or (key := self._mbarrier_of(info)) is None:  # type: ignore[attr-defined]
                continue
            targets = self._release_targets(info, ranks)  # type: ignore[attr-defined]
            if not targets or all(per_rank == {rank} for rank, per_rank in targets.items()):
                continue  # every CTA reaches only its own mbarrier
            for init in self._same_mbarrier(key, inits):  # type: ignore[attr-defined]
                if init.op not in unfenced and not self._fenced_for_the_cluster(init.op):
                    unfenced[init.op] = info
        if not unfenced:
            return
        (first, use), *others = sorted(unfenced.items(), key=lambda kv: self.info_of[kv[0]].index)  # type: ignore[attr-defined]
        diag = error(first, text.init_unfenced()).attach_note(text.used_from_another_cta(name_of(use)), use.op)
        for op, _ in others:
            diag.attach_note(text.init_unfenced_too(), op)
        self.findings.add(FindingKind.MBARRIER_UNINITIALIZED, ("init-unfenced", first), diag)  # type: ignore[attr-defined]

    def _fenced_for_the_cluster(self, init: Operation) -> bool:
        """Every path from `init` to a cluster arrive passes a fence.mbarrier_init first."""
        cfg = self.cfg  # type: ignore[attr-defined]
        start = cfg.node_of.get(init)
        if start is None:
            return True
        work: list[tuple[object, int]] = [(start, start.ops.index(init) + 1)]
        seen: set[object] = set()
        while work:
            node, first = work.pop()
            for op in node.ops[first:]:  # type: ignore[attr-defined]
                effect = tmem_effect(op)
                if effect is not None and effect.kind is EffectKind.FENCE_MBARRIER_INIT:
                    break
                if op.name in CLUSTER_ARRIVES:
                    return False
            else:
                for edge in node.succs:  # type: ignore[attr-defined]
                    if edge.target not in seen:
                        seen.add(edge.target)
                        work.append((edge.target, 0))
        return True

