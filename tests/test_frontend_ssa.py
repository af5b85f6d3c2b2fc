"""The PTX front end's shortcuts against what they stand for: the written-once SSA fast path and
the guarded-instruction merge shortcut against Braun et al.'s general construction, and an
unverified location against FileLineColLoc's constructor.

A read of a register written once, in a block its definition dominates, is that definition
(ssa.py). These tests pin that the fast path builds what the general construction builds, that a
wrong prediction (a register written twice) falls back to it, and that a definition that does not
dominate a read still gets its phi.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tmem_dialect.diagnostics import capture
from tmem_dialect.frontend import import_ptx, importer, ssa

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
PTX_FILES = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*.ptx"))
# Braun et al.'s construction, with a phi at every guarded instruction's merge block, leaves a
# redundant phi cycle (one value and phis of each other) in this file's dispatch loop, which
# trivial-phi removal cannot see; the fast path and the merge shortcut never build it.
REDUNDANT_PHIS = {"triton/dot_ws.ptx"}

HEADER = ".version 8.7\n.target sm_100a\n.address_size 64\n"
# A kernel's start: its parameters loaded into %rd1 (an output pointer) and %r1.
PROLOGUE = HEADER + """
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];"""


def _import(text: str, allow_unmodelled: bool = False) -> str:
    with capture():
        return str(import_ptx(text, "<test>", allow_unmodelled=allow_unmodelled))


def _general(monkeypatch: pytest.MonkeyPatch, text: str, allow_unmodelled: bool = False) -> str:
    with monkeypatch.context() as m:
        m.setattr(importer, "written_once", lambda fn, blocks: set())
        return _import(text, allow_unmodelled)


def _block_arguments(text: str) -> int:
    return sum(line.count(": ") for line in text.splitlines() if line.lstrip().startswith("^bb"))


@pytest.mark.parametrize("name", PTX_FILES)
def test_fast_path_builds_what_the_general_construction_builds(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (CORPUS / name).read_text()
    allow = EXPECTED.get(name, {}).get("allow_unmodelled", False)
    assert _import(text, allow) == _general(monkeypatch, text, allow)


LOOP = PROLOGUE + """
  mov.u32 %r2, 0;
$L_loop:
  add.s32 %r2, %r2, %r1;
  setp.lt.u32 %p1, %r2, 100;
  @%p1 bra $L_loop;
  st.global.u32 [%rd1], %r2;
  ret;
}
"""


def test_a_wrong_prediction_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Predicting every register written once (%r2 is written twice) gives the general result."""
    def everything(fn, blocks):  # type: ignore[no-untyped-def]
        return {r.var for bb in blocks for ins in bb.instructions for r in ins.operands if isinstance(r, importer.Reg)}

    general = _general(monkeypatch, LOOP)
    with monkeypatch.context() as m:
        m.setattr(importer, "written_once", everything)
        assert _import(LOOP) == general
    assert "^bb" in general and "llvm.add" in general


MERGE = PROLOGUE + """
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $L_skip;
  add.s32 %r3, %r1, 7;
$L_skip:
  st.global.u32 [%rd1], %r3;
  ret;
}
"""


def test_a_definition_that_does_not_dominate_the_read_gets_a_phi(monkeypatch: pytest.MonkeyPatch) -> None:
    """%r3 is written once, on one side of a branch: the read after the merge is a block argument
    of the add's result and the undefined value, as the general construction builds it."""
    fast = _import(MERGE)
    assert fast == _general(monkeypatch, MERGE)
    assert "llvm.mlir.poison" in fast and _block_arguments(fast) == 1


def _without_merge_shortcut(monkeypatch: pytest.MonkeyPatch, read) -> str:  # type: ignore[no-untyped-def]
    with monkeypatch.context() as m:
        # (every merge block then places its phi)
        m.setattr(ssa, "_is_diamond", lambda merge, guard, guarded: False)
        return read()


