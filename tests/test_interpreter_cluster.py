"""Clusters in the interpreter: N CTAs exchanging data through mapa and the cluster barrier (against
numpy), commit multicast by CTA rank, remote arrives, CTA-pair rendezvous, and the bug classes of
issue 11 (setmaxnreg not warpgroup-uniform, a peer CTA exiting before the pair dealloc, a cluster
barrier missing before the pair alloc), each with its legal twin, at the tcgen05 and nvvm levels
and in tmem-verify where it has the rule."""

from __future__ import annotations

import numpy as np
import pytest
from test_interpreter_misuse import CLUSTER_SYNC, PAIR_ALLOC, PAIR_DEALLOC, SCHEDULES, alloc, free, kernel

from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.interpreter.validation import apply_pipeline
from tmem_dialect.ir import parse_module
from tmem_dialect.passes.analysis import parse_options
from tmem_dialect.passes.verify import verify_findings

LEVELS = ["tcgen05", "nvvm"]

# Each CTA writes rank * 1000 + tid into its shared buffer; after a cluster barrier every thread
# reads the word of the same thread in the next CTA ((rank + 1) % n) through mapa.
EXCHANGE = """
llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x i32>
llvm.func @exchange(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %n = nvvm.read.ptx.sreg.cluster.nctarank : i32
  %base = llvm.mlir.addressof @buf : !llvm.ptr<3>
  %p = llvm.getelementptr %base[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  %c1000 = llvm.mlir.constant(1000 : i32) : i32
  %v0 = llvm.mul %rank, %c1000 : i32
  %v = llvm.add %v0, %tid : i32
  llvm.store %v, %p : i32, !llvm.ptr<3>
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %r1 = llvm.add %rank, %c1 : i32
  %next = llvm.urem %r1, %n : i32
  %rp = nvvm.mapa %p, %next : !llvm.ptr<3> -> !llvm.ptr<7>
  %x = llvm.load %rp : !llvm.ptr<7> -> i32
  %c128 = llvm.mlir.constant(128 : i32) : i32
  %row = llvm.mul %rank, %c128 : i32
  %i = llvm.add %row, %tid : i32
  %q = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %x, %q : i32, !llvm.ptr<1>
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  llvm.return
}
"""
FIRST_SYNC = "  nvvm.cluster.arrive aligned\n  nvvm.cluster.wait aligned\n  %c1 = "


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("n", [2, 4])
def test_cluster_exchange_through_mapa_equals_numpy(n: int, schedule: str) -> None:
    result = run_kernel(EXCHANGE, args=[np.zeros(128 * n, np.int32)], cluster=n, schedule=schedule)
    assert result.diagnostics == [], result.render()
    ranks, tids = np.meshgrid(np.arange(n), np.arange(128), indexing="ij")
    np.testing.assert_array_equal(result.args[0].reshape(n, 128), (ranks + 1) % n * 1000 + tids)


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_exchange_without_the_cluster_barrier_is_a_race(schedule: str) -> None:
    """The twin without the barrier between the stores and the peers' reads: a shared-memory race
    across CTAs (judged by happens-before, under every schedule)."""
    racy = EXCHANGE.replace(FIRST_SYNC, "  %c1 = ", 1)
    assert racy != EXCHANGE
    result = run_kernel(racy, args=[np.zeros(256, np.int32)], cluster=2, schedule=schedule)
    assert FindingKind.SHARED_RACE in result.kinds(), result.render()
    assert any("with no barrier ordering the two" in d.message for d in result.errors)


LAST_SYNC = "  nvvm.cluster.arrive aligned\n  nvvm.cluster.wait aligned\n  llvm.return"


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_exchange_without_the_final_cluster_barrier_reads_an_exited_peer(schedule: str) -> None:
    """Without the cluster barrier after the remote reads, a peer CTA may exit (and its shared
    memory go) before the read: judged by happens-before, whatever this schedule did."""
    early = EXCHANGE.replace(LAST_SYNC, "  llvm.return")
    assert early != EXCHANGE
    result = run_kernel(early, args=[np.zeros(512, np.int32)], cluster=4, schedule=schedule)
    assert result.kinds() == {FindingKind.PEER_EXITED}, result.render()
    # one error at the remote load for each peer CTA read
    assert len(result.errors) == 4
    assert all("accesses the shared memory of CTA" in d.message and "may exit before" in d.message
               for d in result.errors)


