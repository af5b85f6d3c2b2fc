"""Loop-carried ring registers: the closed form, in a ring counter t, of a stage index or phase bit that a loop carries (scf.for iter_args, a loop of blocks' arguments).

Compilers keep a ring's position in loop registers instead of deriving it from the loop counter:
Triton's pipelined tl.dot flips `phase ^= 1` every iteration (one mbarrier, N = 1), CUTLASS's
PipelineState carries `index` and `phase` and steps them as `++index; if (index == N) { index =
0; phase ^= 1; }` (an scf.if or arith.select yielding the pair; selp or branches in PTX). A
carried value's sequence is decided by its initial values and its update, a function of the
carried values alone: it is run here on concrete values until the state returns to the start.
The sequence is then periodic from iteration 0, and it is matched against `t % N` (a stage) and
`flip ^ ((t / N) & 1)` (a parity): what matches is, for every iteration, what rings.py matches
on the loop counter, so the ring rules apply unchanged. What does not match (a phase that never
flips, flips at another period than its stage wraps, a stage that starts elsewhere than 0) is a
`Mismatch` that the mbarrier rules report at the wait that uses it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from tmem_dialect import integers
from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.passes.cfg import CFG, Loop
from tmem_dialect.passes.int_eval import BINARY_BY_NAME, CASTS, COMPARISONS, apply_binary, bitwidth, compare

PERIOD_LIMIT = 256
"""Iterations a carried state is run for before giving up on finding its period (rings have a
few stages: the period of a stage/phase pair is 2N)."""


@dataclass(frozen=True)
class Carried:
    """A carried value's sequence: `values[i]` in iteration i, when the ring counter `key` is
    `first + i`; periodic with period len(values)."""

    key: object
    first: int
    values: tuple[int, ...]
    value: SSAValue
    update: Operation
    """Where the loop makes its next value (the scf.yield, or the branch back to the header)."""

    def stage(self) -> int | None:
        """N, if the value is the stage `t % N` of the counter t in every iteration."""
        n = max(self.values) + 1
        if min(self.values) < 0 or len(self.values) % n:
            return None
        return n if all(v == (self.first + i) % n for i, v in enumerate(self.values)) else None

    def shifted_stage(self) -> tuple[int, int] | None:
        """(N, c), if the value is `(t + c) % N` with 0 < c < N: a stage c iterations ahead of
        the counter (a software-pipelined loop whose prologue filled the first c stages)."""
        n = max(self.values) + 1
        if min(self.values) < 0 or len(self.values) % n:
            return None
        c = (self.values[0] - self.first) % n
        ok = c and all(v == (self.first + i + c) % n for i, v in enumerate(self.values))
        return (n, c) if ok else None

    def parity(self) -> tuple[int, int] | None:
        """(N, flip), if the value is the parity `((t / N) & 1) ^ flip` of the counter t."""
        period = len(self.values)
        if not set(self.values) <= {0, 1} or period % 2:
            return None
        for n in range(1, period // 2 + 1):
            if period % (2 * n):
                continue
            flip = self.values[0] ^ ((self.first // n) & 1)
            if all(v == flip ^ (((self.first + i) // n) & 1) for i, v in enumerate(self.values)):
                return n, flip
        return None

    def describe(self) -> str:
        shown = ", ".join(str(v) for v in self.values[:8]) + (", ..." if len(self.values) > 8 else "")
        if len(set(self.values)) == 1:
            return f"it stays {self.values[0]} in every iteration"
        return f"its values repeat {shown} every {len(self.values)} iterations"


@dataclass(frozen=True)
class Mismatch:
    """A carried value that is not a ring stage or parity of its loop's counter, and why."""

    value: SSAValue
    update: Operation
    """Where the loop makes its next value (the scf.yield, or the branch back to the header)."""
    why: str


@dataclass(frozen=True)
class _Failed:
    """A loop whose carried values cannot be solved, why, and the op to point at."""

    why: str
    op: Operation


class _Unknown(Exception):
    """The update depends on something other than the carried values and constants."""


