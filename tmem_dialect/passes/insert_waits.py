"""tmem-insert-waits: place the tcgen05.wait and tcgen05.fence ops the ISA's rules require, each tagged with its rule."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tmem_dialect.diagnostics import emit_all_or_raise
from tmem_dialect.dialects import nvvm_tmem, tcgen05
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import (
    ACTION_ORDER,
    Action,
    Fix,
    KernelAnalysis,
    Options,
    frozen_heap,
    function_names,
    parse_options,
    tmem_functions,
    unanalysed,
)

RULE_ATTR = "tmem.rule"
"""Every inserted op names the rules of TMEM_FACTS.md it serves, e.g. "rule 2 (store completion)"
or "rule 3 (handoff); rule 4 (dealloc)" when one wait serves both."""


def insert_waits(module: Operation, options: Options) -> list[Fix]:
    """Insert every required wait and fence into `module`; returns what was inserted."""
    inserted: list[Fix] = []
    warnings = []
    functions = tmem_functions(module)
    callees = function_names(functions)
    for function in functions:
        with frozen_heap():
            analysis = KernelAnalysis(function, options)
            warnings.extend(unanalysed(function, analysis.cfg, callees))
            fixes = analysis.run().fixes
            del analysis
            _materialize(function, fixes)
        inserted.extend(fixes)
    emit_all_or_raise(warnings)
    return inserted


def _materialize(function: Operation, fixes: list[Fix]) -> None:
    upstream = _uses_nvvm(function)
    by_anchor: dict[tuple[Operation, bool], list[Fix]] = {}
    for fix in fixes:
        after = fix.action is Action.FENCE_AFTER
        by_anchor.setdefault((fix.anchor, after), []).append(fix)
    for (anchor, after), group in by_anchor.items():
        group.sort(key=lambda f: ACTION_ORDER[f.action])
        ops = [_make(f, upstream) for f in group]
        if after:
            Rewriter.insert_op(ops, InsertPoint.after(anchor))
            continue
        waits = [op for op, f in zip(ops, group) if f.action.retires is not None]
        fences = [op for op, f in zip(ops, group) if f.action.retires is None]
        # Waits go before a fence::before_thread_sync already in front of a barrier:
        # ld; wait::ld; fence::before_thread_sync; bar (the canonical order).
        target = anchor
        previous = anchor.prev_op
        while previous is not None and _is_fence_before(previous):
            target = previous
            previous = previous.prev_op
        if waits:
            Rewriter.insert_op(waits, InsertPoint.before(target))
        if fences:
            Rewriter.insert_op(fences, InsertPoint.before(anchor))


def _is_fence_before(op: Operation) -> bool:
    effect = tmem_effect(op)
    return effect is not None and effect.kind is EffectKind.FENCE_BEFORE


def _uses_nvvm(function: Operation) -> bool:
    """Insert nvvm.tcgen05 ops into upstream-NVVM kernels, tcgen05 ops into ours."""
    for op in function.walk():
        if op.name.startswith("nvvm.tcgen05."):
            return True
        if op.name.startswith("tcgen05."):
            return False
    return isinstance(function, llvm.FuncOp)


def _make(fix: Fix, upstream: bool) -> Operation:
    action = fix.action
    if upstream:
        if action.retires is not None:
            load = action is Action.WAIT_LD
            op: Operation = nvvm_tmem.Tcgen05WaitOp(nvvm_tmem.WaitKind.load if load else nvvm_tmem.WaitKind.store)
        else:
            before = action is Action.FENCE_BEFORE
            op = nvvm_tmem.Tcgen05FenceOp(nvvm_tmem.FenceKind.before if before else nvvm_tmem.FenceKind.after)
    elif action.retires is not None:
        load = action is Action.WAIT_LD
        op = tcgen05.WaitOp(tcgen05.WaitKind.load if load else tcgen05.WaitKind.store)
    else:
        before = action is Action.FENCE_BEFORE
        op = tcgen05.FenceOp(
            tcgen05.FenceKind.before_thread_sync if before else tcgen05.FenceKind.after_thread_sync
        )
    op.attributes[RULE_ATTR] = StringAttr("; ".join(rule.cite() for rule in fix.rules))
    return op


@dataclass(frozen=True)
class TmemInsertWaitsPass(ModulePass):
    """Insert tcgen05.wait::ld / wait::st where rules 1-4 require them and tcgen05.fence around
    barriers that order TMEM work between warps; minimal, idempotent, loop-aware."""

    name = "tmem-insert-waits"

    ptx_version: str | float = "8.6"
    """The targeted PTX ISA version: 9.4 and later pipeline same-warp st->ld, st->st, ld->st."""
    conservative: bool = False
    """Also wait::ld before an ld's registers are first used (the seed's stricter rule)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        insert_waits(op, parse_options(self.ptx_version, self.conservative, insert=True))
