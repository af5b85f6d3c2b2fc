"""Find and run NVIDIA's ptxas, and turn its messages into diagnostics at the ops that made the PTX."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, Severity, error, warning
from tmem_dialect.lowering.ptx_emitter import PTXModule

# A ptxas that runs longer than this is stuck: a kernel module assembles in seconds.
TIMEOUT_SECONDS = 600.0

# Where the nvidia-cuda-nvcc wheels keep ptxas inside the `nvidia` namespace package.
WHEEL_LOCATIONS = ("cu13/bin/ptxas", "cuda_nvcc/bin/ptxas")

_MESSAGE = re.compile(r"^ptxas (?P<file>.*?), line (?P<line>\d+); (?P<severity>error|warning)\s*: (?P<text>.*)$")
_FUNCTION = re.compile(r"[Ff]unction '(?P<name>[^']+)'")
_FATAL = re.compile(r"^ptxas (?:fatal|error)\s*: (?P<text>.*)$")


def find_ptxas() -> str | None:
    """ptxas from $PTXAS, else PATH, else the nvidia-cuda-nvcc wheel; None when there is none."""
    override = os.environ.get("PTXAS")
    if override:
        found = shutil.which(override)
        return found if found else None
    on_path = shutil.which("ptxas")
    if on_path:
        return on_path
    try:
        import nvidia  # type: ignore[import-not-found]  # namespace package of the CUDA wheels
    except ImportError:
        return None
    for root in getattr(nvidia, "__path__", []):
        for rel in WHEEL_LOCATIONS:
            candidate = Path(root) / rel
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    return None


@dataclass(frozen=True)
class PtxasMessage:
    line: int | None
    severity: Severity
    text: str


@dataclass(frozen=True)
class PtxasResult:
    ok: bool
    messages: tuple[PtxasMessage, ...]
    output: str

    @property
    def error_lines(self) -> set[int]:
        return {m.line for m in self.messages if m.severity is Severity.ERROR and m.line is not None}


def run_ptxas(ptx: str, arch: str, ptxas: str | None = None) -> PtxasResult:
    """Assemble PTX text for `arch` (output discarded); raises FileNotFoundError without ptxas."""
    exe = ptxas or find_ptxas()
    if exe is None:
        raise FileNotFoundError("ptxas not found (set $PTXAS, put it on PATH, or install nvidia-cuda-nvcc)")
    with tempfile.TemporaryDirectory(prefix="tmem-ptxas-") as tmp:
        source = Path(tmp) / "module.ptx"
        source.write_text(ptx, encoding="utf-8")
        try:
            proc = subprocess.run(
                [exe, f"-arch={arch}", str(source), "-o", str(Path(tmp) / "module.cubin")],
                capture_output=True,
                text=True,
                errors="replace",  # a broken ptxas may print anything; its text is only reported
                timeout=TIMEOUT_SECONDS,
            )
        except subprocess.TimeoutExpired:
            raise PtxasNotRunnable(f"ptxas '{exe}' did not finish within {TIMEOUT_SECONDS:g} s") from None
        except OSError as e:
            raise PtxasNotRunnable(f"could not run ptxas '{exe}': {e.strerror or e}") from None
        # ptxas names the temporary files, which are gone once it returns: name the PTX instead.
        output = (proc.stdout + proc.stderr).strip().replace(str(source), "<emitted PTX>")
        output = output.replace(str(Path(tmp) / "module.cubin"), "<cubin>")
    if proc.returncode != 0 and not output:
        output = f"'{exe}' {_exit_status(proc.returncode)} and printed nothing"
    return PtxasResult(proc.returncode == 0, parse_messages(output), output)


class PtxasNotRunnable(OSError):
    """ptxas exists but cannot be started (not an executable, a broken interpreter line...)."""


def _exit_status(code: int) -> str:
    if code < 0:
        import signal

        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


def parse_messages(output: str) -> tuple[PtxasMessage, ...]:
    """`ptxas FILE, line N; error   : text` lines (and line-less fatal errors) of ptxas output."""
    messages: list[PtxasMessage] = []
    for raw in output.splitlines():
        if m := _MESSAGE.match(raw.strip()):
            severity = Severity.ERROR if m["severity"] == "error" else Severity.WARNING
            messages.append(PtxasMessage(int(m["line"]), severity, m["text"].strip()))
        elif (m := _FATAL.match(raw.strip())) and "aborted due to errors" not in m["text"]:
            messages.append(PtxasMessage(None, Severity.ERROR, m["text"].strip()))
    return tuple(messages)


def ptxas_diagnostics(module: PTXModule, result: PtxasResult) -> list[Diagnostic]:
    """Each ptxas message as a diagnostic at the op that produced the offending PTX line."""
    lines = module.text.splitlines()
    found: list[Diagnostic] = []
    for m in result.messages:
        op = module.op_at_line(m.line) if m.line is not None else None
        if op is None and (named := _FUNCTION.search(m.text)):
            op = module.symbol_ops.get(named["name"])  # "Function 'k' uses ...": point at the kernel
        make = error if m.severity is Severity.ERROR else warning
        # A message ptxas gives no line or function for is about the whole PTX module.
        d = make(op, f"ptxas: {m.text}" if op is not None else f"--ptxas-check: ptxas: {m.text}")
        if m.line is not None and 0 < m.line <= len(lines):
            d.attach_note(f"in PTX line {m.line}: {lines[m.line - 1].strip()}", op)
        found.append(d)
    if not result.ok and not any(d.severity is Severity.ERROR for d in found):
        found.append(error(None, f"--ptxas-check: ptxas failed: {result.output or 'no message'}"))
    return found


def check_or_raise(module: PTXModule, arch: str) -> None:
    """Assemble with ptxas; raise DiagnosticError with its errors (warnings ride along)."""
    exe = find_ptxas()
    if exe is None:
        if override := os.environ.get("PTXAS"):
            message = f"--ptxas-check: ptxas not found: $PTXAS is '{override}', which is not an executable file"
        else:
            message = ("--ptxas-check: ptxas not found (set $PTXAS, put it on PATH, or install "
                       "the nvidia-cuda-nvcc wheel)")
        raise DiagnosticError([error(None, message)])
    try:
        result = run_ptxas(module.text, arch, exe)
    except PtxasNotRunnable as e:
        raise DiagnosticError([error(None, f"--ptxas-check: {e}")]) from None
    diagnostics = ptxas_diagnostics(module, result)
    if not result.ok:
        raise DiagnosticError(diagnostics)
    from tmem_dialect.diagnostics import emit

    for d in diagnostics:
        emit(d)
