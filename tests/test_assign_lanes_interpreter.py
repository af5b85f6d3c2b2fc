"""tmem-assign-lanes against the interpreter's TMEM model: tile ops moved by the pass are checked with
hand-written warp-level 32x32b accesses that read or write the whole TMEM image of each warp."""

from __future__ import annotations

import io
from dataclasses import dataclass
from math import prod

import numpy as np
import pytest
from xdsl.parser import Parser
from xdsl.printer import Printer

from tmem_dialect import interpreter
from tmem_dialect.dialects import make_context
from tmem_dialect.dialects.tcgen05_tiles import default_fragment
from tmem_dialect.ir import parse_module, verify_or_raise
from tmem_dialect.layout import LANEID, TCOL, TLANE, WARPID, M, TileLayout
from tmem_dialect.passes.assign_lanes import AssignLanesPass

NUMPY = {"f32": np.float32, "i32": np.int32, "f16": np.float16, "i16": np.int16}
IMAGE_COLUMNS = 128  # each warp reads/writes lanes 32q..32q+31, columns 0..127 of the allocation


@dataclass
class Case:
    name: str
    shape: tuple[int, int]
    element: str
    layout: str
    frag: str | None = None

    @property
    def buffer_type(self) -> str:
        return f"!tcgen05.tmem<{self.shape[0]}x{self.shape[1]}x{self.element}, {self.layout}>"

    def fragment(self) -> TileLayout:
        if self.frag is None:
            frag = default_fragment(self.shape)
            assert frag is not None
            return frag
        return Parser(make_context(), f"#tcgen05.layout<{self.frag}>").parse_attribute().data

    def placement(self) -> list[tuple[int, int, int, int, int]]:
        """(warp, thread, m, lane, column) of every element, from the layout algebra."""
        buffer = Parser(make_context(), self.buffer_type).parse_type().tile_layout
        frag = self.fragment()
        flat = np.arange(prod(self.shape))
        cells, regs = buffer.shard_coords(flat), frag.shard_coords(flat)
        zero = np.zeros_like(flat)
        return [
            (
                int(regs.get(WARPID, zero)[e]),
                int(regs.get(LANEID, zero)[e]),
                int(regs.get(M, zero)[e]),
                int(cells.get(TLANE, zero)[e]),
                int(cells.get(TCOL, zero)[e]),
            )
            for e in flat
        ]


CASES = [
    Case("accumulator", (128, 128), "f32", "S[(128, 128) : (1@TLane, 1@TCol)]"),
    Case(
        "m64_f16",
        (64, 64),
        "f16",
        "S[(4, 16, 64) : (32@TLane, 1@TLane, 1@TCol)]",
        "S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)]",
    ),
    Case(
        "m64_16x128b",
        (64, 32),
        "f32",
        "S[(4, 16, 32) : (32@TLane, 1@TLane, 1@TCol)]",
        "S[(4, 2, 8, 8, 4) : (1@warpid, 1, 4@laneid, 2, 1@laneid)]",
    ),
    Case(
        "m64_16x64b",
        (64, 32),
        "i32",
        "S[(4, 16, 32) : (32@TLane, 1@TLane, 1@TCol)]",
        "S[(4, 2, 8, 16, 2) : (1@warpid, 1@laneid, 4@laneid, 1, 2@laneid)]",
    ),
    Case("half_split", (128, 32), "f32", "S[(4, 2, 16, 32) : (32@TLane, 32@TCol, 1@TLane, 1@TCol)]"),
    Case(
        "zigzag_dispatch",
        (64, 64),
        "f32",
        "S[(2, 2, 16, 64) : (64@TLane, 48@TLane, 1@TLane, 1@TCol)]",
        "S[(2, 2, 2, 8, 8, 4, 2) : (2@warpid, 1@warpid, 2, 4@laneid, 4, 1@laneid, 1)]",
    ),
    Case("accumulator_i16_odd", (128, 5), "i16", "S[(128, 5) : (1@TLane, 1@TCol)]"),
]

PROLOGUE = """
llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
func.func @{name}({params}) attributes {{tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>}} {{
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  scf.if %is0 {{
    tcgen05.alloc %slot, {ncols} : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit
  }}
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %q = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %q, %c21_i32 : i32
  %mine = arith.addi %base, %lane_base : i32
  %t = arith.index_cast %tid : i32 to index
  %cM = arith.constant {positions} : index
  %cW = arith.constant {width} : index
  %first = arith.muli %t, %cM : index
  %row = arith.muli %t, %cW : index
  %buf = tcgen05.decl_buffer %base : {buffer}
"""
EPILOGUE = """
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  scf.if %is0 {{
    tcgen05.dealloc %base, {ncols}
  }}
  func.return
}}
"""


