"""The 2-CTA cluster variant of the warp-specialized GEMM (issue 11): numpy's product at both levels and schedules, ptxas, iree-opt, tmem-verify's gap, and the pair's handoff bugs.

examples/warp_specialized_gemm_pair.mlir: in each CTA of a pair a TMA warp fills its SMEM ring (the
bytes of both CTAs complete on the leader's full barrier), the leader's MMA warp issues M = 256
cta_group::2 mmas and commits with multicast to both CTAs' empty and accumulator-full barriers,
and each CTA's epilogue warpgroup reads its half of the accumulator and releases the stage on the
leader's acc_empty barrier (the peer through a remote arrive). The example declares its
accumulator ring and tmem-plan-columns writes the pair's allocation;
tests/data/warp_specialized_gemm_pair_hand.mlir is the same kernel allocated by hand.
"""

from __future__ import annotations

import shutil
import subprocess
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from xdsl.printer import Printer

from tmem_dialect.diagnostics import Severity
from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import TensorMap, run_kernel
from tmem_dialect.interpreter.validation import apply_pipeline
from tmem_dialect.ir import parse_module
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas
from tmem_dialect.passes.analysis import Options
from tmem_dialect.passes.verify import verify_findings

EXAMPLE = (Path(__file__).parent.parent / "examples" / "warp_specialized_gemm_pair.mlir").read_text()
HAND = (Path(__file__).parent / "data" / "warp_specialized_gemm_pair_hand.mlir").read_text()
IREE_OPT = shutil.which("iree-opt")
PTXAS = find_ptxas()

# The tensor maps over A (256 x 64) and B (128 x 64), K-major f16 (arguments 2, 3): each CTA's
# loader reads its 128 rows of A in one box, and 16 of a tile's 32 rows of B.
TMAP_A = TensorMap(buffer=2, dtype="f16", dims=(64, 256), box=(64, 128), swizzle="128B")
TMAP_B = TensorMap(buffer=3, dtype="f16", dims=(64, 128), box=(64, 16), swizzle="128B")


def _module(text: str, nvvm: bool):
    module = parse_module(make_context(), text, "warp_specialized_gemm_pair.mlir")
    return apply_pipeline(module, "tmem-plan-columns,convert-tcgen05-to-nvvm" if nvvm else "tmem-plan-columns")


def _run(text: str, nvvm: bool = False, seed: int = 0, **options):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((256, 64)).astype(np.float16)
    b = rng.standard_normal((128, 64)).astype(np.float16)
    args = [TMAP_A, TMAP_B, a.reshape(-1), b.reshape(-1), np.zeros(32768, np.float32)]
    return a, b, run_kernel(_module(text, nvvm), args=args, **options)


def _variant(old: str, new: str, text: str = EXAMPLE) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _not_notes(res) -> list:
    return [d for d in res.diagnostics if d.severity is not Severity.NOTE]


