"""Dialects: tcgen05 (ours), the upstream-compatible nvvm subset, and llvm additions."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.ir import Dialect


def project_dialects() -> dict[str, Callable[[], Dialect]]:
    """The dialects this project defines (what the xdsl.universe entry point registers)."""

    def tcgen05() -> Dialect:
        from tmem_dialect.dialects.tcgen05 import TCGEN05
        from tmem_dialect.dialects.tcgen05_buffers import with_buffer_ops

        return with_buffer_ops(TCGEN05)

    def nvvm() -> Dialect:
        from tmem_dialect.dialects.nvvm import NVVM

        return NVVM

    return {"tcgen05": tcgen05, "nvvm": nvvm}


def extended_llvm() -> Dialect:
    from tmem_dialect.dialects.llvm_ext import LLVM_EXTENDED

    return LLVM_EXTENDED


def all_dialects() -> dict[str, Callable[[], Dialect]]:
    """xDSL's dialects with llvm extended by our additions, plus ours."""
    dialects = dict(get_all_dialects())
    dialects["llvm"] = extended_llvm
    from tmem_dialect.dialects.mlir_compat import extended_gpu, extended_scf

    dialects["gpu"] = extended_gpu
    dialects["scf"] = extended_scf
    dialects.update(project_dialects())
    return dialects


def make_context(*, allow_unregistered: bool = False) -> Context:
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
