"""How the analysis' diagnostics name warps, values, mbarriers and ops: the fragments the messages_* modules share."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import BlockArgument, SSAValue

from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.forms import Form


def few_warps(mask: int) -> str:
    """The warps of `mask`, as "1, 3"."""
    return ", ".join(str(w) for w in range(mask.bit_length()) if mask >> w & 1)


def plural(mask: int) -> bool:
    """More than one warp in `mask`."""
    return bool(mask & (mask - 1))


def name_unknown(*forms: Form | None) -> str:
    """Names the value a 'cannot prove' warning could not see through: the first symbol of
    `forms`, as a clause to end the message with ("" when there is none to name)."""
    for form in forms:
        for sym, _ in form.terms if form is not None else ():
            value = sym.value
            if value is None:
                continue
            if value.name_hint:
                return f" (it depends on %{value.name_hint})"
            if isinstance(value, BlockArgument):
                return f" (it depends on argument #{value.index} of a block)"
            return f" (it depends on the result of {value.owner.name})"  # type: ignore[union-attr]
    return ""


def carried_name(value: SSAValue) -> str:
    """How a diagnostic names a carried value: its name, or its place among the loop's values."""
    if value.name_hint:
        return f"%{value.name_hint}"
    if isinstance(value, BlockArgument):
        if isinstance(value.block.parent_op(), scf.ForOp):
            return f"iter_arg #{value.index - 1} of the scf.for"
        return f"argument #{value.index} of the loop header"
    return "a value"


def value_name(value: SSAValue | None) -> str:
    """A value by its name hint, or "(a value)"."""
    hint = getattr(value, "name_hint", None)
    return f"%{hint}" if hint else "(a value)"


def barrier_name(key: object) -> str:
    """An mbarrier (array) by the base of its key, quoted."""
    base = key[0] if isinstance(key, tuple) else key
    return f"'{base}'"


def access_verb(kind: EffectKind | None) -> str:
    """What an access does to the TMEM cells it touches ("reads", "overwrites", ...)."""
    return {
        EffectKind.LD: "reads",
        EffectKind.ST: "overwrites",
        EffectKind.MMA: "accesses",
        EffectKind.CP: "overwrites",
        EffectKind.DEALLOC: "frees",
    }.get(kind, "touches")  # type: ignore[arg-type]


def the_op(name: str) -> str:
    """Note at an op named by its kind: "the tcgen05.ld"."""
    return f"the {name}"


def the_op_of_warp(name: str, warp: int) -> str:
    return f"the {name} of warp {warp}"


FRAGMENTS = (few_warps, plural, name_unknown, carried_name, value_name, barrier_name, access_verb, the_op,
             the_op_of_warp)
