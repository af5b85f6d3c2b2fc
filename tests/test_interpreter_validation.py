"""Translation validation of the lowering and the passes on every kernel of the interpreter tests.

Each fragment kernel (every shape, num, pack/unpack) and each misuse kernel (bad and clean twin)
is run before and after the pipeline; buffers must match bit for bit and the misuse findings
must be the same kinds (a lowering must neither hide nor invent a race).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_interpreter_fragments import CASES as FRAGMENT_CASES
from test_interpreter_fragments import COLUMNS, REGS_PER_NUM, fragment_kernel
from test_interpreter_misuse import CASES as MISUSE_CASES
from test_interpreter_misuse import kernel as misuse_kernel

from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter.validation import PipelineFailed, validate

LOWERING = "convert-tcgen05-to-nvvm"


def _validate(text: str, pipeline: str, args, **options):
    return validate(text, pipeline, args=args, **options)


@pytest.mark.parametrize(
    "shape,num,packed", FRAGMENT_CASES, ids=[f"{s}.x{n}{'.pack' if p else ''}" for s, n, p in FRAGMENT_CASES]
)
def test_lowering_preserves_every_fragment(shape: str, num: int, packed: bool) -> None:
    regs = num * REGS_PER_NUM[shape]
    rng = np.random.default_rng(num + 7 * packed)
    pattern = rng.integers(0, 2**31, size=32 * COLUMNS, dtype=np.int64).astype(np.int32)
    values = rng.integers(0, 2**31, size=32 * regs, dtype=np.int64).astype(np.int32)
    args = [pattern, values, np.zeros(32 * regs, np.int32), np.zeros(32 * regs, np.int32)]
    v = _validate(fragment_kernel(shape, num, packed, 0, 0), LOWERING, args, kernel="frag")
    assert v.ok, "\n".join(v.differences)
    assert v.after.diagnostics == [], v.after.render()
    assert (v.after.args[3] == values).all()


MISUSE_PIPELINES = [LOWERING, "tmem-assign-lanes," + LOWERING]


@pytest.mark.parametrize("pipeline", MISUSE_PIPELINES)
@pytest.mark.parametrize("case", MISUSE_CASES, ids=[c.name for c in MISUSE_CASES])
def test_lowering_preserves_misuse_verdicts(case, pipeline: str) -> None:
    for body in (case.bad, case.good):
        text = misuse_kernel(body, case.threads)
        try:
            v = _validate(text, pipeline, [np.zeros(1024, np.int32)], kernel="k", **case.options)
        except PipelineFailed as e:
            # A lowering may reject a kernel statically (e.g. mixed cta_group); then the
            # interpreter must have found an error in it too.
            from tmem_dialect.interpreter import run_kernel

            before = run_kernel(text, kernel="k", args=[np.zeros(1024, np.int32)], **case.options)
            assert before.errors, f"{pipeline} rejected a kernel the interpreter finds clean:\n{e}"
            continue
        assert v.ok, "\n".join(v.differences)


# Missing waits and fences, which tmem-insert-waits repairs; a missing barrier (also a handoff
# finding) it never invents.
REPAIRABLE = [c for c in MISUSE_CASES if c.kind in {
    FindingKind.ANTI_DEPENDENCY, FindingKind.STORE_COMPLETION, FindingKind.DEALLOC_OUTSTANDING,
    FindingKind.HANDOFF, FindingKind.MISSING_FENCE} and "without a barrier" not in c.name]


def test_repairable_cases_exist() -> None:
    """The repair test below runs on real cases (the kinds became an enum once and the filter
    silently matched nothing)."""
    assert len(REPAIRABLE) >= 5


@pytest.mark.parametrize("case", REPAIRABLE, ids=lambda c: c.name)
def test_tmem_pipeline_repairs_missing_waits(case) -> None:
    """tmem-pipeline inserts the waits and fences: the racy kernels come out clean, same buffers."""
    text = misuse_kernel(case.bad, case.threads)
    v = _validate(text, "tmem-pipeline", [np.zeros(1024, np.int32)], kernel="k", errors="fixed",
                  **case.options)
    assert v.ok, "\n".join(v.differences)
    assert v.after.warnings == [], v.after.render()
