"""One warp as an xDSL interpreter: per-lane numpy values, an active-lane mask, divergent control flow.

The warp executes every op once for all 32 lanes. Lanes outside the active mask keep their old
values (an SSA value a subset of lanes redefines is merged lane by lane), so divergent `scf.if`,
`scf.for`, `scf.while` and unstructured `llvm.cond_br` give each thread exactly its own values.
CFG regions run with min-PC reconvergence: of the blocks some lanes wait at, the one earliest in
reverse post-order runs next, with all lanes waiting there.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    OpImplResult,
    PythonValues,
    ReturnedValues,
    Successor,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsTerminator

from tmem_dialect.findings import FindingKind
from tmem_dialect.dialects.interfaces import has_tmem_effect
from tmem_dialect.interpreter.machine import Machine
from tmem_dialect.interpreter.values import merge
from tmem_dialect.block_order import immediate_dominators, region_order, reverse_post_order


class Branch(NamedTuple):
    """A divergent terminator: each (mask, block, args) target receives the lanes in its mask."""

    targets: list[tuple[np.ndarray, Block, PythonValues]]


class WarpInterpreter(Interpreter):
    """Interprets a kernel for one warp of one CTA."""

    def __init__(self, module: ModuleOp, machine: Machine, warp: int, cta: int, warp_in_cta: int,
                 alive: np.ndarray, thread_ids: np.ndarray, effect_impl: Any = None):
        super().__init__(module)
        # (functions, impl) for an op class registered nowhere but with a TMEM effect model
        self.effect_impl = effect_impl
        self.machine = machine
        self.warp = warp
        self.cta = cta
        self.warp_in_cta = warp_in_cta
        self.alive = alive
        self.thread_ids = thread_ids  # linear thread index in the CTA, per lane
        self.mask = alive.copy()
        self.is_full = True
        self.env: dict[SSAValue, Any] = {}
        self.current_op: Operation | None = None
        self.finished = False
        self.since_yield = 0
        self.pending_registers: dict[int, tuple[Any, Operation]] = {}
        self._table: dict[type[Operation], Any] | None = None

    # ---- lanes ----------------------------------------------------------------------------

    def thread_id(self, lane: int) -> int:
        return int(self.thread_ids[lane])

    def set_mask(self, mask: np.ndarray) -> None:
        self.mask = mask
        self.is_full = bool((mask == self.alive).all())

    # ---- environment (one flat map: SSA names are unique, later definitions merge by lane) ----

    def get_values(self, values) -> tuple[Any, ...]:
        env = self.env
        return tuple(env[v] for v in values)

    def set_values(self, pairs) -> None:
        env = self.env
        if self.is_full:
            for v, x in pairs:
                env[v] = x
            return
        for v, x in pairs:
            old = env.get(v)
            env[v] = x if old is None else merge(self.mask, x, old)

    def push_scope(self, name: str | None = None) -> None:
        pass

    def pop_scope(self) -> None:
        pass

    # ---- running ops ------------------------------------------------------------------------

    def _impl_table(self) -> dict[type[Operation], Any]:
        if self._table is None:
            self._table = dict(self._impls._impl_dict)  # pyright: ignore[reportPrivateUsage]
        return self._table

    def share_implementations(self, other: WarpInterpreter) -> None:
        """Use the op implementations (and lookup table) another warp registered."""
        self._impls = other._impls
        self._table = other._impl_table()

    def impl_for(self, op_type: type[Operation]) -> Any:
        """The implementation of an op class, or of its nearest base class that has one
        (so a subclass that only changes syntax, like an upstream-printing llvm.load, runs)."""
        table = self._impl_table()
        found = table.get(op_type)
        if found is None:
            for base in op_type.__mro__[1:]:
                if base in table:
                    found = table[op_type] = table[base]
                    break
        if found is None and self.effect_impl is not None and has_tmem_effect(op_type):
            # Any op that describes its TMEM effect runs through the one TMEM implementation.
            found = table[op_type] = self.effect_impl
        return found

    def has_impl(self, op: Operation) -> bool:
        return self.impl_for(type(op)) is not None

    def _run_op(self, op: Operation, inputs: PythonValues) -> OpImplResult:
        self.current_op = op
        self.machine.count_op(self)
        if self.pending_registers and not op.has_trait(IsTerminator):
            self._check_register_use(op, inputs)
        entry = self._table.get(type(op)) if self._table is not None else None
        ft, impl = entry if entry is not None else self.impl_for(type(op))
        result = impl(ft, self, op, inputs)
        if self.machine.observer is not None:  # observation hook (tools.pictures)
            self.machine.observer(self, op)
        return result

    def _check_register_use(self, op: Operation, inputs: PythonValues) -> None:
        for value in inputs:
            hit = self.pending_registers.get(id(value))
            if hit is not None and hit[0] is value:
                self.machine.report(
                    FindingKind.REGISTER_USE,
                    "note",
                    op,
                    f"conservative mode: warp {self.warp} uses the registers of a tcgen05.ld before "
                    "tcgen05.wait::ld (legal: the ISA honors the true register dependency)",
                    [("the tcgen05.ld", hit[1])],
                    key=id(hit[1]),
                )

    def note_pending_registers(self, value: Any, op: Operation) -> None:
        if self.machine.options.conservative:
            self.pending_registers[id(value)] = (value, op)

    def run_block(self, block: Block, args: PythonValues) -> Any:
        """Run a block's ops; returns the terminator's value (ReturnedValues, Successor, Branch)."""
        self.set_values(zip(block.args, args))
        env = self.env
        for op in block.ops:
            inputs = tuple(env[v] for v in op.operands)
            result = self._run_op(op, inputs)
            if result.values:
                self.set_values(zip(op.results, result.values))
            if result.terminator_value is not None:
                return result.terminator_value
        return ReturnedValues(())

    def run_ssacfg_region(self, region: Region, args: PythonValues, name: str = "unknown") -> PythonValues:
        first = region.blocks.first
        if first is None:
            return ()
        if first is region.blocks.last:
            term = self.run_block(first, args)
            return term.values if isinstance(term, ReturnedValues) else ()
        return self._run_cfg(region, args)

    def _run_cfg(self, region: Region, args: PythonValues) -> PythonValues:
        order = self.machine_rpo(region)
        pending: dict[Block, tuple[np.ndarray, list[Any]]] = {region.blocks.first: (self.mask, list(args))}  # type: ignore[dict-item]
        saved = self.mask
        results: list[Any] | None = None
        while pending:
            block = min(pending, key=order.__getitem__)
            if len(pending) > 1:
                block = self._upstream(region, pending, block, order)
            mask, block_args = pending.pop(block)
            self.set_mask(mask)
            term = self.run_block(block, tuple(block_args))
            if isinstance(term, ReturnedValues):
                vals = list(term.values)
                results = vals if results is None else [merge(mask, n, o) for n, o in zip(vals, results)]
            elif isinstance(term, Successor):
                self._add_pending(pending, term.block, mask, term.args)
            elif isinstance(term, Branch):
                for m, b, a in term.targets:
                    self._add_pending(pending, b, m, a)
        self.set_mask(saved)
        return tuple(results or ())

    def _upstream(self, region: Region, pending, block: Block, order: dict[Block, int]) -> Block:
        """The pending path to run first: one that no other pending path can reach (those others
        wait for it at their reconvergence point). RPO alone puts a loop body after the loop's
        exit, so an elected lane still in a loop would run after the lanes waiting at the join
        (and a wait there, e.g. on the mbarrier that lane's commit arrives on, would hang)."""
        reach = self.machine.__dict__.setdefault("_reach_cache", {})

        def reaches(a: Block, b: Block) -> bool:
            key = (id(region), a)
            seen = reach.get(key)
            if seen is None:
                seen, todo = set(), [a]
                while todo:
                    x = todo.pop()
                    term = x.last_op
                    for succ in term.successors if term is not None else ():
                        if succ not in seen:
                            seen.add(succ)
                            todo.append(succ)
                reach[key] = seen
            return b in seen

        ranked = sorted(pending, key=order.__getitem__)
        # Lanes waiting at a block that post-dominates another pending block wait there for the
        # lanes of that block (their branch's join): inside a loop, where every block reaches
        # every other, this is what tells an elected lane's inner loop from the join after it.
        post = self._post_dominators(region)
        for candidate in ranked:
            if any(other is not candidate and _dominated(post, candidate, other) and not _dominated(post, other, candidate)
                   for other in pending):
                return candidate
        for candidate in ranked:
            if not any(other is not candidate and reaches(other, candidate) and not reaches(candidate, other)
                       for other in pending):
                return candidate
        return block

    def _post_dominators(self, region: Region) -> dict[object, object | None]:
        """Immediate post-dominators of the region's blocks (a virtual exit after the blocks
        without successors)."""
        cache = self.machine.__dict__.setdefault("_post_dominators", {})
        found = cache.get(id(region))
        if found is None:
            blocks = list(region.blocks)
            preds: dict[object, list[object]] = {b: [] for b in blocks}
            succs: dict[object, list[object]] = {}
            for b in blocks:
                targets = list(b.last_op.successors) if b.last_op is not None else []
                succs[b] = targets or [_EXIT]
                for s in targets:
                    preds[s].append(b)
            preds[_EXIT] = [b for b in blocks if succs[b] == [_EXIT]]
            order = reverse_post_order(_EXIT, lambda n: preds.get(n, ()))
            found = immediate_dominators(order, lambda n: succs.get(n, ()))
            cache[id(region)] = found
        return found

    @staticmethod
    def _add_pending(pending, block: Block, mask: np.ndarray, args: PythonValues) -> None:
        if block in pending:
            old_mask, old_args = pending[block]
            pending[block] = (old_mask | mask, [merge(mask, n, o) for n, o in zip(args, old_args)])
        else:
            pending[block] = (mask, list(args))

    def machine_rpo(self, region: Region) -> dict[Block, int]:
        cache = self.machine.block_orders
        order = cache.get(id(region))
        if order is None:
            order = {b: i for i, b in enumerate(region_order(region))}
            cache[id(region)] = order
        return order


_EXIT = object()
"""The virtual exit of a region's post-dominator tree."""


def _dominated(tree: dict[object, object | None], node: object, by: object) -> bool:
    """`by` is an ancestor of `node` in the (post-)dominator tree."""
    seen = 0
    current = tree.get(node)
    while current is not None and seen < 100000:
        if current is by:
            return True
        current = tree.get(current)
        seen += 1
    return False
