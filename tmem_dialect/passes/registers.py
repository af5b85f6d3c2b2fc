"""The register limit setmaxnreg sets for an op: the last nvvm.setmaxregister before it in program order."""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect.dialects.nvvm_cluster import SetMaxRegisterOp


def register_limit(op: Operation) -> int | None:
    """The per-thread register count of the nearest setmaxnreg that precedes `op` in its block or
    in a block enclosing it (the role-dispatch form: `scf.if %role { setmaxnreg; ... op ... }`);
    None when no setmaxnreg precedes it there (the kernel's own limit applies)."""
    current: Operation | None = op
    while current is not None:
        prev = current.prev_op
        while prev is not None:
            if isinstance(prev, SetMaxRegisterOp):
                return prev.count
            prev = prev.prev_op
        current = current.parent_op()
    return None


def message_budget(op: Operation, default: int) -> int:
    """Registers per thread one tcgen05.ld/st message of `op` may use: half the limit setmaxnreg set
    before it (Triton's maxnreg / 2 rule), else `default`."""
    limit = register_limit(op)
    return limit // 2 if limit is not None else default
