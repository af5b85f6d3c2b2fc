"""Round trip through the PTX front end: import, re-emit with -t ptx, assemble, import again, and compare runs.

For the team's known-good PTX and for the PTX tmem-opt emits for every example, the importer's
module must verify, its re-emitted PTX must assemble with ptxas, and the interpreter must give the
same buffers (bit for bit) and the same findings on the original and the re-emitted program
(translation validation). For the examples, the imported PTX must also compute what the MLIR
source computes.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_interpreter_examples import EXAMPLE_LIST

from tmem_dialect.frontend import import_ptx
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import verify_diagnostics
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas

ROOT = Path(__file__).parent.parent
KNOWN_GOOD = ROOT / "tests" / "data" / "tmem_roundtrip_sm100a.ptx"
PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")


def emitted_ptx(example: str) -> str:
    """`tmem-opt examples/X.mlir -p tmem-pipeline -t ptx`, as a user runs it."""
    proc = subprocess.run(
        [sys.executable, "-m", "tmem_dialect.tools.opt", str(ROOT / "examples" / f"{example}.mlir"),
         "-p", "tmem-pipeline", "-t", "ptx"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def round_trip(ptx: str, name: str) -> tuple[object, object, str]:
    """(module of `ptx`, module of its re-emitted PTX, the re-emitted PTX)."""
    first = import_ptx(ptx, name)
    assert verify_diagnostics(first) == []
    again = emit_ptx(first).text
    second = import_ptx(again, name + ".again")
    assert verify_diagnostics(second) == []
    return first, second, again


def assert_same_runs(a, b, kernel: str | None, threads: int | None, make_args) -> tuple:
    ra = run_kernel(a, kernel=kernel, threads=threads, args=make_args())
    rb = run_kernel(b, kernel=kernel, threads=threads, args=make_args())
    assert ra.kinds() == rb.kinds(), (ra.render(), rb.render())
    for x, y in zip(ra.args, rb.args):
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes()
    return ra, rb


@needs_ptxas
def test_known_good_ptx_round_trips() -> None:
    ptx = KNOWN_GOOD.read_text()
    first, second, again = round_trip(ptx, str(KNOWN_GOOD))
    result = run_ptxas(again, "sm_100a", PTXAS)
    assert result.ok, result.output
    ra, _ = assert_same_runs(first, second, "tmem_roundtrip", 128, lambda: [np.zeros(128, np.int32)])
    assert ra.errors == []
    assert (ra.args[0] == np.arange(128)).all()


@needs_ptxas
@pytest.mark.parametrize("example", EXAMPLE_LIST, ids=lambda e: e.name)
def test_emitted_example_ptx_round_trips(example) -> None:
    ptx = emitted_ptx(example.name)
    first, second, again = round_trip(ptx, f"{example.name}.ptx")
    result = run_ptxas(again, "sm_100a", PTXAS)
    assert result.ok, result.output
    ra, _ = assert_same_runs(first, second, example.name, None, example.args)
    assert ra.errors == [], ra.render()
    inputs = example.args()
    example.check(inputs, ra.args)
    source = run_kernel(example.text, kernel=example.name, args=example.args())
    for x, y in zip(source.args, ra.args):
        assert np.asarray(x).tobytes() == np.asarray(y).tobytes()


def test_imported_ops_carry_ptx_locations() -> None:
    module = import_ptx(KNOWN_GOOD.read_text(), "known.ptx")
    text = KNOWN_GOOD.read_text().splitlines()
    from tmem_dialect.diagnostics import location_of

    seen = 0
    for op in module.walk():
        if op.name.startswith("nvvm.tcgen05."):
            loc = location_of(op)
            assert loc is not None and loc.file == "known.ptx"
            mnemonic = op.name.removeprefix("nvvm.")
            line = text[loc.line - 1][loc.column - 1:]
            assert line.startswith(mnemonic.split(".")[0] + "." + mnemonic.split(".")[1][:4]), (op.name, line)
            seen += 1
    assert seen == 11  # 4 fences, alloc, relinquish, st, wait, ld, wait, dealloc


def _verdicts(module) -> list[str]:
    """tmem-verify's diagnostics as (severity, message) without locations, sorted."""
    from tmem_dialect.diagnostics import DiagnosticError, capture
    from tmem_dialect.dialects import make_context
    from tmem_dialect.passes.verify import TmemVerifyPass

    with capture() as engine:
        try:
            TmemVerifyPass().apply(make_context(), module)
        except DiagnosticError as e:
            engine.diagnostics.extend(e.diagnostics)
    # A warning names the value it could not see through ("(it depends on %i150)"): the names
    # differ between the MLIR and the PTX it was imported from, the verdict does not.
    return sorted(
        f"{d.severity.value}: {re.sub(r' [(]it depends on [^)]*[)]$', '', d.message)}"
        for d in engine.diagnostics
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_verifier_verdicts_survive_ptx(seed: int) -> None:
    """A generated NVVM kernel (loops, branches, barrier phases) and its PTX, imported back, get the
    same tmem-verify errors and warnings (the generated kernels have no waits: there are many)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from kernel_gen import generate

    from tmem_dialect.dialects import make_context
    from tmem_dialect.ir import parse_module

    source = parse_module(make_context(), generate(60, nvvm=True, seed=seed))
    imported = import_ptx(emit_ptx(source).text, "k.ptx")
    want = _verdicts(source)
    assert want, "the generated kernel should have findings"
    assert _verdicts(imported) == want
