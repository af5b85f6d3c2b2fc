"""Control-flow graphs of kernel functions (scf regions and cf/llvm blocks alike), their loops, post-dominators and a forward dataflow solver."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, Region, SSAValue

from tmem_dialect.block_order import reverse_post_order


@dataclass(eq=False)
class Branch:
    """What decides which successor a node takes.

    `condition` is the i1 value of a two-way branch (scf.if, scf.condition, cf/llvm.cond_br);
    None for a loop's trip decision (scf.for: the bounds decide) or a multi-way switch.
    """

    op: Operation
    condition: SSAValue | None


@dataclass(eq=False)
class Edge:
    source: Node
    target: Node
    sense: bool | None = None
    """The value of the source's branch condition on this edge (None: not decided by it)."""
    back_of: Loop | None = None
    """The loop whose next iteration this edge starts."""


@dataclass(eq=False)
class Node:
    """A straight-line run of ops; region-holding ops (scf.if, scf.for, ...) end a node and stay in it as markers."""

    index: int
    ops: list[Operation] = field(default_factory=list[Operation])
    succs: list[Edge] = field(default_factory=list[Edge])
    preds: list[Edge] = field(default_factory=list[Edge])
    branch: Branch | None = None
    loops: tuple[Loop, ...] = ()
    """Enclosing loops, outermost first."""
    order: int = -1
    """Position in reverse post-order (-1: unreachable)."""

    def __repr__(self) -> str:
        names = ", ".join(op.name for op in self.ops[:3])
        return f"Node({self.index}: {names}{'...' if len(self.ops) > 3 else ''})"


@dataclass(eq=False)
class Loop:
    header: Node
    nodes: set[Node]
    op: Operation | None
    """The scf.for / scf.while op, None for a loop of blocks."""
    entry_op: Operation | None = None
    """An op right before the loop, executed once per entry (the hoisting point), if there is one."""
    parent: Loop | None = None

    @property
    def trip_count(self) -> int | None:
        """Iterations of an scf.for with constant bounds (None otherwise)."""
        if not hasattr(self, "_trips"):
            self._trips = constant_trip_count(self.op) if isinstance(self.op, scf.ForOp) else None
        return self._trips

    def contains_op(self, cfg: CFG, op: Operation) -> bool:
        node = cfg.node_of.get(op)
        return node is not None and node in self.nodes


