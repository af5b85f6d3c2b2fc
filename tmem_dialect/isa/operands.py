"""Operand facts the interpreter's tensor core needs beyond isa.smem and isa.mma: swizzle XOR geometry, D layouts B and E, smem containers, scale factors in TMEM.

Added by the interpreter side of issue 10 where isa.smem / isa.mma do not (yet) model a form;
the owners of those modules may absorb these tables (nothing here repeats one of theirs).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from tmem_dialect.isa.core import LANES_PER_WARP
from tmem_dialect.isa.mma import DType, Kind, accumulator_lane
from tmem_dialect.isa.smem import Swizzle


@dataclass(frozen=True)
class SwizzleGeometry:
    """How a swizzle mode permutes bytes: bits [xor_low, xor_low + xor_bits) of the byte address
    are XORed with bits [7, 7 + xor_bits) (CuTe's Swizzle<B, M, S> with B = xor_bits, M = xor_low,
    S = 7 - xor_low), over an atom of `rows` rows of 128-bit-element width `width` (16-byte chunks).

    PTX ISA 9.7.15.5.1.2 Table 38 (swizzle atoms 8x8, 8x4, 8x2, 8x1 chunks) and 9.7.16.4.1
    Table 41 (the pattern repeats every 1024/512/256 bytes). The 128-byte swizzle with 32-byte
    atomicity (mode 1) swaps 32-byte units within 128-byte rows, 4 rows per atom: Swizzle<2,5,2>
    (CUTLASS cute/atom/mma_traits_sm100.hpp, Layout_MN_SW128_32B_Atom: 1024 x 4 bits); CUTLASS
    uses it for MN-major tf32 only.
    """

    width: int
    rows: int
    xor_low: int
    xor_bits: int


SWIZZLE_GEOMETRY: dict[Swizzle, SwizzleGeometry] = {
    Swizzle.NONE: SwizzleGeometry(1, 8, 4, 0),
    Swizzle.B32: SwizzleGeometry(2, 8, 4, 1),
    Swizzle.B64: SwizzleGeometry(4, 8, 4, 2),
    Swizzle.B128: SwizzleGeometry(8, 8, 4, 3),
    Swizzle.B128_ATOM32: SwizzleGeometry(8, 4, 5, 2),
}

# Base offset (SMEM descriptor bits 49-51, PTX ISA 9.7.16.4.1): 0 when the swizzle pattern starts
# on its repeat boundary (Table 41), else (pattern start >> 7) & 7. We read it as the row of the
# repeating pattern at address bits 7.. : the swizzle phase of address a is ((a >> 7) - base).
BASE_OFFSET_SHIFT = 7


def smem_container_bits(kind: Kind, t: DType) -> int:
    """Bits of shared memory one A/B element takes in the canonical layouts' geometry: mxf4 and
    mxf4nvf4 read e2m1 packed two per byte; kind::f8f6f4 / mxf8f6f4 read 6- and 4-bit types from
    16-byte chunks of 16 packed elements plus padding (`smem_packed_with_padding`), which take
    the bytes of 16 8-bit elements."""
    if t.bits == 4 and kind in (Kind.MXF4, Kind.MXF4NVF4):
        return 4
    return max(t.bits, 8)


# Shared memory holds the 4- and 6-bit elements of kind::f8f6f4 / mxf8f6f4 "contiguously packed
# along with padding" (PTX ISA 9.7.16.10.4.4, Figures 202/203): 16 elements packed little-endian,
# element i in bits [b*i, b*i + b) of a 16-byte chunk, then 64 (4-bit) or 32 (6-bit) bits of
# padding: the TMA's .b4x16_p64 / .b6x16_p32 forms (5.5.1.1.1, "sixteen contiguous 4-bits of data
# [...] with the append of 64-bits of padding"; CUTLASS's float_e2m1/e2m3/e3m2_unpacksmem_t make
# its TMA copies use them, Triton PR #5799 builds the same "64 bits padding" by hand). A chunk
# takes the bytes of 16 8-bit elements, so a canonical layout places element p of a chunk where
# its byte p would be; tcgen05.cp decompression reads the same chunks (isa.decompress).
SUBBYTE_CHUNK_ELEMENTS = 16
SUBBYTE_CHUNK_BYTES = 16


def smem_packed_with_padding(kind: Kind, t: DType) -> bool:
    return t.bits < 8 and kind in (Kind.F8F6F4, Kind.MXF8F6F4)


def subbyte_code_position(chunk_position: np.ndarray, code_bits: int) -> tuple[np.ndarray, np.ndarray]:
    """(byte in its chunk, bit shift in that byte) of the code of element p of a packed chunk."""
    bit = np.asarray(chunk_position) * code_bits
    return bit // 8, bit % 8


# Where a 4- or 6-bit element sits in its 8-bit container in TMEM: A of kind::f8f6f4 / mxf8f6f4
# from TMEM (PTX ISA 9.7.16.10.4.3: "The individual 4-bit and the 6-bit floating point type
# elements must be packed in an 8-bit container in Tensor memory [...] 4 consecutive A elements
# [...] in one 32-bit Tensor Memory word"), which is also what tcgen05.cp decompression writes
# (isa.decompress). The bit positions are in the ISA's Figures 195-201 only; our sources:
# - e2m1 in bits [2, 6): Triton PR #10202 (merged; MMA A operand in TMEM, tested on sm_100): "the
#   strange fp4_padded format expected by MMA LHS, where the 4 bits are in the middle [2, 6) bits";
# - 6-bit types in bits [0, 6), the 2 high bits zero: the ISA's 8-bit container of a 6-bit type
#   (5.2.3: "each .b8 element has 6-bit floating point value and 2 MSB bits padded with zero";
#   5.5.1.1.1 .b6p2x16: "6-bits of data at the LSB and 2-bits of padding at the MSB"). That TMEM
#   uses the same container is our reading; with it e2m1 shares e2m3's sign and exponent bits.
TMEM_SUBBYTE_SHIFT: dict[int, int] = {4: 2, 6: 0}


def tmem_container_bits(kind: Kind, t: DType) -> int:
    """Bits of TMEM one A element occupies along the columns (little-endian in 32-bit words):
    one byte for the 4- and 6-bit types of kind::f8f6f4 / mxf8f6f4 (9.7.16.10.4.3), e2m1 packed
    two per byte for mxf4 / mxf4nvf4 (9.7.16.10.4.5), the type's width otherwise."""
    if t.bits < 8 and kind in (Kind.F8F6F4, Kind.MXF8F6F4):
        return 8
    return t.bits


