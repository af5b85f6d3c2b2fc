"""Warp-specialized dispatch loops unrolled round by round, so tmem-verify sees which partition each warp runs in each round.

Triton lowers `ttg.warp_specialize` to a dispatch loop: the default partition writes one state
byte per worker warp into shared memory, then every warp meets at a CTA-wide named barrier; the
workers loop { barrier; read their byte; run the partition it selects (or leave on the exit
code); barrier ... }. The TMEM protocol between the partitions (an mma warp's commit observed by
the epilogue's mbarrier wait, the accumulator zeroed before the first mma) holds round by round,
but a fixpoint over the loop lets any warp run any partition any number of times, so it cannot
be proven there. This module finds the rounds and unrolls them in a copy of the function, with
the state byte each warp reads in each round, which tmem-verify then checks as it checks any
kernel.

Why round k reads the k-th state (PTX ISA "barrier{.cta}": a barrier without a thread count
waits for every non-exited thread of the CTA, and orders their shared-memory accesses): when
every named barrier of the dispatch id is CTA-wide, its instances are numbered alike in all
warps, the i-th arrival of each warp being instance i. Every path of a round arrives n times
(the first arrival comes before the read), c0 times before the loop. A store group that the
writers issue after c0 + (k - 1) * n arrivals and before the next one is ordered before round
k's read (its instance c0 + (k - 1) * n + 1 waits for the writers' arrival after the store),
and the next group after it (that group's writers wait at the instance ending round k, which the
readers reach after the read). So the read of round k sees the bytes of groups 1..k exactly.

What is checked (anything else, and the function is analysed as it is): the state load is an
8-bit llvm.load in the loop header after its one barrier; every llvm.store to the same shared
object has a constant offset, and those that touch the state bytes store constants, outside the
loop, run by the warps thread ids select, after a single count of barrier arrivals; every
barrier of the dispatch id is CTA-wide; each round arrives the same number of times on every
path. Assumed: no asynchronous copy (TMA, cp.async) writes the state bytes (compilers keep them
apart from the staging buffers; a copy's footprint is not known statically).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.kernel_checks import type_size
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis.handoff import barrier_count, barrier_id
from tmem_dialect.passes.cfg import CFG, Loop, Node
from tmem_dialect.passes.forms import Form
from tmem_dialect.passes.threads import ThreadSpace
from tmem_dialect.passes.values import Values

MAX_ROUNDS = 16  # a dispatch loop of more rounds is analysed as a loop
_ATOMIC_SPAN = 16  # bytes an atomic may write from its address (at most a 128-bit operation)


@dataclass
class Unrolled:
    """A copy of the function with the dispatch loop unrolled into `rounds` rounds."""

    function: Operation
    known: dict[SSAValue, Form]
    """Each round's state load: the byte every thread reads in that round."""
    rounds: int
    origin: dict[Operation, Operation]
    """Each op of the copy: the op of the function it stands for."""


def unroll_dispatch(function: Operation, cfg: CFG, values: Values) -> Unrolled | None:
    """The function unrolled by the rounds of its warp-specialized dispatch loop, or None when
    it has none that can be proven (see the module docstring). `cfg` and `values` are the
    function's own (the analysis has them already)."""
    if not values.space.declared or not any(_is_state_load(op) for op in values.ops):
        return None
    found = _Dispatch(function, cfg, values, values.space).find()
    if found is None:
        return None
    loop_blocks, load, rounds = found
    return _unroll(function, loop_blocks, load, rounds)


