"""Every pass and target the project offers, gathered for tmem-opt and the xdsl universe."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.utils.target import Target


def project_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    from tmem_dialect import frontend, lowering, passes

    return {**passes.get_passes(), **lowering.get_passes(), **frontend.get_passes()}


def project_targets() -> dict[str, Callable[[], type[Target]]]:
    from tmem_dialect import lowering

    return lowering.get_targets()


def register_target_arguments(arg_parser: argparse.ArgumentParser) -> None:
    """Command-line options of our targets; each overrides the same field of the target spec."""
    group = arg_parser.add_argument_group("PTX target (-t ptx)")
    group.add_argument(
        "--ptxas-check",
        action="store_true",
        default=None,
        help="assemble the PTX with ptxas and report its errors as diagnostics",
    )
    group.add_argument("--ptx-version", default=None, help="PTX ISA version, e.g. 8.6 (the default)")
    group.add_argument("--ptx-arch", default=None, help="target architecture, e.g. sm_100a (the default)")


TARGET_ARGUMENTS = {"ptxas_check": "ptxas_check", "ptx_version": "version", "ptx_arch": "arch"}


def apply_target_arguments(target: Target, args: argparse.Namespace) -> Target:
    """The target with the fields given on the command line (`--ptx-arch` ...) replaced."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(target)}
    changes = {
        field: getattr(args, option)
        for option, field in TARGET_ARGUMENTS.items()
        if field in names and getattr(args, option, None) is not None
    }
    return dataclasses.replace(target, **changes) if changes else target