@dataclass
class _Frame:
    """One loop's carried values: their values on entry and from the previous iteration."""

    args: tuple[BlockArgument, ...]
    inits: dict[BlockArgument, SSAValue]
    nexts: dict[BlockArgument, SSAValue]
    update: Operation
    key: object
    first: int
    """The counter's value in iteration 0: iteration i is counter value first + i."""
    header: Block
    body: frozenset[Block]


def _successor_operands(op: Operation, block: Block) -> tuple[SSAValue, ...] | None:
    """The operands `op` passes to `block` (None when it branches there twice)."""
    targets = [i for i, s in enumerate(op.successors) if s is block]
    if len(targets) != 1:
        return None
    if op.name in ("llvm.cond_br", "cf.cond_br"):
        return tuple(getattr(op, "then_arguments" if targets[0] == 0 else "else_arguments"))
    if op.name in ("llvm.br", "cf.br"):
        return tuple(op.operands)
    return None  # a switch: not followed


class CarriedRings:
    """The closed forms of one function's carried values (cached per value)."""

    def __init__(self, cfg: CFG, counter: Callable[[SSAValue], object | None] | None = None,
                 loop_key: Callable[[Loop], object | None] | None = None):
        """`counter` and `loop_key` name the ring counters (the mbarrier rules'); without them
        the sequences are solved with no counter (for their ranges)."""
        self.cfg = cfg
        self._counter = counter
        self._loop_key = loop_key
        self._frames: dict[object, _Frame | _Failed | None] = {}
        self._solved: dict[SSAValue, Carried | Mismatch | None] = {}

    # ---- what a value is -----------------------------------------------------------------

    def carried(self, value: SSAValue) -> Carried | None:
        found = self.solve(value)
        return found if isinstance(found, Carried) else None

    def solve(self, value: SSAValue) -> Carried | Mismatch | None:
        """The closed form of a carried value, a Mismatch, or None (not a carried value)."""
        if not isinstance(value, BlockArgument):
            return None
        if value not in self._solved:
            self._solved[value] = None  # a cycle through this value: not (yet) known
            self._solved[value] = self._solve(value)
        return self._solved[value]

    def bounds(self, value: SSAValue) -> tuple[int, int] | None:
        """The range of a carried integer over every iteration."""
        found = self.carried(value)
        return (min(found.values), max(found.values)) if found is not None else None

    def loop_key(self, loop: Loop) -> object:
        """A counter for a loop that has no counter of the common form (a run-time trip count,
        a step other than 1): its iterations, which only that loop counts."""
        return ("loop", loop.op if loop.op is not None else loop.header.index)

    # ---- frames --------------------------------------------------------------------------

    def _frame(self, arg: BlockArgument) -> _Frame | _Failed | None:
        block = arg.block
        parent = block.parent_op()
        if isinstance(parent, scf.ForOp) and block is parent.body.block:
            if arg.index == 0:
                return None
            ident: object = parent
        else:
            ident = block
        if ident not in self._frames:
            self._frames[ident] = self._scf_frame(parent, arg) if ident is parent else self._block_frame(block, arg)
        return self._frames[ident]

    def _scf_frame(self, loop: scf.ForOp, arg: BlockArgument) -> _Frame | _Failed | None:
        body = loop.body.block
        yielded = body.last_op
        if yielded is None:
            return None
        args = tuple(body.args[1:])
        key, first = self._key_of(self._cfg_loop(loop), loop.body.block.args[0])
        if first is None:
            return _Failed("its loop's lower bound is not a constant", yielded)
        return _Frame(args, dict(zip(args, loop.iter_args)), dict(zip(args, yielded.operands)), yielded,
                      key, first, body, frozenset({body}))

    def _block_frame(self, block: Block, arg: BlockArgument) -> _Frame | _Failed | None:
        loop = next((lp for lp in self.cfg.loops if lp.op is None and lp.header.ops
                     and lp.header.ops[0].parent_block() is block), None)
        if loop is None:
            return None
        entering = [e for e in loop.header.preds if e.back_of is not loop and e.source.order >= 0]
        back = [e for e in loop.header.preds if e.back_of is loop]
        if len(back) != 1 or not entering or not back[0].source.ops:
            return _Failed(f"its loop has {len(back)} back edges", block.first_op or arg.owner)  # type: ignore[arg-type]
        update = back[0].source.ops[-1]
        nexts = _successor_operands(update, block)
        inits = [_successor_operands(e.source.ops[-1], block) if e.source.ops else None for e in entering]
        if nexts is None or any(i is None for i in inits) or len(nexts) != len(block.args):
            return _Failed("its loop's branches do not pass it plainly", update)
        args = tuple(block.args)
        init_of: dict[BlockArgument, SSAValue] = {}
        for a in args:
            values = {i[a.index] for i in inits if i is not None}
            if len(values) == 1:
                init_of[a] = values.pop()
        key, first = None, None
        for a in args if self._counter is not None else ():
            found = self._counter(a)
            if isinstance(found, tuple) and found and found[0] == "blocks":
                key, first = found, found[1]
                break
        if key is None and self._counter is not None:
            key, first = self.loop_key(loop), 0
        blocks = frozenset(op.parent_block() for n in loop.nodes for op in n.ops[:1])
        return _Frame(args, init_of, dict(zip(args, nexts)), update, key, first or 0, block,
                      frozenset(b for b in blocks if b is not None))

    def _cfg_loop(self, op: Operation) -> Loop | None:
        return next((lp for lp in self.cfg.loops if lp.op is op), None)

    def _key_of(self, loop: Loop | None, induction: SSAValue) -> tuple[object, int | None]:
        """An scf.for's ring counter and its first value: its induction variable (step 1), or
        its iterations."""
        if self._counter is None:
            return None, 0
        key = self._counter(induction)
        if isinstance(key, tuple) and len(key) == 3:
            return key, key[0] if isinstance(key[0], int) else None
        fallback = self._loop_key(loop) if loop is not None and self._loop_key is not None else None
        return (fallback if fallback is not None else ("loop", induction.owner)), 0

    # ---- solving -------------------------------------------------------------------------

    def _solve(self, arg: BlockArgument) -> Carried | Mismatch | None:
        frame = self._frame(arg)
        if isinstance(frame, _Failed):
            return Mismatch(arg, frame.op, frame.why)
        if frame is None:
            return None
        used = {arg}
        while True:
            try:
                sequence = self._run(frame, used)
                break
            except _NeedsArg as need:
                if need.arg in used:
                    return Mismatch(arg, frame.update, "its update is not a function of the loop's carried values")
                used.add(need.arg)
            except _Unknown as unknown:
                return Mismatch(arg, frame.update, str(unknown) or
                                "its update depends on values other than the loop's carried values and constants")
        if sequence is None:
            return Mismatch(arg, frame.update, f"its value does not repeat within {PERIOD_LIMIT} iterations "
                            "or does not return to its first value")
        return Carried(frame.key, frame.first, tuple(s[arg] for s in sequence), arg, frame.update)

    def _run(self, frame: _Frame, used: set[BlockArgument]) -> list[dict[BlockArgument, int]] | None:
        """The states of `used` in iterations 0 .. P - 1, P the period; None if not periodic from 0."""
        state: dict[BlockArgument, int] = {}
        for a in used:
            init = frame.inits.get(a)
            if init is None:
                raise _Unknown("it enters the loop with different values on different paths")
            state[a] = _Evaluator(frame, {}).value(init, outside=True)
        first = dict(state)
        states = [first]
        seen = {tuple(sorted((a.index, v) for a, v in first.items()))}
        for _ in range(PERIOD_LIMIT):
            evaluator = _Evaluator(frame, state)
            state = {a: evaluator.value(frame.nexts[a]) for a in used}
            if state == first:
                return states
            marker = tuple(sorted((a.index, v) for a, v in state.items()))
            if marker in seen:
                return None  # periodic only after a first stretch
            seen.add(marker)
            states.append(state)
        return None


