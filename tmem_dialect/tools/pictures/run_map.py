"""tmem-run --map FILE.svg|.png [--map-at OP]: the options, checked before the run, and the map written after it."""

from __future__ import annotations

import argparse

from tmem_dialect.tools.pictures import canvas, require_matplotlib
from tmem_dialect.tools.pictures.tmem_state import MapRecorder, OpSelector


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--map", metavar="FILE", help="draw the CTA's TMEM (allocations, lane quarters, the warp that last "
        "wrote each cell, cells with findings) after the run, as FILE.svg or FILE.png (needs matplotlib)",
    )
    parser.add_argument(
        "--map-at", metavar="OP", help="draw the map after the last execution of this op instead: its "
        "location FILE:LINE or LINE, or #N for the N-th op with a TMEM effect; OP@K: after its K-th "
        "execution (by any warp)",
    )


def recorder_for(args: argparse.Namespace) -> MapRecorder | None:
    """The recorder for this run, or None without --map; ValueError on bad options (before the run)."""
    if args.map is None:
        if args.map_at is not None:
            raise ValueError("--map-at needs --map FILE.svg|.png")
        return None
    canvas.picture_format(args.map)
    require_matplotlib()
    return MapRecorder(OpSelector.parse(args.map_at) if args.map_at is not None else None)


def write(recorder: MapRecorder, path: str, title: str) -> None:
    """Draw the recorded map to `path` (MapError / OSError when it cannot be made or written)."""
    from tmem_dialect.tools.pictures.tmem_map import draw_map

    canvas.save(draw_map(recorder.result(), title), path)
