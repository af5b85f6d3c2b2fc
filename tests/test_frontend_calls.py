"""PTX device functions through the front end: `.func` with `.param` and `.reg` parameters and return values, `call` and `call.uni`.

The importer makes each `.func` an llvm.func and each call an llvm.call (st.param / ld.param of a
call sequence's `.param` variables are the values passed); the interpreter runs the callee under
the caller's lanes; the PTX target re-emits `.func` and the call sequences, ptxas accepts them, and
the re-imported PTX runs to the same buffers (translation validation). Calls the importer cannot
read are errors at their PTX line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import llvm

from tmem_dialect.diagnostics import DiagnosticError
from tmem_dialect.findings import FindingKind
from tmem_dialect.frontend import import_ptx
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import verify_diagnostics
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas

CALLS = Path(__file__).parent / "data" / "device_calls.ptx"
PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
HEADER = ".version 8.6\n.target sm_100a\n.address_size 64\n"


def _expected_calls() -> np.ndarray:
    tid = np.arange(32, dtype=np.int32)
    return np.where(tid < 16, tid * 6, tid * 6 + 1000).astype(np.int32)


def test_device_functions_import_as_llvm_func_and_call() -> None:
    module = import_ptx(CALLS.read_text(), str(CALLS))
    assert verify_diagnostics(module) == []
    funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, llvm.FuncOp)}
    assert str(funcs["scale"].function_type) == "!llvm.func<i32 (i32, i32)>"
    assert str(funcs["twice"].function_type) == "!llvm.func<i32 (i32)>"  # .reg parameter and result
    assert str(funcs["store"].function_type) == "!llvm.func<void (i64, i32)>"
    calls = [op for op in module.walk() if isinstance(op, llvm.CallOp)]
    assert [c.callee.root_reference.data for c in calls] == ["scale", "twice", "store"]
    assert all(c.location.line.data > 0 for c in calls)  # type: ignore[union-attr]


def test_calls_run_to_the_right_numbers() -> None:
    result = run_kernel(import_ptx(CALLS.read_text(), str(CALLS)), threads=32, args=[np.zeros(32, np.int32)])
    assert result.errors == [], result.render()
    assert np.array_equal(result.args[0], _expected_calls())


DIVERGENT_RETURN = HEADER + """
.func (.param .b32 r) clamp(.param .b32 x)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  setp.gt.s32 %p1, %r1, 20;
  @%p1 bra BIG;
  st.param.b32 [r], %r1;
  ret;
BIG:
  mov.b32 %r2, 20;
  st.param.b32 [r], %r2;
  ret;
}

.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.s64 %rd2, %rd0, %rd1;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  call (retval0), clamp, (param0);
  ld.param.b32 %r2, [retval0];
  }
  st.global.u32 [%rd2], %r2;
  ret;
}
"""


def test_lanes_returning_at_different_points_merge() -> None:
    result = run_kernel(import_ptx(DIVERGENT_RETURN, "clamp.ptx"), threads=32, args=[np.zeros(32, np.int32)])
    assert result.errors == [], result.render()
    assert np.array_equal(result.args[0], np.minimum(np.arange(32), 20))


@needs_ptxas
@pytest.mark.parametrize("text", [CALLS.read_text(), DIVERGENT_RETURN], ids=["calls", "divergent_return"])
def test_calls_round_trip_through_ptxas(text: str) -> None:
    assert run_ptxas(text, "sm_100a", PTXAS).ok
    first = import_ptx(text, "calls.ptx")
    again = emit_ptx(first).text
    assert ".func" in again and "call" in again
    result = run_ptxas(again, "sm_100a", PTXAS)
    assert result.ok, result.output
    second = import_ptx(again, "calls.again.ptx")
    runs = [run_kernel(m, threads=32, args=[np.zeros(32, np.int32)]) for m in (first, second)]
    assert runs[0].kinds() == runs[1].kinds() == set()
    assert runs[0].args[0].tobytes() == runs[1].args[0].tobytes()


def _error(text: str) -> tuple[int, str]:
    with pytest.raises(DiagnosticError) as info:
        import_ptx(HEADER + text, "bad.ptx")
    (d,) = info.value.diagnostics
    return d.location.line - HEADER.count("\n"), d.message  # type: ignore[union-attr]


def test_a_call_to_an_unknown_function_is_an_error_at_its_line() -> None:
    line, message = _error(".visible .entry k()\n{\n  call.uni nowhere;\n  ret;\n}\n")
    assert (line, message) == (3, "call to unknown function 'nowhere'")


def test_a_call_with_the_wrong_arguments_is_an_error() -> None:
    text = (".func f(.param .b32 a)\n{\n  ret;\n}\n.visible .entry k()\n{\n  .reg .b32 %r<2>;\n"
            "  call f, (%r1, %r1);\n  ret;\n}\n")
    assert _error(text) == (8, "'f' takes 1 arguments, the call passes 2")


def test_a_call_of_an_extern_declaration_is_unmodelled() -> None:
    text = ".extern .func g();\n.visible .entry k()\n{\n  call g;\n  ret;\n}\n"
    line, message = _error(text)
    assert line == 4 and "no body here (an .extern declaration)" in message and "--allow-unmodelled" in message


def test_exit_in_a_device_function_is_unmodelled() -> None:
    line, message = _error(".func f()\n{\n  exit;\n}\n.visible .entry k()\n{\n  call f;\n  ret;\n}\n")
    assert line == 3 and "exit in a device function" in message


def test_a_recursive_call_is_not_run() -> None:
    text = HEADER + (".func f(.param .b32 a);\n.func f(.param .b32 a)\n{\n  .reg .b32 %r<2>;\n"
                     "  ld.param.b32 %r1, [a];\n  call f, (%r1);\n  ret;\n}\n"
                     ".visible .entry k()\n{\n  call f, (1);\n  ret;\n}\n")
    result = run_kernel(import_ptx(text, "rec.ptx"), threads=32, args=[])
    assert result.kinds() == {FindingKind.UNSUPPORTED}
    assert "recursive" in result.render()
