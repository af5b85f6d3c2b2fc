"""Every misuse the interpreter reports: a kernel that commits it, and a clean twin that reports nothing.

Cross-warp cases are run under several schedules (which warp runs first): a race is judged by
happens-before, so the verdict must not depend on the interleaving.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from tmem_dialect.diagnostics import Severity
from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.interpreter.validation import apply_pipeline
from tmem_dialect.ir import parse_module

SCHEDULES = ["round-robin", "reverse", "random:1", "random:7"]


def kernel(body: str, threads: int = 128) -> str:
    return f"""
llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
func.func @k(%out: memref<1024xi32>) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: {threads}, 1, 1>}} {{
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c21_i32 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %lane = nvvm.read.ptx.sreg.laneid : i32
  %t = arith.index_cast %tid : i32 to index
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %is_warp1 = arith.cmpi eq, %warp, %c1_i32 : i32
  %is_warp4 = arith.cmpi eq, %warp, %c4_i32 : i32
  %is_lane0 = arith.cmpi eq, %lane, %c0_i32 : i32
  %low_half = arith.cmpi ult, %lane, %c16_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %v = vector.broadcast %tid : i32 to vector<1xi32>
{body}
  func.return
}}
"""


def alloc(ncols: int = 32, extra: str = "tcgen05.relinquish_alloc_permit") -> str:
    return f"""
  scf.if %is_warp0 {{
    tcgen05.alloc %slot, {ncols} : !llvm.ptr<3>
    {extra}
  }}
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %taddr = arith.addi %base, %lane_base : i32
"""


def free(ncols: int = 32) -> str:
    return f"""
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is_warp0 {{
    tcgen05.dealloc %base, {ncols}
  }}
"""


HANDOFF = """
  scf.if %is_warp4 {{
    tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
    {producer_wait}
  }}
  {sync}
  scf.if %is_warp0 {{
    %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
    %e = vector.extract %r[0] : i32 from vector<1xi32>
    memref.store %e, %out[%t] : memref<1024xi32>
  }}
