"""Message texts of the allocation lifecycle, the column budget and the provenance of addresses: one section per FindingKind."""

from __future__ import annotations

from collections.abc import Callable

from tmem_dialect import isa
from tmem_dialect.findings import FindingKind
from tmem_dialect.passes.analysis.messages_names import few_warps, value_name

# FindingKind.BAD_NCOLS (the ISA's own range check is isa.ncols_error)


def ncols_divergent(op_name: str, sure: bool) -> str:
    return (f"{op_name} is warp-collective but its column count "
            f"{'differs' if sure else 'may differ'} between the threads of a warp")


def ncols_not_constant() -> str:
    return ("the column count is not a constant: cannot check that it is a power "
            f"of 2 in [{isa.NCOLS_MIN}, {isa.NCOLS_MAX}]")


# FindingKind.ALLOC_AFTER_RELINQUISH


def alloc_after_relinquish() -> str:
    return ("tcgen05.alloc is reachable after tcgen05.relinquish_alloc_permit: "
            "the CTA gave up its right to allocate")


def relinquished_here() -> str:
    return "the CTA relinquished its allocation permit here"


# FindingKind.ALLOC_SIZE_INCREASE


def alloc_grows(ncols: int, earlier: int) -> str:
    return (f"tcgen05.alloc of {ncols} columns follows an allocation of "
            f"{earlier} columns on some path: allocation sizes must not "
            "increase within a CTA")


def earlier_allocation_of(ncols: int) -> str:
    return f"the earlier allocation of {ncols} columns"


def alloc_grows_unproven() -> str:
    return ("cannot tell whether this tcgen05.alloc asks for more columns "
            "than an earlier allocation on some path (a column count is not a "
            "constant): allocation sizes must not increase within a CTA")


def earlier_allocation() -> str:
    return "the earlier allocation"


# FindingKind.CONCURRENT_ALLOC (and DOUBLE_DEALLOC: one op run by several warps)


def concurrent_allocs(later: str, wl: int, earlier: str, we: int) -> str:
    return (f"{later} of warp {wl} and {earlier} of warp {we} are not ordered by a "
            "barrier: one warp of a CTA allocates, never two concurrently")


def concurrent_allocs_unproven(later: str, earlier: str) -> str:
    return (f"cannot prove that a barrier orders {later} after {earlier} of another "
            "warp: one warp of a CTA allocates, never two concurrently")


def the_other(name: str) -> str:
    return f"the other {name}"


def several_warps(op_name: str, warps: int, alloc: bool) -> str:
    """An alloc (`alloc`) or dealloc run by the warps of mask `warps`."""
    verb = "allocate" if alloc else "free"
    return (f"{op_name} runs in warps {few_warps(warps)}: exactly one warp of the CTA may "
            f"{verb} (guard it with a condition on the warp index)")


def several_warps_unproven(op_name: str, alloc: bool) -> str:
    verb = "allocate" if alloc else "free"
    return (f"cannot prove that only one warp runs this {op_name}; "
            "exactly one warp of the CTA may " + verb)


# FindingKind.OUT_OF_TMEM


def budget(ncols: int, required: int) -> str:
    """An alloc of `ncols` that the `required` columns live with it can never fit."""
    return (f"tcgen05.alloc of {ncols} columns can never be satisfied: "
            f"{required - ncols} columns are still allocated (required: {required}, "
            f"hardware limit: {isa.TMEM_COLUMNS}); it blocks forever")


def budget_unproven(ncols: int, names: str) -> str:
    """`names`: the run-time column counts of live allocations it depends on."""
    return (f"cannot prove that tcgen05.alloc of {ncols} columns fits "
            f"the {isa.TMEM_COLUMNS} columns of the TMEM: it depends on the column "
            f"count {names} of a live allocation")


def still_live(ncols: int | None, again: bool) -> str:
    """Note at a live allocation (`again`: the same alloc, by an earlier iteration)."""
    size = f"{ncols} columns" if ncols is not None else "a run-time number of columns"
    again_text = " (by an earlier iteration)" if again else ""
    return f"{size} allocated here{again_text} are still live"


# FindingKind.LEAK


def leak() -> str:
    return ("TMEM allocated here may still be allocated when the kernel "
            "exits: every path must tcgen05.dealloc it")


def leaking_exit() -> str:
    return "a path leaves the kernel here with it allocated"


# FindingKind.BAD_DEALLOC


def dealloc_unallocated() -> str:
    return ("tcgen05.dealloc frees TMEM that is not allocated on some path to it "
            "(never allocated, or already freed)")


def allocation_it_would_free() -> str:
    return "the allocation it would free"


def dealloc_offset(lanes: int, cols: int) -> str:
    return ("tcgen05.dealloc must get the address tcgen05.alloc returned; this one is "
            f"offset by {lanes} lanes and {cols} columns")


def the_allocation() -> str:
    return "the allocation"


