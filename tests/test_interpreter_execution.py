"""The warp interpreter's execution model: per-lane values, divergent control flow, memory, ops it refuses.

Every kernel here computes something per thread that a few lines of Python predict.
"""

from __future__ import annotations

import numpy as np
import pytest

from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel


def func_kernel(body: str, threads: int = 64, out: str = "memref<64xi32>") -> str:
    return f"""
func.func @k(%out: {out}) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: {threads}, 1, 1>}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.index_cast %tid : i32 to index
{body}
  func.return
}}
"""


def run(body: str, threads: int = 64, out=None, **options):
    out = np.zeros(64, np.int32) if out is None else out
    result = run_kernel(func_kernel(body, threads, f"memref<{out.size}x{_mlir(out.dtype)}>"),
                        kernel="k", args=[out], **options)
    return result


def _mlir(dtype) -> str:
    return {np.dtype(np.int32): "i32", np.dtype(np.float32): "f32", np.dtype(np.int64): "i64"}[np.dtype(dtype)]


def test_divergent_scf_if_merges_per_lane_results() -> None:
    result = run("""
  %odd = arith.andi %tid, %c1_i32 : i32
  %is_odd = arith.cmpi ne, %odd, %c0_i32 : i32
  %v = scf.if %is_odd -> (i32) {
    %a = arith.muli %tid, %c3_i32 : i32
    scf.yield %a : i32
  } else {
    %b = arith.subi %c0_i32, %tid : i32
    scf.yield %b : i32
  }
  memref.store %v, %out[%t] : memref<64xi32>""")
    assert result.diagnostics == []
    t = np.arange(64)
    assert (result.args[0] == np.where(t % 2 == 1, 3 * t, -t)).all()


