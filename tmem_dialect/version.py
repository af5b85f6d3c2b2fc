"""The package version, from the installed metadata (one source: pyproject.toml)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tmem-dialect")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0.1.0"
