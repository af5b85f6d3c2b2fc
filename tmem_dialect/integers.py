"""Integer semantics of MLIR's signless integers: wrap-around, signed and unsigned readings, i1 truth."""

from __future__ import annotations

import numpy as np

IntLike = int | np.ndarray


def mask(width: int) -> int:
    """All ones in the low `width` bits."""
    return (1 << width) - 1


def wrap(value: IntLike, width: int) -> IntLike:
    """`value` modulo 2**width: the bit pattern a `width`-bit integer holds (read as unsigned)."""
    return value & mask(width)


def as_unsigned(value: IntLike, width: int) -> IntLike:
    """The unsigned reading of a `width`-bit pattern (the same as wrap)."""
    return wrap(value, width)


def as_signed(value: IntLike, width: int) -> IntLike:
    """The two's-complement reading of a `width`-bit pattern. An i1 reads as 0 or 1: it is a
    truth value, not the one-bit number -1 (xDSL keeps `true : i1` as -1)."""
    bits = wrap(value, width)
    if width == 1:
        return bits
    sign = 1 << (width - 1)
    return (bits ^ sign) - sign


def truth(value: IntLike) -> IntLike:
    """The truth value of an i1 (its low bit), whatever the integer it is stored as."""
    if isinstance(value, np.ndarray):
        return value.astype(bool) if value.dtype == np.bool_ else (value & 1).astype(bool)
    return bool(value & 1)


def constant_value(value: int, width: int) -> int:
    """The value an integer attribute of a `width`-bit type denotes, as a signless integer reads
    it everywhere in this package: two's complement, an i1 as 0 or 1."""
    return as_signed(value, width)


def funnel_shift(high: IntLike, low: IntLike, amount: IntLike, width: int, right: bool) -> IntLike:
    """LLVM's llvm.fshl / llvm.fshr (LangRef): the 2*width-bit concatenation high:low shifted by
    `amount` modulo `width`; fshl gives the high `width` bits of the result, fshr the low ones."""
    if isinstance(high, np.ndarray):  # per-lane: exact in Python integers (width may be 64)
        high, low, amount = (np.asarray(v).astype(object) for v in (high, low, amount))
    shift = wrap(amount, width) % width
    joined = (wrap(high, width) << width) | wrap(low, width)
    if right:
        return wrap(joined >> shift, width)
    return wrap((joined << shift) >> width, width)
