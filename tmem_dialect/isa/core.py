"""TMEM geometry and tcgen05.ld/st: shapes, legal nums, register counts, fragment maps, nCols, PTX targets.

This module is the single source of truth for the static facts of docs/tmem_facts.md.
Verifiers, passes, the lowering and the interpreter ask it; none of them re-derive these facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

import numpy as np

TMEM_LANES = 128
TMEM_COLUMNS = 512
CELL_BITS = 32  # one TMEM cell, one register of tcgen05.ld/st
WARP_SIZE = 32
LANES_PER_WARP = 32
WARPS_PER_WARPGROUP = 4
CTA_GROUPS = (1, 2)
NUMS = (1, 2, 4, 8, 16, 32, 64, 128)
MAX_REGS_PER_THREAD = 128
NCOLS_MIN = 32
NCOLS_MAX = TMEM_COLUMNS
LANE_SHIFT = 16
COLUMN_MASK = 0xFFFF


class Shape(Enum):
    """The data-movement shapes of tcgen05.ld/st (`.shape` qualifier)."""

    S16x64b = "16x64b"
    S16x128b = "16x128b"
    S16x256b = "16x256b"
    S32x32b = "32x32b"
    S16x32bx2 = "16x32bx2"

    @property
    def lanes(self) -> int:
        """TMEM lanes one access of this shape covers (from its own base)."""
        return 32 if self is Shape.S32x32b else 16

    @property
    def regs_per_num(self) -> int:
        """k in `registers per thread = num * k`."""
        return _REGS_PER_NUM[self]

    @property
    def cols_per_num(self) -> int:
        """32-bit columns one repetition (x1) covers, before pack::16b doubles it."""
        return _COLS_PER_NUM[self]

    @property
    def needs_half_split_offset(self) -> bool:
        """16x32bx2 takes the immediate immHalfSplitoff; every other shape must not."""
        return self is Shape.S16x32bx2

    @property
    def bits(self) -> int:
        """Bits per lane that one x1 access moves: the size PTX spells after the lane count."""
        return self.cols_per_num * 32


_REGS_PER_NUM = {
    Shape.S32x32b: 1,
    Shape.S16x64b: 1,
    Shape.S16x32bx2: 1,
    Shape.S16x128b: 2,
    Shape.S16x256b: 4,
}
_COLS_PER_NUM = {
    Shape.S32x32b: 1,
    Shape.S16x64b: 2,
    Shape.S16x128b: 4,
    Shape.S16x256b: 8,
    Shape.S16x32bx2: 1,
}

# Widest first: the order in which lane assignment tries shapes (TVM TIRx picks the widest match).
SHAPES_WIDEST_FIRST = (
    Shape.S16x256b,
    Shape.S16x128b,
    Shape.S16x64b,
    Shape.S32x32b,
    Shape.S16x32bx2,
)


def shape_from_ptx(text: str) -> Shape:
    """`"16x64b"` -> Shape.S16x64b; raises KeyError for an unknown spelling."""
    return _SHAPE_BY_PTX[text]


_SHAPE_BY_PTX = {s.value: s for s in Shape}


# ---------------------------------------------------------------------------------------------
# Static legality
# ---------------------------------------------------------------------------------------------


def regs_per_thread(shape: Shape, num: int) -> int:
    """Registers each thread supplies or receives; pack/unpack does not change the count."""
    return num * shape.regs_per_num


def num_error(shape: Shape, num: int) -> str | None:
    """Why `num` is illegal for `shape`, or None when it is legal."""
    if num not in NUMS:
        return f"num must be one of x1, x2, x4, ..., x128, got x{num}"
    regs = regs_per_thread(shape, num)
    if regs > MAX_REGS_PER_THREAD:
        return (
            f"shape {shape.value} with num x{num} needs {regs} registers per thread "
            f"(num x {shape.regs_per_num}), more than the limit of {MAX_REGS_PER_THREAD}"
        )
    return None


def legal_nums(shape: Shape) -> tuple[int, ...]:
    return tuple(n for n in NUMS if num_error(shape, n) is None)


def ncols_error(ncols: int) -> str | None:
    """Why `ncols` is not a legal static tcgen05.alloc/dealloc column count, or None."""
    if ncols < NCOLS_MIN or ncols > NCOLS_MAX or ncols & (ncols - 1):
        return f"nCols must be a power of 2 in [{NCOLS_MIN}, {NCOLS_MAX}], got {ncols}"
    return None


def cta_group_error(cta_group: int) -> str | None:
    if cta_group not in CTA_GROUPS:
        return f"cta_group must be 1 or 2, got {cta_group}"
    return None


def half_split_offset_error(shape: Shape, offset: int | None) -> str | None:
    if shape.needs_half_split_offset and offset is None:
        return "shape 16x32bx2 requires the half-split offset (immHalfSplitoff)"
    if not shape.needs_half_split_offset and offset is not None:
        return f"the half-split offset is only allowed with shape 16x32bx2, not {shape.value}"
    # Any immediate is legal (ptxas accepts negative and wide ones): the add wraps on the
    # 32-bit address, which access_cells and footprint model.
    return None


# ---------------------------------------------------------------------------------------------
# TMEM addresses and the lane quarters of warps
# ---------------------------------------------------------------------------------------------


def make_taddr(lane: int, column: int) -> int:
    return ((lane << LANE_SHIFT) + column) & 0xFFFFFFFF


def taddr_lane(taddr: int) -> int:
    return (taddr >> LANE_SHIFT) & 0xFFFF


def taddr_column(taddr: int) -> int:
    return taddr & COLUMN_MASK


def taddr_step(offset: int) -> tuple[int, int]:
    """A constant added to a TMEM address, as a signed (lanes, columns) step.

    The add is on the whole 32-bit address, so the constant is a signed 32-bit distance; its
    column part is taken in [-32768, 32768) and the rest is lanes: -1 is one column left (not
    lane 65535, column 65535), -1048576 is 16 lanes up, 65535 is one lane down and a column left.
    """
    off = ((offset + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
    lanes, columns = off >> LANE_SHIFT, off & COLUMN_MASK
    if columns > COLUMN_MASK >> 1:
        columns -= COLUMN_MASK + 1
        lanes += 1
    return lanes, columns


def warp_lane_base(warp: int) -> int:
    """First TMEM lane warp `warp` of the CTA may access: 32 * (warp % 4)."""
    return LANES_PER_WARP * (warp % WARPS_PER_WARPGROUP)


def warp_taddr_offset(warp: int) -> int:
    """What warp `warp` adds to the allocated base address: (32 * (warp % 4)) << 16."""
    return warp_lane_base(warp) << LANE_SHIFT


def lane_quarter(warp: int) -> range:
    base = warp_lane_base(warp)
    return range(base, base + LANES_PER_WARP)


def slab_lane_offsets(shape: Shape) -> tuple[int, ...]:
    """Lanes of a warp's quarter at which an access of `shape` may start: 0, and 16 for 16-lane shapes."""
    return tuple(range(0, LANES_PER_WARP, shape.lanes))


