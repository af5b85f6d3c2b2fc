"""nvvm barriers with upstream syntax: nvvm.barrier (bar.sync), nvvm.barrier.arrive, nvvm.cluster.arrive/wait."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    UnitAttr,
    i32,
)
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import TRUE
from tmem_dialect.memory_model import EffectKind


@irdl_op_definition
class BarrierOp(IRDLOperation, TMEMEffectOp):
    """`bar.sync id{, count}` (CTA barrier 0 when no id is given)."""

    name = "nvvm.barrier"

    barrierId = opt_operand_def(i32)
    numberOfThreads = opt_operand_def(i32)
    aligned = prop_def(BoolAttr, default_value=TRUE)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    assembly_format = (
        "(`id` `=` $barrierId^)? (`number_of_threads` `=` $numberOfThreads^)? attr-dict"
    )

    @classmethod
    def create(cls, *, properties=None, **kwargs):  # type: ignore[override]
        """Newer upstream has a third operand segment (a barrier.red predicate); read it when empty."""
        props = dict(properties or {})
        segments = props.get("operandSegmentSizes")
        if isinstance(segments, DenseArrayBase) and len(sizes := tuple(segments.get_values())) == 3:
            if sizes[2]:
                raise VerifyException("nvvm.barrier with a reduction predicate (barrier.red) is not supported")
            props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, list(sizes[:2]))
        return super().create(properties=props, **kwargs)

    def __init__(self, barrier_id: SSAValue | None = None, threads: SSAValue | None = None):
        super().__init__(
            operands=[
                [barrier_id] if barrier_id is not None else [],
                [threads] if threads is not None else [],
            ]
        )

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.BARRIER)


class _ClusterBarrierOp(IRDLOperation):
    """barrier.cluster.{arrive,wait}: all threads of the cluster (both CTAs of a pair) meet."""

    aligned = opt_prop_def(UnitAttr)

    assembly_format = "(`aligned` $aligned^)? attr-dict"

    def __init__(self, aligned: bool = False):
        super().__init__(properties={"aligned": UnitAttr()} if aligned else {})


@irdl_op_definition
class ClusterArriveOp(_ClusterBarrierOp):
    """`barrier.cluster.arrive`: arrive at the cluster barrier (release) without waiting."""

    name = "nvvm.cluster.arrive"


@irdl_op_definition
class ClusterArriveRelaxedOp(_ClusterBarrierOp):
    """`barrier.cluster.arrive.relaxed`: arrive with no memory ordering."""

    name = "nvvm.cluster.arrive.relaxed"


@irdl_op_definition
class ClusterWaitOp(_ClusterBarrierOp):
    """`barrier.cluster.wait`: wait until every thread of the cluster arrived (acquire)."""

    name = "nvvm.cluster.wait"


@irdl_op_definition
class BarrierArriveOp(IRDLOperation):
    """`bar.arrive id, count`: count this warp's threads toward barrier `id` (0 when no id is
    given) and go on without waiting; the threads that wait there (bar.sync) are ordered after
    what the arriving threads did before (PTX ISA, barrier{.cta}: bar.arrive)."""

    name = "nvvm.barrier.arrive"

    barrierId = opt_operand_def(i32)
    numberOfThreads = operand_def(i32)

    assembly_format = "(`id` `=` $barrierId^)? `number_of_threads` `=` $numberOfThreads attr-dict"

    def __init__(self, threads: SSAValue, barrier_id: SSAValue | None = None):
        super().__init__(operands=[[barrier_id] if barrier_id is not None else [], threads])


BAR_OPERATIONS = (BarrierOp, BarrierArriveOp)
CLUSTER_OPERATIONS = (ClusterArriveOp, ClusterArriveRelaxedOp, ClusterWaitOp)
