"""The allocation lifecycle: nCols, alloc, relinquish, dealloc and leaks at kernel exit."""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.diagnostics import error, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import messages_allocations as text
from tmem_dialect.passes.analysis.ops import (
    OpInfo,
    ncols_or_max,
    same_ncols,
    smaller_alloc,
)
from tmem_dialect.passes.analysis.state import Local, WarpStates
from tmem_dialect.passes.threads import Uniformity


class LifecycleRules:
    """alloc, dealloc, relinquish and leaks."""

    def _check_ncols(self, info: OpInfo) -> None:
        """nCols is a power of 2 in [32, 512], the same in every thread of the warp (ISA)."""
        op, form = info.op, info.ncols_form
        if info.ncols is not None:
            if err := isa.ncols_error(info.ncols):
                self.findings.add(FindingKind.BAD_NCOLS, ("ncols", op), error(op, err))
        elif form is not None and form.uniformity(self.space) is Uniformity.THREAD:
            sure = form.is_concrete
            self.findings.add(
                FindingKind.BAD_NCOLS, ("ncols", op),
                (error if sure else warning)(op, text.ncols_divergent(op.name, sure)),
            )
        elif info.kind is EffectKind.ALLOC:
            self.findings.add(
                FindingKind.BAD_NCOLS, ("ncols", op),
                warning(op, text.ncols_not_constant()),
            )

    def _alloc(self, info: OpInfo, local: Local, mask: int) -> Local:
        if self._report:
            self._check_ncols(info)
            self._check_budget(info, local)
            if local.relinquished is not None:
                self.findings.add(
                    FindingKind.ALLOC_AFTER_RELINQUISH, ("alloc-after-relinquish", info.op),
                    error(info.op, text.alloc_after_relinquish()).attach_note(
                        text.relinquished_here(), local.relinquished.op
                    ),
                )
            earlier = local.min_alloc
            if earlier is not None and earlier.ncols is not None and info.ncols is not None:
                if earlier.ncols < info.ncols:
                    self.findings.add(
                        FindingKind.ALLOC_SIZE_INCREASE, ("alloc-grows", info.op),
                        error(info.op, text.alloc_grows(info.ncols, earlier.ncols)).attach_note(
                            text.earlier_allocation_of(earlier.ncols), earlier.op
                        ),
                    )
            elif (
                earlier is not None
                and not same_ncols(earlier, info)
                and info.ncols != isa.NCOLS_MIN
                and earlier.ncols != isa.NCOLS_MAX
            ):
                self.findings.add(
                    FindingKind.ALLOC_SIZE_INCREASE, ("alloc-grows", info.op),
                    warning(info.op, text.alloc_grows_unproven()).attach_note(text.earlier_allocation(), earlier.op),
                )
        smallest = smaller_alloc(local.min_alloc, info)
        slots = local.slots | {info.slot} if info.slot is not None else local.slots
        return local.but(own_live=local.own_live | {info}, min_alloc=smallest, slots=slots)

    def _dealloc(self, info: OpInfo, local: Local, mask: int) -> Local:
        live = local.own_live | local.known_live
        if info.slot is None:
            if self._report:
                self.findings.add(
                    FindingKind.UNPROVEN, ("dealloc-unknown", info.op),
                    warning(info.op, text.dealloc_unknown()),
                )
            matching = [a for a in live if ncols_or_max(a) == ncols_or_max(info)][:1]
        else:
            matching = sorted((a for a in live if a.slot == info.slot), key=lambda a: a.index)
        if self._report:
            self._check_ncols(info)
            self._check_dealloc(info, local, matching)
        if not matching:
            return local
        freed = matching[0]
        return local.but(
            own_live=local.own_live - {freed},
            known_live=local.known_live - {freed},
            freed=local.freed | {freed},
        )

    def _check_dealloc(self, info: OpInfo, local: Local, matching: list[OpInfo]) -> None:
        op = info.op
        allocs = [i for i in self.info_of.values() if i.kind is EffectKind.ALLOC and i.slot == info.slot]
        if not matching:
            if info.slot is None:
                return
            diag = error(op, text.dealloc_unallocated())
            for a in allocs[:1]:
                diag.attach_note(text.allocation_it_would_free(), a.op)
            self.findings.add(FindingKind.BAD_DEALLOC, ("dealloc-unallocated", op), diag)
            return
        alloc = matching[0]
        assert info.effect is not None and alloc.effect is not None
        if info.ncols is not None and alloc.ncols is not None:
            if info.ncols != alloc.ncols:
                self.findings.add(
                    FindingKind.WRONG_SIZE_DEALLOC, ("dealloc-size", op),
                    error(op, text.dealloc_size(info.ncols, alloc.ncols)).attach_note(
                        text.allocated_here(alloc.ncols), alloc.op
                    ),
                )
        elif not same_ncols(info, alloc):
            self.findings.add(
                FindingKind.WRONG_SIZE_DEALLOC, ("dealloc-size", op),
                warning(op, text.dealloc_size_unproven()).attach_note(text.the_allocation(), alloc.op),
            )
        rest = info.rest
        if rest is not None and rest.constant is not None and rest.constant != 0:
            lanes, cols = isa.taddr_step(rest.constant)
            self.findings.add(
                FindingKind.BAD_DEALLOC, ("dealloc-offset", op),
                error(op, text.dealloc_offset(lanes, cols)).attach_note(text.the_allocation(), alloc.op),
            )

    def _check_exit(self, state: WarpStates) -> None:
        returns = [e.source.ops[-1] for e in self.cfg.exit.preds if e.source.ops]
        for local, mask in state:
            for alloc in sorted(local.own_live, key=lambda a: a.index):
                if self._surely_freed_elsewhere(alloc, local, mask, state):
                    continue
                diag = error(alloc.op, text.leak())
                exit_op = self._leaking_exit(alloc, returns)
                if exit_op is not None:
                    diag.attach_note(text.leaking_exit(), exit_op)
                self.findings.add(FindingKind.LEAK, ("leak", alloc.op), diag)

    def _surely_freed_elsewhere(self, alloc: OpInfo, local: Local, mask: int, state: WarpStates) -> bool:
        """Some other warp frees `alloc` on every one of its paths that can run with this one."""
        owner = (mask & -mask).bit_length() - 1
        for warp in self.space.warps(self.space.all_warps & ~(1 << owner)):
            paths = [
                other for other, m in state
                if m >> warp & 1 and (other is local or self._compatible(local, other))
            ]
            if paths and all(alloc in other.freed for other in paths):
                return True
        return False

    def _leaking_exit(self, alloc: OpInfo, returns: list[Operation]) -> Operation | None:
        for edge in self.cfg.exit.preds:
            state = self.solver.edge_state.get(edge)
            if state is None or not edge.source.ops:
                continue
            if any(alloc in local.own_live for local, _ in state):
                return edge.source.ops[-1]
        return returns[0] if returns else None
