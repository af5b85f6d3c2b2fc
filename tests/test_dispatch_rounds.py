"""Warp-specialized dispatch rounds (passes/dispatch_rounds.py), on Triton's dot_ws (tests/corpus/triton/dot_ws.ptx).

The default partition (warps 0-3) writes one state byte per worker warp at global_smem + 37080
(0x02000101: warps 4, 5 load, warp 6 issues the mma, warp 7 idles), meets the workers at the
CTA-wide barrier 1, runs the epilogue, then writes the exit code 3 for every worker. The workers
loop: barrier 1, read their byte, run that partition (three barrier-1 arrivals per round). Unrolled
round by round, tmem-verify proves the accumulator's handoff (the zeroing tcgen05.st before the
first mma, the mma warp's commit observed by the epilogue's wait before its tcgen05.ld and the
dealloc); mutants that break the protocol or the round count are reported, or not unrolled.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tmem_dialect.diagnostics import capture
from tmem_dialect.frontend import import_ptx
from tmem_dialect.passes.analysis import KernelAnalysis, tmem_functions
from tmem_dialect.passes.analysis import Options as VerifyOptions
from tmem_dialect.passes.dispatch_rounds import unroll_dispatch
from tmem_dialect.passes.verify import verify_module

DOT_WS = Path(__file__).parent / "corpus" / "triton" / "dot_ws.ptx"
# The epilogue's wait on the accumulator barrier (the mma warp's commit completes its phase 0).
ACC_WAIT = "mbarrier.try_wait.parity.shared::cta.b64 complete, [%r59], %r62;"
FIRST_STATE = "st.shared.b32 \t[global_smem+37080], 33554689;"


def _module(text: str):
    with capture():
        return import_ptx(text, "dot_ws.ptx", allow_unmodelled=True)


def _unrolled(text: str):
    function = tmem_functions(_module(text))[0]
    analysis = KernelAnalysis(function, VerifyOptions())
    return unroll_dispatch(function, analysis.cfg, analysis.values)


def _tmem_errors(text: str) -> list[str]:
    """The errors other than setmaxnreg's (Triton's per-partition setmaxnreg, a real finding)."""
    return [d.message for d in verify_module(_module(text), VerifyOptions())
            if d.severity.name == "ERROR" and "setmaxnreg" not in d.message]


def _byte_per_warp(byte: np.ndarray, warps: range) -> list[int]:
    return [int(byte[32 * w]) for w in warps]


def test_the_rounds_and_each_warps_partition() -> None:
    unrolled = _unrolled(DOT_WS.read_text())
    assert unrolled is not None and unrolled.rounds == 2
    first, second = unrolled.known.values()
    # little-endian bytes of 0x02000101 at 37080.., then 0x03030303
    assert _byte_per_warp(first.const, range(4, 8)) == [1, 1, 0, 2]
    assert _byte_per_warp(second.const, range(4, 8)) == [3, 3, 3, 3]


def test_the_handoff_is_proven_round_by_round() -> None:
    assert _tmem_errors(DOT_WS.read_text()) == []


def test_setmaxnreg_per_partition_is_reported() -> None:
    """PTX ISA setmaxnreg: "The same setmaxnreg instruction must be executed by all warps in a
    warpgroup". Triton issues one per partition: warps 4-5, 6 and 7 of warpgroup 1 run different ones."""
    errors = [d for d in verify_module(_module(DOT_WS.read_text()), VerifyOptions())
              if d.severity.name == "ERROR"]
    assert errors and all("setmaxnreg is not warpgroup-uniform" in d.message for d in errors)
    assert {d.location.line for d in errors} == {716, 719, 736, 872, 945, 957}


def test_an_epilogue_without_the_accumulator_wait_is_reported() -> None:
    text = DOT_WS.read_text()
    assert text.count(ACC_WAIT) == 1
    mutant = text.replace(ACC_WAIT, "mov.pred complete, -1;")
    errors = _tmem_errors(mutant)
    assert any("nvvm.tcgen05.ld of warp 0" in e and "nvvm.tcgen05.mma of warp 6" in e for e in errors), errors


@pytest.mark.parametrize(
    "change",
    [
        # one more barrier-1 arrival of the writers before the exit code: rounds no longer align
        ("st.shared.b32 \t[global_smem+37080], 50529027;\n",
         "barrier.sync \t1;\n\tst.shared.b32 \t[global_smem+37080], 50529027;\n"),
        # a state that is not a constant
        (FIRST_STATE, "st.shared.b32 \t[global_smem+37080], %r1;"),
        # the state byte written on only some paths of the writers (a condition on a kernel argument)
        (FIRST_STATE, "setp.eq.s32 \t%p58, %r2, 0;\n\t@%p58 st.shared.b32 \t[global_smem+37080], 33554689;"),
    ],
    ids=["misaligned-rounds", "unknown-state", "conditional-store"],
)
def test_what_cannot_be_proven_is_not_unrolled(change: tuple[str, str]) -> None:
    text = DOT_WS.read_text()
    assert change[0] in text
    assert _unrolled(text.replace(change[0], change[1], 1)) is None


def test_diagnostics_point_at_the_kernels_own_ops() -> None:
    module = _module(DOT_WS.read_text())
    ops = set(module.walk())
    for d in verify_module(module, VerifyOptions()):
        for part in d.flatten():
            assert part.op is None or part.op in ops
    assert re.search(r"\bdot_ws\b", str(module)) and len(tmem_functions(module)) == 1