def test_mapa_to_a_rank_outside_the_cluster() -> None:
    bad = EXCHANGE.replace("%next = llvm.urem %r1, %n : i32", "%next = llvm.add %r1, %n : i32")
    result = run_kernel(bad, args=[np.zeros(256, np.int32)], cluster=2)
    assert FindingKind.MEMORY_FAULT in result.kinds(), result.render()
    assert any("maps to CTA rank 3, but the cluster has 2 CTAs" in d.message for d in result.errors)


SREGS = """
llvm.func @sregs(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %regs = [REGS]
  llvm.return
}
"""
REGISTERS = ["cluster.ctarank", "cluster.nctarank", "cluster.ctaid.x", "cluster.nctaid.x", "clusterid.x",
             "nclusterid.x", "ctaid.x", "nctaid.x", "cluster.ctaid.y", "cluster.nctaid.y"]


def test_cluster_special_registers() -> None:
    """Each register of each CTA of a 4-CTA cluster (the grid is one cluster along x)."""
    lines = []
    for j, name in enumerate(REGISTERS):
        lines += [f"  %r{j} = nvvm.read.ptx.sreg.{name} : i32",
                  f"  %k{j} = llvm.mlir.constant({len(REGISTERS)} : i32) : i32",
                  f"  %o{j} = llvm.mul %rank, %k{j} : i32",
                  f"  %j{j} = llvm.mlir.constant({j} : i32) : i32",
                  f"  %i{j} = llvm.add %o{j}, %j{j} : i32",
                  f"  %q{j} = llvm.getelementptr %out[%i{j}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32",
                  f"  llvm.store %r{j}, %q{j} : i32, !llvm.ptr<1>"]
    text = SREGS.replace("  %regs = [REGS]", "\n".join(lines))
    result = run_kernel(text, args=[np.zeros(4 * len(REGISTERS), np.int32)], cluster=4)
    assert result.diagnostics == [], result.render()
    got = result.args[0].reshape(4, len(REGISTERS))
    want = [[c, 4, c, 4, 0, 1, c, 4, 0, 1] for c in range(4)]
    np.testing.assert_array_equal(got, want)


# Each CTA inits its mbarrier (count 1) and fences the init for the cluster; CTA 0 commits with
# multicast mask 0b1010: CTAs 1 and 3 see phase 0 complete, CTAs 0 and 2 do not.
MULTICAST = """
llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
func.func @k(%out: memref<4xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %mask = arith.constant MASK : i16
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %is_t0 = arith.cmpi eq, %tid, %c0_i32 : i32
  scf.if %is_t0 {
    tcgen05.mbarrier.init %bar, %c1_i32 : !llvm.ptr<3>
    tcgen05.fence_mbarrier_init
  }
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  %is_cta0 = arith.cmpi eq, %rank, %c0_i32 : i32
  %issuer = arith.andi %is_t0, %is_cta0 : i1
  scf.if %issuer {
    tcgen05.commit %bar multicast %mask : !llvm.ptr<3>
  }
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %is_t0 {
    %ready = tcgen05.mbarrier.test_wait %bar, %c0_i32 : !llvm.ptr<3>, i32
    %flag = arith.extui %ready : i1 to i32
    %r = arith.index_cast %rank : i32 to index
    memref.store %flag, %out[%r] : memref<4xi32>
  }
  func.return
}
"""


def run_at(text: str, level: str, **options):
    module = parse_module(make_context(), text)
    if level == "nvvm":
        module = apply_pipeline(module, "convert-tcgen05-to-nvvm")
    return run_kernel(module, kernel="k", **options)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mask", [0b1010, 0b0111, 0b0001])
def test_commit_multicast_arrives_on_the_ctas_of_its_mask(mask: int, level: str) -> None:
    result = run_at(MULTICAST.replace("MASK", str(mask)), level, args=[np.full(4, -1, np.int32)], cluster=4)
    assert result.errors == [], result.render()
    np.testing.assert_array_equal(result.args[0], [(mask >> c) & 1 for c in range(4)])


def test_commit_multicast_beyond_the_cluster() -> None:
    result = run_at(MULTICAST.replace("MASK", str(0b100001)), "tcgen05", args=[np.zeros(4, np.int32)], cluster=4)
    assert FindingKind.MEMORY_FAULT in result.kinds(), result.render()
    assert any("multicasts to CTA rank 5, but the cluster has 4 CTAs" in d.message for d in result.errors)


