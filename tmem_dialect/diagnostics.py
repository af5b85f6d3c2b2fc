"""MLIR-style diagnostics: errors, warnings and notes located at ops, rendered as `file:line:col: error: ...`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import DiagnosticException


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"
    REMARK = "remark"


@dataclass(frozen=True)
class SourceLocation:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def _file_line_col(loc: Attribute) -> SourceLocation | None:
    if isinstance(loc, FileLineColLoc):
        return SourceLocation(loc.filename.data, loc.line.data, loc.column.data)
    if isinstance(loc, NameLoc):
        return _file_line_col(loc.location)
    if isinstance(loc, CallSiteLoc):
        return _file_line_col(loc.callee)
    if isinstance(loc, FusedLoc):
        for inner in loc.locations:
            if found := _file_line_col(inner):
                return found
    return None


def location_of(op: Operation | None) -> SourceLocation | None:
    """The source location of `op`, or of its nearest located ancestor (for ops a pass made)."""
    while op is not None:
        if found := _file_line_col(op.location):
            return found
        op = op.parent_op()
    return None


@dataclass
class Diagnostic:
    severity: Severity
    message: str
    location: SourceLocation | None = None
    op: Operation | None = None
    notes: list[Diagnostic] = field(default_factory=list["Diagnostic"])

    def attach_note(self, message: str, op: Operation | None = None) -> Diagnostic:
        """Add a note (at `op`, when given) and return self, for chaining."""
        self.notes.append(Diagnostic(Severity.NOTE, message, location_of(op), op))
        return self

    def flatten(self) -> Iterator[Diagnostic]:
        yield self
        for note in self.notes:
            yield from note.flatten()

    def render(self, sources: dict[str, str] | None = None) -> str:
        """`file:line:col: error: message`, the source line and a caret, then the notes."""
        lines = []
        for d in self.flatten():
            prefix = f"{d.location}: " if d.location is not None else ""
            lines.append(f"{prefix}{d.severity.value}: {d.message}")
            if d.location is not None and sources and d.location.file in sources:
                text = sources[d.location.file].splitlines()
                if 0 < d.location.line <= len(text):
                    lines.append(text[d.location.line - 1])
                    lines.append(" " * (d.location.column - 1) + "^")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def op_name(op: Operation) -> str:
    """The op's name as the user wrote it (an unregistered op's own name, not 'builtin.unregistered')."""
    from xdsl.dialects.builtin import UnregisteredOp

    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def error(op: Operation | None, message: str) -> Diagnostic:
    return Diagnostic(Severity.ERROR, message, location_of(op), op)


def warning(op: Operation | None, message: str) -> Diagnostic:
    return Diagnostic(Severity.WARNING, message, location_of(op), op)


def remark(op: Operation | None, message: str) -> Diagnostic:
    return Diagnostic(Severity.REMARK, message, location_of(op), op)


def note(op: Operation | None, message: str) -> Diagnostic:
    return Diagnostic(Severity.NOTE, message, location_of(op), op)


class DiagnosticError(DiagnosticException):
    """Raised when a verifier, pass or target reported errors; carries every diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


@dataclass
class DiagnosticEngine:
    """Collects the diagnostics of one run (one input chunk in tmem-opt)."""

    diagnostics: list[Diagnostic] = field(default_factory=list[Diagnostic])

    def emit(self, diagnostic: Diagnostic) -> Diagnostic:
        self.diagnostics.append(diagnostic)
        return diagnostic

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]


_CURRENT: ContextVar[DiagnosticEngine | None] = ContextVar("tmem_diagnostics", default=None)


@contextmanager
def capture() -> Iterator[DiagnosticEngine]:
    """Collect every diagnostic emitted inside the block (warnings included) in an engine."""
    engine = DiagnosticEngine()
    token = _CURRENT.set(engine)
    try:
        yield engine
    finally:
        _CURRENT.reset(token)


def emit(diagnostic: Diagnostic) -> Diagnostic:
    """Report a diagnostic to the active engine; without one, warnings go to stderr.

    Errors are also collected by the caller, which raises `DiagnosticError` when a pass is done.
    """
    engine = _CURRENT.get()
    if engine is not None:
        return engine.emit(diagnostic)
    if diagnostic.severity is not Severity.ERROR:
        import sys

        print(diagnostic.render(), file=sys.stderr)
    return diagnostic


def emit_all_or_raise(diagnostics: list[Diagnostic]) -> None:
    """Emit non-errors; raise DiagnosticError with the errors if there are any."""
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    for d in diagnostics:
        if d.severity is not Severity.ERROR:
            emit(d)
    if errors:
        raise DiagnosticError(errors)
