"""Handoffs through mbarriers: tmem-verify and the interpreter agree, at both IR levels.

The kernels are the three of tests/filecheck/passes/verify_mbarrier_handoff.mlir (legal; the
reader's arrive before its wait::ld; a second wait on the first phase's parity). For each, the
static verdict (the kinds of the errors tmem-verify reports) must be the interpreter's, on the
tcgen05 kernel and on its NVVM lowering; and tmem-insert-waits must leave the legal kernel alone.
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

CASES = (Path(__file__).parent / "filecheck" / "passes" / "verify_mbarrier_handoff.mlir").read_text()
NAMES = ("legal", "early-release", "stale-parity")


def _module(index: int, nvvm: bool) -> ModuleOp:
    ctx = make_context()
    module = parse_module(ctx, CASES.split("// -----\n")[index], "verify_mbarrier_handoff.mlir")
    if nvvm:
        ConvertTcgen05ToNVVMPass().apply(ctx, module)
    return module


def _static(module: ModuleOp) -> tuple[set[FindingKind], set[FindingKind]]:
    found = verify_findings(module, Options())
    errors = {k for k, d in found if d.severity is Severity.ERROR}
    warnings = {k for k, d in found if d.severity is Severity.WARNING}
    return errors, warnings


def _dynamic(module: ModuleOp) -> tuple[set[FindingKind], set[FindingKind]]:
    result = run_kernel(module)
    errors = {f.kind for f in result.findings if f.diagnostic.severity is Severity.ERROR}
    warnings = {f.kind for f in result.findings if f.diagnostic.severity is Severity.WARNING}
    return errors, warnings


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("index", range(3), ids=NAMES)
def test_verify_and_interpreter_agree(index: int, nvvm: bool):
    static_errors, static_warnings = _static(_module(index, nvvm))
    dynamic_errors, dynamic_warnings = _dynamic(_module(index, nvvm))
    assert static_warnings == set() and dynamic_warnings == set()
    if index == 0:
        assert static_errors == dynamic_errors == set()
    else:
        # Every kind of error tmem-verify reports, the interpreter reports too.
        assert static_errors and static_errors <= dynamic_errors


def test_the_early_release_is_reported_at_the_arrive():
    found = [d for k, d in verify_findings(_module(1, False), Options()) if d.severity is Severity.ERROR]
    assert len(found) == 1
    arrive_line = next(
        i for i, line in enumerate(CASES.split("// -----\n")[1].splitlines(), 1)
        if "tcgen05.mbarrier.arrive %empty" in line
    )
    assert found[0].location is not None and found[0].location.line == arrive_line
    assert found[0].message.startswith("this arrive releases TMEM cells")
    assert [n.message for n in found[0].notes] == ["the tcgen05.ld of warp 0", "the tcgen05.mma of warp 4"]


def test_releases_from_several_warps_to_a_count_1_mbarrier_prove_nothing():
    """Two warps committing to a count-1 mbarrier complete its phases in either order: a wait
    on parity 0 may observe the readers' own commit (which tracks nothing and arrives at once),
    so nothing orders their ld after the mma: both tools report the race."""
    legal = CASES.split("// -----\n")[0]
    marker = "    tcgen05.mbarrier.wait_parity %full, %c0_i32 : !llvm.ptr<3>\n"
    assert legal.count(marker) == 1
    other = legal.replace(marker, "    tcgen05.commit %full : !llvm.ptr<3>\n" + marker)
    module = parse_module(make_context(), other, "other.mlir")
    assert FindingKind.ASYNC_PENDING in _static(module)[0] & _dynamic(module)[0]


RINGS = (Path(__file__).parent / "filecheck" / "passes" / "verify_mbarrier_rings.mlir").read_text()
RING_NAMES = ("legal", "early-release", "producer-parity", "consumer-parity", "stage-count")


def _case(cases: str, index: int, nvvm: bool) -> ModuleOp:
    """Kernel `index` of a split-input lit file, at the tcgen05 level or lowered to NVVM."""
    ctx = make_context()
    module = parse_module(ctx, cases.split("// -----\n")[index], "cases.mlir")
    if nvvm:
        ConvertTcgen05ToNVVMPass().apply(ctx, module)
    return module


def _ring(index: int, nvvm: bool) -> ModuleOp:
    return _case(RINGS, index, nvvm)


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("index", range(5), ids=RING_NAMES)
def test_rings_verify_and_interpreter_agree(index: int, nvvm: bool):
    """A 2-stage TMEM ring over 6 tiles: clean in both tools, or an error in both."""
    static_errors, static_warnings = _static(_ring(index, nvvm))
    dynamic_errors, dynamic_warnings = _dynamic(_ring(index, nvvm))
    if index == 0:
        assert static_errors == static_warnings == dynamic_errors == dynamic_warnings == set()
    else:
        assert static_errors and dynamic_errors
    if index == 1:
        assert FindingKind.HANDOFF in static_errors & dynamic_errors
    if index == 2:
        assert FindingKind.DEADLOCK in static_errors & dynamic_errors


CARRIED = (Path(__file__).parent / "filecheck" / "passes" / "verify_mbarrier_carried.mlir").read_text()
CARRIED_NAMES = ("pipeline-state", "pipeline-state-initial-phase", "pipeline-state-reset-at-n-1",
                 "pipeline-state-no-flip", "phase-flip", "phase-flip-initial-phase", "phase-flip-missing",
                 "phase-flip-every-other-iteration", "pipeline-state-a-stage-ahead")


def _carried(index: int, nvvm: bool) -> ModuleOp:
    return _case(CARRIED, index, nvvm)


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("index", range(len(CARRIED_NAMES)), ids=CARRIED_NAMES)
def test_carried_rings_verify_and_interpreter_agree(index: int, nvvm: bool):
    """Stage and phase kept in loop registers (CUTLASS's PipelineState, Triton's phase ^= 1):
    the legal kernels are clean in both tools, each buggy twin an error in both."""
    static_errors, static_warnings = _static(_carried(index, nvvm))
    dynamic_errors, dynamic_warnings = _dynamic(_carried(index, nvvm))
    if index in (0, 4):
        assert static_errors == static_warnings == dynamic_errors == dynamic_warnings == set()
    elif index == 8:  # not of the common form: warnings that name it; the run finds the deadlock
        # (and the dealloc, which no proven order puts after the mma whose cells it surely frees,
        # is an error: the kernel is broken)
        assert static_errors == {FindingKind.ASYNC_PENDING} and FindingKind.UNPROVEN in static_warnings
        assert FindingKind.DEADLOCK in dynamic_errors
    else:
        assert static_errors and dynamic_errors
    if index in (1, 5):  # both sides wait for the other's release of the same iteration
        assert FindingKind.DEADLOCK in static_errors & dynamic_errors