class CFG:
    """The control-flow graph of one function: nodes in reverse post-order, loops, post-dominance."""

    def __init__(self, func: Operation):
        self.func = func
        builder = _Builder()
        self.exit = builder.new()
        self.entry, exits = builder.region(func.regions[0])
        for node, _ in exits:
            _connect(node, self.exit)
        self.unsupported = builder.unsupported
        self.loop_ops = builder.loop_ops
        self.nodes = _reverse_post_order(self.entry)
        for order, node in enumerate(self.nodes):
            node.order = order
        self.reaches_exit = self.exit.order >= 0
        self.node_of: dict[Operation, Node] = {op: n for n in self.nodes for op in n.ops}
        self.loops = self._find_loops()
        # Visit order for dataflow: a loop's body before what follows the loop, so a solver
        # finishes a loop before moving on (and a wait hoisted in front of it re-solves little).
        self.nodes = _reverse_post_order(self.entry, loop_aware=True)
        for order, node in enumerate(self.nodes):
            node.order = order
        self._ipdom: dict[Node, Node | None] | None = None
        self._control: dict[Node, set[Node]] | None = None
        self._controlling: dict[Node, frozenset[Node]] = {}

    def release(self) -> None:
        """Unlink the graph (nodes and edges, nodes and loops refer to each other) once no one
        needs it, so that reference counting frees it and no cyclic collection has to."""
        for node in {*self.nodes, *self.node_of.values()}:
            node.succs.clear()
            node.preds.clear()
            node.loops = ()

    # ---- loops -------------------------------------------------------------------------------

    def _find_loops(self) -> list[Loop]:
        idom = _dominators(self.nodes, self.entry, lambda n: (e.source for e in n.preds))
        dominates = _dominance_test(idom, self.entry)
        by_header: dict[Node, list[Edge]] = {}
        for node in self.nodes:
            for edge in node.succs:
                if edge.target.order >= 0 and dominates(edge.target, node):
                    by_header.setdefault(edge.target, []).append(edge)
        loops: list[Loop] = []
        for header, back_edges in by_header.items():
            body = {header}
            stack = [e.source for e in back_edges]
            while stack:
                n = stack.pop()
                if n not in body:
                    body.add(n)
                    stack.extend(e.source for e in n.preds if e.source.order >= 0)
            op = self.loop_ops.get(header)
            loop = Loop(header, body, op, op if op is not None else self._preheader_op(header, body))
            for edge in back_edges:
                edge.back_of = loop
            loops.append(loop)
        loops.sort(key=lambda lp: len(lp.nodes), reverse=True)
        for i, loop in enumerate(loops):
            for outer in reversed(loops[:i]):
                if loop.header in outer.nodes and outer is not loop:
                    loop.parent = outer
                    break
        chains: dict[Node, list[Loop]] = {}
        for loop in loops:  # outermost first
            for node in loop.nodes:
                chains.setdefault(node, []).append(loop)
        for node in self.nodes:
            node.loops = tuple(chains.get(node, ()))
        return loops

    def _preheader_op(self, header: Node, body: set[Node]) -> Operation | None:
        outside = [e.source for e in header.preds if e.source not in body and e.source.order >= 0]
        if len(outside) != 1 or len(outside[0].succs) != 1 or not outside[0].ops:
            return None
        return outside[0].ops[-1]

    def loops_of(self, op: Operation) -> tuple[Loop, ...]:
        node = self.node_of.get(op)
        return node.loops if node is not None else ()

    # ---- post-dominance and control dependence ------------------------------------------------

    def _post_dominators(self) -> dict[Node, Node | None]:
        if self._ipdom is None:
            reachable = [n for n in self.nodes]
            order = _reverse_post_order(self.exit, backwards=True)
            order = [n for n in order if n.order >= 0]
            self._ipdom = _dominators(order, self.exit, lambda n: (e.target for e in n.succs))
            for n in reachable:
                self._ipdom.setdefault(n, None)
        return self._ipdom

    def _control_dependence(self) -> dict[Node, set[Node]]:
        if self._control is None:
            ipdom = self._post_dominators()
            control: dict[Node, set[Node]] = {}
            for a in self.nodes:
                if len({e.target for e in a.succs}) < 2:
                    continue
                stop = ipdom.get(a)
                for edge in a.succs:
                    # Everything on the post-dominator path from the successor up to (not
                    # including) a's post-dominator runs only when this edge is taken; a loop
                    # branch reaches itself this way (it controls its next iteration).
                    runner: Node | None = edge.target
                    while runner is not None and runner is not stop:
                        control.setdefault(runner, set()).add(a)
                        runner = ipdom.get(runner)
            self._control = control
        return self._control

    def controlling_branches(self, node: Node) -> frozenset[Node]:
        """Every branch node whose outcome decides whether `node` runs (transitively)."""
        if node in self._controlling:
            return self._controlling[node]
        control = self._control_dependence()
        seen: set[Node] = set()
        stack = list(control.get(node, ()))
        while stack:
            b = stack.pop()
            if b not in seen:
                seen.add(b)
                stack.extend(control.get(b, ()))
        result = frozenset(seen)
        self._controlling[node] = result
        return result


# ---------------------------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------------------------

Exits = list[tuple[Node, Operation]]