@cache
def accumulator_layout(m: int, cta_group: int, n: int, ws: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(lane, column) relative to D's taddr of every element (r, j) of one CTA's M/cta_group x N
    share of D, as two int64 arrays (read-only).

    PTX ISA 9.7.16.10.5 "Data path layout organization": layouts A (M = 256, cta_group::2), D
    (M = 128) and F (M = 64) come from isa.mma.accumulator_lane; B (M = 128, cta_group::2) and E
    (M = 64 .ws) put the row's second half of columns in lanes 64..127: element (r, j) at lane
    r + 64 * (j // (N/2)), column j % (N/2) (the ISA figures; TVM TIRx tmem_datapath_layout
    documents the same). The layout table of 9.7.16.10.5 gives M = 128 with .cta_group::1 Layout
    D whether or not the mma is .ws.
    """
    rows = m // cta_group
    j = np.arange(n)[None, :]
    if (m, cta_group, ws) in ((128, 2, False), (64, 1, True)):
        r = np.arange(rows)[:, None]
        half = n // 2
        lane, col = r + 2 * LANES_PER_WARP * (j // half), np.broadcast_to(j % half, (rows, n))
    elif not ws or (m, cta_group) == (128, 1):  # the table: M = 128 with cta_group::1 is Layout D, .ws or not
        lanes = np.array([accumulator_lane(m, cta_group, r)[1] for r in range(rows)])
        lane, col = np.broadcast_to(lanes[:, None], (rows, n)), np.broadcast_to(j, (rows, n))
    else:
        raise ValueError(f"the accumulator layout of M = {m} .ws with cta_group::{cta_group} is not modelled")
    lane, col = np.ascontiguousarray(lane), np.ascontiguousarray(col)
    lane.setflags(write=False)
    col.setflags(write=False)
    return lane, col


# ---- block-scale factors in TMEM (PTX ISA 9.7.16.10.7 "Block Scaling") ----------------------
#
# 9.7.16.10.7: "(A * scale_A) * (B * scale_B) + D where scale_A and scale_B are matrices residing
# in Tensor Memory"; "Scale factors for A and B matrices need to be duplicated to all 32 lane
# partitions of tensor memory." 9.7.16.10.7.2 / .3 "Scale Factor A/B ID" (Figures 231-233 and
# 240-242): the scale factors of 32 consecutive rows (of A: rows of M; of B: columns of N) fill
# one 32-lane column of the partition, row r in lane r % 32 of column r // 32; each 32-bit word
# holds four 1-byte sub-columns, and the scale-factor ID selects "the byte offset in the Tensor
# Memory word" (1X), "the half word offset" (2X, ID 0 or 2), or all four bytes (4X, ID 0). So
# scale factor j of a row sits in byte (ID + j) of its word. This is the layout a
# tcgen05.cp.32x128b.warpx4 writes from a 32-row x 16-byte SMEM tile whose row r holds, in byte
# 4c + b, the scale of row 32c + r (CUTLASS's SM100 scale-factor atom, Triton's packed-block
# scale layout): the copy duplicates it into all four lane partitions.
#
# Which partition an MMA reads is our model of the duplication rule: the data path of lane
# partition q (the rows of D in lanes 32q..32q+31) reads partition q's copy, for its own rows of A
# and for every column of B. An mma whose scale factors were not duplicated thus computes with
# whatever the other partitions hold, as the hardware would (the ISA leaves it undefined).

SCALE_FACTOR_BYTES_PER_WORD = 4


def scale_factor_cells(rows: int, per_row: int, scale_id: int, partition: np.ndarray | int
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lane, column, byte) relative to the scale-factor taddr of scale factor j of row r, for
    r < rows and j < per_row, as lane partition `partition` reads it (an int, or an int array of
    shape (rows,) giving each row's partition). Three int64 arrays of shape (rows, per_row).

    `rows`: M of the CTA's A, or N of B; `per_row`: isa.scale_factors_per_row (1, 2 or 4);
    `scale_id`: the instruction descriptor's scale-factor A/B ID (isa.scale_id_error checks it).
    """
    if not 0 <= scale_id or scale_id + per_row > SCALE_FACTOR_BYTES_PER_WORD:
        raise ValueError(f"scale-factor ID {scale_id} leaves no room for {per_row} scale factor(s) in a 32-bit word")
    r = np.arange(rows)[:, None]
    part = np.asarray(partition).reshape(-1, 1) if np.ndim(partition) else np.asarray(partition)
    lane = np.broadcast_to(part * LANES_PER_WARP + r % LANES_PER_WARP, (rows, per_row))
    column = np.broadcast_to(r // LANES_PER_WARP, (rows, per_row))
    byte = np.broadcast_to(scale_id + np.arange(per_row)[None, :], (rows, per_row))
    return lane.astype(np.int64), column.astype(np.int64), byte.astype(np.int64)


def scale_factor_columns(rows: int) -> int:
    """TMEM columns the scale factors of `rows` rows (M of A, N of B) occupy from their taddr."""
    return -(-rows // LANES_PER_WARP)


# ---- alignment of TMEM addresses ----------------------------------------------------------
#
# What the ISA asks of the lane and the column of a TMEM address, use by use. "tcgen05.alloc"
# hands out columns (nCols a power of 2 from 32, isa.ncols_error); after that, no section we read
# states a column alignment for any address: not "tcgen05.ld" / "tcgen05.st" with 9.7.16.2.3
# "Data Movement Shape" (a warp reaches only its lane quarter, the 16-lane shapes start at lane 0
# or 16 of it), not 9.7.16.8.3 "tcgen05.cp" (the multicasts fill fixed quarters), not
# 9.7.16.10.5 / 9.7.16.2.2 "Data path layout organization" (D's rows in lanes: the M=64
# layouts use half of each quarter), not 9.7.16.10.7 "Block Scaling" with .2 / .3 "Scale Factor
# A/B ID" (the scale factors duplicated to all four 32-lane partitions; the ID selects bytes or
# half words within a 32-bit cell, not columns), not 9.7.16.10.9 "tcgen05.mma" (D, A in TMEM,
# scale_a, scale_b are taddr operands with no alignment clause). The one alignment stated is a
# lane one: 9.7.16.9.3 "tcgen05.shift", "The lane of the address operand taddr must be aligned
# to 32" (isa.SHIFT_LANE_ALIGNMENT). Triton's TensorMemoryAllocation aligns every buffer to 4
# columns; the ISA does not ask it. (Triton PR 10321 reports a misaligned-address fault for a
# .16x32bx2 message whose immediate half offset is odd: an offset rule of that shape, not of the
# base address; our 16x32bx2 offsets are checked by isa.footprint.)

TMEM_COLUMN_ALIGNMENT = 1
"""Columns a TMEM address of any tcgen05 use must be a multiple of: none is stated (see above)."""


def pair_scale_factor_rows(m: int, n: int, cta_group: int) -> tuple[int, int]:
    """(rows of scale_A, columns of scale_B) that each CTA's TMEM holds for one block-scaled mma.

    PTX ISA 9.7.16.10.7 "Block Scaling": scale_A is M x SFA_N (one row per row of A) and scale_B
    SFB_M x N (one column per column of B), "residing in Tensor Memory"; 9.7.16.10 and
    9.7.16.10.5: with .cta_group::2, A's and D's rows are split across the pair (each CTA's data
    path computes its M / 2 rows of D, in its own TMEM) while B is read from the shared memory
    of the current and the peer CTA, i.e. each half of D is a product with all N columns of B.
    Each CTA's tensor core thus reads, at the instruction's [taddr_sfa] and [taddr_sfb] in its
    own TMEM, scale_A of its own M / 2 rows and scale_B of all N columns. The ISA does not spell
    the split out; this is how CUTLASS's 2-SM block-scaled kernels lay them out (SFA partitioned
    by the pair's M like A, SFB loaded whole into each CTA through a cta_group::1 tiling of N).
    """
    return m // cta_group, n
