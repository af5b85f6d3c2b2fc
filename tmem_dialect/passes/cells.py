"""Which TMEM cells accesses touch: footprint rectangles, overlap at a known address distance, per-warp lane/column boxes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from tmem_dialect import isa
from tmem_dialect.dialects.interfaces import TMEMEffect
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.forms import Form, Sym
from tmem_dialect.passes.threads import ThreadSpace, Uniformity

LANE_UNIT = 1 << isa.LANE_SHIFT

Rect = tuple[int, int, int, int]
"""Lanes [l0, l1) x columns [c0, c1), relative to the access's address."""

Anchor = tuple[tuple[Sym, int], ...]
"""The part of an address every warp computes identically at any time (CTA-uniform symbols
defined outside loops, e.g. the allocated base): it cancels when two addresses are compared."""


class Certainty(IntEnum):
    NONE = 0
    MAY = 1
    DEFINITE = 2


def rects_of(effect: TMEMEffect) -> tuple[Rect, ...] | None:
    """The cells an access covers relative to its address; None when its fields do not fix them."""
    fp = effect.footprint
    if fp is not None:
        return tuple(
            (l0, l1, c0, c1) for (l0, l1), (c0, c1) in zip(fp.lane_ranges, fp.column_ranges)
        )
    if effect.kind is EffectKind.DEALLOC:
        # A dealloc frees whole columns: every lane.
        return ((0, isa.TMEM_LANES, 0, effect.ncols or isa.TMEM_COLUMNS),)
    if effect.extent is not None:
        # mma's D, cp's and shift's destination: the lanes and columns the constant fields fix.
        lanes, columns = effect.extent
        return ((0, lanes, 0, columns),)
    return None


def split_anchor(form: Form) -> tuple[Anchor, Form]:
    anchor = tuple((s, c) for s, c in form.terms if _anchors(s))
    rest = tuple((s, c) for s, c in form.terms if not _anchors(s))
    return anchor, Form(form.const, rest)


def _anchors(sym: Sym) -> bool:
    return sym.uniformity is Uniformity.CTA and sym.loop is None


def allocation_of(anchor: Anchor) -> object | None:
    """The allocation slot an address is based on (`base + offset`), if it is."""
    if len(anchor) == 1 and anchor[0][1] == 1:
        return anchor[0][0].allocation
    return None


def based_on(form: Form) -> object | None:
    """The allocation slot an address is `base + offset` of (base loaded from the slot)."""
    bases = [(s, c) for s, c in form.terms if s.allocation is not None]
    if len(bases) == 1 and bases[0][1] == 1:
        return bases[0][0].allocation
    return None


def lane_known(anchor: Anchor) -> bool:
    """The lane of `anchor + rest` is the lane of `rest`: no anchor, or an allocated base (lane 0)."""
    return not anchor or allocation_of(anchor) is not None


def disjoint_allocations(a: Anchor, b: Anchor) -> bool:
    """Addresses based on two different live allocations never share cells."""
    ka, kb = allocation_of(a), allocation_of(b)
    return ka is not None and kb is not None and ka != kb


def overlap_at_distance(
    d_lo: int | None, d_hi: int | None, rects_a: tuple[Rect, ...], rects_b: tuple[Rect, ...]
) -> Certainty:
    """Do accesses a and b overlap when b's address is a's plus D, D in [d_lo, d_hi]?

    An address difference splits into lanes and columns as D = dl * 2^16 + dc with
    |dc| < 512, since both addresses lie in the 512 columns of the TMEM.
    """
    best = Certainty.NONE
    limit = isa.TMEM_COLUMNS - 1
    for la0, la1, ca0, ca1 in rects_a:
        for lb0, lb1, cb0, cb1 in rects_b:
            dl_lo, dl_hi = la0 - lb1 + 1, la1 - lb0 - 1
            dc_lo, dc_hi = max(ca0 - cb1 + 1, -limit), min(ca1 - cb0 - 1, limit)
            if dl_lo > dl_hi or dc_lo > dc_hi:
                continue
            if d_lo is None or d_hi is None:
                return Certainty.MAY
            first = max(dl_lo, -((dc_hi - d_lo) // LANE_UNIT))
            last = min(dl_hi, (d_hi - dc_lo) // LANE_UNIT)
            if first <= last:
                if d_lo == d_hi:
                    return Certainty.DEFINITE
                best = Certainty.MAY
    return best


@dataclass(frozen=True)
class Box:
    """Cells one warp may touch, relative to the access's anchor (inclusive bounds)."""

    lane_lo: int
    lane_hi: int
    col_lo: int
    col_hi: int
    exact: bool

    def covers(self, other: Box) -> bool:
        """Every cell `other` may touch is one of this box's (so an exact box covering another
        surely meets it, wherever in its range the other access lands)."""
        return (
            self.lane_lo <= other.lane_lo
            and other.lane_hi <= self.lane_hi
            and self.col_lo <= other.col_lo
            and other.col_hi <= self.col_hi
        )

    def meets(self, other: Box) -> bool:
        return (
            self.lane_lo <= other.lane_hi
            and other.lane_lo <= self.lane_hi
            and self.col_lo <= other.col_hi
            and other.col_lo <= self.col_hi
        )


def warp_boxes(
    rest: Form, rects: tuple[Rect, ...], space: ThreadSpace
) -> list[tuple[Box, ...]] | None:
    """Per warp, the boxes of cells an access with address `anchor + rest` covers.

    None when the offset is unbounded (an unknown value that is not an anchor).
    """
    bounds = rest.warp_bounds(space)
    if bounds is None:
        return None
    lo_arr, hi_arr = bounds
    out: list[tuple[Box, ...]] = []
    for w in range(space.nwarps):
        lo, hi = int(lo_arr[w]), int(hi_arr[w])
        lane_lo, lane_hi = lo >> isa.LANE_SHIFT, hi >> isa.LANE_SHIFT
        if lane_lo == lane_hi:
            col_lo, col_hi = lo & isa.COLUMN_MASK, hi & isa.COLUMN_MASK
        else:
            col_lo, col_hi = 0, isa.COLUMN_MASK
        exact = lo == hi
        out.append(
            tuple(
                Box(lane_lo + l0, lane_hi + l1 - 1, col_lo + c0, col_hi + c1 - 1, exact)
                for l0, l1, c0, c1 in rects
            )
        )
    return out
