"""The compiler corpus (tests/corpus: Triton 3.9 / Gluon and CuTe DSL 4.8.1 output for sm_100a) through our tools.

Every PTX file imports through the PTX front end and every MLIR file parses; each runs tmem-verify
(MLIR after lift-inline-asm), and its verdict (the rules its errors cite, the instructions left
unmodelled) is compared with tests/corpus/expected.json, written after reading the findings by
hand: the right verdict, with a strict xfail and the reason where ours is a known false positive. Every tcgen05 instruction of a file is seen by the front end: as many nvvm.tcgen05 ops (or
opaque unmodelled ones) as the text has tcgen05 instructions. ptxas assembles each PTX file
(the oracle's sanity), and each fully modelled one again after import and `-t ptx`. The kernels
the interpreter models run on inputs built here and give numpy's numbers. The compilers are not needed: generate.py made the files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from corpus_runs import DOT_WS_FINDINGS, MISUSED, RUNS, SMEM, dot_ws, pair_gemm
from xdsl.dialects import llvm

from tmem_dialect.diagnostics import DiagnosticError, Severity
from tmem_dialect.dialects import make_context
from tmem_dialect.frontend.importer import ModuleImporter, Options
from tmem_dialect.frontend.lift_inline_asm import LiftInlineAsmPass
from tmem_dialect.frontend.syntax import parse_ptx
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas
from tmem_dialect.passes.analysis import Options as VerifyOptions
from tmem_dialect.passes.verify import verify_module

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
PTX = sorted(CORPUS.glob("*/*.ptx"))
MLIR = sorted(CORPUS.glob("*/*.mlir"))
PTXAS = find_ptxas()

_RULE = re.compile(r"\((rule \d+ \([^)]*\))\)")
_UNMODELLED = re.compile(r"unmodelled instruction '([^']*)'")
_TCGEN05_LINE = re.compile(r"^\s*(?:@!?%?[\w$]+\s+)?tcgen05\.", re.M)
_TCGEN05_IN_ASM = re.compile(r"(?:^|[;{}\s])(?:@!?\$?\w+\s+)?tcgen05\.")


def _name(path: Path) -> str:
    return str(path.relative_to(CORPUS))


def _ids(paths: list[Path]) -> list[str]:
    return [_name(p) for p in paths]


def _expected(path: Path) -> dict:
    entry = EXPECTED.get(_name(path))
    assert entry is not None, f"{_name(path)} has no entry in tests/corpus/expected.json"
    return entry


def _errors(diagnostics) -> list[str]:
    """The rules the errors cite (the message itself for an error that cites none)."""
    found = set()
    for d in diagnostics:
        if d.severity is Severity.ERROR:
            m = _RULE.search(d.message)
            found.add(m.group(1) if m else d.message)
    return sorted(found)


def _import(path: Path, allow_unmodelled: bool):
    importer = ModuleImporter(parse_ptx(path.read_text(), str(path)), Options(allow_unmodelled))
    module = importer.run()
    unmodelled = sorted({m.group(1) for d in importer.diagnostics if (m := _UNMODELLED.search(d.message))})
    return module, unmodelled


def _tcgen05_ops(module) -> int:
    count = 0
    for op in module.walk():
        if op.name.startswith("nvvm.tcgen05.") and op.name != "nvvm.tcgen05.mma_smem_desc":
            count += 1
        elif op.name == "ptx.unmodelled" and op.attributes["ptx"].data.startswith("tcgen05."):  # type: ignore[attr-defined]
            count += 1
    return count


def _asm_tcgen05(module) -> int:
    return sum(len(_TCGEN05_IN_ASM.findall(op.asm_string.data)) for op in module.walk()
               if isinstance(op, llvm.InlineAsmOp))


def test_the_corpus_is_whole() -> None:
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    assert set(manifest["compilers"]) == {"triton", "nvidia-cutlass-dsl"}
    files = {_name(p) for p in PTX + MLIR}
    assert files == set(manifest["files"]) == set(EXPECTED), "manifest, expected.json and the files disagree"
    assert sum(p.stat().st_size for p in PTX + MLIR) < 3 * 2**20
    for name, entry in manifest["files"].items():
        assert (CORPUS / name).stat().st_size == entry["bytes"], f"{name} changed since generate.py wrote it"


def _verify_case(path: Path):
    reason = EXPECTED.get(_name(path), {}).get("verify_xfail")
    return pytest.param(path, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else path


@pytest.mark.parametrize("path", [_verify_case(p) for p in PTX], ids=_ids(PTX))
def test_ptx_imports_and_verifies(path: Path) -> None:
    expected = _expected(path)
    module, unmodelled = _import(path, expected["allow_unmodelled"])
    assert unmodelled == expected["unmodelled"]
    assert _errors(verify_module(module, VerifyOptions())) == expected["errors"]


def _needs_flag(path: Path) -> bool:
    return EXPECTED.get(_name(path), {}).get("allow_unmodelled", False)


PLAIN = [p for p in PTX if not _needs_flag(p)]
FLAGGED = [p for p in PTX if _needs_flag(p)]


@pytest.mark.parametrize("path", PLAIN, ids=_ids(PLAIN))
def test_ptx_without_unmodelled_instructions_needs_no_flag(path: Path) -> None:
    _import(path, allow_unmodelled=False)  # raises DiagnosticError otherwise


def test_an_unmodelled_instruction_is_an_error_without_the_flag() -> None:
    """No corpus file needs --allow-unmodelled any more; an instruction the importer cannot model,
    spliced into one, is an error at its line without the flag, and an opaque op with a warning
    with it."""
    assert FLAGGED == []
    path = CORPUS / "triton/dot.ptx"
    text = path.read_text()
    assert text.count("\tret;") == 1
    text = text.replace("\tret;", "\tpmevent 1;\n\tret;")
    line = text[: text.index("pmevent")].count("\n") + 1
    with pytest.raises(DiagnosticError) as info:
        ModuleImporter(parse_ptx(text, str(path)), Options(False)).run()
    [error] = info.value.diagnostics
    assert error.severity is Severity.ERROR and "unmodelled instruction 'pmevent'" in error.message
    assert error.location is not None and error.location.line == line
    importer = ModuleImporter(parse_ptx(text, str(path)), Options(True))
    importer.run()
    assert [d.severity for d in importer.diagnostics] == [Severity.WARNING]


@pytest.mark.parametrize("path", PTX, ids=_ids(PTX))
def test_ptx_front_end_sees_every_tcgen05_instruction(path: Path) -> None:
    text = re.sub(r"//[^\n]*", "", path.read_text())
    written = len(_TCGEN05_LINE.findall(text))
    module, _ = _import(path, allow_unmodelled=True)
    assert written > 0
    assert _tcgen05_ops(module) == written


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
@pytest.mark.parametrize("path", PTX, ids=_ids(PTX))
def test_ptxas_assembles_the_corpus(path: Path) -> None:
    result = run_ptxas(path.read_text(), "sm_100a", PTXAS)
    assert result.ok, result.output


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
@pytest.mark.parametrize("path", PLAIN, ids=_ids(PLAIN))
def test_ptx_round_trips_through_ptxas(path: Path) -> None:
    """Import, re-emit with the PTX target: ptxas accepts it, and it imports to the same verdict."""
    module, _ = _import(path, allow_unmodelled=False)
    again = emit_ptx(module).text
    result = run_ptxas(again, "sm_100a", PTXAS)
    assert result.ok, result.output
    second = ModuleImporter(parse_ptx(again, _name(path) + ".again"), Options()).run()
    assert _tcgen05_ops(second) == _tcgen05_ops(module)
    if not _expected(path).get("verify_xfail"):
        assert _errors(verify_module(second, VerifyOptions())) == _expected(path)["errors"]


def _mlir_case(path: Path):
    entry = EXPECTED.get(_name(path), {})
    reason = entry.get("parse_xfail") or entry.get("verify_xfail")
    return pytest.param(path, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else path


@pytest.mark.parametrize("path", [_mlir_case(p) for p in MLIR], ids=_ids(MLIR))
def test_mlir_parses_lifts_and_verifies(path: Path) -> None:
    expected = _expected(path)
    ctx = make_context()
    module = parse_module(ctx, path.read_text(), str(path))
    before = _tcgen05_ops(module) + _asm_tcgen05(module)
    LiftInlineAsmPass().apply(ctx, module)
    assert _asm_tcgen05(module) == expected.get("unlifted_tcgen05", 0)
    assert _tcgen05_ops(module) + _asm_tcgen05(module) == before > 0  # lifted, none dropped
    assert _errors(verify_module(module, VerifyOptions())) == expected["errors"]


# ---- running the corpus (the interpreter, an exact model, against numpy; inputs in corpus_runs) ----


@pytest.mark.parametrize("name", sorted(RUNS))
def test_corpus_kernel_runs_to_the_right_numbers(name: str) -> None:
    module, _ = _import(CORPUS / name, allow_unmodelled=False)
    args, check = RUNS[name]()
    result = run_kernel(module, threads=128, args=args, dynamic_shared_bytes=SMEM)
    assert result.errors == [], result.render()
    assert check(result.args)


def test_corpus_pair_gemm_runs_on_a_cluster_of_two() -> None:
    """cute/gemm_2cta.ptx: one cta_group::2 MMA tile across the CTA pair (corpus_runs.pair_gemm)."""
    module, _ = _import(CORPUS / "cute/gemm_2cta.ptx", allow_unmodelled=False)
    args, check = pair_gemm()
    result = run_kernel(module, threads=128, args=args, cluster=2, dynamic_shared_bytes=SMEM)
    assert result.errors == [], result.render()
    assert check(result.args)


@pytest.mark.parametrize("k", [32, 128])
def test_warp_specialized_dot_runs_to_the_right_numbers(k: int) -> None:
    module, _ = _import(CORPUS / "triton/dot_ws.ptx", allow_unmodelled=False)
    args, check = dot_ws(k)
    result = run_kernel(module, args=args, dynamic_shared_bytes=SMEM)
    assert check(result.args), result.render()
    assert {f.value for f in result.kinds()} == DOT_WS_FINDINGS, result.render()


def test_warp_specialized_dot_round_trip_runs_the_same() -> None:
    """Translation validation: the re-emitted PTX of triton/dot_ws.ptx (its byvals declared again,
    its partition byte read by ld.shared.u8) computes the same C with the same findings."""
    module, _ = _import(CORPUS / "triton/dot_ws.ptx", allow_unmodelled=False)
    again = ModuleImporter(parse_ptx(emit_ptx(module).text, "dot_ws.again.ptx"), Options()).run()
    runs = []
    args, check = dot_ws(64)  # run_kernel copies the buffers: both runs read the same inputs
    for m in (module, again):
        result = run_kernel(m, args=args, dynamic_shared_bytes=SMEM)
        assert check(result.args)
        runs.append((result.args[10].tobytes(), sorted(f.value for f in result.kinds()), len(result.errors)))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", sorted(MISUSED))
def test_corpus_misuse_is_found_at_run_time(name: str) -> None:
    make, kind = MISUSED[name]
    module, _ = _import(CORPUS / name, allow_unmodelled=False)
    args, _ = make()
    result = run_kernel(module, threads=128, args=args, dynamic_shared_bytes=SMEM)
    assert {k.value for k in result.kinds()} == {kind}
