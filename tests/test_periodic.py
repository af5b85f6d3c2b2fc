"""Loop-indexed buffers: tmem-verify's per-iteration verdicts are the interpreter's, at both IR levels.

The kernels are the three of tests/filecheck/passes/verify_loop_indexed.mlir: a double buffer
indexed by i % 2, one indexed by (i + 1) & 1 (both legal), and one whose index (2 * i) % 2 never
moves (warp 0 refills the stage warp 4 reads). The static verdict (the kinds of the errors, no
warning) must be the interpreter's, on the tcgen05 kernel and on its NVVM lowering.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from tmem_dialect.diagnostics import Severity
from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module
from tmem_dialect.lowering.to_nvvm import ConvertTcgen05ToNVVMPass
from tmem_dialect.passes.analysis import Options
from tmem_dialect.passes.verify import verify_findings

CASES = (Path(__file__).parent / "filecheck" / "passes" / "verify_loop_indexed.mlir").read_text().split("// -----\n")
NAMES = ("stage-rem", "stage-and", "aliasing")


def _module(index: int, nvvm: bool) -> ModuleOp:
    ctx = make_context()
    module = parse_module(ctx, CASES[index], "verify_loop_indexed.mlir")
    if nvvm:
        ConvertTcgen05ToNVVMPass().apply(ctx, module)
    return module


def _kinds(pairs, severity: Severity) -> set[FindingKind]:
    return {kind for kind, d in pairs if d.severity is severity}


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("index", range(3), ids=NAMES)
def test_verify_and_interpreter_agree(index: int, nvvm: bool):
    static = verify_findings(_module(index, nvvm), Options())
    dynamic = [(f.kind, f.diagnostic) for f in run_kernel(_module(index, nvvm)).findings]
    assert _kinds(static, Severity.WARNING) == set() == _kinds(dynamic, Severity.WARNING)
    if index < 2:
        assert _kinds(static, Severity.ERROR) == set() == _kinds(dynamic, Severity.ERROR)
    else:
        errors = _kinds(static, Severity.ERROR)
        assert errors and errors <= _kinds(dynamic, Severity.ERROR)


def test_a_loop_without_a_barrier_compares_every_pair_of_iterations():
    """With the loop's barrier removed, warp 0's write of stage i % 2 in a later iteration can
    meet warp 4's read of the same stage: an error, not a proof or a guess."""
    text = CASES[0]
    barrier = "    tcgen05.fence before_thread_sync\n    nvvm.barrier\n    tcgen05.fence after_thread_sync\n    scf.if %w4"
    assert text.count(barrier) == 1
    module = parse_module(make_context(), text.replace(barrier, "    scf.if %w4"), "no_barrier.mlir")
    static = verify_findings(module, Options())
    assert _kinds(static, Severity.ERROR)
    assert not _kinds(static, Severity.WARNING)