class _Builder:
    def __init__(self):
        self.count = 0
        self.unsupported: list[Operation] = []
        self.loop_ops: dict[Node, Operation] = {}

    def new(self) -> Node:
        node = Node(self.count)
        self.count += 1
        return node

    def region(self, region: Region) -> tuple[Node, Exits]:
        """Entry node of `region` and the nodes that leave it, with the terminator that does."""
        blocks = list(region.blocks)
        if not blocks:
            node = self.new()
            return node, [(node, region.parent_op() or _missing(region))]
        starts = {block: self.new() for block in blocks}
        exits: Exits = []
        for block in blocks:
            end = self.block(block, starts[block])
            term = block.last_op
            if term is not None and term.successors:
                self.branch(end, term, [starts[s] for s in term.successors])
            elif term is not None:
                exits.append((end, term))
        return starts[blocks[0]], exits

    def branch(self, node: Node, term: Operation, targets: list[Node]) -> None:
        # (Only a two-way branch has a condition to read: an operand lookup is slow in xDSL.)
        cond = getattr(term, "cond", None) if len(targets) == 2 else None
        if isinstance(cond, SSAValue):
            node.branch = Branch(term, cond)
            _connect(node, targets[0], True)
            _connect(node, targets[1], False)
            return
        if len(targets) > 1:
            node.branch = Branch(term, None)
        for target in targets:
            _connect(node, target)

    def block(self, block: Block, node: Node) -> Node:
        # (Along the op list by next_op: iterating `block.ops` adds a Python-level call per op.)
        op = block.first_op
        while op is not None:
            node.ops.append(op)
            if not op.regions:
                op = op.next_op
                continue
            if isinstance(op, scf.IfOp):
                node = self.if_op(op, node)
            elif isinstance(op, scf.ForOp):
                node = self.for_op(op, node)
            elif isinstance(op, scf.WhileOp):
                node = self.while_op(op, node)
            elif isinstance(op, (scf.ExecuteRegionOp, scf.IndexSwitchOp)):
                node = self.alternatives(op, node)
            else:
                self.unsupported.append(op)
            op = op.next_op
        return node

    def if_op(self, op: scf.IfOp, node: Node) -> Node:
        node.branch = Branch(op, op.cond)
        join = self.new()
        then_entry, then_exits = self.region(op.true_region)
        _connect(node, then_entry, True)
        if op.false_region.blocks:
            else_entry, else_exits = self.region(op.false_region)
            _connect(node, else_entry, False)
        else:
            else_exits = []
            _connect(node, join, False)
        for end, _ in then_exits + else_exits:
            _connect(end, join)
        return join

    def for_op(self, op: scf.ForOp, node: Node) -> Node:
        trips = constant_trip_count(op)
        node.branch = Branch(op, None)
        after = self.new()
        body, exits = self.region(op.body)
        self.loop_ops[body] = op
        if trips != 0:
            _connect(node, body)
        if trips is None or trips == 0:
            _connect(node, after)
        for end, _ in exits:
            end.branch = Branch(op, None)
            if trips is None or trips >= 2:
                _connect(end, body)
            _connect(end, after)
        return after

    def while_op(self, op: scf.WhileOp, node: Node) -> Node:
        after = self.new()
        before, before_exits = self.region(op.before_region)
        body, body_exits = self.region(op.after_region)
        self.loop_ops[before] = op
        _connect(node, before)
        for end, term in before_exits:
            cond = getattr(term, "condition", None)
            end.branch = Branch(term, cond if isinstance(cond, SSAValue) else None)
            _connect(end, body, True if end.branch.condition is not None else None)
            _connect(end, after, False if end.branch.condition is not None else None)
        for end, _ in body_exits:
            _connect(end, before)
        return after

    def alternatives(self, op: Operation, node: Node) -> Node:
        if len(op.regions) > 1:
            node.branch = Branch(op, None)
        join = self.new()
        for region in op.regions:
            entry, exits = self.region(region)
            _connect(node, entry)
            for end, _ in exits:
                _connect(end, join)
        return join


def _missing(region: Region) -> Operation:
    raise ValueError(f"region without a parent op: {region}")


def constant_trip_count(op: scf.ForOp) -> int | None:
    """Iterations of an scf.for whose bounds and step are constants (None when they are not)."""
    bounds = [_constant(v) for v in (op.lb, op.ub, op.step)]
    if any(b is None for b in bounds):
        return None
    lb, ub, step = bounds
    assert lb is not None and ub is not None and step is not None
    if step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def _constant(value: SSAValue) -> int | None:
    from xdsl.dialects.builtin import IntegerAttr

    owner = value.owner
    attr = getattr(owner, "value", None)
    if isinstance(owner, Operation) and owner.name in ("arith.constant", "llvm.mlir.constant"):
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def _connect(source: Node, target: Node, sense: bool | None = None) -> None:
    edge = Edge(source, target, sense)
    source.succs.append(edge)
    target.preds.append(edge)


def _reverse_post_order(start: Node, backwards: bool = False, loop_aware: bool = False) -> list[Node]:
    def nexts(n: Node) -> list[Node]:
        if backwards:
            return [e.source for e in n.preds]
        targets = [e.target for e in n.succs]
        if not loop_aware or len(targets) < 2:
            return targets
        # The successor explored last comes first in the order: explore those that leave
        # more of n's loops first, and keep the written order among the rest.
        return sorted(reversed(targets), key=lambda t: _shared_loops(n, t))

    return reverse_post_order(start, nexts)


def _dominators(
    order: list[Node], start: Node, preds: Callable[[Node], Iterator[Node] | object]
) -> dict[Node, Node | None]:
    """Immediate dominators (Cooper, Harvey, Kennedy) over `order`, a reverse post-order from `start`."""
    position = {n: i for i, n in enumerate(order)}
    idom: dict[Node, Node | None] = {start: start}

    def intersect(a: Node, b: Node) -> Node:
        while a is not b:
            while position[a] > position[b]:
                a = idom[a]  # type: ignore[assignment]
            while position[b] > position[a]:
                b = idom[b]  # type: ignore[assignment]
        return a

    changed = True
    while changed:
        changed = False
        for node in order[1:]:
            new: Node | None = None
            for p in preds(node):  # type: ignore[union-attr]
                if p in position and p in idom:
                    new = p if new is None else intersect(p, new)
            if new is not None and idom.get(node) is not new:
                idom[node] = new
                changed = True
    idom[start] = None
    return idom


