"""mbarrier rings of the common form: stage `t % N` and phase parity `(t / N) & 1` of a loop counter, or a carried register of that closed form, as the handoff rules match them.

A ring of N stages guards N buffers with two mbarrier arrays, `full[N]` and `empty[N]`. In
iteration t of its loop the producer waits on `empty[t % N]` with parity `((t / N) & 1) ^ 1`,
fills stage t % N and releases `full[t % N]`; the consumer, in iteration t of a loop with the
same bounds, waits on `full[t % N]` with parity `(t / N) & 1`, uses the stage and releases
`empty[t % N]` (CUTLASS's PipelineAsync, Triton's warp-specialized loops, flashinfer). The
release in iteration t is the (t / N)-th to its stage, so it completes phase t / N.

Here the three forms are recognized on the IR (through integer casts), each tied to its loop by
the loop's bounds: two loops with equal constant bounds (or the same bound values) count the same
t. The mbarrier rules then match a ring release with a ring wait: equal parities pair iteration t
with iteration t of the other loop, parities that differ by the `^ 1` pair iteration t with
t - N (the producer's wait on `empty` observes the consumer's release of N iterations before).
A counter may also answer with a `Carried` sequence (carried.py): a stage or phase kept in a
loop register (Triton's `phase ^= 1`, CUTLASS's PipelineState) is matched by its closed form.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import scf
from xdsl.ir import BlockArgument, Operation, SSAValue

from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.passes.carried import Carried
from tmem_dialect.passes.int_eval import BINARY_BY_NAME, CASTS

LoopKey = tuple[object, object, object]
"""A loop counter: (lower bound, step, upper bound), each a constant or the SSA value; or
("blocks", first, last) for a loop of blocks (NVVM level) with constant bounds."""

Counter = Callable[[SSAValue], "LoopKey | Carried | None"]
"""Which loop counter a value is (through casts): the analysis knows loops of blocks too, and
the values loops carry (a Carried: a function of the counter)."""


def strip(value: SSAValue) -> SSAValue:
    while isinstance(owner := value.owner, Operation) and owner.name in CASTS and len(owner.operands) == 1:
        value = owner.operands[0]
    return value


def _constant(value: SSAValue) -> int | None:
    return constant_int(strip(value))


def _bound(value: SSAValue) -> object:
    found = _constant(value)
    return found if found is not None else strip(value)


def loop_key(loop: Operation | None) -> LoopKey | None:
    """The counter of an scf.for with step 1: its bounds."""
    if not isinstance(loop, scf.ForOp) or _constant(loop.step) != 1:
        return None
    return (_bound(loop.lb), 1, _bound(loop.ub))


def scf_counter(value: SSAValue) -> LoopKey | None:
    """The key of the scf.for whose induction variable `value` is (through casts)."""
    value = strip(value)
    if not isinstance(value, BlockArgument) or value.index != 0:
        return None
    return loop_key(value.block.parent_op())


def _binary(value: SSAValue, kind: str) -> tuple[SSAValue, int] | None:
    """`value` = x <kind> constant: (x, constant)."""
    owner = strip(value).owner
    if not isinstance(owner, Operation) or BINARY_BY_NAME.get(owner.name) != kind or len(owner.operands) != 2:
        return None
    c = _constant(owner.operands[1])
    return (owner.operands[0], c) if c is not None else None


def ring_stage(value: SSAValue, counter: Counter = scf_counter) -> tuple[LoopKey, int] | None:
    """`t % N` (or `t & (N - 1)`, N a power of 2) of a loop counter t, or a carried value that
    is t % N in every iteration: (loop key, N)."""
    carried = counter(strip(value))
    if isinstance(carried, Carried):
        n = carried.stage()
        return (carried.key, n) if n is not None else None
    for kind in ("remu", "rems", "and"):
        found = _binary(value, kind)
        if found is None:
            continue
        x, c = found
        n = c + 1 if kind == "and" else c
        if n < 1 or (kind == "and" and n & (n - 1)):
            continue
        key = counter(x)
        if key is not None and not isinstance(key, Carried):
            return key, n
    return None


def ring_parity(value: SSAValue, counter: Counter = scf_counter) -> tuple[LoopKey, int, int] | None:
    """`(t / N) & 1`, optionally `^ 1`, of a loop counter t, or of a carried value of that
    closed form (optionally `^ 1`): (loop key, N, flip)."""
    flip = 0
    if (found := _binary(value, "xor")) is not None and found[1] == 1:
        value, flip = found[0], 1
    carried = counter(strip(value))
    if isinstance(carried, Carried):
        parity = carried.parity()
        return (carried.key, parity[0], parity[1] ^ flip) if parity is not None else None
    found = _binary(value, "and")
    if found is None or found[1] != 1:
        return None
    inner = found[0]
    for kind in ("divu", "divs", "shru"):
        div = _binary(inner, kind)
        if div is None:
            continue
        x, c = div
        n = 1 << c if kind == "shru" else c
        key = counter(x)
        if key is not None and not isinstance(key, Carried) and n >= 1:
            return key, n, flip
    key = counter(inner)  # N == 1: the parity of t itself
    return (key, 1, flip) if key is not None and not isinstance(key, Carried) else None


def is_ring(key: object) -> bool:
    """An mbarrier key of the form (array, ("ring", loop, N)): the stage t % N of a ring."""
    return isinstance(key, tuple) and isinstance(key[1], tuple) and key[1][0] == "ring"
