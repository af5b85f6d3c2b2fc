"""tmem-verify: the whole-program TMEM rules of tcgen05 and nvvm.tcgen05 kernels, reported as MLIR diagnostics."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from tmem_dialect.conventions import is_kernel
from tmem_dialect.diagnostics import Diagnostic, emit_all_or_raise, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.kernel_checks import kernel_diagnostics, module_diagnostics
from tmem_dialect.op_types import OpIndex, walk_ops
from tmem_dialect.passes.analysis import (
    KernelAnalysis,
    Options,
    frozen_heap,
    function_names,
    function_ops,
    parse_options,
    tmem_functions,
    unanalysed,
)
from tmem_dialect.passes.dispatch_rounds import unroll_dispatch


def verify_module(module: Operation, options: Options) -> list[Diagnostic]:
    """Every diagnostic tmem-verify reports for `module`, in source order."""
    return [d for _, d in verify_findings(module, options)]


def verify_findings(module: Operation, options: Options) -> list[tuple[FindingKind, Diagnostic]]:
    """Every finding of tmem-verify on `module` with its kind (shared with the interpreter), in
    source order."""
    # Walked once: each function's ops are cut from the module's, and every check scans them
    # by class (OpIndex) for the few kinds of op it looks at.
    module_index = OpIndex(walk_ops(module))
    found: list[tuple[FindingKind, Diagnostic]] = list(module_diagnostics(module, module_index))
    indexes = {key: OpIndex(ops) for key, ops in function_ops(module, module_index.ops).items()}
    functions = tmem_functions(module, module_index, indexes)
    callees = function_names(functions)
    with frozen_heap():
        for function in functions:
            analysis = KernelAnalysis(function, options, index=indexes.get(id(function)))
            try:
                found.extend((FindingKind.UNPROVEN, d) for d in _kernel_notes(function, analysis))
                index = analysis.op_index
                found.extend(
                    (FindingKind.UNSUPPORTED, d) for d in unanalysed(function, analysis.cfg, callees, index)
                )
                found.extend(kernel_diagnostics(function, module, index, module_index, analysis.tmem_effects))
                found.extend(_engine_findings(function, analysis, options))
            finally:
                analysis.release()  # freed here, not by the collection after frozen_heap
            del analysis
    return sorted(found, key=lambda kd: _order(kd[1]))  # one order run to run


def _engine_findings(
    function: Operation, analysis: KernelAnalysis, options: Options
) -> list[tuple[FindingKind, Diagnostic]]:
    """The engine's findings on `function`; a warp-specialized dispatch loop is analysed round
    by round (passes/dispatch_rounds.py), on a copy that sits beside the function meanwhile."""
    unrolled = unroll_dispatch(function, analysis.cfg, analysis.values)
    if unrolled is None:
        return list(analysis.run().items())
    parent = function.parent_block()
    assert parent is not None
    parent.insert_op_after(unrolled.function, function)
    rounds: KernelAnalysis | None = None
    try:  # (the copy leaves the module whatever happens, its construction included)
        rounds = KernelAnalysis(unrolled.function, options, unrolled.known)
        items = rounds.run().items()
    finally:
        unrolled.function.detach()
        if rounds is not None:
            rounds.release()
    unique: dict[tuple[object, ...], tuple[FindingKind, Diagnostic]] = {}
    for kind, diagnostic in items:
        _to_origin(diagnostic, unrolled.origin)
        unique.setdefault((kind, *_identity(diagnostic)), (kind, diagnostic))
    return list(unique.values())


def _to_origin(diagnostic: Diagnostic, origin: dict[Operation, Operation]) -> None:
    """Point a diagnostic found on the unrolled copy (and its notes) at the function's own ops."""
    if diagnostic.op is not None:
        diagnostic.op = origin.get(diagnostic.op, diagnostic.op)
    for note in diagnostic.notes:
        _to_origin(note, origin)


def _identity(diagnostic: Diagnostic) -> tuple[object, ...]:
    """What tells two diagnostics apart when rendered (one per op of all its rounds)."""
    return tuple((d.severity, d.message, d.location, d.op) for d in diagnostic.flatten())


def _position(d: Diagnostic) -> tuple[str, int, int]:
    loc = d.location
    return (loc.file, loc.line, loc.column) if loc is not None else ("", 0, 0)


def _order(d: Diagnostic) -> tuple:
    """Source order; two findings at one op with one message (one per earlier op, say) by their
    notes, so that the order never depends on where in memory the analysis's sets put them."""
    return _position(d), d.message, tuple((_position(n), n.message) for n in d.notes)


def _kernel_notes(function: Operation, analysis: KernelAnalysis) -> list[Diagnostic]:
    if not is_kernel(function):
        return [
            warning(function, "this function uses TMEM but is not a kernel (no nvvm.kernel or "
                    "tcgen05.kernel): it is checked as if it were one")
        ]
    if not analysis.space.declared:
        return [
            warning(function, "the kernel does not declare its block size (nvvm.reqntid or "
                    "tcgen05.reqntid): warp checks assume a one-dimensional block of up to "
                    "1024 threads")
        ]
    return []


@dataclass(frozen=True)
class TmemVerifyPass(ModulePass):
    """Check the TMEM rules of every kernel: allocation lifecycle, warp-collective divergence,
    lane quarters, waits (rules 1-4) and fences around barriers that hand TMEM between warps."""

    name = "tmem-verify"

    ptx_version: str | float = "8.6"
    """The targeted PTX ISA version: 9.4 and later pipeline same-warp st->ld, st->st, ld->st."""
    conservative: bool = False
    """Also note register reads of an ld before its wait::ld (legal; the seed's stricter rule)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = parse_options(self.ptx_version, self.conservative, insert=False)
        emit_all_or_raise(verify_module(op, options))
