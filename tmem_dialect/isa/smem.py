"""The tcgen05 shared-memory matrix descriptor: its bitfields, swizzle modes and canonical layouts.

Source: PTX ISA 9.7.16.4.1 "Shared memory descriptor" (tcgen05 matrix descriptors) and 9.7.16.4
"Shared memory matrix layout"; the field table is also spelled out in upstream MLIR's
`nvvm.tcgen05.mma_smem_desc` (NVVMOps.td). Canonical layouts are those of the wgmma/tcgen05
shared-memory layouts (PTX ISA 9.7.15.5.1 "Shared memory matrix layout", shared by tcgen05), as
CuTe writes them in units of 16-byte rows of a core matrix.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

# ---- bitfields (PTX ISA 9.7.16.4.1) ------------------------------------------------------------

START_ADDRESS = (0, 14)  # (addr & 0x3FFFF) >> 4
LEADING_BYTE_OFFSET = (16, 14)  # LBO >> 4 (or the absolute address >> 4 in LBO mode 1)
STRIDE_BYTE_OFFSET = (32, 14)  # SBO >> 4
FIXED_001 = (46, 3)  # must be 0b001 on tcgen05 (wgmma left it 0)
BASE_OFFSET = (49, 3)
LBO_MODE = (52, 1)  # 0: LBO is a relative byte offset, 1: an absolute byte address
FIXED_ZERO = (53, 8)
SWIZZLE = (61, 3)

DESCRIPTOR_FIELDS = {
    "start_address": START_ADDRESS,
    "leading_byte_offset": LEADING_BYTE_OFFSET,
    "stride_byte_offset": STRIDE_BYTE_OFFSET,
    "fixed_001": FIXED_001,
    "base_offset": BASE_OFFSET,
    "lbo_mode": LBO_MODE,
    "fixed_zero": FIXED_ZERO,
    "swizzle": SWIZZLE,
}
ADDRESS_GRANULE = 16  # start address, LBO and SBO drop their 4 low bits
MAX_BYTE_FIELD = ((1 << 14) - 1) * ADDRESS_GRANULE  # largest LBO/SBO a 14-bit field holds
SHARED_WINDOW = 1 << 18  # the start field sees address bits 4..17


class Swizzle(Enum):
    """Swizzle modes of bits 61-63 (values 3, 5 and 7 are invalid)."""

    NONE = 0
    B128_ATOM32 = 1  # 128-byte swizzle with 32-byte atomicity
    B128 = 2
    B64 = 4
    B32 = 6

    @property
    def row_bytes(self) -> int:
        """Bytes of one row of the swizzle atom (the pattern width); 16 (a core-matrix row) unswizzled."""
        return {Swizzle.NONE: 16, Swizzle.B32: 32, Swizzle.B64: 64, Swizzle.B128: 128,
                Swizzle.B128_ATOM32: 128}[self]  # fmt: skip

    @property
    def atom_bytes(self) -> int:
        """Bytes of the whole atom: 8 rows (the pattern repeats every 8 rows)."""
        return 8 * self.row_bytes

    @property
    def xor_bits(self) -> int:
        """B of CuTe's Swizzle<B, 4, 3>: how many 16-byte-chunk bits are XORed with row bits."""
        return {Swizzle.NONE: 0, Swizzle.B32: 1, Swizzle.B64: 2, Swizzle.B128: 3}[self]


def swizzle_error(value: int) -> str | None:
    if value not in {s.value for s in Swizzle}:
        return f"swizzle mode must be 0 (none), 1 (128B, 32B atom), 2 (128B), 4 (64B) or 6 (32B), got {value}"
    return None


def _field(value: int, field: tuple[int, int]) -> int:
    lo, width = field
    return (value >> lo) & ((1 << width) - 1)


def _put(field: tuple[int, int], value: int) -> int:
    lo, width = field
    return (value & ((1 << width) - 1)) << lo


@dataclass(frozen=True)
class SmemDescriptor:
    """A decoded shared-memory matrix descriptor; byte quantities in bytes (not >> 4)."""

    start_address: int
    leading_byte_offset: int
    stride_byte_offset: int
    base_offset: int = 0
    lbo_mode: int = 0
    swizzle: Swizzle = Swizzle.NONE
    fixed_001: int = 1
    fixed_zero: int = 0

    def encode(self) -> int:
        return (
            _put(START_ADDRESS, (self.start_address & (SHARED_WINDOW - 1)) >> 4)
            | _put(LEADING_BYTE_OFFSET, self.leading_byte_offset >> 4)
            | _put(STRIDE_BYTE_OFFSET, self.stride_byte_offset >> 4)
            | _put(FIXED_001, self.fixed_001)
            | _put(BASE_OFFSET, self.base_offset)
            | _put(LBO_MODE, self.lbo_mode)
            | _put(FIXED_ZERO, self.fixed_zero)
            | _put(SWIZZLE, self.swizzle.value)
        )

    def errors(self) -> list[str]:
        """Field values the ISA forbids (checked on constant descriptors)."""
        out: list[str] = []
        for name in ("start_address", "leading_byte_offset", "stride_byte_offset"):
            v = getattr(self, name)
            if v % ADDRESS_GRANULE:
                out.append(f"{name.replace('_', ' ')} {v} is not a multiple of 16 bytes")
        if not 0 <= self.start_address < SHARED_WINDOW:
            out.append(f"start address {self.start_address} is outside the 256 KiB shared window")
        for name in ("leading_byte_offset", "stride_byte_offset"):
            v = getattr(self, name)
            if not 0 <= v <= MAX_BYTE_FIELD:
                out.append(f"{name.replace('_', ' ')} {v} does not fit the 14-bit field (at most {MAX_BYTE_FIELD})")
        if not 0 <= self.base_offset < 8:
            out.append(f"base offset must be in [0, 7], got {self.base_offset}")
        if self.lbo_mode not in (0, 1):
            out.append(f"leading-dimension mode must be 0 or 1, got {self.lbo_mode}")
        if self.fixed_001 != 1:
            out.append(f"bits 46-48 must hold the fixed value 0b001, got {self.fixed_001:#05b}")
        if self.fixed_zero != 0:
            out.append(f"bits 53-60 must be 0, got {self.fixed_zero:#x}")
        return out


