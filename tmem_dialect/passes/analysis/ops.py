"""What the analysis knows about each op, its options, and the waits and fences it may place."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.diagnostics import Diagnostic
from tmem_dialect.dialects.interfaces import TMEMEffect
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind, Rule, Wait
from tmem_dialect.passes.cells import Anchor, Box, Rect
from tmem_dialect.passes.forms import Form, Sym


@dataclass(frozen=True)
class Options:
    ptx_version: tuple[int, int] = isa.DEFAULT_PTX_VERSION
    conservative: bool = False
    """Also require wait::ld before an ld's registers are used (the seed's stricter rule)."""
    insert: bool = False
    """Place every required wait/fence where it is cheapest (tmem-insert-waits); otherwise a
    definite violation is assumed fixed right where it is found, so it is reported once."""


class Action(Enum):
    WAIT_LD = "wait::ld"
    WAIT_ST = "wait::st"
    FENCE_BEFORE = "fence::before_thread_sync"
    FENCE_AFTER = "fence::after_thread_sync"

    @staticmethod
    def wait(w: Wait) -> Action:
        return Action.WAIT_LD if w is Wait.LD else Action.WAIT_ST

    @property
    def retires(self) -> EffectKind | None:
        # (By identity: a dict of Actions would hash them, a Python-level call for an Enum.)
        if self is Action.WAIT_LD:
            return EffectKind.LD
        return EffectKind.ST if self is Action.WAIT_ST else None


# Order of new ops at one point: waits, then fence::before, (the op), then fence::after.
ACTION_ORDER = {Action.WAIT_LD: 0, Action.WAIT_ST: 1, Action.FENCE_BEFORE: 2, Action.FENCE_AFTER: 3}


@dataclass(frozen=True)
class Fix:
    """A wait or fence to place before `anchor` (fence::after: after it), serving `rules`."""

    anchor: Operation
    action: Action
    rules: tuple[Rule, ...]


class Category(Enum):
    EFFECT = "effect"
    SLOT_READ = "slot read"
    REGISTER_USE = "register use"
    ANCHOR = "anchor"
    """An op without TMEM effect where a hoisted wait may be placed (before a loop)."""


class OpInfo:
    """What the analysis needs to know about one op, computed once."""

    __slots__ = (
        "op", "index", "category", "effect", "kind", "anchor", "rest", "rects", "slot",
        "lds_used", "terms", "box", "ncols", "ncols_form", "step_traits",
    )

    def __init__(self, op: Operation, index: int, category: Category):
        self.op = op
        self.index = index
        self.category = category
        self.effect: TMEMEffect | None = None
        self.kind: EffectKind | None = None
        self.anchor: Anchor | None = None
        self.rest: Form | None = None
        self.rects: tuple[Rect, ...] | None = None
        self.slot: object | None = None
        self.lds_used: tuple[Operation, ...] = ()
        self.terms: dict[Sym, int] = {}
        """Every symbol of the address (anchor and rest) with its coefficient."""
        self.box: Box | None = None
        """Cells any warp may touch, relative to the anchor (a quick disjointness test)."""
        self.ncols: int | None = None
        """alloc/dealloc: the column count when it is a constant (also a computed one)."""
        self.ncols_form: Form | None = None
        """alloc/dealloc: the column count as a value (two equal forms are the same count)."""
        self.step_traits: tuple[EffectKind | None, bool, bool, bool, bool] | None = None
        """What the transfer asks of `kind` at every step, once (KernelAnalysis._step)."""

    def __repr__(self) -> str:
        return f"OpInfo({self.op.name}#{self.index})"


def name_of(info: OpInfo) -> str:
    return info.op.name


def first(a: OpInfo | None, b: OpInfo | None) -> OpInfo | None:
    if a is None:
        return b
    if b is None:
        return a
    return a if a.index <= b.index else b


def smaller_alloc(a: OpInfo | None, b: OpInfo | None) -> OpInfo | None:
    if a is None or b is None:
        return a or b
    na, nb = least_ncols(a), least_ncols(b)
    if na != nb:
        return a if na < nb else b
    return first(a, b)


def ncols_or_max(info: OpInfo) -> int:
    """The column count; an unknown count is taken as the largest (a dealloc's best match)."""
    return info.ncols or isa.TMEM_COLUMNS


def least_ncols(info: OpInfo) -> int:
    """The smallest column count `info` may have (an unknown count may be the least legal)."""
    return info.ncols if info.ncols is not None else isa.NCOLS_MIN


def same_ncols(a: OpInfo, b: OpInfo) -> bool:
    if a.ncols is not None and b.ncols is not None:
        return a.ncols == b.ncols
    return a.ncols_form is not None and b.ncols_form is not None and a.ncols_form.same_as(b.ncols_form)


def other_warp(issuers: int, executing: int) -> bool:
    """Some warp in `executing` differs from some warp in `issuers`."""
    return bool(issuers and executing) and not (issuers == executing and issuers & (issuers - 1) == 0)


@dataclass
class Findings:
    """What one analysis found: each diagnostic with its kind (once per key), and the fixes."""

    diagnostics: list[Diagnostic] = field(default_factory=list[Diagnostic])
    kinds: list[FindingKind] = field(default_factory=list[FindingKind])
    fixes: list[Fix] = field(default_factory=list[Fix])
    _seen: set[tuple[object, ...]] = field(default_factory=set[tuple[object, ...]])

    def add(self, kind: FindingKind, key: tuple[object, ...], diagnostic: Diagnostic) -> None:
        if key not in self._seen:
            self._seen.add(key)
            self.diagnostics.append(diagnostic)
            self.kinds.append(kind)

    def items(self) -> list[tuple[FindingKind, Diagnostic]]:
        return list(zip(self.kinds, self.diagnostics))


def reads_register(value: SSAValue, register_op: str, limit: int = 256) -> Operation | None:
    """The read of a special register (by op name) that `value` is computed from, if any."""
    work, seen = [value], set()
    while work and len(seen) < limit:
        owner = work.pop().owner
        if not isinstance(owner, Operation) or owner in seen:
            continue
        seen.add(owner)
        if owner.name == register_op:
            return owner
        work.extend(owner.operands)
    return None