class _Dispatch:
    def __init__(self, function: Operation, cfg: CFG, values: Values, space: ThreadSpace):
        self.function = function
        self.cfg = cfg
        self.values = values
        self.space = space
        self.barriers = [op for op in values.ops if _is_barrier(op)]  # (values.ops: the function's walk)
        self.barrier_set = set(self.barriers)
        # every op that counts toward a named barrier: bar.arrive arrives without waiting
        self.named = [op for op in values.ops if op.name in ("nvvm.barrier", "nvvm.barrier.arrive")]
        self._ids: dict[Operation, int | None] = {}  # (each barrier's id is asked for again and again)

    def find(self) -> tuple[set[Block], Operation, list[np.ndarray]] | None:
        for loop in self.cfg.loops:
            if loop.op is not None or loop.parent is not None:
                continue
            header = _block_of(loop.header)
            for op in header.ops:
                if _is_state_load(op):
                    found = self._rounds(loop, header, op)
                    if found is not None:
                        return {_block_of(n) for n in loop.nodes}, op, found
        return None

    def _rounds(self, loop: Loop, header: Block, load: Operation) -> list[np.ndarray] | None:
        before = [op for op in list(header.ops)[: _index(header, load)] if op in self.barrier_set]
        if len(before) != 1:
            return None
        ident = self._barrier_id(before[0])
        if ident is None or not self._all_cta_wide(ident):
            return None
        address = self._address(load.operands[0])
        if address is None:
            return None
        base, offsets = address
        readers = self._warps_reaching(loop)
        threads = np.isin(self.space.warp_index, [w for w in range(self.space.nwarps) if readers >> w & 1])
        read = np.broadcast_to(np.asarray(offsets, dtype=np.int64), (self.space.nthreads,))[threads]
        groups = self._store_groups(base, {int(o) for o in read}, loop, ident)
        n = self._round_arrivals(loop, header, ident)
        c0 = self._arrivals_before_loop(loop, ident)
        if groups is None or n is None or c0 is None or n == 0:
            return None
        state: dict[int, int] = {}
        rounds = []
        for k, count in enumerate(sorted(groups)):
            if count != c0 + k * n or k >= MAX_ROUNDS:
                return None
            state.update(groups[count])
            if not all(int(o) in state for o in read):
                return None
            byte = np.zeros(self.space.nthreads, dtype=np.int64)
            byte[threads] = [state[int(o)] for o in read]
            rounds.append(byte)
        return rounds or None

    # ---- named barriers ----------------------------------------------------------------------

    def _barrier_id(self, op: Operation) -> int | None:
        if op not in self._ids:
            self._ids[op] = barrier_id(op, self.values)
        return self._ids[op]

    def _cta_wide(self, op: Operation) -> bool:
        if getattr(op, "numberOfThreads", None) is None:
            return op.name == "nvvm.barrier"
        return barrier_count(op, self.values) == self.space.nthreads

    def _all_cta_wide(self, ident: int) -> bool:
        """Every barrier op that may use id `ident` is a CTA-wide bar.sync (instances numbered
        alike, and each arrival waits for the others)."""
        return all(
            op.name == "nvvm.barrier" and op in self.barrier_set and self._cta_wide(op)
            for op in self.named if self._barrier_id(op) in (ident, None)
        )

    def _arrivals(self, block: Block, ident: int, stop: Operation | None = None) -> int:
        count = 0
        for op in block.ops:
            if op is stop:
                break
            if op in self.barrier_set and self._barrier_id(op) == ident:
                count += 1
        return count

    def _counts(self, starts: dict[Block, int], inside: set[Block] | None, ident: int,
                skip_edges_to: Block | None = None) -> dict[Block, int] | None:
        """The one count of `ident` arrivals at each block's start on every path from `starts`
        (within `inside`), or None when two paths disagree."""
        at = dict(starts)
        work = list(starts)
        while work:
            block = work.pop()
            out = at[block] + self._arrivals(block, ident)
            last = block.last_op
            for succ in (last.successors if last is not None else ()):
                if succ is skip_edges_to or (inside is not None and succ not in inside):
                    continue
                if succ in at:
                    if at[succ] != out:
                        return None
                    continue
                at[succ] = out
                work.append(succ)
        return at

    def _round_arrivals(self, loop: Loop, header: Block, ident: int) -> int | None:
        blocks = {_block_of(n) for n in loop.nodes}
        at = self._counts({header: 0}, blocks, ident, skip_edges_to=header)
        if at is None:
            return None
        found = set()
        for block in blocks:
            last = block.last_op
            if last is not None and header in last.successors:
                if block not in at:
                    return None
                found.add(at[block] + self._arrivals(block, ident))
        if len(found) != 1 or self._arrivals(header, ident) != 1:
            return None
        return found.pop()

    def _arrivals_before_loop(self, loop: Loop, ident: int) -> int | None:
        blocks = {_block_of(n) for n in loop.nodes}
        entry = self.function.regions[0].blocks.first
        assert entry is not None
        outside = set(self.function.regions[0].blocks) - blocks
        at = self._counts({entry: 0}, outside | {_block_of(loop.header)}, ident, None)
        return at.get(_block_of(loop.header)) if at is not None else None

    # ---- the state bytes ---------------------------------------------------------------------

    def _store_groups(self, base: object, region: set[int], loop: Loop, ident: int
                      ) -> dict[int, dict[int, int]] | None:
        """The constant bytes stored to `region`, grouped by the arrivals before each store."""
        blocks = {_block_of(n) for n in loop.nodes}
        entry = self.function.regions[0].blocks.first
        assert entry is not None
        outside = set(self.function.regions[0].blocks) - blocks
        at = self._counts({entry: 0}, outside, ident, None)
        if at is None:
            return None
        after = _reachable(blocks)
        groups: dict[int, dict[int, int]] = {}
        for op in self.function.walk():
            pointer = _written_pointer(op)
            if pointer is None:
                continue
            address = self._address(pointer)
            if address is None:
                if _may_be_shared(pointer):
                    return None
                continue
            where, offset = address
            if where != base:
                continue
            size = type_size(op.operands[0].type) if op.name == "llvm.store" else _ATOMIC_SPAN
            if size is None:
                return None
            lowest, highest = int(np.min(offset)), int(np.max(offset)) + size
            if not any(lowest <= byte < highest for byte in region):
                continue  # every thread's write misses the state bytes
            if op.name != "llvm.store" or not isinstance(offset, int) or not isinstance(op.operands[0].type, IntegerType):
                return None
            value = self.values.form(op.operands[0])
            block = op.parent_block()
            if value is None or not isinstance(value.constant, int) or block in after or block not in at:
                return None  # not a constant, or a store the loop may reach again
            if not self._runs_in_selected_warps(op):
                return None
            count = at[block] + self._arrivals(block, ident, stop=op)
            group = groups.setdefault(count, {})
            for i in range(size):
                if offset + i in group:
                    return None  # two stores of one group to one byte: their order is not checked
                group[offset + i] = (value.constant >> (8 * i)) & 0xFF
        return groups

    def _runs_in_selected_warps(self, op: Operation) -> bool:
        """Only thread ids decide whether `op` runs (each warp whole): a must-store."""
        node = self.cfg.node_of.get(op)
        if node is None:
            return False
        for branch in self.cfg.controlling_branches(node):
            condition = branch.branch.condition if branch.branch is not None else None
            split = self.values.split(condition) if condition is not None else None
            if split is None or split.may_true & split.may_false:
                return False
        return True

    def _warps_reaching(self, loop: Loop) -> int:
        """The warps some path of which may enter the loop (branch outcomes by thread id)."""
        masks: dict[Node, int] = {self.cfg.entry: self.space.all_warps}
        work = [self.cfg.entry]
        while work:
            node = work.pop()
            for edge in node.succs:
                mask = masks[node]
                branch = node.branch
                if edge.sense is not None and branch is not None and branch.condition is not None:
                    split = self.values.split(branch.condition)
                    if split is not None:
                        mask &= split.may_true if edge.sense else split.may_false
                if mask & ~masks.get(edge.target, 0):
                    masks[edge.target] = masks.get(edge.target, 0) | mask
                    work.append(edge.target)
        return masks.get(loop.header, 0)

    # ---- addresses: a shared object and a per-thread byte offset -----------------------------

    def _address(self, pointer: SSAValue, depth: int = 0) -> tuple[object, int | np.ndarray] | None:
        owner = pointer.owner
        if depth > 32 or not isinstance(owner, Operation):
            return None
        if isinstance(owner, llvm.AddressOfOp):
            return owner.global_name.root_reference.data, 0
        if isinstance(owner, llvm.GEPOp):
            if not (isinstance(owner.elem_type, IntegerType) and owner.elem_type.width.data == 8):
                return None
            inner = self._address(owner.ptr, depth + 1)
            if inner is None:
                return None
            base, offset = inner
            dynamic = iter(owner.ssa_indices)
            for raw in owner.rawConstantIndices.get_values():
                if raw == llvm.GEP_USE_SSA_VAL:
                    known = self._concrete(next(dynamic))
                    if known is None:
                        return None
                    offset = offset + known
                else:
                    offset = offset + raw
            return base, _tidy(offset)
        if isinstance(owner, llvm.IntToPtrOp):
            return self._integer(owner.input, depth + 1)
        return None

    def _integer(self, value: SSAValue, depth: int) -> tuple[object, int | np.ndarray] | None:
        value = self._invariant(value)
        owner = value.owner
        if depth > 32 or not isinstance(owner, Operation):
            return None
        if isinstance(owner, llvm.PtrToIntOp):
            return self._address(owner.input, depth + 1)
        if isinstance(owner, (llvm.TruncOp, llvm.ZExtOp)):
            return self._integer(owner.arg, depth + 1)  # a shared address fits either integer
        if owner.name == "llvm.add":
            for based, other in ((0, 1), (1, 0)):
                inner = self._integer(owner.operands[based], depth + 1)
                known = self._concrete(owner.operands[other])
                if inner is not None and known is not None:
                    return inner[0], _tidy(inner[1] + known)
        return None

    def _concrete(self, value: SSAValue) -> np.ndarray | None:
        """The per-thread integer `value` is (a loop-invariant block argument: its one value)."""
        form = self.values.form(self._invariant(value))
        return np.asarray(form.const, dtype=np.int64) if form is not None and form.is_concrete else None

    def _invariant(self, value: SSAValue) -> SSAValue:
        """A block argument every branch passes the same value for (or itself, around a loop)."""
        seen = set()
        while isinstance(value, BlockArgument) and value not in seen:
            seen.add(value)
            others = {v for v in self.values.incoming(value) if v is not value}
            if len(others) != 1:
                break
            value = others.pop()
        return value


