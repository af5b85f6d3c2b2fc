"""The values one step of an mbarrier-chain run computes (chains.py): integers, a CTA-uniform opaque base plus a byte offset, and branch truths, for one warp's elected thread.

A block run's values (its mbarriers, init counts, the way it leaves the block and the carried
values it passes on) depend only on the warp, the block, the carried values and the assumed
conditions it is entered with, not on the releases, pending and uncovered ops the path has had:
BlockRun computes them once per such entry as a Plan, which chains.py then steps through with
each path's counts. It evaluates what the uncounted run evaluates, in the same order; a wait's
parity, which only the counted run reads, is evaluated when that run first reaches the wait.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from tmem_dialect import integers
from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.kernel_checks import type_size
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.int_eval import BINARY_BY_NAME, CASTS, COMPARISONS, apply_binary, bitwidth, compare
from tmem_dialect.passes.values import _is_election

_LOGIC = {"llvm.and": "and", "arith.andi": "and", "llvm.or": "or", "arith.ori": "or", "llvm.xor": "xor",
          "arith.xori": "xor"}
_ABSENT = object()  # a carried value not (yet) in a state's env
_GEP_DYNAMIC = -2147483648  # rawConstantIndices' marker of an SSA index
ASYNC_KINDS = frozenset({EffectKind.MMA, EffectKind.CP, EffectKind.SHIFT})
RELEASES = frozenset({EffectKind.COMMIT, EffectKind.MBARRIER_ARRIVE})
IGNORED = frozenset({EffectKind.MBARRIER_INVAL, EffectKind.FENCE_MBARRIER_INIT})
# What a plan's step does (Plan.steps):
SKIP = 0  # nothing the run counts (an op of another thread, a test_wait, an mbarrier inval...)
ASYNC = 1  # an mma/cp/shift of the thread we follow
WAIT = 2  # a parity wait on the step's mbarrier
RELEASE = 3  # a plain release (commit, arrive of count 1) of the step's mbarrier
OTHER = 4  # any other release (a count, multicast, more threads) of the step's mbarrier
INIT = 5  # an init of the step's (mbarrier, count)
STOP = 6  # a release or init whose mbarrier the run cannot tell: nothing is proven


class Unproven(Exception):
    """The run cannot model something it met: no chain of this kernel is proven."""


@dataclass(frozen=True)
class Aggregate:
    """An llvm.struct value, field by field (Triton carries an mbarrier's address in one)."""

    fields: tuple[object, ...]


class Fork(Exception):
    """The value depends on a condition the run has not chosen yet: fork on it."""

    def __init__(self, condition: SSAValue):
        self.condition = condition


class Site:
    """What a block run reads of its block whatever its entry (Chains._sites: built once, after
    the liveness; hashed by identity, unlike a Block, whose __hash__ is Python code). The facts
    a run carries (env) or assumes are named by their bit (Chains._fact_bit)."""

    __slots__ = ("block", "condition", "condition_inputs", "defined", "effects", "exits")

    def __init__(self, block: Block, effects: tuple, condition: SSAValue | None,
                 condition_inputs: tuple | None, defined: int):
        self.block, self.effects, self.defined = block, effects, defined
        self.condition, self.condition_inputs = condition, condition_inputs
        """The block, its ops with an effect in order, the bits of the facts it defines, the
        condition of its llvm.cond_br and what that reads (Chains.inputs)."""
        self.exits: tuple[tuple[Site, tuple[tuple[int, SSAValue, tuple], ...], int], ...] = ()
        """Per successor (as Chains._successors): its site, the bits of its carried arguments
        with the values passed to them (and what those read), and the facts live into it."""


class Plan:
    """A way into a block of one warp's run (the block's site, the carried values, the
    assumptions), interned per warp (Chains.entry: a state holds it, and is hashed with it, by
    identity) and, once BlockRun has run it, what the block run computes from it."""

    __slots__ = ("asks", "assume", "env", "env_dict", "inside", "parities", "site", "steps", "successors")

    def __init__(self, site: Site, env: frozenset, assume: frozenset, env_dict: dict[int, object]):
        self.site, self.env, self.assume, self.env_dict = site, env, assume, env_dict
        """env: frozenset of (fact bit, value) of the carried values (env_dict: the same as a
        dict); assume: frozenset of (fact bit, sense) of the assumed conditions."""
        self.steps: tuple[tuple[int, Operation, object], ...] | None = None  # not run yet
        """Per op of the block with an effect, in order: (what it does, the op, its mbarrier or
        for an init (mbarrier, count)). A STOP step is the last: the run gives up there."""
        self.successors: tuple[Plan, ...] = ()
        """The entries of the ways the run leaves the block (links between plans: Chains
        unlinks them when it is built)."""
        self.inside: frozenset = assume
        """The assumptions in the block (the entry's, less those on values it computes again)."""
        self.parities: dict[Operation, object] = {}
        """The parities of its waits, evaluated when a counting run first reaches one."""
        self.asks: tuple[SSAValue, ...] = ()
        """The conditions whose per-warp split the block run consulted (RunValues.asks)."""


def pure(op: Operation) -> bool:
    return (op.name in BINARY_BY_NAME or op.name in CASTS or op.name in (
        "llvm.select", "arith.select", "llvm.icmp", "arith.cmpi", "llvm.getelementptr", "llvm.mlir.constant",
        "arith.constant", "llvm.extractvalue", "llvm.insertvalue", "llvm.mlir.undef", "llvm.mlir.poison"))


def constant(value: SSAValue) -> int | None:
    """A constant's value, read as the signless integer it is (integers.constant_value)."""
    c = constant_int(value)
    width = bitwidth(value.type)
    return integers.constant_value(c, width) if c is not None and width is not None else c


class RunValues:
    """int_of and truth in one block run of `chains` (a Chains: its carried facts, opaque
    symbols and cross-run cache) for warp `warp`, under the carried values `env` and the
    assumed conditions `assume`."""

    def __init__(self, chains, warp: int, env: dict[int, object],  # type: ignore[no-untyped-def]
                 assume: frozenset[tuple[int, bool]]):
        self.chains = chains
        self.warp = warp
        self.env = env
        self.assume = assume
        self.memo: dict[SSAValue, object] = {}
        self.asks: list[SSAValue] = []
        """The conditions whose per-warp split (values.split) the values computed so far read:
        the only way they read the warp."""

    def root(self, value: SSAValue, truth: bool, inputs: tuple | None = None) -> object:
        """int_of (or truth) of a value the run evaluates from a block (Chains._roots), cached
        across runs on all it may read: the warp, the carried values and the assumed
        conditions of its closure (a fork it meets is cached too), with the splits it asked."""
        args, conds = inputs or self.chains.inputs(value)
        env, assume = self.env, self.assume
        # (By the value's id: SSAValue.__hash__ is Python code; the values outlive the cache.)
        key = (id(value), truth, self.warp, tuple([env.get(a, _ABSENT) for a in args]),
               tuple([1 if (c, True) in assume else -1 if (c, False) in assume else 0 for c in conds]))
        cache = self.chains.evaluated
        entry = cache.get(key)
        if entry is None:
            # With a memo of its own, so that the asks recorded are all those the value reads.
            mark, memo, self.memo = len(self.asks), self.memo, {}
            try:
                found = self.truth(value) if truth else self.int_of(value)
            except Fork as fork:
                found = Fork(fork.condition)  # not the raised one: its traceback holds this frame (a cycle)
            self.memo = memo
            cache[key] = (found, tuple(self.asks[mark:]))
        else:
            found, asks = entry
            if asks:
                self.asks.extend(asks)
        if isinstance(found, Fork):
            raise Fork(found.condition)
        return found

    def int_of(self, value: SSAValue) -> object:
        """An int, (symbol, byte offset) for a CTA-uniform opaque base, or None (unknown)."""
        if value in self.memo:
            return self.memo[value]
        found = self._int_of(value)
        self.memo[value] = found
        return found

    def _int_of(self, value: SSAValue) -> object:
        c = constant(value)
        if c is not None:
            return c
        if isinstance(value, BlockArgument):
            bit = self.chains._fact_bit.get(value)
            if bit in self.env:
                return self.env[bit]
            return self._opaque(value)
        owner = value.owner
        width = bitwidth(value.type)
        if isinstance(owner, llvm.AddressOfOp):
            return (("global", owner.global_name.root_reference.data), 0)
        if owner.name in CASTS and len(owner.operands) == 1:
            inner = self.int_of(owner.operands[0])
            if isinstance(inner, int) and width is not None:
                if owner.name in ("llvm.sext", "arith.extsi"):
                    src = bitwidth(owner.operands[0].type) or 64
                    return integers.as_signed(integers.wrap(inner, src), src)
                return integers.wrap(inner, width) if owner.name in ("llvm.zext", "arith.extui") else \
                    integers.as_signed(inner, width)
            return inner if inner is not None else self._opaque(value)
        kind = BINARY_BY_NAME.get(owner.name)
        if kind is not None and len(owner.operands) == 2 and width is not None:
            a, b = (self.int_of(o) for o in owner.operands)
            if isinstance(a, int) and isinstance(b, int):
                r = apply_binary(kind, a, b, width)
                return integers.as_signed(int(r), width) if r is not None else self._opaque(value)
            if kind in ("add", "sub") and isinstance(a, tuple) and isinstance(b, int):
                return (a[0], a[1] + (b if kind == "add" else -b))
            if kind == "add" and isinstance(b, tuple) and isinstance(a, int):
                return (b[0], b[1] + a)
            return self._opaque(value)
        if isinstance(owner, llvm.GEPOp):
            return self._gep(owner, value)
        if owner.name in ("llvm.mlir.undef", "llvm.mlir.poison") and isinstance(value.type, llvm.LLVMStructType):
            return Aggregate((None,) * len(value.type.types))
        if isinstance(owner, (llvm.ExtractValueOp, llvm.InsertValueOp)):
            return self._aggregate(owner, value)
        if owner.name in ("llvm.select", "arith.select"):
            cond = self._truth_or_none(owner.operands[0])
            if cond is not None:
                return self.int_of(owner.operands[1] if cond else owner.operands[2])
            return self._opaque(value)
        if owner.name in ("llvm.icmp", "arith.cmpi"):
            t = self._truth_or_none(value)
            return int(t) if t is not None else None
        return self._opaque(value)

    def _aggregate(self, owner: Operation, value: SSAValue) -> object:
        position = tuple(owner.position.get_values())  # type: ignore[attr-defined]
        container = self.int_of(owner.operands[0])
        if len(position) != 1 or not isinstance(container, Aggregate) or position[0] >= len(container.fields):
            return None if isinstance(owner, llvm.InsertValueOp) else self._opaque(value)
        i = position[0]
        if isinstance(owner, llvm.ExtractValueOp):
            field = container.fields[i]
            return field if field is not None else self._opaque(value)
        fields = list(container.fields)
        fields[i] = self.int_of(owner.operands[1])
        return Aggregate(tuple(fields))

    def _gep(self, owner: llvm.GEPOp, value: SSAValue) -> object:
        indices = tuple(owner.rawConstantIndices.iter_values())
        size = type_size(owner.elem_type)
        base = self.int_of(owner.ptr)
        if len(indices) != 1 or size is None or base is None:
            return self._opaque(value)
        index = self.int_of(owner.ssa_indices[0]) if indices[0] == _GEP_DYNAMIC else indices[0]
        if not isinstance(index, int):
            return self._opaque(value)
        if isinstance(base, tuple):
            return (base[0], base[1] + index * size)
        return base + index * size

    def _opaque(self, value: SSAValue) -> object:
        return self.chains.opaque(value)

    def truth(self, value: SSAValue) -> object:
        """True / False for this thread, or the condition to fork on (raises Fork)."""
        if self.assume:
            bit = self.chains._fact_bit.get(value)
            for sense in (True, False):
                if (bit, sense) in self.assume:
                    return sense
        c = constant(value)
        if c is not None:
            return bool(c & 1)
        split = self.chains.values.split(value)
        bit = 1 << self.warp
        if split is not None:
            self.asks.append(value)
        if split is not None and bool(split.may_true & bit) != bool(split.may_false & bit):
            return bool(split.may_true & bit)
        if _is_election(value):
            return True  # the thread we follow is the elected one
        owner = value.owner
        if isinstance(owner, Operation):
            name = owner.name
            logic = _LOGIC.get(name)
            if logic is not None and len(owner.operands) == 2:
                a = self._truth_or_none(owner.operands[0])
                b = self._truth_or_none(owner.operands[1])
                dominant = {"and": False, "or": True}.get(logic)
                if dominant is not None and dominant in (a, b):
                    return dominant  # decided by one side, whatever the other is
                if a is None:
                    self.truth(owner.operands[0])  # the unknown it meets is the one to fork on
                if b is None:
                    self.truth(owner.operands[1])
                return {"and": a and b, "or": a or b}.get(logic, a != b)
            elif name in ("llvm.icmp", "arith.cmpi"):
                found = self._compare(owner)
                if found is not None:
                    return found
            elif name in ("llvm.select", "arith.select"):
                cond = self.truth(owner.operands[0])
                return self.truth(owner.operands[1] if cond else owner.operands[2])
        raise Fork(value)

    def _truth_or_none(self, value: SSAValue) -> bool | None:
        try:
            found = self.truth(value)
        except Fork:
            return None
        return found if isinstance(found, bool) else None

    def _compare(self, op: Operation) -> bool | None:
        pred = op.properties.get("predicate") or op.attributes.get("predicate")
        if not isinstance(pred, IntegerAttr):
            return None
        name = COMPARISONS[pred.value.data]
        a, b = (self.int_of(o) for o in op.operands)
        if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] and name in ("eq", "ne"):
            return (a[1] == b[1]) == (name == "eq")
        if not (isinstance(a, int) and isinstance(b, int)):
            return None
        return bool(compare(name, a, b, bitwidth(op.operands[0].type) or 64))


