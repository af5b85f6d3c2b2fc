"""Shared memory's per-byte shadow: the last writing op and its proxy, races byte by byte.

check_proxy (the fence.proxy.async rule for mma/cp/TMA reads) reads the proxy of each byte's last
write from the shadow; a TMA copy writes through the async proxy, a generic store does not, and a
generic store over TMA-written bytes must make them generic again. Memory is byte-addressed: two
warps storing the two halves of one word do not race; storing the same byte does.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tmem_dialect.dialects import make_context
from tmem_dialect.interpreter.memory import Buffer
from tmem_dialect.interpreter.shared_memory import SharedShadows, async_proxy_write
from tmem_dialect.interpreter.sync import WarpClock
from tmem_dialect.ir import parse_module

EXAMPLE = Path(__file__).parent.parent / "examples" / "warp_specialized_gemm.mlir"
WORDS = 64

_module = parse_module(make_context(), EXAMPLE.read_text(), EXAMPLE.name)
TMA = next(op for op in _module.walk() if op.name == "tcgen05.tma_load")
STORE = next(op for op in _module.walk() if op.name == "vector.store")
OPS = {"tma": TMA, "store": STORE}


def test_only_a_tma_copy_writes_through_the_async_proxy() -> None:
    assert async_proxy_write(TMA)
    assert not async_proxy_write(STORE)
    assert not any(async_proxy_write(op) for op in _module.walk() if op.name != "tcgen05.tma_load")


writes = st.lists(
    st.tuples(st.sampled_from(sorted(OPS)), st.lists(st.integers(0, WORDS - 1), min_size=1, max_size=WORDS)),
    min_size=1,
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(writes)
def test_each_word_keeps_its_last_writer_and_that_writers_proxy(sequence) -> None:
    reports: list[object] = []
    shadows = SharedShadows(1, [WarpClock.new(0, 1)], lambda *a, **k: reports.append(a))
    buf = Buffer("smem", 0, np.zeros(WORDS * 4, dtype=np.uint8), 3, cta=0)
    shadow = shadows.shadow_of(buf)
    warp = SimpleNamespace(warp=0)
    last: dict[int, str] = {}
    for name, words in sequence:
        index = np.unique(np.array(words, dtype=np.int64))
        shadows._races(warp, OPS[name], buf, shadow, index, write=True)  # type: ignore[arg-type]
        last.update((int(x), name) for x in index)
    for word in range(WORDS):
        expected = last.get(word)
        assert shadow.write_op[word] is (OPS[expected] if expected else None)
        assert bool(shadow.async_proxy[word]) == (expected == "tma")
    assert reports == []  # one warp: nothing races


HALVES = """
llvm.mlir.global internal @word() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<2 x i16>

func.func @halves(%out: memref<64xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %word = llvm.mlir.addressof @word : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5 : i32
  %lane0 = arith.cmpi eq, %tid, %c0 : i32
  %c32 = arith.constant 32 : i32
  %lane32 = arith.cmpi eq, %tid, %c32 : i32
  %value = arith.trunci VALUE : i32 to i16
  scf.if %lane0 {
    %p = llvm.getelementptr %word[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i16
    llvm.store %value, %p : i16, !llvm.ptr<3>
  }
  scf.if %lane32 {
    %p = llvm.getelementptr %word[SECOND] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i16
    llvm.store %value, %p : i16, !llvm.ptr<3>
  }
  nvvm.barrier
  %both = llvm.load %word : !llvm.ptr<3> -> i32
  %idx = arith.index_cast %tid : i32 to index
  memref.store %both, %out[%idx] : memref<64xi32>
  func.return
}
"""


def _run_halves(second: int, value: str = "%tid"):
    from tmem_dialect.interpreter import run_kernel

    text = HALVES.replace("SECOND", str(second)).replace("VALUE", value)
    return run_kernel(parse_module(make_context(), text, "halves.mlir"), args=[np.zeros(64, np.int32)])


def test_two_warps_storing_the_halves_of_one_word_do_not_race() -> None:
    res = _run_halves(1)
    assert res.errors == [], res.render()
    assert int(res.args[0][0]) == 32 << 16  # thread 0's half (0) low, thread 32's (32) high


def test_two_warps_storing_the_same_half_race() -> None:
    from tmem_dialect.findings import FindingKind

    res = _run_halves(0)
    assert FindingKind.SHARED_RACE in res.kinds(), res.render()
    assert any("(byte 0)" in d.message for d in res.errors), res.render()



def test_two_warps_storing_the_same_value_to_one_half_do_not_race() -> None:
    """The PTX memory model does not require race freedom: every order of two stores of the same
    bytes leaves the same value for every reader (Triton's default partition stores its
    partition-state word from every thread)."""
    res = _run_halves(0, "%warp")  # warp 0 stores 0, warp 1 stores 1: a race
    assert any(k.value == "shared-race" for k in res.kinds()), res.render()
    res = _run_halves(0, "%c5")  # both store 5 (the word's other half stays unwritten)
    assert all(k.value != "shared-race" for k in res.kinds()), res.render()
    assert int(res.args[0][0]) & 0xFFFF == 5
