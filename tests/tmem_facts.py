"""TMEM_FACTS.md transcribed once for the tests, independently of tmem_dialect/isa.py (what the code is checked against)."""

from __future__ import annotations

SPELLINGS = ("16x64b", "16x128b", "16x256b", "32x32b", "16x32bx2")
# Registers per thread = num * k (TMEM_FACTS "tcgen05.ld / tcgen05.st").
REGS_PER_NUM = {"32x32b": 1, "16x64b": 1, "16x32bx2": 1, "16x128b": 2, "16x256b": 4}
LANES = {"32x32b": 32, "16x64b": 16, "16x128b": 16, "16x256b": 16, "16x32bx2": 16}
ALL_NUMS = (1, 2, 4, 8, 16, 32, 64, 128)
MAX_REGS = 128


def legal(shape: str, num: int) -> bool:
    return num * REGS_PER_NUM[shape] <= MAX_REGS


LEGAL_NUMS = {s: tuple(n for n in ALL_NUMS if legal(s, n)) for s in SPELLINGS}


def fragment_cell(shape: str, t: int, r: int) -> tuple[int, int]:
    """(lane, column) of thread t, register r, relative to the thread's base address, as
    TMEM_FACTS "Fragment mappings" writes it (.num repetition included: r runs over num * k)."""
    if shape == "32x32b":
        return t, r
    if shape == "16x64b":
        return (t >> 2) + 8 * (t & 1), ((t >> 1) & 1) + 2 * r
    if shape == "16x128b":
        return (t >> 2) + 8 * (r & 1), (t & 3) + 4 * (r >> 1)
    if shape == "16x256b":
        return (t >> 2) + 8 * ((r >> 1) & 1), (r & 1) + 2 * (t & 3) + 8 * (r >> 2)
    if shape == "16x32bx2":
        return (t, r) if t < 16 else (t - 16, r)
    raise AssertionError(shape)
