"""Block arguments as values: scf.for induction variables, phis of loops of blocks, and loops that run once."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from tmem_dialect.passes.cfg import Loop, constant_trip_count
from tmem_dialect.passes.forms import Form, Sym
from tmem_dialect.passes.int_eval import COMPARISONS
from tmem_dialect.passes.threads import Uniformity


class BlockArgumentValues:
    """The forms of block arguments, for `values.Values` (which provides form, uniformity and the CFG)."""

    def _block_argument(self, arg: BlockArgument) -> Form:
        block = arg.block
        parent = block.parent_op()
        if block is self.function.regions[0].blocks.first:
            return self._opaque(arg, Uniformity.CTA)
        if isinstance(parent, scf.ForOp) and block is parent.body.block:
            loop = self._loop_of_op.get(parent)
            if arg.index == 0:
                return self._induction(arg, parent, loop)
            init = parent.iter_args[arg.index - 1]
            u = max(self.uniformity(init), self._carried.get(arg, Uniformity.CTA))
            return self._opaque(arg, u, self._carried_rings.bounds(arg))
        if isinstance(parent, scf.WhileOp):
            if block is parent.before_region.block:
                init = parent.arguments[arg.index]
                u = max(self.uniformity(init), self._carried.get(arg, Uniformity.CTA))
                return self._opaque(arg, u)
            cond_op = parent.before_region.block.last_op
            if isinstance(cond_op, scf.ConditionOp) and arg.index < len(cond_op.args):
                forwarded = self.form(cond_op.args[arg.index])
                if forwarded is not None:
                    return forwarded
            return self._opaque(arg, Uniformity.THREAD)
        if isinstance(parent, (scf.IfOp, scf.ExecuteRegionOp, scf.IndexSwitchOp)) or parent is None:
            return self._opaque(arg, Uniformity.THREAD)
        return self._phi(arg)

    def _induction(self, arg: BlockArgument, op: scf.ForOp, loop: Loop | None) -> Form:
        lb, ub, step = (self.form(v) for v in (op.lb, op.ub, op.step))
        u = self.loop_uniformity(op)
        step_c = step.constant if step is not None else None
        bounds = None
        trips = constant_trip_count(op)
        if trips == 1 and lb is not None and lb.constant is not None:
            return lb  # a loop that runs once: its index is its lower bound (`warp == i` picks one warp)
        if lb is not None and lb.constant is not None and step_c and step_c > 0 and trips:
            bounds = (lb.constant, lb.constant + (trips - 1) * step_c)
        elif lb is not None and ub is not None and (rl := lb.bounds()) and (ru := ub.bounds()):
            bounds = (rl[0], ru[1] - 1)
        return Form(
            0,
            ((Sym(arg, u, *(bounds or (None, None)), loop, step=step_c, induction_of=loop), 1),),
        )

    def _phi(self, arg: BlockArgument) -> Form:
        incoming = [vals[arg.index] for vals in self._block_incoming().get(arg.block, []) if arg.index < len(vals)]
        join = self._node_of_block(arg.block)
        loop = self._header_loop.get(join) if join is not None else None
        if loop is not None:
            if (iv := self._unstructured_induction(arg, loop, incoming)) is not None:
                return iv
            known = [v for v in incoming if not self._over_back_edge(v, loop)]
            return self._opaque(arg, self._block_arg_uniformity(arg, known), self._carried_rings.bounds(arg))
        forms = [self.form(v) for v in incoming]
        if forms and all(f is not None for f in forms) and all(f.same_as(forms[0]) for f in forms[1:]):  # type: ignore[union-attr]
            return forms[0]  # type: ignore[return-value]
        u = self._block_arg_uniformity(arg, incoming)
        for condition in self._join_conditions(arg.block):
            u = max(u, self.uniformity(condition))
        return self._opaque(arg, u)

    def _node_of_block(self, block: Block):
        first = block.first_op
        return self.cfg.node_of.get(first) if first is not None else None

    def _over_back_edge(self, value: SSAValue, loop: Loop) -> bool:
        owner = value.owner
        block = owner.parent_block() if isinstance(owner, Operation) else owner
        while block is not None:
            node = self._node_of_block(block)
            if node is not None:
                return node in loop.nodes
            parent = block.parent_op()
            block = parent.parent_block() if parent is not None else None
        return False

    def _join_conditions(self, block: Block) -> list[SSAValue]:
        """Conditions of the branches whose paths this block merges: the values it receives
        differ between threads if such a branch does."""
        join = self._node_of_block(block)
        if join is None:
            return []
        inside = self.cfg.controlling_branches(join)
        found: list[SSAValue] = []
        for edge in join.preds:
            for b in self.cfg.controlling_branches(edge.source) | {edge.source}:
                if b not in inside and b.branch is not None and b.branch.condition is not None:
                    found.append(b.branch.condition)
        return found

    def _unstructured_induction(
        self, arg: BlockArgument, loop: Loop, incoming: list[SSAValue]
    ) -> Form | None:
        """`^header(%i): ... br ^header(%i + c)`: an induction variable with step c > 0."""
        inits: list[SSAValue] = []
        step: int | None = None
        for v in incoming:
            owner = v.owner
            if isinstance(owner, Operation) and owner.name in ("llvm.add", "arith.addi") and arg in owner.operands:
                other = owner.operands[1] if owner.operands[0] is arg else owner.operands[0]
                c = self.form(other)
                if c is None or c.constant is None or c.constant <= 0 or (step is not None and step != c.constant):
                    return None
                step = c.constant
            else:
                inits.append(v)
        if step is None or len(inits) != 1:
            return None
        init = self.form(inits[0])
        u = max(self.uniformity(inits[0]), Uniformity.CTA)
        lo = init.constant if init is not None else None
        hi = self._exit_bound(arg, loop, step)
        return Form(0, ((Sym(arg, u, lo, hi if lo is not None else None, loop, step=step, induction_of=loop), 1),))

    def one_trip_exit(self, loop: Loop) -> tuple[SSAValue, bool] | None:
        """For a loop of blocks whose header tests its induction variable and whose body runs
        once (`for i in [c, c + 1)`, lowered): the header's condition and the sense that leaves."""
        branch = loop.header.branch
        if loop.op is not None or branch is None or branch.condition is None:
            return None
        cmp = branch.condition.owner
        if not isinstance(cmp, Operation) or cmp.name not in ("llvm.icmp", "arith.cmpi") or not cmp.operands:
            return None
        form = self.form(cmp.operands[0])
        if form is None or not isinstance(form.const, int) or form.const != 0 or len(form.terms) != 1:
            return None  # (a per-thread constant is no induction variable)
        (sym, k), = form.terms
        if k != 1 or sym.induction_of is not loop or sym.lo is None or sym.lo != sym.hi:
            return None
        leaving = [e.sense for e in loop.header.succs if e.target not in loop.nodes]
        return (branch.condition, leaving[0]) if len(leaving) == 1 and leaving[0] is not None else None

    def _exit_bound(self, arg: BlockArgument, loop: Loop, step: int) -> int | None:
        """The largest value an induction variable takes, from `icmp lt %i, C` deciding the loop."""
        for node in loop.nodes:
            branch = node.branch
            if branch is None or branch.condition is None:
                continue
            cmp = branch.condition.owner
            if not isinstance(cmp, Operation) or cmp.name not in ("llvm.icmp", "arith.cmpi"):
                continue
            predicate = getattr(cmp, "predicate", None)
            if not isinstance(predicate, IntegerAttr) or cmp.operands[0] is not arg:
                continue
            bound = self.form(cmp.operands[1])
            pred = COMPARISONS[predicate.value.data]
            stays = [e for e in node.succs if e.target in loop.nodes]
            if bound is None or bound.constant is None or len(stays) != 1 or stays[0].sense is not True:
                continue
            if pred in ("slt", "ult"):
                return bound.constant - 1
            if pred in ("sle", "ule"):
                return bound.constant
        return None


def one_trip_pinned(form: Form | None, op: Operation) -> Form | None:
    """A comparison in the body of a loop of blocks that runs once sees its induction variable
    at its start (`warp == i` picks one warp: an scf.for of one trip, lowered). Not in the loop
    header, whose exit test also sees the value after the last trip."""
    if form is None or form.is_concrete or not form.terms:
        return form
    const = form.const
    for sym, k in form.terms:
        arg = sym.value
        if (sym.induction_of is None or sym.lo is None or sym.lo != sym.hi or not isinstance(arg, BlockArgument)
                or op.parent_block() is arg.block):
            return form
        const = const + k * sym.lo
    return Form(const)
