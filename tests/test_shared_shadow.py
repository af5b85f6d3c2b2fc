"""Shared memory's per-word shadow: the last writing op and its proxy, under any sequence of writes.

check_proxy (the fence.proxy.async rule for mma/cp/TMA reads) reads the proxy of each word's last
write from the shadow; a TMA copy writes through the async proxy, a generic store does not, and a
generic store over TMA-written words must make them generic again.
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