def test_commit_multicast_before_the_peers_init_is_visible() -> None:
    """Without the cluster barrier after fence.mbarrier_init, CTA 0's multicast arrive on the
    other CTAs' barriers is not ordered after their init fence."""
    sync = "  nvvm.cluster.arrive aligned\n  nvvm.cluster.wait aligned\n"
    text = MULTICAST.replace("MASK", str(0b1010)).replace(sync, "", 1)
    result = run_at(text, "tcgen05", args=[np.zeros(4, np.int32)], cluster=4, schedule="reverse")
    assert FindingKind.MBARRIER_UNINITIALIZED in result.kinds(), result.render()
    assert any("from another CTA" in d.message or "from the peer CTA" in d.message for d in result.errors)


# nvvm level: every CTA arrives on the next CTA's mbarrier through its shared::cluster address.
REMOTE_ARRIVE = """
llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %n = nvvm.read.ptx.sreg.cluster.nctarank : i32
  %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
  %is_t0 = llvm.icmp "eq" %tid, %c0 : i32
  llvm.cond_br %is_t0, ^init, ^synced
^init:
  nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
  nvvm.fence.mbarrier.init
  llvm.br ^synced
^synced:
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  llvm.cond_br %is_t0, ^arrive, ^arrived
^arrive:
  %r1 = llvm.add %rank, %c1 : i32
  %next = llvm.urem %r1, %n : i32
  %remote = nvvm.mapa %bar, %next : !llvm.ptr<3> -> !llvm.ptr<7>
  nvvm.mbarrier.arrive %remote : !llvm.ptr<7>
  llvm.br ^arrived
^arrived:
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  llvm.cond_br %is_t0, ^test, ^done
^test:
  %ready = nvvm.mbarrier.test.wait %bar, %c0 : !llvm.ptr<3>, i32 -> i1
  %flag = llvm.zext %ready : i1 to i32
  %q = llvm.getelementptr %out[%rank] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %flag, %q : i32, !llvm.ptr<1>
  llvm.br ^done
^done:
  llvm.return
}
"""


@pytest.mark.parametrize("n", [2, 4])
def test_remote_mbarrier_arrive_through_mapa(n: int) -> None:
    result = run_kernel(REMOTE_ARRIVE, args=[np.zeros(n, np.int32)], cluster=n)
    assert result.errors == [], result.render()
    np.testing.assert_array_equal(result.args[0], np.ones(n))


def test_remote_arrive_on_a_peer_that_may_have_exited() -> None:
    """A remote arrive is an access to the peer CTA's shared memory: arriving after the last
    cluster barrier, with nothing keeping the peer alive, is reported (the arrive of a CTA whose
    peer's successful test.wait observed it is ordered before that peer's exit: not reported)."""
    text = REMOTE_ARRIVE.replace("""^arrived:
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
""", "^arrived:\n")
    assert text != REMOTE_ARRIVE
    result = run_kernel(text, args=[np.zeros(2, np.int32)], cluster=2)
    assert result.kinds() == {FindingKind.PEER_EXITED}, result.render()
    assert all("accesses the shared memory of CTA" in d.message for d in result.errors)
    line = REMOTE_ARRIVE[:REMOTE_ARRIVE.index("nvvm.mbarrier.arrive %remote")].count("\n") + 1
    assert result.errors and all(d.location.line == line for d in result.errors), result.render()


# ---- CTA pairs in a cluster ---------------------------------------------------------------------

PAIR = CLUSTER_SYNC + PAIR_ALLOC + CLUSTER_SYNC + PAIR_DEALLOC


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("schedule", ["round-robin", "reverse", "random:5"])
def test_pair_alloc_rendezvous_in_a_cluster_of_4(level: str, schedule: str) -> None:
    """Pairs (0, 1) and (2, 3) allocate, store and free their columns; every CTA holds its half."""
    result = run_at(kernel(PAIR), level, args=[np.zeros(1024, np.int32)], cluster=4, schedule=schedule)
    assert result.diagnostics == [], result.render()
    assert len(result.tmem) == 4
    for tmem in result.tmem:
        np.testing.assert_array_equal(tmem[:, 0], np.arange(128))


