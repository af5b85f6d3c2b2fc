"""The analysis' diagnostic text lives in passes/analysis/messages_*.py, keyed by FindingKind: no rule
module writes a message literal, and every kind the analysis reports has its section."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from tmem_dialect import memory_model as mm
from tmem_dialect.findings import FindingKind
from tmem_dialect.passes.analysis import messages, messages_names

PACKAGE = Path(__file__).resolve().parent.parent / "tmem_dialect" / "passes" / "analysis"
DIAGNOSTIC_FUNCTIONS = {"error", "warning", "note", "remark", "Diagnostic"}


def _is_message_module(path: Path) -> bool:
    return path.stem == "messages" or path.stem.startswith("messages_")


RULE_MODULES = sorted(p for p in PACKAGE.glob("*.py") if not _is_message_module(p))
FAMILY_MODULES = sorted(p for p in PACKAGE.glob("messages_*.py") if p.stem != "messages_names")


def _has_literal(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str))
        for n in ast.walk(node)
    )


def _is_diagnostic_call(call: ast.Call) -> bool:
    """error(...), warning(...), note(...), Diagnostic(...), x.attach_note(...), (error if c else warning)(...)."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr == "attach_note"
    if isinstance(func, ast.Name):
        return func.id in DIAGNOSTIC_FUNCTIONS
    if isinstance(func, ast.IfExp):
        return any(isinstance(f, ast.Name) and f.id in DIAGNOSTIC_FUNCTIONS for f in (func.body, func.orelse))
    return False


def literal_messages(tree: ast.AST) -> list[int]:
    """Lines where a diagnostic call gets a string literal or f-string: directly, or through a
    local variable of the same function that is assigned one."""
    found: list[int] = []
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in [tree, *scopes]:
        assigned: dict[str, list[ast.AST]] = {}
        for node in ast.walk(scope):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(node.value)
        for node in ast.walk(scope):
            if not isinstance(node, ast.Call) or not _is_diagnostic_call(node):
                continue
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if _has_literal(arg) or (
                    isinstance(arg, ast.Name) and scope is not tree
                    and any(_has_literal(v) for v in assigned.get(arg.id, []))
                ):
                    found.append(node.lineno)
    return sorted(set(found))


def test_the_check_sees_literals() -> None:
    """The check itself: each way of passing text inline is caught, calls to messages are not."""
    caught = """
def f(op, d, sure, name):
    error(op, f"{name} leaks")
    d.attach_note("the allocation", op)
    (error if sure else warning)(op, "x" + name)
    text = f"{name} is outstanding"
    warning(op, text)
"""
    assert literal_messages(ast.parse(caught)) == [3, 4, 5, 7]
    clean = """
def f(op, d, err, name):
    error(op, text.leak())
    d.attach_note(text.the_allocation(), op)
    message = text.out_of_bounds(name, 1, 2, 3, 4)
    warning(op, message)
    error(op, err)
"""
    assert literal_messages(ast.parse(clean)) == []


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.stem)
def test_rule_modules_take_their_text_from_messages(path: Path) -> None:
    lines = literal_messages(ast.parse(path.read_text()))
    assert not lines, f"{path.name} writes diagnostic text inline at lines {lines}: move it to messages_*.py"


def _kinds_referenced(path: Path) -> set[FindingKind]:
    kinds = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "FindingKind"
                and node.attr in FindingKind.__members__):
            kinds.add(FindingKind[node.attr])
    return kinds


def _uses_of_rule(path: Path) -> bool:
    return "FindingKind.of_rule(" in path.read_text()


def test_every_kind_the_analysis_reports_has_messages() -> None:
    used = set().union(*(_kinds_referenced(p) for p in RULE_MODULES))
    if any(_uses_of_rule(p) for p in RULE_MODULES):
        used |= {FindingKind.of_rule(r) for r in
                 (mm.ANTI_DEPENDENCY, mm.STORE_COMPLETION, mm.HANDOFF, mm.DEALLOC_COMPLETION)}
    used.add(FindingKind.UNSUPPORTED)  # api.unanalysed's warnings (verify.py files them under it)
    assert FindingKind.MISSING_FENCE in used and FindingKind.LEAK in used  # the scan sees the modules
    missing = sorted(k.name for k in used if not messages.MESSAGES.get(k))
    assert not missing, f"kinds reported with no messages: {missing}"


def test_messages_are_in_the_enum_order() -> None:
    order = list(FindingKind)
    keys = list(messages.MESSAGES)
    assert keys == sorted(keys, key=order.index)


def _sections(path: Path) -> list[list[FindingKind]]:
    """The kinds each `# FindingKind.X ...` section header of a family module names, in file order."""
    sections = []
    for line in path.read_text().splitlines():
        if line.startswith("# FindingKind."):
            names = re.findall(r"\b[A-Z][A-Z_]+\b", line)
            sections.append([FindingKind[n] for n in names if n in FindingKind.__members__])
    return sections


@pytest.mark.parametrize("path", FAMILY_MODULES, ids=lambda p: p.stem)
def test_family_sections_follow_the_enum(path: Path) -> None:
    order = list(FindingKind)
    sections = _sections(path)
    assert sections, f"{path.name} has no `# FindingKind.X` sections"
    firsts = [order.index(s[0]) for s in sections]
    assert firsts == sorted(firsts), f"{path.name}: sections out of the enum's order"
    assert len(set(firsts)) == len(firsts), f"{path.name}: a kind has two sections"
    module = __import__(f"tmem_dialect.passes.analysis.{path.stem}", fromlist=["MESSAGES"])
    named = {k for s in sections for k in s}
    assert set(module.MESSAGES) <= named, f"{path.name}: registered kinds without a section"


@pytest.mark.parametrize("path", FAMILY_MODULES, ids=lambda p: p.stem)
def test_every_message_function_is_registered(path: Path) -> None:
    module = __import__(f"tmem_dialect.passes.analysis.{path.stem}", fromlist=["MESSAGES"])
    registered = {f for fs in messages.MESSAGES.values() for f in fs} | set(messages.FRAGMENTS)
    public = [f for name, f in inspect.getmembers(module, inspect.isfunction)
              if not name.startswith("_") and f.__module__ == module.__name__]
    assert public
    unregistered = sorted(f.__name__ for f in public if f not in registered)
    assert not unregistered, f"{path.name}: message functions under no kind: {unregistered}"
    for f in public:
        assert inspect.signature(f).return_annotation in ("str", str), f.__name__


def test_fragments_name_what_they_are_given() -> None:
    assert messages_names.few_warps(0b1011) == "0, 1, 3"
    assert messages_names.plural(0b110) and not messages_names.plural(0b100)
    assert messages_names.barrier_name(("full", ("ring", 0, 2))) == "'full'"
    assert messages_names.access_verb(None) == "touches"
