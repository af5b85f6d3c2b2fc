"""Draw the fragment map of one tcgen05.ld/st form: TMEM lanes x columns beside threads x registers.

Every fact (which cell each thread, register and 16-bit half moves) is isa.fragment / isa.access_cells;
this module only parses the form's spelling and draws. Colour = register index, on both sides; a
TMEM cell is labelled with the thread and register it goes to, a register with the cell it holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tmem_dialect import isa
from tmem_dialect.tools.pictures import canvas

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

_SKIPPED = {"tcgen05", "sync", "aligned", "b32"}
_PACKING = {"pack": isa.PACK_16B, isa.PACK_16B: isa.PACK_16B, "unpack": isa.UNPACK_16B, isa.UNPACK_16B: isa.UNPACK_16B}
MAX_LABELLED_CELLS = 2048  # per side; larger forms are drawn as coloured regions without labels


@dataclass(frozen=True)
class Form:
    """One ld/st form: `[ld.|st.]SHAPE.xNUM[.pack|.unpack]`, and the half-split offset of 16x32bx2."""

    op: str | None
    shape: isa.Shape
    num: int
    packed: bool
    offset: int | None

    @property
    def text(self) -> str:
        head = f"tcgen05.{self.op}" if self.op else "tcgen05.ld/st"
        pack = ""
        if self.packed:
            pack = {"ld": ".pack::16b", "st": ".unpack::16b"}.get(self.op or "", ".pack::16b / .unpack::16b")
        split = f" (immHalfSplitoff {self.offset})" if self.offset is not None else ""
        return f"{head} .{self.shape.value}.x{self.num}{pack}{split}"


def parse_form(text: str, offset: int | None = None) -> Form:
    """`16x128b.x4`, `32x32b.x2.pack`, `st.16x64b.x1.unpack::16b`, or a whole PTX mnemonic.

    ValueError (one line, naming the problem) for anything the ISA does not allow.
    """
    op: str | None = None
    shape: isa.Shape | None = None
    num: int | None = None
    packing: str | None = None
    for token in (t for t in text.strip().split(".") if t):
        if token in _SKIPPED:
            continue
        if token in ("ld", "st") and op is None and shape is None:
            op = token
        elif token in _PACKING and packing is None:
            packing = _PACKING[token]
        elif token[:1] == "x" and token[1:].isdigit() and num is None:
            num = int(token[1:])
        elif shape is None and token in {s.value for s in isa.Shape}:
            shape = isa.shape_from_ptx(token)
        else:
            shapes = ", ".join(s.value for s in isa.Shape)
            raise ValueError(f"form '{text}': unexpected '{token}' (a form is [ld.|st.]SHAPE.xNUM[.pack], "
                             f"SHAPE one of {shapes})")
    if shape is None or num is None:
        raise ValueError(f"form '{text}' needs a shape and a num, e.g. 16x128b.x4 or 32x32b.x2.pack")
    if err := isa.num_error(shape, num):
        raise ValueError(f"form '{text}': {err}")
    if op is not None and (err := isa.packing_error(op, packing)):
        raise ValueError(f"form '{text}': {err}")
    packed = packing is not None
    if shape.needs_half_split_offset and offset is None:
        offset = isa.fragment(shape, num, packed).columns  # the two halves side by side
    if err := isa.half_split_offset_error(shape, offset):
        raise ValueError(f"form '{text}': {err}")
    return Form(op, shape, num, packed, offset)


@dataclass(frozen=True)
class FragmentCells:
    """Where each (thread, register, half) of a form lands, relative to the top-left cell drawn."""

    form: Form
    lane: np.ndarray  # [32 threads, registers, halves]
    column: np.ndarray
    base_lane: int  # where the form's taddr sits in the drawing (> 0 only for a negative half split)
    base_column: int

    @staticmethod
    def of(form: Form) -> FragmentCells:
        lanes, columns = (0, 0) if form.offset is None else isa.taddr_step(form.offset)
        base_lane, base_column = max(0, -lanes), max(0, -columns)
        lane, column = isa.access_cells(isa.make_taddr(base_lane, base_column), form.shape, form.num,
                                        form.packed, form.offset)
        return FragmentCells(form, lane, column, base_lane, base_column)

    @property
    def threads(self) -> int:
        return self.lane.shape[0]

    @property
    def registers(self) -> int:
        return self.lane.shape[1]

    @property
    def halves(self) -> int:
        return self.lane.shape[2]

    @property
    def extent(self) -> tuple[int, int]:
        """(lanes, columns) of the TMEM side of the drawing."""
        return int(self.lane.max()) + 1, int(self.column.max()) + 1


def register_color(r: int, registers: int) -> str:
    """The colour of register r: the warp palette, or a sequential map when it would repeat."""
    if registers <= canvas.PALETTE_SIZE:
        return canvas.color(r)
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    return to_hex(colormaps["viridis"](r / (registers - 1)))


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _half(h: int, halves: int) -> str:
    return ("", ".lo", ".hi")[h + 1] if halves == 2 else ""


def draw_fragment(form: Form) -> Figure:
    cells = FragmentCells.of(form)
    lanes, columns = cells.extent
    slots = cells.registers * cells.halves
    size = min(0.5, 9.0 / max(columns, slots), 12.0 / cells.threads)  # inches per cell
    labelled = size >= 0.22 and cells.lane.size <= MAX_LABELLED_CELLS
    left, gap, right, top, bottom = 0.9, 0.9, 0.4, 1.1, 1.0
    w1, h1, w2, h2 = columns * size, lanes * size, slots * size, cells.threads * size
    # Each panel sits centred in a slot at least as wide as its title and axis label.
    slot1, slot2 = max(w1, 3.0), max(w2, 2.8)
    width = max(left + slot1 + gap + slot2 + right, 7.0)
    height = top + max(h1, h2) + bottom
    fig = canvas.new_figure(width, height)
    fig.suptitle(
        f"{form.text}\n{_count(isa.regs_per_thread(form.shape, form.num), 'register')} per thread, "
        f"{form.shape.lanes} lanes x {_count(isa.fragment(form.shape, form.num, form.packed).columns, 'column')}",
        fontsize=10, y=1 - 0.12 / height, va="top",
    )
    x1 = left + (slot1 - w1) / 2
    x2 = left + slot1 + gap + (slot2 - w2) / 2
    tmem = fig.add_axes((x1 / width, (height - top - h1) / height, w1 / width, h1 / height))
    regs = fig.add_axes((x2 / width, (height - top - h2) / height, w2 / width, h2 / height))
    _tmem_side(tmem, cells, lanes, columns, labelled, size)
    _register_side(regs, cells, labelled, size)
    return fig


def _font(size: float) -> float:
    return max(4.0, min(9.0, size * 72 * 0.28))


def _tmem_side(ax: Axes, cells: FragmentCells, lanes: int, columns: int, labelled: bool, size: float) -> None:
    from matplotlib.patches import Rectangle

    ax.set_xlim(0, columns)
    ax.set_ylim(lanes, 0)
    ax.set_title("TMEM: lanes x columns", fontsize=9)
    ax.add_patch(Rectangle((0, 0), columns, lanes, facecolor=canvas.UNTOUCHED, edgecolor="none", zorder=0))
    if labelled:
        for t, r, h in np.ndindex(cells.lane.shape):
            lane, col = int(cells.lane[t, r, h]), int(cells.column[t, r, h])
            fill = register_color(r, cells.registers)
            patch = Rectangle((col, lane), 1, 1, facecolor=fill, edgecolor="white", linewidth=0.6)
            patch.set_gid(f"tmem:t={t}:r={r}:h={h}:lane={lane}:col={col}")
            ax.add_patch(patch)
            ax.text(col + 0.5, lane + 0.5, f"T{t}\nr{r}{_half(h, cells.halves)}", ha="center", va="center",
                    fontsize=_font(size) * 0.85, color=canvas.text_color(fill))
    else:
        grid = np.full((lanes, columns), -1, dtype=np.int64)
        grid[cells.lane, cells.column] = np.arange(cells.registers)[None, :, None]
        _regions(ax, grid, "tmem", cells.registers)
    _ticks(ax, columns, lanes, size)
    if cells.form.offset is not None:
        # 16x32bx2: threads 16-31 start at taddr + immHalfSplitoff (isa.Fragment.upper_half).
        lane, col = int(cells.lane[16, 0, 0]), int(cells.column[16, 0, 0])
        ax.add_patch(Rectangle((col, lane), 1, 1, facecolor="none", edgecolor="black", linewidth=2.0, zorder=5))
        ax.add_patch(Rectangle((cells.base_column, cells.base_lane), 1, 1, facecolor="none", edgecolor="black",
                               linewidth=2.0, zorder=5))
        ax.set_xlabel(f"column\nbold: taddr (lane {cells.base_lane}, column {cells.base_column}) and\n"
                      f"taddr + immHalfSplitoff (lane {lane}, column {col}),\nwhere threads 16-31 start", fontsize=8)


def _register_side(ax: Axes, cells: FragmentCells, labelled: bool, size: float) -> None:
    from matplotlib.patches import Rectangle

    halves, slots = cells.halves, cells.registers * cells.halves
    ax.set_xlim(0, slots)
    ax.set_ylim(cells.threads, 0)
    ax.set_title("registers: threads x registers", fontsize=9)
    if labelled:
        for t, r, h in np.ndindex(cells.lane.shape):
            fill = register_color(r, cells.registers)
            x = r * halves + h
            patch = Rectangle((x, t), 1, 1, facecolor=fill, edgecolor="white", linewidth=0.6)
            patch.set_gid(f"reg:t={t}:r={r}:h={h}")
            ax.add_patch(patch)
            ax.text(x + 0.5, t + 0.5, f"{int(cells.lane[t, r, h])},{int(cells.column[t, r, h])}", ha="center",
                    va="center", fontsize=_font(size) * 0.8, color=canvas.text_color(fill))
    else:
        grid = np.repeat(np.arange(cells.registers), halves)[None, :].repeat(cells.threads, axis=0)
        _regions(ax, grid, "reg", cells.registers)
    step = _tick_step(size * halves, len(f"r{cells.registers - 1}"))
    ax.set_xticks([r * halves + halves / 2 for r in range(0, cells.registers, step)],
                  [f"r{r}" for r in range(0, cells.registers, step)])
    ts = _tick_step(size, 1)
    ax.set_yticks([t + 0.5 for t in range(0, cells.threads, ts)], [f"T{t}" for t in range(0, cells.threads, ts)])
    ax.tick_params(labelsize=7, length=0)
    ax.xaxis.set_ticks_position("top")
    ax.set_xlabel("cells hold 'lane,column' of TMEM" if labelled else f"colour = register (r0 .. r{cells.registers - 1})", fontsize=8)


def _regions(ax: Axes, grid: np.ndarray, prefix: str, registers: int) -> None:
    from matplotlib.patches import Rectangle

    for rect in canvas.rectangles(grid):
        patch = Rectangle((rect.col0, rect.lane0), rect.col1 - rect.col0, rect.lane1 - rect.lane0,
                          facecolor=register_color(rect.value, registers), edgecolor="none")
        patch.set_gid(rect.gid(f"{prefix}:r={rect.value}"))
        ax.add_patch(patch)


def _tick_step(size: float, longest: int) -> int:
    """Label every n-th row or column of cells `size` inches wide so labels of `longest`
    characters (7 points) do not touch."""
    need = 4.5 * longest + 4
    for step in (1, 2, 4, 8, 16, 32):
        if step * size * 72 >= need:
            return step
    return 64


def _ticks(ax: Axes, columns: int, lanes: int, size: float) -> None:
    step = _tick_step(size, len(str(columns - 1)))
    ax.set_xticks([c + 0.5 for c in range(0, columns, step)], [str(c) for c in range(0, columns, step)])
    lane_step = _tick_step(size, 1)
    ax.set_yticks([lane + 0.5 for lane in range(0, lanes, lane_step)], [str(lane) for lane in range(0, lanes, lane_step)])
    ax.tick_params(labelsize=7, length=0)
    ax.xaxis.set_ticks_position("top")
    ax.set_xlabel("column", fontsize=8)
    ax.set_ylabel("lane", fontsize=8)
