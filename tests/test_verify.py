"""tmem-verify and its analyses: per-thread values, the CFG, and agreement with the interpreter
(which runs the kernel on an exact machine model) on the examples with a wait or fence removed."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from tmem_dialect.findings import FindingKind
from tmem_dialect.diagnostics import DiagnosticError, Severity
from tmem_dialect.dialects import make_context
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes import get_passes
from tmem_dialect.passes.cfg import CFG
from tmem_dialect.passes.analysis import KernelAnalysis, Options, parse_options, tmem_functions
from tmem_dialect.passes.threads import Uniformity
from tmem_dialect.passes.values import Values

ROOT = Path(__file__).parent.parent

KERNEL = """
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k(%flag: i1) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c16 = arith.constant 16 : i32
  %c21 = arith.constant 21 : i32
  %c31 = arith.constant 31 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %w0 = arith.cmpi eq, %warp, %c0 : i32
  %w1 = arith.cmpi eq, %warp, %c1 : i32
  %lane = arith.andi %tid, %c31 : i32
  %first = arith.cmpi eq, %lane, %c0 : i32
  %half = arith.cmpi ult, %tid, %c16 : i32
  %w1flag = arith.andi %w1, %flag : i1
  %s = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %w0 {
    tcgen05.alloc %s, 32 : !llvm.ptr<3>
  }
  nvvm.barrier
  %base = llvm.load %s : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3 : i32
  %l = arith.shli %q, %c21 : i32
  %t = arith.addi %base, %l : i32
  %v = tcgen05.ld %t shape_32x32b x1 : vector<1xi32>
  tcgen05.wait load
  nvvm.barrier
  scf.if %w0 {
    tcgen05.dealloc %base, 32
  }
  func.return
}
"""


def _module(text: str) -> ModuleOp:
    return parse_module(make_context(), text, "<test>")


def _values(text: str) -> tuple[Values, dict[str, object]]:
    module = _module(text)
    function = tmem_functions(module)[0]
    analysis = KernelAnalysis(function, Options())
    names = {a.name_hint: a for b in function.regions[0].blocks for a in b.args if a.name_hint}
    for op in function.walk():
        for r in op.results:
            if r.name_hint:
                names[r.name_hint] = r
    return analysis.values, names


def test_branch_conditions_per_warp() -> None:
    values, v = _values(KERNEL)
    assert values.space.nwarps == 2
    w0 = values.split(v["w0"])  # type: ignore[arg-type]
    assert w0 is not None and w0.exact and (w0.may_true, w0.may_false, w0.torn) == (0b01, 0b10, 0)
    first = values.split(v["first"])  # type: ignore[arg-type]
    assert first is not None and first.torn == 0b11
    half = values.split(v["half"])  # type: ignore[arg-type]
    assert half is not None and half.torn == 0b01 and half.may_false == 0b11
    # An unknown kernel argument and-ed with warp == 1: only warp 1 may take the branch.
    w1flag = values.split(v["w1flag"])  # type: ignore[arg-type]
    assert w1flag is not None and not w1flag.exact and w1flag.may_true == 0b10


def test_uniformity() -> None:
    values, v = _values(KERNEL)
    assert values.uniformity(v["warp"]) is Uniformity.WARP  # type: ignore[arg-type]
    assert values.uniformity(v["lane"]) is Uniformity.THREAD  # type: ignore[arg-type]
    assert values.uniformity(v["base"]) is Uniformity.CTA  # type: ignore[arg-type]
    assert values.uniformity(v["flag"]) is Uniformity.CTA  # type: ignore[arg-type]


def test_lane_base_is_exact_per_warp() -> None:
    """base + ((warp & 3) << 21): warp w's address is lane 32w, column within the allocation."""
    values, v = _values(KERNEL)
    form = values.form(v["t"])  # type: ignore[arg-type]
    assert form is not None
    [(base, coeff)] = list(form.terms)
    assert coeff == 1 and base.allocation == "slot" and (base.lo, base.hi) == (0, 511)
    lo, hi = form.warp_bounds(values.space)  # type: ignore[misc]
    assert [int(x) >> 16 for x in lo] == [0, 32] and [int(x) >> 16 for x in hi] == [0, 32]


NVVM_LOOP = """
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %c6 = llvm.mlir.constant(6 : i32) : i32
  llvm.br ^head(%c0 : i32)
^head(%i: i32):
  %more = llvm.icmp "slt" %i, %c6 : i32
  llvm.cond_br %more, ^body, ^done
^body:
  %p = llvm.inttoptr %i : i32 to !llvm.ptr<6>
  %v = nvvm.tcgen05.ld %p shape = shape_32x32b : vector<1xi32>
  %next = llvm.add %i, %c2 : i32
  llvm.br ^head(%next : i32)
^done:
  llvm.return
}
"""


def test_induction_variable_of_a_block_loop() -> None:
    values, v = _values(NVVM_LOOP)
    form = values.form(v["i"])  # type: ignore[arg-type]
    assert form is not None
    [(sym, coeff)] = list(form.terms)
    assert coeff == 1 and (sym.lo, sym.hi, sym.step) == (0, 5, 2) and sym.induction_of is not None


def test_cfg_loops_come_before_their_exit() -> None:
    function = tmem_functions(_module(NVVM_LOOP))[0]
    cfg = CFG(function)
    [loop] = cfg.loops
    after = [n for n in cfg.nodes if n not in loop.nodes and n.order > loop.header.order]
    assert all(n.order > max(m.order for m in loop.nodes) for n in after)
    body = cfg.node_of[next(op for op in function.walk() if op.name == "nvvm.tcgen05.ld")]
    assert cfg.controlling_branches(body) == {loop.header}