@pytest.mark.parametrize("text", [EXAMPLE, HAND], ids=["planned", "hand"])
@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("schedule", ["round-robin", "reverse", "random:5"])
def test_the_pair_computes_a_times_b_transposed(schedule: str, nvvm: bool, text: str):
    a, b, res = _run(text, nvvm, schedule=schedule)
    assert _not_notes(res) == [], res.render()
    reference = a.astype(np.float64) @ b.astype(np.float64).T
    np.testing.assert_allclose(res.args[4].reshape(256, 128), reference, rtol=1e-5, atol=1e-4)
    # each CTA's TMEM holds its 128 rows of the last two tiles (stages 0 and 1: tiles 2 and 3)
    for rank in range(2):
        rows = slice(128 * rank, 128 * rank + 128)
        got = res.tmem[rank][:, :64].view(np.float32)
        np.testing.assert_allclose(got, reference[rows, 64:128], rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("text", [EXAMPLE, HAND], ids=["planned", "hand"])
@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
def test_tmem_verify_proves_the_pair_rings(nvvm: bool, text: str):
    """Clean, warnings included: the peer's remote arrives on the leader's acc_empty (mapa to
    rank 0, run by both CTAs: 2 x 128 threads, its init count) and the TMA loads completing on the
    leader's full barrier (through mapa) are the rings they are; the wait on acc_empty runs in the
    leader only (under %is_leader)."""
    findings = verify_findings(_module(text, nvvm), Options())
    assert [d for _, d in findings if d.severity is not Severity.NOTE] == [], [d.message for _, d in findings]


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
def test_ptxas_assembles_it():
    ptx = emit_ptx(_module(EXAMPLE, True)).text
    for line in (".reqnctapercluster 2", "mapa.shared::cluster", "mbarrier.arrive.shared::cluster",
                 "tcgen05.mma.cta_group::2.kind::f16",
                 "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64",
                 ".cta_group::2"):
        assert line in ptx, line
    result = run_ptxas(ptx, "sm_100a", PTXAS)
    assert result.ok, result.output


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt not found (pip install iree-base-compiler==3.13.0)")
def test_iree_opt_accepts_the_nvvm_print():
    out = StringIO()
    Printer(stream=out).print_op(_module(EXAMPLE, True))
    for flags in ([], ["--mlir-print-op-generic"]):
        proc = subprocess.run([IREE_OPT, *flags, "-"], input=out.getvalue() + "\n", capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


# ---- the pair's handoffs, broken one at a time --------------------------------------------------

LEADER_FULL = "        %leader_full = nvvm.mapa %full_s, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>\n"
REMOTE_RELEASE = "      %leader_acc_empty = nvvm.mapa %acc_empty_s, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>\n"


def test_each_ctas_bytes_on_its_own_full_barrier_starve_the_leader():
    """The peer's loader completes its bytes on its own smem_full (mapa to its own rank): the
    leader's full barrier, armed for both CTAs' bytes, never completes. (Only the interpreter
    can tell: the bytes a TMA load completes are its tensor map's box, a run-time argument.)"""
    text = _variant(LEADER_FULL, "        %leader_full = nvvm.mapa %full_s, %rank : !llvm.ptr<3> -> !llvm.ptr<7>\n")
    _, _, res = _run(text)
    assert FindingKind.DEADLOCK in res.kinds(), res.render()
    assert any("transaction bytes outstanding" in d.message for d in res.errors), res.render()


def test_a_commit_without_multicast_leaves_the_peer_loader_waiting():
    """smem_empty committed to the leader only: the peer's loader never learns its stage is free."""
    text = _variant("tcgen05.commit %smem_empty_s multicast %both_ctas cta_group(2) : !llvm.ptr<3>",
                    "tcgen05.commit %smem_empty_s cta_group(2) : !llvm.ptr<3>")
    _, _, res = _run(text)
    assert FindingKind.DEADLOCK in res.kinds(), res.render()
    stuck = [d.message for d in res.errors if d.message.startswith("deadlock")]
    assert any("warp 6 waits forever" in m for m in stuck), stuck  # warp 0 of CTA 1


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
def test_the_peer_releasing_its_stage_before_wait_ld(nvvm: bool):
    """The flashinfer bug across the pair: the peer CTA's epilogue arrives on the leader's
    acc_empty before its tcgen05.wait::ld (the leader's waits first); the leader's next mma may
    overwrite the stage of the peer's TMEM that its ld still reads."""
    text = _variant("      tcgen05.wait load\n      tcgen05.fence before_thread_sync\n",
                    "      scf.if %is_leader {\n        tcgen05.wait load\n      }\n"
                    "      tcgen05.fence before_thread_sync\n")
    text = _variant("      %values = arith.bitcast %bits", "      tcgen05.wait load\n      %values = arith.bitcast %bits",
                    text)
    _, _, res = _run(text, nvvm)
    assert res.kinds() == {FindingKind.HANDOFF}, res.render()
    # CTA 1's epilogue warps are 8..11 (its warps are 6..11)
    assert all(any(f"tcgen05.ld of warp {w} " in d.message for w in range(8, 12)) for d in res.errors), res.render()


def test_epilogue_arrive_counts_must_cover_both_ctas():
    """acc_empty armed for one CTA's epilogue (128): its phases complete on half the releases, so
    the phase the leader's MMA waits for runs ahead of the arrivals and no arrival is left for it."""
    text = EXAMPLE.replace("%acc_empty, %c256_i32", "%acc_empty, %c128_i32").replace(
        "%acc_empty1, %c256_i32", "%acc_empty1, %c128_i32")
    for schedule in ("round-robin", "reverse"):
        _, _, res = _run(text, schedule=schedule)
        assert FindingKind.DEADLOCK in res.kinds(), res.render()
        assert any("0 of 128 arrivals" in d.message for d in res.errors), res.render()


def test_the_peer_loader_refilling_a_stage_the_leaders_mma_reads():
    """Only the leader's loader waits on smem_empty: the peer's TMA refills its SMEM stages before
    the leader's cta_group::2 mma consumed them (a TMA write into a stage an mma reads; here the
    earlier copy's data is overwritten unread, and C comes out wrong)."""
    text = _variant("        tcgen05.mbarrier.wait_parity %empty_s, %ph_fill : !llvm.ptr<3>\n",
                    "        scf.if %is_leader {\n          tcgen05.mbarrier.wait_parity %empty_s, %ph_fill : !llvm.ptr<3>\n"
                    "        }\n")
    for schedule in ("round-robin", "reverse"):
        _, _, res = _run(text, schedule=schedule)
        assert FindingKind.ASYNC_PENDING in res.kinds(), res.render()
        # warp 6 (the peer's loader) overwrites a stage whose earlier copy it never saw consumed
        # (or that the leader's mma may still read)
        assert any("tma_load of warp 6 writes @smem_" in d.message and "may still be" in d.message
                   for d in res.errors), res.render()


# ---- the same broken pairs, decided by tmem-verify ----------------------------------------------

STATIC_VARIANTS = {
    # the MMA warp's acc_empty wait in the leader: nothing arrives on the leader's barrier
    "release-to-the-wrong-cta": ((REMOTE_RELEASE, REMOTE_RELEASE.replace("%c0_i32", "%c1_i32")), FindingKind.DEADLOCK),
    # the peer's loader waits on its own smem_empty, which no commit reaches
    "commit-without-multicast": (("tcgen05.commit %smem_empty_s multicast %both_ctas cta_group(2) : !llvm.ptr<3>",
                                  "tcgen05.commit %smem_empty_s cta_group(2) : !llvm.ptr<3>"), FindingKind.DEADLOCK),
    # each CTA's epilogue on its own acc_empty: 128 of the leader's 256 arrivals, phases unproven
    "release-to-its-own-cta": ((REMOTE_RELEASE, REMOTE_RELEASE.replace("%c0_i32", "%rank")), FindingKind.HANDOFF),
    "peer-loader-without-empty-wait": (("        tcgen05.mbarrier.wait_parity %empty_s, %ph_fill : !llvm.ptr<3>\n",
                                        ("        scf.if %is_leader {\n          tcgen05.mbarrier.wait_parity %empty_s, "
                                         "%ph_fill : !llvm.ptr<3>\n        }\n")), FindingKind.ASYNC_PENDING),
}


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("variant", sorted(STATIC_VARIANTS))
def test_tmem_verify_reports_the_broken_pair(variant: str, nvvm: bool):
    (old, new), kind = STATIC_VARIANTS[variant]
    text = _variant(old, new)
    findings = verify_findings(_module(text, nvvm), Options())
    errors = [(k, d.message) for k, d in findings if d.severity is Severity.ERROR]
    assert kind in {k for k, _ in errors}, errors
    _, _, res = _run(text, nvvm)  # the interpreter too
    assert res.errors, res.render()


def test_the_starved_wait_names_the_cta_and_the_release():
    text = _variant(REMOTE_RELEASE, REMOTE_RELEASE.replace("%c0_i32", "%c1_i32"))
    findings = verify_findings(_module(text, False), Options())
    (diag,) = [d for k, d in findings if k is FindingKind.DEADLOCK]
    assert "never completes in CTA 0 of the cluster" in diag.message, diag.message
    assert [n.message for n in diag.notes] == ["nvvm.mbarrier.arrive arrives only on the mbarrier of CTA 1"]
