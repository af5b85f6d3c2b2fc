"""tmem-pipeline: plan columns, assign lanes, insert waits and fences, verify — the one-step path for users."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tmem_dialect.passes.assign_lanes import AssignLanesPass
from tmem_dialect.passes.insert_waits import TmemInsertWaitsPass
from tmem_dialect.passes.plan_columns import TmemPlanColumnsPass
from tmem_dialect.passes.verify import TmemVerifyPass


@dataclass(frozen=True)
class TmemPipelinePass(ModulePass):
    """Users write kernels with TMEM buffers, warpgroup tiles and no waits; this allocates the
    buffers' columns, lowers the tiles to per-warp tcgen05.ld/st, inserts the waits and fences
    the ISA requires, and checks the result."""

    name = "tmem-pipeline"

    ptx_version: str | float = "8.6"
    """The targeted PTX ISA version (see tmem-insert-waits / tmem-verify)."""
    conservative: bool = False
    """Also wait before the first use of ld registers (the seed's stricter rule)."""
    maxnreg: int = 256
    """Registers per thread; each tcgen05.ld/st message uses at most maxnreg / 2."""
    regs_per_message: int | None = None
    """Override the per-message register budget."""
    max_columns: int = 512
    """Cap on the columns of one TMEM allocation (see tmem-plan-columns)."""
    multi_allocation: bool = False
    """Several allocations when the kernel can free early (see tmem-plan-columns)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # No IR verification between the passes: the driver verifies the result, and xDSL's
        # verifier is quadratic in the blocks of a region (each block terminator counts them), so two more
        # runs would dominate the pipeline on branchy NVVM kernels.
        TmemPlanColumnsPass(self.max_columns, self.multi_allocation).apply(ctx, op)
        AssignLanesPass(self.maxnreg, self.regs_per_message).apply(ctx, op)
        TmemInsertWaitsPass(self.ptx_version, self.conservative).apply(ctx, op)
        TmemVerifyPass(self.ptx_version, self.conservative).apply(ctx, op)
