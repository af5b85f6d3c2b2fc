"""Bad PTX is a located diagnostic and exit status 1, never a traceback; the tools read PTX from files and stdin."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tmem_dialect.diagnostics import DiagnosticError, capture
from tmem_dialect.frontend import import_ptx
from tmem_dialect.ir import verify_diagnostics

ROOT = Path(__file__).parent.parent
SOURCES = [ROOT / "tests" / "data" / "tmem_roundtrip_sm100a.ptx",
           ROOT / "tests" / "filecheck" / "frontend" / "tcgen05_all.ptx",
           ROOT / "tests" / "filecheck" / "frontend" / "ssa_scopes.ptx"]
TEXTS = [p.read_text().splitlines() for p in SOURCES]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(TEXTS) - 1), st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10**6), st.integers(0, 10**6)),
                                                min_size=1, max_size=3))
def test_mutated_ptx_imports_or_reports_at_a_line(which: int, edits) -> None:
    """Lines deleted, duplicated or swapped: a module that verifies, or errors that all have a location."""
    lines = list(TEXTS[which])
    for kind, a, b in edits:
        i, j = a % len(lines), b % len(lines)
        if kind == 0 and len(lines) > 1:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[j])
        else:
            lines[i], lines[j] = lines[j], lines[i]
    try:
        with capture():
            module = import_ptx("\n".join(lines), "m.ptx")
    except DiagnosticError as e:
        assert e.diagnostics and all(d.location is not None and d.location.file == "m.ptx" for d in e.diagnostics)
        return
    assert verify_diagnostics(module) == []


def _tool(tool: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", f"tmem_dialect.tools.{tool}", *args], input=stdin,
                          capture_output=True, text=True, check=False)


def test_tools_report_ptx_errors_at_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ptx"
    bad.write_text(".version 8.6\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n"
                   "  .reg .b32 %r;\n  nanosleep.u32 %r;\n  ret;\n}\n")
    for tool, extra in (("opt", []), ("run", ["--threads", "32"])):
        proc = _tool(tool, str(bad), *extra)
        assert proc.returncode == 1
        assert f"{bad}:7:3: error: unmodelled instruction 'nanosleep.u32'" in proc.stderr
        assert "nanosleep.u32 %r;" in proc.stderr  # the source line under the message
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    allowed = _tool("opt", str(bad), "--allow-unmodelled", "--allow-unregistered-dialect")
    assert allowed.returncode == 0, allowed.stderr
    assert "warning: unmodelled instruction 'nanosleep.u32'; treated as an opaque op" in allowed.stderr
    assert '"ptx.unmodelled"' in allowed.stdout


def test_stdin_needs_the_input_format() -> None:
    ptx = SOURCES[0].read_text()
    proc = _tool("opt", "-", "--input-format", "ptx", "-p", "tmem-verify", stdin=ptx)
    assert proc.returncode == 0, proc.stderr
    assert "nvvm.tcgen05.alloc" in proc.stdout
    run = _tool("run", "-", "--input-format", "ptx", "--threads", "128", "--arg", "i32:128", "--json", stdin=ptx)
    assert run.returncode == 0, run.stderr
    import json

    assert json.loads(run.stdout)["args"][0] == list(range(128))
    as_mlir = _tool("opt", "-", stdin=ptx)  # stdin without --input-format is MLIR
    assert as_mlir.returncode == 1 and "Traceback" not in as_mlir.stderr
