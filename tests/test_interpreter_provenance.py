"""Accesses judged against the allocation their address derives from (provenance), shared memory
read before anything wrote it, at both levels: each buggy kernel and its legal twin run as written
(tcgen05 dialect) and lowered to upstream NVVM (convert-tcgen05-to-nvvm)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.interpreter.validation import apply_pipeline
from tmem_dialect.ir import parse_module

SCHEDULES = ["round-robin", "reverse", "random:3"]


def kernel(body: str, threads: int = 128) -> str:
    return f"""
llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
llvm.mlir.global internal @slot2() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
func.func @k(%out: memref<1024xi32>) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: {threads}, 1, 1>}} {{
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %c32_i32 = arith.constant 32 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %slot2 = llvm.mlir.addressof @slot2 : !llvm.ptr<3>
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  %v = vector.broadcast %tid : i32 to vector<1xi32>
{body}
  func.return
}}
"""


SYNC = """
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync"""


def alloc(slot: str = "%slot", ncols: int = 32, name: str = "%base", taddr: str = "%taddr") -> str:
    return f"""
  scf.if %is_warp0 {{
    tcgen05.alloc {slot}, {ncols} : !llvm.ptr<3>
  }}""" + SYNC + f"""
  {name} = llvm.load {slot} : !llvm.ptr<3> -> i32
  {taddr} = arith.addi {name}, %lane_base : i32"""


def st(taddr: str) -> str:
    return f"""
  tcgen05.st %v, {taddr} shape_32x32b x1 : vector<1xi32>
  tcgen05.wait store"""


def free(base: str = "%base", ncols: int = 32) -> str:
    return SYNC + f"""
  scf.if %is_warp0 {{
    tcgen05.dealloc {base}, {ncols}
  }}"""


@dataclass
class Case:
    name: str
    bad: str
    good: str
    kind: FindingKind


CASES = [
    Case(
        "access past the end of its allocation (32 columns, x64)",
        alloc() + """
  %w = vector.broadcast %tid : i32 to vector<64xi32>
  tcgen05.st %w, %taddr shape_32x32b x64 : vector<64xi32>
  tcgen05.wait store""" + free(),
        alloc(ncols=64) + """
  %w = vector.broadcast %tid : i32 to vector<64xi32>
  tcgen05.st %w, %taddr shape_32x32b x64 : vector<64xi32>
  tcgen05.wait store""" + free(ncols=64),
        FindingKind.OUT_OF_BOUNDS,
    ),
    Case(
        "overflow into the neighbouring allocation",
        alloc() + alloc("%slot2", name="%base2", taddr="%taddr2") + """
  %past = arith.addi %taddr, %c32_i32 : i32""" + st("%past") + free() + free("%base2"),
        alloc() + alloc("%slot2", name="%base2", taddr="%taddr2") + st("%taddr2") + free() + free("%base2"),
        FindingKind.WRONG_ALLOCATION,
    ),
    Case(
        "stale base after a re-alloc at the same column",
        alloc() + st("%taddr") + free() + alloc(name="%base_again", taddr="%taddr_again")
        + st("%taddr") + free("%base_again"),
        alloc() + st("%taddr") + free() + alloc(name="%base_again", taddr="%taddr_again")
        + st("%taddr_again") + free("%base_again"),
        FindingKind.STALE_BASE,
    ),
    Case(
        "dealloc through a stale base",
        alloc() + free() + alloc(name="%base_again", taddr="%taddr_again") + free("%base"),
        alloc() + free() + alloc(name="%base_again", taddr="%taddr_again") + free("%base_again"),
        FindingKind.STALE_BASE,
    ),
    Case(
        "use after free (a barrier orders the dealloc first)",
        alloc() + free() + SYNC + st("%taddr"),
        alloc() + st("%taddr") + free() + SYNC,
        FindingKind.USE_AFTER_FREE,
    ),
    Case(
        "TMEM use with no alloc",
        """
  %taddr = arith.addi %c0_i32, %lane_base : i32""" + st("%taddr"),
        alloc() + st("%taddr") + free(),
        FindingKind.UNALLOCATED,
    ),
    Case(
        "reading the wrong slot (nothing wrote it)",
        """
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 32 : !llvm.ptr<3>
  }""" + SYNC + """
  %base = llvm.load %slot2 : !llvm.ptr<3> -> i32
  %taddr = arith.addi %base, %lane_base : i32""" + st("%taddr") + free(),
        alloc() + st("%taddr") + free(),
        FindingKind.UNINITIALIZED_READ,
    ),
]


def _module(text: str, level: str):
    module = parse_module(make_context(), text)
    return module if level == "tcgen05" else apply_pipeline(module, "convert-tcgen05-to-nvvm")


def _run(text: str, level: str, **options):
    return run_kernel(_module(text, level), args=[np.zeros(1024, np.int32)], **options)


@pytest.mark.parametrize("level", ["tcgen05", "nvvm"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bug_is_reported_and_twin_is_clean(case: Case, level: str) -> None:
    bad = _run(kernel(case.bad), level)
    assert case.kind in bad.kinds(), bad.render()
    assert not bad.kinds() & {FindingKind.INTERNAL, FindingKind.UNSUPPORTED}, bad.render()
    assert all(d.location is not None for d in bad.errors), bad.render()
    good = _run(kernel(case.good), level)
    assert good.diagnostics == [], good.render()


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_verdict_does_not_depend_on_the_schedule(case: Case, schedule: str) -> None:
    assert case.kind in _run(kernel(case.bad), "tcgen05", schedule=schedule).kinds()
    assert _run(kernel(case.good), "tcgen05", schedule=schedule).diagnostics == []


def test_stale_base_names_both_allocations() -> None:
    case = next(c for c in CASES if c.name.startswith("stale base"))
    result = _run(kernel(case.bad), "tcgen05")
    d = next(d for d in result.errors if "stale base" in d.message)
    assert d.message.startswith("tcgen05.st of warp")
    assert [n.message for n in d.notes][:2] == [
        "the allocation of 32 columns at column 0 was made here", "it was freed here"]
    assert "now belongs to the allocation of 32 columns made here" in d.notes[2].message
