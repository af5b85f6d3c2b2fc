"""Interpreter: runs tcgen05 and NVVM kernels on an exact model of TMEM and reports misuse."""
