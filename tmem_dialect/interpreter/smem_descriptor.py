"""SMEM matrix descriptors of tcgen05.mma: the address of every operand element, every swizzle mode.

The fields and canonical layouts are isa.smem's (PTX ISA 9.7.16.4.1, 9.7.16.3); this module adds
what a run needs on top: the swizzle applied to whole address arrays with the descriptor's base
offset (isa.SWIZZLE_GEOMETRY, isa.BASE_OFFSET_SHIFT), the 128-byte swizzle with 32-byte atomicity,
sub-byte elements, and reading the element codes out of shared memory (vectorized).
"""

from __future__ import annotations

import numpy as np

from tmem_dialect import isa


class DescriptorError(ValueError):
    """A descriptor value the ISA does not define (a reserved swizzle code) or we do not model."""


def decode(value: int) -> isa.SmemDescriptor:
    """isa.decode_smem_descriptor, with its ValueError as a DescriptorError."""
    try:
        return isa.decode_smem_descriptor(value)
    except ValueError as e:
        raise DescriptorError(str(e)) from None


def encode(start: int, lbo: int, sbo: int, swizzle: int, base_offset: int = 0, lbo_mode: int = 0) -> int:
    """The descriptor value of these byte quantities (isa.SmemDescriptor.encode)."""
    return isa.SmemDescriptor(start, lbo, sbo, base_offset, lbo_mode, isa.Swizzle(swizzle)).encode()


def swizzle_address(addresses: np.ndarray, mode: isa.Swizzle, base_offset: int) -> np.ndarray:
    """The swizzled byte addresses (isa.SWIZZLE_GEOMETRY's XOR, phased by the base offset)."""
    g = isa.SWIZZLE_GEOMETRY[mode]
    if g.xor_bits == 0:
        return addresses
    phase = ((addresses >> isa.BASE_OFFSET_SHIFT) - base_offset) & ((1 << g.xor_bits) - 1)
    return addresses ^ (phase << g.xor_low)


def _offsets(desc: isa.SmemDescriptor, mn: np.ndarray, k: np.ndarray, elem_bits: int,
             k_major: bool) -> np.ndarray:
    """Canonical byte offsets from the start address, before swizzling."""
    if desc.swizzle is not isa.Swizzle.B128_ATOM32:
        return isa.operand_offset(desc, isa.Major.K if k_major else isa.Major.MN, elem_bits, mn, k)
    # the 4-row atom of mode 1 (isa.SWIZZLE_GEOMETRY): rows of 128 bytes, LBO between 128-byte
    # groups of the leading dimension, SBO between 4-row groups
    g = isa.SWIZZLE_GEOMETRY[desc.swizzle]
    row = 16 * g.width
    lbo, sbo = desc.leading_byte_offset, desc.stride_byte_offset
    if k_major:
        kb = (k * elem_bits) // 8
        return (mn % g.rows) * row + (mn // g.rows) * sbo + kb
    mnb = (mn * elem_bits) // 8
    return (mnb % row) + (mnb // row) * lbo + (k % g.rows) * row + (k // g.rows) * sbo


def element_addresses(desc: isa.SmemDescriptor, mn: int, k: int, elem_bits: int,
                      k_major: bool) -> tuple[np.ndarray, np.ndarray]:
    """Byte address and bit shift within that byte of every element (i, kk) of an mn x k tile.

    Both results are (mn, k) int64 arrays; the shift is 0 unless elements are narrower than a
    byte (4-bit e2m1 packed two per byte: the element of even index in the low nibble).
    """
    if desc.lbo_mode:
        raise DescriptorError("the absolute-address leading-dimension mode (bit 52, sm_103a) is not modelled")
    i = np.arange(mn, dtype=np.int64)[:, None]
    kk = np.arange(k, dtype=np.int64)[None, :]
    try:
        offset = _offsets(desc, i, kk, elem_bits, k_major)
    except ValueError as e:
        raise DescriptorError(str(e)) from None
    bit = ((kk if k_major else i) * elem_bits) % 8
    addresses = swizzle_address(desc.start_address + offset, desc.swizzle, desc.base_offset)
    return np.broadcast_to(addresses, (mn, k)), np.broadcast_to(bit, (mn, k))


def gather_codes(raw: np.ndarray, offsets: np.ndarray, shifts: np.ndarray, container_bits: int,
                 code_bits: int) -> np.ndarray:
    """The element codes at byte `offsets` of the byte array `raw` (little-endian containers).

    `container_bits`: 4 (packed nibbles), 8, 16 or 32; `code_bits`: the format's width, taken
    from the low bits of its container (6-bit codes in 8-bit containers).
    """
    return read_codes(lambda a: raw[a], offsets, shifts, container_bits, code_bits)


def read_codes(read, offsets: np.ndarray, shifts: np.ndarray, container_bits: int,
               code_bits: int) -> np.ndarray:
    """gather_codes through `read(addresses) -> uint8 values` (one CTA's shared memory)."""
    if container_bits == 4:
        return (read(offsets).astype(np.uint32) >> shifts.astype(np.uint32)) & 0xF
    codes = read(offsets).astype(np.uint32)
    for b in range(1, container_bits // 8):
        codes |= read(offsets + b).astype(np.uint32) << np.uint32(8 * b)
    if code_bits < container_bits:
        codes &= np.uint32((1 << code_bits) - 1)
    return codes


def packed_subbyte(addresses: np.ndarray, code_bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the 4- or 6-bit elements of kind::f8f6f4 / mxf8f6f4 sit in shared memory, from their
    addresses in the 8-bit geometry (`element_addresses` with 8-bit elements; isa.SUBBYTE_CHUNK_BYTES):
    the byte holding each code's low bits, the code's shift there, and the byte holding its high bits
    (the same byte unless the code straddles two). The chunk's padding is never among them."""
    start = addresses & ~np.int64(isa.SUBBYTE_CHUNK_BYTES - 1)
    byte, shift = isa.subbyte_code_position(addresses & (isa.SUBBYTE_CHUNK_BYTES - 1), code_bits)
    first = start + byte
    return first, shift, np.where(shift + code_bits > 8, first + 1, first)


def read_packed_subbyte(read, addresses: np.ndarray, code_bits: int) -> np.ndarray:
    """The codes of `packed_subbyte` elements through `read(addresses) -> uint8 values` (a code
    within one byte takes only bits [shift, shift + code_bits) < 8 of the byte pair)."""
    first, shift, second = packed_subbyte(addresses, code_bits)
    pair = read(first).astype(np.uint32) | (read(second).astype(np.uint32) << np.uint32(8))
    return (pair >> shift.astype(np.uint32)) & np.uint32((1 << code_bits) - 1)
