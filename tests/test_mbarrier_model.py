"""The interpreter's mbarrier model: phases, parity waits, happens-before, counts, tx, visibility, commit."""

from __future__ import annotations

import numpy as np

from tmem_dialect.findings import FindingKind as K
from tmem_dialect.interpreter.mbarrier import MBarriers
from tmem_dialect.interpreter.sync import Barrier, WarpClock, complete_barrier

WARPS = 4
ADDR = 0x10000


def setup(count=1):
    clocks = [WarpClock.new(w, WARPS) for w in range(WARPS)]
    m = MBarriers(WARPS)
    assert m.init(0, ADDR, count, 0, clocks[0], None) == []
    return m, clocks, m.get(0, ADDR)


def bar_sync(clocks, warps):
    b = Barrier(expected=32 * len(warps), warps=list(warps))
    complete_barrier(b, clocks)


def test_fresh_barrier_parity_semantics():
    m, clocks, b = setup()
    assert not m.wait_ready(b, 0, None)  # phase 0 in progress
    assert m.wait_ready(b, 1, None)  # the phase "before" counts as complete
    note = m.observe(b, 0, clocks[0], 1, None)
    assert note is not None and note.kind is K.MBARRIER_PHASE and "passes at once" in note.message


def test_phases_flip_and_reset_the_count():
    m, clocks, b = setup(count=2)
    for phase in range(3):
        _, out = m.arrive(0, ADDR, 0, clocks[0])
        assert out == [] and b.phase == phase and b.pending == 1
        _, out = m.arrive(0, ADDR, 0, clocks[0])
        assert out == [] and b.phase == phase + 1 and b.pending == 2
        assert m.wait_ready(b, phase & 1, None) and not m.wait_ready(b, (phase + 1) & 1, None)


def test_arrive_then_wait_is_happens_before():
    m, clocks, b = setup()
    bar_sync(clocks, range(WARPS))  # make the init visible
    producer_clock = clocks[1].now
    assert not clocks[2].knows(1, producer_clock)
    token, out = m.arrive(0, ADDR, 1, clocks[1])
    assert out == [] and token == 0
    assert m.wait_ready(b, 0, None) and m.wait_ready(b, None, token)
    assert m.observe(b, 2, clocks[2], 0, None) is None
    assert clocks[2].knows(1, producer_clock)
    assert not clocks[3].knows(1, producer_clock)  # a warp that did not wait learns nothing


def test_use_before_init_and_init_not_visible():
    clocks = [WarpClock.new(w, WARPS) for w in range(WARPS)]
    m = MBarriers(WARPS)
    _, out = m.arrive(0, ADDR, 1, clocks[1])
    assert [o.kind for o in out] == [K.MBARRIER_UNINITIALIZED] and "no mbarrier.init" in out[0].message
    m.init(0, ADDR, 1, 0, clocks[0], None)
    _, out = m.arrive(0, ADDR, 1, clocks[1])
    assert [o.kind for o in out] == [K.MBARRIER_UNINITIALIZED] and "not visible" in out[0].message
    bar_sync(clocks, range(WARPS))
    _, out = m.arrive(0, ADDR, 2, clocks[2])
    assert out == []


def test_peer_cta_needs_fence_mbarrier_init():
    m, clocks, _ = setup(count=2)
    bar_sync(clocks, range(WARPS))
    _, out = m.arrive(0, ADDR, 3, clocks[3], peer=True)
    assert [o.kind for o in out] == [K.MBARRIER_UNINITIALIZED] and "fence.mbarrier_init" in out[0].message
    m2, clocks2, _ = setup(count=2)
    m2.fence_init(0, clocks2[0])
    bar_sync(clocks2, range(WARPS))
    assert m2.arrive(0, ADDR, 3, clocks2[3], peer=True)[1] == []


