"""Interpreter: runs tcgen05 and NVVM kernels on an exact model of TMEM and reports misuse."""

from tmem_dialect.interpreter.kernel import RunResult, run_kernel
from tmem_dialect.interpreter.machine import Finding, Options

__all__ = ["Finding", "Options", "RunResult", "run_kernel"]