"""
# barrier.cluster: every thread of both CTAs of the pair (the peer CTA is running)
CLUSTER_SYNC = """
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned"""
FENCED_BARRIER = """tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync"""


@dataclass
class Case:
    name: str
    bad: str
    good: str
    kind: FindingKind
    threads: int = 128
    options: dict = field(default_factory=dict)
    severity: str = "error"
    cross_warp: bool = False


CASES = [
    Case(
        "anti-dependency",
        alloc() + """
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.wait store""" + free(),
        alloc() + """
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""" + free(),
        FindingKind.ANTI_DEPENDENCY,
    ),
    Case(
        "store-completion (st then ld)",
        alloc() + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  tcgen05.wait load""" + free(),
        alloc() + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load""" + free(),
        FindingKind.STORE_COMPLETION,
    ),
    Case(
        "store-completion (st then st)",
        alloc() + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""" + free(),
        alloc() + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""" + free(),
        FindingKind.STORE_COMPLETION,
    ),
    Case(
        "dealloc while the same warp's st is outstanding",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    %base = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.st %v, %base shape_32x32b x1 : vector<1xi32>
    tcgen05.dealloc %base, 32
    tcgen05.wait store
  }""",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    %base = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.st %v, %base shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
    tcgen05.dealloc %base, 32
  }""",
        FindingKind.DEALLOC_OUTSTANDING,
    ),
    Case(
        "handoff to another warp while the st is outstanding",
        alloc() + HANDOFF.format(producer_wait="", sync=FENCED_BARRIER) + free(),
        alloc() + HANDOFF.format(producer_wait="tcgen05.wait store", sync=FENCED_BARRIER) + free(),
        FindingKind.HANDOFF,
        threads=256,
        cross_warp=True,
    ),
    Case(
        "cross-warp reuse without a barrier",
        alloc() + HANDOFF.format(producer_wait="tcgen05.wait store", sync="") + free(),
        alloc() + HANDOFF.format(producer_wait="tcgen05.wait store", sync=FENCED_BARRIER) + free(),
        FindingKind.HANDOFF,
        threads=256,
        cross_warp=True,
    ),
    Case(
        "handoff without fences (a warning)",
        alloc() + HANDOFF.format(producer_wait="tcgen05.wait store", sync="nvvm.barrier") + free(),
        alloc() + HANDOFF.format(producer_wait="tcgen05.wait store", sync=FENCED_BARRIER) + free(),
        FindingKind.MISSING_FENCE,
        threads=256,
        severity="warning",
        cross_warp=True,
    ),
    Case(
        "dealloc by another warp while an ld is outstanding",
        alloc() + """
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>""" + free() + """
  tcgen05.wait load""",
        alloc() + """
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load""" + free(),
        FindingKind.DEALLOC_OUTSTANDING,
        cross_warp=True,
    ),
    Case(
        "lane outside the warp's quarter",
        alloc() + """
  tcgen05.st %v, %base shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""" + free(),
        alloc() + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""" + free(),
        FindingKind.LANE_QUARTER,
    ),
    Case(
        "access past the end of its allocation",
        alloc(32) + """
  %w = vector.broadcast %tid : i32 to vector<64xi32>
  tcgen05.st %w, %taddr shape_32x32b x64 : vector<64xi32>
  tcgen05.wait store""" + free(32),
        alloc(64) + """
  %w = vector.broadcast %tid : i32 to vector<64xi32>
  tcgen05.st %w, %taddr shape_32x32b x64 : vector<64xi32>
  tcgen05.wait store""" + free(64),
        FindingKind.OUT_OF_BOUNDS,
    ),
    Case(
        "allocation size increase",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 32
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    %b = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 64
  }""",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 64
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    %b = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 32
  }""",
        FindingKind.ALLOC_SIZE_INCREASE,
    ),
    Case(
        "alloc after relinquish_alloc_permit",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 32
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    %b = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 32
  }""",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 32
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
    %b = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 32
  }""",
        FindingKind.ALLOC_AFTER_RELINQUISH,
    ),
    Case(
        "leak at kernel exit",
        alloc() + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""",
        alloc() + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""" + free(),
        FindingKind.LEAK,
    ),
    Case(
        "double dealloc",
        alloc() + free() + """
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 32
  }""",
        alloc() + free(),
        FindingKind.DOUBLE_DEALLOC,
    ),
    Case(
        "wrong-size dealloc",
        alloc(64) + free(32),
        alloc(64) + free(64),
        FindingKind.WRONG_SIZE_DEALLOC,
    ),
    Case(
        "alloc by part of a warp",
        """
  %one = arith.andi %is_warp0, %is_lane0 : i1
  scf.if %one {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32""" + free(),
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32""" + free(),
        FindingKind.PARTIAL_COLLECTIVE,
    ),
    Case(
        "ld by part of a warp",
        alloc() + """
  scf.if %low_half {
    %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  }
  tcgen05.wait load""" + free(),
        alloc() + """
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load""" + free(),
        FindingKind.PARTIAL_COLLECTIVE,
    ),
    Case(
        "aligned barrier executed by part of a warp",
        """
  scf.if %low_half {
    nvvm.barrier
  }""",
        """
  nvvm.barrier""",
        FindingKind.PARTIAL_COLLECTIVE,
        cross_warp=True,
    ),
    Case(
        "collective with differing operands",
        alloc(64) + """
  %mine = arith.addi %taddr, %lane : i32
  tcgen05.st %v, %mine shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""" + free(64),
        alloc(64) + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store""" + free(64),
        FindingKind.DIVERGENT_OPERAND,
    ),
    Case(
        "mixed cta_group",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 32
  }""",
        CLUSTER_SYNC + """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
  }""" + CLUSTER_SYNC + """
  %a = llvm.load %slot : !llvm.ptr<3> -> i32
  scf.if %is_warp0 {
    tcgen05.dealloc %a, 32 cta_group(2)
  }""",
        FindingKind.CTA_GROUP_MISMATCH,
        options={"cta_pair": True},
    ),
    Case(
        "two warps allocating concurrently",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
  }
  scf.if %is_warp1 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 64
    tcgen05.dealloc %base, 64
  }""",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 64
  }
  nvvm.barrier
  scf.if %is_warp1 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    %b = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 64
  }""",
        FindingKind.CONCURRENT_ALLOC,
        cross_warp=True,
    ),
    Case(
        "two warps allocating and freeing with no barrier between them",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 64
  }
  scf.if %is_warp1 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    %b = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 64
  }""",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 64
  }
  nvvm.barrier
  scf.if %is_warp1 {
    tcgen05.alloc %slot, 64 : !llvm.ptr<3>
    %b = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 64
  }""",
        FindingKind.CONCURRENT_ALLOC,
        cross_warp=True,
    ),
    Case(
        "deadlock on a full allocator",
        """
  %w1 = arith.cmpi eq, %warp, %c1_i32 : i32
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 512 : !llvm.ptr<3>
  }
  scf.if %w1 {
    tcgen05.alloc %slot, 512 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32""" + free(512),
        """
  %w1 = arith.cmpi eq, %warp, %c1_i32 : i32
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 512 : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 512
  }
  nvvm.barrier
  scf.if %w1 {
    tcgen05.alloc %slot, 512 : !llvm.ptr<3>
    %b = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %b, 512
  }""",
        FindingKind.OUT_OF_TMEM,
        cross_warp=True,
    ),
    Case(
        "deadlock on a barrier only one warp reaches",
        """
  scf.if %is_warp0 {
    nvvm.barrier
  }""",
        """
  nvvm.barrier""",
        FindingKind.DEADLOCK,
        cross_warp=True,
    ),
    Case(
        "slot read by another warp without a barrier",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }
  %base = llvm.load %slot : !llvm.ptr<3> -> i32""" + free(),
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32""" + free(),
        FindingKind.SHARED_RACE,
        cross_warp=True,
    ),
]


def _run(body: str, case: Case, **extra):
    options = {**case.options, **extra}
    return run_kernel(kernel(body, case.threads), kernel="k", args=[np.zeros(1024, np.int32)], **options)


def _kinds(result, severity: str) -> set[FindingKind]:
    return result.kinds(severity)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_misuse_is_reported(case: Case) -> None:
    result = _run(case.bad, case)
    assert case.kind in _kinds(result, case.severity), result.render()
    assert not result.kinds() & {FindingKind.INTERNAL, FindingKind.UNSUPPORTED}, result.render()
    for d in (result.errors if case.severity == "error" else result.warnings):
        assert d.location is not None, d.render()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_clean_twin_reports_nothing(case: Case) -> None:
    result = _run(case.good, case)
    assert result.diagnostics == [], result.render()


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("case", [c for c in CASES if c.cross_warp], ids=[c.name for c in CASES if c.cross_warp])
def test_verdict_does_not_depend_on_the_interleaving(case: Case, schedule: str) -> None:
    bad = _run(case.bad, case, schedule=schedule)
    good = _run(case.good, case, schedule=schedule)
    assert case.kind in _kinds(bad, case.severity), (schedule, bad.render())
    assert good.diagnostics == [], (schedule, good.render())


def test_messages_name_warp_thread_lane_and_column() -> None:
    case = next(c for c in CASES if c.kind == FindingKind.HANDOFF)
    result = _run(case.bad, case)
    d = next(d for d in result.errors if d.message.startswith("tcgen05.ld"))
    for word in ("warp 0", "warp 4", "thread", "TMEM lane 0", "column 0", "rule 3"):
        assert word in d.message, d.message
    assert d.notes and "tcgen05.st" in d.notes[0].message


def test_handoff_moves_the_data() -> None:
    case = next(c for c in CASES if c.kind == FindingKind.HANDOFF)
    result = _run(case.good, case)
    assert (result.args[0][:32] == np.arange(128, 160)).all()


@pytest.mark.parametrize(
    "name", ["anti-dependency", "store-completion (st then ld)", "store-completion (st then st)"]
)
def test_ptx_9_4_pipelines_same_warp_pairs(name: str) -> None:
    case = next(c for c in CASES if c.name == name)
    assert _run(case.bad, case, ptx_version=(8, 6)).errors
    assert _run(case.bad, case, ptx_version=(9, 4)).diagnostics == []
    assert _run(case.bad, case, ptx_version="9.4").diagnostics == []


USE_BEFORE_WAIT = alloc() + """
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
  %e = vector.extract %r[0] : i32 from vector<1xi32>
  memref.store %e, %out[%t] : memref<1024xi32>
  tcgen05.wait load""" + free()


def test_register_use_before_wait_is_legal() -> None:
    result = _run(USE_BEFORE_WAIT, Case("", "", "", ""))
    assert result.diagnostics == [], result.render()
    assert (result.args[0][:128] == np.arange(128)).all()


def test_conservative_mode_notes_register_use_before_wait() -> None:
    result = _run(USE_BEFORE_WAIT, Case("", "", "", ""), conservative=True)
    assert result.errors == [] and result.warnings == []
    assert _kinds(result, "note") == {FindingKind.REGISTER_USE}
    (note,) = result.notes
    assert "vector.extract" in str(note.location) or note.location.line > 0
    assert "before tcgen05.wait::ld" in note.message


def test_conservative_mode_is_silent_after_the_wait() -> None:
    body = USE_BEFORE_WAIT.replace(
        "  %e = vector.extract", "  tcgen05.wait load\n  %e = vector.extract"
    )
    result = _run(body, Case("", "", "", ""), conservative=True)
    assert result.diagnostics == [], result.render()


def test_cta_pair_allocates_in_both_ctas() -> None:
    body = CLUSTER_SYNC + """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 cta_group(2) : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit cta_group(2)
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %taddr = arith.addi %base, %lane_base : i32
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync""" + CLUSTER_SYNC + """
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 64 cta_group(2)
  }"""
    result = run_kernel(kernel(body), kernel="k", args=[np.zeros(1024, np.int32)], cta_pair=True)
    assert result.diagnostics == [], result.render()
    assert len(result.tmem) == 2
    for tmem in result.tmem:
        assert (tmem[:, 0] == np.arange(128)).all()
    single = run_kernel(kernel(body), kernel="k", args=[np.zeros(1024, np.int32)])
    assert FindingKind.CTA_PAIR_REQUIRED in single.kinds()


def test_cta_group_2_alloc_without_the_peer_is_a_peer_exit() -> None:
    """cta_group::2 alloc is a rendezvous with the peer CTA's warp; if only CTA 0 allocates, CTA 1
    exits without its half: a peer-exited error at the alloc (once, not again at the dealloc)."""
    body = CLUSTER_SYNC + """
  %cta = nvvm.read.ptx.sreg.ctaid.x : i32
  %cta0 = arith.cmpi eq, %cta, %c0_i32 : i32
  %alloc_here = arith.andi %is_warp0, %cta0 : i1
  scf.if %alloc_here {
    tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
    %a = llvm.load %slot : !llvm.ptr<3> -> i32
    tcgen05.dealloc %a, 32 cta_group(2)
  }"""
    result = run_kernel(kernel(body), kernel="k", args=[np.zeros(1024, np.int32)], cta_pair=True)
    assert result.kinds() == {FindingKind.PEER_EXITED, FindingKind.CLUSTER_BARRIER_MISSING}, result.render()
    (exited,) = [f.diagnostic for f in result.findings if f.kind is FindingKind.PEER_EXITED]
    assert "peer CTA 1 exited" in exited.message and "pair allocation" in exited.message


def test_fence_between_the_access_and_its_wait_is_canonical_too() -> None:
    """ld; fence::before_thread_sync; wait::ld; barrier: the fence follows the async op it orders."""
    body = alloc() + """
  scf.if %is_warp4 {
    tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
    tcgen05.fence before_thread_sync
    tcgen05.wait store
  }
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is_warp0 {
    %r = tcgen05.ld %taddr shape_32x32b x1 : vector<1xi32>
    tcgen05.wait load
  }""" + free()
    result = run_kernel(kernel(body, 256), kernel="k", args=[np.zeros(1024, np.int32)])
    assert result.diagnostics == [], result.render()


def test_every_ordering_rule_has_one_finding_kind() -> None:
    """The interpreter reports a violation of a memory_model rule under that rule's kind."""
    from tmem_dialect import memory_model as mm

    rules = [r for r in vars(mm).values() if isinstance(r, mm.Rule)]
    assert len(rules) >= 5
    kinds = [FindingKind.of_rule(r) for r in rules]
    assert len(set(kinds)) == len(rules)
    assert FindingKind.of_rule(mm.HANDOFF) is FindingKind.HANDOFF


