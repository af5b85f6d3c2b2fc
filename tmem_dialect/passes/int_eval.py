"""Integer ops on concrete per-thread values and on ranges, as the analysis evaluates them; how a branch splits the warps."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Operation, SSAValue

from tmem_dialect import integers
from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.passes.forms import Const

BINARY = {
    "add": ("arith.addi", "llvm.add"),
    "sub": ("arith.subi", "llvm.sub"),
    "mul": ("arith.muli", "llvm.mul"),
    "shl": ("arith.shli", "llvm.shl"),
    "shru": ("arith.shrui", "llvm.lshr"),
    "shrs": ("arith.shrsi", "llvm.ashr"),
    "divu": ("arith.divui", "llvm.udiv"),
    "divs": ("arith.divsi", "llvm.sdiv"),
    "remu": ("arith.remui", "llvm.urem"),
    "rems": ("arith.remsi", "llvm.srem"),
    "and": ("arith.andi", "llvm.and"),
    "or": ("arith.ori", "llvm.or"),
    "xor": ("arith.xori", "llvm.xor"),
    "minu": ("arith.minui",),
    "maxu": ("arith.maxui",),
    "mins": ("arith.minsi",),
    "maxs": ("arith.maxsi",),
}
BINARY_BY_NAME = {name: kind for kind, names in BINARY.items() for name in names}
CASTS = frozenset(
    {
        "arith.index_cast",
        "arith.index_castui",
        "arith.extui",
        "arith.extsi",
        "arith.trunci",
        "arith.bitcast",
        "llvm.zext",
        "llvm.sext",
        "llvm.trunc",
        "llvm.bitcast",
        "llvm.inttoptr",
        "llvm.ptrtoint",
    }
)
COMPARISONS = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def bitwidth(t: Attribute) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, llvm.LLVMPointerType):
        return 64
    return None


def apply_binary(kind: str, a: Const, b: Const, width: int) -> Const | None:
    """An integer binary op on concrete (int or per-thread vector) operands; None if undefined."""
    def unsigned(x: Const) -> Const:
        return integers.as_unsigned(x, width) if width < 64 else x

    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    if kind == "mul":
        return a * b
    if kind == "shl":
        return a << b if np.all(np.asarray(b) >= 0) else None
    if kind in ("shru", "shrs"):
        if not np.all(np.asarray(b) >= 0):
            return None
        return (unsigned(a) if kind == "shru" else a) >> b
    if kind in ("divu", "divs", "remu", "rems"):
        if np.any(np.asarray(b) == 0):
            return None
        if kind in ("divu", "remu"):
            a, b = unsigned(a), unsigned(b)
        elif np.any(np.asarray(a) < 0) or np.any(np.asarray(b) < 0):
            return None  # C-style truncating division; not worth modelling for negatives
        return a // b if kind.startswith("div") else a % b
    if kind == "and":
        return a & b
    if kind == "or":
        return a | b
    if kind == "xor":
        return a ^ b
    if kind in ("minu", "mins"):
        return np.minimum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else min(a, b)
    if kind in ("maxu", "maxs"):
        return np.maximum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else max(a, b)
    return None


def compare(pred: str, a: Const, b: Const, width: int) -> Const:
    if pred.startswith("u") and width < 64:
        a, b = integers.as_unsigned(a, width), integers.as_unsigned(b, width)
    result = {
        "eq": lambda: a == b,
        "ne": lambda: a != b,
        "slt": lambda: a < b,
        "sle": lambda: a <= b,
        "sgt": lambda: a > b,
        "sge": lambda: a >= b,
        "ult": lambda: a < b,
        "ule": lambda: a <= b,
        "ugt": lambda: a > b,
        "uge": lambda: a >= b,
    }[pred]()
    return result.astype(np.int64) if isinstance(result, np.ndarray) else int(bool(result))


def interval(kind: str, a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
    """Range of `a kind b` from the operands' ranges (None: unknown)."""
    if kind == "and":
        for r in (a, b):
            if r is not None and r[0] >= 0:
                other = b if r is a else a
                hi = r[1] if other is None or other[0] < 0 else min(r[1], other[1])
                return 0, hi
        return None
    if a is None or b is None:
        return None
    (al, ah), (bl, bh) = a, b
    if kind == "add":
        return al + bl, ah + bh
    if kind == "sub":
        return al - bh, ah - bl
    if kind == "mul":
        products = [al * bl, al * bh, ah * bl, ah * bh]
        return min(products), max(products)
    if kind == "shl" and bl >= 0:
        return interval("mul", a, (1 << bl, 1 << bh))
    if kind in ("shru", "shrs") and al >= 0 and bl >= 0:
        return al >> bh, ah >> bl
    if kind in ("divu", "divs") and al >= 0 and bl > 0:
        return al // bh, ah // bl
    if kind in ("remu", "rems") and bl > 0 and al >= 0:
        return 0, min(ah, bh - 1)
    if kind in ("minu", "mins"):
        return min(al, bl), min(ah, bh)
    if kind in ("maxu", "maxs"):
        return max(al, bl), max(ah, bh)
    if kind == "or" and al >= 0 and bl >= 0:
        return max(al, bl), (1 << max(ah, bh).bit_length()) - 1
    return None


@dataclass(frozen=True)
class Split:
    """How the warps evaluate a branch condition, as warp bitmasks.

    `may_true` / `may_false`: warps in which some thread may see true / false; `torn`: warps
    in which some thread surely sees true and another surely false; `exact`: every thread's
    value is known.
    """

    may_true: int
    may_false: int
    torn: int
    exact: bool


TRUTH_AND = ("arith.andi", "llvm.and")
TRUTH_OR = ("arith.ori", "llvm.or")
TRUTH_XOR = ("arith.xori", "llvm.xor")


def folded_constant(value: SSAValue, depth: int = 0) -> int | None:
    """The integer a value is, when it is a constant or integer arithmetic of constants
    (compilers leave `mul 0, 1` stage indices unfolded), with the integer semantics above."""
    found = constant_int(value)
    owner = value.owner
    if found is not None or depth > 16 or not isinstance(owner, Operation):
        return found
    if owner.name in CASTS and len(owner.operands) == 1:
        return folded_constant(owner.operands[0], depth + 1)
    kind = BINARY_BY_NAME.get(owner.name)
    width = bitwidth(value.type)
    if kind is None or width is None or len(owner.operands) != 2:
        return None
    a, b = (folded_constant(v, depth + 1) for v in owner.operands)
    if a is None or b is None:
        return None
    result = apply_binary(kind, a, b, width)
    return int(result) if result is not None else None