# FindingKind.WRONG_SIZE_DEALLOC


def dealloc_size(ncols: int, allocated: int) -> str:
    return (f"tcgen05.dealloc frees {ncols} columns but the allocation "
            f"it frees has {allocated}")


def allocated_here(ncols: int) -> str:
    return f"allocated {ncols} columns here"


def dealloc_size_unproven() -> str:
    return ("cannot tell whether this tcgen05.dealloc frees as many columns as the "
            "allocation it frees (a column count is not a constant)")


# FindingKind.UNALLOCATED


def unallocated(access: str, warp: int | None = None) -> str:
    """An access in a kernel with no alloc; with `warp`: if the block (size not declared) has it."""
    text = f"{access} accesses TMEM but this kernel allocates none: no tcgen05.alloc on any path"
    return text if warp is None else f"if the block has warp {warp}, {text[0].lower()}{text[1:]}"


# FindingKind.USE_AFTER_FREE (its notes serve STALE_BASE too)


def use_after_free(access: str) -> str:
    return (f"{access} accesses TMEM whose allocation is freed on every "
            "path to it (use after free)")


def base_loaded_here() -> str:
    return "the base was loaded here"


def from_this_allocation() -> str:
    return "from this allocation"


def freed_here() -> str:
    return "which a tcgen05.dealloc frees here"


# FindingKind.OUT_OF_BOUNDS


def out_of_bounds(access: str, warp: int, lo: int, hi: int, ncols: int) -> str:
    return (f"{access} of warp {warp} reaches columns {lo}..{hi} of its allocation, which has "
            f"{ncols} columns (columns 0..{ncols - 1})")


def out_of_bounds_unproven(access: str, warp: int, ncols: int, lo: int, hi: int, unknown: str) -> str:
    return (f"cannot prove that {access} of warp {warp} stays inside its allocation of {ncols} "
            f"columns: its column offset ranges over {lo}..{hi}{unknown}")


def allocation_of(ncols: int) -> str:
    return f"the allocation of {ncols} columns"


def past_its_end() -> str:
    return "past its end lies TMEM another allocation may hold"


# FindingKind.STALE_BASE


def stale_base(access: str) -> str:
    return (f"{access} uses a TMEM base loaded before its allocation was "
            "freed; the slot now holds another allocation (a stale base after a "
            "re-alloc)")


def slot_holds_now() -> str:
    return "the slot holds this allocation now"


# FindingKind.UNINITIALIZED_READ


def slot_read_early() -> str:
    return "reads the TMEM address slot before any tcgen05.alloc wrote it"


# FindingKind.SHARED_RACE


def slot_race() -> str:
    return ("reads the TMEM address that another warp's tcgen05.alloc "
            "writes, with no barrier between them: other warps may read the slot "
            "only after a CTA barrier")


def the_alloc() -> str:
    return "the tcgen05.alloc"


# FindingKind.UNPROVEN


def dealloc_unknown() -> str:
    return ("cannot tell which allocation this tcgen05.dealloc frees: its "
            "address is not loaded from a tcgen05.alloc slot")


_SEVERAL = (several_warps, several_warps_unproven)
_FREED = (base_loaded_here, from_this_allocation, freed_here)

MESSAGES: dict[FindingKind, tuple[Callable[..., str], ...]] = {
    FindingKind.BAD_NCOLS: (ncols_divergent, ncols_not_constant),
    FindingKind.ALLOC_AFTER_RELINQUISH: (alloc_after_relinquish, relinquished_here),
    FindingKind.ALLOC_SIZE_INCREASE: (alloc_grows, earlier_allocation_of, alloc_grows_unproven, earlier_allocation),
    FindingKind.CONCURRENT_ALLOC: (concurrent_allocs, concurrent_allocs_unproven, the_other, *_SEVERAL),
    FindingKind.OUT_OF_TMEM: (budget, budget_unproven, still_live, value_name),
    FindingKind.LEAK: (leak, leaking_exit),
    FindingKind.DOUBLE_DEALLOC: _SEVERAL,
    FindingKind.BAD_DEALLOC: (dealloc_unallocated, allocation_it_would_free, dealloc_offset, the_allocation),
    FindingKind.WRONG_SIZE_DEALLOC: (dealloc_size, allocated_here, dealloc_size_unproven, the_allocation),
    FindingKind.UNALLOCATED: (unallocated,),
    FindingKind.USE_AFTER_FREE: (use_after_free, *_FREED),
    FindingKind.OUT_OF_BOUNDS: (out_of_bounds, out_of_bounds_unproven, allocation_of, past_its_end),
    FindingKind.STALE_BASE: (stale_base, *_FREED, slot_holds_now),
    FindingKind.UNINITIALIZED_READ: (slot_read_early,),
    FindingKind.SHARED_RACE: (slot_race, the_alloc),
    FindingKind.UNPROVEN: (dealloc_unknown,),
}
