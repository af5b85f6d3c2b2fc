"""Every pass and target the project offers, gathered for tmem-opt and the xdsl universe."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.utils.target import Target


def project_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    from tmem_dialect import lowering, passes

    return {**passes.get_passes(), **lowering.get_passes()}


def project_targets() -> dict[str, Callable[[], type[Target]]]:
    from tmem_dialect import lowering

    return lowering.get_targets()


def register_target_arguments(arg_parser: argparse.ArgumentParser) -> None:
    """Command-line options of our targets (none yet beyond xdsl-opt's)."""
