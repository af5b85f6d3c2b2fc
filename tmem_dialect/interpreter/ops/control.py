"""Control flow with per-lane divergence: scf.if/for/while, func, llvm.br/cond_br/switch/return, cf.br/cond_br.

scf.yield, scf.condition, func.return and func.call are xDSL's own (llvm.call is ours) implementations; the region
ops are overridden so that lanes taking different paths run under their own masks and their
results are merged lane by lane.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf, llvm, scf
from xdsl.interpreter import (
    PythonValues,
    ReturnedValues,
    Successor,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.traits import SymbolTable

from tmem_dialect.dialects.llvm_compat import AssumeOp
from tmem_dialect.dialects.llvm_switch import SwitchOp
from tmem_dialect.findings import FindingKind
from tmem_dialect.integers import as_signed, truth
from tmem_dialect.interpreter.sync import Aborted
from tmem_dialect.interpreter.values import is_uniform as _uniform
from tmem_dialect.interpreter.values import merge
from tmem_dialect.interpreter.warp import Branch, WarpInterpreter


def _merge_all(mask: np.ndarray, new: PythonValues, old: PythonValues | None) -> tuple:
    if old is None:
        return tuple(new)
    return tuple(merge(mask, n, o) for n, o in zip(new, old))


@register_impls
class ControlFunctions(ScfFunctions):
    """scf region ops under lane masks (yield/condition inherited from xDSL)."""

    @impl(scf.IfOp)
    def run_if(self, interpreter: WarpInterpreter, op: scf.IfOp, args: PythonValues):
        (cond,) = args
        mask = interpreter.mask
        taken = mask & cond
        if not taken.any() or (taken == mask).all():
            region = op.true_region if taken.any() else op.false_region
            return interpreter.run_ssacfg_region(region, ())
        results = None
        interpreter.set_mask(taken)
        results = interpreter.run_ssacfg_region(op.true_region, ())
        other = mask & ~cond
        if op.false_region.blocks:
            interpreter.set_mask(other)
            results = _merge_all(other, interpreter.run_ssacfg_region(op.false_region, ()), results)
        interpreter.set_mask(mask)
        return results

    @impl(scf.ForOp)
    def run_for(self, interpreter: WarpInterpreter, op: scf.ForOp, args: PythonValues):
        lb, ub, step, *carried = args
        mask = interpreter.mask
        loop_args = tuple(carried)
        stuck = mask & (lb < ub) & (step <= 0)
        if stuck.any():
            # A step of 0 (or below) never reaches the bound: the loop would run forever.
            lane = int(np.argmax(stuck))
            interpreter.machine.report(
                FindingKind.STEP_LIMIT, "error", op,
                f"scf.for with step {int(step[lane])} in warp {interpreter.warp} (thread "
                f"{interpreter.thread_id(lane)}) never reaches its upper bound: the loop does not terminate",
            )
            interpreter.machine.scheduler.abort()
            raise Aborted()
        if _uniform(lb, mask) and _uniform(ub, mask) and _uniform(step, mask):
            lane = int(np.argmax(mask))
            dtype = lb.dtype
            for i in range(int(lb[lane]), int(ub[lane]), int(step[lane])):
                iv = np.full(lb.shape, i, dtype=dtype)
                loop_args = interpreter.run_ssacfg_region(op.body, (iv, *loop_args), "for")
            return loop_args
        iv = lb
        active = mask & (iv < ub)
        while active.any():
            interpreter.set_mask(active)
            new = interpreter.run_ssacfg_region(op.body, (iv, *loop_args), "for")
            loop_args = _merge_all(active, new, loop_args)
            iv = np.where(active, iv + step, iv)
            active = active & (iv < ub)
        interpreter.set_mask(mask)
        return loop_args

    @impl(scf.WhileOp)
    def run_while(self, interpreter: WarpInterpreter, op: scf.WhileOp, args: PythonValues):
        mask = interpreter.mask
        active = mask
        loop_args = args
        results = None
        while True:
            interpreter.set_mask(active)
            cond, *forwarded = interpreter.run_ssacfg_region(op.before_region, loop_args, "while")
            stop = active & ~cond
            if stop.any():
                results = _merge_all(stop, forwarded, results)
            go = active & cond
            if not go.any():
                break
            interpreter.set_mask(go)
            loop_args = interpreter.run_ssacfg_region(op.after_region, tuple(forwarded), "while")
            active = go
        interpreter.set_mask(mask)
        return results if results is not None else ()

    @impl(scf.IndexSwitchOp)
    def run_index_switch(self, interpreter: WarpInterpreter, op: scf.IndexSwitchOp, args):
        (index,) = args
        mask = interpreter.mask
        cases = tuple(op.cases.get_values())
        results = None
        remaining = mask.copy()
        for case, region in zip(cases, op.case_regions):
            lanes = remaining & (index == case)
            if lanes.any():
                interpreter.set_mask(lanes)
                results = _merge_all(lanes, interpreter.run_ssacfg_region(region, ()), results)
                remaining &= ~lanes
        if remaining.any():
            interpreter.set_mask(remaining)
            results = _merge_all(remaining, interpreter.run_ssacfg_region(op.default_region, ()), results)
        interpreter.set_mask(mask)
        return results if results is not None else ()


@register_impls
class LLVMControlFunctions(FuncFunctions):
    """func.* (xDSL's) plus llvm.br / llvm.cond_br and cf.br / cf.cond_br (divergent) / llvm.return."""

    @impl_terminator(llvm.BrOp)
    def run_br(self, interpreter: WarpInterpreter, op: llvm.BrOp, args: PythonValues):
        return Successor(op.successor, args), ()

    @impl_terminator(cf.BranchOp)
    def run_cf_br(self, interpreter: WarpInterpreter, op: cf.BranchOp, args: PythonValues):
        return Successor(op.successor, args), ()

    @impl_terminator(llvm.CondBrOp)
    def run_cond_br(self, interpreter: WarpInterpreter, op: llvm.CondBrOp, args: PythonValues):
        return _cond_br(interpreter, op, args), ()

    @impl_terminator(cf.ConditionalBranchOp)
    def run_cf_cond_br(self, interpreter: WarpInterpreter, op: cf.ConditionalBranchOp, args: PythonValues):
        return _cond_br(interpreter, op, args), ()

    @impl_terminator(SwitchOp)
    def run_switch(self, interpreter: WarpInterpreter, op: SwitchOp, args: PythonValues):
        return _switch(interpreter, op, args), ()

    @impl_terminator(llvm.ReturnOp)
    def run_llvm_return(self, interpreter: WarpInterpreter, op: llvm.ReturnOp, args: PythonValues):
        return ReturnedValues(args), ()

    @impl(llvm.CallOp)
    def run_llvm_call(self, interpreter: WarpInterpreter, op: llvm.CallOp, args: PythonValues):
        """A device function call: the callee's body runs under the caller's lanes, and its results
        merge lane by lane where lanes return at different points. The run's precheck has found
        the callee's body, and no recursion (SSA values are one flat map per warp)."""
        assert op.callee is not None
        callee = SymbolTable.lookup_symbol(op, op.callee)
        assert isinstance(callee, llvm.FuncOp)
        return interpreter.run_ssacfg_region(callee.body, args, callee.sym_name.data)

    @impl(AssumeOp)
    def run_assume(self, interpreter: WarpInterpreter, op: AssumeOp, args: PythonValues):
        """llvm.intr.assume (LangRef): a false condition, or a pointer of an "align"(p, n[, offset])
        bundle with p - offset not a multiple of n, is undefined behaviour: reported as an error."""
        cond, *bundle = args
        broken = interpreter.mask & ~truth(cond)
        problem = "its condition is false"
        tags = op.op_bundle_tags.data if op.op_bundle_tags is not None else ()
        at = 0
        for tag, size in zip(tags, op.op_bundle_sizes.get_values()):
            part, at = bundle[at: at + size], at + size
            if tag.data == "align" and size >= 2:  # type: ignore[attr-defined]
                offset = part[2].astype(np.int64) if size > 2 else 0
                align = part[1].astype(np.int64)
                bad = interpreter.mask & (align > 0) & ((part[0].astype(np.int64) - offset) % np.maximum(align, 1) != 0)
                if bad.any() and not broken.any():
                    lane = int(np.argmax(bad))
                    broken, problem = bad, f"address {int(part[0][lane]):#x} is not aligned to {int(align[lane])} bytes"
        if broken.any():
            lane = int(np.argmax(broken))
            interpreter.machine.report(
                FindingKind.MEMORY_FAULT if problem.startswith("address") else FindingKind.ERROR, "error", op,
                f"llvm.intr.assume does not hold in warp {interpreter.warp} (thread "
                f"{interpreter.thread_id(lane)}): {problem}; the behaviour is undefined", key=interpreter.warp)
        return ()


def _cond_br(interpreter: WarpInterpreter, op: llvm.CondBrOp | cf.ConditionalBranchOp, args: PythonValues):
    """A two-way branch: the lanes whose condition holds go to the then block, the others to
    the else block (both, when the warp diverges)."""
    cond = args[0]
    n_then = len(op.then_arguments)
    then_args, else_args = args[1 : 1 + n_then], args[1 + n_then :]
    mask = interpreter.mask
    taken = mask & cond
    if not taken.any():
        return Successor(op.else_block, else_args)
    if (taken == mask).all():
        return Successor(op.then_block, then_args)
    return Branch([(taken, op.then_block, then_args), (mask & ~cond, op.else_block, else_args)])


def _switch(interpreter: WarpInterpreter, op: SwitchOp, args: PythonValues):
    """A multi-way branch: each lane goes to the case its value equals (the first, as LLVM's values
    are distinct), the others to the default block."""
    value = np.asarray(args[0])
    n_default = len(op.default_operands)
    case_args = args[1 + n_default :]
    remaining = interpreter.mask.copy()
    targets = []
    start = 0
    for case_value, block, operands in op.case_list():
        lanes = remaining & (value == as_signed(case_value, op.value.type.width.data))
        if lanes.any():
            targets.append((lanes, block, case_args[start : start + len(operands)]))
            remaining &= ~lanes
        start += len(operands)
    if remaining.any():
        targets.append((remaining, op.default_destination, args[1 : 1 + n_default]))
    if len(targets) == 1:
        return Successor(targets[0][1], targets[0][2])
    return Branch(targets)

