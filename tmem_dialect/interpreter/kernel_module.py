"""What run_kernel runs of a compiler's module: the kernels and globals of its gpu.modules, inline asm lifted.

CuTe DSL puts its kernel (an llvm.func with nvvm.kernel) and the dynamic shared memory global in a
`gpu.module` beside host functions full of `cuda.*` ops, which no kernel calls and the run ignores.
Triton writes most tcgen05 work as `llvm.inline_asm`: the run lifts it to nvvm ops with the PTX
front end (lift-inline-asm, as tmem-verify's path does); asm left unlifted cannot run, and the
precheck reports it at the op with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import Attribute, Operation
from xdsl.traits import SymbolTable

from tmem_dialect.frontend.lift_inline_asm import BARRIER_INTRINSICS, lift_all


def symbol_tables(root: Operation) -> Iterator[Operation]:
    """The module and every symbol table nested in it at module level (gpu.module, builtin.module)."""
    yield root
    for region in root.regions:
        for block in region.blocks:
            for op in block.ops:
                if op.has_trait(SymbolTable):
                    yield from symbol_tables(op)


def module_level_ops(root: Operation) -> Iterator[Operation]:
    """The ops directly in the module or in one of its nested symbol tables (functions, globals)."""
    for table in symbol_tables(root):
        for region in table.regions:
            for block in region.blocks:
                yield from block.ops


def reachable_functions(module: ModuleOp, kernel: Operation) -> list[Operation]:
    """The kernel and every function it calls, directly or not (callees looked up from the call)."""
    out, todo, seen = [], [kernel], set()
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        out.append(f)
        for op in f.walk():
            if isinstance(op, (func.CallOp, llvm.CallOp)) and op.callee is not None:
                callee = SymbolTable.lookup_symbol(op, op.callee)
                if callee is not None:
                    todo.append(callee)
    return out


def call_problem(module: ModuleOp, op: llvm.CallOp, callers: tuple[str, ...]) -> str | None:
    """Why the interpreter cannot run this llvm.call (None: it can): an indirect call, a callee
    without a body, or recursion (`callers` are the functions on the path from the kernel)."""
    if op.callee is None:
        return "an indirect llvm.call"
    callee = SymbolTable.lookup_symbol(op, op.callee)
    name = op.callee.root_reference.data
    if not isinstance(callee, llvm.FuncOp) or not callee.body.blocks:
        return f"llvm.call of @{name}, which has no body here"
    if name in callers:
        return f"llvm.call of @{name} is recursive ({' -> '.join((*callers, name))})"
    for inner in callee.walk():
        if isinstance(inner, llvm.CallOp) and (problem := call_problem(module, inner, (*callers, name))):
            return problem
    return None


def _is_lifted(op: Operation) -> bool:
    return isinstance(op, llvm.InlineAsmOp) or (
        isinstance(op, llvm.CallIntrinsicOp) and op.intrin.data in BARRIER_INTRINSICS
    )


def with_inline_asm_lifted(module: ModuleOp, copy: bool) -> tuple[ModuleOp, dict[Operation, str]]:
    """The module with its inline asm and NVVM barrier intrinsics lifted (lift-inline-asm; a clone
    when `copy`; the module itself when it has neither), and the asm ops left, each with why the
    front end could not lift it."""
    if not any(_is_lifted(op) for op in module.walk()):
        return module, {}
    if copy:
        module = module.clone()
    return module, dict(lift_all(module))


def leaf_types(t: Attribute, in_aggregate: bool = False) -> list[Attribute]:
    """The run's arguments a parameter of type `t` takes: a by-value struct (CuTe's tensor and
    TiledMma structs) takes its fields in order, as the PTX parameters it is passed as (a vector
    field element by element, an empty struct nothing); any other parameter takes one."""
    if isinstance(t, llvm.LLVMStructType):
        return [leaf for m in t.types.data for leaf in leaf_types(m, True)]
    if isinstance(t, llvm.LLVMArrayType):
        return leaf_types(t.type, True) * t.size.data
    if in_aggregate and isinstance(t, VectorType):
        return [t.get_element_type()] * int(np.prod(t.get_shape()))
    return [t]


def regroup(t: Attribute, leaves: Iterator[Any], in_aggregate: bool = False) -> Any:
    """The per-warp value of a parameter of type `t` from its leaves' values (a struct is a tuple)."""
    if isinstance(t, llvm.LLVMStructType):
        return tuple(regroup(m, leaves, True) for m in t.types.data)
    if isinstance(t, llvm.LLVMArrayType):
        return tuple(regroup(t.type, leaves, True) for _ in range(t.size.data))
    if in_aggregate and isinstance(t, VectorType):
        return np.stack([next(leaves) for _ in range(int(np.prod(t.get_shape())))], axis=1)
    return next(leaves)
