"""lift-inline-asm on a Triton-style kernel whose TMEM work is all inline asm: it runs, and computes what it says."""

from __future__ import annotations

import numpy as np

from tmem_dialect.dialects import make_context
from tmem_dialect.findings import FindingKind
from tmem_dialect.frontend.lift_inline_asm import LiftInlineAsmPass
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module, verify_diagnostics

KERNEL = """
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [$0], $1;", "r,n" %slot, %c32 : (!llvm.ptr<3>, i32) -> ()
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;", "" : () -> ()
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.fence::before_thread_sync;", "" : () -> ()
  nvvm.barrier
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.fence::after_thread_sync;", "" : () -> ()
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %twice = llvm.add %tid, %tid : i32
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.st.sync.aligned.32x32b.x2.b32 [$0], {$1, $2};", "r,r,r" %base, %tid, %twice : (i32, i32, i32) -> ()
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.wait::st.sync.aligned;", "" : () -> ()
  %pair = llvm.inline_asm has_side_effects asm_dialect = att "{\\0A\\09.reg .b32 t;\\0A\\09tcgen05.ld.sync.aligned.32x32b.x2.b32 {$0, t}, [$2];\\0A\\09add.u32 $1, t, 1;\\0A\\09}", "=r,=r,r" %base : (i32) -> !llvm.struct<(i32, i32)>
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.wait::ld.sync.aligned;", "" : () -> ()
  %a = llvm.extractvalue %pair[0] : !llvm.struct<(i32, i32)>
  %b = llvm.extractvalue %pair[1] : !llvm.struct<(i32, i32)>
  %sum = llvm.mul %a, %b : i32
  %p = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
  llvm.store %sum, %p : i32, !llvm.ptr<1>
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.fence::before_thread_sync;", "" : () -> ()
  nvvm.barrier
  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.dealloc.cta_group::1.sync.aligned.b32 $0, $1;", "r,n" %base, %c32 : (i32, i32) -> ()
  llvm.return
}
"""


def test_lifted_kernel_runs_clean_with_the_right_numbers() -> None:
    module = parse_module(make_context(), KERNEL)
    LiftInlineAsmPass().apply(make_context(), module)
    assert verify_diagnostics(module) == []
    assert not any(op.name == "llvm.inline_asm" for op in module.walk())
    result = run_kernel(module, kernel="k", args=[np.zeros(32, np.int32)])
    assert result.diagnostics == [], result.render()
    t = np.arange(32)
    assert (result.args[0] == t * (2 * t + 1)).all()


def test_a_missing_wait_in_asm_is_found_once_lifted() -> None:
    racy = KERNEL.replace('  llvm.inline_asm has_side_effects asm_dialect = att "tcgen05.wait::st.sync.aligned;", "" : () -> ()\n', "")
    module = parse_module(make_context(), racy)
    LiftInlineAsmPass().apply(make_context(), module)
    result = run_kernel(module, kernel="k", args=[np.zeros(32, np.int32)])
    assert FindingKind.STORE_COMPLETION in result.kinds(), result.render()
