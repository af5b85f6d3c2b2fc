"""tcgen05.cp and tcgen05.shift: shapes, multicast qualifiers, decompression formats, TMEM footprints.

Sources: PTX ISA 9.7.16.2.3 "Data Movement Shape" (the .cp shapes and the implicit .31x256b of
.shift), 9.7.16.8.3 "tcgen05.cp" (multicast .warpx2::02_13 / .warpx2::01_23 / .warpx4, and the
.b8x16.b6x16_p32 / .b8x16.b4x16_p64 decompression), 9.7.16.8.4 "tcgen05.shift"; which shape takes
which multicast checked form by form with ptxas 13.0 (tests/test_ptxas_mma_legality.py) [ptxas].
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from tmem_dialect.isa.core import LANES_PER_WARP
from tmem_dialect.isa.operands import SUBBYTE_CHUNK_BYTES, SUBBYTE_CHUNK_ELEMENTS, TMEM_SUBBYTE_SHIFT


class CpShape(Enum):
    """`.shape` of tcgen05.cp: source rows x bits per row."""

    S128x256b = "128x256b"
    S4x256b = "4x256b"
    S128x128b = "128x128b"
    S64x128b = "64x128b"
    S32x128b = "32x128b"

    @property
    def rows(self) -> int:
        return int(self.value.split("x")[0])

    @property
    def row_bits(self) -> int:
        return int(self.value.split("x")[1].removesuffix("b"))

    @property
    def columns(self) -> int:
        """32-bit TMEM columns each destination lane receives."""
        return self.row_bits // 32


class CpMulticast(Enum):
    """Multicast qualifiers of tcgen05.cp (`.warpx2::02_13` etc.)."""

    WARPX2_02_13 = "warpx2::02_13"
    WARPX2_01_23 = "warpx2::01_23"
    WARPX4 = "warpx4"


class CpSourceFormat(Enum):
    """Decompression of the source: `.b8x16.b6x16_p32` or `.b8x16.b4x16_p64`."""

    B6x16_P32 = "b6x16_p32"
    B4x16_P64 = "b4x16_p64"

    @property
    def element_bits(self) -> int:
        return 6 if self is CpSourceFormat.B6x16_P32 else 4

    @property
    def payload_bytes(self) -> int:
        """Bytes of a 16-byte source chunk that hold its 16 elements (the rest is padding)."""
        return SUBBYTE_CHUNK_ELEMENTS * self.element_bits // 8


# shape -> the multicast it needs (None: it takes none) [ptxas]
_CP_MULTICAST: dict[CpShape, frozenset[CpMulticast | None]] = {
    CpShape.S128x256b: frozenset({None}),
    CpShape.S4x256b: frozenset({None}),
    CpShape.S128x128b: frozenset({None}),
    CpShape.S64x128b: frozenset({CpMulticast.WARPX2_02_13, CpMulticast.WARPX2_01_23}),
    CpShape.S32x128b: frozenset({CpMulticast.WARPX4}),
}


def cp_form_error(shape: CpShape, multicast: CpMulticast | None) -> str | None:
    legal = _CP_MULTICAST[shape]
    if multicast in legal:
        return None
    if multicast is None:
        names = " or ".join(f".{m.value}" for m in sorted(legal, key=lambda m: m.value))  # type: ignore[union-attr]
        return f"tcgen05.cp.{shape.value} needs a multicast qualifier ({names})"
    if legal == {None}:
        return f"tcgen05.cp.{shape.value} takes no multicast qualifier, got .{multicast.value}"
    names = " or ".join(f".{m.value}" for m in sorted(legal, key=lambda m: m.value))  # type: ignore[union-attr]
    return f"tcgen05.cp.{shape.value} takes {names}, not .{multicast.value}"


@dataclass(frozen=True)
class CpFootprint:
    """Where one tcgen05.cp writes, relative to taddr: (source row -> destination lanes), columns.

    `lanes[r]` lists the lanes (relative to taddr's lane) that receive source row r: one lane
    without multicast; with .warpx2 each row goes to two lane quarters, with .warpx4 to all four.
    """

    lanes: tuple[tuple[int, ...], ...]
    columns: int

    @property
    def lane_set(self) -> frozenset[int]:
        return frozenset(lane for row in self.lanes for lane in row)


def cp_footprint(shape: CpShape, multicast: CpMulticast | None) -> CpFootprint:
    """The footprint of a legal form (raises ValueError on an illegal one).

    - 128x256b, 128x128b: row r -> lane r.  4x256b: row r -> lane r (4 lanes).
    - 64x128b.warpx2::02_13: rows 0-31 -> quarters 0 and 2, rows 32-63 -> quarters 1 and 3;
      .warpx2::01_23: rows 0-31 -> quarters 0 and 1, rows 32-63 -> quarters 2 and 3.
    - 32x128b.warpx4: row r -> lane r of every quarter.
    """
    if err := cp_form_error(shape, multicast):
        raise ValueError(err)
    q = LANES_PER_WARP
    if multicast is None:
        lanes = tuple((r,) for r in range(shape.rows))
    elif multicast is CpMulticast.WARPX4:
        lanes = tuple(tuple(w * q + r for w in range(4)) for r in range(shape.rows))
    else:
        pairs = ((0, 2), (1, 3)) if multicast is CpMulticast.WARPX2_02_13 else ((0, 1), (2, 3))
        lanes = tuple(tuple(w * q + r % q for w in pairs[r // q]) for r in range(shape.rows))
    return CpFootprint(lanes, shape.columns)


def cp_mnemonic(
    shape: CpShape, cta_group: int, multicast: CpMulticast | None = None, source: CpSourceFormat | None = None
) -> str:
    """`tcgen05.cp.cta_group::N.<shape>{.<multicast>}{.b8x16.<source>}` (spelled as given)."""
    parts = [f"tcgen05.cp.cta_group::{cta_group}", shape.value]
    if multicast is not None:
        parts.append(multicast.value)
    if source is not None:
        parts += ["b8x16", source.value]
    return ".".join(parts)


# ---- decompression ----------------------------------------------------------------------------

# 9.7.16.9.1.1 / .2 "Optional Decompression": "A contiguous set of 16 elements of 4-bits each
# followed by 8 bytes of padding can be converted into 16 elements of 8-bits each"; "16 elements of
# 6-bits each followed by 4 bytes of padding is decompressed into 16 elements of 8-bits each". The
# source chunk is the TMA's .b4x16_p64 / .b6x16_p32 shared-memory form (5.5.1.1.1: sixteen
# contiguous elements, then 64 / 32 bits of padding "un-initialized"; isa.SUBBYTE_CHUNK_BYTES),
# so a chunk is 16 bytes on both sides and the shape's rows and bits are those of the copy
# without decompression. Element i (bits [b*i, b*i + b) of the little-endian chunk) lands in byte
# i, in the bits of its 8-bit TMEM container (isa.TMEM_SUBBYTE_SHIFT: the ISA's Figures
# 195/197/198 only; our reading, sources there).


def decompress(chunks: np.ndarray, source: CpSourceFormat) -> np.ndarray:
    """The 16 destination bytes of each 16-byte source chunk: uint8 (..., 16) -> uint8 (..., 16)."""
    chunks = np.asarray(chunks, dtype=np.uint8)
    assert chunks.shape[-1] == SUBBYTE_CHUNK_BYTES, chunks.shape
    b = source.element_bits
    bits = np.unpackbits(chunks, axis=-1, bitorder="little")[..., : SUBBYTE_CHUNK_ELEMENTS * b]
    fields = bits.reshape(*chunks.shape[:-1], SUBBYTE_CHUNK_ELEMENTS, b).astype(np.uint8)
    codes = (fields << np.arange(b, dtype=np.uint8)).sum(axis=-1, dtype=np.uint8)
    return (codes << np.uint8(TMEM_SUBBYTE_SHIFT[b])).astype(np.uint8)


# ---- tcgen05.shift ----------------------------------------------------------------------------

# 9.7.16.9.3 "tcgen05.shift": "initiates the shifting of 32-byte elements downwards across all
# the rows, except the last, by one row. [...] The lane of the address operand taddr must be
# aligned to 32." The shape table (9.7.16.2.3) names its implicit shape .31x256b: 31 rows of
# 256 bits (8 columns) move. We read the matrix as the 32 lanes from taddr's lane (one lane
# partition, "for a warp"): row r goes to row r + 1 for r < 31, the last row's old contents are
# lost, and nothing is written to row 0 (it keeps its value).
SHIFT_SHAPE = "31x256b"
SHIFT_COLUMNS = 8
SHIFT_LANES = LANES_PER_WARP  # the matrix: 31 moving rows + the row they move into
SHIFT_LANE_ALIGNMENT = LANES_PER_WARP  # "The lane of the address operand taddr must be aligned to 32"


def shift_taddr_error(taddr_lane: int) -> str | None:
    if taddr_lane % SHIFT_LANE_ALIGNMENT:
        return (f"the lane of a tcgen05.shift address must be aligned to {SHIFT_LANE_ALIGNMENT}, "
                f"got lane {taddr_lane}")
    return None


def shift_moves() -> tuple[tuple[int, int], ...]:
    """(source row, destination row) pairs of one shift, relative to taddr's lane."""
    return tuple((r, r + 1) for r in range(SHIFT_LANES - 1))


def shift_mnemonic(cta_group: int) -> str:
    return f"tcgen05.shift.cta_group::{cta_group}.down"