@pytest.mark.parametrize("general", [False, True], ids=["fast", "general"])
@pytest.mark.parametrize("name", PTX_FILES)
def test_the_merge_shortcut_builds_what_the_phis_build(
    name: str, general: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read in a guarded instruction's merge block, of a register the guarded block does not
    write, is the guard block's value (ssa.py): the same IR as with the (trivial) phi there."""
    text = (CORPUS / name).read_text()
    allow = EXPECTED.get(name, {}).get("allow_unmodelled", False)

    def read() -> str:
        return _general(monkeypatch, text, allow) if general else _import(text, allow)

    shortcut, phis = read(), _without_merge_shortcut(monkeypatch, read)
    if general and name in REDUNDANT_PHIS:
        assert _block_arguments(shortcut) < _block_arguments(phis)
    else:
        assert shortcut == phis


GUARDED = PROLOGUE + """
  mov.u32 %r2, 0;
  mov.u32 %r3, 1;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mov.u32 %r2, 5;
  @%p1 add.s32 %r3, %r3, %r3;
  @!%p1 st.global.u32 [%rd1], %r2;
  st.global.u32 [%rd1], %r2;
  st.global.u32 [%rd1], %r3;
  mov.u32 %r3, 2;
  ret;
}
"""


def test_a_guarded_write_still_gets_its_phi(monkeypatch: pytest.MonkeyPatch) -> None:
    """%r2 and %r3 are written twice, once under a guard: each is read after its guarded write
    (a phi of both values) and across guarded instructions that do not write it (no phi there;
    the guarded st reads %r2, so the read after it takes the general way: a trivial phi)."""
    fast = _import(GUARDED)
    assert fast == _without_merge_shortcut(monkeypatch, lambda: _import(GUARDED))
    assert _block_arguments(fast) == 2  # %r2 after its guarded mov, %r3 after its guarded add


# Two kernels where the merge shortcut's IR is simpler than the phis' (found by an adversarial
# review, not in the corpus). Without the shortcut, the merge phi was placed while an outer phi
# was being drained, which kept that outer phi alive until finish(): a cast of a register written
# twice stayed an llvm.trunc of a block argument (SHORTCUT_FOLDS; with the shortcut, a constant),
# and a phi of one value stayed a block argument (SHORTCUT_DROPS_ARGUMENT). Both are the same
# program: these tests pin that both ways compute the same, thread by thread.
THREAD_PROLOGUE = HEADER + """
.visible .entry k(.param .u64 out)
.reqntid 64
{
  .reg .pred %p<4>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r4, %tid.x;
  cvt.u64.u32 %rd2, %r4;
  add.s64 %rd3, %rd1, %rd2;"""
SHORTCUT_FOLDS = THREAD_PROLOGUE + """
  mov.u32 %r1, 6;
  mov.u32 %r1, 7;
  setp.eq.u32 %p1, %r4, 0;
  setp.eq.u32 %p2, %r4, 1;
  @%p1 bra A;
  @%p2 add.u32 %r3, %r4, 1;
  bra B;
A:
  add.u32 %r5, %r4, 2;
B:
  st.global.u8 [%rd3], %r1;
  ret;
}
"""
SHORTCUT_DROPS_ARGUMENT = THREAD_PROLOGUE + """
  setp.lt.u32 %p1, %r4, 16;
  setp.lt.u32 %p2, %r4, 32;
  setp.lt.u32 %p3, %r4, 48;
  mov.u32 %r1, 1;
  mov.u32 %r2, 3;
  @%p3 bra L3;
  @%p1 add.u32 %r2, %r2, %r1;
  @!%p2 mov.u32 %r1, 1;
  @%p3 st.global.u8 [%rd3+64], %r2;
L3:
  st.global.u8 [%rd3], %r1;
  st.global.u8 [%rd3+64], %r2;
  ret;
}
"""


@pytest.mark.parametrize("text", [SHORTCUT_FOLDS, SHORTCUT_DROPS_ARGUMENT], ids=["folds", "drops-argument"])
def test_where_the_merge_shortcut_builds_simpler_ir_it_computes_the_same(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    from tmem_dialect.interpreter import run_kernel

    with capture():
        shortcut = import_ptx(text, "<test>")
    with monkeypatch.context() as m, capture():
        m.setattr(ssa, "_is_diamond", lambda merge, guard, guarded: False)
        phis = import_ptx(text, "<test>")
    assert str(shortcut) != str(phis)  # (else this test no longer covers the difference)
    assert _block_arguments(str(shortcut)) <= _block_arguments(str(phis))
    runs = [run_kernel(module, threads=64, args=[np.zeros(128, np.uint8)]) for module in (shortcut, phis)]
    assert [r.errors for r in runs] == [[], []]
    assert runs[0].args[0].tobytes() == runs[1].args[0].tobytes()
    assert runs[0].args[0][:64].any()  # (the kernel stored what it computed)
