"""The tensor core of the interpreter: instruction descriptors, D = A·B (+D) in one numpy call, D in its TMEM layout.

Numerics (docs/interpreter.md, "Tensor core numerics"):
- floating-point kinds: A and B decode exactly to float64; one matmul forms every dot product of
  the instruction in float64; the old D (f32) is added in float64; the sum is rounded to the D
  format (f32 or f16) once, round-to-nearest-even. Products of <= 11-bit significands are exact
  in float64, so the only float64 rounding is in the sums.
- block-scaled kinds multiply every A and B element by the scale factor of its K-block before
  the matmul (exact: scales are powers of two (ue8m0) or 4-bit significands (ue4m3)). The scale
  factors are read from TMEM in the layout of isa.scale_factor_cells, each lane partition's rows
  of D with that partition's copy (`read_scale_factors`).
- integer kind i8: int64 products and sums (exact), plus D, then wrap to s32 (or clamp with the
  descriptor's saturate bit): bit-exact.
"""

from __future__ import annotations

import numpy as np

from tmem_dialect import isa
from tmem_dialect.interpreter import formats
from tmem_dialect.interpreter import smem_descriptor as sd
from tmem_dialect.interpreter.smem_descriptor import DescriptorError


def decode_instr(value: int, kind: isa.Kind) -> isa.InstrDescriptor:
    """isa.decode_instr_descriptor, with its ValueError as a DescriptorError."""
    try:
        return isa.decode_instr_descriptor(kind, value & 0xFFFF_FFFF)
    except ValueError as e:
        raise DescriptorError(str(e)) from None


def decode_operand(codes: np.ndarray, t: isa.DType) -> np.ndarray:
    """Operand values: int64 for integer formats, float64 otherwise."""
    return formats.decode_int(codes, t.value) if formats.is_integer(t.value) else formats.decode(codes, t.value)


def expand_scales(scales: np.ndarray, k: int) -> np.ndarray:
    """Per-element scale factors of a (rows, k / block) array of per-block scales."""
    block = k // scales.shape[1]
    return np.repeat(scales, block, axis=1)


def multiply(idesc: isa.InstrDescriptor, a: np.ndarray, b: np.ndarray, d: np.ndarray | None,
             scale_a: np.ndarray | None = None, scale_b: np.ndarray | None = None,
             scale_input_d: int | None = None) -> np.ndarray:
    """D = A·B^T (+ D): a (M', K) and b (N, K) decoded operands, d (M', N) in the D format or None.

    Returns float32 / float16 for float D formats and int32 for s32. `scale_a`/`scale_b`: the
    decoded per-block scale factors (M', K/block) and (N, K/block) of the block-scaled kinds.
    `scale_input_d`: the .kind::f16/tf32 scale-input-d immediate (D is scaled by 2^-value).
    """
    if idesc.d_type is isa.DType.S32:
        acc = a.astype(np.int64) @ b.astype(np.int64).T
        if d is not None:
            acc = acc + d.astype(np.int64)
        if idesc.saturate:
            acc = np.clip(acc, -(1 << 31), (1 << 31) - 1)
        return (acc & 0xFFFF_FFFF).astype(np.uint32).view(np.int32)  # two's-complement wrap
    a = a.astype(np.float64, copy=True)
    b = b.astype(np.float64, copy=True)
    if idesc.negate_a:
        a = -a
    if idesc.negate_b:
        b = -b
    if scale_a is not None:
        a *= expand_scales(scale_a, a.shape[1])
    if scale_b is not None:
        b *= expand_scales(scale_b, b.shape[1])
    acc = a @ b.T
    if d is not None:
        old = d.astype(np.float64)
        if scale_input_d:
            old = np.ldexp(old, -scale_input_d)
        acc = acc + old
    out = np.float16 if idesc.d_type is isa.DType.F16 else np.float32
    with np.errstate(over="ignore", invalid="ignore"):
        return acc.astype(out)


def multiply_block_scaled(idesc: isa.InstrDescriptor, a: np.ndarray, b: np.ndarray, old: np.ndarray | None,
                          partition: np.ndarray, scale_a: np.ndarray, scale_b: np.ndarray) -> np.ndarray:
    """`multiply` for a block-scaled kind: row r of D (in lane partition partition[r]) with its
    row of scale_a and that partition's copy scale_b[partition[r]] (isa.scale_factor_cells)."""
    out = np.empty((a.shape[0], b.shape[0]), dtype=np.float32)
    for q in np.unique(partition):
        rows = np.flatnonzero(partition == q)
        out[rows] = multiply(idesc, a[rows], b, None if old is None else old[rows], scale_a[rows], scale_b[q])
    return out


# ---- D in TMEM ---------------------------------------------------------------------------

