"""The allocation lifecycle: nCols, alloc, relinquish, dealloc and leaks at kernel exit."""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.diagnostics import error, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
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
                (error if sure else warning)(
                    op, f"{op.name} is warp-collective but its column count "
                    f"{'differs' if sure else 'may differ'} between the threads of a warp"
                ),
            )
        elif info.kind is EffectKind.ALLOC:
            self.findings.add(
                FindingKind.BAD_NCOLS, ("ncols", op),
                warning(op, "the column count is not a constant: cannot check that it is a power "
                        f"of 2 in [{isa.NCOLS_MIN}, {isa.NCOLS_MAX}]"),
            )

    def _alloc(self, info: OpInfo, local: Local, mask: int) -> Local:
        if self._report:
            self._check_ncols(info)
            self._check_budget(info, local)
            if local.relinquished is not None:
                self.findings.add(
                    FindingKind.ALLOC_AFTER_RELINQUISH, ("alloc-after-relinquish", info.op),
                    error(info.op, "tcgen05.alloc is reachable after tcgen05.relinquish_alloc_permit: "
                          "the CTA gave up its right to allocate").attach_note(
                        "the CTA relinquished its allocation permit here", local.relinquished.op
                    ),
                )
            earlier = local.min_alloc
            if earlier is not None and earlier.ncols is not None and info.ncols is not None:
                if earlier.ncols < info.ncols:
                    self.findings.add(
                        FindingKind.ALLOC_SIZE_INCREASE, ("alloc-grows", info.op),
                        error(info.op, f"tcgen05.alloc of {info.ncols} columns follows an allocation of "
                              f"{earlier.ncols} columns on some path: allocation sizes must not "
                              "increase within a CTA").attach_note(
                            f"the earlier allocation of {earlier.ncols} columns", earlier.op
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
                    warning(info.op, "cannot tell whether this tcgen05.alloc asks for more columns "
                            "than an earlier allocation on some path (a column count is not a "
                            "constant): allocation sizes must not increase within a CTA").attach_note(
                        "the earlier allocation", earlier.op
                    ),
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
                    warning(info.op, "cannot tell which allocation this tcgen05.dealloc frees: its "
                            "address is not loaded from a tcgen05.alloc slot"),
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
            diag = error(op, "tcgen05.dealloc frees TMEM that is not allocated on some path to it "
                         "(never allocated, or already freed)")
            for a in allocs[:1]:
                diag.attach_note("the allocation it would free", a.op)
            self.findings.add(FindingKind.BAD_DEALLOC, ("dealloc-unallocated", op), diag)
            return
        alloc = matching[0]
        assert info.effect is not None and alloc.effect is not None
        if info.ncols is not None and alloc.ncols is not None:
            if info.ncols != alloc.ncols:
                self.findings.add(
                    FindingKind.WRONG_SIZE_DEALLOC, ("dealloc-size", op),
                    error(op, f"tcgen05.dealloc frees {info.ncols} columns but the allocation "
                          f"it frees has {alloc.ncols}").attach_note(
                        f"allocated {alloc.ncols} columns here", alloc.op
                    ),
                )
        elif not same_ncols(info, alloc):
            self.findings.add(
                FindingKind.WRONG_SIZE_DEALLOC, ("dealloc-size", op),
                warning(op, "cannot tell whether this tcgen05.dealloc frees as many columns as the "
                        "allocation it frees (a column count is not a constant)").attach_note(
                    "the allocation", alloc.op
                ),
            )
        rest = info.rest
        if rest is not None and rest.constant is not None and rest.constant != 0:
            lanes, cols = isa.taddr_step(rest.constant)
            self.findings.add(
                FindingKind.BAD_DEALLOC, ("dealloc-offset", op),
                error(op, "tcgen05.dealloc must get the address tcgen05.alloc returned; this one is "
                      f"offset by {lanes} lanes and {cols} columns").attach_note(
                    "the allocation", alloc.op
                ),
            )

    def _check_exit(self, state: WarpStates) -> None:
        returns = [e.source.ops[-1] for e in self.cfg.exit.preds if e.source.ops]
        for local, mask in state:
            for alloc in sorted(local.own_live, key=lambda a: a.index):
                if self._surely_freed_elsewhere(alloc, local, mask, state):
                    continue
                diag = error(alloc.op, "TMEM allocated here may still be allocated when the kernel "
                             "exits: every path must tcgen05.dealloc it")
                exit_op = self._leaking_exit(alloc, returns)
                if exit_op is not None:
                    diag.attach_note("a path leaves the kernel here with it allocated", exit_op)
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