def test_scf_for_with_per_thread_trip_counts() -> None:
    result = run("""
  %n = arith.remui %t, %c1 : index
  %c7 = arith.constant 7 : index
  %trip = arith.remui %t, %c7 : index
  %sum = scf.for %i = %c0 to %trip step %c1 iter_args(%acc = %c0_i32) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %next = arith.addi %acc, %ii : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[%t] : memref<64xi32>""")
    assert result.diagnostics == []
    trip = np.arange(64) % 7
    assert (result.args[0] == trip * (trip - 1) // 2).all()


def test_scf_while_exits_lanes_independently() -> None:
    # Collatz steps of tid+1: each lane leaves the loop on its own iteration.
    result = run("""
  %start = arith.addi %tid, %c1_i32 : i32
  %r:2 = scf.while (%x = %start, %n = %c0_i32) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi ne, %x, %c1_i32 : i32
    scf.condition(%more) %x, %n : i32, i32
  } do {
  ^bb0(%y: i32, %m: i32):
    %half = arith.shrui %y, %c1_i32 : i32
    %odd = arith.andi %y, %c1_i32 : i32
    %is_odd = arith.cmpi ne, %odd, %c0_i32 : i32
    %tri = arith.muli %y, %c3_i32 : i32
    %tri1 = arith.addi %tri, %c1_i32 : i32
    %next = arith.select %is_odd, %tri1, %half : i32
    %m1 = arith.addi %m, %c1_i32 : i32
    scf.yield %next, %m1 : i32, i32
  }
  memref.store %r#1, %out[%t] : memref<64xi32>""")
    assert result.diagnostics == []

    def steps(x: int) -> int:
        n = 0
        while x != 1:
            x = 3 * x + 1 if x % 2 else x // 2
            n += 1
        return n

    assert list(result.args[0]) == [steps(t + 1) for t in range(64)]


NVVM_CFG = """
llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c10 = llvm.mlir.constant(10 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %bit = llvm.and %tid, %c1 : i32
  %odd = llvm.icmp "ne" %bit, %c0 : i32
  llvm.cond_br %odd, ^loop(%c0, %c0 : i32, i32), ^even(%tid : i32)
^loop(%i: i32, %acc: i32):
  %acc1 = llvm.add %acc, %tid : i32
  %i1 = llvm.add %i, %c1 : i32
  %limit = llvm.lshr %tid, %c1 : i32
  %more = llvm.icmp "ult" %i, %limit : i32
  llvm.cond_br %more, ^loop(%i1, %acc1 : i32, i32), ^join(%acc1 : i32)
^even(%x: i32):
  %neg = llvm.sub %c0, %x : i32
  llvm.br ^join(%neg : i32)
^join(%r: i32):
  %p = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %r, %p : i32, !llvm.ptr<1>
  llvm.return
}
"""


def test_divergent_llvm_cfg_with_block_arguments_and_a_loop() -> None:
    result = run_kernel(NVVM_CFG, kernel="k", args=[np.zeros(64, np.int32)])
    assert result.diagnostics == [], result.render()
    t = np.arange(64)
    expected = np.where(t % 2 == 1, t * (t // 2 + 1), -t)
    assert (result.args[0] == expected).all()


def test_integer_semantics_wrap_and_unsigned_ops() -> None:
    result = run("""
  %big = arith.constant 2147483647 : i32
  %wrap = arith.addi %big, %tid : i32
  %neg = arith.subi %c0_i32, %tid : i32
  %u = arith.shrui %neg, %c1_i32 : i32
  %s = arith.shrsi %neg, %c1_i32 : i32
  %q = arith.divsi %neg, %c3_i32 : i32
  %r = arith.remsi %neg, %c3_i32 : i32
  %lt = arith.cmpi ult, %neg, %c3_i32 : i32
  %lt32 = arith.extui %lt : i1 to i32
  %c6 = arith.constant 6 : index
  %base = arith.muli %t, %c6 : index
  %i1 = arith.addi %base, %c1 : index
  %c2 = arith.constant 2 : index
  %i2 = arith.addi %base, %c2 : index
  %c3 = arith.constant 3 : index
  %i3 = arith.addi %base, %c3 : index
  %c4 = arith.constant 4 : index
  %i4 = arith.addi %base, %c4 : index
  %c5 = arith.constant 5 : index
  %i5 = arith.addi %base, %c5 : index
  memref.store %wrap, %out[%base] : memref<384xi32>
  memref.store %u, %out[%i1] : memref<384xi32>
  memref.store %s, %out[%i2] : memref<384xi32>
  memref.store %q, %out[%i3] : memref<384xi32>
  memref.store %r, %out[%i4] : memref<384xi32>
  memref.store %lt32, %out[%i5] : memref<384xi32>""", out=np.zeros(384, np.int32))
    assert result.diagnostics == [], result.render()
    got = result.args[0].reshape(64, 6).astype(np.int64)
    for t in range(64):
        neg = (-t) & 0xFFFFFFFF
        signed_neg = -t
        wrap = (2147483647 + t) & 0xFFFFFFFF
        assert got[t, 0] & 0xFFFFFFFF == wrap
        assert got[t, 1] & 0xFFFFFFFF == neg >> 1
        assert got[t, 2] == signed_neg >> 1
        assert got[t, 3] == int(signed_neg / 3)  # truncation toward zero
        assert got[t, 4] == signed_neg - 3 * int(signed_neg / 3)
        assert got[t, 5] == int(neg < 3)


def test_vector_ops_per_lane() -> None:
    result = run("""
  %v = vector.broadcast %tid : i32 to vector<4xi32>
  %k = arith.constant dense<[0, 10, 20, 30]> : vector<4xi32>
  %w = arith.addi %v, %k : vector<4xi32>
  %x = vector.insert %c0_i32, %w [1] : i32 into vector<4xi32>
  %y = vector.shuffle %x, %k [3, 1, 4, 0] : vector<4xi32>, vector<4xi32>
  %c4 = arith.constant 4 : index
  %at = arith.muli %t, %c4 : index
  vector.store %y, %out[%at] : memref<256xi32>, vector<4xi32>""", out=np.zeros(256, np.int32))
    assert result.diagnostics == [], result.render()
    t = np.arange(64)
    expected = np.stack([t + 30, np.zeros(64, int), np.zeros(64, int), t], axis=1)
    assert (result.args[0].reshape(64, 4) == expected).all()


def test_out_of_bounds_store_is_an_error_not_a_crash() -> None:
    result = run("""
  %c100 = arith.constant 100 : index
  %far = arith.addi %t, %c100 : index
  memref.store %tid, %out[%far] : memref<64xi32>""")
    assert FindingKind.MEMORY_FAULT in result.kinds()
    assert "out of bounds" in result.errors[0].message
    assert "thread" in result.errors[0].message


def test_out_of_range_vector_position_is_poison_not_a_crash() -> None:
    """Threads 4.. extract and insert past a vector<4xi32>: LLVM makes the result poison (the
    model: 0) and says so; threads 0..3 get their element (found by review: an IndexError)."""
    result = run("""
  %k = arith.constant dense<[10, 20, 30, 40]> : vector<4xi32>
  %e = llvm.extractelement %k[%tid : i32] : vector<4xi32>
  %v = llvm.insertelement %c1_i32, %k[%tid : i32] : vector<4xi32>
  %f = vector.extract %v[%t] : i32 from vector<4xi32>
  %sum = arith.addi %e, %f : i32
  memref.store %sum, %out[%t] : memref<64xi32>""")
    assert not result.errors, result.render()
    # One warning per op and warp: 3 ops, 2 warps.
    assert len(result.warnings) == 6 and all("the result is poison" in w.message for w in result.warnings)
    assert "position 4 is out of range for 4 elements in warp 0 (thread 4)" in result.warnings[0].message
    expected = np.zeros(64, np.int32)
    expected[:4] = [11, 21, 31, 41]
    assert (result.args[0] == expected).all()


def test_division_by_zero_is_reported() -> None:
    result = run("""
  %q = arith.divsi %c1_i32, %tid : i32
  memref.store %q, %out[%t] : memref<64xi32>""")
    assert FindingKind.DIVISION_BY_ZERO in result.kinds()
    assert "thread 0" in result.errors[0].message


def test_unknown_op_is_named_not_skipped() -> None:
    text = func_kernel("""
  %f = arith.sitofp %tid : i32 to f32
  %s = math.sqrt %f : f32
  memref.store %tid, %out[%t] : memref<64xi32>""")
    result = run_kernel(text, kernel="k", args=[np.zeros(64, np.int32)])
    assert result.kinds() == {FindingKind.UNSUPPORTED}
    assert "'math.sqrt'" in result.errors[0].message
    assert result.errors[0].location.line == 13
    assert (result.args[0] == 0).all()


def test_infinite_loop_hits_the_step_limit() -> None:
    result = run("""
  %r = scf.while (%x = %c0_i32) : (i32) -> (i32) {
    %true = arith.cmpi eq, %c0_i32, %c0_i32 : i32
    scf.condition(%true) %x : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }""", max_warp_ops=5000)
    assert FindingKind.STEP_LIMIT in result.kinds()


def test_partial_last_warp() -> None:
    """48 threads: warp 1 has 16 live lanes; collectives count only those."""
    body = """
  %v = arith.muli %tid, %c2_i32 : i32
  nvvm.barrier
  memref.store %v, %out[%t] : memref<64xi32>"""
    result = run(body, threads=48)
    assert result.diagnostics == [], result.render()
    assert (result.args[0][:48] == 2 * np.arange(48)).all()
    assert (result.args[0][48:] == 0).all()


def test_wrong_thread_count_and_argument_errors_are_diagnostics() -> None:
    text = func_kernel("")
    assert run_kernel(text, kernel="k", threads=32, args=[np.zeros(64, np.int32)]).kinds() == {FindingKind.BAD_THREADS}
    assert run_kernel(text, kernel="k", args=[np.zeros(3, np.int32)]).kinds() == {FindingKind.BAD_ARGUMENTS}
    assert run_kernel(text, kernel="k", args=[np.zeros(64, np.float32)]).kinds() == {FindingKind.BAD_ARGUMENTS}
    assert run_kernel(text, kernel="nope", args=[]).kinds() == {FindingKind.NO_KERNEL}
    assert run_kernel("func.func @", kernel="k").kinds() == {FindingKind.PARSE}


def test_module_input_and_caller_arrays_untouched() -> None:
    from tmem_dialect.dialects import make_context
    from tmem_dialect.ir import parse_module

    module = parse_module(make_context(), func_kernel("""
  memref.store %tid, %out[%t] : memref<64xi32>"""))
    mine = np.zeros(64, np.int32)
    result = run_kernel(module, kernel="k", args=[mine])
    assert (result.args[0] == np.arange(64)).all()
    assert (mine == 0).all()


@pytest.mark.parametrize("dims,expect", [((64, 1, 1), "x"), ((16, 4, 1), "xy")])
def test_special_registers(dims, expect) -> None:
    x, y, z = dims
    text = f"""
func.func @k(%out: memref<256xi32>) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: {x}, {y}, {z}>}} {{
  %tx = nvvm.read.ptx.sreg.tid.x : i32
  %ty = nvvm.read.ptx.sreg.tid.y : i32
  %lane = nvvm.read.ptx.sreg.laneid : i32
  %warp = nvvm.read.ptx.sreg.warpid : i32
  %ntx = nvvm.read.ptx.sreg.ntid.x : i32
  %lin0 = arith.muli %ty, %ntx : i32
  %lin = arith.addi %lin0, %tx : i32
  %c4 = arith.constant 4 : i32
  %base = arith.muli %lin, %c4 : i32
  %b = arith.index_cast %base : i32 to index
  %c1 = arith.constant 1 : index
  %b1 = arith.addi %b, %c1 : index
  %c2 = arith.constant 2 : index
  %b2 = arith.addi %b, %c2 : index
  %c3 = arith.constant 3 : index
  %b3 = arith.addi %b, %c3 : index
  memref.store %tx, %out[%b] : memref<256xi32>
  memref.store %ty, %out[%b1] : memref<256xi32>
  memref.store %lane, %out[%b2] : memref<256xi32>
  memref.store %warp, %out[%b3] : memref<256xi32>
  func.return
}}
"""
    result = run_kernel(text, kernel="k", args=[np.zeros(256, np.int32)])
    assert result.diagnostics == [], result.render()
    got = result.args[0].reshape(64, 4)
    lin = np.arange(64)
    assert (got[:, 0] == lin % x).all()
    assert (got[:, 1] == lin // x).all()
    assert (got[:, 2] == lin % 32).all()
    assert (got[:, 3] == lin // 32).all()


def test_an_op_with_an_external_tmem_effect_model_runs_through_the_same_semantics() -> None:
    """gpu.barrier has no interpreter impl; once it describes itself as a barrier, it synchronizes."""
    from pathlib import Path

    from xdsl.dialects import gpu

    from tmem_dialect.dialects import interfaces
    from tmem_dialect.memory_model import EffectKind

    text = (Path(__file__).parent.parent / "examples" / "tmem_roundtrip.mlir").read_text()
    text = text.replace("nvvm.barrier", '"gpu.barrier"() : () -> ()')
    assert run_kernel(text, args=[np.zeros(128, np.int32)]).kinds() == {FindingKind.UNSUPPORTED}
    interfaces.register_external_effect(gpu.BarrierOp, lambda op: interfaces.TMEMEffect(EffectKind.BARRIER))
    try:
        result = run_kernel(text, args=[np.zeros(128, np.int32)])
    finally:
        del interfaces._EXTERNAL[gpu.BarrierOp]
    assert result.kinds() == {FindingKind.STORE_COMPLETION, FindingKind.DEALLOC_OUTSTANDING}
    assert (result.args[0] == np.arange(128)).all()


def test_func_call_runs_the_callee_per_lane() -> None:
    text = """
func.func private @twice_or_negate(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %odd = arith.andi %x, %c1 : i32
  %is_odd = arith.cmpi ne, %odd, %c0 : i32
  %r = scf.if %is_odd -> (i32) {
    %n = arith.subi %c0, %x : i32
    scf.yield %n : i32
  } else {
    %d = arith.addi %x, %x : i32
    scf.yield %d : i32
  }
  func.return %r : i32
}
func.func @k(%out: memref<64xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %v = func.call @twice_or_negate(%tid) : (i32) -> i32
  %t = arith.index_cast %tid : i32 to index
  memref.store %v, %out[%t] : memref<64xi32>
  func.return
}
"""
    result = run_kernel(text, kernel="k", args=[np.zeros(64, np.int32)])
    assert result.diagnostics == [], result.render()
    t = np.arange(64)
    assert (result.args[0] == np.where(t % 2 == 1, -t, 2 * t)).all()


EXTENDED_CONTRACT = """
llvm.func @k(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i2 = llvm.mul %tid, %c2 : i32
  %src = llvm.getelementptr %in[%i2] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
  %halves = llvm.load %src : !llvm.ptr<1> -> vector<2xf16>
  %packed = llvm.bitcast %halves : vector<2xf16> to i32
  %as_vec = llvm.bitcast %packed : i32 to vector<2xf16>
  %swapped = llvm.shufflevector %as_vec, %as_vec [1, 0] : vector<2xf16>
  %dst = llvm.getelementptr %out[%i2] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
  llvm.store %swapped, %dst : vector<2xf16>, !llvm.ptr<1>
  %wide = llvm.zext %packed : i32 to i64
  %c32 = llvm.mlir.constant(32 : i64) : i64
  %hi = llvm.shl %wide, %c32 : i64
  %both = llvm.or %hi, %wide : i64
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %at64 = llvm.add %tid, %c16 : i32
  %dst64 = llvm.getelementptr %out[%at64] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i64
  llvm.store %both, %dst64 : i64, !llvm.ptr<1>
  llvm.return
}
"""


def test_extended_contract_ops_bitcast_shuffle_and_wide_scalars() -> None:
    data = (np.arange(64) * 1.5).astype(np.float16)
    out = np.zeros(64 + 4 * 48, np.float16)
    result = run_kernel(EXTENDED_CONTRACT, kernel="k", args=[data, out])
    assert result.diagnostics == [], result.render()
    got = result.args[1]
    pairs = data.reshape(32, 2)
    assert (got[:64].reshape(32, 2) == pairs[:, ::-1]).all()
    words = got[64:].view(np.int64)[:32]
    packed = data.view(np.uint32).astype(np.int64)
    assert (words == (packed << 32) | packed).all()


def test_getelementptr_steps_into_nested_arrays():
    """Every index of a getelementptr counts: [0, %c, 1] into array<4 x array<2 x i16>> is
    0 * 16 + 2 * 4 + 1 * 2 = byte 10 (the interpreter once used the first index only)."""
    text = """
llvm.mlir.global internal @grid() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x array<2 x i16>>
func.func @gep(%out: memref<32xi64>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 32, 1, 1>} {
  %grid = llvm.mlir.addressof @grid : !llvm.ptr<3>
  %c = arith.constant 2 : i32
  %p = llvm.getelementptr %grid[0, %c, 1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<4 x array<2 x i16>>
  %a = llvm.ptrtoint %p : !llvm.ptr<3> to i64
  %b = llvm.ptrtoint %grid : !llvm.ptr<3> to i64
  %d = llvm.sub %a, %b : i64
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %idx = arith.index_cast %tid : i32 to index
  memref.store %d, %out[%idx] : memref<32xi64>
  func.return
}"""
    res = run_kernel(text, args=[np.zeros(32, np.int64)])
    assert res.errors == [], res.render()
    assert (res.args[0] == 10).all()
