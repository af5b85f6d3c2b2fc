"""Lane-assignment planning: cover one warp's TMEM cells with the fewest tcgen05.ld/st messages.

No IR here. The input is, for one warp of a warpgroup, which thread and which fragment position
(register-vector index m) owns each TMEM cell of the warp's 32-lane quarter. A message is one
tcgen05.ld/st: an access kind (shape, 16-bit packing), a num, a start cell and, for 16x32bx2, the
half-split step. A message fits when every (thread, register, half) it moves lands on a cell that
thread owns, and each register holds the same fragment position in every thread (the register
vectors are assembled with one thread-uniform shuffle). All shape facts come from `isa`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from tmem_dialect import isa

NONE = -1
WARP_LANES = isa.LANES_PER_WARP
UPPER_THREADS = isa.WARP_SIZE // 2  # 16x32bx2: threads from here on use the half-split address


@dataclass(frozen=True)
class Access:
    """One kind of message: a shape, with or without pack::16b / unpack::16b."""

    shape: isa.Shape
    packed: bool = False

    @property
    def columns(self) -> int:
        """TMEM columns one repetition (x1) moves."""
        return self.shape.cols_per_num * (2 if self.packed else 1)

    @property
    def halves(self) -> int:
        """Values per register: two 16-bit halves when packed, else one."""
        return 2 if self.packed else 1

    def max_num(self, budget: int) -> int | None:
        """The largest legal num within `budget` registers per thread, or None if x1 exceeds it."""
        fitting = [n for n in isa.legal_nums(self.shape) if isa.regs_per_thread(self.shape, n) <= budget]
        return max(fitting) if fitting else None

    def __str__(self) -> str:
        return self.shape.value + (" pack::16b" if self.packed else "")


def accesses_for(element_bits: int) -> tuple[Access, ...]:
    """The access kinds to try, widest shape first; 16-bit data prefers packing (twice the columns)."""
    plain = tuple(Access(s) for s in isa.SHAPES_WIDEST_FIRST)
    if element_bits == 16:
        return tuple(Access(s, True) for s in isa.SHAPES_WIDEST_FIRST) + plain
    return plain


@dataclass
class WarpCells:
    """Owner thread, fragment position m and element id of each cell of one warp's lane quarter.

    Arrays are [32 lanes, width columns]; NONE where the tile has no element. Lanes are relative
    to the quarter, columns to the buffer address.
    """

    thread: np.ndarray
    position: np.ndarray
    element: np.ndarray

    @staticmethod
    def build(
        lanes: np.ndarray, columns: np.ndarray, threads: np.ndarray, positions: np.ndarray, elements: np.ndarray
    ) -> WarpCells:
        width = int(columns.max()) + 1 if columns.size else 0
        arrays = [np.full((WARP_LANES, width), NONE, dtype=np.int64) for _ in range(3)]
        for array, values in zip(arrays, (threads, positions, elements)):
            array[lanes, columns] = values
        return WarpCells(*arrays)

    @property
    def width(self) -> int:
        return self.thread.shape[1]

    @property
    def empty(self) -> bool:
        return not (self.thread != NONE).any()

    def key(self) -> tuple[bytes, bytes, int]:
        """Equal keys mean equal plans (elements only name cells in diagnostics)."""
        return self.thread.tobytes(), self.position.tobytes(), self.width

    def lookup(self, lanes: np.ndarray, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(thread, position, inside) at the given cells; NONE thread/position outside the quarter."""
        inside = (lanes >= 0) & (lanes < WARP_LANES) & (columns >= 0) & (columns < self.width)
        lane_i = np.where(inside, lanes, 0)
        col_i = np.where(inside, columns, 0)
        thread = np.where(inside, self.thread[lane_i, col_i], NONE)
        position = np.where(inside, self.position[lane_i, col_i], NONE)
        return thread, position, inside

    def cell_of(self, thread: int, position: int) -> tuple[int, int] | None:
        found = np.argwhere((self.thread == thread) & (self.position == position))
        return (int(found[0][0]), int(found[0][1])) if len(found) else None


@dataclass(frozen=True)
class Message:
    """One tcgen05.ld/st of a warp: kind, num, first cell, half-split step, and what it moves."""

    access: Access
    num: int
    lane: int
    column: int
    split: tuple[int, int] | None
    positions: tuple[int, ...]  # fragment position of each (register, half), register-major

    @property
    def registers(self) -> int:
        return isa.regs_per_thread(self.access.shape, self.num)

    @property
    def half_split_offset(self) -> int | None:
        """immHalfSplitoff: added to the whole 32-bit address, so a lane step is `lanes << 16`."""
        if self.split is None:
            return None
        lanes, columns = self.split
        return (lanes << isa.LANE_SHIFT) + columns


