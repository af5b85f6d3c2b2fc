"""mbarrier chains of one elected thread: the kernel's CTA-uniform skeleton run for that thread over every trip count, to prove which of its mma/cp/shift a later wait has seen complete.

The ring rules (rings.py, carried.py) name a phase by a closed form of a loop counter. A
software-pipelined loop does not have one: Triton's tl.dot commits once before its loop, waits
in iteration t for the commit of iteration t - 1 and commits to stage (t + 1) % 2, and after
the loop waits on the exit values of the carried stage address and parity. Whether that last
wait observes the last commit depends on the carried registers and on whether the loop ran at
all, which only running the code decides.

So this module runs it, abstractly, for the elected thread of each warp (the thread that
issues the warp's tcgen05 work), over the kernel's blocks:

- The values an mbarrier op's address, parity or count are computed from are evaluated
  exactly: integers, and CTA-uniform opaque values (the shared window's base) plus a constant
  byte offset. Block arguments on that slice (a ring's carried stage, address and phase) are
  carried along; the rest is not.
- A branch whose condition the values decide goes one way; one that thread ids decide for the
  warp goes that way (split by values.py; elect.sync is true in the thread we follow); any
  other goes both ways, and the path remembers its choice until the condition is computed
  again (a loop's exit test is a new choice each iteration). Every trip count is run: a path
  stops when its whole state repeats, which it does because the slice is periodic.
- An mbarrier counts the releases (tcgen05.commit, arrive with count 1) it has had on the
  path. tcgen05.commit completes a phase when all prior async tcgen05 ops of the thread are
  complete (PTX ISA 9.7.16.9.1, tcgen05.commit), and `mbarrier.try_wait.parity P` returns
  once the phase of parity P is complete, at once when the current phase has the other parity
  (9.7.13.15.16, try_wait): with n releases so far, it observes the n-th (from 1) when n is
  odd-even opposite to P, i.e. n & 1 != P and n >= 1.
- On a barrier whose only releases are this thread's, a wait that this same thread executes
  with n & 1 == P never returns (no one else can complete the phase): the path ends there.
  That is how the loop that a prologue-less run would enter (no commit before it) is cut.

Each warp is run twice: first without the counts (which thread releases to and inits which
mbarrier: the barriers that are counted follow from it), then, for the warps that issue async
ops, with them. A block run's values (mbarrier addresses, branch choices, carried values) are
the same in both and whatever the counts: they are computed once per warp and entry (block,
carried values, assumptions) as a chain_values.Plan, which each run then steps through; a
later warp that answers alike every split a plan asked copies it (_fill).

What it proves: at each op, the async ops of the thread run on some path so far whose
completion no observed wait has covered. An mma M of warp w is ordered before an op L of any
warp when, for w's thread, M is never left uncovered at L on any path; the waits that count
are the ones every warp executes (no thread-dependent branch decides them), so a warp that
reaches L passed the same waits, with the same (CTA-uniform) parities. Only barriers with
init count 1 whose every release is this thread's (one warp's elected thread) are counted;
any mbarrier op the run does not reach or cannot evaluate the address of, a remote or
multicast release, or control flow other than llvm.br / cond_br, and nothing is proven.
Nothing here reports: a chain that is not proven leaves the pair to the other rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple, TypeVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from tmem_dialect.dialects.interfaces import TMEMEffect
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis.chain_sites import ChainSkeleton
from tmem_dialect.passes.analysis.chain_values import (
    ASYNC,
    INIT,
    OTHER,
    RELEASE,
    RELEASES,
    STOP,
    WAIT,
    BlockRun,
    Plan,
    RunValues,
    Site,
    Unproven,
)
from tmem_dialect.passes.cfg import CFG
from tmem_dialect.passes.threads import Uniformity
from tmem_dialect.passes.values import Values, _is_election

_IGNORED = frozenset({EffectKind.MBARRIER_INVAL, EffectKind.FENCE_MBARRIER_INIT})
_STATE_LIMIT = 20000  # states per warp: past it the run gives up (a slice that is not periodic)
_I1 = IntegerType(1)
_NONE: frozenset = frozenset()
_T = TypeVar("_T")
_UNSET = object()  # a wait's parity not evaluated yet (None: it has none)


class _State(NamedTuple):  # (a tuple: made and hashed once per block run, in C)
    entry: Plan
    """The block, carried values and assumptions (interned: hashed by identity)."""
    counts: frozenset[tuple[object, int]]
    """Releases per mbarrier so far: n below 2, else 2 + n % 2 (all a parity wait can tell)."""
    pending: frozenset[tuple[object, frozenset[Operation]]]
    """Per released mbarrier: the async ops run since its last release."""
    uncovered: frozenset[Operation]


def _capped(n: int) -> int:
    return n if n < 2 else 2 + (n & 1)


def _each_once(first: _T, successors: Callable[[_T], Iterable[_T]]) -> None:
    """Visit every state reachable from `first` once (depth first), `successors` giving each
    one's next states; past _STATE_LIMIT states the run gives up (Unproven)."""
    seen: set[_T] = set()
    stack = [first]
    while stack:
        state = stack.pop()
        n = len(seen)
        seen.add(state)
        if len(seen) == n:
            continue  # (one hash per state: add, then compare the size)
        if n >= _STATE_LIMIT:
            raise Unproven
        stack.extend(successors(state))


