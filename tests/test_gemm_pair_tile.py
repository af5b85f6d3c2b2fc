"""The CTA-pair GEMM tile example (issue 10): numpy's product from a cta_group::2 pair at both levels, tmem-run --cta-pair, tmem-verify, ptxas and iree-opt; and what breaks it.

examples/gemm_pair_tile.mlir: a cluster of 2 CTAs, each holding 128 rows of A and of B in its
shared memory; the leader CTA issues M = 256 cta_group::2 mmas and commits with multicast to both
CTAs' mbarriers; each CTA reads its 128-row half of D from its own TMEM. The example declares its
accumulator and tmem-plan-columns writes the pair's allocation; the bug classes of the allocation
protocol are edits of tests/data/gemm_pair_tile_hand.mlir, the same kernel allocated by hand.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tmem_dialect.diagnostics import Severity
from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.interpreter.validation import apply_pipeline
from tmem_dialect.ir import parse_module
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas
from tmem_dialect.passes.analysis import Options
from tmem_dialect.passes.verify import verify_findings
from tmem_dialect.tools.opt import run_tool
from tmem_dialect.tools.run import TmemRun

PATH = Path(__file__).parent.parent / "examples" / "gemm_pair_tile.mlir"
EXAMPLE = PATH.read_text()
HAND = (Path(__file__).parent / "data" / "gemm_pair_tile_hand.mlir").read_text()
IREE_OPT = shutil.which("iree-opt")
PTXAS = find_ptxas()
# The tile ops become per-warp tcgen05.ld first: what the NVVM level and the PTX take.
TO_NVVM = "tmem-plan-columns,tmem-assign-lanes,convert-tcgen05-to-nvvm"


def _module(text: str, level: str):
    module = parse_module(make_context(), text, "gemm_pair_tile.mlir")
    if level == "nvvm":
        module = apply_pipeline(module, TO_NVVM)
    elif level == "lanes":
        module = apply_pipeline(module, "tmem-plan-columns,tmem-assign-lanes")
    return module


def _operands(seed: int):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((256, 64)).astype(np.float16), rng.standard_normal((256, 64)).astype(np.float16)


def _run(text: str, level: str = "tcgen05", seed: int = 0, **options):
    a, b = _operands(seed)
    res = run_kernel(_module(text, level), args=[a.reshape(-1), b.reshape(-1), np.zeros(65536, np.float32)],
                     **options)
    return a, b, res


def _reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a.astype(np.float64) @ b.astype(np.float64).T


def _variant(old: str, new: str, text: str = EXAMPLE) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _errors(res) -> list:
    return [d for d in res.diagnostics if d.severity is not Severity.NOTE]


@pytest.mark.parametrize("text", [EXAMPLE, HAND], ids=["planned", "hand"])
@pytest.mark.parametrize("level", ["tcgen05", "nvvm"])
@pytest.mark.parametrize("schedule", ["round-robin", "reverse", "random:5"])
def test_the_pair_computes_a_times_b_transposed(schedule: str, level: str, text: str):
    a, b, res = _run(text, level, schedule=schedule)
    assert _errors(res) == [], res.render()
    c = res.args[2].reshape(256, 256)
    np.testing.assert_allclose(c, _reference(a, b), rtol=1e-5, atol=1e-4)
    # exactly the documented model (docs/interpreter.md): float64 sums rounded to f32 after each
    # k-step, rows 0..127 from CTA 0's TMEM and 128..255 from CTA 1's
    d = np.zeros((256, 256), np.float32)
    for k in range(4):
        s = slice(16 * k, 16 * k + 16)
        d = (a[:, s].astype(np.float64) @ b[:, s].astype(np.float64).T + d).astype(np.float32)
    np.testing.assert_array_equal(c, d)
    assert len(res.tmem) == 2
    for rank in range(2):
        np.testing.assert_array_equal(res.tmem[rank][:, :256].view(np.float32), d[128 * rank : 128 * rank + 128])


def test_the_kernel_declares_its_cluster_of_2():
    """cluster_dim 2 is the run: a single CTA or a cluster of 4 asked for is an error."""
    _, _, res = _run(EXAMPLE, cluster=4)
    assert res.kinds() == {FindingKind.BAD_THREADS}, res.render()
    _, _, res = _run(EXAMPLE.replace(", tcgen05.cluster_dim = array<i32: 2>", ""))
    assert FindingKind.CTA_PAIR_REQUIRED in res.kinds(), res.render()


def test_tmem_run_cta_pair_on_the_command_line(capsys):
    """tmem-run --cta-pair runs the file as it is shipped (iota operands, JSON output)."""
    status = run_tool(lambda a: TmemRun(a), "tmem-run", [
        str(PATH), "--cta-pair", "--arg", "f16:16384=iota", "--arg", "f16:16384=iota", "--arg", "f32:65536",
        "--json", "--print-full"])
    out, err = capsys.readouterr()
    assert status == 0, err
    data = json.loads(out)
    assert data["errors"] == [] and data["warnings"] == []
    iota = np.arange(16384).astype(np.float16).reshape(256, 64)
    np.testing.assert_allclose(np.array(data["args"][2], np.float64).reshape(256, 256), _reference(iota, iota),
                               rtol=1e-5)


@pytest.mark.parametrize("text", [EXAMPLE, HAND], ids=["planned", "hand"])
@pytest.mark.parametrize("level", ["lanes", "nvvm"])
def test_tmem_verify_proves_it(level: str, text: str):
    assert verify_findings(_module(text, level), Options()) == []


def test_the_planner_writes_the_pair_allocation():
    """cta_group::2 mmas: the pair's alloc, relinquish and dealloc, right after the kernel's cluster
    barrier (no second one), and a fenced cluster barrier before the dealloc."""
    from xdsl.dialects import scf

    function = next(o for o in _module(EXAMPLE, "lanes").ops if o.name == "func.func")
    ops = list(function.body.block.ops)
    names = [o.name for o in ops]
    assert names.count("nvvm.cluster.arrive") == 2 and names.count("nvvm.cluster.wait") == 2
    alloc = next(i for i, o in enumerate(ops) if isinstance(o, scf.IfOp) and
                 any(n.name == "tcgen05.alloc" for n in o.walk()))
    assert names[alloc - 2 : alloc] == ["nvvm.cluster.wait", "llvm.mlir.addressof"]  # the slot
    lifecycle = [n for o in ops for n in o.walk() if n.name in ("tcgen05.alloc", "tcgen05.dealloc",
                                                              "tcgen05.relinquish_alloc_permit")]
    assert [(n.name, n.cta_group_value) for n in lifecycle] == [
        ("tcgen05.alloc", 2), ("tcgen05.relinquish_alloc_permit", 2), ("tcgen05.dealloc", 2)]
    assert lifecycle[0].ncols.value.data == 256
    dealloc = next(i for i, o in enumerate(ops) if isinstance(o, scf.IfOp) and
                   any(n.name == "tcgen05.dealloc" for n in o.walk()))
    assert names[dealloc - 4 : dealloc] == ["tcgen05.fence", "nvvm.cluster.arrive", "nvvm.cluster.wait",
                                            "tcgen05.fence"]
    assert "tcgen05.tile_load" not in names[dealloc:]


# The two pair bug classes of issue 11 on this kernel (tests/filecheck/interpreter/pair_bug_classes.mlir
# runs the same edits through tmem-run at both levels).
NO_CLUSTER_BARRIER_BEFORE_ALLOC = ("  // 3. both CTAs running, operands and mbarriers ready\n"
                                   "  nvvm.cluster.arrive aligned\n  nvvm.cluster.wait aligned\n", "")
PEER_EXITS_BEFORE_DEALLOC = ("  scf.if %is_warp0 {\n    tcgen05.fence after_thread_sync\n    tcgen05.dealloc",
                             "  scf.if %leader_warp0 {\n    tcgen05.fence after_thread_sync\n    tcgen05.dealloc")


@pytest.mark.parametrize("level", ["lanes", "nvvm"])
@pytest.mark.parametrize("bug, dynamic, static", [
    (NO_CLUSTER_BARRIER_BEFORE_ALLOC, FindingKind.CLUSTER_BARRIER_MISSING, {FindingKind.CLUSTER_BARRIER_MISSING}),
    (PEER_EXITS_BEFORE_DEALLOC, FindingKind.PEER_EXITED, {FindingKind.PEER_MISMATCH, FindingKind.LEAK}),
], ids=["cluster-barrier-missing-before-pair-alloc", "peer-exits-before-pair-dealloc"])
def test_pair_bug_classes_in_both_tools(bug, dynamic: FindingKind, static: set, level: str):
    text = _variant(*bug, text=HAND)
    _, _, res = _run(text, "nvvm" if level == "nvvm" else "tcgen05")
    assert dynamic in res.kinds(), res.render()
    errors = {k for k, d in verify_findings(_module(text, level), Options()) if d.severity is Severity.ERROR}
    assert errors == static


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
def test_ptxas_assembles_the_pair_tile():
    ptx = emit_ptx(_module(EXAMPLE, "nvvm")).text
    for line in (".reqnctapercluster 2", "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32",
                 "barrier.cluster.arrive.aligned;", "tcgen05.mma.cta_group::2.kind::f16",
                 "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64",
                 "tcgen05.dealloc.cta_group::2.sync.aligned.b32"):
        assert line in ptx, line
    result = run_ptxas(ptx, "sm_100a", PTXAS)
    assert result.ok, result.output


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt not found (pip install iree-base-compiler==3.13.0)")
def test_iree_opt_accepts_the_nvvm_print():
    from io import StringIO

    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out).print_op(_module(EXAMPLE, "nvvm"))
    for flags in ([], ["--mlir-print-op-generic"]):
        proc = subprocess.run([IREE_OPT, *flags, "-"], input=out.getvalue() + "\n", capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert "nvvm.tcgen05.mma" in proc.stdout and "nvvm.tcgen05.commit" in proc.stdout


# ---- what breaks the pair --------------------------------------------------------------------

COMMIT = "tcgen05.commit %bar multicast %both_ctas cta_group(2) : !llvm.ptr<3>"
WAIT = "  tcgen05.mbarrier.wait_parity %bar, %c0_i32 : !llvm.ptr<3>\n"
FENCE = "  tcgen05.fence_proxy_async\n"


@pytest.mark.parametrize("commit", [
    "tcgen05.commit %bar cta_group(2) : !llvm.ptr<3>",  # no multicast: the leader's barrier only
    "tcgen05.commit %bar multicast %leader_only cta_group(2) : !llvm.ptr<3>",  # mask 0b01
], ids=["no-multicast", "mask-0b01"])
def test_a_commit_that_misses_the_peer_leaves_it_waiting(commit: str):
    text = _variant(COMMIT, commit).replace("  %both_ctas = arith.constant 3 : i16\n",
                                            "  %both_ctas = arith.constant 3 : i16\n  %leader_only = arith.constant 1 : i16\n")
    _, _, res = _run(text)
    assert FindingKind.DEADLOCK in res.kinds(), res.render()
    stuck = [d for d in res.errors if "waits forever on parity 0" in d.message]
    assert stuck and all("warp 4" in d.message for d in stuck if d.message.startswith("deadlock"))


@pytest.mark.parametrize("level", ["tcgen05", "nvvm"])
def test_reading_d_without_the_mbarrier_wait_in_both_ctas(level: str):
    _, _, res = _run(_variant(WAIT, ""), level)
    readers = {d.message.split(" of warp ")[1].split(" ")[0] for d in res.errors
               if "may still be in flight" in d.message}
    assert res.kinds() == {FindingKind.ASYNC_PENDING}, res.render()
    assert readers == {str(w) for w in range(8)}  # the warpgroups of both CTAs


def test_the_peer_ctas_operands_need_its_proxy_fence():
    """The leader's mma reads the peer CTA's shared memory: the peer's st.shared needs the peer's
    fence.proxy.async, ordered before the mma by the cluster barrier."""
    leader_fences = _variant(FENCE, "  scf.if %is_leader {\n    tcgen05.fence_proxy_async\n  }\n", HAND)
    _, _, res = _run(leader_fences)
    assert res.kinds() == {FindingKind.MISSING_PROXY_FENCE}, res.render()
    assert all("which warp 4 wrote" in d.message and "no fence.proxy.async of warp 4" in d.message
               for d in res.errors)
    late = _variant("  // 4. the pair's TMEM", "  %is_peer = arith.cmpi ne, %rank, %c0_i32 : i32\n"
                    "  scf.if %is_peer {\n    tcgen05.fence_proxy_async\n  }\n  // 4. the pair's TMEM", leader_fences)
    for schedule in ("round-robin", "reverse"):
        _, _, res = _run(late, schedule=schedule)
        assert res.kinds() == {FindingKind.MISSING_PROXY_FENCE}, res.render()
        assert all("nothing orders that fence before this tcgen05.mma" in d.message for d in res.errors)


def test_mixed_cta_group_in_the_pair_is_an_error():
    """All tcgen05 ops of a kernel use one cta_group: a cta_group::1 mma on the pair's allocation."""
    text = _variant("tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %accumulate cta_group(2) : i64",
                    "tcgen05.mma f16 %d, %desc_a, %desc_b, %idesc, %accumulate : i64", HAND)
    _, _, res = _run(_variant("m 256 n 256", "m 128 n 256", text))  # an M legal for cta_group::1
    assert res.kinds() == {FindingKind.CTA_GROUP_MISMATCH}, res.render()
    assert "cta_group::2 is used here" in res.render()