def _shared_loops(a: Node, b: Node) -> int:
    """How many loops contain both nodes (loop chains are nested, outermost first)."""
    count = 0
    for la, lb in zip(a.loops, b.loops):
        if la is not lb:
            break
        count += 1
    return count


def _dominance_test(idom: dict[Node, Node | None], root: Node) -> Callable[[Node, Node], bool]:
    """`dominates(a, b)` in O(1): a encloses b in the dominator tree's DFS intervals."""
    children: dict[Node, list[Node]] = {}
    for node, parent in idom.items():
        if parent is not None:
            children.setdefault(parent, []).append(node)
    enter: dict[Node, int] = {}
    leave: dict[Node, int] = {}
    clock = 0
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            leave[node] = clock
            clock += 1
            continue
        enter[node] = clock
        clock += 1
        stack.append((node, True))
        stack.extend((c, False) for c in children.get(node, ()))

    def dominates(a: Node, b: Node) -> bool:
        return a in enter and b in enter and enter[a] <= enter[b] and leave[b] <= leave[a]

    return dominates


# ---------------------------------------------------------------------------------------------
# Forward dataflow
# ---------------------------------------------------------------------------------------------

S = TypeVar("S")


class ForwardSolver(Generic[S]):
    """Worklist solver in reverse post-order. In-states are recomputed from the predecessors'
    edge states, so a transfer that later removes facts (an inserted wait) propagates."""

    def __init__(
        self,
        cfg: CFG,
        initial: S,
        transfer: Callable[[Node, S], S],
        edge_transfer: Callable[[Edge, S], S | None],
        join: Callable[[S, S], S],
    ):
        self.cfg = cfg
        self.initial = initial
        self.transfer = transfer
        self.edge_transfer = edge_transfer
        self.join = join
        self.edge_state: dict[Edge, S] = {}
        self.in_state: dict[Node, S] = {}
        self._heap: list[int] = []
        self._queued: set[int] = set()
        self._current: Node | None = None
        self._abandon = False

    def requeue(self, node: Node, force: bool = False) -> None:
        """Visit `node` again; `force` re-runs its transfer even if its in-state is unchanged
        (the transfer itself changed, e.g. a wait was placed in the node)."""
        if force:
            self.in_state.pop(node, None)
        if node.order >= 0 and node.order not in self._queued:
            self._queued.add(node.order)
            heapq.heappush(self._heap, node.order)

    def incoming(self, node: Node) -> S | None:
        if node is self.cfg.entry:
            state: S | None = self.initial
        else:
            state = None
        for edge in node.preds:
            s = self.edge_state.get(edge)
            if s is not None:
                state = s if state is None else self.join(state, s)
        return state

    def restart_from(self, start: Node) -> set[Node]:
        """Forget the states downstream of `start`: they may hold facts its changed transfer no
        longer produces, and such facts would keep circulating around loops. Only nodes already
        visited can hold them, so the walk stops at unvisited ones."""
        seen: set[Node] = set()
        stack = [start]
        while stack:
            node = stack.pop()
            if node in seen or node.order < 0:
                continue
            seen.add(node)
            for edge in node.succs:
                if self.edge_state.pop(edge, None) is not None or edge.target in self.in_state:
                    stack.append(edge.target)
        for node in seen:
            self.requeue(node, force=True)
        if self._current in seen:
            self._abandon = True
        return seen

    def run(self) -> None:
        self.requeue(self.cfg.entry, force=True)
        nodes = self.cfg.nodes
        while self._heap:
            order = heapq.heappop(self._heap)
            self._queued.discard(order)
            node = nodes[order]
            state = self.incoming(node)
            if state is None:
                continue
            if node in self.in_state and self.in_state[node] == state:
                continue
            self.in_state[node] = state
            self._current, self._abandon = node, False
            out = self.transfer(node, state)
            self._current = None
            if self._abandon:
                continue  # its transfer changed while it ran; it is queued again
            for edge in node.succs:
                new = self.edge_transfer(edge, out)
                old = self.edge_state.get(edge)
                if new is None:
                    if old is not None:
                        del self.edge_state[edge]
                        self.requeue(edge.target)
                    continue
                if old is None or old != new:
                    self.edge_state[edge] = new
                    self.requeue(edge.target)
