"""The threads of a CTA as a kernel declares them (reqntid), and how far a value is shared between them."""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.conventions import MAX_THREADS_PER_BLOCK, reqntid


class Uniformity(IntEnum):
    """How far a value is shared between threads (larger = less shared)."""

    CTA = 0
    WARP = 1
    THREAD = 2



class ThreadSpace:
    """The threads of one CTA, as declared by `nvvm.reqntid` / `tcgen05.reqntid`.

    Without a declaration we assume a one-dimensional block of up to 1024 threads (and say so).
    """

    def __init__(self, dims: tuple[int, int, int], declared: bool):
        self.dims = dims
        self.declared = declared
        x, y, z = dims
        self.nthreads = x * y * z
        linear = np.arange(self.nthreads, dtype=np.int64)
        self.tid = {"x": linear % x, "y": (linear // x) % y, "z": linear // (x * y)}
        self.nwarps = -(-self.nthreads // isa.WARP_SIZE)
        self.all_warps = (1 << self.nwarps) - 1
        self.warp_starts = np.arange(0, self.nthreads, isa.WARP_SIZE)
        self.laneid = linear % isa.WARP_SIZE
        self.warp_index = linear // isa.WARP_SIZE

    @staticmethod
    def of_kernel(kernel: Operation) -> ThreadSpace:
        """The kernel's declared block (conventions.reqntid); a malformed declaration, which
        the kernel's verifier reports, counts as none."""
        try:
            dims = reqntid(kernel)
        except ValueError:
            dims = None
        if dims is None:
            return ThreadSpace((MAX_THREADS_PER_BLOCK, 1, 1), False)
        return ThreadSpace(dims, True)

    def warp_min_max(self, vec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.minimum.reduceat(vec, self.warp_starts), np.maximum.reduceat(vec, self.warp_starts)

    def warps(self, mask: int) -> Iterator[int]:
        w = 0
        while mask:
            if mask & 1:
                yield w
            mask >>= 1
            w += 1

    def mask_of(self, flags: np.ndarray) -> int:
        """Bitmask of the warps whose entry in the per-warp bool array is set."""
        mask = 0
        for w in np.flatnonzero(flags):
            mask |= 1 << int(w)
        return mask



SREG_PREFIX = "nvvm.read.ptx.sreg."
# Special registers that are the same in every thread of the CTA (the cluster ones too: a CTA's
# rank and position in its cluster are one value for all its threads, PTX ISA "Special Registers").
CTA_REGISTERS = frozenset(
    f"{base}.{d}"
    for base in ("ntid", "ctaid", "nctaid", "clusterid", "nclusterid", "cluster.ctaid", "cluster.nctaid")
    for d in "xyz"
) | {"nwarpid", "cluster.ctarank", "cluster.nctarank"}
