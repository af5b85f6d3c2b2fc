"""Custom-form helpers for upstream NVVM syntax: bare enum values and `keyword = value` clauses.

Upstream prints many enum attributes `#nvvm.x<v>` in generic form but bare `v` inside an op's custom
form, and spells optional properties as `keyword = value` clauses in a fixed order.
"""


from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    IntegerType,
    UnitAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer

from tmem_dialect.dialects.nvvm import (  # noqa: F401
    CTA_1,
    FALSE,
    TMEM_POINTER,
    Bracketed,
    CTAGroupKind,
    CTAGroupKindAttr,
    constant_int,
)

i16 = IntegerType(16)

class Angled:
    """Enum attributes upstream prints `#nvvm.x<v>` in generic form but bare `v` in custom forms."""

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        super().print_parameter(printer)  # type: ignore[misc]
        printer.print_string(">")

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # type: ignore[misc]



# ---- `keyword = value` clauses of upstream's custom forms --------------------------------------


@dataclass(frozen=True)
class Clause:
    """One `keyword = value` (or bare `keyword` flag) of a custom form, bound to a property.

    `lead` is what precedes it when printed (", " or " "); `always` prints it even at its default.
    """

    keyword: str
    prop: str
    attr: type[EnumAttribute] | None  # None: a UnitAttr flag
    lead: str = " "
    default: Attribute | None = None
    always: bool = False

    def value_text(self, attr: Attribute) -> str:
        assert isinstance(attr, EnumAttribute)
        text = attr.data.value
        return f"<{text}>" if issubclass(type(attr), Bracketed) else text


def print_clauses(printer: Printer, op: IRDLOperation, clauses: Sequence[Clause]) -> None:
    for c in clauses:
        attr = op.properties.get(c.prop)
        if attr is None or (not c.always and attr == c.default):
            continue
        if c.attr is None:
            printer.print_string(f"{c.lead}{c.keyword}")
        else:
            printer.print_string(f"{c.lead}{c.keyword} = {c.value_text(attr)}")


def parse_clauses(parser: Parser, clauses: Sequence[Clause]) -> dict[str, Attribute]:
    by_keyword = {c.keyword: c for c in clauses}
    props: dict[str, Attribute] = {}
    while True:
        parser.parse_optional_punctuation(",")
        keyword = None
        for k in by_keyword:
            if parser.parse_optional_keyword(k) is not None:
                keyword = k
                break
        if keyword is None:
            break
        c = by_keyword[keyword]
        if c.attr is None:
            props[c.prop] = UnitAttr()
            continue
        parser.parse_punctuation("=")
        enum_type = c.attr.enum_type  # type: ignore[attr-defined]
        if issubclass(c.attr, Bracketed):
            with parser.in_angle_brackets():
                value = parser.parse_str_enum(enum_type)
        else:
            value = parser.parse_str_enum(enum_type)
        props[c.prop] = c.attr(value)
    for c in clauses:
        if c.default is not None:
            props.setdefault(c.prop, c.default)
    return props


def _parse_operands(parser: Parser) -> list[UnresolvedOperand]:
    operands = [parser.parse_unresolved_operand()]
    while parser.parse_optional_punctuation(",") is not None:
        if (o := parser.parse_optional_unresolved_operand()) is None:
            break  # a `, keyword = ...` clause follows (parse_clauses takes optional commas)
        operands.append(o)
    return operands


def _parse_types(parser: Parser) -> list[Attribute]:
    parser.parse_punctuation(":")
    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)


def _print_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string(" ")
    printer.print_list(values, printer.print_operand)


def _print_types(printer: Printer, op: Operation) -> None:
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : (")
    printer.print_list([o.type for o in op.operands], printer.print_attribute)
    printer.print_string(")")


