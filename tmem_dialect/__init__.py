"""tmem-dialect: an xDSL toolkit for Blackwell Tensor Memory and the PTX tcgen05 instructions."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tmem-dialect")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0.1.0"
