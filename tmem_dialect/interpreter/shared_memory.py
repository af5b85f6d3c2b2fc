"""Shared memory's shadow state: races between warps, reads of bytes nothing wrote, TMEM address origins.

Every load and store of a shared buffer passes here after the data moved (Machine.load/store):
- a race is a pair of accesses of one byte by two warps, one a write, that no barrier orders
  (happens-before by vector clocks, so the verdict does not depend on the schedule; memory is
  byte-addressed, so two warps storing the two halves of one word do not race). A store that
  leaves the bytes as the previous store made them is not one: the PTX memory model does not
  require race freedom, and every order gives every reader the same value (Triton's default
  partition: all its warps store the same partition-state word);
- shared memory starts undefined (PTX .shared variables have no initializer), so a read of a byte
  no store wrote is reported: reading 0 would pass a kernel that reads the wrong slot, because 0
  is the base address of the first allocation;
- each word remembers the TMEM allocation whose base address was stored in it (the slot that
  tcgen05.alloc writes, or a copy of a tagged address), and a 32-bit load of it yields a value
  tagged with that allocation (interpreter.provenance).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.ir import Operation

from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter.lanes import WarpLanes
from tmem_dialect.interpreter.memory import Buffer
from tmem_dialect.interpreter.values import derived, origin
from tmem_dialect.memory_model import EffectKind


@dataclass
class SharedShadow:
    """Metadata of one shared buffer: happens-before per byte, written bytes, origins per word."""

    writer: np.ndarray  # per byte: the warp that last wrote it, or -1
    write_clock: np.ndarray  # per byte
    write_op: np.ndarray  # per byte: the op that last wrote it (objects), or None
    async_proxy: np.ndarray  # per byte: that write went through the async proxy (a TMA copy)
    read_clock: np.ndarray  # [warps, bytes]
    written: np.ndarray  # per byte: some store (or an initializer) wrote it
    origin: np.ndarray  # per 32-bit word: the TMEM allocation whose address it holds, or None
    value: np.ndarray  # per byte: what the last store left there (valid where value_known)
    value_known: np.ndarray  # per byte: the last write was a store seen here (not a TMA copy)

    @staticmethod
    def new(nbytes: int, warps: int) -> SharedShadow:
        words = (nbytes + 3) // 4
        return SharedShadow(
            np.full(nbytes, -1, dtype=np.int64),
            np.zeros(nbytes, dtype=np.int64),
            np.full(nbytes, None, dtype=object),
            np.zeros(nbytes, dtype=bool),
            np.full((warps, nbytes), -1, dtype=np.int64),
            np.zeros(nbytes, dtype=bool),
            np.full(words, None, dtype=object),
            np.zeros(nbytes, dtype=np.uint8),
            np.zeros(nbytes, dtype=bool),
        )


def _bytes(w: WarpLanes, index: np.ndarray, dtype: np.dtype, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(active lanes, [lane, byte] offsets each active lane accesses)."""
    lanes = np.flatnonzero(w.mask)
    first = index[lanes].astype(np.int64) * dtype.itemsize
    return lanes, first[:, None] + np.arange(dtype.itemsize * max(count, 1))


