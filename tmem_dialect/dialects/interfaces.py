"""The TMEM effect interface: one hazard model for tcgen05 and nvvm.tcgen05 ops alike.

Every op that touches Tensor Memory or orders it (alloc, dealloc, relinquish, ld, st, wait,
fence, barrier) describes itself as a `TMEMEffect`. The verifier, the wait-insertion pass and
the interpreter reason about effects, never about a particular dialect's op classes.
Ops of other dialects (gpu.barrier) get an external model via `register_external_effect`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.memory_model import EffectKind


@dataclass(frozen=True)
class TMEMEffect:
    """What one op does to TMEM, in dialect-independent terms.

    - `address`: the TMEM address operand (ld, st, dealloc) or the shared slot (alloc).
    - `ncols`: static column count (alloc/dealloc) when known, else None.
    - `ncols_value`: the SSA value holding nCols when it is dynamic.
    - `registers`: the ld result or the st source value.
    """

    kind: EffectKind
    address: SSAValue | None = None
    cta_group: int | None = None
    ncols: int | None = None
    ncols_value: SSAValue | None = None
    shape: isa.Shape | None = None
    num: int | None = None
    packed: bool = False
    offset: int | None = None
    registers: SSAValue | None = None
    # tcgen05.mma / cp / shift / commit and the mbarrier ops:
    tmem_reads: tuple[SSAValue, ...] = ()
    """Further TMEM addresses read: A in TMEM, scale factors, sparsity metadata."""
    extent: tuple[int, int] | None = None
    """(lanes, columns) written from `address`, when the op's constant fields fix it."""
    accumulate: SSAValue | None = None
    """mma's enable-input-d predicate (false: D is overwritten, true: accumulated into)."""
    mbarrier: SSAValue | None = None
    """The mbarrier an mbarrier op or tcgen05.commit acts on."""
    count: SSAValue | None = None
    """The arrival count (init, arrive) or transaction count (expect_tx, complete_tx)."""
    phase: SSAValue | None = None
    """The parity (i32) or state token (i64) a try_wait/test_wait observes."""
    multicast: SSAValue | None = None
    """commit's 16-bit CTA mask."""

    @property
    def footprint(self) -> isa.Footprint | None:
        if self.shape is None or self.num is None:
            return None
        return isa.footprint(self.shape, self.num, self.packed, self.offset)


class TMEMEffectOp(ABC):
    """Mixin for ops that have a TMEM effect."""

    @abstractmethod
    def tmem_effect(self) -> TMEMEffect: ...


_EXTERNAL: dict[type[Operation], Callable[[Operation], TMEMEffect]] = {}


def register_external_effect(
    op_type: type[Operation], model: Callable[[Operation], TMEMEffect]
) -> None:
    """Attach a TMEM effect to an op class we do not own (an MLIR external model)."""
    _EXTERNAL[op_type] = model
    _MODEL_OF.clear()


def has_tmem_effect(op_type: type[Operation]) -> bool:
    """Whether ops of this class describe a TMEM effect (natively or through an external model)."""
    return issubclass(op_type, TMEMEffectOp) or op_type in _EXTERNAL


# Per op class: how its effect is computed, or None (an ABC's isinstance, asked of every op of
# every scan, costs several times this lookup).
_MODEL_OF: dict[type[Operation], Callable[[Operation], TMEMEffect] | None] = {}


def tmem_effect(op: Operation) -> TMEMEffect | None:
    """The TMEM effect of `op`, or None when it has none."""
    op_type = type(op)
    try:
        model = _MODEL_OF[op_type]
    except KeyError:
        model = _MODEL_OF[op_type] = (op_type.tmem_effect if issubclass(op_type, TMEMEffectOp)  # type: ignore[assignment]
                                      else _EXTERNAL.get(op_type))
    return model(op) if model is not None else None
