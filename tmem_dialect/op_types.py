"""Scans over IR ops for the whole-program passes: isinstance memoized per class, a pre-order walk, and a walk's ops grouped by class."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation

_IS_A: dict[tuple[type, object], bool] = {}


def is_a(obj: object, classes: type | tuple[type, ...]) -> bool:
    """isinstance(obj, classes), for the scans over every op of a module (a dict lookup once
    the class of `obj` has been seen: an ABC's check costs several times more)."""
    key = (type(obj), classes)
    found = _IS_A.get(key)
    if found is None:
        found = _IS_A[key] = isinstance(obj, classes)
    return found


def walk_ops(root: Operation) -> list[Operation]:
    """`list(root.walk())`: `root` and every op nested in it, in pre-order (each op before the ops
    of its regions, regions, blocks and ops in order). xDSL's walk nests three generators per
    op; this reads the block's op list directly (a quarter of the cost on a 1,800-op kernel).
    tests/test_op_types.py pins the equality."""
    found: list[Operation] = []
    _visit(root, found.append)
    return found


def _visit(op: Operation, append: Callable[[Operation], None]) -> None:
    # (a module-level function, not a closure: a recursive closure is a reference cycle, left
    # for the cyclic collector on every walk)
    append(op)
    for region in op.regions:
        for block in region.blocks:
            inner = block.first_op
            while inner is not None:
                if inner.regions:
                    _visit(inner, append)
                else:
                    append(inner)
                inner = inner.next_op


class OpIndex:
    """The ops of a walk grouped by class, in one pass: a scan for a few kinds of op (globals,
    calls, loops, ops with a TMEM effect) then visits only theirs, not every op of the kernel."""

    __slots__ = ("_positions", "ops")

    def __init__(self, ops: list[Operation]):
        self.ops = ops
        """The walk, in order."""
        positions: dict[type[Operation], list[int]] = {}
        for i, op in enumerate(ops):
            found = positions.get(type(op))
            if found is None:
                positions[type(op)] = [i]
            else:
                found.append(i)
        self._positions = positions

    def of(self, classes: type | tuple[type, ...]) -> list[Operation]:
        """The ops that are instances of `classes`, in walk order."""
        return self.where(lambda op_type: issubclass(op_type, classes))

    def named(self, test: Callable[[str], bool]) -> list[Operation]:
        """The ops whose name passes `test`, in walk order. (An xDSL op's name is its class's:
        `Operation.name` is a ClassVar, and an unregistered op gets a class per name.)"""
        return self.where(lambda op_type: test(op_type.name))

    def where(self, test: Callable[[type[Operation]], bool]) -> list[Operation]:
        """The ops whose class passes `test`, in walk order."""
        runs = [positions for op_type, positions in self._positions.items() if test(op_type)]
        if not runs:
            return []
        ops = self.ops
        if len(runs) == 1:
            return [ops[i] for i in runs[0]]
        return [ops[i] for i in sorted(i for run in runs for i in run)]
