"""Accesses against the allocations live where they run: provenance of each address, use after free, stale bases, bounds, and the 512-column budget."""

from __future__ import annotations

from xdsl.ir import Operation, OpResult

from tmem_dialect import isa
from tmem_dialect.conventions import is_kernel
from tmem_dialect.diagnostics import error, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.passes.analysis import messages_allocations as text
from tmem_dialect.passes.analysis.messages_names import name_unknown, value_name
from tmem_dialect.passes.analysis.ops import OpInfo, name_of
from tmem_dialect.passes.analysis.state import Local


class ProvenanceRules:
    """Every TMEM address derives from one allocation's base (loaded from the slot that
    tcgen05.alloc wrote); an access is checked against that allocation as it is where it runs."""

    def _read_slot(self, info: OpInfo, local: Local) -> Local:
        """A load of the slot: remember which live allocations the loaded base may be."""
        live = frozenset((info.op, a) for a in local.own_live | local.known_live if a.slot == info.slot)
        kept = frozenset(r for r in local.reads if r[0] is not info.op)
        reads = kept | live
        return local if reads == local.reads else local.but(reads=reads)

    def _base_load(self, info: OpInfo) -> Operation | None:
        """The slot read whose value `info`'s address is based on (None: not `base + offset`)."""
        for sym, coeff in info.anchor or ():
            if sym.allocation is not None and coeff == 1 and isinstance(sym.value, OpResult):
                return sym.value.op
        return None

    def _check_allocation(self, info: OpInfo, local: Local, mask: int) -> None:
        """Report mode: `info` (an ld, st, mma or cp) against the allocations live here."""
        if info.slot is None:
            if info.rects is not None and not self._allocs and is_kernel(self.function):
                self._report_unallocated(info, mask)
            return
        live = sorted((a for a in local.own_live | local.known_live if a.slot == info.slot),
                      key=lambda a: a.index)
        load = self._base_load(info)
        seen = sorted({a for op, a in local.reads if op is load}, key=lambda a: a.index)
        if seen and not any(a in live for a in seen):
            self._report_freed_base(info, load, seen[0], live)
            return
        if not live:
            if info.slot in local.slots:
                self._report_freed_base(info, load, None, live)
            return
        self._check_bounds(info, live, mask)

    def _report_unallocated(self, info: OpInfo, mask: int) -> None:
        warps = list(self.space.warps(mask))
        if any(self._exists(w) for w in warps):
            diag = error(info.op, text.unallocated(name_of(info)))
        else:  # without a declared block size, the warps that run it may not exist
            diag = warning(info.op, text.unallocated(name_of(info), warps[0]))
        self.findings.add(FindingKind.UNALLOCATED, ("unallocated", info.op), diag)

    def _report_freed_base(
        self, info: OpInfo, load: Operation | None, alloc: OpInfo | None, live: list[OpInfo]
    ) -> None:
        deallocs = [i for i in self._deallocs if i.slot == info.slot]
        if live and alloc is not None:
            diag = error(info.op, text.stale_base(name_of(info)))
            kind = FindingKind.STALE_BASE
        else:
            diag = error(info.op, text.use_after_free(name_of(info)))
            kind = FindingKind.USE_AFTER_FREE
        if load is not None:
            diag.attach_note(text.base_loaded_here(), load)
        if alloc is not None:
            diag.attach_note(text.from_this_allocation(), alloc.op)
        for dealloc in deallocs[:1]:
            diag.attach_note(text.freed_here(), dealloc.op)
        if live and alloc is not None:
            diag.attach_note(text.slot_holds_now(), live[0].op)
        self.findings.add(kind, ("freed-base", info.op), diag)

    def _check_bounds(self, info: OpInfo, live: list[OpInfo], mask: int) -> None:
        """The columns an access reaches stay inside its allocation (relative to its base)."""
        sizes = {a.ncols for a in live}
        if None in sizes or len(sizes) != 1:
            return
        (ncols,) = sizes
        boxes = self._boxes(info)
        if boxes is None:
            return
        worst: tuple[int, int, int, bool] | None = None
        for w in self.space.warps(mask):
            for box in boxes[w]:
                if box.col_lo < 0 or box.col_hi >= ncols or box.lane_lo < 0:
                    if worst is None or (box.exact and not worst[3]):
                        worst = (w, box.col_lo, box.col_hi, box.exact)
        if worst is None:
            return
        w, lo, hi, exact = worst
        sure = (exact or self._attained(info)) and self._exists(w)
        other = [a for a in self._allocs if a.slot != info.slot]
        message = (text.out_of_bounds(name_of(info), w, lo, hi, ncols) if sure else
                   text.out_of_bounds_unproven(name_of(info), w, ncols, lo, hi, name_unknown(info.rest)))
        diag = (error if sure else warning)(info.op, message)
        diag.attach_note(text.allocation_of(ncols), live[0].op)
        if other:
            diag.attach_note(text.past_its_end(), other[0].op)
        self.findings.add(FindingKind.OUT_OF_BOUNDS, ("bounds", info.op), diag)

    def _attained(self, info: OpInfo) -> bool:
        """Every value the offset's range spans is taken: its only unknowns are induction
        variables of loops with constant trip counts (so the extremes are real)."""
        return info.rest is not None and all(
            sym.induction_of is not None and sym.induction_of.trip_count for sym, _ in info.rest.terms
        )

    def _check_budget(self, info: OpInfo, local: Local) -> None:
        """Report mode, at an alloc: the columns live at once fit the 512 of the TMEM. Allocations
        of one slot are alternatives (a slot holds one at a time): each counts its smallest."""
        if info.ncols is None:
            return
        by_slot: dict[object, list[OpInfo]] = {}
        for a in local.own_live | local.known_live:
            by_slot.setdefault(a.slot if a.slot is not None else a, []).append(a)
        live = [min(group, key=lambda a: (a.ncols or isa.NCOLS_MIN, a.index)) for group in by_slot.values()]
        live.sort(key=lambda a: a.index)
        known = sum(a.ncols for a in live if a.ncols is not None)
        unknown = [a for a in live if a.ncols is None]
        least = known + isa.NCOLS_MIN * len(unknown) + info.ncols
        if least > isa.TMEM_COLUMNS:
            diag = error(info.op, text.budget(info.ncols, least))
        elif unknown and known + isa.NCOLS_MAX * len(unknown) + info.ncols > isa.TMEM_COLUMNS:
            names = ", ".join(value_name(a.effect.ncols_value if a.effect is not None else None) for a in unknown)
            diag = warning(info.op, text.budget_unproven(info.ncols, names))
        else:
            return
        for a in live:
            diag.attach_note(text.still_live(a.ncols, a is info), a.op)
        self.findings.add(FindingKind.OUT_OF_TMEM, ("budget", info.op), diag)
