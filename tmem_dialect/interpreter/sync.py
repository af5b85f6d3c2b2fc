"""Happens-before bookkeeping (vector clocks with fenced knowledge) and the cooperative warp scheduler.

Each warp runs on its own Python thread, but exactly one runs at a time: a warp runs until it
blocks (barrier, a full allocator, a cta_group::2 rendezvous) or finishes, then hands control back.
Ordering is judged with vector clocks, never with the interleaving this schedule happened to take.

Clocks (one entry per warp of the run; an event of warp P at clock c is known to warp U when
c <= known[U][P]):
- `vc`: ordinary happens-before, carried by barriers;
- `fenced`: the part of it that went through tcgen05.fence::before_thread_sync, a barrier and
  tcgen05.fence::after_thread_sync (the ISA's canonical TMEM handoff);
- `pending_fenced`: fenced knowledge received at a barrier, not yet enabled by fence::after.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tmem_dialect.findings import FindingKind


@dataclass
class WarpClock:
    """The clocks of one warp."""

    me: int
    vc: np.ndarray
    fenced: np.ndarray
    pending_fenced: np.ndarray

    @staticmethod
    def new(me: int, warps: int) -> WarpClock:
        z = lambda: np.zeros(warps, dtype=np.int64)  # noqa: E731
        clock = WarpClock(me, z(), z(), z())
        clock.vc[me] = 1  # others know nothing of this warp yet: they hold 0
        return clock

    @property
    def now(self) -> int:
        return int(self.vc[self.me])

    def knows(self, warp: int, clock: int) -> bool:
        return clock <= self.vc[warp]

    def knows_fenced(self, warp: int, clock: int) -> bool:
        return clock <= self.fenced[warp]

    def tick(self) -> None:
        self.vc[self.me] += 1

    def fence_before(self) -> None:
        """Everything this warp did so far is fenced; later events get a later clock."""
        self.fenced[self.me] = self.vc[self.me]
        self.tick()

    def fence_after(self) -> None:
        np.maximum(self.fenced, self.pending_fenced, out=self.fenced)

    def acquire(self, vc: np.ndarray, fenced: np.ndarray | None = None) -> None:
        """Learn what another agent released (fenced knowledge still needs fence::after)."""
        np.maximum(self.vc, vc, out=self.vc)
        if fenced is not None:
            np.maximum(self.pending_fenced, fenced, out=self.pending_fenced)


@dataclass
class Barrier:
    """One named CTA barrier (bar.sync id): arrivals of the current generation."""

    expected: int
    arrived_threads: int = 0
    warps: list[int] = field(default_factory=list)  # the warps that wait (bar.sync)
    ops: list[object] = field(default_factory=list)
    generation: int = 0
    # bar.arrive: the warps that only arrive, and what they released (vector clock, fenced)
    arrivers: list[int] = field(default_factory=list)
    released: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def arrive(self, clock: WarpClock) -> None:
        """A bar.arrive: release this warp's clock to the waiters and go on."""
        self.arrivers.append(clock.me)
        self.released.append((clock.vc.copy(), clock.fenced.copy()))
        clock.tick()


def complete_barrier(barrier: Barrier, clocks: list[WarpClock]) -> None:
    """All expected threads arrived: the waiters learn everything every participant did before
    arriving (arrivers learn nothing: they did not wait); open the next generation."""
    vcs = [clocks[w].vc for w in barrier.warps] + [vc for vc, _ in barrier.released]
    fences = [clocks[w].fenced for w in barrier.warps] + [f for _, f in barrier.released]
    joined = np.max(vcs, axis=0)
    fenced = np.max(fences, axis=0)
    for w in barrier.warps:
        clocks[w].acquire(joined, fenced)
        clocks[w].tick()
    barrier.arrived_threads = 0
    barrier.warps = []
    barrier.ops = []
    barrier.arrivers = []
    barrier.released = []
    barrier.generation += 1


@dataclass
class ClusterBarrier:
    """barrier.cluster: every thread of every CTA of the cluster arrives, then waits.

    An arrive (unless .relaxed) releases the warp's clock; a wait acquires the join of what
    the arrivals of its phase released."""

    expected: int
    arrived_threads: int = 0
    generation: int = 0
    released: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    joined: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # by generation

    def arrive(self, clock: WarpClock, threads: int, relaxed: bool) -> int:
        """Arrive with `threads` threads; returns the phase the warp must wait for."""
        phase = self.generation
        if not relaxed:
            self.released.append((clock.vc.copy(), clock.fenced.copy()))
        clock.tick()
        self.arrived_threads += threads
        if self.arrived_threads >= self.expected:
            zero = np.zeros_like(clock.vc)
            vcs = [vc for vc, _ in self.released] or [zero]
            fences = [f for _, f in self.released] or [zero]
            self.joined[phase] = (np.max(vcs, axis=0), np.max(fences, axis=0))
            self.arrived_threads = 0
            self.released = []
            self.generation += 1
        return phase


