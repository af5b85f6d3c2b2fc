"""nvvm.ldmatrix and nvvm.bar.warp.sync: the interpreter against numpy (the PTX ISA's fragment layout),
PTX that ptxas assembles and that imports and runs the same, and the verifier's limits."""

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


def _kernel(num: int, layout: str, mask: str = "-1") -> str:
    """Lanes copy 4*num 8x8 f16 matrices (stored row-major, row r of matrix j at (8j + r) * 16 bytes)
    into shared memory, lane l names row l, and each lane stores its num registers to out[l*num + j]."""
    result = "i32" if num == 1 else f"!llvm.struct<({', '.join(['i32'] * num)})>"
    extract = ("  %r0 = llvm.bitcast %m : i32 to i32\n" if num == 1 else
               "".join(f"  %r{j} = llvm.extractvalue %m[{j}] : {result}\n" for j in range(num)))
    stores = "".join(f"""  %o{j} = llvm.add %base, %c{j} : i32
  %q{j} = llvm.getelementptr %out[%o{j}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %r{j}, %q{j} : i32, !llvm.ptr<1>
""" for j in range(num))
    consts = "".join(f"  %c{j} = llvm.mlir.constant({j} : i32) : i32\n" for j in range(num))
    return f"""
llvm.mlir.global internal @tile() {{addr_space = 3 : i32, alignment = 16 : i64}} : !llvm.array<256 x i16>
llvm.func @k(%src: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {{nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>}} {{
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %cn = llvm.mlir.constant({num} : i32) : i32
  %mask = llvm.mlir.constant({mask} : i32) : i32
{consts}  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %smem = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %first = llvm.mul %tid, %c8 : i32
  %gsrc = llvm.getelementptr %src[%first] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i16
  %row = llvm.load %gsrc : !llvm.ptr<1> -> vector<8xi16>
  %srow = llvm.getelementptr %smem[%first] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i16
  llvm.store %row, %srow : vector<8xi16>, !llvm.ptr<3>
  nvvm.barrier
  nvvm.bar.warp.sync %mask : i32
  %m = nvvm.ldmatrix %srow, num = {num}, layout = <{layout}>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> {result}
{extract}  %base = llvm.mul %tid, %cn : i32
{stores}  llvm.return
}}
"""


def _expected(src: np.ndarray, num: int, transpose: bool) -> np.ndarray:
    """PTX ISA, ldmatrix: lane t holds (row t/4, cols 2(t%4), 2(t%4)+1) of each matrix, low half first."""
    mats = src.view(np.uint16).reshape(4, 8, 8)
    out = np.zeros((32, num), np.uint32)
    for t in range(32):
        for j in range(num):
            m = mats[j].T if transpose else mats[j]
            out[t, j] = int(m[t // 4, 2 * (t % 4)]) | int(m[t // 4, 2 * (t % 4) + 1]) << 16
    return out.view(np.int32).ravel()


def _source() -> np.ndarray:
    return np.random.default_rng(7).integers(-(2**15), 2**15, 256).astype(np.int16)


@pytest.mark.parametrize("num", [1, 2, 4])
@pytest.mark.parametrize("layout", ["row", "col"])
def test_ldmatrix_gives_each_lane_its_fragment(num: int, layout: str) -> None:
    src = _source()
    result = run_kernel(_kernel(num, layout), kernel="k", args=[src, np.zeros(32 * num, np.int32)])
    assert result.diagnostics == [], result.render()
    assert (result.args[1] == _expected(src, num, layout == "col")).all()


def test_bar_warp_sync_with_lanes_outside_the_mask_is_an_error() -> None:
    src = _source()
    result = run_kernel(_kernel(4, "row", mask="65535"), kernel="k", args=[src, np.zeros(128, np.int32)])
    assert {k.value for k in result.kinds()} == {"partial-collective"}
    assert "does not name lane 16" in result.render()


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
@pytest.mark.parametrize("num,layout", [(1, "row"), (4, "col")])
def test_ldmatrix_ptx_assembles_and_runs_the_same(num: int, layout: str) -> None:
    module = parse_module(make_context(), _kernel(num, layout), "ldmatrix.mlir")
    text = emit_ptx(module).text
    assert f"ldmatrix.sync.aligned.m8n8.x{num}{'.trans' if layout == 'col' else ''}.shared.b16" in text
    assert "bar.warp.sync -1;" in text
    result = run_ptxas(text, "sm_100a", PTXAS)
    assert result.ok, result.output
    again = ModuleImporter(parse_ptx(text, "ldmatrix.ptx"), Options()).run()
    src = _source()
    ran = run_kernel(again, kernel="k", args=[src, np.zeros(32 * num, np.int32)])
    assert ran.diagnostics == [], ran.render()
    assert (ran.args[1] == _expected(src, num, layout == "col")).all()


@pytest.mark.parametrize("bad,message", [
    ("num = 4, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> i32",
     "gives !llvm.struct"),
    ("num = 3, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> i32",
     "1, 2 or 4 matrices"),
    ("num = 1, layout = <row>, shape = <m = 16, n = 16>, element_type = <b8> : (!llvm.ptr<3>) -> i32",
     "only the m8n8 b16"),
    ("num = 1, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<1>) -> i32",
     "must be !llvm.ptr<3>"),
])
def test_ldmatrix_verifier(bad: str, message: str) -> None:
    text = f"llvm.func @f(%p: !llvm.ptr<3>, %g: !llvm.ptr<1>) {{\n  %m = nvvm.ldmatrix %{'g' if 'ptr<1>' in bad else 'p'}, {bad}\n  llvm.return\n}}"
    with pytest.raises(Exception, match=message):
        parse_module(make_context(), text, "bad.mlir").verify()
