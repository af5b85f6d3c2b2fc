"""Every MLIR file of tests/corpus runs, as users run it (run_kernel on the file, and tmem-run), on its PTX twin's inputs, to numpy's numbers.

The inputs and checks are tests/corpus_runs.py's, the ones the PTX files run on: CuTe's by-value
struct parameters take their fields in the order the PTX parameters list them. run_kernel finds
CuTe's kernel in its gpu.module (the host functions' cuda.* ops are never run), gives the
gpu.module's extern shared global the launch's dynamic shared memory, and lifts Triton's inline asm
with the PTX front end before running. None is left out (a file that could not run would be a strict
xfail that says why).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from corpus_runs import CORPUS, DOT_WS_FINDINGS, MISUSED, PAIR_RUNS, RUNS, SMEM, dot_ws
from xdsl.dialects.builtin import BoolAttr

from tmem_dialect.dialects import make_context
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module, verify_diagnostics
from tmem_dialect.tools.opt import run_tool
from tmem_dialect.tools.run import TmemRun

MLIR = sorted(CORPUS.glob("*/*.mlir"))
# triton/dot_ws: warp-specialized, 256 threads (its PTX twin's reqntid; the MLIR declares none),
# run for two K as its twin is in test_corpus.py, with the twin's findings.
WARP_SPECIALIZED = {"triton/dot_ws.mlir": 256}


def _name(path: Path) -> str:
    return str(path.relative_to(CORPUS))


def _twin(path: Path) -> str:
    return _name(path.with_suffix(".ptx"))


def test_every_corpus_mlir_file_is_run_or_says_why_not() -> None:
    for path in MLIR:
        twin = _twin(path)
        assert (twin in RUNS) + (twin in PAIR_RUNS) + (twin in MISUSED) + (
            _name(path) in WARP_SPECIALIZED
        ) == 1, _name(path)


@pytest.mark.parametrize("path", MLIR, ids=[_name(p) for p in MLIR])
def test_corpus_mlir_verifies_as_ir(path: Path) -> None:
    """The op verifiers and upstream's module rules accept every file: a global may sit in a
    gpu.module (any symbol table, as upstream), and inherent attributes CuTe writes in the
    attribute dictionary (`{kind = ..., ctaGroup = ...}`, `{isCTAOnly = true}`) are properties."""
    module = parse_module(make_context(), path.read_text(), str(path))
    assert verify_diagnostics(module) == []
    for op in module.walk():
        if op.name == "nvvm.cp.async.bulk.tensor.shared.cluster.global":
            assert op.properties["isCTAOnly"] == BoolAttr.from_bool(True)
            assert "isCTAOnly" not in op.attributes


RAN = [p for p in MLIR if _twin(p) in RUNS or _twin(p) in PAIR_RUNS]


@pytest.mark.parametrize("path", RAN, ids=[_name(p) for p in RAN])
def test_corpus_mlir_runs_to_the_right_numbers(path: Path) -> None:
    twin = _twin(path)
    args, check = (RUNS.get(twin) or PAIR_RUNS[twin])()
    cluster = 2 if twin in PAIR_RUNS else None
    result = run_kernel(path, threads=128, args=args, cluster=cluster, dynamic_shared_bytes=SMEM)
    assert result.errors == [], result.render()
    assert result.warp_ops > 0
    assert check(result.args)


@pytest.mark.parametrize("k", [32, 128])
def test_corpus_mlir_warp_specialized_dot_runs_as_its_ptx_twin(k: int) -> None:
    """numpy's product, and the findings of triton/dot_ws.ptx's run (setmaxnreg not warpgroup-uniform)."""
    args, check = dot_ws(k)
    threads = WARP_SPECIALIZED["triton/dot_ws.mlir"]
    result = run_kernel(CORPUS / "triton/dot_ws.mlir", threads=threads, args=args, dynamic_shared_bytes=SMEM)
    assert check(result.args), result.render()
    assert {f.value for f in result.kinds()} == DOT_WS_FINDINGS, result.render()


MISRUN = [p for p in MLIR if _twin(p) in MISUSED]


@pytest.mark.parametrize("path", MISRUN, ids=[_name(p) for p in MISRUN])
def test_corpus_mlir_misuse_is_found_at_run_time(path: Path) -> None:
    """The twin without wait::ld: the run finds what its PTX twin's run finds."""
    make, kind = MISUSED[_twin(path)]
    args, _ = make()
    result = run_kernel(path, threads=128, args=args, dynamic_shared_bytes=SMEM)
    assert {k.value for k in result.kinds()} == {kind}


@pytest.mark.parametrize(
    ("name", "extra"),
    [
        ("cute/tmem_roundtrip_32x32b.mlir", []),  # a struct parameter each: (ptr<1>, empty layout)
        ("triton/gluon_tmem_roundtrip_f32.mlir", ["--arg", "i8:16", "--arg", "i8:16"]),
    ],  # + scratch pointers
)
def test_tmem_run_runs_a_corpus_mlir_file(name: str, extra: list[str], capsys) -> None:
    status = run_tool(
        lambda a: TmemRun(a),
        "tmem-run",
        [
            str(CORPUS / name),
            "--threads",
            "128",
            "--dynamic-smem",
            str(SMEM),
            "--json",
            "--arg",
            "f32:4096=iota",
            "--arg",
            "f32:4096",
            *extra,
        ],
    )
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["errors"] == [], out["errors"]
    assert np.array_equal(out["args"][1], np.arange(4096, dtype=np.float32))
