"""MLIR-style diagnostics: locations, rendering, notes, engines, parse/verify reporting, expected-* matching."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.dialects import test as test_dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.utils.exceptions import DiagnosticException

from tmem_dialect import diagnostics as diag
from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, Severity, SourceLocation
from tmem_dialect.dialects import make_context
from tmem_dialect.dialects.tcgen05 import AllocOp, DeallocOp
from tmem_dialect.ir import parse_module, verify_diagnostics, verify_or_raise
from tmem_dialect.tools import expected_diagnostics

SOURCE = """\
func.func @k(%s: !llvm.ptr<3>, %a: i32) {
  tcgen05.alloc %s, 64 : !llvm.ptr<3>
  tcgen05.dealloc %a, 48
  func.return
}
"""


def loc(file: str, line: int, col: int) -> FileLineColLoc:
    return FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))


def ops_of(module, kind):
    return [op for op in module.walk() if isinstance(op, kind)]


# --- locations -------------------------------------------------------------------------------


def test_parse_module_stamps_every_op_with_file_line_col() -> None:
    module = parse_module(make_context(), SOURCE, "k.mlir")
    (alloc,) = ops_of(module, AllocOp)
    (dealloc,) = ops_of(module, DeallocOp)
    assert diag.location_of(alloc) == SourceLocation("k.mlir", 2, 3)
    assert diag.location_of(dealloc) == SourceLocation("k.mlir", 3, 3)


def test_line_offset_shifts_locations() -> None:
    module = parse_module(make_context(), SOURCE, "k.mlir", line_offset=40)
    (dealloc,) = ops_of(module, DeallocOp)
    assert diag.location_of(dealloc) == SourceLocation("k.mlir", 43, 3)


def test_an_op_without_location_borrows_its_ancestors() -> None:
    module = parse_module(make_context(), SOURCE, "k.mlir")
    (dealloc,) = ops_of(module, DeallocOp)
    made = test_dialect.TestOp()
    made.location = UnknownLoc()
    dealloc.parent_block().insert_op_before(made, dealloc)
    assert diag.location_of(made) == SourceLocation("k.mlir", 1, 1)  # the func.func
    assert diag.location_of(None) is None


@pytest.mark.parametrize(
    "location",
    [
        NameLoc(StringAttr("x"), loc("a.py", 7, 2)),
        CallSiteLoc(loc("a.py", 7, 2), loc("b.py", 1, 1)),
        FusedLoc([UnknownLoc(), loc("a.py", 7, 2), loc("c.py", 3, 3)], NoneAttr()),
    ],
    ids=["name", "callsite", "fused"],
)
def test_structured_locations_resolve_to_a_file_line_col(location) -> None:
    op = test_dialect.TestOp()
    op.location = location
    assert diag.location_of(op) == SourceLocation("a.py", 7, 2)


# --- rendering and notes -------------------------------------------------------------------------


def test_render_with_source_line_caret_and_notes() -> None:
    module = parse_module(make_context(), SOURCE, "k.mlir")
    (alloc,) = ops_of(module, AllocOp)
    (dealloc,) = ops_of(module, DeallocOp)
    d = diag.error(dealloc, "frees 48 columns").attach_note("allocated here", alloc)
    assert d.render({"k.mlir": SOURCE}).splitlines() == [
        "k.mlir:3:3: error: frees 48 columns",
        "  tcgen05.dealloc %a, 48",
        "  ^",
        "k.mlir:2:3: note: allocated here",
        "  tcgen05.alloc %s, 64 : !llvm.ptr<3>",
        "  ^",
    ]
    # Without sources only the message lines; without a location no prefix.
    assert str(d).splitlines() == ["k.mlir:3:3: error: frees 48 columns", "k.mlir:2:3: note: allocated here"]
    assert str(Diagnostic(Severity.WARNING, "bare")) == "warning: bare"


def test_attach_note_chains_and_flatten_orders_depth_first() -> None:
    top = diag.error(None, "top")
    assert top.attach_note("n1").attach_note("n2") is top
    top.notes[0].attach_note("n1.1")
    assert [d.message for d in top.flatten()] == ["top", "n1", "n1.1", "n2"]
    assert all(n.severity is Severity.NOTE for n in top.notes)


def test_constructors_set_severity() -> None:
    assert diag.error(None, "e").severity is Severity.ERROR
    assert diag.warning(None, "w").severity is Severity.WARNING
    assert diag.remark(None, "r").severity is Severity.REMARK
    assert diag.note(None, "n").severity is Severity.NOTE


# --- engines ----------------------------------------------------------------------------------


def test_capture_collects_and_nests() -> None:
    with diag.capture() as outer:
        diag.emit(diag.warning(None, "w1"))
        with diag.capture() as inner:
            diag.emit(diag.error(None, "e1"))
        diag.emit(diag.error(None, "e2"))
    assert [d.message for d in inner.diagnostics] == ["e1"]
    assert [d.message for d in outer.diagnostics] == ["w1", "e2"]
    assert [d.message for d in outer.errors] == ["e2"]
    assert [d.message for d in outer.warnings] == ["w1"]


def test_emit_without_engine_prints_non_errors(capsys) -> None:
    diag.emit(diag.warning(None, "careful"))
    diag.emit(diag.error(None, "collected by the caller"))
    assert capsys.readouterr().err == "warning: careful\n"


def test_emit_all_or_raise() -> None:
    with diag.capture() as engine:
        with pytest.raises(DiagnosticError) as info:
            diag.emit_all_or_raise(
                [diag.warning(None, "w"), diag.error(None, "e1"), diag.error(None, "e2")]
            )
    assert [d.message for d in info.value.diagnostics] == ["e1", "e2"]
    assert [d.message for d in engine.diagnostics] == ["w"]
    assert isinstance(info.value, DiagnosticException)
    assert str(info.value) == "error: e1\nerror: e2"
    with diag.capture() as engine:
        diag.emit_all_or_raise([diag.remark(None, "fine")])
    assert [d.message for d in engine.diagnostics] == ["fine"]


# --- parse and verify reporting ------------------------------------------------------------------


def test_parse_errors_become_located_diagnostics() -> None:
    with pytest.raises(DiagnosticError) as info:
        parse_module(make_context(), "func.func @k() {\n  tcgen05.nope\n}\n", "p.mlir", line_offset=10)
    (d,) = info.value.diagnostics
    assert d.severity is Severity.ERROR
    assert d.location == SourceLocation("p.mlir", 12, 3)
    assert d.message == "unregistered operation 'tcgen05.nope'"


def test_undefined_values_are_reported_at_each_use() -> None:
    text = "func.func @k(%x: i32) {\n  tcgen05.dealloc %a, 32\n  %y = arith.addi %x, %b : i32\n  func.return\n}\n"
    with pytest.raises(DiagnosticError) as info:
        parse_module(make_context(), text, "u.mlir")
    assert [(d.location.line, d.message) for d in info.value.diagnostics] == [
        (2, "use of undefined value '%a'"),
        (3, "use of undefined value '%b'"),
    ]


def test_an_unclosed_region_says_what_was_expected() -> None:
    with pytest.raises(DiagnosticError) as info:
        parse_module(make_context(), "func.func @k() {\n  func.return\n", "r.mlir")
    (d,) = info.value.diagnostics
    assert d.location == SourceLocation("r.mlir", 3, 1)
    assert "block label (^bb) or '}'" in d.message


def test_lexer_error_on_the_first_token_is_a_diagnostic() -> None:
    with pytest.raises(DiagnosticError) as info:
        parse_module(make_context(), "`", "p.mlir")
    assert info.value.diagnostics[0].location == SourceLocation("p.mlir", 1, 1)


def test_custom_form_constraint_failure_points_at_the_op() -> None:
    text = "func.func @k(%a: i32) {\n  %r = tcgen05.ld %a shape_32x32b x1 : i32\n  func.return\n}\n"
    with pytest.raises(DiagnosticError) as info:
        parse_module(make_context(), text, "c.mlir")
    (d,) = info.value.diagnostics
    assert d.location == SourceLocation("c.mlir", 2, 3)
    assert d.message.startswith("'tcgen05.ld' op ")


def test_verify_reports_every_failing_op_at_its_location() -> None:
    text = SOURCE.replace("64 :", "65 :")
    module = parse_module(make_context(), text, "v.mlir")
    found = verify_diagnostics(module)
    assert [(d.location.line, d.message) for d in found] == [
        (2, "nCols must be a power of 2 in [32, 512], got 65"),
        (3, "nCols must be a power of 2 in [32, 512], got 48"),
    ]
    with pytest.raises(DiagnosticError) as info:
        verify_or_raise(module)
    assert len(info.value.diagnostics) == 2


@irdl_op_definition
class CrashingOp(IRDLOperation):
    name = "test.crashing"

    def verify_(self) -> None:
        raise ZeroDivisionError("a verifier bug")


def test_a_crashing_verifier_becomes_a_diagnostic() -> None:
    module = parse_module(make_context(), "func.func @k() {\n  func.return\n}\n", "x.mlir")
    crash = CrashingOp()
    ret = next(op for op in module.walk() if op.name == "func.return")
    ret.parent_block().insert_op_before(crash, ret)
    (d,) = verify_diagnostics(module)
    assert d.message == "internal error in the verifier of 'test.crashing': ZeroDivisionError: a verifier bug"
    assert d.location == SourceLocation("x.mlir", 1, 1)


def test_verifier_crashes_caused_by_a_failed_parent_are_not_reported() -> None:
    text = '"func.func"() <{sym_name = "k"}> ({\n  "func.return"() : () -> ()\n}) : () -> ()\n'
    module = parse_module(make_context(), text, "f.mlir")
    (d,) = verify_diagnostics(module)
    assert d.location == SourceLocation("f.mlir", 1, 1)
    assert d.message == "property 'function_type' expected in operation 'func.func'"


# --- expected-* annotations ------------------------------------------------------------------------

ANNOTATED = """\
line 1
op two // expected-error {{same line}}
// expected-warning@+1 {{next line}}
op four
// expected-note@-2 {{two back}}
op six
// expected-remark@above {{above}}
// expected-error@below {{below}}
op nine
"""


def at(line: int, severity: Severity, message: str, file: str = "a.mlir") -> Diagnostic:
    return Diagnostic(severity, message, SourceLocation(file, line, 1))


def test_parse_expectations_resolves_every_offset_form() -> None:
    found = expected_diagnostics.parse_expectations(ANNOTATED, "a.mlir")
    assert [(e.severity, e.line, e.text) for e in found] == [
        (Severity.ERROR, 2, "same line"),
        (Severity.WARNING, 4, "next line"),
        (Severity.NOTE, 3, "two back"),
        (Severity.REMARK, 6, "above"),
        (Severity.ERROR, 9, "below"),
    ]
    assert found[1].location == SourceLocation("a.mlir", 3, 4)


def test_check_matches_severity_line_and_substring() -> None:
    produced = [
        at(2, Severity.ERROR, "it is the same line indeed"),
        at(4, Severity.WARNING, "next line"),
        at(3, Severity.NOTE, "two back"),
        at(6, Severity.REMARK, "above"),
        at(9, Severity.ERROR, "below"),
    ]
    assert expected_diagnostics.check(ANNOTATED, "a.mlir", produced) == []


def test_notes_must_be_expected_too() -> None:
    top = at(2, Severity.ERROR, "same line")
    top.notes.append(at(5, Severity.NOTE, "unannounced note"))
    problems = expected_diagnostics.check("x\nop // expected-error {{same line}}\n", "a.mlir", [top])
    assert [p.message for p in problems] == ["unexpected note: unannounced note"]
    assert problems[0].location == SourceLocation("a.mlir", 5, 1)


@pytest.mark.parametrize(
    "produced",
    [
        at(2, Severity.WARNING, "same line"),  # wrong severity
        at(3, Severity.ERROR, "same line"),  # wrong line
        at(2, Severity.ERROR, "SAME LINE"),  # wrong text (case matters)
        at(2, Severity.ERROR, "same line", file="other.mlir"),  # another file
        Diagnostic(Severity.ERROR, "same line"),  # no location at all
    ],
    ids=["severity", "line", "text", "file", "unlocated"],
)
def test_mismatches_are_reported_both_ways(produced: Diagnostic) -> None:
    text = "x\nop // expected-error {{same line}}\n"
    problems = expected_diagnostics.check(text, "a.mlir", [produced])
    messages = sorted(p.message for p in problems)
    assert messages[0] == 'expected error "same line" was not produced'
    assert messages[1].startswith(f"unexpected {produced.severity.value}: ")


def test_one_expectation_matches_one_diagnostic() -> None:
    text = "op // expected-error {{dup}}\n"
    produced = [at(1, Severity.ERROR, "dup"), at(1, Severity.ERROR, "dup")]
    problems = expected_diagnostics.check(text, "a.mlir", produced)
    assert [p.message for p in problems] == ["unexpected error: dup"]