# ---------------------------------------------------------------------------------------------
# Fragment maps
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fragment:
    """Where each (thread, register, half) of one tcgen05.ld/st lands in TMEM.

    `lane[t, r, h]` and `column[t, r, h]` are relative to the thread's base address;
    `upper_half[t]` says the thread's base is `taddr + immHalfSplitoff` (16x32bx2, t >= 16)
    instead of `taddr`. h indexes the 16-bit halves under pack/unpack (h = 0 is the low half);
    without packing the last axis has length 1.
    """

    shape: Shape
    num: int
    packed: bool
    lane: np.ndarray
    column: np.ndarray
    upper_half: np.ndarray

    @property
    def regs(self) -> int:
        return self.lane.shape[1]

    @property
    def columns(self) -> int:
        """Columns the access spans from its base (per half for 16x32bx2)."""
        return self.num * self.shape.cols_per_num * (2 if self.packed else 1)


def fragment_coordinate(shape: Shape, t: int, r: int) -> tuple[int, int]:
    """(lane, column) of thread t, register r, relative to that thread's base address.

    These are the formulas of TMEM_FACTS.md "Fragment mappings"; `.num` repetition is
    already included because r runs over all num * k registers.
    """
    if shape is Shape.S32x32b:
        return t, r
    if shape is Shape.S16x64b:
        return (t >> 2) + 8 * (t & 1), ((t >> 1) & 1) + 2 * r
    if shape is Shape.S16x128b:
        return (t >> 2) + 8 * (r & 1), (t & 3) + 4 * (r >> 1)
    if shape is Shape.S16x256b:
        return (t >> 2) + 8 * ((r >> 1) & 1), (r & 1) + 2 * (t & 3) + 8 * (r >> 2)
    if shape is Shape.S16x32bx2:
        return t & 15, r
    raise AssertionError(shape)


