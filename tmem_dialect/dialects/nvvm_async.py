"""Upstream NVVM's producer and mbarrier ops (nvvm_mma, nvvm_cp, nvvm_mbarrier), as one namespace and op list.

Names, properties and custom assembly are those iree-opt 3.13.0 (upstream MLIR, LLVM 24) prints
and parses; each custom form was read off iree-opt's own printer, so text printed here parses
there unchanged and vice versa.
"""

from tmem_dialect.dialects.nvvm import TMEM_POINTER, CTAGroupKind, CTAGroupKindAttr  # noqa: F401
from tmem_dialect.dialects.nvvm_cp import *
from tmem_dialect.dialects.nvvm_cp import (
    CpMulticastAttr,
    CpShapeAttr,
    CpSrcFormatAttr,
    Tcgen05CommitOp,
    Tcgen05CpOp,
    Tcgen05ShiftOp,
)  # fmt: skip
from tmem_dialect.dialects.nvvm_mbarrier import *
from tmem_dialect.dialects.nvvm_mbarrier import (
    ElectSyncOp,
    FenceMbarrierInitOp,
    FenceProxyOp,
    MBarrierArriveExpectTxOp,
    MBarrierArriveOp,
    MBarrierCompleteTxOp,
    MBarrierExpectTxOp,
    MBarrierInitOp,
    MBarrierInvalOp,
    MBarrierTestWaitOp,
    MBarrierTryWaitOp,
    MBarrierTryWaitParityOp,
    MemScopeAttr,
    ProxyKindAttr,
    SharedSpaceAttr,
)  # fmt: skip
from tmem_dialect.dialects.nvvm_mma import *
from tmem_dialect.dialects.nvvm_mma import (
    MMA_OPS,
    BlockScaleAttr,
    CollectorBAttr,
    CollectorOpAttr,
    MMAKindAttr,
    Tcgen05MmaSmemDescOp,
)  # fmt: skip
from tmem_dialect.dialects.nvvm_tma import TMA_ATTRS, TMA_OPS

ASYNC_OPS = [
    *TMA_OPS,
    *MMA_OPS,
    Tcgen05CpOp,
    Tcgen05ShiftOp,
    Tcgen05CommitOp,
    Tcgen05MmaSmemDescOp,
    MBarrierInitOp,
    MBarrierArriveOp,
    MBarrierArriveExpectTxOp,
    MBarrierExpectTxOp,
    MBarrierCompleteTxOp,
    MBarrierTryWaitOp,
    MBarrierTestWaitOp,
    MBarrierTryWaitParityOp,
    MBarrierInvalOp,
    FenceMbarrierInitOp,
    FenceProxyOp,
    ElectSyncOp,
]
ASYNC_ATTRS = [
    MMAKindAttr, CollectorOpAttr, BlockScaleAttr, CollectorBAttr, CpShapeAttr, CpMulticastAttr,
    CpSrcFormatAttr, MemScopeAttr, ProxyKindAttr, SharedSpaceAttr, *TMA_ATTRS,
]  # fmt: skip

