"""TIRx tile layouts (shard S[...], replica R[...], offset) over named hardware axes, and their algebra.

A layout maps a logical index of a tile to coordinates on named axes:

    L(x) = { D(x) + r + O | r in R }

D (the shard) flattens x row-major and splits the flat index, row-major, across the shard
iters; each iter adds `digit * stride` on its axis. R (the replica) enumerates extra offsets
independent of x; O is a constant per-axis offset. Notation, as in TVM TIRx:

    S[(128, 256) : (1@TLane, 1@TCol)]
    S[(4, 32, 64) : (1@warpid, 1@laneid, 1)] + R[2 : 64@TCol] + 16@TCol

A stride without an axis is on the register/memory axis `m`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

import numpy as np

from tmem_dialect import isa

TLANE = "TLane"
TCOL = "TCol"
LANEID = "laneid"
WARPID = "warpid"
M = "m"
TMEM_AXES = (TLANE, TCOL)
REGISTER_AXES = (WARPID, LANEID, M)
AXES = TMEM_AXES + REGISTER_AXES


@dataclass(frozen=True)
class Iter:
    """One factor of a layout: `extent` values along `axis`, `stride` apart."""

    extent: int
    stride: int
    axis: str = M

    def format(self) -> str:
        return str(self.stride) if self.axis == M else f"{self.stride}@{self.axis}"


def _format_iters(iters: tuple[Iter, ...]) -> str:
    if len(iters) == 1:
        return f"{iters[0].extent} : {iters[0].format()}"
    extents = ", ".join(str(i.extent) for i in iters)
    strides = ", ".join(i.format() for i in iters)
    return f"({extents}) : ({strides})"


# Extents, strides and offsets beyond this are no tile of any memory this project models;
# bounding them keeps every layout computation exact in int64.
MAX_LAYOUT_VALUE = 2**31 - 1
# Above this many elements on one axis of a non-mixed-radix shard, injectivity is not decided.
MAX_INJECTIVITY_CELLS = 1 << 22


def _axis_is_injective(iters: list[tuple[int, int]]) -> bool:
    """Whether (d_i) -> sum d_i * s_i, 0 <= d_i < e_i, is one-to-one (all e_i > 1)."""
    if any(stride == 0 for _, stride in iters):
        return False
    # Mixed radix: sorted by stride, each stride clears everything the smaller ones reach.
    reach = 0
    for extent, stride in sorted(iters, key=lambda es: es[1]):
        if stride <= reach:
            break
        reach += (extent - 1) * stride
    else:
        return True
    span = sum((e - 1) * s for e, s in iters) + 1
    count = prod(e for e, _ in iters)
    if count > span:
        return False  # more digit tuples than values: two must collide
    if count > MAX_INJECTIVITY_CELLS:
        raise ValueError(
            f"cannot decide whether a shard of {count} elements reaching {span} coordinates "
            "on one axis is injective"
        )
    sums = np.zeros(1, dtype=np.int64)
    for extent, stride in iters:
        sums = (sums[:, None] + np.arange(extent, dtype=np.int64) * stride).ravel()
    return len(np.unique(sums)) == count


@dataclass(frozen=True)
class TileLayout:
    """A TIRx TileLayout: shard iters, replica iters and a per-axis offset."""

    shard: tuple[Iter, ...]
    replica: tuple[Iter, ...] = ()
    offset: tuple[tuple[str, int], ...] = field(default=())

    # ---- construction and text ------------------------------------------------------------

    @staticmethod
    def row_major(shape: tuple[int, ...], axes: tuple[str, ...]) -> TileLayout:
        """Each logical dimension i on its own axis with stride 1: S[(d0, d1) : (1@a0, 1@a1)]."""
        return TileLayout(tuple(Iter(d, 1, a) for d, a in zip(shape, axes, strict=True)))

    def format(self) -> str:
        text = f"S[{_format_iters(self.shard)}]"
        if self.replica:
            text += f" + R[{_format_iters(self.replica)}]"
        for axis, value in self.offset:
            text += f" + {value}@{axis}" if axis != M else f" + {value}"
        return text

    def __str__(self) -> str:
        return self.format()

    # ---- basic queries ---------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of logical elements the shard partitions."""
        return prod(i.extent for i in self.shard)

    @property
    def axes(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for it in self.shard + self.replica:
            seen[it.axis] = None
        for axis, _ in self.offset:
            seen[axis] = None
        return tuple(seen)

    def offset_of(self, axis: str) -> int:
        return dict(self.offset).get(axis, 0)

    def with_offset(self, axis: str, delta: int) -> TileLayout:
        offsets = dict(self.offset)
        offsets[axis] = offsets.get(axis, 0) + delta
        return TileLayout(
            self.shard, self.replica, tuple((a, v) for a, v in offsets.items() if v)
        )

    # ---- evaluation ------------------------------------------------------------------------

    def digits(self, flat: np.ndarray) -> list[np.ndarray]:
        """Split flat logical indices row-major across the shard extents."""
        out: list[np.ndarray] = []
        rest = flat
        for it in reversed(self.shard):
            out.append(rest % it.extent)
            rest = rest // it.extent
        return out[::-1]

    def shard_coords(self, flat: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """D(x) + O on every axis, for the given flat indices (default: all of them)."""
        if flat is None:
            flat = np.arange(self.size, dtype=np.int64)
        coords = {axis: np.zeros(flat.shape, dtype=np.int64) for axis in self.axes}
        for it, digit in zip(self.shard, self.digits(flat), strict=True):
            coords[it.axis] = coords[it.axis] + digit * it.stride
        for axis, value in self.offset:
            coords[axis] = coords[axis] + value
        return coords

    def replica_offsets(self) -> list[dict[str, int]]:
        """Every r in R, as per-axis offsets (one empty offset when R is empty)."""
        offsets: list[dict[str, int]] = [{}]
        for it in self.replica:
            offsets = [
                {**o, it.axis: o.get(it.axis, 0) + k * it.stride}
                for o in offsets
                for k in range(it.extent)
            ]
        return offsets

    def apply(self, *coord: int, shape: tuple[int, ...] | None = None) -> list[dict[str, int]]:
        """L(x) for one logical coordinate: a list of per-axis coordinates, one per replica."""
        shape = shape or tuple(i.extent for i in self.shard)
        if len(coord) != len(shape):
            raise ValueError(f"coordinate {coord} does not match shape {shape}")
        flat = 0
        for c, d in zip(coord, shape, strict=True):
            flat = flat * d + c
        base = {a: int(v[0]) for a, v in self.shard_coords(np.array([flat])).items()}
        return [
            {a: base.get(a, 0) + r.get(a, 0) for a in self.axes}
            for r in self.replica_offsets()
        ]

    def span(self, axis: str) -> int:
        """One past the largest coordinate the layout reaches on `axis` (0 if it never does)."""
        if axis not in self.axes:
            return 0
        top = self.offset_of(axis)
        for it in self.shard + self.replica:
            if it.axis == axis:
                top += (it.extent - 1) * it.stride
        return top + 1

    def elements_per_thread(self) -> int:
        """Register elements each thread of a fragment layout holds: the span of `m` (1 without it)."""
        return self.span(M) if M in self.axes else 1

    def shard_is_injective(self) -> bool:
        """Distinct logical indices land on distinct coordinates.

        The digits of different axes vary independently, so the shard is injective exactly
        when, on every axis, its iters alone are; each axis is decided without enumerating
        the whole tile (see `_axis_is_injective`).
        """
        by_axis: dict[str, list[tuple[int, int]]] = {}
        for it in self.shard:
            if it.extent > 1:
                by_axis.setdefault(it.axis, []).append((it.extent, it.stride))
        return all(_axis_is_injective(iters) for iters in by_axis.values())

    # ---- well-formedness -------------------------------------------------------------------

    def errors(self, allowed_axes: tuple[str, ...] = AXES) -> list[str]:
        """Why this layout is malformed (empty when it is well formed)."""
        errs: list[str] = []
        if not self.shard:
            errs.append("the shard S[...] needs at least one iter")
        for kind, iters in (("shard", self.shard), ("replica", self.replica)):
            for it in iters:
                if it.extent <= 0:
                    errs.append(f"{kind} extent must be positive, got {it.extent}")
                if it.stride < 0:
                    errs.append(f"{kind} stride must be non-negative, got {it.stride}")
        for axis in self.axes:
            if axis not in allowed_axes:
                errs.append(f"axis '{axis}' is not allowed here (expected one of {', '.join(allowed_axes)})")
        for axis, value in self.offset:
            if value < 0:
                errs.append(f"offset on {axis} must be non-negative, got {value}")
        for value in self._numbers():
            if value > MAX_LAYOUT_VALUE:
                errs.append(f"layout value {value} is out of range (at most {MAX_LAYOUT_VALUE})")
                break
        if not errs:
            try:
                injective = self.shard_is_injective()
            except ValueError as e:
                errs.append(str(e))
            else:
                if not injective:
                    errs.append(
                        "the shard is not injective: two logical elements map to the same place"
                    )
        return errs

    def _numbers(self) -> list[int]:
        values = [v for _, v in self.offset]
        for it in self.shard + self.replica:
            values += [it.extent, it.stride]
        values.append(self.size)
        for axis in self.axes:
            values.append(self.span(axis))
        return values

    def tmem_errors(self) -> list[str]:
        """Well-formedness of a layout that places a tile in Tensor Memory."""
        errs = self.errors(TMEM_AXES)
        if errs:
            return errs
        if self.span(TLANE) > isa.TMEM_LANES:
            errs.append(f"TLane extent {self.span(TLANE)} exceeds the {isa.TMEM_LANES} TMEM lanes")
        if self.span(TCOL) > isa.TMEM_COLUMNS:
            errs.append(f"TCol extent {self.span(TCOL)} exceeds the {isa.TMEM_COLUMNS} TMEM columns")
        return errs

    def fragment_errors(self) -> list[str]:
        """Well-formedness of a register-fragment layout of a warpgroup (warpid, laneid, m)."""
        errs = self.errors(REGISTER_AXES)
        if errs:
            return errs
        if self.span(LANEID) > isa.WARP_SIZE:
            errs.append(f"laneid extent {self.span(LANEID)} exceeds the {isa.WARP_SIZE} lanes of a warp")
        if self.span(WARPID) > isa.WARPS_PER_WARPGROUP:
            errs.append(
                f"warpid extent {self.span(WARPID)} exceeds the {isa.WARPS_PER_WARPGROUP} warps of a warpgroup"
            )
        return errs