def test_control_dependence_of_nested_branches() -> None:
    function = tmem_functions(_module(KERNEL))[0]
    cfg = CFG(function)
    alloc = cfg.node_of[next(op for op in function.walk() if op.name == "tcgen05.alloc")]
    [branch] = cfg.controlling_branches(alloc)
    assert branch.branch is not None and branch.branch.op.name == "scf.if"
    ld = cfg.node_of[next(op for op in function.walk() if op.name == "tcgen05.ld")]
    assert cfg.controlling_branches(ld) == frozenset()


def test_bad_ptx_version_is_a_diagnostic() -> None:
    with pytest.raises(DiagnosticError, match="option ptx-version"):
        parse_options("nine", False, False)
    assert parse_options(9.4, False, True).ptx_version == (9, 4)
    assert parse_options("8.6", True, False).conservative


def _pipeline(text: str) -> ModuleOp:
    module = _module(text)
    if "tile_" in text:
        get_passes()["tmem-assign-lanes"]()().apply(make_context(), module)
    return module


def _show(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


HANDWRITTEN = sorted((ROOT / "bench" / "handwritten").glob("*.mlir"))
ARGS = {
    "tmem_roundtrip": lambda: [np.zeros(128, np.int32)],
    "chunked_epilogue": lambda: [np.zeros(4096, np.int32)],
    "accumulator_readout": lambda: [np.arange(32768, dtype=np.float32), np.zeros(32768, np.float32)],
    "m64_f16": lambda: [np.arange(4096).astype(np.float16), np.zeros(4096, np.float16)],
}
# What the interpreter calls the violation tmem-verify reports as rule N.
INTERPRETER_KINDS = {
    EffectKind.WAIT_LD: {FindingKind.ANTI_DEPENDENCY, FindingKind.DEALLOC_OUTSTANDING, FindingKind.HANDOFF},
    EffectKind.WAIT_ST: {FindingKind.STORE_COMPLETION, FindingKind.DEALLOC_OUTSTANDING, FindingKind.HANDOFF},
}


@pytest.mark.parametrize("path", HANDWRITTEN, ids=[p.stem for p in HANDWRITTEN])
def test_hand_written_kernels_verify_clean(path: Path) -> None:
    from tmem_dialect.passes.verify import verify_module

    assert verify_module(_pipeline(path.read_text()), Options()) == []


@pytest.mark.parametrize("path", HANDWRITTEN, ids=[p.stem for p in HANDWRITTEN])
def test_removed_sync_is_reported_like_the_interpreter(path: Path) -> None:
    """Remove each wait (fence) of a correct kernel: tmem-verify reports an error (warning)
    and the interpreter, running the kernel, reports the same class of misuse."""
    from tmem_dialect.passes.verify import verify_module

    text = _show(_pipeline(path.read_text()))
    sync_kinds = (EffectKind.WAIT_LD, EffectKind.WAIT_ST, EffectKind.FENCE_BEFORE, EffectKind.FENCE_AFTER)
    count = sum(1 for op in _module(text).walk() if (e := tmem_effect(op)) and e.kind in sync_kinds)
    assert count == 6
    for i in range(count):
        module = _module(text)
        ops = [op for op in module.walk() if (e := tmem_effect(op)) and e.kind in sync_kinds]
        kind = tmem_effect(ops[i]).kind  # type: ignore[union-attr]
        barriers = [op for op in module.walk() if op.name == "nvvm.barrier"]
        at_handoff = barriers[-1] in (ops[i].next_op, ops[i].prev_op)
        ops[i].detach()
        found = verify_module(module, Options())
        run = run_kernel(_show(module), args=ARGS[path.stem]())
        if kind in INTERPRETER_KINDS:
            assert any(d.severity is Severity.ERROR for d in found), f"{kind} removed, no error"
            assert run.kinds("error") & INTERPRETER_KINDS[kind], (kind, run.kinds("error"))
        else:
            assert found and all(d.severity is Severity.WARNING for d in found)
            assert run.ok
            # The interpreter checks fences where async accesses are handed to another warp
            # (the barrier before the dealloc); around the allocation's barrier only
            # tmem-verify asks for the canonical fences (TMEM_FACTS.md, allocation lifecycle).
            if at_handoff:
                assert FindingKind.MISSING_FENCE in run.kinds("warning")


def test_function_ops_are_each_top_level_ops_walk() -> None:
    """tmem-verify cuts each function's ops from the module's one walk (function_ops): the same
    ops, in the same order, as walking the function itself."""
    import json

    from tmem_dialect.diagnostics import capture
    from tmem_dialect.frontend import import_ptx
    from tmem_dialect.passes.analysis import function_ops

    corpus = Path(__file__).parent / "corpus"
    expected = json.loads((corpus / "expected.json").read_text())
    for path in sorted(corpus.glob("*/*.ptx")):
        allow = expected.get(str(path.relative_to(corpus)), {}).get("allow_unmodelled", False)
        with capture():
            module = import_ptx(path.read_text(), str(path), allow_unmodelled=allow)
        segments = function_ops(module, list(module.walk()))
        top = list(module.body.block.ops)
        assert len(segments) == len(top) > 0
        for op in top:
            assert segments[id(op)] == list(op.walk()), path.name
