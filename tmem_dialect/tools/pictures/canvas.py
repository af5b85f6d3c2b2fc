"""Shared drawing ground: warp colours, cell grids as rectangles, SVG-with-text figures saved atomically."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tmem_dialect.tools.pictures import require_matplotlib

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = {".svg": "svg", ".png": "png"}
UNTOUCHED = "#f4f4f4"  # cells outside every allocation
EMPTY = "#ffffff"  # allocated, never written


def picture_format(path: str) -> str:
    """'svg' or 'png' from the file name (ValueError otherwise, before any work is done)."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in FORMATS:
        raise ValueError(f"cannot tell the picture format of '{path}': name it .svg or .png")
    return FORMATS[suffix]


# tab10, then the light half of tab20, then tab20b: distinct colours for up to 30 warps; past
# that they repeat (a legend entry per warp still names each).
_PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
    "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5", "#393b79", "#637939", "#8c6d31", "#843c39",
    "#7b4173", "#5254a3", "#8ca252", "#bd9e39", "#ad494a", "#a55194",
)


PALETTE_SIZE = len(_PALETTE)


def color(index: int) -> str:
    """The colour of warp (or register, or message) `index`: the same everywhere it is drawn."""
    return _PALETTE[index % len(_PALETTE)]


def text_color(background: str) -> str:
    """Black or white, whichever reads better on `background` (#rrggbb)."""
    r, g, b = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "white"


@dataclass(frozen=True)
class Rect:
    """Cells lanes [lane0, lane1) x columns [col0, col1) that all hold `value`."""

    value: int
    lane0: int
    lane1: int
    col0: int
    col1: int

    @property
    def cells(self) -> int:
        return (self.lane1 - self.lane0) * (self.col1 - self.col0)

    def gid(self, prefix: str) -> str:
        """The SVG id of this rectangle's patch: what tests (and readers of the SVG) find it by."""
        return f"{prefix}:lanes={self.lane0}-{self.lane1 - 1}:cols={self.col0}-{self.col1 - 1}"


def rectangles(grid: np.ndarray, background: int = -1) -> list[Rect]:
    """Cover the cells of `grid` (2-D, [lanes, columns]) that are not `background` with rectangles
    of equal value: runs along each lane, merged downwards while the run below is the same."""
    open_runs: dict[tuple[int, int, int], int] = {}  # (value, col0, col1) -> first lane
    out: list[Rect] = []
    for lane in range(grid.shape[0] + 1):
        runs = set(_runs(grid[lane], background)) if lane < grid.shape[0] else set()
        for key in list(open_runs):
            if key not in runs:
                out.append(Rect(key[0], open_runs.pop(key), lane, key[1], key[2]))
        for key in runs:
            open_runs.setdefault(key, lane)
    out.sort(key=lambda r: (r.lane0, r.col0))
    return out


def _runs(row: np.ndarray, background: int) -> Iterator[tuple[int, int, int]]:
    if not row.size:
        return
    edges = np.flatnonzero(np.diff(row)) + 1
    starts = np.concatenate([[0], edges])
    stops = np.concatenate([edges, [row.size]])
    for a, b in zip(starts, stops):
        value = int(row[a])
        if value != background:
            yield value, int(a), int(b)


def new_figure(width: float, height: float) -> Figure:
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100)


def save(fig: Figure, path: str) -> None:
    """Write the figure to `path` (.svg keeps text as text); never leaves a partial file behind."""
    require_matplotlib()
    import matplotlib

    fmt = picture_format(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmem-picture-", suffix="." + fmt, dir=directory)
    os.close(fd)
    try:
        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "tmem-dialect", "hatch.linewidth": 0.7}):
            extra = {"dpi": 110, "pil_kwargs": {"optimize": True}} if fmt == "png" else {}
            fig.savefig(tmp, format=fmt, metadata=_metadata(fmt), **extra)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; the picture is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _metadata(fmt: str) -> dict[str, str | None]:
    # No creation date in SVG: the same input gives the same file.
    return {"Date": None, "Creator": "tmem-dialect"} if fmt == "svg" else {"Software": "tmem-dialect"}
