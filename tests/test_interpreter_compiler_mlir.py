"""What the interpreter runs of compilers' LLVM-dialect MLIR: funnel shifts, alloca, assume, struct parameters and fields, gpu.module kernels, unlifted asm.

The numbers are checked against formulas written here (LLVM LangRef's definitions), not against
the interpreter's own helpers.
"""

from __future__ import annotations

import numpy as np
import pytest

from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel

MASK32 = (1 << 32) - 1


def _kernel(body: str, params: str, before: str = "") -> str:
    return f"""{before}
llvm.func @k({params}) attributes {{nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>}} {{
  %tid = nvvm.read.ptx.sreg.tid.x : i32
{body}
  llvm.return
}}
"""


def _at(name: str, ptr: str, elem: str = "i32") -> str:
    return f"  %{name}_p = llvm.getelementptr {ptr}[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, {elem}\n"


FUNNEL = _kernel(
    _at("a", "%a")
    + _at("b", "%b")
    + _at("c", "%c")
    + _at("l", "%l")
    + _at("r", "%r")
    + """
  %x = llvm.load %a_p : !llvm.ptr<1> -> i32
  %y = llvm.load %b_p : !llvm.ptr<1> -> i32
  %n = llvm.load %c_p : !llvm.ptr<1> -> i32
  %fl = llvm.intr.fshl(%x, %y, %n) : (i32, i32, i32) -> i32
  %fr = llvm.intr.fshr(%x, %y, %n) : (i32, i32, i32) -> i32
  llvm.store %fl, %l_p : i32, !llvm.ptr<1>
  llvm.store %fr, %r_p : i32, !llvm.ptr<1>""",
    "%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %l: !llvm.ptr<1>, %r: !llvm.ptr<1>",
)


def test_funnel_shifts_are_langrefs() -> None:
    """fshl(a, b, n): the high 32 bits of (a:b) << (n mod 32); fshr: the low 32 bits of (a:b) >> (n mod 32)."""
    rng = np.random.default_rng(5)
    a, b = (rng.integers(0, 1 << 32, 32, dtype=np.uint64) for _ in range(2))
    n = np.concatenate([[0, 31, 32, 33, 64, -1], rng.integers(-(1 << 31), 1 << 31, 26)]).astype(np.int64)
    args = [x.astype(np.uint32).view(np.int32) for x in (a, b, n & MASK32)] + [np.zeros(32, np.int32)] * 2
    result = run_kernel(FUNNEL, args=args)
    assert result.errors == [], result.render()
    for lane in range(32):
        s = int(n[lane]) % 32  # n is read unsigned: its value modulo 2^32, then modulo 32
        joined = (int(a[lane]) << 32) | int(b[lane])
        assert int(result.args[3][lane]) & MASK32 == ((joined << s) >> 32) & MASK32
        assert int(result.args[4][lane]) & MASK32 == (joined >> s) & MASK32


ALLOCA = _kernel(
    _at("o", "%out")
    + """
  %one = llvm.mlir.constant(1 : i32) : i32
  %four = llvm.mlir.constant(4 : i32) : i32
  %slots = llvm.alloca %four x i32 {alignment = 16 : i64} : (i32) -> !llvm.ptr
  %s3 = llvm.getelementptr %slots[3] : (!llvm.ptr) -> !llvm.ptr, i32
  %sq = llvm.mul %tid, %tid : i32
  llvm.store %sq, %s3 : i32, !llvm.ptr
  nvvm.barrier
  %back = llvm.load %s3 : !llvm.ptr -> i32
  %addr = llvm.ptrtoint %slots : !llvm.ptr to i64
  %sixteen = llvm.mlir.constant(16 : i64) : i64
  %rem = llvm.urem %addr, %sixteen : i64
  %rem32 = llvm.trunc %rem : i64 to i32
  %v = llvm.add %back, %rem32 : i32
  llvm.store %v, %o_p : i32, !llvm.ptr<1>""",
    "%out: !llvm.ptr<1>",
)


def test_alloca_gives_each_thread_its_own_aligned_slots() -> None:
    result = run_kernel(ALLOCA, args=[np.zeros(32, np.int32)])
    assert result.errors == [], result.render()
    assert np.array_equal(
        result.args[0], np.arange(32) ** 2
    )  # each reads back its own square, at 16-byte alignment


