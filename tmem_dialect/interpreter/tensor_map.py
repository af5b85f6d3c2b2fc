"""Tensor maps as kernel arguments: the TensorMap fields, the `--arg tensormap:...` spec, and the box<->tensor element geometry.

A real CUtensorMap is 128 opaque bytes made by cuTensorMapEncodeTiled. A run describes one by the
fields the copy depends on (isa.TensorMapFields): the kernel argument whose buffer holds the
tensor, the element type, the dimensions and byte strides (dimension 0 innermost, as CUDA orders
them), the box and the swizzle. The kernel receives the address of a 128-byte global object; the
TMA ops look the fields up by that address.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from tmem_dialect import isa


@dataclass(frozen=True)
class TensorMap:
    """A tiled tensor map over the buffer of kernel argument `buffer`.

    `dims`, `box` and `strides` list dimension 0 (the contiguous one) first; `strides` are the
    byte strides of dimensions 1.. (None: packed, dims[0] * element bytes, ...); `offset` is the
    tensor's byte offset into the buffer; `swizzle` one of isa.TmaSwizzle's values ("none", "32B",
    "64B", "128B", "128B_atom_32B"). `data`, when given, is the tensor's own elements (and `buffer`
    is ignored): CuTe DSL passes a TMA tensor only through its map, no kernel argument points to it.
    """

    buffer: int
    dtype: str
    dims: tuple[int, ...]
    box: tuple[int, ...]
    strides: tuple[int, ...] | None = None
    swizzle: str = "none"
    offset: int = 0
    data: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def element_bytes(self) -> int:
        return np.dtype(isa.TENSOR_MAP_TYPES[self.dtype]).itemsize

    @property
    def byte_strides(self) -> tuple[int, ...]:
        if self.strides is not None:
            return tuple(self.strides)
        out, step = [], self.element_bytes
        for d in self.dims[:-1]:
            step *= d
            out.append(step)
        return tuple(out)

    @property
    def mode(self) -> isa.TmaSwizzle:
        return isa.TmaSwizzle(self.swizzle)

    def fields(self) -> isa.TensorMapFields:
        return isa.TensorMapFields(self.element_bytes, tuple(self.dims), self.byte_strides, tuple(self.box), self.mode)

    def errors(self) -> list[str]:
        """Why no cuTensorMapEncodeTiled call could make this map (empty: it is a legal map)."""
        if self.dtype not in isa.TENSOR_MAP_TYPES:
            return [f"unknown element type '{self.dtype}' (one of {', '.join(isa.TENSOR_MAP_TYPES)})"]
        try:
            self.mode
        except ValueError:
            return [f"unknown swizzle '{self.swizzle}' (one of {', '.join(s.value for s in isa.TmaSwizzle)})"]
        out = self.fields().errors()
        if self.offset < 0 or self.offset % isa.GLOBAL_ALIGN:
            out.append(f"the tensor's offset {self.offset} is not a non-negative multiple of {isa.GLOBAL_ALIGN} bytes")
        return out

    @property
    def box_bytes(self) -> int:
        return self.fields().box_bytes

    def extent_bytes(self) -> int:
        """Bytes from the tensor's start to the end of its last element."""
        strides = (self.element_bytes, *self.byte_strides)
        return self.offset + sum((d - 1) * s for d, s in zip(self.dims, strides)) + self.element_bytes


