"""Register reconfiguration: each setmaxnreg is reached by whole warpgroups (PTX ISA "setmaxnreg")."""

from __future__ import annotations

from tmem_dialect import isa
from tmem_dialect.diagnostics import error
from tmem_dialect.dialects.nvvm_cluster import SetMaxRegisterOp
from tmem_dialect.findings import FindingKind
from tmem_dialect.passes.analysis import messages_warps as text


class SetMaxNRegRules:
    """After the fixpoint: the warps that may reach a setmaxnreg are a union of whole warpgroups.

    "The same setmaxnreg instruction must be executed by all warps in a warpgroup": a setmaxnreg
    reached by some warps of a warpgroup that others never reach (a role split on the warp index
    inside a warpgroup, or two setmaxnreg with different counts per warp) is an error."""

    def _check_static(self) -> None:
        super()._check_static()  # type: ignore[misc]
        found = {id(op) for op in self.op_index.of(SetMaxRegisterOp)}  # type: ignore[attr-defined]
        if not found:
            return  # (most kernels have none: no scan of every op)
        for node in self.cfg.nodes:  # type: ignore[attr-defined]
            mask = self._node_masks.get(node, 0)  # type: ignore[attr-defined]
            if not mask:
                continue
            for op in node.ops:
                if id(op) not in found:
                    continue
                for first in range(0, self.space.nwarps, isa.WARPS_PER_WARPGROUP):  # type: ignore[attr-defined]
                    last = min(self.space.nwarps, first + isa.WARPS_PER_WARPGROUP)  # type: ignore[attr-defined]
                    present = (1 << last) - (1 << first)  # the warps of this warpgroup
                    reached = mask & present
                    if reached and reached != present:
                        missing = present & ~reached
                        self.findings.add(  # type: ignore[attr-defined]
                            FindingKind.SETMAXNREG_UNIFORM, ("setmaxnreg", op, first),
                            error(op, text.setmaxnreg_not_uniform(reached, first // isa.WARPS_PER_WARPGROUP,
                                                                  bool(op.increase), op.count, missing)),
                        )