PAIR_ALLOC = """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
  }
  """ + FENCED_BARRIER + """
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %taddr = arith.addi %base, %lane_base : i32
  tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store
  """ + FENCED_BARRIER
PAIR_DEALLOC = """
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 32 cta_group(2)
  }"""


@pytest.mark.parametrize(
    "body,missing",
    [
        (PAIR_ALLOC + CLUSTER_SYNC + PAIR_DEALLOC, "before it"),
        (CLUSTER_SYNC + PAIR_ALLOC + PAIR_DEALLOC, "before it after the pair allocation"),
    ],
    ids=["before the pair alloc", "before the pair dealloc"],
)
@pytest.mark.parametrize("level", ["tcgen05", "nvvm"])
def test_pair_alloc_and_dealloc_need_a_cluster_barrier(body: str, missing: str, level: str) -> None:
    def run(text: str):
        module = parse_module(make_context(), text)
        if level == "nvvm":
            module = apply_pipeline(module, "convert-tcgen05-to-nvvm")
        return run_kernel(module, kernel="k", args=[np.zeros(1024, np.int32)], cta_pair=True)

    result = run(kernel(body))
    assert result.kinds() == {FindingKind.CLUSTER_BARRIER_MISSING}, result.render()
    assert all(f"has no cluster barrier {missing} (barrier.cluster.arrive" in d.message for d in result.errors)
    result = run(kernel(CLUSTER_SYNC + PAIR_ALLOC + CLUSTER_SYNC + PAIR_DEALLOC))
    assert result.diagnostics == [], result.render()
    # both CTAs hold the stored thread ids in their half of the pair's allocation
    for tmem in result.tmem:
        assert (tmem[:, 0] == np.arange(128)).all()


