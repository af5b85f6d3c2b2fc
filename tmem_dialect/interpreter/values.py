"""Per-warp values: every SSA value of a warp is one numpy array with a leading axis of 32 lanes.

A scalar `i32` is an int32 array of shape (32,); a `vector<8xf16>` is a float16 array of shape
(32, 8). Integers are stored in the signed numpy type of their width (i1 as bool) and reinterpreted
as unsigned where an op says so; pointers are int64 addresses. Values are never mutated in place,
so constants can be shared read-only arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute

from tmem_dialect import isa
from tmem_dialect.integers import truth, wrap

WARP = isa.WARP_SIZE


@dataclass(frozen=True)
class TMEMBufferValue:
    """A tcgen05.decl_buffer value: the per-lane base TMEM address of a laid-out tile."""

    taddr: np.ndarray

_INT_DTYPES = {1: np.dtype(np.bool_), 8: np.dtype(np.int8), 16: np.dtype(np.int16),
               32: np.dtype(np.int32), 64: np.dtype(np.int64)}
_UNSIGNED = {np.dtype(np.int8): np.dtype(np.uint8), np.dtype(np.int16): np.dtype(np.uint16),
             np.dtype(np.int32): np.dtype(np.uint32), np.dtype(np.int64): np.dtype(np.uint64),
             np.dtype(np.bool_): np.dtype(np.bool_)}
POINTER_DTYPE = np.dtype(np.int64)
INDEX_BITS = 64


class UnsupportedType(Exception):
    """A type the interpreter has no per-lane representation for."""


def element_dtype(t: Attribute) -> np.dtype:
    """The numpy type of one lane's element of `t` (the element type for vectors)."""
    if isinstance(t, VectorType):
        t = t.get_element_type()
    if isinstance(t, IntegerType):
        width = t.width.data
        if width not in _INT_DTYPES:
            raise UnsupportedType(f"integers of width {width} are not supported")
        return _INT_DTYPES[width]
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, llvm.LLVMPointerType):
        return POINTER_DTYPE
    raise UnsupportedType(f"values of type {t} are not supported")


def lane_shape(t: Attribute) -> tuple[int, ...]:
    """Shape of one lane's value: () for scalars, the vector shape for vectors."""
    return tuple(t.get_shape()) if isinstance(t, VectorType) else ()


def bit_width(t: Attribute) -> int:
    """Bits of one element of `t` (index counts as 64)."""
    if isinstance(t, VectorType):
        t = t.get_element_type()
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return INDEX_BITS
    return element_dtype(t).itemsize * 8


def unsigned_dtype(dtype: np.dtype) -> np.dtype:
    return _UNSIGNED.get(np.dtype(dtype), np.dtype(dtype))


def unsigned(values: np.ndarray) -> np.ndarray:
    """The same bits read as unsigned."""
    return values.view(_UNSIGNED[values.dtype]) if values.dtype in _UNSIGNED else values


def zeros(t: Attribute) -> Any:
    """A per-warp value of type `t`, all lanes zero (also the model of undef and poison); a struct
    or array is a tuple of its members' values."""
    if isinstance(t, llvm.LLVMStructType):
        return tuple(zeros(m) for m in t.types.data)
    if isinstance(t, llvm.LLVMArrayType):
        return tuple(zeros(t.type) for _ in range(t.size.data))
    return np.zeros((WARP, *lane_shape(t)), dtype=element_dtype(t))


def splat(value: Any, t: Attribute) -> np.ndarray:
    """The read-only per-warp value holding `value` (a scalar or a lane-shaped array) in every lane."""
    one = np.asarray(value, dtype=element_dtype(t)).reshape(lane_shape(t))
    out = np.broadcast_to(one, (WARP, *one.shape))
    return out