def kernel(case: Case, body: str, params: str) -> str:
    positions = case.fragment().elements_per_thread()
    fields = dict(
        name=case.name,
        params=params,
        ncols=IMAGE_COLUMNS,
        positions=positions,
        width=IMAGE_COLUMNS,
        buffer=case.buffer_type,
    )
    return PROLOGUE.format(**fields) + body + EPILOGUE.format(**fields)


def run(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    ctx = make_context()
    module = parse_module(ctx, text, "kernel.mlir")
    AssignLanesPass().apply(ctx, module)
    verify_or_raise(module)
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    result = interpreter.run_kernel(out.getvalue(), args=args, filename="kernel.mlir")
    assert not result.errors, "\n".join(d.render() for d in result.errors)
    return [np.asarray(a) for a in result.args]


def bits(values: np.ndarray) -> np.ndarray:
    """The low 16 bits of 16-bit data, the 32 bits of 32-bit data, as unsigned integers."""
    width = values.dtype.itemsize * 8
    return values.view(np.uint16 if width == 16 else np.uint32).astype(np.uint32)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_tile_store_then_warp_reads(case: Case) -> None:
    """tile_store by the pass; every warp reads its quarter back with hand-written 32x32b."""
    positions = case.fragment().elements_per_thread()
    vec = f"vector<{positions}x{case.element}>"
    body = f"""
  %v = vector.load %in[%first] : memref<{128 * positions}x{case.element}>, {vec}
  tcgen05.tile_store %v, %buf [0, 0] [{case.shape[0]}, {case.shape[1]}] {f"frag <{case.frag}> " if case.frag else ""}: {vec}, {case.buffer_type}
  tcgen05.wait store
  %image = tcgen05.ld %mine shape_32x32b x{IMAGE_COLUMNS} : vector<{IMAGE_COLUMNS}xi32>
  tcgen05.wait load
  vector.store %image, %out[%row] : memref<{128 * IMAGE_COLUMNS}xi32>, vector<{IMAGE_COLUMNS}xi32>
"""
    text = kernel(case, body, f"%in: memref<{128 * positions}x{case.element}>, %out: memref<{128 * IMAGE_COLUMNS}xi32>")
    values = (np.arange(128 * positions) % 30000 + 1).astype(NUMPY[case.element])
    image = np.zeros(128 * IMAGE_COLUMNS, dtype=np.int32)
    _, image = run(text, [values, image])
    cell_bits = image.view(np.uint32) & (0xFFFF if values.dtype.itemsize == 2 else 0xFFFFFFFF)
    for w, t, m, lane, col in case.placement():
        thread = 32 * w + t
        assert cell_bits[lane * IMAGE_COLUMNS + col] == bits(values[thread * positions + m : thread * positions + m + 1])[0]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_warp_writes_then_tile_load(case: Case) -> None:
    """Every warp writes its quarter with hand-written 32x32b; tile_load by the pass reads it."""
    positions = case.fragment().elements_per_thread()
    vec = f"vector<{positions}x{case.element}>"
    body = f"""
  %image = vector.load %in[%row] : memref<{128 * IMAGE_COLUMNS}xi32>, vector<{IMAGE_COLUMNS}xi32>
  tcgen05.st %image, %mine shape_32x32b x{IMAGE_COLUMNS} : vector<{IMAGE_COLUMNS}xi32>
  tcgen05.wait store
  %v = tcgen05.tile_load %buf [0, 0] [{case.shape[0]}, {case.shape[1]}] {f"frag <{case.frag}> " if case.frag else ""}: {case.buffer_type} -> {vec}
  vector.store %v, %out[%first] : memref<{128 * positions}x{case.element}>, {vec}
  tcgen05.wait load
"""
    text = kernel(case, body, f"%in: memref<{128 * IMAGE_COLUMNS}xi32>, %out: memref<{128 * positions}x{case.element}>")
    image = (np.arange(128 * IMAGE_COLUMNS) * 7 % 30011 + 1).astype(np.int32)
    values = np.zeros(128 * positions, dtype=NUMPY[case.element])
    _, values = run(text, [image, values])
    sixteen = values.dtype.itemsize == 2
    for w, t, m, lane, col in case.placement():
        thread = 32 * w + t
        cell = int(image[lane * IMAGE_COLUMNS + col]) & (0xFFFF if sixteen else 0xFFFFFFFF)
        assert bits(values[thread * positions + m : thread * positions + m + 1])[0] == cell, (w, t, m)
