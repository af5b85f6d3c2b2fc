"""Interpreter: runs tcgen05 and NVVM kernels on an exact model of TMEM and reports misuse."""

from tmem_dialect.interpreter.kernel import RunResult, run_kernel
from tmem_dialect.interpreter.machine import Finding, Options
from tmem_dialect.interpreter.tensor_map import TensorMap, parse_tensor_map

__all__ = ["Finding", "Options", "RunResult", "TensorMap", "parse_tensor_map", "run_kernel"]
