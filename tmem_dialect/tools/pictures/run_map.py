"""tmem-run --map FILE.svg|.png [--map-at OP]: the options, checked before the run, and the map written after it."""

from __future__ import annotations

import argparse

from tmem_dialect import isa

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
    parser.add_argument(
        "--map-columns", metavar="A:B|used", default=None, help="draw only columns A..B-1 of the map, or "
        "'used': the columns of the allocations and written cells (default: all 512)",
    )


def recorder_for(args: argparse.Namespace) -> MapRecorder | None:
    """The recorder for this run, or None without --map; ValueError on bad options (before the run)."""
    if args.map is None:
        if args.map_at is not None or args.map_columns is not None:
            raise ValueError("--map-at and --map-columns need --map FILE.svg|.png")
        return None
    canvas.picture_format(args.map)
    column_range(args.map_columns)
    require_matplotlib()
    return MapRecorder(OpSelector.parse(args.map_at) if args.map_at is not None else None)


def column_range(text: str | None) -> tuple[int, int] | str:
    """--map-columns: (A, B), or "used" (resolved against the map); ValueError when malformed."""
    if text is None:
        return 0, isa.TMEM_COLUMNS
    if text == "used":
        return text
    a, colon, b = text.partition(":")
    if colon and a.isdigit() and b.isdigit() and int(a) < int(b) <= isa.TMEM_COLUMNS:
        return int(a), int(b)
    raise ValueError(f"--map-columns '{text}': give A:B with 0 <= A < B <= {isa.TMEM_COLUMNS}, or 'used'")


def write(recorder: MapRecorder, path: str, title: str, columns: tuple[int, int] | str = (0, isa.TMEM_COLUMNS)) -> None:
    """Draw the recorded map to `path` (MapError / OSError when it cannot be made or written)."""
    from tmem_dialect.tools.pictures.tmem_map import draw_map, used_columns

    tmem = recorder.result()
    canvas.save(draw_map(tmem, title, used_columns(tmem) if columns == "used" else columns), path)