class _NeedsArg(Exception):
    def __init__(self, arg: BlockArgument):
        super().__init__()
        self.arg = arg


class _Evaluator:
    """Concrete integer values inside one iteration of a frame, given the carried values."""

    def __init__(self, frame: _Frame, env: dict[BlockArgument, int]):
        self.frame = frame
        self.env = env
        self.memo: dict[SSAValue, int] = {}
        self.reached: dict[Block, bool] = {}

    def value(self, v: SSAValue, outside: bool = False) -> int:
        if v in self.memo:
            return self.memo[v]
        if (c := constant_int(v)) is not None:
            return c
        if outside:
            raise _Unknown("it enters the loop with a value that is not a constant")
        if isinstance(v, BlockArgument):
            if v.block is self.frame.header:
                if v not in self.env:
                    raise _NeedsArg(v)  # type: ignore[arg-type]
                return self.env[v]  # type: ignore[index]
            if v.block in self.frame.body:
                result = self._joined(v)
            else:
                raise _Unknown()
        else:
            result = self._op(v)
        width = bitwidth(v.type)
        if width is not None and width < 64:
            result = int(integers.as_signed(result, width)) if width > 1 else result & 1
        self.memo[v] = result
        return result

    def _op(self, v: SSAValue) -> int:
        op = v.owner
        assert isinstance(op, Operation)
        name = op.name  # an op outside the loop is invariant in it: evaluated alike
        if name in CASTS and len(op.operands) == 1:
            return self.value(op.operands[0])
        if (kind := BINARY_BY_NAME.get(name)) is not None and len(op.operands) == 2:
            a, b = self.value(op.operands[0]), self.value(op.operands[1])
            found = apply_binary(kind, a, b, bitwidth(op.operands[0].type) or 64)
            if found is None:
                raise _Unknown()
            return int(found)
        if name in ("arith.cmpi", "llvm.icmp"):
            predicate = getattr(op, "predicate", None)
            if not isinstance(predicate, IntegerAttr) or not 0 <= predicate.value.data < len(COMPARISONS):
                raise _Unknown()
            a, b = self.value(op.operands[0]), self.value(op.operands[1])
            return int(compare(COMPARISONS[predicate.value.data], a, b, bitwidth(op.operands[0].type) or 64))
        if name in ("arith.select", "llvm.select") and len(op.operands) == 3:
            return self.value(op.operands[1] if self.value(op.operands[0]) & 1 else op.operands[2])
        if isinstance(op, scf.IfOp):
            region = op.true_region if self.value(op.cond) & 1 else op.false_region
            yielded = region.block.last_op if region.blocks else None
            if yielded is None:
                raise _Unknown()
            return self.value(yielded.operands[op.results.index(v)])  # type: ignore[arg-type]
        raise _Unknown()

    def _joined(self, arg: BlockArgument) -> int:
        """A block argument inside the body: the value of the one edge taken into its block."""
        taken = [ops for ops in self._taken_into(arg.block)]
        if len(taken) != 1:
            raise _Unknown()
        return self.value(taken[0][arg.index])

    def _taken_into(self, block: Block) -> list[tuple[SSAValue, ...]]:
        found = []
        for pred in set(block.predecessors()):
            if pred not in self.frame.body or not self._reaches(pred):
                continue
            term = pred.last_op
            assert term is not None
            for i, succ in enumerate(term.successors):
                if succ is not block:
                    continue
                if term.name in ("llvm.cond_br", "cf.cond_br"):
                    stays = [b for b in term.successors if b in self.frame.body]
                    # An iteration that makes the next values did not leave the loop here.
                    if len(stays) != 1 and (self.value(term.operands[0]) & 1) != (i == 0):
                        continue
                    found.append(tuple(getattr(term, "then_arguments" if i == 0 else "else_arguments")))
                elif len(term.successors) == 1:
                    found.append(tuple(term.operands))
                else:
                    raise _Unknown()
        return found

    def _reaches(self, block: Block) -> bool:
        """Whether this iteration passes through `block` (from the header, without a back edge)."""
        if block is self.frame.header:
            return True
        if block not in self.reached:
            self.reached[block] = False  # a cycle inside the body: an inner loop, not followed
            self.reached[block] = bool(self._taken_into(block))
        return self.reached[block]