def decode_smem_descriptor(value: int) -> SmemDescriptor:
    """The fields of a 64-bit descriptor; raises ValueError for an invalid swizzle mode."""
    value &= (1 << 64) - 1
    sw = _field(value, SWIZZLE)
    if err := swizzle_error(sw):
        raise ValueError(err)
    return SmemDescriptor(
        start_address=_field(value, START_ADDRESS) << 4,
        leading_byte_offset=_field(value, LEADING_BYTE_OFFSET) << 4,
        stride_byte_offset=_field(value, STRIDE_BYTE_OFFSET) << 4,
        base_offset=_field(value, BASE_OFFSET),
        lbo_mode=_field(value, LBO_MODE),
        swizzle=Swizzle(sw),
        fixed_001=_field(value, FIXED_001),
        fixed_zero=_field(value, FIXED_ZERO),
    )


# ---- swizzling and canonical layouts -----------------------------------------------------------


def swizzle_address(mode: Swizzle, address: np.ndarray | int) -> np.ndarray | int:
    """The shared-memory byte address an unswizzled address maps to.

    Swizzle<B, 4, 3> on the address: the 16-byte chunk bits [4, 4+B) are XORed with the row bits
    [7, 7+B). The pattern is a function of the address itself, so an operand whose atom does not
    start on a multiple of the atom size sees a shifted pattern; the base-offset field
    ((start >> 7) & 7 for such operands) tells the hardware the phase. The 128-byte swizzle with
    32-byte atomicity (mode 1) is not modelled here: raises ValueError.
    """
    if mode is Swizzle.B128_ATOM32:
        raise ValueError("the 128-byte swizzle with 32-byte atomicity (mode 1) is not modelled")
    b = mode.xor_bits
    if b == 0:
        return address
    mask = ((1 << b) - 1) << 4
    return address ^ ((address >> 3) & mask)


class Major(Enum):
    """Which dimension is contiguous in shared memory (the instruction descriptor's transpose bit)."""

    K = 0
    MN = 1


def operand_offset(
    desc: SmemDescriptor, major: Major, element_bits: int, mn: np.ndarray, k: np.ndarray
) -> np.ndarray:
    """Byte offset from the start address of element (mn, k) in the canonical layout, before swizzling.

    Canonical layouts in units of T = 128 / element_bits elements (one 16-byte core-matrix row),
    W = the swizzle row in units of T (1, 2, 4, 8):
      K-major, no swizzle : ((8, m), (T, 2k)) : ((1T, SBO), (1, LBO))
      K-major, swizzled   : ((8, m), (W*T, k)) : ((W*T, SBO), (1, -))   K must fit in one row
      MN-major, no swizzle: ((T, m), (8, k)) : ((1, SBO), (1T, LBO))
      MN-major, swizzled  : ((W*T, m), (8, k)) : ((1, LBO), (W*T, SBO))
    `mn` and `k` are integer arrays (any matching shapes); the result has their broadcast shape.
    """
    mn = np.asarray(mn, dtype=np.int64)
    k = np.asarray(k, dtype=np.int64)
    bits = element_bits
    row = desc.swizzle.row_bytes
    lbo, sbo = desc.leading_byte_offset, desc.stride_byte_offset
    if major is Major.K:
        kb = (k * bits) // 8  # byte position of the element along K
        if desc.swizzle is Swizzle.NONE:
            return (mn % 8) * 16 + (mn // 8) * sbo + (kb % 16) + (kb // 16) * lbo
        if np.any(kb >= row):
            raise ValueError(f"K-major operand reaches byte {int(kb.max())} of a {row}-byte swizzle row")
        return (mn % 8) * row + (mn // 8) * sbo + kb
    mnb = (mn * bits) // 8
    if desc.swizzle is Swizzle.NONE:
        return (mnb % 16) + (mnb // 16) * sbo + (k % 8) * 16 + (k // 8) * lbo
    return (mnb % row) + (mnb // row) * lbo + (k % 8) * row + (k // 8) * sbo


def operand_addresses(
    desc: SmemDescriptor, major: Major, element_bits: int, mn: np.ndarray, k: np.ndarray
) -> np.ndarray:
    """Shared-memory byte addresses of elements (mn, k): start + canonical offset, then swizzled."""
    unswizzled = desc.start_address + operand_offset(desc, major, element_bits, mn, k)
    return swizzle_address(desc.swizzle, unswizzled)
