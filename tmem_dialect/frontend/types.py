"""PTX types as MLIR types: registers, instruction operand types and storage (memory) types."""

from __future__ import annotations

from functools import cache

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute

from tmem_dialect.lowering.ptx_values import is_float, scalar_bits  # noqa: F401 (is_float: T.is_float)
from tmem_dialect.op_types import is_a

_FLOATS: dict[str, Attribute] = {"f16": Float16Type(), "bf16": BFloat16Type(), "f32": Float32Type(),
                                 "f64": Float64Type()}
_BUILTIN_INTEGERS = {1: i1, 32: i32, 64: i64}
# Packed and tensor-core formats are bits in integer registers.
_BITS = {"f16x2": 32, "bf16x2": 32, "tf32": 32, "e4m3x2": 16, "e5m2x2": 16}


@cache
def operand_type(ptx: str) -> Attribute:
    """The value type an instruction of PTX type `ptx` computes on (`.u32` -> i32, `.f32` -> f32, `.pred` -> i1)."""
    if ptx == "pred":
        return int_type(1)
    if ptx in _FLOATS:
        return _FLOATS[ptx]
    if ptx in _BITS:
        return int_type(_BITS[ptx])
    if ptx[:1] in "bus" and ptx[1:].isdigit():
        return int_type(int(ptx[1:]))
    raise ValueError(f"unknown PTX type '.{ptx}'")


register_type = operand_type
storage_type = operand_type


@cache
def int_type(width: int) -> IntegerType:
    """`i<width>`, built once (building and checking a type costs as much as an op's body): one
    object per width, xDSL's own i1/i32/i64 for theirs, so that most type comparisons (.u32 and
    .b32 operands, the handlers' i32) are an identity test, not a Python-level ==."""
    return _BUILTIN_INTEGERS.get(width) or IntegerType(width)


@cache
def dense_array(element_type: IntegerType, values: tuple[int, ...]) -> DenseArrayBase:
    """`array<element_type: values>` (an attribute, immutable: built once per distinct value)."""
    return DenseArrayBase.from_list(element_type, values)


@cache
def vector_type(element: Attribute, length: int) -> VectorType:
    """`vector<length x element>`, built once."""
    return VectorType(element, [length])


@cache
def pointer_type(space: int) -> LLVMPointerType:
    """`!llvm.ptr<space>` (`!llvm.ptr` for the generic space 0), built once."""
    return LLVMPointerType(IntAttr(space)) if space else LLVMPointerType()


def bits(t: Attribute) -> int:
    """Bits of a value type: scalars as the PTX target counts them, vectors element times length."""
    if is_a(t, VectorType):
        return bits(t.get_element_type()) * t.get_shape()[0]
    found = scalar_bits(t)
    if found is None:
        raise ValueError(f"{t} has no bit width")
    return found


def is_signed(ptx: str) -> bool:
    return ptx.startswith("s")


def is_type_name(part: str) -> bool:
    try:
        operand_type(part)
        return True
    except ValueError:
        return False
