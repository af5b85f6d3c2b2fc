"""Message texts of the ordering rules of memory_model (same warp, across warps, fences): one section per FindingKind."""

from __future__ import annotations

from collections.abc import Callable

from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import HANDOFF, Rule
from tmem_dialect.passes.analysis.messages_names import the_op, the_op_of_warp

# FindingKind.REGISTER_USE


def register_use() -> str:
    return ("conservative: uses the registers of a tcgen05.ld before tcgen05.wait::ld (legal: "
            "the ISA honors the register dependency; the seed's stricter rule waits first)")


def the_ld() -> str:
    return "the tcgen05.ld"


# FindingKind.ANTI_DEPENDENCY, STORE_COMPLETION, DEALLOC_OUTSTANDING: an outstanding access of the same warp


def same_thread(later: str, verb: str, earlier: str, reads: bool, wait: str, rule: Rule) -> str:
    """`later` touches cells the outstanding `earlier` of its warp still uses (`wait`: wait::ld)."""
    still = "reads" if reads else "writes"
    return (f"{later} {verb} TMEM cells that an outstanding {earlier} of the "
            f"same warp still {still}: tcgen05.{wait} must come between them ({rule.cite()})")


def same_thread_dealloc(later: str, earlier: str, reads: bool, wait: str, rule: Rule) -> str:
    still = "reads" if reads else "writes"
    return (f"{later} frees TMEM cells that an outstanding {earlier} of the "
            f"same warp still {still}: tcgen05.{wait} must come before it ({rule.cite()})")


def same_thread_unproven(later: str, earlier: str, wait: str, rule: Rule, unknown: str) -> str:
    return (f"cannot prove that {later} and an outstanding {earlier} of the same "
            f"warp touch different TMEM cells; tcgen05.{wait} between them would order them "
            f"({rule.cite()}){unknown}")


def the_outstanding(earlier: str) -> str:
    return f"the outstanding {earlier}"


# FindingKind.HANDOFF (and DEALLOC_OUTSTANDING, ASYNC_PENDING): accesses of two warps


def _completion(wait: str | None) -> str:
    return f"tcgen05.{wait}" if wait is not None else "its completion"


def unwaited_before_barrier(later: str, wl: int, frees: bool, earlier: str, we: int, wait: str | None,
                            rule: Rule) -> str:
    """Warp `we` did not wait for `earlier` (`wait`; None: an async op's completion) before the barrier."""
    verb = "frees" if frees else "touches"
    return (f"{later} of warp {wl} {verb} TMEM cells that {earlier} of "
            f"warp {we} accessed, and warp {we} did not wait for it ({_completion(wait)}) before the "
            f"barrier that orders them ({rule.cite()})")


def unwaited_before_barrier_unproven(later: str, wl: int, earlier: str, we: int, wait: str | None,
                                     rule: Rule, unknown: str) -> str:
    return (f"cannot prove that {later} of warp {wl} touches other TMEM cells than "
            f"{earlier} of warp {we}, which warp {we} did not wait for ({_completion(wait)}) "
            f"before the barrier ({rule.cite()}){unknown}")


def outstanding_at_barrier() -> str:
    return "the barrier it was still outstanding at"


def unordered(later: str, wl: int, earlier: str, we: int, rule: Rule) -> str:
    return (f"{later} of warp {wl} and {earlier} of warp {we} touch the same "
            f"TMEM cells with no wait and barrier between them ({rule.cite()})")


def unordered_unproven(later: str, wl: int, earlier: str, we: int, rule: Rule, unknown: str) -> str:
    return (f"cannot prove that {later} of warp {wl} and {earlier} of warp "
            f"{we} touch different TMEM cells; nothing orders them ({rule.cite()})"
            f"{unknown}")


# FindingKind.MISSING_FENCE


def missing_fence(fence: str, before: bool) -> str:
    """A handoff barrier without tcgen05.`fence` on its side (`before` or after it)."""
    where = "before" if before else "after"
    return (f"this barrier orders TMEM work between warps but has no tcgen05.{fence} "
            f"{where} it: the canonical pattern of {HANDOFF.cite()} fences both sides "
            "(Triton and CuTe output omit the fences)")


def ordered_by_barrier(earlier: str) -> str:
    return f"{earlier} is ordered by the barrier"


def runs_after_in_another_warp(later: str) -> str:
    return f"{later} in another warp runs after it"


_SAME_THREAD = (same_thread, same_thread_dealloc, same_thread_unproven, the_outstanding)
CROSS_WARP = (unwaited_before_barrier, unwaited_before_barrier_unproven, outstanding_at_barrier, unordered,
              unordered_unproven, the_op, the_op_of_warp)
"""The texts of a conflict between two warps' accesses (HANDOFF, DEALLOC_OUTSTANDING or ASYNC_PENDING)."""

MESSAGES: dict[FindingKind, tuple[Callable[..., str], ...]] = {
    FindingKind.REGISTER_USE: (register_use, the_ld),
    FindingKind.ANTI_DEPENDENCY: _SAME_THREAD,
    FindingKind.STORE_COMPLETION: _SAME_THREAD,
    FindingKind.HANDOFF: CROSS_WARP,
    FindingKind.DEALLOC_OUTSTANDING: _SAME_THREAD + CROSS_WARP,
    FindingKind.MISSING_FENCE: (missing_fence, ordered_by_barrier, runs_after_in_another_warp),
    FindingKind.ASYNC_PENDING: CROSS_WARP,
}
