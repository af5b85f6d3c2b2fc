"""SSA form for PTX's mutable registers: basic blocks, edges, and block arguments as phis.

The construction is Braun et al.'s "Simple and Efficient Construction of SSA Form" (CC 2013),
with block arguments for phis: a read looks for the register's definition in its block, then
walks up single-predecessor chains, and places a block argument where control merges. The CFG
is known before any instruction is translated, so a block is sealed once all its predecessors
are filled. Phi operands are filled from a worklist, not by recursion (Python's stack is small),
and trivial phis (all operands the same value, or the phi itself) are removed at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Attribute, Block, BlockArgument, SSAValue

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


def connect(source: BasicBlock, target: BasicBlock) -> Edge:
    edge = Edge(source, target)
    source.out_edges.append(edge)
    target.in_edges.append(edge)
    return edge


class SSABuilder:
    """Reads and writes of variables per block; `undefined(type)` gives the value of a read before any write."""

    def __init__(self, blocks: list[BasicBlock], undefined: Callable[[Attribute], SSAValue],
                 type_of: Callable[[Variable], Attribute], location: Callable[[int], Attribute]):
        self.blocks = blocks
        self.undefined = undefined
        self.type_of = type_of
        self.location = location
        self.pending: list[Phi] = []
        self.draining = False
        self.phis: list[Phi] = []
        self.replaced: dict[SSAValue, SSAValue] = {}
        for b in blocks:
            if not b.in_edges:
                b.sealed = True

    def write(self, block: BasicBlock, var: Variable, value: SSAValue) -> None:
        block.defs[var] = value

    def read(self, block: BasicBlock, var: Variable) -> SSAValue:
        value = self._lookup(block, var)
        self._drain()
        return value

    def _lookup(self, block: BasicBlock, var: Variable) -> SSAValue:
        path: list[BasicBlock] = []
        b = block
        while True:
            found = b.defs.get(var)
            if found is not None:
                break
            if not b.in_edges:
                found = self.undefined(self.type_of(var))
                break
            if b.sealed and len(b.in_edges) == 1:
                path.append(b)
                b = b.in_edges[0].source
                continue
            found = self._new_phi(b, var).arg
            break
        b.defs[var] = found
        for p in path:
            p.defs[var] = found
        return found

    def _new_phi(self, block: BasicBlock, var: Variable) -> Phi:
        arg = block.block.insert_arg(self.type_of(var), len(block.block.args), self.location(block.start))  # type: ignore[arg-type]
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
        finally:
            self.draining = False

    def filled(self, block: BasicBlock) -> None:
        """`block` has all its instructions: seal the successors whose predecessors are all filled."""
        block.filled = True
        for edge in block.out_edges:
            target = edge.target
            if not target.sealed and all(e.source.filled for e in target.in_edges):
                target.sealed = True
                self.pending.extend(target.phis)
        self._drain()

    def finish(self) -> None:
        """Remove trivial phis (repeatedly: removing one can make another trivial)."""
        replaced = self.replaced
        resolve = self.resolve

        changed = True
        while changed:
            changed = False
            for phi in self.phis:
                if not phi.alive:
                    continue
                incoming = {resolve(e.values[phi]) for e in phi.block.in_edges}
                incoming.discard(phi.arg)
                if len(incoming) > 1:
                    continue
                same = incoming.pop() if incoming else self.undefined(phi.arg.type)
                replaced[phi.arg] = same
                phi.arg.replace_all_uses_with(same)
                phi.alive = False
                changed = True
        for phi in self.phis:
            if not phi.alive:
                phi.block.block.erase_arg(phi.arg)
        for b in self.blocks:
            for edge in b.in_edges:
                for phi in list(edge.values):
                    edge.values[phi] = resolve(edge.values[phi])

    def resolve(self, value: SSAValue) -> SSAValue:
        """The value a removed trivial phi stands for (values held outside the IR, e.g. branch conditions)."""
        while value in self.replaced:
            value = self.replaced[value]
        return value

    @staticmethod
    def edge_arguments(edge: Edge) -> list[SSAValue]:
        return [edge.values[phi] for phi in edge.target.phis if phi.alive]