def constant(attr: Attribute, t: Attribute) -> np.ndarray:
    """The per-warp value of a constant attribute (integer, float or dense vector)."""
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        dtype = element_dtype(t)
        if dtype == np.bool_:
            return splat(truth(value), t)
        return splat(np.array(wrap(value, dtype.itemsize * 8), dtype=_UNSIGNED[dtype]).view(dtype), t)
    if isinstance(attr, FloatAttr):
        return splat(attr.value.data, t)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        shape = lane_shape(t)
        dtype = element_dtype(t)
        if dtype.kind in "iub":
            bits = dtype.itemsize * 8 if dtype != np.bool_ else 1
            raw = np.array([wrap(int(v), bits) for v in values], dtype=_UNSIGNED[dtype]).view(dtype)
        else:
            raw = np.array(values, dtype=dtype)
        if raw.size == 1 and shape:
            raw = np.full(shape, raw.reshape(()), dtype=dtype)
        return splat(raw.reshape(shape), t)
    raise UnsupportedType(f"constant attribute {attr} is not supported")


def lane_mask(mask: np.ndarray, value: np.ndarray) -> np.ndarray:
    """`mask` (32,) shaped to broadcast against a per-warp `value`."""
    return mask.reshape((WARP,) + (1,) * (value.ndim - 1))


def merge(mask: np.ndarray, new: Any, old: Any) -> Any:
    """Lanes in `mask` take `new`, the others keep `old` (a struct member by member; other
    non-array values: `new`)."""
    if isinstance(new, tuple) and isinstance(old, tuple) and len(new) == len(old):
        return tuple(merge(mask, n, o) for n, o in zip(new, old))
    if isinstance(new, np.ndarray) and isinstance(old, np.ndarray) and new.shape == old.shape:
        out = np.where(lane_mask(mask, new), new, old)
        common = merged_origin(new, old)
        return derived(out, common) if common is not None else out
    return new


def is_uniform(values: np.ndarray, mask: np.ndarray) -> bool:
    """All active lanes hold the same value."""
    active = values[mask]
    return active.size == 0 or bool((active == active[0]).all())


# Ufuncs whose result is still an address of the same allocation when exactly one operand is
# (and, for subtract, when it is the first): base + offset, base - offset, base | lane << 16.
_KEEPS = {np.add, np.bitwise_or, np.bitwise_and, np.bitwise_xor}


class DerivedAddress(np.ndarray):
    """Per-lane integer values derived from the base address of one TMEM allocation
    (interpreter.provenance: the allocation is opaque here)."""

    allocation: Any

    def __array_finalize__(self, obj: Any) -> None:
        # views, reshapes and astype keep the origin
        self.allocation = getattr(obj, "allocation", None)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        origins = [getattr(x, "allocation", None) for x in inputs]
        plain = [x.view(np.ndarray) if isinstance(x, DerivedAddress) else x for x in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, DerivedAddress) else o
                                  for o in kwargs["out"])
        result = getattr(ufunc, method)(*plain, **kwargs)
        tagged = [o for o in origins if o is not None]
        if method != "__call__" or len(tagged) != 1 or not isinstance(result, np.ndarray):
            return result
        keeps = ufunc in _KEEPS or (ufunc is np.subtract and origins[0] is not None)
        return derived(result, tagged[0]) if keeps and result.dtype.kind in "iu" else result


def derived(values: np.ndarray, allocation: Any) -> np.ndarray:
    """`values` tagged as deriving from `allocation` (None: untagged, a plain array)."""
    if allocation is None:
        return values.view(np.ndarray) if isinstance(values, DerivedAddress) else values
    out = np.asarray(values).view(DerivedAddress)
    out.allocation = allocation
    return out


def origin(value: Any) -> Any:
    """The allocation a value derives from, if it is known."""
    return getattr(value, "allocation", None)


def merged_origin(new: Any, old: Any) -> Any:
    """The origin of a lane-wise merge of two values: known only when both sides agree."""
    a, b = origin(new), origin(old)
    return a if a is b else None