class MismatchKind(Enum):
    OUTSIDE = "outside"  # the cell is outside the warp's lane quarter
    EMPTY = "empty"  # the cell holds no element of the tile
    OWNER = "owner"  # the cell's element belongs to another thread
    POSITION = "position"  # the register holds different fragment positions in different threads
    TAKEN = "taken"  # another message already moves the cell
    SPLIT = "split"  # 16x32bx2 would need an impossible half-split offset


@dataclass(frozen=True)
class Mismatch:
    """Why a message does not fit: the first (thread, register, half) that goes wrong."""

    kind: MismatchKind
    thread: int
    register: int
    lane: int
    column: int
    owner: int = NONE
    position: int = NONE
    expected_position: int = NONE


def message_cells(
    access: Access, num: int, lane: int, column: int, split: tuple[int, int] | None
) -> tuple[np.ndarray, np.ndarray]:
    """(lane, column) arrays [32 threads, registers, halves] a message moves, relative to the quarter."""
    frag = isa.fragment(access.shape, num, access.packed)
    split_lane, split_col = split or (0, 0)
    upper = frag.upper_half[:, None, None]
    lanes = frag.lane + lane + np.where(upper, split_lane, 0)
    columns = frag.column + column + np.where(upper, split_col, 0)
    return lanes, columns


def probe(
    cells: WarpCells,
    access: Access,
    num: int,
    lane: int,
    column: int,
    split: tuple[int, int] | None,
    taken: np.ndarray | None = None,
) -> tuple[int, ...] | Mismatch:
    """The fragment positions a message moves (register-major), or why it does not fit."""
    lanes, columns = message_cells(access, num, lane, column, split)
    thread, position, inside = cells.lookup(lanes, columns)
    threads = np.arange(isa.WARP_SIZE)[:, None, None]
    expected = np.broadcast_to(position[0], position.shape)
    bad = (thread != threads) | (position != expected)
    if taken is not None:
        bad |= np.where(inside, taken[np.where(inside, lanes, 0), np.where(inside, columns, 0)], False)
    if not bad.any():
        return tuple(int(p) for p in position[0].reshape(-1))
    t, r, h = (int(i) for i in np.argwhere(bad)[0])
    where = {"thread": t, "register": r, "lane": int(lanes[t, r, h]), "column": int(columns[t, r, h])}
    if not 0 <= where["lane"] < WARP_LANES:
        return Mismatch(MismatchKind.OUTSIDE, **where)
    if thread[t, r, h] == NONE:  # includes columns outside the tile's extent
        return Mismatch(MismatchKind.EMPTY, **where)
    if thread[t, r, h] != t:
        return Mismatch(MismatchKind.OWNER, owner=int(thread[t, r, h]), **where)
    if position[t, r, h] != expected[t, r, h]:
        return Mismatch(
            MismatchKind.POSITION,
            position=int(position[t, r, h]),
            expected_position=int(expected[t, r, h]),
            **where,
        )
    return Mismatch(MismatchKind.TAKEN, **where)


def half_split(cells: WarpCells, lane: int, column: int) -> tuple[int, int] | Mismatch:
    """The (lane, column) step from thread 0's first cell to thread 16's cell of the same position."""
    partner = cells.cell_of(UPPER_THREADS, int(cells.position[lane, column]))
    if partner is None:
        return Mismatch(
            MismatchKind.EMPTY, UPPER_THREADS, 0, lane, column, owner=0, position=int(cells.position[lane, column])
        )
    step = (partner[0] - lane, partner[1] - column)
    if (step[0] << isa.LANE_SHIFT) + step[1] < 0:
        return Mismatch(MismatchKind.SPLIT, UPPER_THREADS, 0, partner[0], partner[1])
    return step


@dataclass(frozen=True)
class Atom:
    """A fitting x1 message, before neighbouring atoms are merged into one larger num."""

    access: Access
    lane: int
    column: int
    split: tuple[int, int] | None


def _cover(cells: WarpCells, kinds: Sequence[Access]) -> tuple[list[Atom], np.ndarray]:
    """Greedy: for each kind in order, place an x1 atom at every uncovered cell of thread 0 where it fits."""
    taken = np.zeros(cells.thread.shape, dtype=bool)
    atoms: list[Atom] = []
    for access in kinds:
        starts = isa.slab_lane_offsets(access.shape)
        for lane, column in np.argwhere(cells.thread == 0):
            lane, column = int(lane), int(column)
            if lane not in starts or taken[lane, column]:
                continue
            split = None
            if access.shape.needs_half_split_offset:
                step = half_split(cells, lane, column)
                if isinstance(step, Mismatch):
                    continue
                split = step
            if isinstance(probe(cells, access, 1, lane, column, split, taken), Mismatch):
                continue
            lanes, columns = message_cells(access, 1, lane, column, split)
            taken[lanes, columns] = True
            atoms.append(Atom(access, lane, column, split))
    return atoms, taken


