"""The static side of the chain run (chains.py): per block its Site (effects, branch condition, exits with their live facts), the mbarrier slice, and the facts each value reads."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from tmem_dialect.dialects.interfaces import TMEMEffect
from tmem_dialect.passes.analysis.chain_values import Site, Unproven, pure
from tmem_dialect.passes.values import Values

_I1 = IntegerType(1)


class ChainSkeleton:
    """What a chain run reads of the function but never changes, computed once per Chains: the
    blocks' effects, successors and conditions, the carried block arguments the mbarrier operands
    are computed from (`_tracked`), and the facts (bits of `_fact_bit`) each value may consult."""

    values: Values
    effects: dict[Operation, TMEMEffect]
    _tracked: set[BlockArgument]
    _incoming: dict[Block, list[tuple[Block, tuple[SSAValue, ...]]]]
    _fact_bit: dict[SSAValue, int]
    _facts: list[SSAValue]
    _closure: dict[SSAValue, int]
    _inputs: dict[SSAValue, tuple[tuple[int, ...], tuple[int, ...]]]
    _block_effects: dict[Block, tuple[tuple[Operation, TMEMEffect], ...]]
    _homes: dict[SSAValue, Block | None]
    _successor_memo: dict[Block, list[tuple[Block, tuple[SSAValue, ...]]]]
    _conditions: dict[Block, SSAValue]

    def _edges(self, blocks: list[Block]) -> dict[Block, list[tuple[Block, tuple[SSAValue, ...]]]]:
        """Per block, its predecessors and the values they pass to its arguments."""
        incoming: dict[Block, list[tuple[Block, tuple[SSAValue, ...]]]] = {b: [] for b in blocks}
        for block in blocks:
            for target, args in self._successors(block):
                incoming[target].append((block, args))
        return incoming

    def _liveness(self, blocks: list[Block]) -> list[Site]:
        """Per block, its Site, with the facts a run entering it may still read, as a bit set
        over `_fact_bit`:
        the carried block arguments (env) and the i1 values (every condition truth() can fork
        on is one) that int_of and truth may consult from a block's roots (_roots) there or
        later before the value's block defines it anew. A state that keeps a fact outside this set only differs from one that
        does not by something nothing reads (and the run would explore the same paths twice).
        Reading a value reads what its pure operations are computed from: int_of and truth
        recompute those."""
        bit_of = self._fact_bit
        reads = self.reads
        index = {block: i for i, block in enumerate(blocks)}  # (lists by index: Block.__hash__ is Python code)
        uses: list[int] = []
        for block in blocks:
            used = 0
            for root in self._roots(block):
                used |= reads(root)
            uses.append(used)
        defined = [0] * len(blocks)
        for value, bit in bit_of.items():
            home = index.get(self.home(value))  # type: ignore[arg-type]
            if home is not None:
                defined[home] |= bit
        successors = [[index[target] for target, _ in self._successors(block)] for block in blocks]
        predecessors = [[index[source] for source, _ in self._incoming[block]] for block in blocks]
        live = list(uses)
        work = list(range(len(blocks)))
        while work:
            i = work.pop()
            out = 0
            for j in successors[i]:
                out |= live[j]
            found = uses[i] | (out & ~defined[i])
            if found != live[i]:
                live[i] = found
                work.extend(predecessors[i])
        tracked = self._tracked
        conditions, inputs = self._conditions, self.inputs
        sites = [Site(block, self.block_effects(block), conditions.get(block),
                      inputs(conditions[block]) if block in conditions else None, defined[i])
                 for i, block in enumerate(blocks)]
        for site, targets in zip(sites, successors):
            site.exits = tuple(
                (sites[j], tuple((bit_of[arg], v, inputs(v))
                                 for arg, v in zip(sites[j].block.args, args) if arg in tracked), live[j])
                for j, (_, args) in zip(targets, self._successors(site.block)))
        return sites

    def reads(self, value: SSAValue) -> int:
        """The facts (bits of `_fact_bit`) int_of or truth of `value` may consult: `value` if it
        is one, and what its pure operations are computed from (memoized)."""
        found = self._closure.get(value)
        if found is None:
            self._closure[value] = 0  # a cycle only passes through block arguments
            found = 0
            if value in self._tracked or value.type == _I1:
                found = self._fact_bit.setdefault(value, 1 << len(self._fact_bit))
                self._facts.append(value)
            owner = value.owner
            if isinstance(owner, Operation) and pure(owner):
                for operand in owner.operands:
                    found |= self.reads(operand)
            self._closure[value] = found
        return found

    def inputs(self, root: SSAValue) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The bits of the carried block arguments and of the conditions evaluating `root` may
        read (memoized)."""
        found = self._inputs.get(root)
        if found is None:
            mask, facts = self.reads(root), []
            while mask:
                low = mask & -mask
                facts.append((low, self._facts[low.bit_length() - 1]))
                mask ^= low
            found = self._inputs[root] = (
                tuple(bit for bit, v in facts if isinstance(v, BlockArgument) and v in self._tracked),
                tuple(bit for bit, v in facts if v.type == _I1))
        return found

    def _roots(self, block: Block) -> list[SSAValue]:
        """The values the run evaluates in `block`: its effects' mbarrier operands, its branch
        condition and what it passes to carried block arguments."""
        roots = [v for _, e in self.block_effects(block) for v in (e.mbarrier, e.phase, e.count) if v is not None]
        successors = self._successors(block)
        if len(successors) == 2:  # an llvm.cond_br (_successors_of)
            roots.append(self.condition(block))
        for target, args in successors:
            roots.extend(v for arg, v in zip(target.args, args) if arg in self._tracked)
        return roots

    def _index_effects(self, function: Operation) -> None:
        """Per block, its ops with an effect in order, from one pass over the function's ops
        (values.ops: in walk order), which also checks that none but `function` has a region.
        The effects are looked up by the op's id: Operation.__hash__ is Python code (xdsl)."""
        by_id = {id(op): e for op, e in self.effects.items()}
        found: dict[Block, list[tuple[Operation, TMEMEffect]]] = {}
        for op in self.values.ops:
            if op.regions and op is not function:
                raise Unproven
            e = by_id.get(id(op))
            if e is not None:
                found.setdefault(op.parent, []).append((op, e))  # type: ignore[arg-type]
        self._block_effects = {block: tuple(effects) for block, effects in found.items()}

    def block_effects(self, block: Block) -> tuple[tuple[Operation, TMEMEffect], ...]:
        """The block's ops with an effect, in order (_index_effects)."""
        return self._block_effects.get(block, ())

    def home(self, value: SSAValue) -> Block | None:
        """The block that defines `value` (memoized)."""
        try:
            return self._homes[value]
        except KeyError:
            found = self._homes[value] = value.block if isinstance(value, BlockArgument) else value.owner.parent_block()  # type: ignore[union-attr]
            return found

    def _successors(self, block: Block) -> list[tuple[Block, tuple[SSAValue, ...]]]:
        found = self._successor_memo.get(block)
        if found is None:
            found = self._successor_memo[block] = self._successors_of(block)
        return found

    def condition(self, block: Block) -> SSAValue:
        """The condition of the llvm.cond_br that ends `block` (memoized by _successors_of)."""
        found = self._conditions.get(block)
        if found is None:
            self._successors(block)
            found = self._conditions[block]
        return found

    def _successors_of(self, block: Block) -> list[tuple[Block, tuple[SSAValue, ...]]]:
        term = block.last_op
        if isinstance(term, llvm.BrOp):
            return [(term.successors[0], tuple(term.operands))]
        if isinstance(term, llvm.CondBrOp):
            # As its operand accessors split the operands, reading the segment sizes once (each
            # accessor decodes them).
            sizes = term.properties["operandSegmentSizes"].get_values()  # type: ignore[attr-defined]
            operands, then_end = tuple(term.operands), sizes[0] + sizes[1]
            self._conditions[block] = operands[0]
            return [(term.successors[0], operands[sizes[0]:then_end]),
                    (term.successors[1], operands[then_end:then_end + sizes[2]])]
        if term is None or term.successors:
            raise Unproven  # a switch, or a terminator we do not know
        return []

    def _slice(self, ops: list[Operation]) -> set[BlockArgument]:
        """The block arguments the mbarrier operands are computed from."""
        tracked: set[BlockArgument] = set()
        seen: set[SSAValue] = set()
        stack: list[SSAValue] = []
        for op in ops:
            e = self.effects[op]
            stack.extend(v for v in (e.mbarrier, e.phase, e.count) if v is not None)
        while stack:
            value = stack.pop()
            if value in seen:
                continue
            seen.add(value)
            if isinstance(value, BlockArgument):
                tracked.add(value)
                for _, args in self._incoming.get(value.block, ()):
                    stack.append(args[value.index])
                continue
            owner = value.owner
            if isinstance(owner, Operation) and pure(owner):
                stack.extend(owner.operands)
        return tracked
