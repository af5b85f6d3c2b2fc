"""interpreter.producers on a machine without a kernel: a cta_group::2 mma splits D across the pair, commit, in-flight D.

Shared memory, TMEM allocations and the issuing warp are set up by hand, so the test needs no
dialect ops: it checks the run-time semantics of the tensor core against formulas written here
(M = 256 with cta_group::2: CTA c holds rows 128c.. of D in lanes 0..127, computed from its own
A rows and the B halves of both CTAs, PTX ISA 9.7.16.10.5 layout A).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith

from tmem_dialect import isa
from tmem_dialect.interpreter import producers as P
from tmem_dialect.interpreter import smem_descriptor as sd
from tmem_dialect.interpreter.machine import Machine, Options
from tmem_dialect.interpreter.producer_mma import MmaOperands

F16 = isa.DType.F16


class FakeWarp:
    def __init__(self, warp: int, cta: int):
        self.warp, self.cta, self.warp_in_cta = warp, cta, warp % 4
        self.mask = np.zeros(32, dtype=bool)
        self.mask[0] = True

    def thread_id(self, lane: int) -> int:
        return 32 * self.warp_in_cta + lane


def write_kmajor_128b(raw: np.ndarray, base: int, tile: np.ndarray) -> None:
    """An (rows, 16) f16 tile, K-major 128B-swizzled: chunk c of row r at (r//8)*1024 + (r%8)*128 + (c^(r%8))*16."""
    bits = tile.view(np.uint16)
    for r in range(tile.shape[0]):
        for k in range(16):
            at = base + (r // 8) * 1024 + (r % 8) * 128 + (((2 * k) // 16) ^ (r % 8)) * 16 + (2 * k) % 16
            raw[at], raw[at + 1] = bits[r, k] & 0xFF, bits[r, k] >> 8


def setup(m: Machine, n: int):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((256, 16)).astype(np.float16)
    b = rng.standard_normal((n, 16)).astype(np.float16)
    for c in range(2):
        buf_a = m.memory.add_shared(c, "@a", np.zeros(128 * 128, np.uint8), 1024)
        buf_b = m.memory.add_shared(c, "@b", np.zeros(128 * 128, np.uint8), 1024)
        write_kmajor_128b(buf_a.raw, 0, a[128 * c : 128 * c + 128])
        write_kmajor_128b(buf_b.raw, 0, b[(n // 2) * c : (n // 2) * (c + 1)])
        m.ctas[c].tmem.allocator.take(0, 256, 4 * c, None, 2)
    return a, b, buf_a.base, buf_b.base


def test_cta_group_2_m256_splits_d_across_the_pair():
    m = Machine(128, 2, Options())
    n = 64
    a, b, a_base, b_base = setup(m, n)
    state = P.of(m)
    op = arith.ConstantOp.from_int_and_width(0, 32)
    idesc = isa.InstrDescriptor(isa.Kind.F16, 256, n, F16, F16).encode()
    operands = MmaOperands(isa.Kind.F16, 2, 0, sd.encode(b_base, 16, 1024, 2), idesc, False,
                             a_desc=sd.encode(a_base, 16, 1024, 2))
    state.mma(FakeWarp(0, 0), op, operands)
    assert [f.diagnostic.message for f in m.findings] == []
    full = (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)
    for c in range(2):
        cells = m.ctas[c].tmem.cells.reshape(128, 512)
        d = cells[:, :n].view(np.float32)
        np.testing.assert_array_equal(d, full[128 * c : 128 * c + 128])

    # D is in flight until a commit's phase is observed: warp 4 (CTA 1) reading it is an error
    P.check_access(m, FakeWarp(4, 1), op, isa_ld(), np.arange(8))
    assert any(f.kind.value == "async-pending" for f in m.findings)


def isa_ld():
    from tmem_dialect.memory_model import EffectKind

    return EffectKind.LD


def test_commit_then_observed_wait_makes_d_readable():
    m = Machine(128, 1, Options())
    rng = np.random.default_rng(8)
    a = rng.standard_normal((128, 16)).astype(np.float16)
    b = rng.standard_normal((64, 16)).astype(np.float16)
    buf_a = m.memory.add_shared(0, "@a", np.zeros(128 * 128, np.uint8), 1024)
    buf_b = m.memory.add_shared(0, "@b", np.zeros(64 * 128, np.uint8), 1024)
    write_kmajor_128b(buf_a.raw, 0, a)
    write_kmajor_128b(buf_b.raw, 0, b)
    m.ctas[0].tmem.allocator.take(0, 64, 0, None, 1)
    state = P.of(m)
    op = arith.ConstantOp.from_int_and_width(0, 32)
    issuer, reader = FakeWarp(0, 0), FakeWarp(1, 0)
    bar = 0x100
    state.init(issuer, op, np.full(32, bar), np.ones(32, dtype=np.int64))
    idesc = isa.InstrDescriptor(isa.Kind.F16, 128, 64, F16, F16).encode()
    state.mma(issuer, op, MmaOperands(isa.Kind.F16, 1, 0, sd.encode(buf_b.base, 16, 1024, 2), idesc, False,
                                        a_desc=sd.encode(buf_a.base, 16, 1024, 2)))
    d = m.ctas[0].tmem.cells.reshape(128, 512)[:, :64].view(np.float32)
    np.testing.assert_array_equal(d, (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32))
    state.commit(issuer, op, bar, 1)
    # the reader is ordered after the init by a CTA barrier, then waits for phase 0
    m.clocks[1].acquire(m.clocks[0].vc)
    done = state.wait(reader, op, np.full(32, bar), np.zeros(32, dtype=np.int64), None, blocking=False)
    assert done[0]
    P.check_access(m, reader, op, isa_ld(), np.arange(32 * 512, 33 * 512))
    assert [f.diagnostic.message for f in m.findings] == []
    # the issuer never waited: it may not read D
    P.check_access(m, issuer, op, isa_ld(), np.arange(8))
    assert [f.kind.value for f in m.findings] == ["async-pending"]
