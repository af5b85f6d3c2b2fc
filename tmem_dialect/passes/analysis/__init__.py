"""The TMEM dataflow behind tmem-verify and tmem-insert-waits: its public API.

The state at a program point is, for every warp that can be there, that warp's `Local` TMEM
state; warps whose paths agree share one (`WarpStates`). Branches on conditions computed from
%tid send each warp only where it goes, and branches on unknown but uniform conditions (a kernel
flag) record their outcome in the state, which keeps correlated branches apart: the analysis is
path-sensitive exactly where kernels correlate branches.

Where a rule requires a wait or fence, the analysis records a `Fix` and, from then on, behaves
as if it were there: tmem-insert-waits materializes the fixes; tmem-verify reports them.

Modules, one job each: `ops` (what each op is), `state` (per-warp states and joins), `engine`
(the fixpoint), one module per rule family (`completion`, `handoff`, `lifecycle`, `crosswarp`,
`static_forms`), `placement` (where waits go), `kernel` (the composition), `api` (entry points),
`messages` and `messages_*` (every diagnostic text, by FindingKind).
"""

from tmem_dialect.passes.analysis.api import (
    analyse,
    frozen_heap,
    function_names,
    function_ops,
    parse_options,
    tmem_functions,
    unanalysed,
)
from tmem_dialect.passes.analysis.kernel import KernelAnalysis
from tmem_dialect.passes.analysis.ops import (
    ACTION_ORDER,
    Action,
    Findings,
    Fix,
    Options,
)

__all__ = [
    "ACTION_ORDER",
    "Action",
    "Findings",
    "Fix",
    "KernelAnalysis",
    "Options",
    "analyse",
    "frozen_heap",
    "function_names",
    "function_ops",
    "parse_options",
    "tmem_functions",
    "unanalysed",
]
