"""The tcgen05 dialect's TMA ops: tma_load, tma_store and the bulk groups, lowering to the nvvm TMA ops one to one.

  tcgen05.tma_load %dst, %tmap [%x, %y], %bar (multicast %mask)? (cta_group(2))?
  tcgen05.tma_store %tmap [%x, %y], %src
  tcgen05.bulk_commit_group
  tcgen05.bulk_wait_group 0 (read)?
Shared addresses are `!llvm.ptr<3>` (the load's destination is the issuing CTA's shared::cta
address, which the lowering casts to shared::cluster), the tensor map a generic `!llvm.ptr`
kernel parameter; constant fields are checked against isa.tma.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import I32, IntegerAttr, IntegerType, UnitAttr, i32
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.dialects.nvvm_tma import SHARED_POINTER, WaitGroupForm
from tmem_dialect.memory_model import EffectKind

i16 = IntegerType(16)
GENERIC_POINTER = llvm.LLVMPointerType()


def _check_dims(coordinates) -> None:
    if err := isa.dims_error(len(coordinates)):
        raise VerifyException(err)


@irdl_op_definition
class TmaLoadOp(IRDLOperation, TMEMEffectOp):
    """`cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes`: the box
    at the coordinates into shared memory (of each CTA of the multicast mask), completing its
    bytes on the mbarrier."""

    name = "tcgen05.tma_load"
    dst = operand_def(SHARED_POINTER)
    tensor_map = operand_def(GENERIC_POINTER)
    coordinates = var_operand_def(i32)
    mbarrier = operand_def(SHARED_POINTER)
    multicast_mask = opt_operand_def(i16)
    cta_group = opt_prop_def(IntegerAttr[I32])
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$dst `,` $tensor_map `[` $coordinates `]` `,` $mbarrier (`multicast` $multicast_mask^)? "
        "(`cta_group` `(` $cta_group^ `)`)? attr-dict"
    )

    def __init__(self, dst: SSAValue, tensor_map: SSAValue, coordinates: list[SSAValue], mbarrier: SSAValue,
                 multicast_mask: SSAValue | None = None, cta_group: int | None = None):
        props = {} if cta_group is None else {"cta_group": IntegerAttr(cta_group, i32)}
        super().__init__(operands=[dst, tensor_map, coordinates, mbarrier, [multicast_mask] if multicast_mask else []],
                         properties=props)

    @property
    def cta_group_value(self) -> int | None:
        return None if self.cta_group is None else self.cta_group.value.data

    def verify_(self) -> None:
        _check_dims(self.coordinates)
        if self.cta_group_value not in (None, 1, 2):
            raise VerifyException(f"cta_group must be 1 or 2, got {self.cta_group_value}")
        if self.multicast_mask is not None and (m := constant_int(self.multicast_mask)) is not None:
            if err := isa.multicast_mask_error(m & 0xFFFF):
                raise VerifyException(err)
            if m & 0xFFFF == 0:
                raise VerifyException("a multicast mask of 0 writes no CTA (and completes no barrier)")

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.TMA_LOAD, mbarrier=self.mbarrier, multicast=self.multicast_mask)


@irdl_op_definition
class TmaStoreOp(IRDLOperation, TMEMEffectOp):
    """`cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group`: shared memory to the tensor's box."""

    name = "tcgen05.tma_store"
    tensor_map = operand_def(GENERIC_POINTER)
    coordinates = var_operand_def(i32)
    src = operand_def(SHARED_POINTER)
    assembly_format = "$tensor_map `[` $coordinates `]` `,` $src attr-dict"

    def __init__(self, tensor_map: SSAValue, coordinates: list[SSAValue], src: SSAValue):
        super().__init__(operands=[tensor_map, coordinates, src])

    def verify_(self) -> None:
        _check_dims(self.coordinates)

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.BULK_STORE)


@irdl_op_definition
class BulkCommitGroupOp(IRDLOperation, TMEMEffectOp):
    """`cp.async.bulk.commit_group`."""

    name = "tcgen05.bulk_commit_group"
    assembly_format = "attr-dict"

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.BULK_COMMIT_GROUP)


@irdl_op_definition
class BulkWaitGroupOp(WaitGroupForm, IRDLOperation):
    """`cp.async.bulk.wait_group{.read} N`: at most N of the thread's bulk groups pending."""

    name = "tcgen05.bulk_wait_group"
    group = prop_def(IntegerAttr[IntegerType])
    read = opt_prop_def(UnitAttr)


TMA_OPS = [TmaLoadOp, TmaStoreOp, BulkCommitGroupOp, BulkWaitGroupOp]