def test_count_and_tx_mismatches():
    m, clocks, b = setup(count=2)
    _, out = m.arrive(0, ADDR, 0, clocks[0], count=3)
    assert [o.kind for o in out] == [K.MBARRIER_COUNT]
    m, clocks, b = setup(count=1)
    _, out = m.arrive(0, ADDR, 0, clocks[0], tx=1024)  # arrive.expect_tx
    assert out == [] and b.phase == 0  # waits for the bytes
    assert m.complete_tx(0, ADDR, 512) == [] and b.phase == 0
    assert m.complete_tx(0, ADDR, 512) == [] and b.phase == 1
    # phase 1: bytes before the expect_tx that announces them are legal (the tx-count range is
    # signed, PTX ISA 9.7.13.15.1: a peer CTA's TMA may land before the leader's expect_tx) ...
    assert m.complete_tx(0, ADDR, 16) == [] and b.phase == 1
    _, out = m.arrive(0, ADDR, 0, clocks[0], tx=16)
    assert out == [] and b.phase == 2
    # ... but once the phase's last arrival is in, surplus bytes are a mismatch, however they come
    _, out = m.arrive(0, ADDR, 0, clocks[0], tx=8)
    assert out == [] and b.phase == 2
    out = m.complete_tx(0, ADDR, 16)
    assert [o.kind for o in out] == [K.TX_COUNT]
    m, clocks, b = setup(count=1)
    assert m.complete_tx(0, ADDR, 32) == []
    _, out = m.arrive(0, ADDR, 0, clocks[0], tx=16)
    assert [o.kind for o in out] == [K.TX_COUNT] and "16 more transaction bytes" in out[0].message


def test_stuck_waits_name_the_cause():
    m, clocks, b = setup(count=2)
    assert m.stuck_wait(b, 0, None).kind is K.MBARRIER_PHASE
    assert "parity 1" in m.stuck_wait(b, 0, None).message
    m.arrive(0, ADDR, 0, clocks[0])
    stuck = m.stuck_wait(b, 0, None)
    assert stuck.kind is K.MBARRIER_COUNT and "1 of 2 arrivals" in stuck.message
    assert [x.kind for _, x in m.leftovers()] == [K.MBARRIER_COUNT]
    m, clocks, b = setup(count=1)
    m.expect_tx(0, ADDR, 0, clocks[0], 64)
    m.arrive(0, ADDR, 0, clocks[0])
    assert m.stuck_wait(b, 0, None).kind is K.TX_COUNT


def test_inval_while_in_use():
    m, clocks, _ = setup(count=2)
    m.arrive(0, ADDR, 0, clocks[0])
    out = m.inval(0, ADDR, 0, clocks[0])
    assert [o.kind for o in out] == [K.MBARRIER_IN_USE]
    _, out = m.arrive(0, ADDR, 0, clocks[0])
    assert [o.kind for o in out] == [K.MBARRIER_UNINITIALIZED] and "inval" in out[0].message
    m, clocks, _ = setup(count=1)
    m.arrive(0, ADDR, 0, clocks[0])
    assert m.inval(0, ADDR, 0, clocks[0]) == []


def test_commit_completes_async_ops_only_for_observers():
    m, clocks, b = setup()
    bar_sync(clocks, range(WARPS))
    t = m.tracker
    seq = t.issue(0)  # an mma of warp 0
    assert not t.complete_for(0, 0, seq) and t.uncommitted(0)
    assert m.commit(0, ADDR, 0, clocks[0], None) == []
    assert not t.uncommitted(0)
    assert not t.complete_for(0, 0, seq)  # the issuer itself must still wait
    assert m.wait_ready(b, 0, None)
    m.observe(b, 1, clocks[1], 0, None)
    assert t.complete_for(1, 0, seq) and not t.complete_for(2, 0, seq)
    t.share([1, 2])  # a CTA barrier between the observer and warp 2
    assert t.complete_for(2, 0, seq)
    later = t.issue(0)  # an mma after the commit is not covered
    assert not t.complete_for(1, 0, later)


def test_parity_wait_after_two_phases_still_acquires():
    m, clocks, b = setup()
    bar_sync(clocks, range(WARPS))
    m.arrive(0, ADDR, 1, clocks[1])
    m.arrive(0, ADDR, 1, clocks[1])
    c = clocks[1].now - 1
    assert b.phase == 2 and m.wait_ready(b, 1, None) and not m.wait_ready(b, 0, None)
    m.observe(b, 3, clocks[3], 1, None)
    assert clocks[3].knows(1, c)
    assert np.all(clocks[3].vc >= 0)
