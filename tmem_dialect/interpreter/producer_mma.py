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
    disable_output_lane: tuple[int, ...] | None = None  # the 4 / 8 mask words (isa.disabled_lanes)
    zero_column_mask: int | None = None  # .ws: the zero-column mask descriptor (isa.ZeroColumnMask)
    collector_b: tuple[int, isa.CollectorUsage] | None = None  # .ws: (buffer N, .collector::bN usage)


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
        zero_columns, shift = self._zero_column_mask(op, ops, idesc)
        if zero_columns is False:
            return
        b_from_buffer = self._collector_read(w, op, ops, idesc, k, shift)
        try:
            if b_from_buffer is not None:
                b = b_from_buffer
            else:
                b_parts = []
                for c in ctas:
                    read = self.shared_reader(AsCta(w, c), op)
                    part = tc.read_smem_operand(read, ops.b_desc, ops.kind, idesc.b_type,
                                                idesc.n // group + shift, k, idesc.transpose_b)
                    b_parts.append(part[shift:])  # the column shift: B's columns shift.. are used
                b = np.concatenate(b_parts, axis=0)
                self._collector_fill(w, ops, idesc, k, shift, b)
            if zero_columns is not None:
                b = np.where(zero_columns[:, None], np.zeros((), b.dtype), b)
            results = []
            tmem_reads: list[tuple[int, np.ndarray]] = []  # (CTA, cells) of the operands read from TMEM
            for c in ctas:
                if ops.a_taddr is not None:
                    a = tc.read_tmem_operand(m.ctas[c].tmem.cells, ops.a_taddr, ops.kind, idesc.a_type, idesc.m, k,
                                             group)
                    a_flat, _ = tc.a_from_tmem_flat(ops.a_taddr, idesc.m, k,
                                                    isa.tmem_container_bits(ops.kind, idesc.a_type), group)
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
            self._check_operand_fences(w, op, c, ops, idesc, rows, k, group, b_from_buffer is None, shift)
        record = self._new_record(w, op)
        for c, cells in tmem_reads:
            self.async_tmem_reader[c][cells] = record
        disabled = None if ops.disable_output_lane is None else isa.disabled_lanes(ops.disable_output_lane, group)
        for i, (c, a, sf) in enumerate(zip(ctas, results, scales)):
            tmem = m.ctas[c].tmem
            flat = tc.accumulator_flat(ops.d_taddr, idesc.m, idesc.n, group, ops.ws)
            keep = None if disabled is None else ~disabled[i][flat // isa.TMEM_COLUMNS]
            written = flat if keep is None else flat[keep]
            if written.size == 0:  # every lane of D disabled: nothing is written
                continue
            if not self._writable(w, op, c, written, "overwrites" if not ops.accumulate else "accumulates into"):
                continue
            old = tc.from_cells(tmem.cells[flat], idesc.d_type) if ops.accumulate else None
            if sf is None:
                d = tc.multiply(idesc, a, b, old, scale_input_d=ops.scale_input_d)
            else:
                d = tc.multiply_block_scaled(idesc, a, b, old, *sf[:3])
            cells = tc.to_cells(d)
            self._write(c, written, cells if keep is None else cells[keep], record)

    def _zero_column_mask(self: Producers, op: Operation, ops: MmaOperands, idesc: isa.InstrDescriptor):
        """(columns of B read as zeros or None, column shift) of a .ws mma's zero-column mask
        (isa.zero_columns); (False, 0) after reporting a descriptor the ISA does not define."""
        if ops.zero_column_mask is None:
            return None, 0
        desc = isa.ZeroColumnMask.decode(ops.zero_column_mask)
        if err := isa.zero_column_mask_error(desc, idesc.m):
            self.report(op, Misuse(FindingKind.BAD_DESCRIPTOR, f"{op.name}: zero-column mask "
                                   f"{ops.zero_column_mask:#018x}: {err}"))
            return False, 0
        columns = isa.zero_columns(desc, idesc.m, idesc.n)
        return (columns if columns.any() else None), desc.column_shift

    def _collector_read(self: Producers, w: WarpInterpreter, op: Operation, ops: MmaOperands,
                        idesc: isa.InstrDescriptor, k: int, shift: int) -> np.ndarray | None:
        """B as a .ws ::use / ::lastuse reads it from collector buffer N (then emptied by
        ::lastuse), or None when B comes from shared memory. A ::use of a buffer that holds no
        valid fill of this B's shape is reported (the ISA requires "a previous fill ... to be
        still valid": what the hardware then reads is undefined), and B is read from shared
        memory."""
        if ops.collector_b is None:
            return None
        index, usage = ops.collector_b
        buffers = self.collector_b[w.cta]
        held = buffers[index]
        if usage.buffer_valid_after is False:
            buffers[index] = None  # ::lastuse after the read below, ::discard at once
        if not usage.reads_buffer:
            return None
        key = (ops.kind, idesc.b_type, idesc.n, k, shift)
        if held is None or held[0] != key:
            why = ("no earlier .ws mma of this CTA filled it (or a ::lastuse / ::discard emptied it)" if held is None
                   else f"it holds the B of another shape ({held[0][2]} columns, type {held[0][1].value}, "
                   f"column shift {held[0][4]})")
            self.report(op, Misuse(FindingKind.UNINITIALIZED_READ,
                                   f"{op.name} of warp {w.warp} reads B from collector buffer b{index} "
                                   f"(.collector::b{index}::{usage.value}), but {why}; the ISA requires a "
                                   "previous fill that is still valid, so its D is undefined (B is read from "
                                   "shared memory here)"))
            return None
        return held[1]

    def _collector_fill(self: Producers, w: WarpInterpreter, ops: MmaOperands, idesc: isa.InstrDescriptor,
                        k: int, shift: int, b: np.ndarray) -> None:
        """A .ws ::fill keeps the B it read (before the zero-column mask) in collector buffer N."""
        if ops.collector_b is not None and ops.collector_b[1] is isa.CollectorUsage.FILL:
            self.collector_b[w.cta][ops.collector_b[0]] = ((ops.kind, idesc.b_type, idesc.n, k, shift), b)

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

    def _check_operand_fences(self: Producers, w, op, cta, ops: MmaOperands, idesc, rows, k, group,
                              b_from_smem: bool = True, shift: int = 0) -> None:
        from tmem_dialect.interpreter import smem_descriptor as sd

        reads = []
        operands = [(ops.a_desc, idesc.a_type, rows, idesc.transpose_a)]
        if b_from_smem:  # a .ws ::use / ::lastuse reads B from its collector buffer
            operands.append((ops.b_desc, idesc.b_type, idesc.n // group + shift, idesc.transpose_b))
        for desc_value, t, n, mn_major in operands:
            if desc_value is None:
                continue
            desc = sd.decode(desc_value)
            bits = isa.smem_container_bits(ops.kind, t)
            addr, _ = sd.element_addresses(desc, n, k, bits, not mn_major)
            if isa.smem_packed_with_padding(ops.kind, t):  # the bytes read: no chunk's padding
                first, _, second = sd.packed_subbyte(addr, t.bits)
                addr = np.concatenate([first.reshape(-1), second.reshape(-1)])
            reads.append(addr.reshape(-1))
        if not reads:
            return
        addresses = np.concatenate(reads)
        self.check_proxy(AsCta(w, cta), op, addresses, "tcgen05.mma")
        self.mark_async_reads(cta, addresses, len(self.records))  # the record about to be made
