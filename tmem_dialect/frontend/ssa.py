"""SSA form for PTX's mutable registers: basic blocks, edges, and block arguments as phis.

The construction is Braun et al.'s "Simple and Efficient Construction of SSA Form" (CC 2013),
with block arguments for phis: a read looks for the register's definition in its block, then
walks up single-predecessor chains, and places a block argument where control merges. The CFG
is known before any instruction is translated, so a block is sealed once all its predecessors
are filled. Phi operands are filled from a worklist, not by recursion (Python's stack is small),
and trivial phis (all operands the same value, or the phi itself) are removed at the end.

Most registers of compiler-emitted PTX are written once. A read of such a register in a block its
definition dominates is that definition, with no lookup and no phi (every phi the walk would place
is trivial). Which registers are written once is predicted from the syntax (`single`); a second
write of a predicted one raises `Mispredicted`, and the caller builds the function again without
the prediction, so a wrong prediction costs time, never a wrong value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Attribute, Block, BlockArgument, SSAValue

from tmem_dialect.block_order import immediate_dominators, reverse_post_order
from tmem_dialect.frontend.syntax import Instruction, Variable


@dataclass(eq=False)
class Phi:
    block: BasicBlock
    var: Variable
    arg: BlockArgument
    alive: bool = True


@dataclass(eq=False)
class Edge:
    source: BasicBlock
    target: BasicBlock
    values: dict[Phi, SSAValue] = field(default_factory=dict)


@dataclass(eq=False)
class BasicBlock:
    """Straight-line PTX instructions and how the block ends."""

    instructions: list[Instruction] = field(default_factory=list)
    # ("br", target) | ("cond", guard, then, else) | ("ret", instruction or None)
    end: tuple = ("ret", None)
    start: int = 0  # source offset (for the location of a synthetic terminator)
    block: Block = field(default_factory=Block)
    in_edges: list[Edge] = field(default_factory=list)
    out_edges: list[Edge] = field(default_factory=list)
    defs: dict[Variable, SSAValue] = field(default_factory=dict)
    phis: list[Phi] = field(default_factory=list)
    filled: bool = False
    sealed: bool = False
    entry: bool = False
    result: SSAValue | None = None  # a device function's return value at this block's `ret`
    # (guard block, guarded block) when this block is where a guarded instruction's diamond merges
    # (blocks.py): its only predecessors are the two, and the guard block is the guarded one's only one
    merges: tuple[BasicBlock, BasicBlock] | None = None


class Mispredicted(Exception):
    """A register predicted to be written once is written again (build again without `single`)."""


def dominator_intervals(blocks: list[BasicBlock]) -> dict[BasicBlock, tuple[int, int]]:
    """Per block reachable from blocks[0], its (entry, exit) numbers in a depth-first walk of the
    dominator tree (block_order's immediate dominators): a dominates b iff a's interval contains b's."""
    order = reverse_post_order(blocks[0], lambda b: [e.target for e in b.out_edges])
    idom = immediate_dominators(order, lambda b: [e.source for e in b.in_edges])
    children: dict[BasicBlock, list[BasicBlock]] = {b: [] for b in order}
    for block, parent in idom.items():
        if parent is not None:
            children[parent].append(block)
    intervals: dict[BasicBlock, tuple[int, int]] = {}
    clock = 0
    walk = [(blocks[0], False)]
    while walk:
        block, done = walk.pop()
        if done:
            intervals[block] = (intervals[block][0], clock)
            clock += 1
            continue
        intervals[block] = (clock, -1)
        clock += 1
        walk.append((block, True))
        walk.extend((child, False) for child in children[block])
    return intervals


def _is_diamond(merge: BasicBlock, guard: BasicBlock, guarded: BasicBlock) -> bool:
    """Whether `merge`'s predecessors are `guard` and `guarded`, whose only predecessor is `guard`."""
    sources = {id(e.source) for e in merge.in_edges}
    return len(merge.in_edges) == 2 and sources == {id(guard), id(guarded)} and guard is not merge \
        and [e.source for e in guarded.in_edges] == [guard]


def connect(source: BasicBlock, target: BasicBlock) -> Edge:
    edge = Edge(source, target)
    source.out_edges.append(edge)
    target.in_edges.append(edge)
    return edge


class SSABuilder:
    """Reads and writes of variables per block; `undefined(type)` gives the value of a read before any write."""

    def __init__(self, blocks: list[BasicBlock], undefined: Callable[[Attribute], SSAValue],
                 type_of: Callable[[Variable], Attribute], location: Callable[[int], Attribute],
                 single: set[Variable] | None = None):
        self.blocks = blocks
        self.undefined = undefined
        self.type_of = type_of
        self.location = location
        self.pending: list[Phi] = []
        self.draining = False
        self.phis: list[Phi] = []
        self.replaced: dict[int, SSAValue] = {}  # by id(): SSAValue's __hash__ is a Python call
        self.single = single or set()
        self.single_defs: dict[Variable, tuple[tuple[int, int], SSAValue]] = {}
        self.intervals = dominator_intervals(blocks) if self.single else {}
        for b in blocks:
            if not b.in_edges:
                b.sealed = True
            if b.merges is not None and not _is_diamond(b, *b.merges):
                b.merges = None  # (a lookup then places a phi, as at any merge)

    def write(self, block: BasicBlock, var: Variable, value: SSAValue) -> None:
        block.defs[var] = value
        if var in self.single:
            if var in self.single_defs:
                raise Mispredicted(var.name)
            interval = self.intervals.get(block)
            if interval is not None:
                self.single_defs[var] = (interval, value)

    def read(self, block: BasicBlock, var: Variable) -> SSAValue:
        single = self.single_defs.get(var)
        if single is not None:
            (start, end), value = single
            here = self.intervals.get(block)
            # (the same block: the write came first, blocks are filled in order)
            if here is not None and start <= here[0] and here[1] <= end:
                # (resolve(), inlined for a value no removed phi stands for: most are op results)
                return value if id(value) not in self.replaced else self.resolve(value)
        value = self._lookup(block, var)
        if self.pending:  # (most reads place no phi: nothing to drain)
            self._drain()
        return self.resolve(value)  # a phi the drain found trivial is the value it stands for

    def _lookup(self, block: BasicBlock, var: Variable) -> SSAValue:
        path: list[BasicBlock] = []
        b = block
        while True:
            found = b.defs.get(var)
            if found is not None:
                found = self.resolve(found)
                break
            if not b.in_edges:
                found = self.undefined(self.type_of(var))
                break
            if b.sealed:
                if len(b.in_edges) == 1:
                    path.append(b)
                    b = b.in_edges[0].source
                    continue
                # A guarded instruction's merge block, when the guarded block (filled: the merge is
                # sealed) has no definition of `var`: both incoming values are the guard block's, so
                # the phi would be trivial; read it there instead (791 of dot.ptx's 866 phis were
                # these). A value the guarded block only read is in its defs too: a phi then, as before.
                merges = b.merges
                if merges is not None and var not in merges[1].defs:
                    path.append(b)
                    b = merges[0]
                    continue
            found = self._new_phi(b, var).arg
            break
        b.defs[var] = found
        for p in path:
            p.defs[var] = found
        return found

    def _new_phi(self, block: BasicBlock, var: Variable) -> Phi:
        # A placeholder, not yet one of the block's arguments: most phis are trivial, and inserting
        # then erasing arguments costs more than the whole construction (finish() places the rest).
        arg = BlockArgument(self.type_of(var), block.block, -1, self.location(block.start))  # type: ignore[arg-type]
        phi = Phi(block, var, arg)
        block.phis.append(phi)
        self.phis.append(phi)
        if block.sealed:
            self.pending.append(phi)
        return phi

    def _drain(self) -> None:
        if self.draining:
            return
        self.draining = True
        try:
            while self.pending:
                phi = self.pending.pop()
                for edge in phi.block.in_edges:
                    edge.values[phi] = self._lookup(edge.source, phi.var)
                self._remove_if_trivial(phi)
        finally:
            self.draining = False

    def _remove_if_trivial(self, phi: Phi) -> None:
        """Braun et al.'s tryRemoveTrivialPhi, once the phi's operands are known: a phi of one value
        (and itself) is that value, so later reads never build phis on top of it (a guarded
        instruction's merge block would otherwise stack one phi per register read after it)."""
        same = None
        for edge in phi.block.in_edges:
            v = self.resolve(edge.values[phi])
            if v is phi.arg or v is same:
                continue
            if same is not None:
                return
            same = v
        if same is None:
            return  # only itself (an unreachable loop): finish() decides
        self.replaced[id(phi.arg)] = same
        if phi.arg.first_use is not None:  # (read() hands out resolved values: usually none)
            phi.arg.replace_all_uses_with(same)
        phi.alive = False

    def filled(self, block: BasicBlock) -> None:
        """`block` has all its instructions: seal the successors whose predecessors are all filled."""
        block.filled = True
        for edge in block.out_edges:
            target = edge.target
            if not target.sealed and all(e.source.filled for e in target.in_edges):
                target.sealed = True
                self.pending.extend(target.phis)
        if self.pending:
            self._drain()

    def finish(self) -> None:
        """Remove trivial phis (a worklist: removing one revisits the phis that read it), then make
        the others their blocks' arguments."""
        replaced = self.replaced
        resolve = self.resolve
        # The phis removed while building stand for other values (resolve never returns them):
        # only the live ones can be a phi's operand here or become a block argument.
        live = [phi for phi in self.phis if phi.alive]
        of_arg = {id(phi.arg): phi for phi in live}
        users: dict[Phi, set[Phi]] = {phi: set() for phi in live}
        for phi in live:
            for e in phi.block.in_edges:
                source = of_arg.get(id(e.values[phi]))
                if source is not None and source is not phi:
                    users[source].add(phi)
        work = list(reversed(live))
        while work:
            phi = work.pop()
            if not phi.alive:
                continue
            incoming = {id(v): v for e in phi.block.in_edges if (v := resolve(e.values[phi])) is not phi.arg}
            if len(incoming) > 1:
                continue
            same = next(iter(incoming.values())) if incoming else self.undefined(phi.arg.type)
            replaced[id(phi.arg)] = same
            if phi.arg.first_use is not None:
                phi.arg.replace_all_uses_with(same)
            phi.alive = False
            target = of_arg.get(id(same))
            if target is not None:
                users[target] |= users[phi]
            work.extend(u for u in users[phi] if u.alive)
        for b in self.blocks:
            for phi in b.phis:
                if phi.alive:
                    real = b.block.insert_arg(phi.arg.type, len(b.block.args), phi.arg.location)
                    phi.arg.replace_all_uses_with(real)
                    replaced[id(phi.arg)] = real
        for b in self.blocks:
            for phi in b.phis:
                if phi.alive:  # (edge_arguments reads the live phis' values only)
                    for edge in b.in_edges:
                        edge.values[phi] = resolve(edge.values[phi])

    def resolve(self, value: SSAValue) -> SSAValue:
        """The value a removed trivial phi stands for (values held outside the IR, e.g. branch conditions)."""
        replaced = self.replaced
        first = replaced.get(id(value))
        if first is None:
            return value
        chain = [value]
        value = first
        while (next_value := replaced.get(id(value))) is not None:
            chain.append(value)
            value = next_value
        for v in chain[:-1]:  # path compression: chains of removed phis are walked once
            replaced[id(v)] = value
        return value

    @staticmethod
    def edge_arguments(edge: Edge) -> list[SSAValue]:
        return [edge.values[phi] for phi in edge.target.phis if phi.alive]
