"""Translation validation: run a kernel before and after a tmem-opt pass pipeline and compare the runs.

A pass is correct on a kernel when the transformed kernel leaves the same values in every buffer
and its misuse findings are the same (or, for a pass that repairs kernels such as
tmem-insert-waits, gone).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from tmem_dialect.diagnostics import DiagnosticError
from tmem_dialect.dialects import make_context
from tmem_dialect.interpreter.kernel import RunResult, run_kernel
from tmem_dialect.ir import parse_module, verify_diagnostics

ErrorPolicy = Literal["same", "fixed", "ignore"]


class PassUnavailable(LookupError):
    """A pass named in the pipeline is not registered (yet)."""


class PipelineFailed(RuntimeError):
    """The pipeline rejected the kernel or produced IR that does not verify."""


def pipeline_names(spec: str) -> list[str]:
    """Pass names of a pipeline spec like `tmem-pipeline,convert-tcgen05-to-nvvm{opt=1}`."""
    names, depth, current = [], 0, ""
    for ch in spec:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            names.append(current.strip())
            current = ""
            continue
        if depth == 0 and ch not in "{}":
            current += ch
    if current.strip():
        names.append(current.strip())
    return names


def apply_pipeline(
    module: ModuleOp, spec: str, extra_passes: dict[str, Callable[[], type[ModulePass]]] | None = None
) -> ModuleOp:
    """A transformed clone of `module` (the input is left alone); raises PassUnavailable/PipelineFailed.

    Pass names are those of tmem-opt (xDSL's passes and ours), plus `extra_passes`.
    """
    from xdsl.transforms import get_all_passes

    from tmem_dialect import lowering, passes

    available = {**get_all_passes(), **passes.get_passes(), **lowering.get_passes(), **(extra_passes or {})}
    missing = [n for n in pipeline_names(spec) if n not in available]
    if missing:
        raise PassUnavailable(f"pass {', '.join(missing)} is not registered")
    clone = module.clone()
    try:
        PassPipeline.parse_spec(available, spec).apply(make_context(), clone)
    except DiagnosticError as e:
        raise PipelineFailed("\n".join(d.render() for d in e.diagnostics)) from None
    broken = verify_diagnostics(clone)
    if broken:
        raise PipelineFailed(f"{spec} produced IR that does not verify:\n" + "\n".join(d.render() for d in broken))
    return clone


@dataclass
class Validation:
    """The two runs and every difference between them (empty: the pipeline preserved the kernel)."""

    before: RunResult
    after: RunResult
    transformed: ModuleOp
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


def _same_values(a: Any, b: Any) -> bool:
    if not isinstance(a, (np.ndarray, np.generic)) or not isinstance(b, (np.ndarray, np.generic)):
        return a == b  # a tensor map (an argument no run writes) or a Python scalar
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return bool((a.view(np.uint8) == b.view(np.uint8)).all()) if a.size else True


def validate(
    source: str | ModuleOp,
    pipeline: str,
    kernel: str | None = None,
    threads: int | None = None,
    args: Sequence[Any] = (),
    errors: ErrorPolicy = "same",
    extra_passes: dict[str, Callable[[], type[ModulePass]]] | None = None,
    **run_options: Any,
) -> Validation:
    """Run `kernel` before and after `pipeline` (tmem-opt pass names) on the same arguments.

    `errors`: "same" (the misuse kinds must match), "fixed" (the transformed kernel must be
    clean), or "ignore". Buffers are compared bit for bit.
    """
    module = parse_module(make_context(), source) if isinstance(source, str) else source
    transformed = apply_pipeline(module, pipeline, extra_passes)
    before = run_kernel(module, kernel, threads, args, **run_options)
    after = run_kernel(transformed, kernel, threads, args, **run_options)
    differences = []
    for i, (a, b) in enumerate(zip(before.args, after.args)):
        if not _same_values(a, b):
            a_arr, b_arr = np.asarray(a).reshape(-1), np.asarray(b).reshape(-1)
            where = np.flatnonzero(a_arr.view(np.uint8) != b_arr.view(np.uint8)) if a_arr.dtype == b_arr.dtype and a_arr.size == b_arr.size else []
            first = int(where[0]) // max(a_arr.dtype.itemsize, 1) if len(where) else 0
            differences.append(
                f"argument {i} differs after {pipeline}: element {first} is "
                f"{a_arr[first] if a_arr.size > first else '?'} before and "
                f"{b_arr[first] if b_arr.size > first else '?'} after"
            )
    if errors == "same" and before.kinds() != after.kinds():
        differences.append(
            f"findings differ after {pipeline}: before {_spelled(before.kinds())}, "
            f"after {_spelled(after.kinds())}"
        )
    if errors == "fixed" and after.errors:
        differences.append(f"the kernel still has errors after {pipeline}:\n{after.render()}")
    return Validation(before, after, transformed, differences)


def _spelled(kinds) -> list[str]:
    return sorted(k.value for k in kinds)
