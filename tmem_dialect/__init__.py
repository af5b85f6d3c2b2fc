"""tmem-dialect: an xDSL toolkit for Blackwell Tensor Memory and the PTX tcgen05 instructions."""

from tmem_dialect.version import __version__

__all__ = ["__version__"]
