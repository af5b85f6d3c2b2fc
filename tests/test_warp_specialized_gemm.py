"""The warp-specialized persistent GEMM example (issue 11): numpy's product, clean in both tools at both levels, and its ring bugs caught by both.

examples/warp_specialized_gemm.mlir: a TMA loader warp fills a 2-stage SMEM ring, an MMA warp
fills a 2-stage TMEM accumulator ring (one declared buffer, its stage's columns added at run time,
allocated by tmem-plan-columns), an epilogue warpgroup drains it, over 4 output tiles.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from example_sources import planned
from xdsl.dialects.builtin import ModuleOp

from tmem_dialect.diagnostics import Severity
from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import TensorMap, run_kernel
from tmem_dialect.ir import parse_module
from tmem_dialect.lowering.to_nvvm import ConvertTcgen05ToNVVMPass
from tmem_dialect.passes.analysis import Options
from tmem_dialect.passes.verify import verify_findings

EXAMPLE = (Path(__file__).parent.parent / "examples" / "warp_specialized_gemm.mlir").read_text()


def _module(text: str, nvvm: bool) -> ModuleOp:
    """The kernel as tmem-plan-columns allocates its TMEM accumulator ring (then lowered to NVVM)."""
    ctx = make_context()
    module = parse_module(ctx, planned(text, "warp_specialized_gemm.mlir"), "warp_specialized_gemm.mlir")
    if nvvm:
        ConvertTcgen05ToNVVMPass().apply(ctx, module)
    return module


def _operands(seed: int):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((128, 64)).astype(np.float16), rng.standard_normal((256, 64)).astype(np.float16)


# The tensor maps the loader's TMA reads A and B through: K-major f16 (arguments 2, 3), A (64 x
# 128) in one box, B (64 x 256) in 64 x 32 boxes (one per output tile), in the 128-byte swizzle.
TMAP_A = TensorMap(buffer=2, dtype="f16", dims=(64, 128), box=(64, 128), swizzle="128B")
TMAP_B = TensorMap(buffer=3, dtype="f16", dims=(64, 256), box=(64, 32), swizzle="128B")


def _run(text: str, nvvm: bool = False, seed: int = 0, **options):
    a, b = _operands(seed)
    args = [TMAP_A, TMAP_B, a.reshape(-1), b.reshape(-1), np.zeros(32768, np.float32)]
    res = run_kernel(_module(text, nvvm), args=args, **options)
    return a, b, res


def _variant(old: str, new: str) -> str:
    assert EXAMPLE.count(old) == 1, old
    return EXAMPLE.replace(old, new)


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("schedule", ["round-robin", "reverse", "random:5"])
def test_the_example_computes_a_times_b_transposed(schedule: str, nvvm: bool):
    a, b, res = _run(EXAMPLE, nvvm, schedule=schedule)
    assert not [d for d in res.diagnostics if d.severity is not Severity.NOTE], res.render()
    reference = a.astype(np.float32) @ b.astype(np.float32).T
    np.testing.assert_allclose(res.args[4].reshape(128, 256), reference, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
def test_tmem_verify_proves_the_rings(nvvm: bool):
    assert verify_findings(_module(EXAMPLE, nvvm), Options()) == []


# Each bug: (what it changes, the finding kind tmem-verify reports, the one the run reports).
BUGS = {
    "release-before-wait-ld": (
        ("      tcgen05.wait load\n      tcgen05.fence before_thread_sync\n      %token = tcgen05.mbarrier.arrive %acc_empty_s",
         "      tcgen05.fence before_thread_sync\n      %token = tcgen05.mbarrier.arrive %acc_empty_s"),
        FindingKind.HANDOFF, FindingKind.HANDOFF,
    ),
    # The MMA warp runs ahead over all 8 tiles: the epilogue's acc_full waits then observe phases
    # of the wrong round and the run hangs (the refill race tmem-verify names comes first on the
    # device, but no interleaving of this run reaches it before the hang).
    "mma-skips-acc-empty": (
        ("      tcgen05.mbarrier.wait_parity %acc_empty_s, %ph_fill : !llvm.ptr<3>\n", ""),
        FindingKind.HANDOFF, FindingKind.DEADLOCK,
    ),
    "epilogue-skips-acc-full": (
        ("      tcgen05.mbarrier.wait_parity %acc_full_s, %ph : !llvm.ptr<3>\n", ""),
        FindingKind.ASYNC_PENDING, FindingKind.ASYNC_PENDING,
    ),
}


# The interleaving the interpreter runs each bug under. Without the acc_full wait the epilogue's
# tcgen05.ld races the mma: run before the MMA warp issues it the race is a handoff (the mma
# overwrites what the ld reads); the async-pending form (the ld while the mma is in flight) needs
# the MMA warp to issue first, as round-robin lets it with the 4-stage SMEM ring (the loader runs
# ahead; with 2 stages it took random:5).
SCHEDULES: dict[str, str] = {}


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_ring_bugs_are_errors_in_both_tools(bug: str):
    (old, new), static_kind, dynamic_kind = BUGS[bug]
    text = _variant(old, new)
    static = {k for k, d in verify_findings(_module(text, False), Options()) if d.severity is Severity.ERROR}
    _, _, res = _run(text, schedule=SCHEDULES.get(bug, "round-robin"))
    dynamic = {f.kind for f in res.findings if f.diagnostic.severity is Severity.ERROR}
    assert dynamic_kind in dynamic, res.render()
    assert static_kind in static, static


def _elect_inside_the_tile_loop() -> str:
    """The MMA warp's variant where every lane waits on the barriers and only the k loop and the
    commits are elected (CUTLASS's shape): an elect branch holding a loop, inside a loop."""
    text = _variant("    %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32\n    %elected = tcgen05.elect_sync\n"
                    "    scf.if %elected {\n      scf.for %t = %c0 to %tiles step %c1 {",
                    "    %b_base = llvm.ptrtoint %sb : !llvm.ptr<3> to i32\n    scf.for %t = %c0 to %tiles step %c1 {")
    text = text.replace("        scf.for %k = %c0 to %c4 step %c1 {\n          %k_i32",
                        "        %elected = tcgen05.elect_sync\n        scf.if %elected {\n"
                        "        scf.for %k = %c0 to %c4 step %c1 {\n          %k_i32", 1)
    return text.replace("        tcgen05.commit %acc_full_s : !llvm.ptr<3>\n      }\n    }\n  }",
                        "        tcgen05.commit %acc_full_s : !llvm.ptr<3>\n        }\n      }\n  }", 1)


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
def test_elect_inside_the_tile_loop_runs_clean(nvvm: bool):
    """At the NVVM level the lanes waiting at the elect branch's join (which post-dominates the
    elected lane's k loop) must wait for that lane: run first, they would go round the tile loop
    and wait on the mbarrier its commit completes (the interpreter's reconvergence, warp.py)."""
    text = _elect_inside_the_tile_loop()
    a, b, res = _run(text, nvvm=nvvm)
    assert not [d for d in res.diagnostics if d.severity is not Severity.NOTE], res.render()
    np.testing.assert_allclose(res.args[4].reshape(128, 256), a.astype(np.float32) @ b.astype(np.float32).T,
                               rtol=1e-5, atol=1e-4)
    assert verify_findings(_module(text, nvvm), Options()) == []
