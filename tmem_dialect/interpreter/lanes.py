"""What the machine sees of a warp: its identity, its threads and which of them are active."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from xdsl.ir import Operation, SSAValue


class WarpLanes(Protocol):
    """One warp of a run, as the machine model needs it (the warp interpreter implements it).

    The machine (allocators, barriers, memories, findings) sits below the interpreter that runs
    ops, so it names the warp by this protocol rather than by the interpreter class.
    """

    warp: int  # index among all warps of the run
    cta: int
    warp_in_cta: int
    alive: np.ndarray  # lanes that are threads of the CTA (the last warp may be partial)
    mask: np.ndarray  # lanes active at the current op
    is_full: bool  # mask == alive
    env: dict[SSAValue, Any]
    current_op: Operation | None
    finished: bool
    since_yield: int
    pending_registers: dict[int, tuple[Any, Operation]]

    def thread_id(self, lane: int) -> int: ...


class AsCta:
    """A view of a warp as if it ran in CTA `cta` (the peer's shared memory of a cta_group::2 mma)."""

    def __init__(self, w: Any, cta: int):
        self._w, self.cta = w, cta

    def __getattr__(self, name: str) -> Any:
        return getattr(self._w, name)
