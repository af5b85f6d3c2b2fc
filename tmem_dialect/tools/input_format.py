"""The `--input-format` and `--allow-unmodelled` options of tmem-opt and tmem-run: PTX input through the front end."""

from __future__ import annotations

import argparse

from xdsl.dialects.builtin import ModuleOp


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--input-format",
        choices=("mlir", "ptx"),
        default=None,
        help="how to read the input (default: PTX for a .ptx file, MLIR otherwise, and for stdin)",
    )
    parser.add_argument(
        "--allow-unmodelled",
        action="store_true",
        help="PTX input: import instructions the front end cannot model as opaque ops, with a "
        "warning (for verification only: their effects are unknown)",
    )


def is_ptx(args: argparse.Namespace, filename: str | None) -> bool:
    from tmem_dialect.frontend import is_ptx_input

    return is_ptx_input(filename, getattr(args, "input_format", None))


def import_ptx(args: argparse.Namespace, text: str, filename: str, line_offset: int = 0) -> ModuleOp:
    """The module of PTX `text`; DiagnosticError located at its lines."""
    from tmem_dialect.frontend import import_ptx as frontend_import

    return frontend_import(text, filename, allow_unmodelled=args.allow_unmodelled, line_offset=line_offset)


def report(error, text: str, filename: str) -> int:
    """Print an import's diagnostics with their PTX source lines; the exit status (1)."""
    import sys

    for d in error.diagnostics:
        print(d.render({filename: text}), file=sys.stderr)
    return 1
