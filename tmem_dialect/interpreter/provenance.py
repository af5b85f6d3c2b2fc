"""Allocation provenance: which tcgen05.alloc a TMEM address value derives from, and the checks on it.

tcgen05.alloc writes the base address of a new allocation to a shared-memory slot. The words it
writes remember that allocation, and a load of them yields a `DerivedAddress`: the per-lane
values, tagged with the allocation. Address arithmetic (add, subtract an offset, or/and/xor with
an untagged operand), width changes and casts keep the tag; so does passing the value through
memory, block arguments and loop-carried values. Anything else (two tagged operands, multiply,
compare, a divergent merge of different origins) drops it, and an untagged address is checked only
against whichever allocation owns its columns, as before.

An access through a tagged address is judged against its own allocation: past its end (into
free columns: OUT_OF_BOUNDS, into a neighbour: WRONG_ALLOCATION), after it was freed (into free
columns: USE_AFTER_FREE, into a newer allocation that replaced it: STALE_BASE).
"""

from __future__ import annotations

import numpy as np

from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter.tmem import Allocation, Allocator

def check(allocator: Allocator, allocation: Allocation, cols: np.ndarray) -> tuple[FindingKind, str, list] | None:
    """Is an access of columns `cols` through an address derived from `allocation` legal?

    Returns (kind, what is wrong, notes) or None. `cols` are inside TMEM.
    """
    lo, hi = allocation.base, allocation.base + allocation.ncols
    own = f"the allocation of {allocation.ncols} columns at column {allocation.base}"
    notes: list = [(f"{own} was made here", allocation.op)]
    if allocation.live:
        outside = (cols < lo) | (cols >= hi)
        if not outside.any():
            return None
        column = int(cols[np.argmax(outside)])
        owner = int(allocator.owner[column])
        if owner >= 0:
            other = allocator.allocations[owner]
            notes.append((f"column {column} belongs to the allocation of {other.ncols} columns made here",
                          other.op))
            return (FindingKind.WRONG_ALLOCATION,
                    f"column {column}, past the end of {own} its address derives from, inside another "
                    "live allocation", notes)
        return (FindingKind.OUT_OF_BOUNDS,
                f"column {column}, past the end of {own} its address derives from", notes)
    notes.append(("it was freed here", allocation.dealloc_op))
    owners = allocator.owner[cols]
    if (owners >= 0).any():
        column = int(cols[np.argmax(owners >= 0)])
        other = allocator.allocations[int(allocator.owner[column])]
        notes.append((f"column {column} now belongs to the allocation of {other.ncols} columns made here",
                       other.op))
        return (FindingKind.STALE_BASE,
                f"column {column} through a stale base: {own} the address derives from was freed and "
                "its columns allocated again", notes)
    return (FindingKind.USE_AFTER_FREE,
            f"column {int(cols[0])} of {own} the address derives from, after it was freed", notes)
