"""The command line as MLIR users expect it (issue 14): help, pass listing, spelling hints, timing, tmem-run output."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np

import tmem_dialect
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.tools.fuzz import run_tool_in_process
from tmem_dialect.tools.registry import project_passes

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "examples" / "tmem_roundtrip.mlir")


def opt(*args: str):
    return run_tool_in_process("tmem-opt", list(args))


def run(*args: str):
    return run_tool_in_process("tmem-run", list(args))


def test_help_puts_our_passes_first_and_describes_the_options_truly() -> None:
    out = " ".join(opt("--help").stdout.split())  # argparse wraps lines
    head = out[: out.index("options:")]
    assert "tmem-opt: parse, verify, transform and lower" in head
    assert "Our passes: tmem-pipeline, tmem-plan-columns, tmem-assign-lanes, tmem-verify, tmem-insert-waits" in head
    assert "convert-scf-to-cf" not in out  # xDSL's own passes are not listed one by one
    assert "expected- error/-warning/-note annotations" in out or "expected-error/-warning/-note annotations" in out
    assert "always reports parse errors as diagnostics" in out


def test_list_passes_gives_each_pass_a_line_and_its_options() -> None:
    result = opt("--list-passes")
    assert result.code == 0
    for name in project_passes():
        assert f"\n  {name}\n      " in result.stdout
    assert "      regs-per-message: int | None (default None)" in result.stdout
    assert "      conservative: bool (default false)" in result.stdout
    assert "      index-bitwidth: int (default 64)" in result.stdout


def test_a_misspelled_pass_or_option_gets_a_suggestion() -> None:
    result = opt(EXAMPLE, "-p", "tmem-verfy")
    assert result.code == 1
    assert "tmem-opt: error: unknown pass 'tmem-verfy'; did you mean 'tmem-verify'?" in result.stderr
    result = opt(EXAMPLE, "-p", "tmem-assign-lanes{regs_per_mesage=3}")
    assert "pass 'tmem-assign-lanes' has no option 'regs-per-mesage'; did you mean 'regs-per-message'?" in result.stderr


def test_a_bad_option_value_names_the_option() -> None:
    result = opt(EXAMPLE, "-p", "tmem-verify{conservative=yes}")
    assert result.code == 1
    assert "tmem-opt: error: pass 'tmem-verify': option 'conservative' takes true or false, got 'yes'" in result.stderr
    assert opt(EXAMPLE, "-p", "tmem-verify{conservative=true}").code == 1  # the kernel lacks waits
    assert "option" not in opt(EXAMPLE, "-p", "tmem-verify{conservative=true}").stderr


def test_time_passes_and_print_between_passes_print_to_stderr() -> None:
    result = opt(EXAMPLE, "-p", "tmem-assign-lanes,tmem-insert-waits", "--time-passes", "--print-between-passes")
    assert result.code == 0, result.stderr
    assert "tmem-opt: pass 'tmem-assign-lanes' took " in result.stderr
    assert "tmem-opt: pass 'tmem-insert-waits' took " in result.stderr
    assert "// -----// IR after tmem-assign-lanes //----- //" in result.stderr
    assert "IR after tmem-insert-waits" not in result.stderr  # the last pass's IR is the output
    assert result.stdout.startswith("builtin.module")


def test_a_ptx_version_beyond_the_target_is_one_whole_sentence() -> None:
    result = opt(EXAMPLE, "-t", "ptx{version=9.1}")
    assert result.code == 1
    assert result.stderr.strip() == (
        "tmem-opt: error: -t ptx: version=9.1 is newer than PTX ISA 9.0, the newest version this target "
        "emits (use version=9.0 or older)")


def test_versions() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert tmem_dialect.__version__ == project["version"]
    assert run("--version").stdout.startswith(f"tmem-run (tmem-dialect {project['version']}) built on xdsl 0.74")
    assert opt("--version").stdout.startswith(f"tmem-opt (tmem-dialect {project['version']}) built on xdsl 0.74")


def test_tmem_run_zero_fills_a_static_memref_and_ends_with_a_summary() -> None:
    result = run(EXAMPLE)
    assert result.code == 1
    assert result.stdout.startswith("arg0: int32[128] = [  0   1   2")
    assert result.stderr.rstrip().endswith("tmem-run: 3 errors, 0 warnings")


def test_tmem_run_prints_no_buffers_when_the_run_never_started() -> None:
    result = run(EXAMPLE, "--kernel", "nope")
    assert result.code == 1
    assert result.stdout == ""
    assert "error: no function named 'nope' in the module" in result.stderr
    data = json.loads(run(EXAMPLE, "--kernel", "nope", "--json").stdout)
    assert data["args"] == [] and data["errors"][0]["kind"] == "no-kernel"


def test_tmem_run_json_findings_carry_their_kind() -> None:
    data = json.loads(run(EXAMPLE, "--json").stdout)
    assert [e["kind"] for e in data["errors"]] == ["store-completion", "dealloc-outstanding", "dealloc-outstanding"]


def test_a_cascade_of_one_cause_is_shown_once() -> None:
    from tmem_dialect.diagnostics import Diagnostic, Severity, SourceLocation
    from tmem_dialect.tools.run import summarize

    at = SourceLocation("k.mlir", 3, 1)
    found = [Diagnostic(Severity.ERROR, f"warp {w} reads lane {32 * w}", at) for w in range(4)]
    found.append(Diagnostic(Severity.WARNING, "another", at))
    shown, line = summarize(found)
    assert [(d.message, more) for d, more in shown] == [("warp 0 reads lane 0", 3), ("another", 0)]
    assert line == "tmem-run: 4 errors, 1 warning"


def test_run_kernel_accepts_a_path() -> None:
    path = ROOT / "tests" / "filecheck" / "interpreter" / "run_after_pipeline.mlir"
    by_path = run_kernel(path, args=None)
    by_text = run_kernel(path.read_text(), args=None, filename=str(path))
    assert [d.message for d in by_path.diagnostics] == [d.message for d in by_text.diagnostics]
    assert all(np.array_equal(a, b) for a, b in zip(by_path.args, by_text.args))
    assert by_path.diagnostics == [] or by_path.diagnostics[0].location.file == str(path)
