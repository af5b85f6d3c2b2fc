"""The xdsl.universe entry point: makes plain xdsl-opt know our dialects, passes and targets."""

from xdsl.ir import Dialect
from xdsl.universe import Universe

from tmem_dialect.dialects import project_dialects
from tmem_dialect.tools.registry import project_passes, project_targets


def nvvm_with_llvm_additions() -> Dialect:
    """Our nvvm dialect, carrying the llvm ops and attributes xDSL 0.74's llvm dialect lacks.

    Upstream NVVM kernels use llvm.mlir.poison and llvm.extractelement. Registering our
    extended llvm dialect under "llvm" would shadow xDSL's for every other user of xdsl-opt (and
    clash with xDSL's own universe), so the new ops ride along with nvvm instead: a context
    knows them once it has loaded nvvm, which an NVVM kernel does at its first nvvm op. xDSL's
    llvm ops themselves are untouched (upstream's `<alignment = 4>` load/store syntax stays
    tmem-opt's).
    """
    from tmem_dialect.dialects.llvm_ext import ConstantRangeAttr, ExtractElementOp, PoisonOp
    from tmem_dialect.dialects.nvvm import NVVM

    return Dialect(
        NVVM.name,
        [*NVVM.operations, PoisonOp, ExtractElementOp],
        [*NVVM.attributes, ConstantRangeAttr],
    )


TMEM_UNIVERSE = Universe(
    all_dialects={**project_dialects(), "nvvm": nvvm_with_llvm_additions},
    all_passes=project_passes(),
    all_targets=project_targets(),
)