def _unroll(function: Operation, loop_blocks: set[Block], load: Operation,
            rounds: list[np.ndarray]) -> Unrolled | None:
    """Copy the function; round 1 is the loop itself, rounds 2..R copies of it; the back edges
    of round k enter round k + 1 (those of the last round its own header: the state stays)."""
    mapping: dict[SSAValue, SSAValue] = {}
    block_map: dict[Block, Block] = {}
    copy = function.clone(value_mapper=mapping, block_mapper=block_map)
    origin = dict(zip(copy.walk(), function.walk()))
    region = copy.regions[0]
    loop = {block_map[b] for b in loop_blocks}
    header = block_map[load.parent_block()]  # type: ignore[index]
    loads = [mapping[load.results[0]]]
    for op in region.walk():
        if op.parent_block() not in loop and any(
            isinstance(v.owner, Operation) and v.owner.parent_block() in loop for v in op.operands
        ):
            return None  # a value of the loop used after it: the copies would need their own
    previous = [b for b in region.blocks if b in loop]
    previous_header, previous_load = header, loads[0]
    for _ in rounds[1:]:
        values: dict[SSAValue, SSAValue] = {}
        blocks: dict[Block, Block] = {}
        for block in previous:
            blocks[block] = Block(arg_types=[a.type for a in block.args])
            values.update(zip(block.args, blocks[block].args))
        for block in previous:
            for op in block.ops:
                # in-round edges stay in the copy; its back edges enter its own header
                new = op.clone(value_mapper=values, block_mapper=blocks)
                origin.update((b, origin[a]) for a, b in zip(op.walk(), new.walk()))
                blocks[block].add_op(new)
        for block in previous:  # the previous round's back edges now enter this round
            last = block.last_op
            if last is not None:
                for i, succ in enumerate(last.successors):
                    if succ is previous_header:
                        last.successors[i] = blocks[previous_header]
        for block in previous:
            region.add_block(blocks[block])
        previous = [blocks[b] for b in previous]
        previous_header, previous_load = blocks[previous_header], values[previous_load]
        loads.append(previous_load)
    known = {value: Form(np.asarray(byte, dtype=np.int64)) for value, byte in zip(loads, rounds)}
    return Unrolled(copy, known, len(rounds), origin)


