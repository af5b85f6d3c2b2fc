"""Draw a TmemMap: per CTA, the 128 x 512 grid with allocations, lane quarters, writers and findings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tmem_dialect import isa
from tmem_dialect.tools.pictures import canvas
from tmem_dialect.tools.pictures.tmem_state import NOBODY, CtaMap, TmemMap

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

LANES, COLUMNS = isa.TMEM_LANES, isa.TMEM_COLUMNS
QUARTER = isa.LANES_PER_WARP
# Finding markers: an outline colour, a hatch and a marker symbol per kind, in the order of the
# sorted kinds. None of the colours is a warp colour; the symbol at the centre of each marked
# region keeps a finding on a single column visible in a 512-column picture.
_FINDING_STYLES = (("#000000", "xx", "X"), ("#ff00ff", "//", "P"), ("#000000", "\\\\", "D"),
                   ("#ff00ff", "++", "*"), ("#000000", "..", "v"), ("#ff00ff", "--", "s"))


def finding_style(index: int) -> tuple[str, str, str]:
    return _FINDING_STYLES[index % len(_FINDING_STYLES)]


def used_columns(tmem: TmemMap) -> tuple[int, int]:
    """The columns any allocation or written cell of any CTA covers, widened to multiples of 32."""
    lo, hi = COLUMNS, 0
    for cta in tmem.ctas:
        for a in cta.allocations:
            lo, hi = min(lo, a.base), max(hi, a.base + a.ncols)
        written = np.flatnonzero((cta.writer != NOBODY).any(axis=0))
        if written.size:
            lo, hi = min(lo, int(written[0])), max(hi, int(written[-1]) + 1)
    if hi <= lo:
        return 0, COLUMNS
    return lo // 32 * 32, min(COLUMNS, -(-hi // 32) * 32)


def draw_map(tmem: TmemMap, title: str, columns: tuple[int, int] = (0, COLUMNS)) -> Figure:
    """The figure of `tmem`: one panel per CTA (columns [lo, hi) of it), a legend of warps and findings."""
    kinds = sorted({k for c in tmem.ctas for k in c.findings})
    labels = _legend_entries(tmem, kinds)
    legend_rows = -(-len(labels[0]) // 4)
    # Layout in inches: title, then per CTA the allocation labels, the grid and its column axis.
    top, panel, below, left, width = 0.55, 3.3, 0.75, 0.95, 12.8
    bottom = 0.25 + 0.24 * legend_rows
    height = top + len(tmem.ctas) * (0.4 + panel + below) + bottom
    fig = canvas.new_figure(left + width + 1.5, height)
    fig.suptitle(f"{title}: TMEM {tmem.moment}", fontsize=11, y=1 - 0.12 / height, va="top")
    for i, cta in enumerate(tmem.ctas):
        y = height - top - (i + 1) * (0.4 + panel) - i * below
        ax = fig.add_axes((left / fig.get_figwidth(), y / height, width / fig.get_figwidth(), panel / height))
        _draw_cta(ax, cta, len(tmem.ctas) > 1, kinds, columns)
    fig.legend(*labels, loc="lower center", ncol=min(4, len(labels[0])), fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, 0.05 / height))
    return fig


def _draw_cta(ax: Axes, cta: CtaMap, pair: bool, kinds: list[str], columns: tuple[int, int]) -> None:
    from matplotlib.patches import Rectangle

    lo, hi = columns
    ax.set_xlim(lo, hi)
    ax.set_ylim(LANES, 0)
    ax.add_patch(Rectangle((0, 0), COLUMNS, LANES, facecolor=canvas.UNTOUCHED, edgecolor="none", zorder=0))
    for a in cta.allocations:
        if a.live:
            ax.add_patch(Rectangle((a.base, 0), a.ncols, LANES, facecolor=canvas.EMPTY, edgecolor="none", zorder=0.5))
    for rect in canvas.rectangles(cta.writer, NOBODY):
        patch = Rectangle((rect.col0, rect.lane0), rect.col1 - rect.col0, rect.lane1 - rect.lane0,
                          facecolor=canvas.color(rect.value), edgecolor="none", zorder=1)
        patch.set_gid(rect.gid(f"cells:warp={rect.value}"))
        ax.add_patch(patch)
    for kind in kinds:
        grid = cta.findings.get(kind)
        if grid is None:
            continue
        edge, hatch, marker = finding_style(kinds.index(kind))
        for rect in canvas.rectangles(grid.astype(int), 0):
            patch = Rectangle((rect.col0, rect.lane0), rect.col1 - rect.col0, rect.lane1 - rect.lane0,
                              facecolor="none", edgecolor=edge, hatch=hatch, linewidth=1.2, zorder=3)
            patch.set_gid(rect.gid(f"finding:{kind}"))
            ax.add_patch(patch)
            # Kinds marking the same cells put their symbols at different heights, not on top of each other.
            height = (kinds.index(kind) + 1) / (len(kinds) + 1)
            ax.plot([(rect.col0 + rect.col1) / 2], [rect.lane0 + (rect.lane1 - rect.lane0) * height], marker=marker,
                    color=edge, markeredgecolor="white", markersize=11, zorder=6,
                    gid=rect.gid(f"finding-marker:{kind}"))
    _allocations(ax, cta, columns)
    _quarters(ax, cta)
    step = 32 if hi - lo > 128 else (8 if hi - lo > 32 else 4)
    ax.set_xticks(range(lo, hi + 1, step))
    ax.set_xticks(range(lo, hi + 1, step // 2), minor=True)
    ax.set_yticks(range(0, LANES + 1, 16))
    ax.tick_params(labelsize=8)
    shown = "" if columns == (0, COLUMNS) else f" (columns {lo}-{hi - 1} of 0-{COLUMNS - 1})"
    ax.set_xlabel(f"TMEM column{shown}", fontsize=9)
    cta_text = f"CTA {cta.cta} (warps {cta.warps[0]}-{cta.warps[-1]})\n" if pair else ""
    ax.set_ylabel(f"{cta_text}TMEM lane", fontsize=9)


def _allocations(ax: Axes, cta: CtaMap, columns: tuple[int, int]) -> None:
    from matplotlib.patches import Rectangle

    lo, hi = columns
    for i, a in enumerate(cta.allocations):
        patch = Rectangle((a.base, 0), a.ncols, LANES, facecolor="none", edgecolor="black",
                          linewidth=1.6 if a.live else 1.3, linestyle="-" if a.live else "--", zorder=4)
        patch.set_gid(f"alloc:cols={a.base}-{a.base + a.ncols - 1}:ncols={a.ncols}:live={int(a.live)}")
        ax.add_patch(patch)
        if not lo <= a.base < hi:
            continue
        # Labels above the grid, staggered so neighbouring narrow allocations stay readable.
        ax.annotate(a.label, (a.base, 0), xytext=(2, 3 + 10 * (i % 3)), textcoords="offset points", fontsize=7,
                    ha="left", va="bottom", annotation_clip=False, gid=f"alloc-label:{a.base}")


def _quarters(ax: Axes, cta: CtaMap) -> None:
    for q in range(isa.WARPS_PER_WARPGROUP):
        if q:
            ax.axhline(q * QUARTER, color="#333333", linewidth=0.9, linestyle=":", zorder=5)
        warps = cta.quarter_warps(q)
        who = ("warp " if len(warps) == 1 else "warps ") + ", ".join(map(str, warps)) if warps else "no warp"
        ax.text(1.01, 1 - (q + 0.5) / isa.WARPS_PER_WARPGROUP,
                f"lanes {q * QUARTER}-{q * QUARTER + QUARTER - 1}\n{who}\n(warp % 4 = {q})", transform=ax.transAxes,
                fontsize=7.5, va="center", ha="left", clip_on=False, gid=f"quarter:{q}")


def _legend_entries(tmem: TmemMap, kinds: list[str]) -> tuple[list[object], list[str]]:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[object] = []
    labels: list[str] = []

    def add(handle: object, label: str) -> None:
        handles.append(handle)
        labels.append(label)

    for cta in tmem.ctas:
        for w in cta.warps:
            cells = cta.cells_written_by(w)
            if cells:
                add(Patch(facecolor=canvas.color(w)), f"warp {w} wrote {cells} cells")
    if not handles:
        add(Patch(facecolor=canvas.EMPTY, edgecolor="black"), "no cell written")
    add(Patch(facecolor=canvas.EMPTY, edgecolor="black", linewidth=1.6), "live allocation")
    add(Patch(facecolor=canvas.UNTOUCHED, edgecolor="black", linestyle="--"), "freed / unallocated")
    for kind in kinds:
        edge, hatch, marker = finding_style(kinds.index(kind))
        cells = sum(int(c.findings[kind].sum()) for c in tmem.ctas if kind in c.findings)
        symbol = Line2D([], [], marker=marker, color=edge, markeredgecolor="white", markersize=11, linestyle="none")
        add((Patch(facecolor="none", edgecolor=edge, hatch=hatch), symbol), f"finding: {kind} ({cells} cells)")
    for kind, count in sorted(tmem.unplaced.items()):
        add(Patch(facecolor="none", edgecolor="none"), f"finding: {kind} ({count}, at no TMEM cell)")
    return handles, labels