def test_pairs_of_a_cluster_agree_only_within_the_pair() -> None:
    """Pair (0, 1) allocates 64 columns and pair (2, 3) 32: legal (each pair agrees); 64 in CTA 0
    but 32 in its peer CTA 1 is a peer mismatch."""
    by_pair = """
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %second = arith.cmpi uge, %rank, %c1_i32 : i32
  %twice = arith.addi %rank, %rank : i32
  %pair1 = arith.cmpi uge, %twice, %c4_i32 : i32
  """
    body = CLUSTER_SYNC + by_pair + """
  scf.if %is_warp0 {
    scf.if %SPLIT {
      tcgen05.alloc %slot, 32 cta_group(2) : !llvm.ptr<3>
    } else {
      tcgen05.alloc %slot, 64 cta_group(2) : !llvm.ptr<3>
    }
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32""" + CLUSTER_SYNC + """
  scf.if %is_warp0 {
    scf.if %SPLIT {
      tcgen05.dealloc %base, 32 cta_group(2)
    } else {
      tcgen05.dealloc %base, 64 cta_group(2)
    }
  }"""
    result = run_kernel(kernel(body.replace("%SPLIT", "%pair1")), kernel="k", args=[np.zeros(1024, np.int32)],
                        cluster=4)
    assert result.diagnostics == [], result.render()
    result = run_kernel(kernel(body.replace("%SPLIT", "%second")), kernel="k", args=[np.zeros(1024, np.int32)],
                        cluster=4)
    assert FindingKind.PEER_MISMATCH in result.kinds(), result.render()
    d = next(d for d in result.errors if "must agree" in d.message)
    assert "CTA 1" in d.message and "CTA 0" in d.message


def test_cta_group_2_in_an_odd_cluster() -> None:
    """CTA 2 of a 3-CTA cluster has no peer."""
    result = run_kernel(kernel(PAIR), kernel="k", args=[np.zeros(1024, np.int32)], cluster=3)
    assert FindingKind.CTA_PAIR_REQUIRED in result.kinds(), result.render()
    assert any("CTA 2 is the last of a cluster of 3" in d.message for d in result.errors)


# Bug class: a peer CTA that exits before the pair dealloc. CTA 1 (odd ranks) skips its half of
# the dealloc and exits; CTA 0's dealloc can never complete.
EXIT_EARLY = CLUSTER_SYNC + PAIR_ALLOC + CLUSTER_SYNC + """
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %parity = arith.andi %rank, %c1_i32 : i32
  %even = arith.cmpi eq, %parity, %c0_i32 : i32
  %stays = arith.andi %is_warp0, %even : i1
  scf.if %DEALLOCATES {
    tcgen05.dealloc %base, 32 cta_group(2)
  }"""


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("n", [2, 4])
def test_peer_cta_exits_before_the_pair_dealloc(level: str, n: int) -> None:
    bad = run_at(kernel(EXIT_EARLY.replace("%DEALLOCATES", "%stays")), level, args=[np.zeros(1024, np.int32)],
                 cluster=n)
    assert FindingKind.PEER_EXITED in bad.kinds(), bad.render()
    exited = [f.diagnostic for f in bad.findings if f.kind is FindingKind.PEER_EXITED]
    assert len(exited) == n // 2
    assert all("exited without executing its half of the pair deallocation" in d.message for d in exited)
    assert FindingKind.DEADLOCK not in bad.kinds()
    good = run_at(kernel(EXIT_EARLY.replace("%DEALLOCATES", "%is_warp0")), level, args=[np.zeros(1024, np.int32)],
                  cluster=n)
    assert good.diagnostics == [], good.render()


@pytest.mark.parametrize("level", LEVELS)
def test_cluster_barrier_missing_before_the_pair_alloc_in_a_cluster_of_4(level: str) -> None:
    bad = run_at(kernel(PAIR_ALLOC + CLUSTER_SYNC + PAIR_DEALLOC), level, args=[np.zeros(1024, np.int32)], cluster=4)
    assert bad.kinds() == {FindingKind.CLUSTER_BARRIER_MISSING}, bad.render()
    # one per allocating warp: warp 0 of each of the 4 CTAs (warps 0, 4, 8, 12)
    missing = sorted(d.message.split(" of warp ")[1].split(" ")[0] for d in bad.errors)
    assert missing == ["0", "12", "4", "8"]
    good = run_at(kernel(PAIR), level, args=[np.zeros(1024, np.int32)], cluster=4)
    assert good.diagnostics == [], good.render()


# ---- setmaxnreg ---------------------------------------------------------------------------------