def test_cluster_barrier_orders_the_slot_write_and_is_counted() -> None:
    """The cluster barrier orders warp 0's alloc (its slot write) before the other warps' reads;
    a wait without an arrive is an error."""
    ordered = CLUSTER_SYNC + """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
  }""" + CLUSTER_SYNC + """
  %base = llvm.load %slot : !llvm.ptr<3> -> i32""" + CLUSTER_SYNC + PAIR_DEALLOC
    result = run_kernel(kernel(ordered), kernel="k", args=[np.zeros(1024, np.int32)], cta_pair=True)
    assert result.diagnostics == [], result.render()
    relaxed = ordered.replace("nvvm.cluster.arrive aligned", "nvvm.cluster.arrive.relaxed aligned")
    result = run_kernel(kernel(relaxed), kernel="k", args=[np.zeros(1024, np.int32)], cta_pair=True)
    assert FindingKind.SHARED_RACE in result.kinds(), result.render()
    # tmem-verify agrees: a cluster barrier (arrive, then wait) is a barrier of every warp of the
    # CTA; after a relaxed arrive it orders nothing.
    from tmem_dialect.passes.analysis import Options
    from tmem_dialect.passes.verify import verify_findings

    def static_errors(text: str) -> set[FindingKind]:
        found = verify_findings(parse_module(make_context(), kernel(text)), Options())
        return {k for k, d in found if d.severity is Severity.ERROR}

    assert FindingKind.SHARED_RACE not in static_errors(ordered)
    assert FindingKind.SHARED_RACE in static_errors(relaxed)
    no_arrive = "\n  nvvm.cluster.wait aligned"
    result = run_kernel(kernel(no_arrive), kernel="k", args=[np.zeros(1024, np.int32)], cta_pair=True)
    assert FindingKind.BARRIER_COUNT in result.kinds(), result.render()


def test_the_two_halves_of_a_pair_alloc_agree() -> None:
    """Each CTA's warp passes the column count of the pair's allocation: they must be the same."""
    body = CLUSTER_SYNC + """
  %cta = nvvm.read.ptx.sreg.ctaid.x : i32
  %cta0 = arith.cmpi eq, %cta, %c0_i32 : i32
  scf.if %is_warp0 {
    scf.if %cta0 {
      tcgen05.alloc %slot, 64 cta_group(2) : !llvm.ptr<3>
    } else {
      tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
    }
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32""" + CLUSTER_SYNC + """
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 32 cta_group(2)
  }"""
    result = run_kernel(kernel(body), kernel="k", args=[np.zeros(1024, np.int32)], cta_pair=True)
    assert FindingKind.PEER_MISMATCH in result.kinds(), result.render()
    d = next(d for d in result.errors if "must agree" in d.message)
    assert "column count" in d.message and "64" in d.message and "32" in d.message