def parse_tensor_map(spec: str) -> TensorMap:
    """`tensormap:buffer=0,type=f16,dims=64x128,box=64x32[,strides=256][,swizzle=128B][,offset=0]`
    (dims, box and strides list dimension 0 first, `x`-separated), or with `fill=iota|VALUE`
    instead of `buffer=`: a map that owns its tensor, filled so (CuTe DSL passes TMA tensors only
    through their maps); raises ValueError."""
    body = spec.removeprefix("tensormap:")
    fields: dict[str, str] = {}
    for part in filter(None, body.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not value:
            raise ValueError(f"tensor map '{spec}': '{part}' is not KEY=VALUE")
        if key in fields:
            raise ValueError(f"tensor map '{spec}': '{key}' is given twice")
        fields[key.strip()] = value.strip()
    known = {"buffer", "fill", "type", "dims", "box", "strides", "swizzle", "offset"}
    if unknown := sorted(set(fields) - known):
        raise ValueError(f"tensor map '{spec}': unknown field '{unknown[0]}' (fields: {', '.join(sorted(known))})")
    if ("buffer" in fields) == ("fill" in fields):
        raise ValueError(f"tensor map '{spec}': give 'buffer=' (the argument it maps) or 'fill=' (a tensor of its own)")
    for required in ("type", "dims", "box"):
        if required not in fields:
            raise ValueError(f"tensor map '{spec}': '{required}=' is missing")

    def ints(key: str) -> tuple[int, ...]:
        try:
            return tuple(int(x) for x in fields[key].split("x"))
        except ValueError:
            raise ValueError(f"tensor map '{spec}': {key}={fields[key]} is not integers separated by 'x'") from None

    def one(key: str, default: int) -> int:
        if key not in fields:
            return default
        try:
            return int(fields[key])
        except ValueError:
            raise ValueError(f"tensor map '{spec}': {key}={fields[key]} is not an integer") from None

    tm = TensorMap(one("buffer", -1), fields["type"], ints("dims"), ints("box"),
                   ints("strides") if "strides" in fields else None, fields.get("swizzle", "none"), one("offset", 0))
    if errors := tm.errors():
        raise ValueError(f"tensor map '{spec}': {errors[0]}")
    if "fill" in fields:
        tm = replace(tm, data=_own_tensor(tm, fields["fill"], spec))
    return tm


def _own_tensor(tm: TensorMap, fill: str, spec: str) -> np.ndarray:
    """The elements of a map's own tensor: its offset and every byte its dims and strides span."""
    extent = tm.byte_strides[-1] * tm.dims[-1] if len(tm.dims) > 1 else tm.dims[0] * tm.element_bytes
    count = -(-(tm.offset + extent) // tm.element_bytes)
    dtype = np.dtype(isa.TENSOR_MAP_TYPES[tm.dtype])
    if fill == "iota":
        return np.arange(count).astype(dtype)
    try:
        value = float(fill) if dtype.kind == "f" else int(fill, 0)
    except ValueError:
        raise ValueError(f"tensor map '{spec}': fill={fill} is not 'iota' or a number") from None
    return np.full(count, value, dtype=dtype)


def box_geometry(tm: TensorMap, coords: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(byte offset into the buffer, in bounds) of every element of the box at `coords`, in the
    box's row-major order (dimension 0 fastest: the order the box lands in shared memory)."""
    shape = tuple(reversed(tm.box))
    grids = np.indices(shape, dtype=np.int64)  # grids[k] indexes dimension n-1-k
    strides = (tm.element_bytes, *tm.byte_strides)
    offset = np.full(shape, tm.offset, dtype=np.int64)
    inside = np.ones(shape, dtype=bool)
    n = len(tm.dims)
    for d in range(n):
        index = grids[n - 1 - d] + int(coords[d])
        inside &= (index >= 0) & (index < tm.dims[d])
        offset += index * strides[d]
    return offset.reshape(-1), inside.reshape(-1)


def smem_addresses(tm: TensorMap, start: int, count: int) -> np.ndarray:
    """Shared byte addresses of `count` box elements placed from `start` (the element's bytes in
    columns), swizzled by the tensor map's mode: the XOR of the tcgen05 SMEM descriptor's swizzle of
    the same span (isa.TmaSwizzle.smem_swizzle, interpreter.smem_descriptor.swizzle_address), on the
    address bits themselves (base offset 0)."""
    from tmem_dialect.interpreter.smem_descriptor import swizzle_address

    eb = tm.element_bytes
    plain = start + np.arange(count, dtype=np.int64)[:, None] * eb + np.arange(eb, dtype=np.int64)[None, :]
    mode = tm.mode.smem_swizzle
    assert mode is not None  # TensorMap.errors rejects unmodelled modes
    return swizzle_address(plain, mode, 0)
