"""`--verify-diagnostics` as MLIR defines it: `// expected-error@+1 {{text}}` annotations must match exactly the diagnostics produced."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmem_dialect.diagnostics import Diagnostic, Severity, SourceLocation

_ANNOTATION = re.compile(
    r"expected-(error|warning|note|remark)(?:@(above|below|[+-]\d+))?\s*\{\{(.*?)\}\}"
)


@dataclass
class Expectation:
    severity: Severity
    line: int
    text: str
    location: SourceLocation
    matched: bool = False


def parse_expectations(text: str, name: str) -> list[Expectation]:
    """The annotations of `text`. As in MLIR, `@above` names the nearest line above that carries no
    annotation and `@below` the nearest such line below, so stacked annotations share their op."""
    lines = text.splitlines()
    designator = [bool(_ANNOTATION.search(line)) for line in lines]

    def nearest(index: int, step: int) -> int:
        i = index + step
        while 1 <= i <= len(lines) and designator[i - 1]:
            i += step
        return i

    found: list[Expectation] = []
    for index, line in enumerate(lines, start=1):
        for m in _ANNOTATION.finditer(line):
            severity, where, body = m.groups()
            target = index
            if where == "above":
                target = nearest(index, -1)
            elif where == "below":
                target = nearest(index, +1)
            elif where:
                target = index + int(where)
            found.append(
                Expectation(
                    Severity(severity), target, body, SourceLocation(name, index, m.start() + 1)
                )
            )
    return found


def check(text: str, name: str, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Every produced diagnostic (notes included) must be expected, and every expectation met."""
    expectations = parse_expectations(text, name)
    problems: list[Diagnostic] = []
    for produced in (d for top in diagnostics for d in top.flatten()):
        match = next(
            (
                e
                for e in expectations
                if not e.matched
                and e.severity is produced.severity
                and produced.location is not None
                and produced.location.file == name
                and e.line == produced.location.line
                and e.text in produced.message
            ),
            None,
        )
        if match is None:
            problems.append(
                Diagnostic(
                    Severity.ERROR,
                    f"unexpected {produced.severity.value}: {produced.message}",
                    produced.location,
                )
            )
        else:
            match.matched = True
    for e in expectations:
        if not e.matched:
            problems.append(
                Diagnostic(
                    Severity.ERROR,
                    f'expected {e.severity.value} "{e.text}" was not produced',
                    e.location,
                )
            )
    return problems
