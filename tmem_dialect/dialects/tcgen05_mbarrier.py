"""The tcgen05 dialect's synchronization ops: mbarriers, fence.mbarrier_init, fence.proxy.async, elect.sync.

An mbarrier is a 64-bit shared-memory object addressed by `!llvm.ptr<3>` (or a generic `!llvm.ptr`).
Counts and parities are i32 values; constant ones are checked against `isa.sync`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType, i1, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import constant_int, verify_isa
from tmem_dialect.memory_model import EffectKind


def check_mbarrier(value: SSAValue) -> None:
    t = value.type
    if not isinstance(t, llvm.LLVMPointerType):
        raise VerifyException(f"an mbarrier is a shared-memory pointer !llvm.ptr<3> (or generic !llvm.ptr), got {t}")
    space = t.addr_space.data if hasattr(t.addr_space, "data") else 0
    if space not in (0, 3):
        raise VerifyException(f"an mbarrier lives in shared memory (!llvm.ptr<3>), got {t}")


# ---------------------------------------------------------------------------------------------
# mbarriers, proxy fences, election
# ---------------------------------------------------------------------------------------------


class _MbarrierOp(IRDLOperation, TMEMEffectOp):
    mbarrier = operand_def(llvm.LLVMPointerType)

    EFFECT_KIND: ClassVar[EffectKind] = EffectKind.MBARRIER_ARRIVE

    def verify_(self) -> None:
        check_mbarrier(self.mbarrier)

    @property
    def count_operand(self) -> SSAValue | None:
        return None

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(self.EFFECT_KIND, mbarrier=self.mbarrier, count=self.count_operand)


@irdl_op_definition
class MbarrierInitOp(_MbarrierOp):
    """`mbarrier.init.shared::cta.b64 [bar], count;`: phase 0 expecting `count` arrivals."""

    name = "tcgen05.mbarrier.init"
    count = operand_def(i32)
    EFFECT_KIND: ClassVar[EffectKind] = EffectKind.MBARRIER_INIT

    assembly_format = "$mbarrier `,` $count attr-dict `:` type($mbarrier)"

    def __init__(self, mbarrier: SSAValue | Operation, count: SSAValue | Operation):
        super().__init__(operands=[mbarrier, count])

    @property
    def count_operand(self) -> SSAValue | None:
        return self.count

    def verify_(self) -> None:
        super().verify_()
        if (c := constant_int(self.count)) is not None:
            verify_isa(isa.mbarrier_count_error(c))


@irdl_op_definition
class MbarrierArriveOp(_MbarrierOp):
    """`mbarrier.arrive{.shared::cta}.b64 state, [bar]{, count};` (the state token is the result)."""

    name = "tcgen05.mbarrier.arrive"
    count = opt_operand_def(i32)
    state = result_def(i64)

    assembly_format = "$mbarrier (`count` $count^)? attr-dict `:` type($mbarrier)"

    def __init__(self, mbarrier: SSAValue | Operation, count: SSAValue | Operation | None = None):
        super().__init__(operands=[mbarrier, [] if count is None else [count]], result_types=[i64])

    @property
    def count_operand(self) -> SSAValue | None:
        return self.count

    def verify_(self) -> None:
        super().verify_()
        if self.count is not None and (c := constant_int(self.count)) is not None:
            verify_isa(isa.mbarrier_count_error(c))


class _TxOp(_MbarrierOp):
    tx_count = operand_def(i32)

    @property
    def count_operand(self) -> SSAValue | None:
        return self.tx_count

    def verify_(self) -> None:
        super().verify_()
        if (c := constant_int(self.tx_count)) is not None:
            verify_isa(isa.tx_count_error(c))


@irdl_op_definition
class MbarrierArriveExpectTxOp(_TxOp):
    """`mbarrier.arrive.expect_tx.shared::cta.b64 state, [bar], tx;`: expect tx bytes, then arrive."""

    name = "tcgen05.mbarrier.arrive_expect_tx"
    state = result_def(i64)
    EFFECT_KIND: ClassVar[EffectKind] = EffectKind.MBARRIER_ARRIVE

    assembly_format = "$mbarrier `,` $tx_count attr-dict `:` type($mbarrier)"

    def __init__(self, mbarrier: SSAValue | Operation, tx_count: SSAValue | Operation):
        super().__init__(operands=[mbarrier, tx_count], result_types=[i64])


@irdl_op_definition
class MbarrierExpectTxOp(_TxOp):
    name = "tcgen05.mbarrier.expect_tx"
    EFFECT_KIND: ClassVar[EffectKind] = EffectKind.MBARRIER_EXPECT_TX

    assembly_format = "$mbarrier `,` $tx_count attr-dict `:` type($mbarrier)"

    def __init__(self, mbarrier: SSAValue | Operation, tx_count: SSAValue | Operation):
        super().__init__(operands=[mbarrier, tx_count])


@irdl_op_definition
class MbarrierCompleteTxOp(_TxOp):
    name = "tcgen05.mbarrier.complete_tx"
    EFFECT_KIND: ClassVar[EffectKind] = EffectKind.MBARRIER_COMPLETE_TX

    assembly_format = "$mbarrier `,` $tx_count attr-dict `:` type($mbarrier)"

    def __init__(self, mbarrier: SSAValue | Operation, tx_count: SSAValue | Operation):
        super().__init__(operands=[mbarrier, tx_count])


class _WaitOp(_MbarrierOp):
    """try_wait / test_wait: `phase` is a parity (i32, `.parity` form) or a state token (i64)."""

    phase = operand_def(IntegerType)
    ready = result_def(i1)
    EFFECT_KIND: ClassVar[EffectKind] = EffectKind.MBARRIER_WAIT

    assembly_format = "$mbarrier `,` $phase attr-dict `:` type($mbarrier) `,` type($phase)"

    def __init__(self, mbarrier: SSAValue | Operation, phase: SSAValue | Operation):
        super().__init__(operands=[mbarrier, phase], result_types=[i1])

    @property
    def parity_form(self) -> bool:
        return self.phase.type == i32

    def verify_(self) -> None:
        super().verify_()
        if self.phase.type not in (i32, i64):
            raise VerifyException(f"the phase is a parity (i32) or a state token (i64), got {self.phase.type}")
        if self.parity_form and (p := constant_int(self.phase)) is not None:
            verify_isa(isa.parity_error(p))

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(self.EFFECT_KIND, mbarrier=self.mbarrier, phase=self.phase)


@irdl_op_definition
class MbarrierTryWaitOp(_WaitOp):
    """`mbarrier.try_wait{.parity}.shared::cta.b64 ready, [bar], phase;` (may suspend for a while)."""

    name = "tcgen05.mbarrier.try_wait"


@irdl_op_definition
class MbarrierTestWaitOp(_WaitOp):
    """`mbarrier.test_wait{.parity}.shared::cta.b64 ready, [bar], phase;` (never blocks)."""

    name = "tcgen05.mbarrier.test_wait"


@irdl_op_definition
class MbarrierWaitParityOp(_MbarrierOp):
    """Block until the phase of `parity` has completed (a try_wait.parity loop)."""

    name = "tcgen05.mbarrier.wait_parity"
    parity = operand_def(i32)
    EFFECT_KIND: ClassVar[EffectKind] = EffectKind.MBARRIER_WAIT

    assembly_format = "$mbarrier `,` $parity attr-dict `:` type($mbarrier)"

    def __init__(self, mbarrier: SSAValue | Operation, parity: SSAValue | Operation):
        super().__init__(operands=[mbarrier, parity])

    def verify_(self) -> None:
        super().verify_()
        if (p := constant_int(self.parity)) is not None:
            verify_isa(isa.parity_error(p))

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(self.EFFECT_KIND, mbarrier=self.mbarrier, phase=self.parity)


@irdl_op_definition
class MbarrierInvalOp(_MbarrierOp):
    name = "tcgen05.mbarrier.inval"
    EFFECT_KIND: ClassVar[EffectKind] = EffectKind.MBARRIER_INVAL

    assembly_format = "$mbarrier attr-dict `:` type($mbarrier)"

    def __init__(self, mbarrier: SSAValue | Operation):
        super().__init__(operands=[mbarrier])


@irdl_op_definition
class FenceMbarrierInitOp(IRDLOperation, TMEMEffectOp):
    """`fence.mbarrier_init.release.cluster;`"""

    name = "tcgen05.fence_mbarrier_init"
    assembly_format = "attr-dict"

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.FENCE_MBARRIER_INIT)


@irdl_op_definition
class FenceProxyAsyncOp(IRDLOperation, TMEMEffectOp):
    """`fence.proxy.async.shared::cta;`: st.shared before it is visible to mma/cp/TMA after it."""

    name = "tcgen05.fence_proxy_async"
    assembly_format = "attr-dict"

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.FENCE_PROXY_ASYNC)


@irdl_op_definition
class ElectSyncOp(IRDLOperation, TMEMEffectOp):
    """`elect.sync _|p, 0xffffffff;`: true in exactly one active lane of the warp."""

    name = "tcgen05.elect_sync"
    result = result_def(i1)
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i1])

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.ELECT)


MBARRIER_OPS = [
    MbarrierInitOp,
    MbarrierArriveOp,
    MbarrierArriveExpectTxOp,
    MbarrierExpectTxOp,
    MbarrierCompleteTxOp,
    MbarrierTryWaitOp,
    MbarrierTestWaitOp,
    MbarrierWaitParityOp,
    MbarrierInvalOp,
    FenceMbarrierInitOp,
    FenceProxyAsyncOp,
    ElectSyncOp,
]
MBARRIER_ATTRS: list = []
