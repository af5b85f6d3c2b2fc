"""Message texts of which warps and threads run what (lane quarters, collectives, barriers, CTA pairs) and of what the analysis does not see: one section per FindingKind."""

from __future__ import annotations

from collections.abc import Callable

from tmem_dialect.findings import FindingKind
from tmem_dialect.passes.analysis.messages_names import few_warps, plural

# FindingKind.LANE_QUARTER


def lane_quarter(warp: int, lo: int, hi: int, q_lo: int, q_hi: int, if_exists: bool = False) -> str:
    """Warp `warp` reaches lanes lo..hi outside its quarter (`if_exists`: if the block has it)."""
    text = (f"warp {warp} accesses TMEM lanes {lo}..{hi}, outside its lane quarter "
            f"{q_lo}..{q_hi}: warp w may only access lanes 32*(w%4)..32*(w%4)+31 "
            "(add (32*(w%4)) << 16 to the address)")
    return f"if the block has warp {warp}, " + text if if_exists else text


def lane_quarter_unproven(warp: int, op_name: str, q_lo: int, q_hi: int, unknown: str) -> str:
    return (f"cannot prove that warp {warp}'s {op_name} stays in its lane quarter "
            f"{q_lo}..{q_hi}: the lane of its address is not known statically"
            f"{unknown}")


# FindingKind.DIVERGENT_OPERAND


def address_split(op_name: str, warp: int) -> str:
    return (f"the TMEM address of {op_name} differs between threads of warp "
            f"{warp}; every thread of a warp must pass the same address")


def address_split_unproven(op_name: str, unknown: str) -> str:
    return (f"cannot prove that every thread of a warp passes the same TMEM address "
            f"to {op_name}{unknown}")


# FindingKind.PARTIAL_COLLECTIVE


def _split_warp(warp: int | None) -> str:
    return f"warp {warp}" if warp is not None else "a warp"


def divergent_collective(op_name: str, warp: int | None) -> str:
    """A warp-collective op under a condition that splits `warp` (None: some warp)."""
    return (f"{op_name} is warp-collective (.sync.aligned) but runs under a "
            f"condition that splits {_split_warp(warp)}: it depends on the lane, not only on the "
            "warp index")


def condition_splits(warp: int | None) -> str:
    return f"this condition differs between threads of {_split_warp(warp)}"


def divergent_collective_unproven(op_name: str) -> str:
    return (f"cannot prove that every thread of a warp reaches this "
            f"{op_name} (warp-collective, .sync.aligned) together")


def condition_may_split() -> str:
    return "this condition may differ between threads of a warp"


# FindingKind.BARRIER_SCOPE


def barrier_count(count: int | None, threads: int, warps: int) -> str:
    """A named barrier whose thread count (None: not a constant) is not that of the `warps` reaching it."""
    said = f"its count of {count} threads" if count is not None else "its thread count (not a constant)"
    return (f"{said} does not match the {threads} threads of the warps that may "
            f"reach it ({few_warps(warps)}); the TMEM checks take it as ordering "
            "those warps with each other")


def barrier_block_size_unknown() -> str:
    return ("the kernel does not declare its block size, so which warps this barrier "
            "with a thread count orders is not known; the TMEM checks take it as a "
            "barrier of the whole CTA")


def barrier_not_reached(missing: int) -> str:
    """Some warps (mask `missing`) never reach a CTA barrier."""
    single = not plural(missing)
    return (f"warp{'' if single else 's'} {few_warps(missing)} never reach{'es' if single else ''} this barrier; "
            "the TMEM checks assume every warp of the CTA takes part in it")


# FindingKind.CLUSTER_BARRIER_MISSING


def pair_alloc_unsynchronized(op_name: str) -> str:
    return (f"{op_name} (cta_group::2) may run before any cluster barrier: the peer CTA must "
            "be running when the pair allocates, so a barrier.cluster.arrive and "
            "barrier.cluster.wait must come before it on every path")


