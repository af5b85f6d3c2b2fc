"""Static forms: lane quarters, warp-uniform addresses, warp-collective ops under divergent branches, one-warp alloc."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.diagnostics import error, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import messages_allocations as alloc_text
from tmem_dialect.passes.analysis import messages_warps as text
from tmem_dialect.passes.analysis.messages_names import name_unknown
from tmem_dialect.passes.analysis.ops import Category, OpInfo, reads_register
from tmem_dialect.passes.cells import lane_known
from tmem_dialect.passes.cfg import Node
from tmem_dialect.passes.forms import Form
from tmem_dialect.passes.threads import Uniformity


class StaticFormRules:
    """Checks of each op's form, after the fixpoint."""

    def _check_static(self) -> None:
        """Lane quarters, warp-uniform addresses, warp-collective ops under divergent branches."""
        for info, mask in sorted(self._op_masks.items(), key=lambda kv: kv[0].index):
            if info.category is not Category.EFFECT or info.kind is None:
                continue
            kind = info.kind
            if kind in (EffectKind.LD, EffectKind.ST):
                self._check_lanes(info, mask)
            if kind.is_warp_collective:
                self._check_divergence(info)
            if kind in (EffectKind.ALLOC, EffectKind.DEALLOC) and mask & (mask - 1):
                self._check_single_warp(info, mask)

    def _check_lanes(self, info: OpInfo, mask: int) -> None:
        op = info.op
        if info.rest is None or info.anchor is None or info.rects is None:
            return
        uniformity = info.rest.uniformity(self.space)
        if uniformity is Uniformity.THREAD:
            if isinstance(info.rest.const, np.ndarray):
                lo, hi = self.space.warp_min_max(info.rest.const)
                split = [w for w in self.space.warps(mask) if lo[w] != hi[w]]
                if split:
                    self.findings.add(
                        FindingKind.DIVERGENT_OPERAND, ("taddr-split", op),
                        error(op, text.address_split(op.name, split[0])),
                    )
                    return
            self.findings.add(
                FindingKind.DIVERGENT_OPERAND, ("taddr-unknown", op),
                warning(op, text.address_split_unproven(op.name, name_unknown(info.rest))),
            )
            return
        boxes = self._boxes(info) if lane_known(info.anchor) else None
        unsure: int | None = None
        outside: str | None = None
        for w in self.space.warps(mask):
            quarter = isa.lane_quarter(w)
            q_lo, q_hi = quarter.start, quarter.stop - 1
            if boxes is None:
                unsure = w if unsure is None else unsure
                continue
            rel_lo, rel_hi = self._lane_range(info, w)
            allowed_lo = max(q_lo - l0 for l0, _, _, _ in info.rects)
            allowed_hi = min(q_hi - (l1 - 1) for _, l1, _, _ in info.rects)
            if rel_lo >= allowed_lo and rel_hi <= allowed_hi:
                continue
            if rel_hi < allowed_lo or rel_lo > allowed_hi or allowed_lo > allowed_hi:
                lo = min(b.lane_lo for b in boxes[w])
                hi = max(b.lane_hi for b in boxes[w])
                if self._exists(w):
                    self.findings.add(FindingKind.LANE_QUARTER, ("lanes", op),
                                      error(op, text.lane_quarter(w, lo, hi, q_lo, q_hi)))
                    return
                outside = outside or text.lane_quarter(w, lo, hi, q_lo, q_hi, if_exists=True)
                continue
            unsure = w if unsure is None else unsure
        if outside is not None:
            self.findings.add(FindingKind.LANE_QUARTER, ("lanes", op), warning(op, outside))
            return
        if unsure is not None:
            q = isa.lane_quarter(unsure)
            volatile = self._warpid_term(info)
            if volatile is not None:
                self.findings.add(
                    FindingKind.VOLATILE_WARPID, ("lanes-warpid", op),
                    warning(op, text.volatile_warpid(op.name)).attach_note(text.warpid_read_here(), volatile),
                )
                return
            self.findings.add(
                FindingKind.LANE_QUARTER, ("lanes-unknown", op),
                warning(op, text.lane_quarter_unproven(unsure, op.name, q.start, q.stop - 1,
                                                       name_unknown(info.rest, Form(0, info.anchor or ())))),
            )

    def _warpid_term(self, info: OpInfo) -> Operation | None:
        """The %warpid read an access's address is computed from, if it is."""
        address = info.effect.address if info.effect is not None else None
        return None if address is None else reads_register(address, "nvvm.read.ptx.sreg.warpid")

    def _lane_range(self, info: OpInfo, w: int) -> tuple[int, int]:
        assert info.rest is not None
        bounds = info.rest.warp_bounds(self.space)
        assert bounds is not None
        lo, hi = int(bounds[0][w]), int(bounds[1][w])
        return lo >> isa.LANE_SHIFT, hi >> isa.LANE_SHIFT

    def _check_divergence(self, info: OpInfo) -> None:
        node = self.cfg.node_of.get(info.op)
        if node is None:
            return
        unsure: Node | None = None
        for branch_node in sorted(self.cfg.controlling_branches(node), key=lambda n: n.order):
            branch = branch_node.branch
            if branch is None:
                continue
            reach = self._node_masks.get(branch_node, 0)
            if branch.condition is not None:
                split = self.values.split(branch.condition)
                if split is not None:
                    torn = split.torn & reach
                    if torn:
                        w = (torn & -torn).bit_length() - 1
                        self._report_divergence(info, branch.op, w)
                        return
                    if split.exact:
                        continue
                if self.values.uniformity(branch.condition) is Uniformity.THREAD:
                    unsure = unsure or branch_node
            elif self.values.loop_bounds_split(branch.op):
                self._report_divergence(info, branch.op, None)
                return
            elif self.values.loop_uniformity(branch.op) is Uniformity.THREAD or any(
                self.values.uniformity(v) is Uniformity.THREAD for v in branch.op.operands
                if branch.op.successors
            ):
                unsure = unsure or branch_node
        if unsure is not None and unsure.branch is not None:
            self.findings.add(
                FindingKind.PARTIAL_COLLECTIVE, ("divergence-unknown", info.op),
                warning(info.op, text.divergent_collective_unproven(info.op.name)).attach_note(
                    text.condition_may_split(), unsure.branch.op
                ),
            )

    def _report_divergence(self, info: OpInfo, branch: Operation, warp: int | None) -> None:
        self.findings.add(
            FindingKind.PARTIAL_COLLECTIVE, ("divergence", info.op),
            error(info.op, text.divergent_collective(info.op.name, warp)).attach_note(
                text.condition_splits(warp), branch
            ),
        )

    def _check_single_warp(self, info: OpInfo, mask: int) -> None:
        exact = self._decided(info)
        alloc = info.kind is EffectKind.ALLOC
        kind = FindingKind.CONCURRENT_ALLOC if alloc else FindingKind.DOUBLE_DEALLOC
        if exact and self._exists(1):
            self.findings.add(kind, ("one-warp", info.op), error(info.op, alloc_text.several_warps(info.op.name, mask, alloc)))
        else:
            self.findings.add(kind, ("one-warp", info.op),
                              warning(info.op, alloc_text.several_warps_unproven(info.op.name, alloc)))
