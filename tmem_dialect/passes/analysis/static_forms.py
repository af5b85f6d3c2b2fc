"""Static forms: lane quarters, warp-uniform addresses, warp-collective ops under divergent branches, one-warp alloc."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.diagnostics import error, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis.ops import Category, OpInfo, few_warps, name_unknown, reads_register
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
                        error(op, f"the TMEM address of {op.name} differs between threads of warp "
                              f"{split[0]}; every thread of a warp must pass the same address"),
                    )
                    return
            self.findings.add(
                FindingKind.DIVERGENT_OPERAND, ("taddr-unknown", op),
                warning(op, f"cannot prove that every thread of a warp passes the same TMEM address "
                        f"to {op.name}{name_unknown(info.rest)}"),
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
                text = (
                    f"warp {w} accesses TMEM lanes {lo}..{hi}, outside its lane quarter "
                    f"{q_lo}..{q_hi}: warp w may only access lanes 32*(w%4)..32*(w%4)+31 "
                    "(add (32*(w%4)) << 16 to the address)"
                )
                if self._exists(w):
                    self.findings.add(FindingKind.LANE_QUARTER, ("lanes", op), error(op, text))
                    return
                outside = outside or f"if the block has warp {w}, " + text
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
                    warning(op, f"the lane of {op.name}'s address comes from %warpid, which the PTX "
                            "ISA calls volatile (the warp's slot on the SM, which may change while it "
                            "runs, not its index in the CTA): cannot prove that it stays in its lane "
                            "quarter; derive the quarter from %tid.x / 32").attach_note(
                        "%warpid is read here", volatile
                    ),
                )
                return
            self.findings.add(
                FindingKind.LANE_QUARTER, ("lanes-unknown", op),
                warning(op, f"cannot prove that warp {unsure}'s {op.name} stays in its lane quarter "
                        f"{q.start}..{q.stop - 1}: the lane of its address is not known statically"
                        f"{name_unknown(info.rest, Form(0, info.anchor or ()))}"),
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
                warning(info.op, f"cannot prove that every thread of a warp reaches this "
                        f"{info.op.name} (warp-collective, .sync.aligned) together").attach_note(
                    "this condition may differ between threads of a warp", unsure.branch.op
                ),
            )

    def _report_divergence(self, info: OpInfo, branch: Operation, warp: int | None) -> None:
        where = f"warp {warp}" if warp is not None else "a warp"
        self.findings.add(
            FindingKind.PARTIAL_COLLECTIVE, ("divergence", info.op),
            error(info.op, f"{info.op.name} is warp-collective (.sync.aligned) but runs under a "
                  f"condition that splits {where}: it depends on the lane, not only on the "
                  "warp index").attach_note(
                f"this condition differs between threads of {where}", branch
            ),
        )

    def _check_single_warp(self, info: OpInfo, mask: int) -> None:
        exact = self._decided(info)
        verb = "allocate" if info.kind is EffectKind.ALLOC else "free"
        text = (
            f"{info.op.name} runs in warps {few_warps(mask)}: exactly one warp of the CTA may "
            f"{verb} (guard it with a condition on the warp index)"
        )
        if exact and self._exists(1):
            self.findings.add(FindingKind.CONCURRENT_ALLOC if info.kind is EffectKind.ALLOC else FindingKind.DOUBLE_DEALLOC, ("one-warp", info.op), error(info.op, text))
        else:
            self.findings.add(
                FindingKind.CONCURRENT_ALLOC if info.kind is EffectKind.ALLOC else FindingKind.DOUBLE_DEALLOC, ("one-warp", info.op),
                warning(info.op, f"cannot prove that only one warp runs this {info.op.name}; "
                        "exactly one warp of the CTA may " + verb),
            )