def pair_dealloc_unsynchronized(op_name: str) -> str:
    return (f"{op_name} (cta_group::2) may run with no cluster barrier between the pair "
            "allocation and it: the peer CTA must still be running when the pair "
            "deallocates, so a barrier.cluster.arrive and barrier.cluster.wait must come "
            "before it on every path")


# FindingKind.PEER_MISMATCH


def pair_in_one_cta(op_name: str, kind: str) -> str:
    """A pair op (`kind`: alloc, dealloc, ...) under a branch on %cluster_ctarank."""
    return (f"{op_name} (cta_group::2) runs only in the CTAs for which this branch on "
            "%cluster_ctarank goes its way: both CTAs of the pair must execute their half "
            f"of the pair {kind}")


def the_branch() -> str:
    return "the branch"


def rank_read_here() -> str:
    return "the CTA rank it depends on"


# FindingKind.SETMAXNREG_UNIFORM


def setmaxnreg_not_uniform(reached: int, warpgroup: int, increase: bool, count: int, missing: int) -> str:
    """Warps `reached` of a warpgroup execute a setmaxnreg that warps `missing` never do."""
    return (f"setmaxnreg is not warpgroup-uniform: warp{'s' if plural(reached) else ''} "
            f"{few_warps(reached)} of warpgroup {warpgroup} may execute "
            f"this setmaxnreg ({'inc' if increase else 'dec'} {count}) but warp"
            f"{'s' if plural(missing) else ''} {few_warps(missing)} never "
            f"{'do' if plural(missing) else 'does'}; all "
            "warps of a warpgroup must execute the same setmaxnreg")


# FindingKind.VOLATILE_WARPID


def volatile_warpid(op_name: str) -> str:
    return (f"the lane of {op_name}'s address comes from %warpid, which the PTX "
            "ISA calls volatile (the warp's slot on the SM, which may change while it "
            "runs, not its index in the CTA): cannot prove that it stays in its lane "
            "quarter; derive the quarter from %tid.x / 32")


def warpid_read_here() -> str:
    return "%warpid is read here"


# FindingKind.UNSUPPORTED (api.unanalysed)


def unsupported_control_flow(op_name: str) -> str:
    return f"TMEM operations inside {op_name} are not analysed (unsupported control flow)"


def warpgroup_access(op_name: str) -> str:
    return (f"{op_name} is a warpgroup access: run tmem-assign-lanes "
            "before the TMEM rules can be checked or waits inserted")


def call_uses_tmem(callee: str) -> str:
    return (f"call to @{callee}, which uses TMEM: TMEM rules are "
            "checked within each function, not across calls")


def inline_ptx() -> str:
    return "inline PTX with tcgen05 instructions is not analysed"


MESSAGES: dict[FindingKind, tuple[Callable[..., str], ...]] = {
    FindingKind.LANE_QUARTER: (lane_quarter, lane_quarter_unproven),
    FindingKind.DIVERGENT_OPERAND: (address_split, address_split_unproven),
    FindingKind.PARTIAL_COLLECTIVE: (divergent_collective, condition_splits, divergent_collective_unproven,
                                     condition_may_split),
    FindingKind.BARRIER_SCOPE: (barrier_count, barrier_block_size_unknown, barrier_not_reached),
    FindingKind.CLUSTER_BARRIER_MISSING: (pair_alloc_unsynchronized, pair_dealloc_unsynchronized),
    FindingKind.PEER_MISMATCH: (pair_in_one_cta, the_branch, rank_read_here),
    FindingKind.SETMAXNREG_UNIFORM: (setmaxnreg_not_uniform,),
    FindingKind.VOLATILE_WARPID: (volatile_warpid, warpid_read_here),
    FindingKind.UNSUPPORTED: (unsupported_control_flow, warpgroup_access, call_uses_tmem, inline_ptx),
}
