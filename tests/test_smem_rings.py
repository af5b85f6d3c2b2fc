"""SMEM rings fed by TMA: tmem-verify's verdict on the warp-specialized GEMM's SMEM ring and its buggy twins agrees with the interpreter's, at both IR levels.

The kernels are the cases of tests/filecheck/passes/verify_smem_rings.mlir: the legal ring
(examples/warp_specialized_gemm.mlir); the loader's TMA refilling a stage without waiting on
its empty barrier; that wait with the consumer's parity; the MMA warp releasing the stage with
an mbarrier.arrive (which does not track its mmas) instead of a tcgen05.commit.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from tmem_dialect.diagnostics import Severity
from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import TensorMap, run_kernel
from tmem_dialect.ir import parse_module
from tmem_dialect.lowering.to_nvvm import ConvertTcgen05ToNVVMPass
from tmem_dialect.passes.analysis import Options
from tmem_dialect.passes.verify import verify_findings

# The cases' shapes (2 SMEM stages, 4 tiles: B is 128 x 64, C 128 x 128), as the example had them.
TMAP_A = TensorMap(buffer=2, dtype="f16", dims=(64, 128), box=(64, 128), swizzle="128B")
TMAP_B = TensorMap(buffer=3, dtype="f16", dims=(64, 128), box=(64, 32), swizzle="128B")


def _operands(seed: int):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((128, 64)).astype(np.float16), rng.standard_normal((128, 64)).astype(np.float16)


CASES = (Path(__file__).parent / "filecheck" / "passes" / "verify_smem_rings.mlir").read_text().split("// -----\n")
NAMES = ("legal", "refill-without-empty-wait", "empty-wait-parity", "arrive-instead-of-commit")


def _module(index: int, nvvm: bool) -> ModuleOp:
    ctx = make_context()
    module = parse_module(ctx, CASES[index], "verify_smem_rings.mlir")
    if nvvm:
        ConvertTcgen05ToNVVMPass().apply(ctx, module)
    return module


def _static(index: int, nvvm: bool) -> tuple[set[FindingKind], set[FindingKind]]:
    found = verify_findings(_module(index, nvvm), Options())
    return ({k for k, d in found if d.severity is Severity.ERROR},
            {k for k, d in found if d.severity is Severity.WARNING})


def _dynamic(index: int, nvvm: bool) -> tuple[set[FindingKind], set[FindingKind]]:
    a, b = _operands(0)
    args = [TMAP_A, TMAP_B, a.reshape(-1), b.reshape(-1), np.zeros(16384, np.float32)]
    result = run_kernel(_module(index, nvvm), args=args)
    return ({f.kind for f in result.findings if f.diagnostic.severity is Severity.ERROR},
            {f.kind for f in result.findings if f.diagnostic.severity is Severity.WARNING})


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("index", [0, 2, 3], ids=[NAMES[i] for i in (0, 2, 3)])
def test_verify_and_interpreter_agree(index: int, nvvm: bool):
    static_errors, static_warnings = _static(index, nvvm)
    dynamic_errors, dynamic_warnings = _dynamic(index, nvvm)
    assert static_warnings == set() and dynamic_warnings == set()
    if index == 0:
        assert static_errors == dynamic_errors == set()
    else:
        # Every kind of error tmem-verify reports, the interpreter reports too.
        assert static_errors and static_errors <= dynamic_errors, (static_errors, dynamic_errors)


def test_the_released_stage_is_overwritten_while_the_mma_reads_it():
    """An arrive instead of the commit: the TMA overwrites operands an mma still reads, which
    both tools report as that kind (the interpreter at the copy, producers.check_shared_write)."""
    assert _static(3, False)[0] == {FindingKind.ASYNC_PENDING}
    assert FindingKind.ASYNC_PENDING in _dynamic(3, False)[0]


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
def test_a_refill_without_the_empty_wait_is_an_error_in_both_tools(nvvm: bool):
    """The loader never waits on smem_empty: tmem-verify reports the refill of a stage an mma may
    still read at each TMA; the interpreter sees the loader run ahead of the MMA warp, which
    overruns smem_full's phases (a deadlock), before any overwrite of an operand being read."""
    static_errors, static_warnings = _static(1, nvvm)
    assert static_errors == {FindingKind.ASYNC_PENDING} and static_warnings == set()
    found = verify_findings(_module(1, nvvm), Options())
    assert len(found) == 2 and all("tma" in d.message or "cp.async.bulk" in d.message for _, d in found)
    assert all(d.location is not None and "tma_load" in CASES[1].splitlines()[d.location.line - 1]
               for _, d in found)
    dynamic_errors, _ = _dynamic(1, nvvm)
    assert FindingKind.DEADLOCK in dynamic_errors


def _variant(index: int, old: str, new: str) -> str:
    assert CASES[index].count(old) == 1, old
    return CASES[index].replace(old, new)


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
def test_an_unknown_trip_count_is_a_warning(nvvm: bool):
    """Without the empty wait, a ring loop whose trip count is a kernel argument may refill a
    stage an mma still reads: a warning that says so (not an error: it may run at most N times)."""
    variant = _variant(1, "%c: memref<16384xf32>)", "%c: memref<16384xf32>, %n: index)")
    assert variant.count("to %tiles step") == 3
    variant = variant.replace("to %tiles step", "to %n step")
    ctx = make_context()
    module = parse_module(ctx, variant, "verify_smem_rings.mlir")
    if nvvm:
        ConvertTcgen05ToNVVMPass().apply(ctx, module)
    found = verify_findings(module, Options())
    assert all(d.severity is not Severity.ERROR for _, d in found)
    refills = [d for _, d in found if "refills stage" in d.message or "not the stage t % N of a ring" in d.message]
    if not nvvm:
        assert len(refills) == 2 and all(d.severity is Severity.WARNING and "its trip count is not a constant"
                                         in d.message for d in refills)
    else:
        # A loop of blocks with a run-time bound is no ring counter at the NVVM level: the TMA's
        # mbarrier is not of the ring form, which the warning says, naming it and the op.
        assert len(refills) == 2 and all(d.severity is Severity.WARNING and "(%full_s)" in d.message
                                         and "cp.async.bulk.tensor" in d.message for d in refills)


@pytest.mark.parametrize("tiles", [1, 2, 3, 5, 8])
def test_a_refill_needs_more_trips_than_stages(tiles: int):
    """Without the empty wait, the 2-stage ring's TMA refills a stage only from iteration 2 on:
    an error naming the trip count exactly when the loop runs more than 2 times."""
    text = _variant(1, "%tiles = arith.constant 4 : index", f"%tiles = arith.constant {tiles} : index")
    ctx = make_context()
    found = [d for _, d in verify_findings(parse_module(ctx, text, "verify_smem_rings.mlir"), Options())
             if "refills stage" in d.message]
    if tiles <= 2:
        assert found == []
    else:
        assert len(found) == 2 and all(d.severity is Severity.ERROR and f"the loop runs {tiles} times" in d.message
                                       for d in found)
