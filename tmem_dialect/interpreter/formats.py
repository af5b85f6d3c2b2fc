"""Number formats of tcgen05.mma operands and scale factors, decoded from raw codes to float64 (vectorized).

Every decoder takes an integer array of codes (the element's bits, right-aligned) and returns
float64 values; NaN codes decode to NaN. Formats of at most 8 bits decode through a 256-entry
table built once from the format's (exponent bits, mantissa bits, bias) and its special codes;
16- and 32-bit formats reinterpret bits with numpy. Formats (OCP MX spec v1.0 and IEEE 754, as
the PTX ISA 9.7.16.4.2 names them):
- f16 (IEEE binary16), bf16 (upper half of binary32), tf32 (binary32 with the low 13 mantissa
  bits ignored: the tensor core reads 19 bits of a 32-bit container);
- e4m3 (bias 7, no infinities, S.1111.111 is NaN), e5m2 (bias 15, IEEE-like inf and NaN);
- e2m3 (bias 1), e3m2 (bias 3), e2m1 (bias 1): no infinities, no NaN;
- ue8m0: 2^(code - 127), 0xFF is NaN; ue4m3: e4m3 without the sign bit (0x7F is NaN);
- u8 / s8: integers (returned as int64 by `decode_int`).
"""

from __future__ import annotations

from functools import cache

import numpy as np

# (exponent bits, mantissa bits, bias, signed, infinities, NaN codes as (exponent all ones and
# mantissa all ones) only / IEEE (exponent all ones, mantissa != 0) / none)
_MINIFLOATS: dict[str, tuple[int, int, int, bool, bool, str]] = {
    "e4m3": (4, 3, 7, True, False, "all-ones"),
    "e5m2": (5, 2, 15, True, True, "ieee"),
    "e2m3": (2, 3, 1, True, False, "none"),
    "e3m2": (3, 2, 3, True, False, "none"),
    "e2m1": (2, 1, 1, True, False, "none"),
    "ue4m3": (4, 3, 7, False, False, "all-ones"),
}

FLOAT_FORMATS = ("f32", "tf32", "f16", "bf16", *_MINIFLOATS, "ue8m0")
INT_FORMATS = ("u8", "s8", "s32")


@cache
def minifloat_table(fmt: str) -> np.ndarray:
    """float64 value of every code 0 .. 2^bits - 1 of a format of at most 8 bits."""
    if fmt == "ue8m0":
        table = np.ldexp(1.0, np.arange(256) - 127)
        table[255] = np.nan
        table.setflags(write=False)
        return table
    ebits, mbits, bias, signed, inf, nan = _MINIFLOATS[fmt]
    width = ebits + mbits + (1 if signed else 0)
    codes = np.arange(1 << width)
    mant = codes & ((1 << mbits) - 1)
    exp = (codes >> mbits) & ((1 << ebits) - 1)
    sign = np.where(signed & ((codes >> (ebits + mbits)) & 1 == 1), -1.0, 1.0)
    normal = np.ldexp(1.0 + mant / (1 << mbits), exp - bias)
    subnormal = np.ldexp(mant / (1 << mbits), 1 - bias)
    table = sign * np.where(exp == 0, subnormal, normal)
    top = exp == (1 << ebits) - 1
    if nan == "all-ones":
        table[top & (mant == (1 << mbits) - 1)] = np.nan
    elif nan == "ieee":
        table[top & (mant != 0)] = np.nan
    if inf:
        table[top & (mant == 0)] = sign[top & (mant == 0)] * np.inf
    table.setflags(write=False)
    return table


def decode(codes: np.ndarray, fmt: str) -> np.ndarray:
    """float64 values of the codes of a floating-point format (any array shape)."""
    codes = np.asarray(codes)
    with np.errstate(invalid="ignore"):  # NaN codes widen to NaN (numpy warns on signalling ones)
        return _decode(codes, fmt)


def _decode(codes: np.ndarray, fmt: str) -> np.ndarray:
    if fmt in _MINIFLOATS or fmt == "ue8m0":
        ebits, mbits, _, signed, _, _ = _MINIFLOATS.get(fmt, (8, 0, 0, False, False, ""))
        bits = ebits + mbits + (1 if signed else 0)
        return minifloat_table(fmt)[codes.astype(np.int64) & ((1 << bits) - 1)]
    if fmt == "f16":
        return codes.astype(np.uint16).view(np.float16).astype(np.float64)
    if fmt == "bf16":
        return (codes.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if fmt == "tf32":
        return (codes.astype(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
    if fmt == "f32":
        return codes.astype(np.uint32).view(np.float32).astype(np.float64)
    raise ValueError(f"'{fmt}' is not a floating-point operand format")


def decode_int(codes: np.ndarray, fmt: str) -> np.ndarray:
    """int64 values of 8-bit integer codes (u8 / s8) or 32-bit s32 words."""
    codes = np.asarray(codes)
    if fmt == "u8":
        return codes.astype(np.uint8).astype(np.int64)
    if fmt == "s8":
        return codes.astype(np.uint8).view(np.int8).astype(np.int64)
    if fmt == "s32":
        return codes.astype(np.uint32).view(np.int32).astype(np.int64)
    raise ValueError(f"'{fmt}' is not an integer operand format")


def is_integer(fmt: str) -> bool:
    return fmt in INT_FORMATS
