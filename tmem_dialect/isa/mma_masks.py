"""tcgen05.mma's masks and buffers: disable-output-lane, the .ws zero-column mask descriptor, the .ws B collector buffers.

Sources (PTX ISA 9.0, section 9.7.16 "TensorCore 5th Generation Family Instructions"):
- 9.7.16.10.9.1 / .2 "tcgen05.mma" / "tcgen05.mma.sp": "The vector operand disable-output-lane
  specifies the lane(s) in the Tensor Memory that should be not be updated with the resultant
  matrix D. Elements of the vector operand disable-output-lane forms a mask where each bit
  corresponds to a lane of the Tensor Memory, with least significant bit of the first element of
  the vector (leftmost in syntax) corresponding to the lane 0 of the Tensor Memory. If a bit in
  the mask is 1, then the corresponding lane in the Tensor Memory for the resultant matrix D will
  not be updated." The vector has 4 elements with .cta_group::1 and 8 with .cta_group::2;
- 9.7.16.4.3 "Zero-Column Mask Descriptor" (Table 45, the sub-mask tables and Examples 1-4);
- 9.7.16.10.9.3 / .4 "tcgen05.mma.ws" / "tcgen05.mma.ws.sp": the zero-column mask operand, and
  `.collector::bN::{fill, use, lastuse, discard}` with N in 0..3, default `.collector::b0::discard`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from tmem_dialect.isa.core import TMEM_LANES

# ---- disable-output-lane ------------------------------------------------------------------


def disabled_lanes(words, cta_group: int) -> np.ndarray:
    """(cta_group, 128) bools: lane l of the pair's CTA c keeps its old D when set.

    Bit b of element w is TMEM lane 32 * w + b (9.7.16.10.9.1). With .cta_group::2 the 256 bits
    name 256 lanes; the ISA does not say which CTA's lanes the second four elements are. We read
    elements 0-3 as the lanes of the pair's even CTA and 4-7 as the odd CTA's, the order in which
    D's rows are split across the pair (rows 0-127 of M = 256 in the even CTA, Layout A).
    """
    words = np.asarray(words, dtype=np.int64).reshape(-1) & 0xFFFF_FFFF
    if words.size != 4 * cta_group:
        raise ValueError(f"disable-output-lane with cta_group::{cta_group} has {4 * cta_group} elements, got {words.size}")
    bits = (words[:, None] >> np.arange(32)[None, :]) & 1
    return bits.reshape(cta_group, TMEM_LANES).astype(bool)


# ---- zero-column mask descriptor (9.7.16.4.3) ---------------------------------------------

# (lo, width) of each field of the 64-bit descriptor (Table 45)
ZERO_COLUMN_FIELDS: dict[str, tuple[int, int]] = {
    "start_count_0": (0, 8),
    "start_count_1": (8, 8),
    "start_count_2": (16, 8),
    "start_count_3": (24, 8),
    "first_span_0": (32, 1),
    "first_span_1": (33, 1),
    "first_span_2": (34, 1),
    "first_span_3": (35, 1),
    "reserved": (36, 3),
    "non_zero_mask": (39, 1),
    "skip_span": (40, 8),
    "use_span": (48, 8),
    "column_shift": (56, 6),
}
# "Max shift amount = 16 for M=32, Max shift amount = 32 otherwise"
ZERO_COLUMN_MAX_SHIFT = {32: 16}
ZERO_COLUMN_MAX_SHIFT_DEFAULT = 32
# M -> number of sub-masks ("Zero-Column Mask breakup": M = 128 one, 64 two, 32 four)
ZERO_COLUMN_SUBMASKS = {128: 1, 64: 2, 32: 4}


@dataclass(frozen=True)
class ZeroColumnMask:
    """The fields of a zero-column mask descriptor (9.7.16.4.3, Table 45)."""

    start_counts: tuple[int, int, int, int]
    first_spans: tuple[int, int, int, int]
    non_zero_mask: bool
    skip_span: int  # the field: (columns of a run of 1s) - 1
    use_span: int  # the field: (columns of a run of 0s) - 1
    column_shift: int
    reserved: int = 0

    @classmethod
    def decode(cls, value: int) -> ZeroColumnMask:
        def get(name: str) -> int:
            lo, width = ZERO_COLUMN_FIELDS[name]
            return (value >> lo) & ((1 << width) - 1)

        return cls(
            start_counts=tuple(get(f"start_count_{i}") for i in range(4)),  # type: ignore[arg-type]
            first_spans=tuple(get(f"first_span_{i}") for i in range(4)),  # type: ignore[arg-type]
            non_zero_mask=bool(get("non_zero_mask")),
            skip_span=get("skip_span"),
            use_span=get("use_span"),
            column_shift=get("column_shift"),
            reserved=get("reserved"),
        )

    def encode(self) -> int:
        v = 0
        for i in range(4):
            v |= (self.start_counts[i] & 0xFF) << ZERO_COLUMN_FIELDS[f"start_count_{i}"][0]
            v |= (self.first_spans[i] & 1) << ZERO_COLUMN_FIELDS[f"first_span_{i}"][0]
        v |= int(self.non_zero_mask) << ZERO_COLUMN_FIELDS["non_zero_mask"][0]
        v |= (self.skip_span & 0xFF) << ZERO_COLUMN_FIELDS["skip_span"][0]
        v |= (self.use_span & 0xFF) << ZERO_COLUMN_FIELDS["use_span"][0]
        v |= (self.column_shift & 0x3F) << ZERO_COLUMN_FIELDS["column_shift"][0]
        return v


def zero_column_mask_error(desc: ZeroColumnMask, m: int) -> str | None:
    """What Table 45 forbids: reserved bits 36-38 set, a column shift past its maximum, an M
    without a sub-mask breakup (.ws has M = 32, 64, 128)."""
    if m not in ZERO_COLUMN_SUBMASKS:
        return f"the zero-column mask has no sub-mask breakup for M = {m} (M is 32, 64 or 128)"
    if desc.reserved:
        return "bits 36-38 of the zero-column mask descriptor are reserved (must be 0)"
    limit = ZERO_COLUMN_MAX_SHIFT.get(m, ZERO_COLUMN_MAX_SHIFT_DEFAULT)
    if desc.column_shift > limit:
        return f"the zero-column mask's column shift is at most {limit} for M = {m}, got {desc.column_shift}"
    return None


def zero_columns(desc: ZeroColumnMask, m: int, n: int) -> np.ndarray:
    """(n,) bools: column j of B reads as zeros when set (9.7.16.4.3).

    The mask is `ZERO_COLUMN_SUBMASKS[m]` sub-masks of N / count bits, sub-mask i covering columns
    [i*N/count, (i+1)*N/count) with First Span fs_i and Start Count sc_i. Each is the periodic
    pattern that starts with a run of fs_i's value: runs of (skip_span + 1) 1s and (use_span + 1)
    0s alternating, its first sc_i bits dropped (bit j of mask i is bit j + sc_i of the pattern).
    This is what Examples 2-4 generate; the table's descriptions of Skip Span ("columns where B
    matrix is used") and Use Span ("columns where 0s are used") read the other way round, but every
    example has runs of Skip Span + 1 ones and Use Span + 1 zeros, as the names say. With
    Non-Zero Mask 0 the mask is all zeros (Example 1).
    """
    if not desc.non_zero_mask:
        return np.zeros(n, dtype=bool)
    count = ZERO_COLUMN_SUBMASKS[m]
    size = n // count
    ones, zeros = desc.skip_span + 1, desc.use_span + 1
    period = ones + zeros
    out = np.empty(n, dtype=bool)
    j = np.arange(size)
    for i in range(count):
        phase = (j + desc.start_counts[i]) % period
        # the pattern starts with the run of first_span's value
        first = ones if desc.first_spans[i] else zeros
        in_first_run = phase < first
        out[i * size:(i + 1) * size] = in_first_run if desc.first_spans[i] else ~in_first_run
    return out


# ---- .ws collector buffers for B (9.7.16.10.9.3) -------------------------------------------

COLLECTOR_B_BUFFERS = 4  # ::b0 .. ::b3


class CollectorUsage(Enum):
    """`.collector::bN::op` of tcgen05.mma.ws (for B), and `.collector::a::op` of tcgen05.mma (for A)."""

    FILL = "fill"  # B read from memory, and filled into buffer N
    USE = "use"  # B read from buffer N: "requires a previous fill ... to be still valid"
    LASTUSE = "lastuse"  # B read from buffer N, whose contents may then be discarded
    DISCARD = "discard"  # B read from memory; buffer N's contents may be discarded (the default)

    @property
    def reads_buffer(self) -> bool:
        return self in (CollectorUsage.USE, CollectorUsage.LASTUSE)

    @property
    def buffer_valid_after(self) -> bool | None:
        """Whether the buffer holds a valid B after the op: True (fill), False (lastuse,
        discard), None (use: unchanged)."""
        return {CollectorUsage.FILL: True, CollectorUsage.USE: None}.get(self, False)