class BlockRun(RunValues):
    """The block run of the elected thread of `warp` from `plan`'s entry: fills in the plan."""

    def __init__(self, chains, warp: int, plan: Plan):  # type: ignore[no-untyped-def]
        super().__init__(chains, warp, plan.env_dict, plan.assume)
        self.plan = plan

    def run(self) -> None:
        chains, plan = self.chains, self.plan
        site = plan.site
        # The block's values are computed again: choices made on them before no longer hold.
        if self.assume:
            defined = site.defined
            inside = frozenset([fact for fact in self.assume if not fact[0] & defined])
            if len(inside) < len(plan.assume):
                self.assume = plan.inside = inside
        steps: list[tuple[int, Operation, object]] = []
        effects = site.effects
        # (the ops of a block run in the same threads)
        single = bool(effects) and chains.single_thread(site.block)
        for op, effect in effects:
            kind = effect.kind
            if kind in ASYNC_KINDS:  # one issued by more threads than the one we follow is not tracked
                steps.append((ASYNC if single else SKIP, op, None))
                continue
            if effect.mbarrier is None or kind in IGNORED:
                steps.append((SKIP, op, None))
                continue
            barrier = self.root(effect.mbarrier, False)
            if kind is EffectKind.MBARRIER_WAIT:  # a test_wait's result says whether it observed anything
                steps.append((SKIP if op.results else WAIT, op, barrier))
                continue
            if barrier is None:  # a release or init that may reach any mbarrier
                steps.append((STOP, op, None))
                plan.steps = tuple(steps)
                self._asked()
                return
            if kind is EffectKind.MBARRIER_INIT:
                count = self.root(effect.count, False) if effect.count is not None else None
                steps.append((INIT, op, (barrier, count)))
                continue
            plain = kind in RELEASES and (kind is EffectKind.COMMIT or self._count_is_one(effect)) \
                and effect.multicast is None and single
            steps.append((RELEASE if plain else OTHER, op, barrier))
        plan.successors = self._next()
        plan.steps = tuple(steps) if steps else ()
        self._asked()

    def _asked(self) -> None:
        if self.asks:
            asks = self.plan.asks = tuple(dict.fromkeys(self.asks))
            self.chains.asked.update(asks)

    def _count_is_one(self, effect) -> bool:  # type: ignore[no-untyped-def]
        return effect.count is None or self.root(effect.count, False) == 1

    def _next(self) -> tuple[Plan, ...]:
        chains, plan = self.chains, self.plan
        site = plan.site
        exits = site.exits
        taken: list[tuple[tuple[Site, tuple[tuple[int, SSAValue, tuple], ...], int], frozenset]] = []
        if len(exits) == 2:  # an llvm.cond_br (Chains._successors_of)
            cond, inputs = site.condition, site.condition_inputs
            # Fork on each unknown the condition meets until it is decided under every choice.
            choices = [plan.inside]
            while choices:
                assume = choices.pop()
                self.assume, self.memo = assume, {}
                try:
                    sense = self.root(cond, True, inputs)
                except Fork as fork:
                    bit = chains._fact_bit[fork.condition]
                    choices.extend(assume | {(bit, s)} for s in (True, False))
                    continue
                taken.append((exits[0 if sense else 1], assume))
        elif exits:
            taken.append((exits[0], plan.inside))
        out = []
        entry, entry_env = plan.env, self.env
        for (target, carried, live), assume in taken:
            env = {bit: value for bit, value in entry_env.items() if live & bit} if entry_env else {}
            if carried:  # evaluated under this edge's choices
                self.assume, self.memo = assume, {}
                for bit, value, inputs in carried:
                    env[bit] = self.root(value, False, inputs)
            if assume:
                kept = [fact for fact in assume if live & fact[0]]
                if len(kept) < len(assume):
                    assume = frozenset(kept)
            # The entry's env when the edge keeps it whole (no new frozenset to build and hash).
            if len(env) == len(entry) and not carried:
                out.append(chains.entry(target, entry, assume, entry_env))
            else:
                out.append(chains.entry(target, frozenset(env.items()), assume, env))
        return tuple(out)
