"""Loop-indexed buffers: addresses such as `base + 32 * (i % 2)` decided iteration by iteration.

A double buffer indexes its stages by the loop counter (`i % 2`, `i & 1`, `(i + 1) % N`), which
the affine forms of the address analysis keep as an unknown. Two accesses of different warps in
one barrier interval are then undecided. Here the interval says which iterations can overlap:
with a barrier that both warps pass in every iteration of the loop, an access after it in
iteration t meets accesses after it in iteration t and accesses before it in iteration t + 1 (a
later one is separated by the next barrier); with no barrier in the loop, any two iterations
overlap. Each stage index is evaluated at each iteration of a loop with constant bounds (up to
MAX_ITERATIONS), so a correct double buffer is proven clean and an aliasing one (a step of 2 over
2 stages) is an error.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from tmem_dialect import integers
from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.passes.analysis.completion import induction_values
from tmem_dialect.passes.analysis.ops import OpInfo
from tmem_dialect.passes.cells import warp_boxes
from tmem_dialect.passes.cfg import Loop
from tmem_dialect.passes.forms import Form, Sym
from tmem_dialect.passes.int_eval import BINARY_BY_NAME, CASTS, apply_binary, bitwidth

MAX_ITERATIONS = 1024
MAX_PAIRS = 1 << 16


class PeriodicAddresses:
    """Decides pairs of accesses whose addresses depend on a loop counter, per iteration."""

    def _periodic_overlap(
        self, label: Operation | None, a: OpInfo, wa: int, b: OpInfo, wb: int
    ) -> bool | None:
        """True: in some pair of iterations that can run concurrently the two accesses touch a
        common cell; False: in none; None: not decidable this way."""
        if a.rest is None or b.rest is None or a.rects is None or b.rects is None:
            return None
        loop = self._index_loop(a, b)
        if loop is None:
            return None
        iterations = self._iterations(loop, a, b)
        if iterations is None:
            return None
        pairs = self._concurrent_iterations(label, loop, a, b, iterations)
        if pairs is None:
            return None
        memo: dict[tuple[OpInfo, int], Form | None] = {}
        for ta, tb in pairs:
            fa = memo[(a, ta)] if (a, ta) in memo else memo.setdefault((a, ta), self._form_at(a.rest, loop, ta))
            fb = memo[(b, tb)] if (b, tb) in memo else memo.setdefault((b, tb), self._form_at(b.rest, loop, tb))
            if fa is None or fb is None or fa.terms != fb.terms:
                return None  # a value other than the counter differs, or is not known
            boxes_a = warp_boxes(Form(fa.const), a.rects, self.space)  # type: ignore[attr-defined]
            boxes_b = warp_boxes(Form(fb.const), b.rects, self.space)  # type: ignore[attr-defined]
            if boxes_a is None or boxes_b is None:
                return None
            if any(x.meets(y) for x in boxes_a[wa] for y in boxes_b[wb]):
                return True
        return False

    def _index_loop(self, a: OpInfo, b: OpInfo) -> Loop | None:
        """The innermost loop holding both accesses whose counter one of their addresses uses."""
        loops_a, loops_b = self.cfg.loops_of(a.op), self.cfg.loops_of(b.op)  # type: ignore[attr-defined]
        common = [lp for lp in loops_a if lp in loops_b]
        for loop in reversed(common):
            if any(self._depends_on_loop(sym, loop) for f in (a.rest, b.rest) for sym, _ in f.terms):
                return loop
        return None

    @staticmethod
    def _depends_on_loop(sym: Sym, loop: Loop) -> bool:
        if sym.induction_of is loop:
            return True
        scope = sym.loop
        while scope is not None:
            if scope is loop:
                return True
            scope = scope.parent
        return False

    def _iterations(self, loop: Loop, a: OpInfo, b: OpInfo) -> list[int] | None:
        """The counter's values, when the loop's bounds and step are constants."""
        counter = self._counter(loop, a, b)
        return None if counter is None else induction_values(counter, MAX_ITERATIONS, structured_only=False)

    def _counter(self, loop: Loop, a: OpInfo, b: OpInfo) -> Sym | None:
        """The loop's induction variable, as the addresses use it (directly or through the
        values their loop-defined terms are computed from)."""
        work: list[SSAValue] = []
        for rest in (a.rest, b.rest):
            for sym, _ in rest.terms:  # type: ignore[union-attr]
                if sym.induction_of is loop:
                    return sym
                if sym.value is not None and self._depends_on_loop(sym, loop):
                    work.append(sym.value)
        seen: set[SSAValue] = set()
        while work and len(seen) < 256:
            value = work.pop()
            if value in seen:
                continue
            seen.add(value)
            form = self.values.form(value)  # type: ignore[attr-defined]
            if form is not None:
                for sym, _ in form.terms:
                    if sym.induction_of is loop:
                        return sym
            if isinstance(value.owner, Operation):
                work.extend(value.owner.operands)
        return None

    def _concurrent_iterations(
        self, label: Operation | None, loop: Loop, a: OpInfo, b: OpInfo, iterations: list[int]
    ) -> list[tuple[int, int]] | None:
        """The pairs (iteration of a, iteration of b) that can run in the interval `label` begins."""
        if label is not None and self._every_iteration_barrier(label, loop):
            at = self.info_of[label].index  # type: ignore[attr-defined]
            after_a, after_b = a.index > at, b.index > at
            if after_a == after_b:
                return [(t, t) for t in iterations]
            step = iterations[1] - iterations[0] if len(iterations) > 1 else 0
            values = set(iterations)
            if after_a:  # a after the barrier in t, b before it in the next iteration
                return [(t, t + step) for t in iterations if step and t + step in values]
            return [(t + step, t) for t in iterations if step and t + step in values]
        barrier_inside = any(
            other is not None and loop.contains_op(self.cfg, other)  # type: ignore[attr-defined]
            for other in self._meetings  # type: ignore[attr-defined]
        )
        if barrier_inside or (label is not None and loop.contains_op(self.cfg, label)):  # type: ignore[attr-defined]
            return None  # barriers in the loop that not every iteration passes: not this form
        if len(iterations) ** 2 > MAX_PAIRS:
            return None
        return [(ta, tb) for ta in iterations for tb in iterations]  # no barrier in the loop

    def _every_iteration_barrier(self, label: Operation, loop: Loop) -> bool:
        """`label` is a barrier in `loop`'s body (not in an inner loop) that no branch inside the
        loop decides: every warp passes it once per iteration."""
        if self.cfg.loops_of(label)[-1:] != (loop,):  # type: ignore[attr-defined]
            return False
        node = self.cfg.node_of.get(label)  # type: ignore[attr-defined]
        if node is None:
            return False
        return not any(
            branch in loop.nodes and branch is not loop.header
            and not (branch.branch is not None and branch.branch.op is loop.op)  # its trip decision
            for branch in self.cfg.controlling_branches(node)  # type: ignore[attr-defined]
        )

    def _form_at(self, rest: Form, loop: Loop, t: int) -> Form | None:
        """`rest` with the loop's counter at `t` and every value computed from it evaluated."""
        const = rest.const
        kept: list[tuple[Sym, int]] = []
        for sym, coeff in rest.terms:
            if sym.induction_of is loop:
                const = const + coeff * t
            elif self._depends_on_loop(sym, loop):
                value = self._evaluate(sym.value, loop, t) if sym.value is not None else None
                if value is None:
                    return None
                const = const + coeff * value
            else:
                kept.append((sym, coeff))
        return Form(const, tuple(kept))

    def _evaluate(self, value: SSAValue, loop: Loop, t: int, depth: int = 0) -> int | None:
        """The integer `value` is in the iteration where the counter is `t` (constants, casts
        and binary integer ops of the counter; integers.py's wrap for the widths)."""
        if depth > 64:
            return None
        constant = constant_int(value)
        if constant is not None:
            return constant
        form = self.values.form(value)  # type: ignore[attr-defined]
        if form is not None and isinstance(form.const, int):
            if not form.terms:
                return form.const
            if len(form.terms) == 1 and form.terms[0][0].induction_of is loop:
                return form.const + form.terms[0][1] * t
        owner = value.owner
        if not isinstance(owner, Operation):
            return None
        width = bitwidth(value.type)
        if width is None:
            return None
        if owner.name in CASTS and len(owner.operands) == 1:
            inner = self._evaluate(owner.operands[0], loop, t, depth + 1)
            return None if inner is None else int(integers.wrap(inner, width))
        kind = BINARY_BY_NAME.get(owner.name)
        if kind is None or len(owner.operands) != 2:
            return None
        x = self._evaluate(owner.operands[0], loop, t, depth + 1)
        y = self._evaluate(owner.operands[1], loop, t, depth + 1)
        if x is None or y is None:
            return None
        result = apply_binary(kind, x, y, width)
        return None if result is None else int(integers.wrap(result, width))