def _reachable(blocks: set[Block]) -> set[Block]:
    """`blocks` and every block a path from them reaches."""
    seen = set(blocks)
    work = list(blocks)
    while work:
        last = work.pop().last_op
        for succ in last.successors if last is not None else ():
            if succ not in seen:
                seen.add(succ)
                work.append(succ)
    return seen


def _written_pointer(op: Operation) -> SSAValue | None:
    """The address an llvm store or atomic writes (None for other ops)."""
    if op.name == "llvm.store":
        return op.operands[1]
    if op.name in ("llvm.atomicrmw", "llvm.cmpxchg"):
        return op.operands[0]
    return None


def _is_state_load(op: Operation) -> bool:
    """An 8-bit load: the shape of a partition state byte's read."""
    return op.name == "llvm.load" and isinstance(t := op.results[0].type, IntegerType) and t.width.data == 8


def _is_barrier(op: Operation) -> bool:
    effect = tmem_effect(op)
    return effect is not None and effect.kind is EffectKind.BARRIER and op.name.startswith("nvvm.barrier")


def _block_of(node: Node) -> Block:
    block = node.ops[0].parent_block()
    assert block is not None
    return block


def _index(block: Block, op: Operation) -> int:
    return next(i for i, o in enumerate(block.ops) if o is op)


def _tidy(offset: int | np.ndarray) -> int | np.ndarray:
    array = np.asarray(offset, dtype=np.int64)
    if array.ndim == 0:
        return int(array)
    return int(array[0]) if (array == array[0]).all() else array


def _may_be_shared(pointer: SSAValue) -> bool:
    space = pointer.type.addr_space.data if isinstance(pointer.type, llvm.LLVMPointerType) else None
    return space in (0, 3)