def accumulator_flat(taddr: int, m: int, n: int, cta_group: int, ws: bool = False) -> np.ndarray:
    """Flat TMEM cell index (lane * 512 + column) of every element of one CTA's share of D."""
    lanes, cols = isa.accumulator_layout(m, cta_group, n, ws)
    lanes = lanes + isa.taddr_lane(taddr)
    cols = cols + isa.taddr_column(taddr)
    return lanes * isa.TMEM_COLUMNS + cols


def to_cells(d: np.ndarray) -> np.ndarray:
    """The 32-bit cell contents of D values (f16 in the low half of its cell)."""
    if d.dtype == np.float16:
        return d.view(np.uint16).astype(np.uint32)
    return d.astype(d.dtype, copy=False).view(np.uint32)


def from_cells(cells: np.ndarray, d_type: isa.DType) -> np.ndarray:
    if d_type is isa.DType.F32:
        return cells.view(np.float32)
    if d_type is isa.DType.S32:
        return cells.view(np.int32)
    if d_type is isa.DType.F16:
        return (cells & 0xFFFF).astype(np.uint16).view(np.float16)
    raise ValueError(d_type)


def a_from_tmem_flat(taddr: int, m: int, k: int, elem_bits: int, cta_group: int) -> tuple[np.ndarray, np.ndarray]:
    """(flat cell, bit shift) of every A element (r, kk) read from TMEM: the rows in D's layout
    for M, the K elements packed little-endian into consecutive 32-bit columns."""
    lanes, _ = isa.accumulator_layout(m, cta_group, 1)
    bit = np.arange(k)[None, :] * elem_bits
    lanes = lanes[:, :1] + isa.taddr_lane(taddr)
    cols = bit // 32 + isa.taddr_column(taddr)
    return lanes * isa.TMEM_COLUMNS + cols, np.broadcast_to(bit % 32, (lanes.shape[0], k))


# ---- one whole instruction ----------------------------------------------------------------




def read_smem_operand(read, desc_value: int, kind: isa.Kind, t: isa.DType, rows: int, k: int,
                      mn_major: bool) -> np.ndarray:
    """Decoded values (rows, k) of an A or B operand that an SMEM descriptor names; `read` maps
    byte addresses to uint8 values of the CTA's shared memory."""
    desc = sd.decode(desc_value)
    container = isa.smem_container_bits(kind, t)
    addresses, shifts = sd.element_addresses(desc, rows, k, container, k_major=not mn_major)
    if isa.smem_packed_with_padding(kind, t):
        return decode_operand(sd.read_packed_subbyte(read, addresses, t.bits), t)
    return decode_operand(sd.read_codes(read, addresses, shifts, container, min(t.bits, container)), t)


def read_tmem_operand(cells: np.ndarray, taddr: int, kind: isa.Kind, t: isa.DType, m: int, k: int,
                      cta_group: int) -> np.ndarray:
    """Decoded values (M/cta_group, k) of an A operand in TMEM: packed along the columns in
    containers of isa.tmem_container_bits, a 4-/6-bit code at isa.TMEM_SUBBYTE_SHIFT of its byte."""
    container = isa.tmem_container_bits(kind, t)
    flat, shift = a_from_tmem_flat(taddr, m, k, container, cta_group)
    if container > t.bits:
        shift = shift + isa.TMEM_SUBBYTE_SHIFT[t.bits]
    mask = np.uint32((1 << t.bits) - 1 if t.bits < 32 else 0xFFFF_FFFF)
    return decode_operand((cells[flat] >> shift.astype(np.uint32)) & mask, t)


def read_scale_factors(cells: np.ndarray, taddr: int, rows: int, per_row: int, scale_id: int,
                       partition: np.ndarray | int, t: isa.DType) -> tuple[np.ndarray, np.ndarray]:
    """Decoded scale factors (rows, per_row) of an A or B operand at `taddr`, as lane partition(s)
    `partition` read them (isa.scale_factor_cells), and the flat TMEM cells they come from."""
    try:
        lane, col, byte = isa.scale_factor_cells(rows, per_row, scale_id, partition)
    except ValueError as e:
        raise DescriptorError(str(e)) from None
    lane = lane + isa.taddr_lane(taddr)
    col = col + isa.taddr_column(taddr)
    if lane.max() >= isa.TMEM_LANES or col.max() >= isa.TMEM_COLUMNS:
        raise DescriptorError(f"the scale factors at lane {isa.taddr_lane(taddr)}, column {isa.taddr_column(taddr)} "
                              f"run past TMEM (lane {int(lane.max())}, column {int(col.max())})")
    flat = lane * isa.TMEM_COLUMNS + col
    codes = (cells[flat] >> (8 * byte).astype(np.uint32)) & np.uint32(0xFF)
    return formats.decode(codes, t.value), flat
