"""The data behind a TMEM map: allocations, last writer of each cell and cells with findings, per CTA.

Everything comes from the interpreter's TMEM model (interpreter.tmem, interpreter.machine): a
`MapRecorder` attaches to the machine of a run (run_kernel's `on_machine` hook), watches each op
a warp executes, and keeps a snapshot after the last execution of a chosen op (`--map-at`).
After the run, `result()` replays the access history up to the snapshot (or to the end):
- a cell's writer is the warp of the last access that wrote it (st, and any op whose effect
  writes TMEM), in the order the run executed them; a dealloc frees cells without writing them,
  so a map after the run still shows who wrote what in the freed columns;
- a finding is tied to the cells of the TMEM access (or the allocation) it was reported at,
  narrowed to the cells it shares with the op its first note names (the other side of a race);
  findings at no TMEM cell (a barrier count, a double dealloc) are counted, not drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.diagnostics import location_of, op_name
from tmem_dialect.dialects.interfaces import tmem_effect

if TYPE_CHECKING:
    from tmem_dialect.interpreter.machine import Machine
    from tmem_dialect.interpreter.tmem import AccessRecord, Allocation
    from tmem_dialect.interpreter.warp import WarpInterpreter

LANES, COLUMNS = isa.TMEM_LANES, isa.TMEM_COLUMNS
NOBODY = -1


class MapError(ValueError):
    """The map cannot be made as asked (the op of --map-at does not exist or never ran)."""


def op_text(op: Operation) -> str:
    loc = location_of(op)
    return f"{op_name(op)} at {loc}" if loc else op_name(op)


@dataclass(frozen=True)
class MapAllocation:
    """One allocation of a CTA's columns, and whether it was still live when the map was taken."""

    base: int
    ncols: int
    warp: int
    op: Operation
    live: bool

    @property
    def label(self) -> str:
        loc = location_of(self.op)
        where = f", line {loc.line}" if loc else ""
        state = "" if self.live else ", freed"
        return f"{op_name(self.op)} {self.ncols} cols @{self.base} (warp {self.warp}{where}{state})"


@dataclass
class CtaMap:
    """One CTA's TMEM as the map shows it."""

    cta: int
    warps: list[int]  # the CTA's warps (run-wide numbers, as diagnostics name them)
    allocations: list[MapAllocation]
    writer: np.ndarray  # [128 lanes, 512 columns]: warp that last wrote the cell, NOBODY if none
    findings: dict[str, np.ndarray] = field(default_factory=dict)  # kind -> [128, 512] bool

    def quarter_warps(self, quarter: int) -> list[int]:
        """The warps of this CTA that may access lane quarter `quarter` (warp % 4 in the CTA)."""
        first = self.warps[0]
        return [w for w in self.warps if isa.lane_quarter(w - first).start == quarter * isa.LANES_PER_WARP]

    def cells_written_by(self, warp: int) -> int:
        return int((self.writer == warp).sum())


@dataclass
class TmemMap:
    """The map of every CTA of the run at one moment."""

    ctas: list[CtaMap]
    moment: str  # "after the run", "after tcgen05.st at k.mlir:12:3 (its last execution, by warp 3)"
    unplaced: dict[str, int] = field(default_factory=dict)  # finding kind -> findings at no cell


@dataclass(frozen=True)
class OpSelector:
    """Which op --map-at names: `FILE:LINE` or `LINE` (an op's location), `#N` (N-th op with a TMEM
    effect); `@K` after either picks its K-th execution (by any warp) instead of its last."""

    text: str
    line: int | None = None
    file: str | None = None
    nth: int | None = None
    execution: int | None = None

    @staticmethod
    def parse(text: str) -> OpSelector:
        spec, at, count = text.strip().partition("@")
        execution = int(count) if count.isdigit() and int(count) >= 1 else None
        if not at or execution is not None:
            if spec.startswith("#"):
                if spec[1:].isdigit() and int(spec[1:]) >= 1:
                    return OpSelector(text, nth=int(spec[1:]), execution=execution)
            else:
                file, colon, line = spec.rpartition(":")
                if line.isdigit() and int(line) >= 1 and (file or not colon):
                    return OpSelector(text, line=int(line), file=file or None, execution=execution)
        raise MapError(
            f"--map-at '{text}': name an op by its location (FILE:LINE or LINE) or as #N, the N-th "
            "op with a TMEM effect in the module, optionally with @K for its K-th execution"
        )

    def resolve(self, module: Operation) -> set[int]:
        """ids of the ops this selector names in `module` (MapError when none)."""
        tmem_ops = [op for op in module.walk() if tmem_effect(op) is not None]
        if self.nth is not None:
            if self.nth > len(tmem_ops):
                raise MapError(f"--map-at '{self.text}': the module has {len(tmem_ops)} ops with a TMEM effect")
            return {id(tmem_ops[self.nth - 1])}
        found = {id(op) for op in module.walk() if self._at(op)}
        if not found:
            lines = sorted({loc.line for op in tmem_ops if (loc := location_of(op)) is not None})
            hint = f" (ops with a TMEM effect are at lines {', '.join(map(str, lines))})" if lines else ""
            raise MapError(f"--map-at '{self.text}': no op at line {self.line}{hint}")
        return found

    def _at(self, op: Operation) -> bool:
        loc = location_of(op)
        if loc is None or loc.line != self.line or op.parent_op() is None:
            return False
        return self.file is None or loc.file == self.file or loc.file.endswith("/" + self.file)


