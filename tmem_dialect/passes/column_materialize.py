"""Write a column plan into a kernel: alloc by warp 0 and relinquish, slot publication, decl_buffer at each offset, dealloc.

The form is the hand-written one of examples/tmem_roundtrip.mlir, with the fences the ISA's
handoff rule asks around each barrier written out:

    scf.if %is_warp0 { tcgen05.alloc %slot, N ; tcgen05.relinquish_alloc_permit }
    tcgen05.fence before_thread_sync ; nvvm.barrier ; tcgen05.fence after_thread_sync
    %base = llvm.load %slot
    %b = tcgen05.decl_buffer (%base + offset)
    ... the buffers' uses ...
    tcgen05.wait load/store ; tcgen05.fence before_thread_sync ; nvvm.barrier ; tcgen05.fence after_thread_sync
    scf.if %is_warp0 { tcgen05.dealloc %base, N }

For a CTA pair (the kernel's ops use cta_group::2) the form is examples/gemm_pair_tile.mlir's: warp
0 of each CTA runs the same cta_group::2 alloc, relinquish and dealloc; a cluster barrier comes
before the alloc (the peer CTA running; the kernel's own when it has one ahead of the first use)
and stands for the CTA barrier before the dealloc (every access of both CTAs done, the peer not
exited: TMEM_FACTS.md, passes/analysis/pairs.py):

    nvvm.cluster.arrive aligned ; nvvm.cluster.wait aligned
    scf.if %is_warp0 { tcgen05.alloc %slot, N cta_group(2) ; tcgen05.relinquish_alloc_permit cta_group(2) }
    ... as above ...
    tcgen05.fence before_thread_sync ; nvvm.cluster.arrive aligned ; nvvm.cluster.wait aligned
    tcgen05.fence after_thread_sync ; scf.if %is_warp0 { tcgen05.dealloc %base, N cta_group(2) }
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import IntAttr, ModuleOp, StringAttr, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tmem_dialect import isa, memory_model
from tmem_dialect.conventions import SHARED_ADDRESS_SPACE
from tmem_dialect.dialects import llvm_ext, nvvm, nvvm_sync, tcgen05, tcgen05_tiles
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.column_assignment import Slot
from tmem_dialect.passes.column_liveness import BufferLife
from tmem_dialect.passes.insert_waits import RULE_ATTR

SLOT_NAME = "tmem_plan_slot"
PLANNED_ATTR = "tmem.planned_columns"
"""On each decl_buffer the pass made: the columns [start, end) and lanes it was given."""


@dataclass
class Allocation:
    """One tcgen05.alloc of the plan and the buffers it holds."""

    ncols: int
    buffers: list[tuple[BufferLife, Slot]]
    first: Operation
    """The top-level op of the function body the allocation goes before."""
    last: Operation
    """The top-level op the dealloc goes after: it holds the last use of these buffers."""
    relinquish: bool
    cta_group: int = 1
    cluster_synced: bool = False
    """A pair allocation: a cluster barrier already precedes `first` (else the pass writes one)."""


def _located(op: Operation, at: Operation) -> Operation:
    op.location = at.location
    return op


def _tagged(op: Operation, *rules: memory_model.Rule) -> Operation:
    op.attributes[RULE_ATTR] = StringAttr("; ".join(r.cite() for r in rules))
    return op


def _fresh_symbol(module: ModuleOp, stem: str) -> str:
    taken = {o.sym_name.data for o in module.ops if hasattr(o, "sym_name")}
    name, k = stem, 0
    while name in taken:
        k += 1
        name = f"{stem}_{k}"
    return name


def _slot_global(module: ModuleOp, at: Operation) -> str:
    name = _fresh_symbol(module, SLOT_NAME)
    glob = llvm.GlobalOp(i32, name, "internal", addr_space=SHARED_ADDRESS_SPACE, alignment=4)
    first = module.body.block.first_op
    module.body.block.insert_op_before(_located(glob, at), first) if first else module.body.block.add_op(glob)
    return name


def _insert(ops: list[Operation], point: InsertPoint) -> None:
    Rewriter.insert_op(ops, point)


def _warp0_predicate(body: Block, at: Operation) -> SSAValue:
    """`warp == 0`, computed at the start of the function (warp 0 allocates and frees)."""
    tid = nvvm.SPECIAL_REGISTER_BY_NAME["nvvm.read.ptx.sreg.tid.x"]()
    shift = arith.ConstantOp.from_int_and_width((isa.WARP_SIZE - 1).bit_length(), 32)
    warp = arith.ShRUIOp(tid, shift)
    zero = arith.ConstantOp.from_int_and_width(0, 32)
    is_warp0 = arith.CmpiOp(warp, zero, "eq")
    tid.results[0].name_hint, warp.result.name_hint = "tmem_tid", "tmem_warp"
    is_warp0.result.name_hint = "tmem_is_warp0"
    ops = [tid, shift, warp, zero, is_warp0]
    _insert([_located(o, at) for o in ops], InsertPoint.at_start(body))
    return is_warp0.result


def _cluster_barrier(at: Operation) -> list[Operation]:
    return [_located(nvvm_sync.ClusterArriveOp(aligned=True), at), _located(nvvm_sync.ClusterWaitOp(aligned=True), at)]


def _handoff_barrier(at: Operation, cluster: bool = False) -> list[Operation]:
    """The fenced thread barrier; over the cluster (both CTAs of a pair) when `cluster`."""
    barrier = _cluster_barrier(at) if cluster else [_located(nvvm_sync.BarrierOp(), at)]
    return [
        _located(_tagged(tcgen05.FenceOp(tcgen05.FenceKind.before_thread_sync), memory_model.HANDOFF), at),
        *barrier,
        _located(_tagged(tcgen05.FenceOp(tcgen05.FenceKind.after_thread_sync), memory_model.HANDOFF), at),
    ]


def _warp0(pred: SSAValue, ops: list[Operation], at: Operation) -> Operation:
    return _located(scf.IfOp(pred, [], Region(Block([*ops, scf.YieldOp()]))), at)


def _accesses(buffers: list[tuple[BufferLife, Slot]]) -> dict[EffectKind, list[Operation]]:
    """The async TMEM accesses of the buffers' uses that may still be outstanding at the dealloc,
    by kind.

    A tile_store followed in its block by a tile_load of the same region and fragment is
    retired there: the load reads the cells the store wrote, in the same threads, so a
    tcgen05.wait::st goes between them (rule 2) and waits for every earlier store too.
    """
    kinds: dict[EffectKind, list[Operation]] = {}
    for life, _ in buffers:
        for use in life.uses:
            if isinstance(use, tcgen05_tiles.TileLoadOp):
                kinds.setdefault(EffectKind.LD, []).append(use)
            elif isinstance(use, tcgen05_tiles.TileStoreOp):
                if not _read_back_later(use):
                    kinds.setdefault(EffectKind.ST, []).append(use)
            elif (effect := tmem_effect(use)) is not None:
                kinds.setdefault(effect.kind, []).append(use)
    return kinds


def _retiring_waits(alloc: Allocation) -> tuple[list[tuple[Operation, Operation]], list[Operation]]:
    """The tcgen05.wait::ld / ::st the dealloc needs (rule 4): (wait, top-level op it follows)
    pairs and the waits for the dealloc's epilogue.

    A wait goes right after the top-level op holding the last access of its kind (it retires
    every earlier access of that kind of the thread, so the dealloc's need is met there, and a
    read-back after a store loop needs that same wait::st, rule 2, rather than a second one), or
    into the epilogue when that op is the last one; none when a top-level wait of that kind
    already follows it.
    """
    last = alloc.last
    block = last.parent_block()
    assert block is not None
    ops = list(block.ops)
    index = {op: i for i, op in enumerate(ops)}
    pending = _accesses(alloc.buffers)
    after: list[tuple[Operation, Operation]] = []
    epilogue: list[Operation] = []
    for kind, wait in ((EffectKind.LD, tcgen05.WaitKind.load), (EffectKind.ST, tcgen05.WaitKind.store)):
        uses = pending.get(kind)
        if not uses:
            continue
        top = max(index[_top_level(u, index)] for u in uses)
        done = EffectKind.WAIT_LD if kind is EffectKind.LD else EffectKind.WAIT_ST
        if any(_kind_of(ops[j]) is done for j in range(top + 1, index[last] + 1)):
            continue
        op = _located(_tagged(tcgen05.WaitOp(wait), memory_model.DEALLOC_COMPLETION), last)
        if top < index[last]:
            after.append((op, ops[top]))
        else:
            epilogue.append(op)
    return after, epilogue


def _top_level(op: Operation, index: dict[Operation, int]) -> Operation:
    found: Operation | None = op
    while found is not None and found not in index:
        found = found.parent_op()
    assert found is not None, "a use of a planned buffer outside the function body"
    return found


def _kind_of(op: Operation) -> EffectKind | None:
    effect = tmem_effect(op)
    return None if effect is None else effect.kind


def _read_back_later(store: tcgen05_tiles.TileStoreOp) -> bool:
    op = store.next_op
    while op is not None:
        if (
            isinstance(op, tcgen05_tiles.TileLoadOp)
            and op.buffer == store.buffer
            and op.region_offsets == store.region_offsets
            and op.region_sizes == store.region_sizes
            and op.fragment_layout == store.fragment_layout
        ):
            return True
        op = op.next_op
    return False


def materialize(function: Operation, allocations: list[Allocation]) -> None:
    module = function.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    assert isinstance(module, ModuleOp)
    body = function.regions[0].blocks[0]
    anchor = allocations[0].buffers[0][0].op
    is_warp0 = _warp0_predicate(body, anchor)
    for alloc in allocations:
        _materialize_one(module, alloc, is_warp0)


def _materialize_one(module: ModuleOp, alloc: Allocation, is_warp0: SSAValue) -> None:
    at = alloc.buffers[0][0].op
    slot_name = _slot_global(module, at)
    slot_ptr = _located(llvm.AddressOfOp(slot_name, llvm.LLVMPointerType(IntAttr(SHARED_ADDRESS_SPACE))), at)
    group = alloc.cta_group
    inside: list[Operation] = [_located(tcgen05.AllocOp(slot_ptr, alloc.ncols, group), at)]
    if alloc.relinquish:
        inside.append(_located(tcgen05.RelinquishAllocPermitOp(group), at))
    base = _located(llvm_ext.LoadOp(slot_ptr, i32), at)
    slot_ptr.results[0].name_hint, base.results[0].name_hint = slot_name, "tmem_base"
    peer_running = _cluster_barrier(at) if group == 2 and not alloc.cluster_synced else []
    prologue: list[Operation] = [slot_ptr, *peer_running, _warp0(is_warp0, inside, at), *_handoff_barrier(at), base]
    for life, slot in alloc.buffers:
        address: SSAValue = base.results[0]
        offset = isa.make_taddr(slot.lane_shift, slot.column)
        if offset:
            const = _located(arith.ConstantOp.from_int_and_width(offset, 32), life.op)
            add = _located(arith.AddiOp(base.results[0], const), life.op)
            prologue += [const, add]
            address = add.result
        decl = _located(tcgen05_tiles.DeclBufferOp(address, life.op.buffer_type), life.op)
        width = life.op.buffer_type.tile_layout
        decl.attributes[PLANNED_ATTR] = _planned(slot, width)
        if life.op.result.name_hint:
            decl.result.name_hint = life.op.result.name_hint
        prologue.append(decl)
        life.op.result.replace_all_uses_with(decl.result)
    _insert(prologue, InsertPoint.before(alloc.first))
    for life, _ in alloc.buffers:
        Rewriter.erase_op(life.op)

    while isinstance(alloc.last.next_op, tcgen05.WaitOp):  # the kernel's own waits on the last use
        alloc.last = alloc.last.next_op
    last = alloc.last
    after, epilogue = _retiring_waits(alloc)
    for wait, follows in after:
        _insert([wait], InsertPoint.after(follows))
    epilogue += _handoff_barrier(last, cluster=group == 2)
    epilogue.append(_warp0(is_warp0, [_located(tcgen05.DeallocOp(base.results[0], alloc.ncols, group), last)], last))
    _insert(epilogue, InsertPoint.after(last))


def resolve_addresses(root: Operation) -> None:
    """Rewrite each tcgen05.buffer_address of a decl_buffer into the address it names: at each
    user, the decl_buffer's address + `(lane << 16) + column` (the address itself at [0, 0]).

    The arithmetic goes right before each user, which the decl_buffer dominates (the address op
    may sit before a later allocation's decl_buffer). An address of anything else (a buffer block
    argument) is left for the lowering, which rejects it at the op.
    """
    from tmem_dialect.dialects.tcgen05_buffers import BufferAddressOp

    for op in [o for o in root.walk() if isinstance(o, BufferAddressOp)]:
        decl = op.buffer.owner
        if not isinstance(decl, tcgen05_tiles.DeclBufferOp):
            continue
        for use in list(op.result.uses):
            user, index = use.operation, use.index
            address: SSAValue = decl.taddr
            if op.taddr_offset:
                const = _located(arith.ConstantOp.from_int_and_width(op.taddr_offset, 32), op)
                add = _located(arith.AddiOp(decl.taddr, const), op)
                Rewriter.insert_op([const, add], InsertPoint.before(user))
                address = add.result
            user.operands[index] = address
        Rewriter.erase_op(op)


def _planned(slot: Slot, layout: object) -> Attribute:
    from tmem_dialect.layout import TCOL, TileLayout

    assert isinstance(layout, TileLayout)
    end = slot.column + layout.span(TCOL)
    return StringAttr(f"columns [{slot.column}, {end}), lane offset {slot.lane_shift}")
