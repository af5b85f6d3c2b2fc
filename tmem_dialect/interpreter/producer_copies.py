"""The interpreter's tcgen05.cp and tcgen05.shift: asynchronous copies into TMEM and lane shifts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter.lanes import AsCta
from tmem_dialect.interpreter.memory import MemoryFault
from tmem_dialect.interpreter.smem_descriptor import DescriptorError

if TYPE_CHECKING:
    from tmem_dialect.interpreter.producers import Producers
    from tmem_dialect.interpreter.warp import WarpInterpreter


class CopyIssue:
    """tcgen05.cp and tcgen05.shift of one thread, a part of interpreter.producers.Producers."""

    def cp(self: Producers, w: WarpInterpreter, op: Operation, taddr: int, desc_value: int, shape: isa.CpShape,
           multicast: isa.CpMulticast | None, cta_group: int, source: isa.CpSourceFormat | None = None) -> None:
        """One thread's tcgen05.cp: shape.rows rows of shape.row_bits bits, read through the SMEM
        descriptor as a K-major canonical matrix of bytes (isa.smem), land in TMEM by
        isa.cp_footprint, 4 bytes per 32-bit column (little-endian); asynchronous like mma.
        With a `source` format each 16-byte chunk of a row is decompressed (isa.decompress); its
        padding bytes are not read."""
        from tmem_dialect.interpreter import smem_descriptor as sd

        m = self.machine
        from tmem_dialect.interpreter import lifecycle

        group = lifecycle.check_cta_group(m, w, op, cta_group)
        ctas = [w.cta] if group == 1 else [w.cta & ~1, (w.cta & ~1) + 1]
        fp = isa.cp_footprint(shape, multicast)
        row_bytes = shape.row_bits // 8
        try:
            desc = sd.decode(desc_value)
            addresses, _ = sd.element_addresses(desc, shape.rows, row_bytes, 8, k_major=True)
            read = addresses.reshape(-1)
            if source is not None:  # only the payload of each chunk is read
                in_chunk = np.arange(row_bytes) % isa.SUBBYTE_CHUNK_BYTES
                read = addresses[:, in_chunk < source.payload_bytes].reshape(-1)
            rows = [self.shared_reader(AsCta(w, c), op)(addresses) for c in ctas]
        except (DescriptorError, MemoryFault) as e:
            self._operand_error(w, op, e)
            return
        if source is not None:
            chunks = shape.rows, row_bytes // isa.SUBBYTE_CHUNK_BYTES, isa.SUBBYTE_CHUNK_BYTES
            rows = [isa.decompress(data.reshape(chunks), source).reshape(shape.rows, row_bytes) for data in rows]
        for c in ctas:
            self.check_proxy(AsCta(w, c), op, read, "tcgen05.cp")
            self.mark_async_reads(c, read, len(self.records))
        record = self._new_record(w, op)
        lane0, col0 = isa.taddr_lane(taddr), isa.taddr_column(taddr)
        src_rows = np.array([r for r, lanes in enumerate(fp.lanes) for _ in lanes])
        dst_lanes = np.array([lane for lanes in fp.lanes for lane in lanes]) + lane0
        cols = col0 + np.arange(fp.columns)
        flat = (dst_lanes[:, None] * isa.TMEM_COLUMNS + cols[None, :])
        for c, data in zip(ctas, rows):
            if self._writable(w, op, c, flat, "overwrites"):
                words = np.ascontiguousarray(data.astype(np.uint8)).view(np.uint32)  # (rows, columns)
                self._write(c, flat, words[src_rows], record)

    # ---- tcgen05.shift ----------------------------------------------------------------------

    def shift(self: Producers, w: WarpInterpreter, op: Operation, taddr: int, cta_group: int) -> None:
        """One thread's tcgen05.shift.down: in the 32 lanes from taddr's lane, the 8 columns from
        its column move one lane down (isa.shift_moves); asynchronous like mma and cp."""
        m = self.machine
        from tmem_dialect.interpreter import lifecycle

        lane0, col0 = isa.taddr_lane(taddr), isa.taddr_column(taddr)
        if err := isa.shift_taddr_error(lane0):
            m.report(FindingKind.LANE_QUARTER, "error", op, f"{op.name} of warp {w.warp}: {err}", key=w.warp)
            return
        if col0 + isa.SHIFT_COLUMNS > isa.TMEM_COLUMNS:
            m.report(FindingKind.OUT_OF_BOUNDS, "error", op,
                     f"{op.name} of warp {w.warp} shifts columns {col0}..{col0 + isa.SHIFT_COLUMNS - 1}, past "
                     f"column {isa.TMEM_COLUMNS - 1}", key=w.warp)
            return
        group = lifecycle.check_cta_group(m, w, op, cta_group)
        ctas = [w.cta] if group == 1 else [w.cta & ~1, (w.cta & ~1) + 1]
        moves = np.array(isa.shift_moves())
        cols = col0 + np.arange(isa.SHIFT_COLUMNS)
        src = (lane0 + moves[:, :1]) * isa.TMEM_COLUMNS + cols[None, :]
        dst = (lane0 + moves[:, 1:]) * isa.TMEM_COLUMNS + cols[None, :]
        for c in ctas:
            self.check_tmem(AsCta(w, c), op, src.reshape(-1), "shifts", same_warp_pipelined=True)
        record = self._new_record(w, op)
        for c in ctas:
            data = self.machine.ctas[c].tmem.cells[src].copy()  # read all rows before any moves
            if self._writable(AsCta(w, c), op, c, dst, "overwrites"):
                self._write(c, dst, data, record)