class Chains(ChainSkeleton):
    """The chain proofs of one function (built once, queried by the mbarrier rules)."""

    def __init__(self, function: Operation, cfg: CFG, values: Values, effects: dict[Operation, TMEMEffect]):
        self.cfg = cfg
        self.values = values
        self.effects = effects
        self.space = values.space
        self.ok = False
        self._uncovered: dict[int, dict[Operation, frozenset[Operation]]] = {}
        self._tracked_ops: dict[int, set[Operation]] = {}
        self._observing: set[Operation] = set()
        self._release_barriers: dict[Operation, set[object]] = {}
        self._wait_barriers: dict[Operation, set[object]] = {}
        self._unexplained: set[Operation] = set()
        self._block_effects: dict[Block, tuple[tuple[Operation, TMEMEffect], ...]] = {}
        self._homes: dict[SSAValue, Block | None] = {}
        self._successor_memo: dict[Block, list[tuple[Block, tuple[SSAValue, ...]]]] = {}
        self._conditions: dict[Block, SSAValue] = {}
        self._single_memo: dict[Block | None, bool] = {}
        self._opaque_memo: dict[SSAValue, object] = {}
        self.asked: set[SSAValue] = set()  # the splits a run asked (of its warp)
        self._plans: dict[int, dict[tuple, Plan]] = {}  # per warp, per (site, env, assume)
        self._warp_plans: dict[tuple, Plan] = {}  # those of the warp _explore runs
        self._sites: list[Site] = []
        try:
            self._run(function)
            self.ok = True
        except (Unproven, RecursionError):
            self._uncovered.clear()
        finally:  # the queries read neither plans nor sites; a loop links each in a cycle
            for plans in self._plans.values():
                for plan in plans.values():
                    plan.successors = ()
            self._plans.clear()
            for site in self._sites:
                site.exits = ()
            self._sites = []

    # ---- queries ------------------------------------------------------------------------------

    def orders(self, earlier: Operation, warp: int, later: Operation) -> bool:
        """Every instance of `earlier` (an async op of warp `warp`'s elected thread) that runs
        before `later` is complete when any warp runs `later`."""
        if not self.ok or earlier not in self._tracked_ops.get(warp, ()):
            return False
        seen = self._uncovered.get(warp, {})
        if later not in seen or earlier in seen[later] or not self._uniformly_reached(later):
            return False
        if set(self.cfg.loops_of(earlier)) & set(self.cfg.loops_of(later)):
            return False
        return not self._reaches(later, earlier)

    def explains(self, op: Operation) -> bool:
        """A wait that observes a release of a chain whenever it returns, or a release to a
        chain's mbarrier all of whose waits are such: the ring rules' 'cannot match' (their
        closed forms) does not apply to it."""
        if not self.ok:
            return False
        if op in self._release_barriers:
            waits = [w for w, bs in self._wait_barriers.items() if bs & self._release_barriers[op]]
            return bool(waits) and all(self._explained(w) for w in waits)
        return self._explained(op)

    def _explained(self, wait: Operation) -> bool:
        return wait in self._observing and wait not in self._unexplained

    # ---- the run ------------------------------------------------------------------------------

    def _run(self, function: Operation) -> None:
        blocks = list(function.regions[0].blocks) if function.regions else []
        if not blocks:
            raise Unproven
        self._index_effects(function)
        self._incoming = self._edges(blocks)
        mbarrier_ops = [op for op, e in self.effects.items() if e.mbarrier is not None or e.kind in RELEASES
                        or e.kind is EffectKind.MBARRIER_INIT]
        if not any(self.effects[op].kind is EffectKind.COMMIT for op in mbarrier_ops):
            raise Unproven  # no commit, no chain
        self._tracked = self._slice(mbarrier_ops)
        if any(self.values.uniformity(a) is not Uniformity.CTA for a in self._tracked):
            raise Unproven
        self._depends: dict[SSAValue, bool] = {}
        self._fact_bit: dict[SSAValue, int] = {}
        self._facts: list[SSAValue] = []  # by bit position
        self._closure: dict[SSAValue, int] = {}
        self._inputs: dict[SSAValue, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.evaluated: dict[tuple, object] = {}
        self._sites = self._liveness(blocks)
        # First run: who releases to each mbarrier, with what init counts; second: the proofs.
        self._simple: dict[object, int] = {}
        releasers: dict[object, set[int]] = {}
        inits: dict[object, set[object]] = {}
        others: set[object] = set()
        visited: set[Operation] = set()
        issuers: set[int] = set()
        runs: list[tuple[int, set[SSAValue], bool]] = []  # (warp, the splits it asked, whether it issued)
        for warp in range(self.space.nwarps):
            # The run is deterministic, and reads its warp only through values.split: a warp that
            # answers every split an earlier warp's run asked as it did runs the same paths.
            same = next((r for r in runs if self._same_answers(r[1], r[0], warp)), None)
            if same is not None:
                for ws in releasers.values():
                    if same[0] in ws:
                        ws.add(warp)
                if same[2]:
                    issuers.add(warp)
                continue
            self.asked: set[SSAValue] = set()
            issued = self._explore(warp, self._sites[0], releasers, inits, others, visited, proving=False)
            runs.append((warp, self.asked, issued))
            if issued:
                issuers.add(warp)
        unreached = [op for op in mbarrier_ops if op not in visited and self.effects[op].kind not in _IGNORED
                     and self.effects[op].kind is not EffectKind.MBARRIER_WAIT]
        if unreached:
            raise Unproven
        # An mbarrier of a chain: init count 1, released by one warp's elected thread only.
        self._simple = {b: next(iter(ws)) for b, ws in releasers.items()
                        if len(ws) == 1 and inits.get(b) == {1} and b not in others}
        if not self._simple:
            raise Unproven
        for warp in sorted(issuers):  # the warps whose elected thread issues mma/cp/shift
            self._explore(warp, self._sites[0], {}, {}, set(), set(), proving=True)

    def _same_answers(self, asked: Iterable[SSAValue], warp: int, other: int) -> bool:
        a, b = 1 << warp, 1 << other
        for value in asked:
            split = self.values.split(value)
            if bool(split.may_true & a) != bool(split.may_true & b) or bool(split.may_false & a) != bool(split.may_false & b):
                return False
        return True

    def _explore(self, warp: int, entry: Site, releasers, inits, others, visited, proving: bool) -> bool:
        """Run warp `warp`'s elected thread from `entry` over every path; whether it issued
        an async op it alone issues."""
        self._warp_plans = self._plans.setdefault(warp, {})
        first = self.entry(entry, _NONE, _NONE, {})
        if not proving:
            # Only waits read the counts, and this run skips them: its states are its plans
            # (each with no counts, pending or uncovered ops).
            tracked_ops: set[Operation] = set()

            def count(plan: Plan) -> tuple[Plan, ...]:
                if plan.steps is None:
                    self._fill(plan, warp)
                if plan.steps:
                    self._record(plan, warp, releasers, inits, others, visited, tracked_ops)
                return plan.successors

            _each_once(first, count)
            return bool(tracked_ops)
        uncovered = self._uncovered.setdefault(warp, {})
        tracked_ops = self._tracked_ops.setdefault(warp, set())

        def prove(state: _State) -> list[_State]:
            # The counting run entered these entries first (with no counts): it filled their plans.
            plan = state.entry
            if plan.steps is None:
                self._fill(plan, warp)
            return self._prove(plan, state, warp, uncovered, tracked_ops)

        _each_once(_State(first, _NONE, _NONE, _NONE), prove)
        return bool(tracked_ops)

    def _fill(self, plan: Plan, warp: int) -> None:
        """Run `plan`'s block for warp `warp`, or copy an earlier warp's run of the same entry
        when the two warps answer alike every split that run asked (Plan.asks: the run reads
        its warp only through values.split, so the copy is what the run would compute)."""
        if len(self._plans) > 1:
            self._copy_or_run(plan, warp)
        else:
            BlockRun(self, warp, plan).run()

    def _copy_or_run(self, plan: Plan, warp: int) -> None:
        key = (plan.site, plan.env, plan.assume)
        for other, plans in self._plans.items():
            twin = plans.get(key) if other != warp else None
            if twin is not None and twin.steps is not None and self._same_answers(twin.asks, other, warp):
                plan.steps, plan.inside, plan.asks = twin.steps, twin.inside, twin.asks
                plan.successors = tuple(self.entry(p.site, p.env, p.assume, p.env_dict)
                                        for p in twin.successors)
                self.asked.update(plan.asks)
                return
        BlockRun(self, warp, plan).run()

    def entry(self, site: Site, env: frozenset, assume: frozenset, env_dict: dict[int, object]) -> Plan:
        """The interned way into `site`'s block with carried values `env` (`env_dict` as a dict)
        and assumptions `assume`, for the warp _explore runs."""
        plans = self._warp_plans
        key = (site, env, assume)
        found = plans.get(key)
        if found is None:
            found = plans[key] = Plan(site, env, assume, env_dict)
        return found

    def _record(self, plan: Plan, warp: int, releasers, inits, others, visited, tracked_ops) -> None:
        """A block run of the first exploration: who releases to and inits which mbarrier."""
        for what, op, barrier in plan.steps:
            visited.add(op)
            if what == ASYNC:
                tracked_ops.add(op)
            elif what == RELEASE:
                releasers.setdefault(barrier, set()).add(warp)
            elif what == OTHER:
                others.add(barrier)
            elif what == INIT:
                inits.setdefault(barrier[0], set()).add(barrier[1])  # type: ignore[index]
            elif what == STOP:
                raise Unproven

    def _prove(self, plan: Plan, state: _State, warp: int, uncovered, tracked_ops) -> list[_State]:
        """A block run of the proving exploration: the state after it on each way out."""
        counts, pending = dict(state.counts), dict(state.pending)
        open_ops = state.uncovered
        for what, op, barrier in plan.steps:
            old = uncovered.get(op)  # (a new frozenset only when open_ops adds to it)
            if old is None:
                uncovered[op] = open_ops
            elif not open_ops <= old:
                uncovered[op] = old | open_ops
            if what == ASYNC:
                tracked_ops.add(op)
                open_ops = open_ops | {op}
                pending = {b: ops | {op} for b, ops in pending.items()}
            elif what == WAIT:
                step = self._wait(plan, op, warp, barrier, counts, pending, open_ops)
                if step is None:
                    return []  # the wait never returns on this path
                open_ops = step
            elif what == RELEASE:
                if barrier in self._simple:
                    self._release_barriers.setdefault(op, set()).add(barrier)
                counts[barrier] = _capped(counts.get(barrier, 0) + 1)
                pending[barrier] = _NONE
            elif what == STOP:
                raise Unproven
        packed_counts, packed_pending = frozenset(counts.items()), frozenset(pending.items())
        return [_State(p, packed_counts, packed_pending, open_ops) for p in plan.successors]

    def _wait(self, plan: Plan, op: Operation, warp: int, barrier, counts, pending, open_ops) -> frozenset[Operation] | None:
        """The uncovered async ops after a wait; None: it never returns."""
        parity = plan.parities.get(op, _UNSET)
        if parity is _UNSET:
            phase = self.effects[op].phase
            parity = plan.parities[op] = None if phase is None else \
                RunValues(self, warp, plan.env_dict, plan.inside).root(phase, False)
        if self._simple.get(barrier) != warp or not isinstance(parity, int):
            self._unexplained.add(op)  # another warp's barrier: its phases are not counted here
            return open_ops
        self._wait_barriers.setdefault(op, set()).add(barrier)
        n = counts.get(barrier, 0)
        if n & 1 == parity & 1:
            return None  # its only releaser is this thread, stuck here
        if n == 0 or not self._uniformly_reached(op):
            self._unexplained.add(op)
            return open_ops
        self._observing.add(op)
        return open_ops & pending.get(barrier, _NONE)

    # ---- helpers ------------------------------------------------------------------------------

    def depends_on_tracked(self, value: SSAValue) -> bool:
        found = self._depends.get(value)
        if found is None:
            self._depends[value] = False  # a cycle: only through block arguments, handled there
            if isinstance(value, BlockArgument):
                found = value in self._tracked or any(
                    self.depends_on_tracked(args[value.index]) for _, args in self._incoming.get(value.block, ()))
            else:
                owner = value.owner
                found = isinstance(owner, Operation) and any(self.depends_on_tracked(o) for o in owner.operands)
            self._depends[value] = found
        return found

    def opaque(self, value: SSAValue) -> object:
        """A CTA-uniform value the slice does not feed, defined once (outside every loop): a
        symbol of its own. (A value a loop defines again would be one symbol for many values.)
        The same for every thread and path (memoized: it asks only the run's fixed facts)."""
        if value in self._opaque_memo:
            return self._opaque_memo[value]
        found = (("value", value), 0) if self.values.uniformity(value) is Uniformity.CTA \
            and not self.depends_on_tracked(value) and self.defined_once(value) else None
        self._opaque_memo[value] = found
        return found

    def defined_once(self, value: SSAValue) -> bool:
        if isinstance(value, BlockArgument):
            op = value.block.first_op
        else:
            op = value.owner if isinstance(value.owner, Operation) else None
        return op is not None and op in self.cfg.node_of and not self.cfg.loops_of(op)

    def _uniformly_reached(self, op: Operation) -> bool:
        """Whether `op` runs is decided by CTA-uniform conditions only."""
        node = self.cfg.node_of.get(op)
        if node is None:
            return False
        return all(b.branch is not None and b.branch.condition is not None
                   and self.values.uniformity(b.branch.condition) is Uniformity.CTA
                   for b in self.cfg.controlling_branches(node))

    def _reaches(self, source: Operation, target: Operation) -> bool:
        start, goal = self.cfg.node_of.get(source), self.cfg.node_of.get(target)
        if start is None or goal is None:
            return True
        if start is goal and source.is_before_in_block(target):
            return True
        seen, stack = set(), [e.target for e in start.succs]
        while stack:
            n = stack.pop()
            if n is goal:
                return True
            if n not in seen:
                seen.add(n)
                stack.extend(e.target for e in n.succs)
        return False

    def single_thread(self, block: Block | None) -> bool:
        """The ops of `block` run in one thread of its warp: it is the taken side of a branch on
        elect.sync's predicate (or a conjunction with it), as predicated PTX imports (memoized)."""
        found = self._single_memo.get(block)
        if found is None:
            preds = self._incoming.get(block, []) if block is not None else []
            term = preds[0][0].last_op if len(preds) == 1 else None
            found = self._single_memo[block] = (
                isinstance(term, llvm.CondBrOp) and term.successors[0] is block
                and term.successors[1] is not block and _elected(self.condition(preds[0][0])))
        return found


def _elected(condition: SSAValue) -> bool:
    if _is_election(condition):
        return True
    owner = condition.owner
    return isinstance(owner, Operation) and owner.name in ("llvm.and", "arith.andi") and any(
        _elected(o) for o in owner.operands)
