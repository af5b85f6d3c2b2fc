"""The interpreter's mbarrier ops: init, arrive, expect_tx, complete_tx, inval, try_wait/test_wait."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter.mbarrier import MBarrier, Misuse
from tmem_dialect.interpreter.memory import MemoryFault

if TYPE_CHECKING:
    from tmem_dialect.interpreter.producers import Producers
    from tmem_dialect.interpreter.warp import WarpInterpreter


class BarrierOps:
    """The mbarrier ops of one warp, a part of interpreter.producers.Producers (its mbarriers)."""

    def _lanes(self: Producers, w: WarpInterpreter) -> np.ndarray:
        return np.flatnonzero(w.mask)

    def init(self: Producers, w, op, addresses: np.ndarray, counts: np.ndarray) -> None:
        for lane in self._lanes(w):
            for misuse in self.mbarriers.init(w.cta, int(addresses[lane]), int(counts[lane]), w.warp,
                                              self.machine.clocks[w.warp], op):
                self.report(op, misuse)

    def fence_init(self: Producers, w) -> None:
        self.mbarriers.fence_init(w.warp, self.machine.clocks[w.warp])

    def arrive(self: Producers, w, op, addresses: np.ndarray, counts: np.ndarray | None, tx: np.ndarray | None) -> np.ndarray:
        """Per active thread; returns the state tokens (int64 per lane, -1 where none)."""
        tokens = np.full(len(w.mask), -1, dtype=np.int64)
        for lane in self._lanes(w):
            try:  # a shared::cluster address arrives on another CTA's mbarrier (a remote arrive)
                cta, address = self.machine.shared_target(w, int(addresses[lane]))
            except MemoryFault as e:
                self.machine.report(FindingKind.MEMORY_FAULT, "error", op, f"{op.name} of warp {w.warp}: {e}",
                                    key=w.warp)
                continue
            if cta != w.cta:
                # The peer CTA must not exit before it. Recorded at the clock the arrive releases
                # (the arrive ticks after it): a peer that observes the phase knows the access.
                self.machine.remote_access(w, op, cta)
            token, out = self.mbarriers.arrive(
                cta, address, w.warp, self.machine.clocks[w.warp],
                1 if counts is None else int(counts[lane]), op, 0 if tx is None else int(tx[lane]),
                peer=cta != w.cta)
            for misuse in out:
                self.report(op, misuse)
            if token is not None:
                tokens[lane] = token
        return tokens

    def expect_tx(self: Producers, w, op, addresses: np.ndarray, tx: np.ndarray) -> None:
        for lane in self._lanes(w):
            for misuse in self.mbarriers.expect_tx(w.cta, int(addresses[lane]), w.warp,
                                                   self.machine.clocks[w.warp], int(tx[lane]), op):
                self.report(op, misuse)

    def complete_tx(self: Producers, w, op, addresses: np.ndarray, tx: np.ndarray) -> None:
        clock = self.machine.clocks[w.warp]
        for lane in self._lanes(w):
            for misuse in self.mbarriers.complete_tx(w.cta, int(addresses[lane]), int(tx[lane]), clock.vc.copy()):
                self.report(op, misuse)
        clock.tick()

    def inval(self: Producers, w, op, addresses: np.ndarray) -> None:
        for lane in self._lanes(w):
            for misuse in self.mbarriers.inval(w.cta, int(addresses[lane]), w.warp, self.machine.clocks[w.warp]):
                self.report(op, misuse)

    def wait(self: Producers, w, op, addresses: np.ndarray, parity: np.ndarray | None, token: np.ndarray | None,
             blocking: bool) -> np.ndarray:
        """try_wait (blocking: suspends until the phase completes) or test_wait (returns at once).
        Returns the per-lane predicate."""
        m = self.machine
        done = np.zeros(len(w.mask), dtype=bool)
        lanes = self._lanes(w)
        barriers: dict[int, MBarrier] = {}
        for lane in lanes:
            address = int(addresses[lane])
            b, out = self.mbarriers._usable(w.cta, address, w.warp, m.clocks[w.warp], op.name, False)
            for misuse in out:
                self.report(op, misuse)
            if b is not None and b.valid:
                barriers[lane] = b
        if not barriers:
            return done

        def ready() -> bool:
            return all(self.mbarriers.wait_ready(b, _at(parity, lane), _at(token, lane))
                       for lane, b in barriers.items())

        if blocking and not ready():
            lane0, b0 = next(iter(barriers.items()))
            reason = StuckReason(self, w.warp, b0, _at(parity, lane0), _at(token, lane0))
            self.stuck[w.warp] = (reason, op)
            m.scheduler.block(w.warp, reason, ready, op)
            del self.stuck[w.warp]
        for lane, b in barriers.items():
            p, t = _at(parity, lane), _at(token, lane)
            if self.mbarriers.wait_ready(b, p, t):
                done[lane] = True
                note = self.mbarriers.observe(b, w.warp, m.clocks[w.warp], p, t)
                if note is not None:
                    self.report(op, note, severity="note", key="vacuous")
        if not blocking and not done[lanes].all():
            m.scheduler.yield_now(w.warp)
        return done


def _at(values: np.ndarray | None, lane: int) -> int | None:
    return None if values is None else int(values[lane])


class StuckReason(str):
    """A block reason that describes the barrier's state when the deadlock is reported (not
    when the warp blocked: arrivals may come in between)."""

    def __new__(cls, producers: Producers, warp: int, b: MBarrier, parity: int | None, token: int | None):
        self = super().__new__(cls, f"warp {warp} waits on an mbarrier")
        self.producers, self.warp, self.b, self.parity, self.token = producers, warp, b, parity, token
        return self

    def misuse(self) -> Misuse:
        return self.producers.mbarriers.stuck_wait(self.b, self.parity, self.token)

    def __str__(self) -> str:
        return f"warp {self.warp} {self.misuse().message}"

    def __format__(self: Producers, spec: str) -> str:
        return format(str(self), spec)

    def __add__(self: Producers, other: str) -> str:
        return str(self) + other