def _merge(cells: WarpCells, atoms: list[Atom], budget: int) -> tuple[Message, ...]:
    """Join column-adjacent atoms of one kind into the fewest power-of-two nums within the budget."""
    runs: dict[tuple[Access, int, tuple[int, int] | None], list[int]] = {}
    for atom in atoms:
        runs.setdefault((atom.access, atom.lane, atom.split), []).append(atom.column)
    messages: list[Message] = []
    for (access, lane, split), columns in runs.items():
        columns.sort()
        limit = access.max_num(budget)
        assert limit is not None
        i = 0
        while i < len(columns):
            length = 1
            while i + length < len(columns) and columns[i + length] == columns[i] + length * access.columns:
                length += 1
            # Fewest power-of-two pieces of at most `limit`: greedy largest first is optimal.
            start = i
            while length:
                num = min(limit, 1 << (length.bit_length() - 1))
                positions = probe(cells, access, num, lane, columns[start], split)
                assert not isinstance(positions, Mismatch), "adjacent fitting atoms must merge"
                messages.append(Message(access, num, lane, columns[start], split, positions))
                start += num
                length -= num
            i = start
    messages.sort(key=lambda m: (m.lane, m.column, str(m.access)))
    return tuple(messages)


@dataclass(frozen=True)
class Failure:
    """No plan: the first cell left over, with each access kind's reason (None: it fits there)."""

    lane: int
    column: int
    reasons: tuple[tuple[Access, Mismatch | str | None], ...]


def plan_warp(
    cells: WarpCells, kinds: Sequence[Access], budget: int
) -> tuple[Message, ...] | Failure:
    """The fewest messages that move every owned cell exactly once, or why there are none.

    Widest kinds first (TVM TIRx style); a mixed greedy cover is compared with each single-kind
    cover and the one with the fewest messages wins (ties: the earlier, wider choice).
    """
    usable = [k for k in kinds if k.max_num(budget) is not None]
    owned = cells.thread != NONE
    candidates: list[tuple[Message, ...]] = []
    atoms, taken = _cover(cells, usable)
    mixed_complete = bool((taken | ~owned).all())
    if mixed_complete:
        candidates.append(_merge(cells, atoms, budget))
    if not mixed_complete or len({a.access for a in atoms}) > 1:
        for kind in usable:
            single, single_taken = _cover(cells, [kind])
            if (single_taken | ~owned).all():
                candidates.append(_merge(cells, single, budget))
    if candidates:
        return min(candidates, key=len)
    lane, column = (int(v) for v in np.argwhere(owned & ~taken)[0])
    return Failure(lane, column, tuple((k, explain(cells, k, lane, column, budget)) for k in kinds))


def explain(cells: WarpCells, access: Access, lane: int, column: int, budget: int) -> Mismatch | str | None:
    """Why no `access` message can move the cell (lane, column) to its owner; None if one could."""
    if access.max_num(budget) is None:
        need = isa.regs_per_thread(access.shape, 1)
        return f"needs {need} registers per message, more than the budget of {budget}"
    owner = int(cells.thread[lane, column])
    if access.shape.needs_half_split_offset and owner >= UPPER_THREADS:
        # Threads t and t+16 get the same registers; explain at the lower thread's cell.
        partner = cells.cell_of(owner - UPPER_THREADS, int(cells.position[lane, column]))
        if partner is None:
            return Mismatch(
                MismatchKind.EMPTY,
                owner - UPPER_THREADS,
                0,
                lane,
                column,
                owner=owner,
                position=int(cells.position[lane, column]),
            )
        lane, column, owner = partner[0], partner[1], owner - UPPER_THREADS
    frag = isa.fragment(access.shape, 1, access.packed)
    found: list[tuple[int, int, int]] = []  # (thread that would get the cell, start lane, start column)
    for start in isa.slab_lane_offsets(access.shape):
        hits = np.argwhere((frag.lane + start == lane) & ~frag.upper_half[:, None, None])
        for t, r, h in hits:
            found.append((int(t), start, column - int(frag.column[t, r, h])))
    if not found:
        return Mismatch(MismatchKind.OUTSIDE, NONE, NONE, lane, column)
    found.sort(key=lambda f: (f[0] != owner, f[1]))
    thread, start_lane, start_column = found[0]
    if thread != owner:
        return Mismatch(MismatchKind.OWNER, thread, NONE, lane, column, owner=owner)
    split = None
    if access.shape.needs_half_split_offset:
        if not (0 <= start_lane < WARP_LANES and 0 <= start_column < cells.width) or cells.thread[
            start_lane, start_column
        ] != 0:
            return probe(cells, access, 1, start_lane, start_column, (0, 0))
        step = half_split(cells, start_lane, start_column)
        if isinstance(step, Mismatch):
            return step
        split = step
    result = probe(cells, access, 1, start_lane, start_column, split)
    return result if isinstance(result, Mismatch) else None