class SharedShadows:
    """The shadow state of every shared buffer of a run."""

    def __init__(self, warp_count: int, clocks: list, report: Callable[..., None]):
        self.warp_count = warp_count
        self.clocks = clocks  # WarpClock per warp (interpreter.sync)
        self.report = report  # Machine.report
        self._shadows: dict[int, SharedShadow] = {}

    def shadow_of(self, buf: Buffer) -> SharedShadow:
        shadow = self._shadows.get(id(buf))
        if shadow is None:
            shadow = self._shadows[id(buf)] = SharedShadow.new(buf.nbytes, self.warp_count)
        return shadow


    def mark_initialized(self, buf: Buffer) -> None:
        """The buffer has defined contents before the kernel runs (a global with an initializer)."""
        self.shadow_of(buf).written[:] = True


    def loaded(self, w: WarpLanes, op: Operation, buf: Buffer, index: np.ndarray, dtype: np.dtype,
               count: int, values: np.ndarray) -> np.ndarray:
        """Check a load of a shared buffer; returns the loaded values, tagged with their origin."""
        shadow = self.shadow_of(buf)
        lanes, offsets = _bytes(w, index, dtype, count)
        self._races(w, op, buf, shadow, np.unique(offsets), write=False)
        unwritten = ~shadow.written[offsets].all(axis=1)
        if unwritten.any():
            i = int(np.argmax(unwritten))
            byte = int(offsets[i][np.argmax(~shadow.written[offsets[i]])])
            self.report(
                FindingKind.UNINITIALIZED_READ,
                "error",
                op,
                f"warp {w.warp} (thread {w.thread_id(int(lanes[i]))}) reads {buf.name} (byte {byte}), "
                "which nothing wrote: shared memory starts undefined",
                key=buf.name,
            )
        if count == 0 and dtype.itemsize == 4:
            origins = shadow.origin[offsets[:, 0] // 4]
            first = origins[0]
            if first is not None and all(o is first for o in origins):
                return derived(values, first)
        return values


    def stored(self, w: WarpLanes, op: Operation, buf: Buffer, index: np.ndarray, dtype: np.dtype,
               count: int, values: np.ndarray) -> None:
        """Record a store to a shared buffer (after checking it for races)."""
        shadow = self.shadow_of(buf)
        _, offsets = _bytes(w, index, dtype, count)
        touched = np.unique(offsets)
        now = buf.raw[touched]  # the data moved already
        unchanged = shadow.value_known[touched] & (now == shadow.value[touched])
        self._races(w, op, buf, shadow, touched, write=True, unchanged=unchanged)
        shadow.value[touched] = now
        shadow.value_known[touched] = True
        shadow.written[touched] = True
        words = np.unique(touched // 4)
        tag = origin(values) if count == 0 and dtype.itemsize == 4 else None
        shadow.origin[words] = tag


    def _races(self, w: WarpLanes, op: Operation, buf: Buffer, shadow: SharedShadow, offsets: np.ndarray,
               write: bool, unchanged: np.ndarray | None = None) -> None:
        """Check the access of bytes `offsets` (of `buf`) against the other warps' last ones; a
        write of bytes `unchanged` (what the last store left there) races with nothing."""
        clock = self.clocks[w.warp]
        writers = shadow.writer[offsets]
        racy = (writers >= 0) & (writers != w.warp)
        if unchanged is not None:
            racy &= ~unchanged
        if racy.any():
            wc = shadow.write_clock[offsets]
            unordered = racy & (wc > clock.vc[np.maximum(writers, 0)])
            if unordered.any():
                i = int(np.argmax(unordered))
                p = int(writers[i])
                wop = shadow.write_op[int(offsets[i])]
                self.report(
                    FindingKind.SHARED_RACE,
                    "error",
                    op,
                    f"warp {w.warp} {'writes' if write else 'reads'} {buf.name} (byte {int(offsets[i])}) "
                    f"which warp {p} wrote, with no barrier ordering the two",
                    [(f"warp {p} wrote it here", wop)],
                    key=(id(wop), w.warp),
                )
        if write:
            reads = shadow.read_clock[:, offsets]
            others = np.arange(self.warp_count) != w.warp
            late = (reads > clock.vc[:, None]) & others[:, None]
            if unchanged is not None:
                late &= ~unchanged[None, :]
            if late.any():
                p, i = (int(x) for x in np.argwhere(late)[0])
                self.report(
                    FindingKind.SHARED_RACE,
                    "error",
                    op,
                    f"warp {w.warp} writes {buf.name} (byte {int(offsets[i])}) which warp {p} reads, "
                    "with no barrier ordering the two",
                    key=("read", p, w.warp),
                )
            shadow.value_known[offsets] = False  # until stored() records the bytes of a store
            shadow.writer[offsets] = w.warp
            shadow.write_clock[offsets] = clock.now
            shadow.write_op[offsets] = op
            shadow.async_proxy[offsets] = async_proxy_write(op)
        else:
            shadow.read_clock[w.warp, offsets] = clock.now


def async_proxy_write(op: Operation) -> bool:
    """A TMA copy writes shared memory through the async proxy (no fence.proxy.async is due after it)."""
    effect = tmem_effect(op)
    return effect is not None and effect.kind is EffectKind.TMA_LOAD
