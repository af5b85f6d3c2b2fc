"""Draw the tmem-assign-lanes plan: which warp issues which tcgen05.ld/st message over which TMEM cells.

The plan is the pass's own (passes.assign_lanes.plan_tiles); the cells of each message are
lane_plan.message_cells (isa's fragment maps). One panel per tile op: TMEM lanes (from the
allocation's lane 0) x buffer columns, each message a region in its warp's colour (alternate
messages of one warp lighter), outlined and labelled with its form.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tmem_dialect import isa
from tmem_dialect.diagnostics import Diagnostic
from tmem_dialect.dialects import tcgen05_tiles
from tmem_dialect.passes.assign_lanes import TilePlan, plan_tiles
from tmem_dialect.passes.lane_plan import Message, message_cells
from tmem_dialect.tools.pictures import canvas
from tmem_dialect.tools.pictures.tmem_state import op_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

NO_MESSAGE = -1


def message_form(message: Message, load: bool) -> str:
    """`32x32b.x128`, `16x256b.x4.pack::16b`, `16x32bx2.x1+65536` (the half-split offset)."""
    pack = (".pack::16b" if load else ".unpack::16b") if message.access.packed else ""
    split = f"+{message.half_split_offset}" if message.split is not None else ""
    return f"{message.access.shape.value}.x{message.num}{pack}{split}"


@dataclass(frozen=True)
class PlacedMessage:
    """One message of one warp, with the TMEM cells it moves (lanes from the allocation's lane 0)."""

    warp: int  # w % 4: the lane quarter
    index: int  # the message's place in the warp's plan
    form: str
    lanes: np.ndarray
    columns: np.ndarray  # buffer columns


@dataclass
class TilePicture:
    plan: TilePlan
    messages: list[PlacedMessage]

    @property
    def load(self) -> bool:
        return isinstance(self.plan.op, tcgen05_tiles.TileLoadOp)

    def grid(self) -> np.ndarray:
        """[128 lanes, columns]: the number (in `messages`) of the message that moves each cell."""
        width = max((int(m.columns.max()) + 1 for m in self.messages), default=1)
        grid = np.full((isa.TMEM_LANES, width), NO_MESSAGE, dtype=np.int64)
        for i, m in enumerate(self.messages):
            grid[m.lanes, m.columns] = i
        return grid


def tile_pictures(module: ModuleOp, budget: int) -> tuple[list[TilePicture], list[Diagnostic]]:
    """The plan of each tile op, as tmem-pipeline makes it: tmem-plan-columns first places
    tcgen05.buffer tiles (it leaves decl_buffer tiles alone), then tmem-assign-lanes plans.
    DiagnosticError when tmem-plan-columns rejects the module (it rewrites `module`)."""
    from tmem_dialect.dialects import make_context
    from tmem_dialect.passes.plan_columns import TmemPlanColumnsPass

    TmemPlanColumnsPass().apply(make_context(), module)
    plans, problems = plan_tiles(module, budget)
    out = []
    for plan in plans:
        load = isinstance(plan.op, tcgen05_tiles.TileLoadOp)
        placed = []
        for quarter, messages in enumerate(plan.quarters):
            base = isa.warp_lane_base(quarter)
            for k, m in enumerate(messages):
                lanes, columns = message_cells(m.access, m.num, m.lane, m.column, m.split)
                placed.append(PlacedMessage(quarter, k, message_form(m, load), base + lanes.reshape(-1),
                                            columns.reshape(-1)))
        out.append(TilePicture(plan, placed))
    return out, problems


def draw_plan(tiles: list[TilePicture], title: str, budget: int) -> Figure:
    width = max(t.grid().shape[1] for t in tiles)
    panel_w = min(13.0, max(6.0, width * 0.12))
    fig = canvas.new_figure(panel_w + 4.6, 0.6 + 4.2 * len(tiles))
    fig.suptitle(f"{title}: tmem-assign-lanes plan ({budget} registers per message at most)", fontsize=11,
                 y=1 - 0.1 / (0.6 + 4.2 * len(tiles)), va="top")
    h = 1.0 / len(tiles)
    for i, tile in enumerate(tiles):
        ax = fig.add_axes((0.9 / (panel_w + 4.6), 1 - h * (i + 1) + 0.16 * h, panel_w / (panel_w + 4.6), 0.66 * h))
        _draw_tile(ax, tile)
    return fig


def _shade(base: str, lighter: bool) -> str:
    from matplotlib.colors import to_hex, to_rgb

    rgb = np.array(to_rgb(base))
    return to_hex(rgb + (1 - rgb) * 0.45) if lighter else base


def _draw_tile(ax: Axes, tile: TilePicture) -> None:
    from matplotlib.patches import Patch, Rectangle

    grid = tile.grid()
    ax.set_xlim(0, grid.shape[1])
    ax.set_ylim(isa.TMEM_LANES, 0)
    ax.add_patch(Rectangle((0, 0), grid.shape[1], isa.TMEM_LANES, facecolor=canvas.UNTOUCHED, edgecolor="none"))
    biggest: dict[int, canvas.Rect] = {}
    for rect in canvas.rectangles(grid, NO_MESSAGE):
        m = tile.messages[rect.value]
        patch = Rectangle((rect.col0, rect.lane0), rect.col1 - rect.col0, rect.lane1 - rect.lane0,
                          facecolor=_shade(canvas.color(m.warp), m.index % 2 == 1), edgecolor="black",
                          linewidth=0.5)
        patch.set_gid(rect.gid(f"msg:warp={m.warp}:index={m.index}:form={m.form}"))
        ax.add_patch(patch)
        if rect.value not in biggest or rect.cells > biggest[rect.value].cells:
            biggest[rect.value] = rect
    points_per_column = ax.get_position().width * ax.figure.get_figwidth() * 72 / grid.shape[1]
    for i, rect in biggest.items():
        m = tile.messages[i]
        label = f"{'ld' if tile.load else 'st'} {m.form}\nwarp {m.warp} #{m.index}"
        # The largest font up to 7.5 points at which the label fits its region (none below 4.5).
        size = min(7.5, ((rect.col1 - rect.col0) * points_per_column - 4) / (0.62 * (len(m.form) + 3)))
        if size >= 4.5 and rect.lane1 - rect.lane0 >= 12:
            ax.text((rect.col0 + rect.col1) / 2, (rect.lane0 + rect.lane1) / 2, label, ha="center", va="center",
                    fontsize=size, color=canvas.text_color(canvas.color(m.warp)) if m.index % 2 == 0 else "black")
    for q in range(1, isa.WARPS_PER_WARPGROUP):
        ax.axhline(q * isa.LANES_PER_WARP, color="#333333", linewidth=0.9, linestyle=":")
    ax.set_yticks(range(0, isa.TMEM_LANES + 1, 16))
    step = 8 if grid.shape[1] <= 64 else 32
    ax.set_xticks(range(0, grid.shape[1] + 1, step))
    ax.tick_params(labelsize=8)
    ax.set_xlabel("buffer column", fontsize=9)
    ax.set_ylabel("TMEM lane (from the allocation's lane 0)", fontsize=8)
    buffer = tile.plan.op.buffer_type
    ax.set_title(f"{op_text(tile.plan.op)}\n{buffer}", fontsize=8.5, loc="left")
    handles = []
    for q in range(isa.WARPS_PER_WARPGROUP):
        forms = Counter(m.form for m in tile.messages if m.warp == q)
        text = ", ".join(f"{n} x {f}" for f, n in sorted(forms.items())) or "no message"
        handles.append(Patch(facecolor=canvas.color(q), label=f"warp {q} (w % 4 = {q}): {text}"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False,
              title="messages per warp", title_fontsize=8)
