"""The entry points tmem-verify and tmem-insert-waits share: which functions to analyse, options, what is not analysed."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects import llvm
from xdsl.ir import Operation

from tmem_dialect.diagnostics import Diagnostic, Severity, warning
from tmem_dialect.dialects.interfaces import has_tmem_effect, tmem_effect
from tmem_dialect.memory_model import rules_version
from tmem_dialect.op_types import OpIndex, is_a, walk_ops
from tmem_dialect.passes.analysis import messages_warps as text
from tmem_dialect.passes.analysis.kernel import KernelAnalysis
from tmem_dialect.passes.analysis.messages import bad_ptx_version
from tmem_dialect.passes.analysis.ops import Findings, Options
from tmem_dialect.passes.cfg import CFG


@contextmanager
def frozen_heap() -> Iterator[None]:
    """No cyclic garbage collection while the analysis runs: it allocates many small states
    (acyclic: reference counting frees them) and each collection would scan the whole module
    and every state made so far, making the passes superlinear in the kernel's size."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # (The first allocation after this runs one young collection over what the pass
            # allocated. Moving that to the oldest generation unscanned instead, with gc.freeze
            # and unfreeze, is faster but hides it from the count that triggers full collections:
            # the IR's cycles would never be freed. tests/test_frozen_heap.py keeps that so.)
            gc.enable()


def parse_options(ptx_version: str | float, conservative: bool, insert: bool) -> Options:
    """Options from pass arguments; a malformed PTX version is a diagnostic, not a traceback."""
    from tmem_dialect.diagnostics import DiagnosticError

    spelled = ptx_version if isinstance(ptx_version, str) else f"{ptx_version:.1f}"
    try:
        version = rules_version(spelled)
    except ValueError as e:
        raise DiagnosticError([Diagnostic(Severity.ERROR, bad_ptx_version(str(e)))]) from None
    return Options(version, conservative, insert)


def tmem_functions(
    module: Operation, index: OpIndex | None = None, indexes: dict[int, OpIndex] | None = None
) -> list[Operation]:
    """Functions (func.func, llvm.func) that use TMEM, in module order; `index`: `module.walk()`,
    `indexes`: each of `function_ops` of it, when the caller has them."""
    from xdsl.dialects import func

    index = OpIndex(walk_ops(module)) if index is None else index
    found = []
    for op in index.of((func.FuncOp, llvm.FuncOp)):
        if op.regions[0].blocks:
            inner = indexes.get(id(op)) if indexes is not None else None
            inner = OpIndex(walk_ops(op)) if inner is None else inner
            if (any(tmem_effect(inner_op) is not None for inner_op in inner.where(has_tmem_effect))
                    or inner.named(_is_tile_name)):
                found.append(op)
    return found


def function_ops(module: Operation, module_ops: list[Operation]) -> dict[int, list[Operation]]:
    """`list(op.walk())` of each op directly in `module`'s body, by id(op), cut from
    `module_ops` (the module's walk: pre-order, so each such op's walk is the run from it to the
    next one). Empty for a module whose body is not one block."""
    region = module.regions[0] if module.regions else None
    if region is None or len(region.blocks) != 1:
        return {}
    top = {id(op) for op in region.blocks[0].ops}
    starts = [i for i, op in enumerate(module_ops) if id(op) in top]
    return {id(module_ops[i]): module_ops[i:j] for i, j in zip(starts, [*starts[1:], len(module_ops)])}


def _is_tile_name(name: str) -> bool:
    return name in ("tcgen05.tile_load", "tcgen05.tile_store")


def function_names(functions: list[Operation]) -> set[str]:
    return {f.sym_name.data for f in functions}  # type: ignore[attr-defined]


def unanalysed(
    function: Operation, cfg: CFG, tmem_callees: set[str], index: OpIndex | None = None
) -> list[Diagnostic]:
    """Warnings for TMEM use the analysis cannot see into: it never passes them silently.

    `tmem_callees`: names of the module's functions that use TMEM; `index`: `function.walk()`,
    when the caller has it."""
    from xdsl.dialects import func

    found: list[Diagnostic] = []
    for op in cfg.unsupported:
        if any(tmem_effect(inner) is not None for inner in op.walk()):
            found.append(warning(op, text.unsupported_control_flow(op.name)))
    index = OpIndex(walk_ops(function)) if index is None else index
    calls = (func.CallOp, llvm.CallOp)

    def looked_at(op_type: type[Operation]) -> bool:
        return _is_tile_name(op_type.name) or op_type.name == "llvm.inline_asm" or issubclass(op_type, calls)

    for op in index.where(looked_at):
        if _is_tile_name(op.name):
            found.append(warning(op, text.warpgroup_access(op.name)))
        elif is_a(op, calls):
            callee = getattr(op, "callee", None)
            name = getattr(getattr(callee, "root_reference", None), "data", None)
            if name in tmem_callees:
                found.append(warning(op, text.call_uses_tmem(name)))
        elif op.name == "llvm.inline_asm" and "tcgen05" in str(op.attributes.get("asm_string", "")):
            found.append(warning(op, text.inline_ptx()))
    return found


def analyse(function: Operation, options: Options) -> tuple[KernelAnalysis, Findings]:
    """Run the analysis of one function (inside `frozen_heap`); its diagnostics and fixes."""
    analysis = KernelAnalysis(function, options)
    return analysis, analysis.run()
