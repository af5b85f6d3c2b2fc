"""The target rules of kernel_checks against ptxas: what we reject before ptxas, ptxas rejects too.

`tests/filecheck/ptx/reject_before_ptxas.mlir` shows that the PTX target reports each rule at our
op; here the same kernels' PTX, emitted without our check (or with the offending number put back
into valid PTX), goes to ptxas, which must reject it. A rule of ours that ptxas does not share
would reject legal kernels. The last test checks that a ptxas message still lands at the op
that produced its PTX line (the --ptxas-check path, which our own checks now pre-empt).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tmem_dialect.dialects import make_context
from tmem_dialect.ir import parse_module
from tmem_dialect.kernel_checks import kernel_diagnostics, kernels, module_diagnostics
from tmem_dialect.lowering.ptx_emitter import PTXModule, emit_ptx
from tmem_dialect.lowering.ptx_target import nvvm_level
from tmem_dialect.lowering.ptxas import find_ptxas, ptxas_diagnostics, run_ptxas

PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
CASES = Path(__file__).parent / "filecheck" / "ptx" / "reject_before_ptxas.mlir"


def _cases() -> list[str]:
    text = CASES.read_text()
    return [c for c in text.split("// -----\n") if "expected-error" in c]


def _ctx():
    return make_context()


def _module(text: str):
    return parse_module(_ctx(), text, "<case>")


def test_every_case_is_rejected_by_our_rules_or_the_emitter():
    assert len(_cases()) == 7
    for text in _cases():
        module = _module(text)
        ours = [d for k in kernels(module) for _, d in kernel_diagnostics(k, module)]
        ours += [d for _, d in module_diagnostics(module)]
        ncols = re.search(r"llvm.mlir.constant\((\d+) : i32\)", text) if "{{nCols" in text else None
        assert ours or ncols, text  # the nCols constants are the emitter's (ptx_emitter) rule


@needs_ptxas
@pytest.mark.parametrize("index", range(7))
def test_ptxas_rejects_what_we_reject(index: int):
    text = _cases()[index]
    if "{{nCols" in text:
        # The emitter refuses the bad constant, so emit the kernel with a legal one and put the
        # bad number back into the PTX line, as a compiler that skipped our check would print it.
        bad = re.search(r"llvm.mlir.constant\((\d+) : i32\)", text)[1]
        module = _module(text.replace(f"({bad} : i32)", "(32 : i32)"))
        ptx = emit_ptx(nvvm_level(_ctx(), module)).text
        line = next(line for line in ptx.splitlines() if "tcgen05.alloc" in line or "tcgen05.dealloc" in line)
        assert line.rstrip().endswith("32;"), line
        ptx = ptx.replace(line, line.replace("32;", f"{bad};"))
    else:
        ptx = emit_ptx(nvvm_level(_ctx(), _module(text))).text
    result = run_ptxas(ptx, "sm_100a", PTXAS)
    assert not result.ok, f"ptxas accepts what we reject:\n{text}\n{ptx}"


@needs_ptxas
def test_a_ptxas_message_lands_at_the_op_of_its_line():
    text = """
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %n = llvm.mlir.constant(32 : i32) : i32
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  llvm.return
}
"""
    emitted = emit_ptx(_module(text))
    lines = emitted.text.splitlines()
    at = next(i for i, line in enumerate(lines) if "tcgen05.alloc" in line)
    lines[at] = lines[at].replace("32;", "48;")
    broken = PTXModule("\n".join(lines) + "\n", emitted.line_ops, emitted.symbol_ops)
    result = run_ptxas(broken.text, "sm_100a", PTXAS)
    assert not result.ok
    found = ptxas_diagnostics(broken, result)
    assert found and found[0].message.startswith("ptxas: ")
    assert found[0].location is not None and found[0].location.line == 6
    assert any(f"in PTX line {at + 1}" in n.message for n in found[0].notes)