# Two warpgroups: warpgroup 0 uses TMEM, warpgroup 1 is the producer role that gives registers
# back. The role condition is on the warp index; %ROLE picks which warps take the producer branch.
SETMAXNREG = """
  %producer = arith.cmpi uge, %warp, %c4_i32 : i32
  %consumer = arith.cmpi ult, %warp, %c4_i32 : i32
  scf.if %ROLE {
    nvvm.setmaxregister decrease 40
  } else {
    nvvm.setmaxregister increase 232
  }
""" + alloc() + """
  scf.if %consumer {
    tcgen05.st %v, %taddr shape_32x32b x1 : vector<1xi32>
    tcgen05.wait store
  }""" + free()


def verify_kinds(text: str, level: str) -> set[FindingKind]:
    module = parse_module(make_context(), text)
    if level == "nvvm":
        module = apply_pipeline(module, "convert-tcgen05-to-nvvm")
    return {k for k, d in verify_findings(module, parse_options("8.6", False, False)) if d.severity.value == "error"}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("schedule", ["round-robin", "reverse"])
def test_setmaxnreg_not_warpgroup_uniform(level: str, schedule: str) -> None:
    """Only warp 4 of warpgroup 1 takes the producer branch: warps 5-7 execute the other setmaxnreg."""
    bad = kernel(SETMAXNREG.replace("%ROLE", "%is_warp4"), 256)
    result = run_at(bad, level, args=[np.zeros(1024, np.int32)], schedule=schedule)
    assert result.kinds() == {FindingKind.SETMAXNREG_UNIFORM}, result.render()
    assert any("all warps of a warpgroup must execute the same setmaxnreg" in d.message for d in result.errors)
    assert verify_kinds(bad, level) == {FindingKind.SETMAXNREG_UNIFORM}
    good = kernel(SETMAXNREG.replace("%ROLE", "%producer"), 256)
    result = run_at(good, level, args=[np.zeros(1024, np.int32)], schedule=schedule)
    assert result.diagnostics == [], result.render()
    assert verify_kinds(good, level) == set()


def test_setmaxnreg_missing_in_one_warp_is_reported_at_exit() -> None:
    """Warp 4 alone executes a setmaxnreg that the rest of its warpgroup never reaches."""
    body = """
  scf.if %is_warp4 {
    nvvm.setmaxregister decrease 40
  }"""
    result = run_kernel(kernel(body, 256), kernel="k", args=[np.zeros(1024, np.int32)])
    assert result.kinds() == {FindingKind.SETMAXNREG_UNIFORM}, result.render()
    assert len(result.errors) == 3  # warps 5, 6 and 7 never execute it
    assert all("but warp" in d.message and "never does" in d.message for d in result.errors)


def test_setmaxnreg_needs_a_warpgroup_sync_between_two() -> None:
    """The warpgroup synchronizes explicitly between setmaxnreg instructions (a CTA barrier here)."""
    twice = "\n  nvvm.setmaxregister decrease 40\n  SYNC\n  nvvm.setmaxregister increase 232\n"
    result = run_kernel(kernel(twice.replace("SYNC", ""), 128), kernel="k", args=[np.zeros(1024, np.int32)])
    assert result.kinds() == {FindingKind.SETMAXNREG_UNIFORM}, result.render()
    assert all("before synchronizing with warp" in d.message for d in result.errors)
    result = run_kernel(kernel(twice.replace("SYNC", "nvvm.barrier"), 128), kernel="k",
                        args=[np.zeros(1024, np.int32)])
    assert result.diagnostics == [], result.render()


def test_setmaxnreg_is_warp_collective() -> None:
    body = """
  scf.if %low_half {
    nvvm.setmaxregister decrease 40
  }"""
    result = run_kernel(kernel(body, 128), kernel="k", args=[np.zeros(1024, np.int32)])
    assert FindingKind.PARTIAL_COLLECTIVE in result.kinds(), result.render()


