"""The kinds of misuse tmem-verify and the interpreter report: one enum, shared by both."""

from __future__ import annotations

from enum import Enum

from tmem_dialect import memory_model as mm


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
    RESOURCE_LIMIT = "resource-limit"  # more registers or shared memory than a CTA of the kernel has
    BARRIER_COUNT = "barrier-count"
    BARRIER_SCOPE = "barrier-scope"
    CLUSTER_BARRIER_MISSING = "cluster-barrier-missing"
    PEER_MISMATCH = "peer-mismatch"  # the two CTAs' halves of a cta_group::2 op disagree
    PEER_EXITED = "peer-exited"  # the peer CTA exited before its half of a pair alloc/dealloc
    SETMAXNREG_UNIFORM = "setmaxnreg-uniform"  # setmaxnreg not executed alike by a whole warpgroup
    VOLATILE_WARPID = "volatile-warpid"

    # What only a run can see.
    DEADLOCK = "deadlock"
    SHARED_RACE = "shared-race"
    MEMORY_FAULT = "memory-fault"
    DIVISION_BY_ZERO = "division-by-zero"
    POISON = "poison"
    STEP_LIMIT = "step-limit"

    # The interpreter cannot run the input as given (nothing about TMEM use).
    PARSE = "parse"
    INVALID_IR = "verify"  # the module does not verify
    NO_KERNEL = "no-kernel"
    BAD_THREADS = "threads"  # the CTA shape asked for and the one the kernel declares
    BAD_ARGUMENTS = "arguments"

    # The tool could not decide: a warning that names the fact it could not prove.
    UNPROVEN = "unproven"
    UNSUPPORTED = "unsupported"
    ERROR = "error"
    INTERNAL = "internal"

    # mbarriers, asynchronous tcgen05 producers and the async proxy (issue 10, interpreter side).
    MBARRIER_PHASE = "mbarrier-phase"  # a wait on a phase that never completes, or passes vacuously
    MBARRIER_COUNT = "mbarrier-count"  # arrivals do not match mbarrier.init's count
    TX_COUNT = "tx-count"  # expect_tx / complete_tx bytes do not match
    MBARRIER_UNINITIALIZED = "mbarrier-uninitialized"  # used before init (or its init not visible)
    MBARRIER_IN_USE = "mbarrier-in-use"  # inval / re-init while arrivals or a commit are pending
    ASYNC_PENDING = "async-pending"  # D read, overwritten, freed or handed off before the commit's phase
    MISSING_PROXY_FENCE = "missing-proxy-fence"  # st.shared read by mma/cp without fence.proxy.async
    BAD_DESCRIPTOR = "bad-descriptor"  # an SMEM or instruction descriptor the ISA does not define

    @classmethod
    def of(cls, value: str | FindingKind) -> FindingKind:
        """The kind spelled `value` (its JSON spelling), or `value` itself."""
        return value if isinstance(value, FindingKind) else cls(value)

    @classmethod
    def of_rule(cls, rule: mm.Rule) -> FindingKind:
        """The kind of a violation of ordering rule `rule` of memory_model."""
        return _RULE_KINDS[rule]

    @property
    def is_misuse(self) -> bool:
        """A property of the kernel (as opposed to a limit of the tool or of the run)."""
        return self not in _NOT_MISUSE


_NOT_MISUSE = frozenset(
    {FindingKind.UNPROVEN, FindingKind.UNSUPPORTED, FindingKind.INTERNAL, FindingKind.STEP_LIMIT,
     FindingKind.PARSE, FindingKind.INVALID_IR, FindingKind.NO_KERNEL, FindingKind.BAD_THREADS,
     FindingKind.BAD_ARGUMENTS}
)

# One kind per ordering rule of memory_model: whoever finds a violation of a rule (tmem-verify,
# the interpreter) reports it under this kind.
_RULE_KINDS = {
    mm.REGISTER_USE: FindingKind.REGISTER_USE,
    mm.ANTI_DEPENDENCY: FindingKind.ANTI_DEPENDENCY,
    mm.STORE_COMPLETION: FindingKind.STORE_COMPLETION,
    mm.HANDOFF: FindingKind.HANDOFF,
    mm.DEALLOC_COMPLETION: FindingKind.DEALLOC_OUTSTANDING,
}