def _assume(value: str, bundle: str = "") -> str:
    return _kernel(
        f"""
  %p = llvm.mlir.addressof @g : !llvm.ptr<3>
  %c = llvm.mlir.constant({value}) : i1
  %al = llvm.mlir.constant(1024 : i64) : i64
  %p8 = llvm.getelementptr %p[8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  llvm.intr.assume %c {bundle} : i1""",
        "",
        before="llvm.mlir.global internal @g() {addr_space = 3 : i32, "
        "alignment = 1024 : i64} : !llvm.array<64 x i8>",
    )


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        (_assume("true"), None),
        (_assume("true", '["align"(%p, %al : !llvm.ptr<3>, i64)]'), None),
        (_assume("false"), FindingKind.ERROR),  # LangRef: a false assumption is undefined behaviour
        (_assume("true", '["align"(%p8, %al : !llvm.ptr<3>, i64)]'), FindingKind.MEMORY_FAULT),
    ],
)
def test_assume_is_checked(source: str, kind: FindingKind | None) -> None:
    result = run_kernel(source)
    assert result.kinds() == ({kind} if kind else set()), result.render()


STRUCTS = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @k(%t: !llvm.struct<(i1, struct<()>, vector<2xi32>, ptr<1>)>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %flag = llvm.extractvalue %t[0] : !llvm.struct<(i1, struct<()>, vector<2xi32>, ptr<1>)>
      %words = llvm.extractvalue %t[2] : !llvm.struct<(i1, struct<()>, vector<2xi32>, ptr<1>)>
      %out = llvm.extractvalue %t[3] : !llvm.struct<(i1, struct<()>, vector<2xi32>, ptr<1>)>
      %one = llvm.mlir.constant(1 : i32) : i32
      %w1 = llvm.extractelement %words[%one : i32] : vector<2xi32>
      %u = llvm.mlir.undef : !llvm.struct<(i8, struct<(i16, i64)>)>
      %w64 = llvm.zext %w1 : i32 to i64
      %v = llvm.insertvalue %w64, %u[1, 1] : !llvm.struct<(i8, struct<(i16, i64)>)>
      %p = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %f = llvm.getelementptr %p[0, 1, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.struct<(i8, struct<(i16, i64)>)>
      %fi = llvm.ptrtoint %f : !llvm.ptr<3> to i32
      %pi = llvm.ptrtoint %p : !llvm.ptr<3> to i32
      %off = llvm.sub %fi, %pi : i32
      %back = llvm.extractvalue %v[1, 1] : !llvm.struct<(i8, struct<(i16, i64)>)>
      %b32 = llvm.trunc %back : i64 to i32
      %fz = llvm.zext %flag : i1 to i32
      %s1 = llvm.add %b32, %fz : i32
      %s2 = llvm.mul %off, %s1 : i32
      %o = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %s2, %o : i32, !llvm.ptr<1>
      llvm.return
    }
  }
  llvm.func @host() {
    "cuda.return_if_error"() : () -> ()
    llvm.return
  }
}
"""


def test_struct_parameters_take_their_fields_and_fields_sit_at_llvms_offsets() -> None:
    """The kernel (in a gpu.module, beside a host function of cuda ops) takes its struct's fields:
    i1, no field for the empty struct, the vector's two words, the pointer. Field [1, 1] of
    {i8, {i16, i64}} is at byte 16: the inner struct aligns to 8 (at byte 8), its i64 to 8 within it."""
    result = run_kernel(
        STRUCTS, args=[np.int16(1), np.int32(0), np.int32(6), np.zeros(32, np.int32)], dynamic_shared_bytes=64
    )
    assert result.errors == [], result.render()
    assert np.array_equal(result.args[3], np.full(32, 16 * (6 + 1)))


def test_inline_asm_that_cannot_be_lifted_is_an_error_at_the_op() -> None:
    source = _kernel('  %r = llvm.inline_asm has_side_effects "frobnicate.b32 $0;", "=r" : () -> i32', "")
    result = run_kernel(source)
    assert result.kinds() == {FindingKind.UNSUPPORTED}
    (error,) = result.errors
    assert "inline asm" in error.message and "could not lift" in error.message
    assert error.location is not None and error.location.line == 4  # the asm's line