@pytest.mark.parametrize("level", LEVELS)
def test_the_declared_cluster_shape_is_the_run(level: str) -> None:
    """A kernel's cluster_dim (tcgen05.cluster_dim, nvvm.cluster_dim after the lowering) is the
    cluster the run uses: 2 x 2 CTAs, %cluster_ctaid.{x,y} from the rank; a different size asked
    for is an error."""
    body = """
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %x = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
  %y = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
  %ny = nvvm.read.ptx.sreg.cluster.nctaid.y : i32
  %is_t0 = arith.cmpi eq, %tid, %c0_i32 : i32
  scf.if %is_t0 {
    %c10 = arith.constant 10 : i32
    %c100 = arith.constant 100 : i32
    %y10 = arith.muli %y, %c10 : i32
    %ny100 = arith.muli %ny, %c100 : i32
    %xy = arith.addi %x, %y10 : i32
    %code = arith.addi %xy, %ny100 : i32
    %r = arith.index_cast %rank : i32 to index
    memref.store %code, %out[%r] : memref<1024xi32>
  }"""
    text = kernel(body).replace("tcgen05.reqntid = array<i32: 128, 1, 1>",
                                "tcgen05.reqntid = array<i32: 128, 1, 1>, tcgen05.cluster_dim = array<i32: 2, 2>")
    result = run_at(text, level, args=[np.zeros(1024, np.int32)])
    assert result.diagnostics == [], result.render()
    np.testing.assert_array_equal(result.args[0][:4], [200, 201, 210, 211])
    result = run_at(text, level, args=[np.zeros(1024, np.int32)], cluster=2)
    assert result.kinds() == {FindingKind.BAD_THREADS}
    assert "declares a cluster of 4 CTAs (cluster_dim 2, 2, 1) but the run asks for 2" in result.errors[0].message


def test_run_kernel_rejects_a_cluster_size_outside_1_to_16() -> None:
    result = run_kernel(EXCHANGE, args=[np.zeros(128, np.int32)], cluster=17)
    assert result.kinds() == {FindingKind.BAD_THREADS}
    assert "a cluster has 1 to 16 CTAs" in result.errors[0].message


def test_cta_group_2_mma_of_the_second_pair_of_a_cluster_of_4() -> None:
    """An M = 256 cta_group::2 mma issued in CTA 2 reads A and B halves from CTAs 2 and 3 (its
    pair) and writes each one's half of D; CTAs 0 and 1 are untouched."""
    from test_producers_pair import F16, FakeWarp, write_kmajor_128b
    from xdsl.dialects import arith

    from tmem_dialect import isa
    from tmem_dialect.interpreter import producers as P
    from tmem_dialect.interpreter import smem_descriptor as sd
    from tmem_dialect.interpreter.machine import Machine, Options
    from tmem_dialect.interpreter.producer_mma import MmaOperands

    m = Machine(128, 4, Options())
    n = 64
    rng = np.random.default_rng(11)
    a = rng.standard_normal((256, 16)).astype(np.float16)
    b = rng.standard_normal((n, 16)).astype(np.float16)
    for c in range(4):
        buf_a = m.memory.add_shared(c, "@a", np.zeros(128 * 128, np.uint8), 1024)
        buf_b = m.memory.add_shared(c, "@b", np.zeros(128 * 128, np.uint8), 1024)
        if c >= 2:  # garbage in pair (0, 1): reading it would change D
            write_kmajor_128b(buf_a.raw, 0, a[128 * (c - 2) : 128 * (c - 1)])
            write_kmajor_128b(buf_b.raw, 0, b[(n // 2) * (c - 2) : (n // 2) * (c - 1)])
        else:
            buf_a.raw[:] = rng.integers(0, 255, buf_a.raw.size, dtype=np.uint8)
            buf_b.raw[:] = rng.integers(0, 255, buf_b.raw.size, dtype=np.uint8)
        m.cta(c).tmem.allocator.take(0, 256, 4 * c, None, 2)
    op = arith.ConstantOp.from_int_and_width(0, 32)
    idesc = isa.InstrDescriptor(isa.Kind.F16, 256, n, F16, F16).encode()
    operands = MmaOperands(isa.Kind.F16, 2, 0, sd.encode(buf_b.base, 16, 1024, 2), idesc, False,
                             a_desc=sd.encode(buf_a.base, 16, 1024, 2))
    P.of(m).mma(FakeWarp(8, 2), op, operands)
    assert [f.diagnostic.message for f in m.findings] == []
    full = (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)
    for c in (2, 3):
        d = m.cta(c).tmem.cells.reshape(128, 512)[:, :n].view(np.float32)
        np.testing.assert_array_equal(d, full[128 * (c - 2) : 128 * (c - 1)])
    for c in (0, 1):
        assert not m.cta(c).tmem.cells.any()
