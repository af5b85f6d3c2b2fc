"""Lowering: tcgen05 to upstream NVVM dialect text, and NVVM-level IR to PTX."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.utils.target import Target


def get_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    def convert_tcgen05_to_nvvm() -> type[ModulePass]:
        from tmem_dialect.lowering.to_nvvm import ConvertTcgen05ToNVVMPass

        return ConvertTcgen05ToNVVMPass

    return {"convert-tcgen05-to-nvvm": convert_tcgen05_to_nvvm}


def get_targets() -> dict[str, Callable[[], type[Target]]]:
    def ptx() -> type[Target]:
        from tmem_dialect.lowering.ptx_target import PTXTarget

        return PTXTarget

    return {"ptx": ptx}
