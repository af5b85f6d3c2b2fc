"""llvm.switch: per-lane multi-way branches in the interpreter, and PTX that ptxas assembles and runs the same."""

from __future__ import annotations

import numpy as np
import pytest

from tmem_dialect.dialects import make_context
from tmem_dialect.frontend.importer import ModuleImporter, Options
from tmem_dialect.frontend.syntax import parse_ptx
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas

PTXAS = find_ptxas()

# Lane t switches on t % 5 (case 3 absent: the default), on an i16 copy of -(t % 3) (negative
# case values), and one case passes a block argument.
SWITCH = """
llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>} {
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c100 = llvm.mlir.constant(100 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %k = llvm.urem %tid, %c5 : i32
  %m = llvm.urem %tid, %c3 : i32
  %z = llvm.mlir.constant(0 : i32) : i32
  %neg = llvm.sub %z, %m : i32
  %n16 = llvm.trunc %neg : i32 to i16
  llvm.switch %k : i32, ^dflt(%c100 : i32) [
    0: ^zero,
    1: ^one(%tid : i32),
    2: ^two,
    4: ^two
  ]
^zero:
  %a = llvm.mlir.constant(10 : i32) : i32
  llvm.br ^second(%a : i32)
^one(%x: i32):
  %b = llvm.add %x, %c100 : i32
  llvm.br ^second(%b : i32)
^two:
  %c = llvm.mlir.constant(20 : i32) : i32
  llvm.br ^second(%c : i32)
^dflt(%d: i32):
  llvm.br ^second(%d : i32)
^second(%r: i32):
  llvm.switch %n16 : i16, ^join(%r : i32) [
    -1: ^minus_one,
    -2: ^minus_two
  ]
^minus_one:
  %r1 = llvm.add %r, %c3 : i32
  llvm.br ^join(%r1 : i32)
^minus_two:
  %r2 = llvm.mul %r, %c3 : i32
  llvm.br ^join(%r2 : i32)
^join(%s: i32):
  %p = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %s, %p : i32, !llvm.ptr<1>
  llvm.return
}
"""


def _expected() -> np.ndarray:
    out = []
    for t in range(64):
        r = {0: 10, 1: t + 100, 2: 20, 4: 20}.get(t % 5, 100)
        r = {1: r + 3, 2: r * 3}.get(t % 3, r)
        out.append(r)
    return np.array(out, np.int32)


def test_switch_sends_each_lane_to_its_case() -> None:
    result = run_kernel(SWITCH, kernel="k", args=[np.zeros(64, np.int32)])
    assert result.diagnostics == [], result.render()
    assert (result.args[0] == _expected()).all()


def test_switch_verifier_rejects_mismatched_successor_arguments() -> None:
    bad = SWITCH.replace("1: ^one(%tid : i32),", "1: ^one,")
    with pytest.raises(Exception, match="successor #2 takes 1 arguments"):
        parse_module(make_context(), bad, "bad.mlir").verify()


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
def test_switch_ptx_assembles_and_runs_the_same() -> None:
    module = parse_module(make_context(), SWITCH, "switch.mlir")
    text = emit_ptx(module).text
    assert "setp.eq.b32" in text and "setp.eq.b16" in text
    result = run_ptxas(text, "sm_100a", PTXAS)
    assert result.ok, result.output
    again = ModuleImporter(parse_ptx(text, "switch.ptx"), Options()).run()
    ran = run_kernel(again, kernel="k", args=[np.zeros(64, np.int32)])
    assert ran.diagnostics == [], ran.render()
    assert (ran.args[0] == _expected()).all()
