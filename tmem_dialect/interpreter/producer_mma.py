"""The interpreter's tcgen05.mma: operands from shared memory and TMEM, scale factors, D (+)= A·B."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import tensor_core as tc
from tmem_dialect.interpreter.lanes import AsCta
from tmem_dialect.interpreter.mbarrier import Misuse
from tmem_dialect.interpreter.memory import MemoryFault
from tmem_dialect.interpreter.smem_descriptor import DescriptorError

if TYPE_CHECKING:
    from tmem_dialect.interpreter.producers import Producers
    from tmem_dialect.interpreter.warp import WarpInterpreter


@dataclass
class MmaOperands:
    """The operands of one tcgen05.mma as one issuing thread holds them (numbers, not SSA values)."""

    kind: isa.Kind
    cta_group: int
    d_taddr: int
    b_desc: int
    idesc: int
    accumulate: bool
    a_desc: int | None = None  # A from shared memory
    a_taddr: int | None = None  # A from TMEM
    scale_input_d: int | None = None
    ws: bool = False
    scale_a_taddr: int | None = None  # block-scaled kinds: the scale factors in TMEM
    scale_b_taddr: int | None = None
    scale_vec: isa.ScaleVec | None = None


class MmaIssue:
    """tcgen05.mma of one thread, a part of interpreter.producers.Producers (its state and checks)."""

    def mma(self: Producers, w: WarpInterpreter, op: Operation, ops: MmaOperands) -> None:
        """One thread's tcgen05.mma: D (+)= A·B computed now, completion tracked until a commit."""
        m = self.machine
        try:
            idesc = tc.decode_instr(ops.idesc, ops.kind)
        except DescriptorError as e:
            self.report(op, Misuse(FindingKind.BAD_DESCRIPTOR, f"instruction descriptor {ops.idesc:#010x}: {e}"))
            return
        from tmem_dialect.interpreter import (
            lifecycle,  # it sits above this module (imports the machine)
        )

        group = lifecycle.check_cta_group(m, w, op, ops.cta_group)
        ctas = [w.cta] if group == 1 else [w.cta & ~1, (w.cta & ~1) + 1]
        k = ops.kind.dense_k
        rows = idesc.m // group
        try:
            b_parts = []
            for c in ctas:
                read = self.shared_reader(AsCta(w, c), op)
                b_parts.append(tc.read_smem_operand(read, ops.b_desc, ops.kind, idesc.b_type,
                                                    idesc.n // group, k, idesc.transpose_b))
            b = np.concatenate(b_parts, axis=0)
            results = []
            tmem_reads: list[tuple[int, np.ndarray]] = []  # (CTA, cells) of the operands read from TMEM
            for c in ctas:
                if ops.a_taddr is not None:
                    a = tc.read_tmem_operand(m.ctas[c].tmem.cells, ops.a_taddr, idesc.a_type, idesc.m, k, group)
                    a_flat, _ = tc.a_from_tmem_flat(ops.a_taddr, idesc.m, k, idesc.a_type.bits, group)
                    tmem_reads.append((c, np.unique(a_flat)))
                else:
                    assert ops.a_desc is not None
                    a = tc.read_smem_operand(self.shared_reader(AsCta(w, c), op), ops.a_desc, ops.kind,
                                             idesc.a_type, rows, k, idesc.transpose_a)
                results.append(a)
        except (DescriptorError, MemoryFault) as e:
            self._operand_error(w, op, e)
            return
        scales: list = [None] * len(ctas)
        if ops.kind.block_scaled:  # each CTA's tensor core reads the scale factors in its own TMEM
            for i, c in enumerate(ctas):
                scales[i] = self._scale_factors(AsCta(w, c), op, ops, idesc, rows, group)
                if scales[i] is None:
                    return
                tmem_reads.append((c, scales[i][3]))
        for c in ctas:
            self._check_operand_fences(w, op, c, ops, idesc, rows, k, group)
        record = self._new_record(w, op)
        for c, cells in tmem_reads:
            self.async_tmem_reader[c][cells] = record
        for c, a, sf in zip(ctas, results, scales):
            tmem = m.ctas[c].tmem
            flat = tc.accumulator_flat(ops.d_taddr, idesc.m, idesc.n, group, ops.ws)
            if not self._writable(w, op, c, flat, "overwrites" if not ops.accumulate else "accumulates into"):
                continue
            old = tc.from_cells(tmem.cells[flat], idesc.d_type) if ops.accumulate else None
            if sf is None:
                d = tc.multiply(idesc, a, b, old, scale_input_d=ops.scale_input_d)
            else:
                d = tc.multiply_block_scaled(idesc, a, b, old, *sf[:3])
            self._write(c, flat, tc.to_cells(d), record)

    def _scale_factors(self: Producers, w: WarpInterpreter, op: Operation, ops: MmaOperands, idesc: isa.InstrDescriptor,
                       rows: int, group: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """(each row's lane partition, scale_A (rows, per_row), scale_B per partition (4, N,
        per_row), the TMEM cells read) from the TMEM of w's CTA (isa.scale_factor_cells); None
        after reporting a bad operand. `rows`: the CTA's rows of D (M / cta_group); scale_B
        covers all N columns in each CTA (isa.pair_scale_factor_rows)."""
        if idesc.k96:  # the K = 96 scale layouts span two sub-columns (Figures 234-252): not modelled
            self.report(op, Misuse(FindingKind.UNSUPPORTED, f"{op.name}: the interpreter does not model K = 96 "
                                   "(the instruction descriptor's K-dimension bit)"), severity="warning")
            return None
        per_row = isa.scale_factors_per_row(ops.kind, ops.scale_vec)
        for role, sid in (("A", idesc.a_scale_id), ("B", idesc.b_scale_id)):
            if err := isa.scale_id_error(ops.kind, ops.scale_vec, sid):
                self.report(op, Misuse(FindingKind.BAD_DESCRIPTOR, f"instruction descriptor {ops.idesc:#010x}: scale {role}: {err}"))
                return None
        assert idesc.scale_type is not None and ops.scale_a_taddr is not None and ops.scale_b_taddr is not None
        cells = self.machine.ctas[w.cta].tmem.cells
        d_lanes, _ = isa.accumulator_layout(idesc.m, group, 1)
        partition = d_lanes[:, 0] // isa.LANES_PER_WARP
        sfa_rows, sfb_rows = isa.pair_scale_factor_rows(idesc.m, idesc.n, group)
        assert sfa_rows == rows
        try:
            sfa, flat_a = tc.read_scale_factors(cells, ops.scale_a_taddr, sfa_rows, per_row, idesc.a_scale_id,
                                                partition, idesc.scale_type)
            sfb_parts = [tc.read_scale_factors(cells, ops.scale_b_taddr, sfb_rows, per_row, idesc.b_scale_id, q,
                                               idesc.scale_type)
                         for q in range(isa.TMEM_LANES // isa.LANES_PER_WARP)]
        except DescriptorError as e:
            self.report(op, Misuse(FindingKind.BAD_DESCRIPTOR, f"{op.name}: {e}"))
            return None
        flats = [flat_a.reshape(-1)] + [f.reshape(-1) for _, f in sfb_parts]
        read = np.unique(np.concatenate(flats))
        self.check_tmem(w, op, read, "reads scale factors in", same_warp_pipelined=True)
        return partition, sfa, np.stack([v for v, _ in sfb_parts]), read

    def _check_operand_fences(self: Producers, w, op, cta, ops: MmaOperands, idesc, rows, k, group) -> None:
        from tmem_dialect.interpreter import smem_descriptor as sd

        reads = []
        for desc_value, t, n, mn_major in ((ops.a_desc, idesc.a_type, rows, idesc.transpose_a),
                                           (ops.b_desc, idesc.b_type, idesc.n // group, idesc.transpose_b)):
            if desc_value is None:
                continue
            desc = sd.decode(desc_value)
            bits = isa.smem_container_bits(ops.kind, t)
            addr, _ = sd.element_addresses(desc, n, k, bits, not mn_major)
            reads.append(addr.reshape(-1))
        addresses = np.concatenate(reads)
        self.check_proxy(AsCta(w, cta), op, addresses, "tcgen05.mma")
        self.mark_async_reads(cta, addresses, len(self.records))  # the record about to be made