@cache
def fragment(shape: Shape, num: int, packed: bool = False) -> Fragment:
    """The whole fragment map of one access, as read-only numpy arrays."""
    regs = regs_per_thread(shape, num)
    lane = np.empty((WARP_SIZE, regs), dtype=np.int64)
    column = np.empty((WARP_SIZE, regs), dtype=np.int64)
    for t in range(WARP_SIZE):
        for r in range(regs):
            lane[t, r], column[t, r] = fragment_coordinate(shape, t, r)
    if packed:
        lane = np.stack([lane, lane], axis=-1)
        column = np.stack([2 * column, 2 * column + 1], axis=-1)
    else:
        lane = lane[..., None]
        column = column[..., None]
    upper = np.zeros(WARP_SIZE, dtype=bool)
    if shape.needs_half_split_offset:
        upper[16:] = True
    for a in (lane, column, upper):
        a.setflags(write=False)
    return Fragment(shape, num, packed, lane, column, upper)


def access_cells(
    taddr: int, shape: Shape, num: int, packed: bool = False, offset: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Absolute (lane, column) arrays, each [32 threads, regs, halves], of one warp's access.

    `taddr` is the address every thread of the warp passes (the ISA requires it uniform).
    """
    frag = fragment(shape, num, packed)
    base = np.where(frag.upper_half, taddr + (offset or 0), taddr) & 0xFFFFFFFF
    base_lane = (base >> LANE_SHIFT)[:, None, None]
    base_col = (base & COLUMN_MASK)[:, None, None]
    return base_lane + frag.lane, base_col + frag.column


@dataclass(frozen=True)
class Footprint:
    """The TMEM rectangle(s) an access touches, relative to its address: lane ranges x columns."""

    lane_ranges: tuple[tuple[int, int], ...]
    column_ranges: tuple[tuple[int, int], ...]


def footprint(
    shape: Shape, num: int, packed: bool = False, offset: int | None = None
) -> Footprint:
    """Relative lanes and columns an access covers, as half-open ranges (static analysis form).

    For 16x32bx2 the second range is the upper half at `taddr + offset`, expressed in
    (lane, column) of that sum when the offset stays within the column field. The add is on
    the 32-bit address, so the offset is a signed 32-bit distance, split into signed lane and
    column parts (-1048576 is 16 lanes up, -64 is 64 columns left).
    """
    cols = num * shape.cols_per_num * (2 if packed else 1)
    if not shape.needs_half_split_offset:
        return Footprint(((0, shape.lanes),), ((0, cols),))
    lane_off, col_off = taddr_step(offset or 0)
    return Footprint(
        ((0, 16), (lane_off, lane_off + 16)),
        ((0, cols), (col_off, col_off + cols)),
    )


# ---------------------------------------------------------------------------------------------
# PTX targets
# ---------------------------------------------------------------------------------------------

DEFAULT_PTX_VERSION = (8, 6)
DEFAULT_PTX_ARCH = "sm_100a"
MAX_PTX_VERSION = (9, 0)  # the newest ptxas 13.0 accepts
# The minimum PTX ISA version at which each architecture can use tcgen05 [ptxas].
TCGEN05_ARCHS = {
    "sm_100a": (8, 6),
    "sm_100f": (8, 8),
    "sm_103a": (8, 8),
    "sm_103f": (8, 8),
    "sm_110a": (9, 0),
    "sm_110f": (9, 0),
}


def parse_ptx_version(text: str) -> tuple[int, int]:
    """`"8.6"` -> (8, 6); raises ValueError on malformed text."""
    major, sep, minor = text.partition(".")
    if not sep or not major.isdigit() or not minor.isdigit():
        raise ValueError(f"a PTX version looks like 8.6, got '{text}'")
    return int(major), int(minor)


def ptx_target_error(version: tuple[int, int], arch: str) -> str | None:
    if arch not in TCGEN05_ARCHS:
        return f"target {arch} has no tcgen05 instructions (use one of {', '.join(TCGEN05_ARCHS)})"
    need = TCGEN05_ARCHS[arch]
    if version < need:
        return f"target {arch} needs PTX ISA {need[0]}.{need[1]} or later, got {version[0]}.{version[1]}"
    return None


# ---------------------------------------------------------------------------------------------
# PTX spelling of the tcgen05 instructions (modifier order as LLVM's NVPTX backend prints it)
# ---------------------------------------------------------------------------------------------

PACK_16B = "pack::16b"
UNPACK_16B = "unpack::16b"


def ldst_mnemonic(op: str, shape: Shape, num: int, packing: str | None = None) -> str:
    """`tcgen05.{ld|st}.sync.aligned.<shape>.x<num>[.pack::16b|.unpack::16b].b32`.

    `packing` is PACK_16B, UNPACK_16B or None; it is spelled as given (legality is
    `packing_error`'s job), so a checker can also spell the forms ptxas rejects.
    """
    qualifiers = [f"tcgen05.{op}.sync.aligned", shape.value, f"x{num}"]
    if packing is not None:
        qualifiers.append(packing)
    qualifiers.append("b32")
    return ".".join(qualifiers)


def packing_error(op: str, packing: str | None) -> str | None:
    """pack::16b is legal only on tcgen05.ld, unpack::16b only on tcgen05.st [ptxas]."""
    legal = {"ld": PACK_16B, "st": UNPACK_16B}[op]
    if packing is not None and packing != legal:
        return f"{packing} is not valid on tcgen05.{op} (it takes {legal})"
    return None


def alloc_mnemonic(cta_group: int, shared: bool = True) -> str:
    """`tcgen05.alloc.cta_group::N.sync.aligned[.shared::cta].b32` (no state space: generic address)."""
    space = ".shared::cta" if shared else ""
    return f"tcgen05.alloc.cta_group::{cta_group}.sync.aligned{space}.b32"


def dealloc_mnemonic(cta_group: int) -> str:
    return f"tcgen05.dealloc.cta_group::{cta_group}.sync.aligned.b32"


def relinquish_mnemonic(cta_group: int) -> str:
    return f"tcgen05.relinquish_alloc_permit.cta_group::{cta_group}.sync.aligned"


def wait_mnemonic(load: bool) -> str:
    """`tcgen05.wait::ld.sync.aligned` / `tcgen05.wait::st.sync.aligned`."""
    return f"tcgen05.wait::{'ld' if load else 'st'}.sync.aligned"


def fence_mnemonic(before: bool) -> str:
    """`tcgen05.fence::before_thread_sync` / `::after_thread_sync` (no .sync.aligned [ptxas])."""
    return f"tcgen05.fence::{'before' if before else 'after'}_thread_sync"


# ---------------------------------------------------------------------------------------------
# Limits of an sm_100 CTA (CUDA C++ Programming Guide, "Technical Specifications per Compute
# Capability", 10.0; ptxas 13.0 reports the shared limit as 0x38c00 bytes).
# ---------------------------------------------------------------------------------------------

MAX_THREADS_PER_CTA = 1024  # PTX ISA, "Thread Hierarchy": also conventions.MAX_THREADS_PER_BLOCK
REGISTERS_PER_SM = 65536  # 32-bit registers; a CTA's threads share them
MAX_SHARED_BYTES_PER_CTA = 232448  # 227 KiB of static shared memory
MAX_GLOBAL_ALIGNMENT = 1 << 32  # exclusive: ptxas rejects `.align 4294967296` ("Constant overflow")
