"""Passes over tcgen05 and nvvm.tcgen05 kernels: column planning, verification, lane assignment, wait insertion."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory, imported lazily so the driver starts fast."""

    def assign_lanes() -> type[ModulePass]:
        from tmem_dialect.passes.assign_lanes import AssignLanesPass

        return AssignLanesPass

    def verify() -> type[ModulePass]:
        from tmem_dialect.passes.verify import TmemVerifyPass

        return TmemVerifyPass

    def insert_waits() -> type[ModulePass]:
        from tmem_dialect.passes.insert_waits import TmemInsertWaitsPass

        return TmemInsertWaitsPass

    def plan_columns() -> type[ModulePass]:
        from tmem_dialect.passes.plan_columns import TmemPlanColumnsPass

        return TmemPlanColumnsPass

    def pipeline() -> type[ModulePass]:
        from tmem_dialect.passes.pipeline import TmemPipelinePass

        return TmemPipelinePass

    return {
        "tmem-pipeline": pipeline,
        "tmem-plan-columns": plan_columns,
        "tmem-assign-lanes": assign_lanes,
        "tmem-verify": verify,
        "tmem-insert-waits": insert_waits,
    }
