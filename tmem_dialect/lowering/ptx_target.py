"""The `ptx` target of tmem-opt: NVVM-level MLIR (tcgen05-level input is lowered first) to PTX, optionally checked by ptxas."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from tmem_dialect import isa
from tmem_dialect.diagnostics import DiagnosticError, error
from tmem_dialect.kernel_checks import kernel_diagnostics, kernels, module_diagnostics
from tmem_dialect.lowering.ptx_emitter import emit_ptx


def nvvm_level(ctx: Context, module: ModuleOp) -> ModuleOp:
    """`module` itself when it is NVVM-level already, else a copy run through convert-tcgen05-to-nvvm
    (so `tmem-opt kernel.mlir -p tmem-pipeline -t ptx` needs no explicit lowering step)."""
    if all(op is module or op.name.startswith(("llvm.", "nvvm.")) for op in module.walk()):
        return module
    from tmem_dialect.lowering.to_nvvm import ConvertTcgen05ToNVVMPass

    lowered = module.clone()
    ConvertTcgen05ToNVVMPass().apply(ctx, lowered)
    return lowered


@dataclass(frozen=True)
class PTXTarget(Target):
    """`-t ptx{version=8.6 arch=sm_100a ptxas-check=false}`."""

    name: ClassVar[str] = "ptx"

    # `version=8.6` arrives as a float from the spec syntax, `version="8.6"` as a string.
    version: str | float = "{}.{}".format(*isa.DEFAULT_PTX_VERSION)
    arch: str = isa.DEFAULT_PTX_ARCH
    ptxas_check: bool = False

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        try:
            version = isa.parse_ptx_version(str(self.version))
        except ValueError as e:
            raise DiagnosticError([error(None, str(e))]) from None
        rejected = [d for _, d in module_diagnostics(module)]
        rejected += [d for kernel in kernels(module) for _, d in kernel_diagnostics(kernel, module)]
        if rejected:
            raise DiagnosticError(rejected)  # what ptxas would reject, said at our ops first
        ptx = emit_ptx(nvvm_level(ctx, module), version, self.arch)
        if self.ptxas_check:
            from tmem_dialect.lowering.ptxas import check_or_raise

            check_or_raise(ptx, self.arch)
        output.write(ptx.text)
