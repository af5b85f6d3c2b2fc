"""PTX operands of the emitter: register classes, registers, immediates, folded addresses, and MLIR types."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import Enum

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute

from tmem_dialect.conventions import TMEM_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.integers import as_signed, wrap
from tmem_dialect.op_types import is_a


class Unsupported(Exception):
    """Raised inside an op handler: the op is outside the PTX target's subset (message names why)."""


class RegClass(Enum):
    """LLVM NVPTX's register classes: registers are untyped bit containers of one width."""

    PRED = ("p", ".pred", 1)
    B16 = ("rs", ".b16", 16)
    B32 = ("r", ".b32", 32)
    B64 = ("rd", ".b64", 64)

    @property
    def prefix(self) -> str:
        return self.value[0]

    @property
    def declaration(self) -> str:
        return self.value[1]

    @property
    def bits(self) -> int:
        return self.value[2]

    @property
    def mov(self) -> str:
        return "mov.pred" if self is RegClass.PRED else f"mov.b{self.bits}"


_CLASS_BY_BITS = {c.bits: c for c in RegClass}


@dataclass(frozen=True)
class Reg:
    cls: RegClass
    number: int

    def __str__(self) -> str:
        return f"%{self.cls.prefix}{self.number}"


@dataclass(frozen=True)
class Imm:
    """A constant: `bits` is the unsigned bit pattern; `kind` picks the PTX spelling."""

    cls: RegClass
    bits: int
    kind: str = "int"  # int | f16 | f32 | f64

    def __str__(self) -> str:
        if self.kind == "f32":
            return f"0f{self.bits:08X}"
        if self.kind == "f64":
            return f"0d{self.bits:016X}"
        if self.kind == "f16":
            return f"0x{self.bits:04X}"
        return str(self.signed)

    @property
    def signed(self) -> int:
        return as_signed(self.bits, self.cls.bits)


@dataclass(frozen=True)
class Address:
    """A pointer PTX can fold into an address operand: `[symbol+offset]` or `[%rd+offset]`."""

    cls: RegClass
    base: Reg | str
    offset: int = 0

    def __str__(self) -> str:
        base = str(self.base)
        if self.offset > 0:
            return f"{base}+{self.offset}"
        if self.offset < 0:
            return f"{base}+{self.offset}"  # PTX spells negative offsets `[%rd1+-8]`
        return base


@dataclass(frozen=True)
class Undef:
    """An element of llvm.mlir.poison/undef: no instruction defines it."""

    cls: RegClass


Operand = Reg | Imm | Address | Undef


def int_imm(cls: RegClass, value: int) -> Imm:
    return Imm(cls, wrap(value, cls.bits))


def float_imm(t: Attribute, value: float) -> Imm:
    if isinstance(t, Float32Type):
        return Imm(RegClass.B32, struct.unpack("<I", struct.pack("<f", value))[0], "f32")
    if isinstance(t, Float64Type):
        return Imm(RegClass.B64, struct.unpack("<Q", struct.pack("<d", value))[0], "f64")
    if isinstance(t, Float16Type):
        return Imm(RegClass.B16, struct.unpack("<H", struct.pack("<e", value))[0], "f16")
    assert isinstance(t, BFloat16Type)
    f32 = struct.unpack("<I", struct.pack("<f", value))[0]
    rounded = (f32 + 0x7FFF + ((f32 >> 16) & 1)) >> 16  # round to nearest even
    return Imm(RegClass.B16, rounded & 0xFFFF, "f16")


# ---------------------------------------------------------------------------------------------
# MLIR types
# ---------------------------------------------------------------------------------------------


def scalar_bits(t: Attribute) -> int | None:
    """Bits of a scalar the emitter can hold in a register (pointers: 32 for TMEM, else 64)."""
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, (Float16Type, BFloat16Type)):
        return 16
    if isinstance(t, Float32Type):
        return 32
    if isinstance(t, Float64Type):
        return 64
    if isinstance(t, llvm.LLVMPointerType):
        return 32 if pointer_address_space(t) == TMEM_ADDRESS_SPACE else 64
    return None


def element_type(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, VectorType) else t


def element_count(t: Attribute) -> int:
    return t.get_shape()[0] if isinstance(t, VectorType) else 1


def register_class(t: Attribute) -> RegClass | None:
    """The class of each element of `t` (a scalar or a 1-D vector), or None if unsupported."""
    if isinstance(t, VectorType) and (t.get_num_dims() != 1 or t.get_num_scalable_dims()):
        return None
    bits = scalar_bits(element_type(t))
    return _CLASS_BY_BITS.get(bits) if bits is not None else None


# PTX has no 8-bit registers: .u8/.s8/.b8 are types of ld, st and cvt only, which take wider
# registers (PTX ISA 5.2.2). An i8 lives in the low byte of a .b16 register, as in LLVM NVPTX; only
# loads, stores and integer casts take it (each reads the low byte alone), so the high byte's
# contents never matter. Any other op on i8 has no register class: a diagnostic.
BYTE_CLASS = RegClass.B16


def is_byte(t: Attribute) -> bool:
    """Whether `t` is i8 or a vector of i8 (ld/st/cvt only: BYTE_CLASS)."""
    if isinstance(t, VectorType) and (t.get_num_dims() != 1 or t.get_num_scalable_dims()):
        return False
    elem = element_type(t)
    return isinstance(elem, IntegerType) and elem.width.data == 8


_FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)


def is_float(t: Attribute) -> bool:
    return is_a(t, _FLOAT_TYPES)  # (asked of every operand the front end reads)


def byte_size(t: Attribute) -> int | None:
    """Store size in bytes (what getelementptr scales by), or None if the emitter has no layout for it."""
    if isinstance(t, VectorType):
        inner = byte_size(t.get_element_type())
        return None if inner is None or t.get_num_dims() != 1 else inner * t.get_shape()[0]
    if isinstance(t, llvm.LLVMArrayType):
        inner = byte_size(t.type)
        return None if inner is None else inner * t.size.data
    bits = scalar_bits(t)
    if bits is None or bits == 1:
        return None
    return -(-bits // 8)  # LLVM's store size: an i3 takes a byte (0 bytes was a PTX "incomplete type")


def byval_layout(func: llvm.FuncOp, i: int) -> tuple[int, int] | None:
    """(bytes, alignment) of byval argument `i` (its llvm.byval and llvm.align argument attributes)."""
    arg_attrs = func.properties.get("arg_attrs") or func.attributes.get("arg_attrs")
    if not isinstance(arg_attrs, ArrayAttr) or i >= len(arg_attrs.data):
        return None
    attrs = arg_attrs.data[i]
    byval = attrs.data.get("llvm.byval") if isinstance(attrs, DictionaryAttr) else None
    if not isinstance(byval, llvm.LLVMArrayType) or not isinstance(byval.size, IntAttr):
        return None
    element = byval.type
    if not isinstance(element, IntegerType) or element.width.data % 8:
        return None
    align = attrs.data.get("llvm.align")
    alignment = align.value.data if isinstance(align, IntegerAttr) else 1
    return byval.size.data * element.width.data // 8, alignment
