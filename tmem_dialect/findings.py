"""The kinds of misuse tmem-verify and the interpreter report: one enum, shared by both."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tmem_dialect.memory_model import Rule


class FindingKind(Enum):
    """What class of misuse a diagnostic reports.

    tmem-verify and the interpreter classify every finding with one of these, so that a
    differential test can ask whether both tools saw the same bug. The values are the stable
    spellings printed in `tmem-run --json` output.
    """

    # Ordering rules of memory_model (the rule number in the comment).
    REGISTER_USE = "register-use"  # rule 0, conservative mode only
    ANTI_DEPENDENCY = "anti-dependency"  # rule 1
    STORE_COMPLETION = "store-completion"  # rule 2
    HANDOFF = "handoff"  # rule 3: another warp's access not ordered after this one
    DEALLOC_OUTSTANDING = "dealloc-outstanding"  # rule 4
    MISSING_FENCE = "missing-fence"  # rule 3's canonical fences around a handoff barrier

    # Allocation lifecycle and the column budget.
    BAD_NCOLS = "bad-ncols"
    ALLOC_AFTER_RELINQUISH = "alloc-after-relinquish"
    ALLOC_SIZE_INCREASE = "alloc-size-increase"
    CONCURRENT_ALLOC = "concurrent-alloc"
    OUT_OF_TMEM = "out-of-tmem"
    LEAK = "leak"
    DOUBLE_DEALLOC = "double-dealloc"
    BAD_DEALLOC = "bad-dealloc"
    WRONG_SIZE_DEALLOC = "wrong-size-dealloc"

    # Accesses against live allocations and their provenance.
    UNALLOCATED = "unallocated"
    USE_AFTER_FREE = "use-after-free"
    OUT_OF_BOUNDS = "out-of-bounds"
    WRONG_ALLOCATION = "wrong-allocation"
    STALE_BASE = "stale-base"
    UNINITIALIZED_READ = "uninitialized-read"

    # Which warps and threads run what.
    LANE_QUARTER = "lane-quarter"
    DIVERGENT_OPERAND = "divergent-operand"
    PARTIAL_COLLECTIVE = "partial-collective"
    CTA_PAIR_REQUIRED = "cta-pair-required"
    CTA_GROUP_MISMATCH = "cta-group-mismatch"
    BARRIER_COUNT = "barrier-count"
    BARRIER_SCOPE = "barrier-scope"
    CLUSTER_BARRIER_MISSING = "cluster-barrier-missing"
    VOLATILE_WARPID = "volatile-warpid"

    # What only a run can see.
    DEADLOCK = "deadlock"
    SHARED_RACE = "shared-race"
    MEMORY_FAULT = "memory-fault"
    DIVISION_BY_ZERO = "division-by-zero"
    POISON = "poison"
    STEP_LIMIT = "step-limit"

    # The tool could not decide: a warning that names the fact it could not prove.
    UNPROVEN = "unproven"
    UNSUPPORTED = "unsupported"
    ERROR = "error"
    INTERNAL = "internal"

    @classmethod
    def of(cls, value: str | FindingKind) -> FindingKind:
        """The kind spelled `value` (its JSON spelling), or `value` itself."""
        return value if isinstance(value, FindingKind) else cls(value)

    @classmethod
    def of_rule(cls, rule: Rule) -> FindingKind:
        """The kind of a violation of one of memory_model's ordering rules."""
        return _BY_RULE_NUMBER[rule.number]

    @property
    def is_misuse(self) -> bool:
        """A property of the kernel (as opposed to a limit of the tool or of the run)."""
        return self not in _NOT_MISUSE


_NOT_MISUSE = frozenset(
    {FindingKind.UNPROVEN, FindingKind.UNSUPPORTED, FindingKind.INTERNAL, FindingKind.STEP_LIMIT}
)

_BY_RULE_NUMBER = {
    0: FindingKind.REGISTER_USE,
    1: FindingKind.ANTI_DEPENDENCY,
    2: FindingKind.STORE_COMPLETION,
    3: FindingKind.HANDOFF,
    4: FindingKind.DEALLOC_OUTSTANDING,
}