class Aborted(Exception):
    """Raised inside a warp thread when the run stops (deadlock, step limit, fatal error)."""


@dataclass
class Blocked:
    reason: str
    ready: Callable[[], bool]
    op: object
    kind: FindingKind = FindingKind.DEADLOCK  # what it is if the wait never ends


class Scheduler:
    """Runs warp bodies one at a time on their own threads; detects deadlock."""

    def __init__(self, count: int, policy: str = "round-robin"):
        """`policy`: "round-robin" (warp 0 first), "reverse" (last warp first) or "random:SEED"."""
        self._order = list(range(count))
        self._rng = None
        if policy == "reverse":
            self._order.reverse()
        elif policy.startswith("random:"):
            import random

            self._rng = random.Random(int(policy.split(":", 1)[1]))
        elif policy != "round-robin":
            raise ValueError(f"unknown schedule '{policy}' (round-robin, reverse or random:SEED)")
        self._cv = threading.Condition()
        self._running: int | None = None
        self._blocked: list[Blocked | None] = [None] * count
        self._done = [False] * count
        self._abort = False
        self._failures: list[BaseException] = []
        self._count = count
        self._last = -1

    # ---- called from warp threads ----------------------------------------------------------

    def block(self, warp: int, reason: str, ready: Callable[[], bool], op: object,
              kind: FindingKind = FindingKind.DEADLOCK) -> None:
        """Suspend warp `warp` until `ready()` holds and the scheduler resumes it."""
        with self._cv:
            self._blocked[warp] = Blocked(reason, ready, op, kind)
            self._running = None
            self._cv.notify_all()
            self._cv.wait_for(lambda: self._running == warp)
            self._blocked[warp] = None
            if self._abort:
                raise Aborted()

    def yield_now(self, warp: int) -> None:
        """Let other warps run (used to keep a spinning warp from starving the others)."""
        self.block(warp, "yield", lambda: True, None)

    # ---- called from the driver ------------------------------------------------------------

    def run(
        self,
        bodies: list[Callable[[], None]],
        on_deadlock: Callable[[list[tuple[int, Blocked]]], None],
    ) -> None:
        threads = []
        for w, body in enumerate(bodies):
            t = threading.Thread(target=self._thread, args=(w, body), daemon=True, name=f"warp{w}")
            threads.append(t)
            t.start()
        with self._cv:
            while True:
                nxt = self._pick()
                if nxt is None:
                    if all(self._done):
                        break
                    stuck = [
                        (w, b) for w, b in enumerate(self._blocked) if b is not None and not self._done[w]
                    ]
                    if not self._abort:
                        on_deadlock(stuck)
                    self._abort_all()
                    break
                self._running = nxt
                self._cv.notify_all()
                self._cv.wait_for(lambda: self._running is None)
                if self._failures and not self._abort:
                    self._abort_all()
                    break
        for t in threads:
            t.join()
        if self._failures:
            raise self._failures[0]

    def abort(self) -> None:
        """Request a stop; called from a warp thread, takes effect when it yields control."""
        self._abort = True

    def _abort_all(self) -> None:
        self._abort = True
        for w in range(self._count):
            if not self._done[w]:
                self._running = w
                self._cv.notify_all()
                self._cv.wait_for(lambda: self._running is None)

    def _pick(self) -> int | None:
        if self._abort:
            return None
        ready = []
        for step in range(1, self._count + 1):
            w = self._order[(self._last + step) % self._count]
            if self._done[w]:
                continue
            b = self._blocked[w]
            if b is None or b.ready():
                if self._rng is None:
                    self._last = self._order.index(w)
                    return w
                ready.append(w)
        if ready:
            assert self._rng is not None
            w = self._rng.choice(ready)
            self._last = self._order.index(w)
            return w
        return None

    def _thread(self, warp: int, body: Callable[[], None]) -> None:
        with self._cv:
            self._cv.wait_for(lambda: self._running == warp)
        try:
            if not self._abort:
                body()
        except Aborted:
            pass
        except BaseException as e:  # noqa: BLE001 -- handed to the driver, which reports it
            self._failures.append(e)
        finally:
            with self._cv:
                self._done[warp] = True
                self._running = None
                self._cv.notify_all()
