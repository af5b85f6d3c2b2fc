"""The shipped examples as the low-level passes and the interpreter take them: a kernel that
declares tcgen05.buffer ops is first planned by tmem-plan-columns (its allocation written out)."""

from __future__ import annotations

import io
from pathlib import Path

from xdsl.printer import Printer

from tmem_dialect.dialects import make_context
from tmem_dialect.ir import parse_module
from tmem_dialect.passes.plan_columns import TmemPlanColumnsPass

EXAMPLES = Path(__file__).parent.parent / "examples"


def declares_buffers(text: str) -> bool:
    return "tcgen05.buffer " in text


def planned(text: str, filename: str = "<example>") -> str:
    """`text` after tmem-plan-columns (unchanged when it declares no buffers)."""
    if not declares_buffers(text):
        return text
    ctx = make_context()
    module = parse_module(ctx, text, filename)
    TmemPlanColumnsPass().apply(ctx, module)
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue() + "\n"


def example_text(name: str) -> str:
    """The example `name` (stem or file name), allocated: what tmem-assign-lanes and
    tmem-insert-waits take and what the interpreter runs."""
    path = EXAMPLES / (name if name.endswith(".mlir") else f"{name}.mlir")
    return planned(path.read_text(), path.name)
