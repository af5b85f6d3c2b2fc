"""Global and shared memory of a kernel run: buffers at numeric addresses, typed per-lane loads and stores.

Global buffers (the kernel's array arguments and non-shared globals) live at 64-bit addresses
shared by all CTAs; each CTA has its own shared memory (addrspace 3) in a low 32-bit window, so the
same shared address names a different word in each CTA of a cluster. A generic pointer into the
shared window resolves to the executing CTA's shared memory.

The byval kernel parameters whose address the kernel takes (`!llvm.ptr<101>` arguments: CuTe's and
Triton's tensor maps) live in the param window, above the shared window and below 4 GiB: a
.param-space address fits 32 bits (Triton's `mov.b32 %r, p`) and is the same number as the
generic address cvta.param makes of it, as shared addresses are (the .param window lies in the
generic window, PTX ISA 9.7.9.20 cvta).

shared::cluster addresses (mapa's results) carry the target CTA in bits 24..30 as rank + 1; with
those bits 0 the address is the executing CTA's (the ISA's shared::cta window lies inside the
shared::cluster window and names the executing CTA's memory there).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

import numpy as np

from tmem_dialect.conventions import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE
from tmem_dialect.interpreter.values import WARP

SHARED_BASE = 0x0001_0000
SHARED_LIMIT = 0x8000_0000
CLUSTER_RANK_SHIFT = 24  # shared::cluster address = (rank + 1) << 24 | shared::cta address
CTA_WINDOW = 1 << CLUSTER_RANK_SHIFT
PARAM_BASE = SHARED_LIMIT
GLOBAL_BASE = 0x1_0000_0000
PARAM_LIMIT = GLOBAL_BASE
PARAM_ALIGNMENT = 128  # the largest .align a parameter can have (a tensor map needs 64)
GLOBAL_STRIDE = 0x1_0000_0000
SHARED, GLOBAL = SHARED_ADDRESS_SPACE, GLOBAL_ADDRESS_SPACE


class MemoryFault(Exception):
    """A load or store that no buffer backs (out of bounds, misaligned, null)."""


@dataclass
class Buffer:
    """One contiguous allocation: its bytes, base address and a name for messages."""

    name: str
    base: int
    data: np.ndarray  # the user-visible array (contiguous)
    space: int
    cta: int = -1  # the CTA whose shared memory it is (-1: global memory)
    read_only: bool = False  # a kernel parameter's bytes (PTX ISA 5.1.6.1: read-only variables)
    raw: np.ndarray = field(init=False)
    _typed: dict[np.dtype, np.ndarray] = field(default_factory=dict, init=False)

    def __post_init__(self):
        self.raw = self.data.reshape(-1).view(np.uint8)

    @property
    def nbytes(self) -> int:
        return self.raw.size

    def typed(self, dtype: np.dtype) -> np.ndarray:
        view = self._typed.get(dtype)
        if view is None:
            usable = self.raw.size - self.raw.size % dtype.itemsize
            view = self.raw[:usable].view(dtype)
            self._typed[dtype] = view
        return view


@dataclass(frozen=True)
class MemRefValue:
    """A memref value: a buffer viewed with a static shape (row-major), uniform across the warp."""

    buffer: Buffer
    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def strides(self) -> tuple[int, ...]:
        out, step = [], 1
        for d in reversed(self.shape):
            out.append(step)
            step *= d
        return tuple(reversed(out))


class AddressSpace:
    """Buffers ordered by base address; resolves per-lane addresses to (buffer, element index)."""

    def __init__(self):
        self._bases: list[int] = []
        self._buffers: list[Buffer] = []

    def add(self, buffer: Buffer) -> Buffer:
        at = bisect_right(self._bases, buffer.base)
        self._bases.insert(at, buffer.base)
        self._buffers.insert(at, buffer)
        return buffer

    def find(self, address: int) -> Buffer | None:
        at = bisect_right(self._bases, address) - 1
        if at < 0:
            return None
        buf = self._buffers[at]
        return buf if address < buf.base + max(buf.nbytes, 1) else None

    @property
    def buffers(self) -> list[Buffer]:
        return list(self._buffers)


@dataclass
class Access:
    """Where the active lanes of one load/store land: one buffer and per-lane element indices."""

    buffer: Buffer
    index: np.ndarray  # (32,) element index into buffer.typed(dtype), meaningful on active lanes


class Memory:
    """All memory of a run: one global space and one shared space per CTA."""

    def __init__(self, ctas: int):
        self.global_space = AddressSpace()
        self.shared_spaces = [AddressSpace() for _ in range(ctas)]
        self._next_global = GLOBAL_BASE
        self._next_param = PARAM_BASE
        self._next_shared = [SHARED_BASE] * ctas

    def add_global(self, name: str, data: np.ndarray) -> Buffer:
        buf = Buffer(name, self._next_global, data, GLOBAL)
        self._next_global += GLOBAL_STRIDE
        return self.global_space.add(buf)

    def add_param(self, name: str, data: np.ndarray) -> Buffer:
        """The bytes of a byval parameter, in the param window (one copy for every CTA)."""
        base = self._next_param
        buf = Buffer(name, base, data, GLOBAL, read_only=True)
        if base + buf.nbytes > PARAM_LIMIT:
            raise MemoryFault(f"byval parameters of {base + buf.nbytes - PARAM_BASE} bytes do not fit the "
                              f"param window of {PARAM_LIMIT - PARAM_BASE} bytes")
        self._next_param = (base + max(buf.nbytes, 1) + PARAM_ALIGNMENT - 1) // PARAM_ALIGNMENT * PARAM_ALIGNMENT
        return self.global_space.add(buf)

    def add_shared(self, cta: int, name: str, data: np.ndarray, alignment: int = 16) -> Buffer:
        base = self._next_shared[cta]
        base = (base + alignment - 1) // alignment * alignment
        buf = Buffer(name, base, data, SHARED, cta)
        if base + buf.nbytes > CTA_WINDOW:
            raise MemoryFault(f"shared memory of {base + buf.nbytes} bytes does not fit a CTA's window "
                              f"of {CTA_WINDOW} bytes")
        self._next_shared[cta] = base + max(buf.nbytes, 1)
        return self.shared_spaces[cta].add(buf)

    def space_for(self, address: int, cta: int) -> AddressSpace:
        return self.shared_spaces[cta] if SHARED_BASE <= address < SHARED_LIMIT else self.global_space

    def shared_target(self, address: int, cta: int) -> tuple[int, int]:
        """(CTA, shared::cta address) named by a shared or shared::cluster `address` used in CTA `cta`."""
        rank = address >> CLUSTER_RANK_SHIFT
        if not SHARED_BASE <= address < SHARED_LIMIT or rank == 0:
            return cta, address
        if rank > len(self.shared_spaces):
            raise MemoryFault(f"shared::cluster address {address:#x} names CTA rank {rank - 1}, but the "
                              f"cluster has {len(self.shared_spaces)} CTAs")
        return rank - 1, address & (CTA_WINDOW - 1)

    def _split_cluster(self, addresses: np.ndarray, mask: np.ndarray, cta: int) -> tuple[np.ndarray, int]:
        """Per-lane shared::cta addresses and the one CTA the active lanes' addresses name."""
        active = addresses[mask]
        shared = (active >= SHARED_BASE) & (active < SHARED_LIMIT)
        ranks = np.where(shared, active >> CLUSTER_RANK_SHIFT, 0)
        if not ranks.any():
            return addresses, cta
        if (ranks != ranks[0]).any() or not shared.all():
            raise MemoryFault("the lanes of one access address the shared memory of different CTAs "
                              "of the cluster (the interpreter needs one CTA per access)")
        target, _ = self.shared_target(int(active[0]), cta)
        return addresses & (CTA_WINDOW - 1), target

    def resolve(
        self, addresses: np.ndarray, mask: np.ndarray, dtype: np.dtype, count: int, cta: int
    ) -> Access:
        """Resolve the active lanes' addresses of an access of `count` elements of `dtype`.

        All active lanes must fall in one buffer (the common case, checked vectorized); lanes in
        different buffers, outside any buffer, or misaligned raise MemoryFault.
        """
        active = addresses[mask]
        if active.size == 0:
            buf = self.global_space.buffers[0] if self.global_space.buffers else None
            if buf is None:
                raise MemoryFault("no memory")
            return Access(buf, np.zeros(WARP, dtype=np.int64))
        lo, hi = int(active.min()), int(active.max())
        if hi >= CTA_WINDOW and lo < SHARED_LIMIT:
            addresses, cta = self._split_cluster(addresses, mask, cta)
            active = addresses[mask]
            lo, hi = int(active.min()), int(active.max())
        space = self.space_for(lo, cta)
        buf = space.find(lo)
        if buf is None:
            raise MemoryFault(f"address {lo:#x} is not inside any buffer")
        size = dtype.itemsize * count
        if hi + size > buf.base + buf.nbytes:
            bad = int(active[active + size > buf.base + buf.nbytes][0])
            raise MemoryFault(
                f"access of {size} bytes at byte offset {bad - buf.base} is out of bounds of "
                f"{buf.name} ({buf.nbytes} bytes)"
            )
        offsets = addresses - buf.base
        misaligned = (offsets % dtype.itemsize != 0) & mask
        if misaligned.any():
            off = int(offsets[misaligned][0])
            raise MemoryFault(
                f"access at byte offset {off} of {buf.name} is not aligned to {dtype.itemsize} bytes"
            )
        return Access(buf, offsets // dtype.itemsize)

    def load(
        self, addresses: np.ndarray, mask: np.ndarray, dtype: np.dtype, count: int, cta: int
    ) -> tuple[np.ndarray, Access]:
        """Per-lane loads of `count` contiguous elements (count 0: one scalar per lane)."""
        acc = self.resolve(addresses, mask, dtype, max(count, 1), cta)
        typed = acc.buffer.typed(dtype)
        index = np.where(mask, acc.index, 0)
        if count == 0:
            return typed[index], acc
        return typed[index[:, None] + np.arange(count)], acc

    def store(
        self,
        addresses: np.ndarray,
        mask: np.ndarray,
        values: np.ndarray,
        dtype: np.dtype,
        count: int,
        cta: int,
    ) -> Access:
        acc = self.resolve(addresses, mask, dtype, max(count, 1), cta)
        if acc.buffer.read_only:
            raise MemoryFault(f"{acc.buffer.name} holds a kernel parameter's bytes, which are read-only "
                              "(PTX ISA 5.1.6.1)")
        typed = acc.buffer.typed(dtype)
        index = acc.index[mask]
        data = values[mask].astype(dtype, copy=False)
        if count == 0:
            typed[index] = data
        else:
            typed[index[:, None] + np.arange(count)] = data
        return acc