@dataclass
class _Snapshot:
    records: int
    allocations: list[list[tuple[Allocation, bool]]]
    findings: int  # how many placed findings existed
    unplaced: dict[str, int]
    text: str


@dataclass
class _PlacedFinding:
    kind: str
    cta: int
    cells: np.ndarray  # flat cell indices in that CTA's TMEM


class MapRecorder:
    """Watches one run (attach it with run_kernel(on_machine=recorder.attach)) and makes its map."""

    def __init__(self, at: OpSelector | None = None):
        self.at = at
        self.machine: Machine | None = None
        self._targets: set[int] | None = None
        self._snapshot: _Snapshot | None = None
        self._seen_records = 0
        self._seen_findings = 0
        self._placed: list[_PlacedFinding] = []
        self._unplaced: dict[str, int] = {}
        self._error: MapError | None = None
        self._executions = 0

    # ---- during the run ----------------------------------------------------------------

    def attach(self, machine: Machine) -> None:
        self.machine = machine
        machine.observer = self._observe

    def _observe(self, w: WarpInterpreter, op: Operation) -> None:
        self._place_new_findings()
        if self.at is None or self._error is not None:
            return
        if self._targets is None:
            try:
                self._targets = self.at.resolve(w.module)
            except MapError as e:
                self._error, self._targets = e, set()
        if id(op) in self._targets:
            assert self.machine is not None
            self._executions += 1
            if self.at.execution is not None and self._executions != self.at.execution:
                return
            which = "its last execution" if self.at.execution is None else f"execution {self._executions}"
            self._snapshot = _Snapshot(
                len(self.machine.history.records),
                [[(a, a.live) for a in cta.tmem.allocator.allocations] for cta in self.machine.ctas],
                len(self._placed),
                dict(self._unplaced),
                f"after {op_text(op)} ({which}, by warp {w.warp})",
            )

    def _place_new_findings(self) -> None:
        """Tie the findings reported since the last look to cells (see the module docstring)."""
        m = self.machine
        assert m is not None
        records = m.history.records
        new_records = records[self._seen_records :]
        self._seen_records = len(records)
        for finding in m.findings[self._seen_findings :]:
            # A FindingKind (its JSON spelling names it in the picture), or a plain string.
            self._place(str(getattr(finding.kind, "value", finding.kind)), finding.diagnostic, new_records)
        self._seen_findings = len(m.findings)

    def _place(self, kind: str, diagnostic, new_records: list[AccessRecord]) -> None:
        m = self.machine
        assert m is not None
        op = diagnostic.op
        related = diagnostic.notes[0].op if diagnostic.notes else None
        per_cta: dict[int, np.ndarray] = {}
        for rec in new_records:
            if rec.op is op:
                cta = rec.warp // m.warps_per_cta
                per_cta[cta] = np.union1d(per_cta.get(cta, np.empty(0, np.int64)), rec.cells()[0])
        if not per_cta:
            for cta in m.ctas:
                for a in cta.tmem.allocator.allocations:
                    if a.op is op:
                        lanes = np.arange(LANES)[:, None] * COLUMNS
                        per_cta[cta.index] = (lanes + np.arange(a.base, a.base + a.ncols)).reshape(-1)
        if not per_cta:
            self._unplaced[kind] = self._unplaced.get(kind, 0) + 1
            return
        for cta, cells in per_cta.items():
            if related is not None and related is not op:
                other = [r.cells()[0] for r in m.history.records
                         if r.op is related and r.warp // m.warps_per_cta == cta]
                if other:
                    shared = np.intersect1d(cells, np.concatenate(other))
                    cells = shared if shared.size else cells
            self._placed.append(_PlacedFinding(kind, cta, cells))

    # ---- after the run -----------------------------------------------------------------

    def result(self) -> TmemMap:
        """The map: at the --map-at snapshot, or after the run. MapError when it cannot be made."""
        m = self.machine
        if m is None:
            raise MapError("the kernel did not start")
        self._place_new_findings()
        if self._error is not None:
            raise self._error
        if self.at is not None:
            if self._targets is None:
                raise MapError(f"--map-at '{self.at.text}': no op ran")
            if self._snapshot is None:
                if self._executions:
                    raise MapError(f"--map-at '{self.at.text}': the op ran only {self._executions} times")
                raise MapError(f"--map-at '{self.at.text}': the op never ran")
            snap = self._snapshot
        else:
            snap = _Snapshot(
                len(m.history.records),
                [[(a, a.live) for a in cta.tmem.allocator.allocations] for cta in m.ctas],
                len(self._placed),
                dict(self._unplaced),
                "after the run",
            )
        writer = [np.full(LANES * COLUMNS, NOBODY, dtype=np.int64) for _ in m.ctas]
        for rec in m.history.records[: snap.records]:
            if rec.kind.writes_tmem:
                writer[rec.warp // m.warps_per_cta][rec.cells()[0]] = rec.warp
        ctas = []
        for cta in m.ctas:
            ctas.append(CtaMap(
                cta.index,
                list(cta.warps),
                [MapAllocation(a.base, a.ncols, a.warp, a.op, live) for a, live in snap.allocations[cta.index]],
                writer[cta.index].reshape(LANES, COLUMNS),
            ))
        for placed in self._placed[: snap.findings]:
            grid = ctas[placed.cta].findings.setdefault(placed.kind, np.zeros((LANES, COLUMNS), dtype=bool))
            grid.reshape(-1)[placed.cells] = True
        return TmemMap(ctas, snap.text, snap.unplaced)
