"""Pictures of TMEM (tmem-run --map, tmem-draw): matplotlib drawings of the interpreter's and isa's data.

matplotlib is an optional extra (`pip install 'tmem-dialect[pictures]'`). The modules import
without it (tmem_state, the map's data, never needs it); drawing asks `require_matplotlib()`.
"""

from __future__ import annotations

EXTRA = "pictures"
INSTALL_HINT = f"pip install 'tmem-dialect[{EXTRA}]'"


class PicturesUnavailable(ValueError):
    """matplotlib is missing: the one-line error names the extra to install."""


def require_matplotlib() -> None:
    """Raise PicturesUnavailable (a one-line message naming the extra) when matplotlib is absent."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PicturesUnavailable(
            f"pictures need matplotlib, which is not installed: {INSTALL_HINT} (or pip install 'matplotlib>=3.8')"
        ) from None
