"""Draw a TmemMap: per CTA, the 128 x 512 grid with allocations, lane quarters, writers and findings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tmem_dialect import isa
from tmem_dialect.tools.pictures import canvas
from tmem_dialect.tools.pictures.tmem_state import NOBODY, CtaMap, TmemMap

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

LANES, COLUMNS = isa.TMEM_LANES, isa.TMEM_COLUMNS
QUARTER = isa.LANES_PER_WARP
# Finding markers: an outline colour and hatch per kind, in the order kinds first appear.
# None of them is a warp colour, so a marker never hides in the cells it marks.
_FINDING_STYLES = (("#000000", "xx"), ("#ff00ff", "//"), ("#000000", "\\\\"), ("#ff00ff", "++"),
                   ("#000000", ".."), ("#ff00ff", "--"))


def finding_style(index: int) -> tuple[str, str]:
    return _FINDING_STYLES[index % len(_FINDING_STYLES)]


def draw_map(tmem: TmemMap, title: str) -> Figure:
    """The figure of `tmem`: one panel per CTA, a shared legend of warps and finding kinds."""
    kinds = sorted({k for c in tmem.ctas for k in c.findings})
    panels = len(tmem.ctas)
    fig = canvas.new_figure(15.5, 0.9 + 4.6 * panels)
    fig.set_layout_engine(None)
    fig.suptitle(f"{title}: TMEM {tmem.moment}", fontsize=11, y=0.995)
    height = 1.0 / panels
    for i, cta in enumerate(tmem.ctas):
        ax = fig.add_axes((0.06, 1 - height * (i + 1) + 0.19 * height, 0.80, 0.62 * height))
        _draw_cta(ax, cta, panels > 1, kinds)
    _legend(fig, tmem, kinds)
    return fig


def _draw_cta(ax: Axes, cta: CtaMap, pair: bool, kinds: list[str]) -> None:
    from matplotlib.patches import Rectangle

    ax.set_xlim(0, COLUMNS)
    ax.set_ylim(LANES, 0)
    ax.add_patch(Rectangle((0, 0), COLUMNS, LANES, facecolor=canvas.UNTOUCHED, edgecolor="none", zorder=0))
    for a in cta.allocations:
        if a.live:
            ax.add_patch(Rectangle((a.base, 0), a.ncols, LANES, facecolor=canvas.EMPTY, edgecolor="none", zorder=0.5))
    for rect in canvas.rectangles(cta.writer, NOBODY):
        patch = Rectangle((rect.col0, rect.lane0), rect.col1 - rect.col0, rect.lane1 - rect.lane0,
                          facecolor=canvas.color(rect.value - cta.warps[0] if pair else rect.value),
                          edgecolor="none", zorder=1)
        patch.set_gid(rect.gid(f"cells:warp={rect.value}"))
        ax.add_patch(patch)
    for kind in kinds:
        grid = cta.findings.get(kind)
        if grid is None:
            continue
        edge, hatch = finding_style(kinds.index(kind))
        for rect in canvas.rectangles(grid.astype(int), 0):
            patch = Rectangle((rect.col0, rect.lane0), rect.col1 - rect.col0, rect.lane1 - rect.lane0,
                              facecolor="none", edgecolor=edge, hatch=hatch, linewidth=1.2, zorder=3)
            patch.set_gid(rect.gid(f"finding:{kind}"))
            ax.add_patch(patch)
    _allocations(ax, cta)
    _quarters(ax, cta)
    ax.set_xticks(range(0, COLUMNS + 1, 32))
    ax.set_xticks(range(0, COLUMNS + 1, 16), minor=True)
    ax.set_yticks(range(0, LANES + 1, 16))
    ax.tick_params(labelsize=8)
    ax.set_xlabel("TMEM column", fontsize=9)
    ax.set_ylabel("TMEM lane", fontsize=9)
    if pair:
        ax.set_title(f"CTA {cta.cta} (warps {cta.warps[0]}-{cta.warps[-1]})", fontsize=10, loc="left")


def _allocations(ax: Axes, cta: CtaMap) -> None:
    from matplotlib.patches import Rectangle

    for i, a in enumerate(cta.allocations):
        patch = Rectangle((a.base, 0), a.ncols, LANES, facecolor="none", edgecolor="black",
                          linewidth=1.6 if a.live else 1.0, linestyle="-" if a.live else "--", zorder=4)
        patch.set_gid(f"alloc:cols={a.base}-{a.base + a.ncols - 1}:ncols={a.ncols}:live={int(a.live)}")
        ax.add_patch(patch)
        # Labels above the grid, staggered so neighbouring narrow allocations stay readable.
        ax.text(a.base + 1, -2 - 5 * (i % 2), a.label, fontsize=7, ha="left", va="bottom", clip_on=False,
                gid=f"alloc-label:{a.base}")


def _quarters(ax: Axes, cta: CtaMap) -> None:
    for q in range(isa.WARPS_PER_WARPGROUP):
        if q:
            ax.axhline(q * QUARTER, color="#333333", linewidth=0.9, linestyle=":", zorder=5)
        warps = cta.quarter_warps(q)
        who = ("warp " if len(warps) == 1 else "warps ") + ", ".join(map(str, warps)) if warps else "no warp"
        ax.text(COLUMNS + 6, q * QUARTER + QUARTER / 2,
                f"lanes {q * QUARTER}-{q * QUARTER + QUARTER - 1}\n{who}\n(warp % 4 = {q})",
                fontsize=7.5, va="center", ha="left", clip_on=False, gid=f"quarter:{q}")


def _legend(fig: Figure, tmem: TmemMap, kinds: list[str]) -> None:
    from matplotlib.patches import Patch

    pair = len(tmem.ctas) > 1
    handles = []
    for cta in tmem.ctas:
        for w in cta.warps:
            cells = cta.cells_written_by(w)
            if cells:
                c = canvas.color(w - cta.warps[0] if pair else w)
                handles.append(Patch(facecolor=c, label=f"warp {w} wrote {cells} cells"))
    if not handles:
        handles.append(Patch(facecolor=canvas.EMPTY, edgecolor="black", label="no cell written"))
    handles.append(Patch(facecolor=canvas.EMPTY, edgecolor="black", linewidth=1.6, label="live allocation"))
    handles.append(Patch(facecolor=canvas.UNTOUCHED, edgecolor="black", linestyle="--", label="freed / unallocated"))
    for kind in kinds:
        edge, hatch = finding_style(kinds.index(kind))
        cells = sum(int(c.findings[kind].sum()) for c in tmem.ctas if kind in c.findings)
        handles.append(Patch(facecolor="none", edgecolor=edge, hatch=hatch, label=f"finding: {kind} ({cells} cells)"))
    for kind, count in sorted(tmem.unplaced.items()):
        handles.append(Patch(facecolor="none", edgecolor="none", label=f"finding: {kind} ({count}, at no TMEM cell)"))
    fig.legend(handles=handles, loc="lower center", ncol=min(4, len(handles)), fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, 0.0))
