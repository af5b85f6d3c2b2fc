"""Lowering: tcgen05 to upstream NVVM dialect text, and NVVM-level IR to PTX."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.utils.target import Target


def get_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {}


def get_targets() -> dict[str, Callable[[], type[Target]]]:
    return {}
