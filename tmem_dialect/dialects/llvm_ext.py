"""Upstream llvm-dialect ops and attributes xDSL 0.74 lacks (llvm.mlir.poison, llvm.extractelement, #llvm.constant_range),
and upstream's custom syntax of llvm.load/llvm.store properties (`<alignment = 4, nontemporal>`).

They are added to an extended copy of xDSL's llvm dialect (`LLVM_EXTENDED`) that our
tools register under the name "llvm"; the installed xDSL is left untouched.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    IntegerType,
    SignlessIntegerConstraint,
    VectorType,
)
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, UnitAttr, i64
from xdsl.dialects.llvm import ATOMIC_ORDERING_KEYWORDS, LLVM
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    RangeOf,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect


@irdl_attr_definition
class ConstantRangeAttr(ParametrizedAttribute):
    """`#llvm.constant_range<i32, 0, 128>`: the half-open range [lower, upper) of an integer."""

    name = "llvm.constant_range"

    type: IntegerType
    lower: IntAttr
    upper: IntAttr

    def __init__(self, type: IntegerType, lower: int, upper: int):
        super().__init__(type, IntAttr(lower), IntAttr(upper))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            t = parser.parse_type()
            if not isinstance(t, IntegerType):
                parser.raise_error(f"a constant range needs an integer type, got {t}")
            parser.parse_punctuation(",")
            lower = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(",")
            upper = parser.parse_integer(allow_boolean=False)
        return [t, IntAttr(lower), IntAttr(upper)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.type)
        printer.print_string(f", {self.lower.data}, {self.upper.data}>")


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`llvm.mlir.poison : T`: a poison value (upstream syntax)."""

    name = "llvm.mlir.poison"

    res = result_def(Attribute)

    assembly_format = "attr-dict `:` type($res)"

    traits = traits_def(NoMemoryEffect())

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`%e = llvm.extractelement %v[%i : i32] : vector<4xi32>` (upstream syntax)."""

    name = "llvm.extractelement"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())
    VECTOR: ClassVar = VarConstraint(
        "VECTOR_T",
        VectorType.constr(ELEMENT, shape=ArrayAttr.constr(RangeOf(IntAttr).of_length(1))),
    )

    vector = operand_def(VECTOR)
    position = operand_def(SignlessIntegerConstraint)
    res = result_def(ELEMENT)

    assembly_format = "$vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)"

    traits = traits_def(NoMemoryEffect())

    def __init__(self, vector: Operation | SSAValue, position: Operation | SSAValue):
        vector_type = SSAValue.get(vector).type
        assert isinstance(vector_type, VectorType)
        super().__init__(
            operands=[vector, position], result_types=[vector_type.get_element_type()]
        )


@irdl_op_definition
class AddrSpaceCastOp(llvm.GenericCastOp):
    """`llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<3>`."""

    name = "llvm.addrspacecast"


@irdl_op_definition
class UIToFPOp(llvm.GenericCastOp):
    """`llvm.uitofp %x : i32 to f32`."""

    name = "llvm.uitofp"


@irdl_op_definition
class FPToSIOp(llvm.GenericCastOp):
    """`llvm.fptosi %x : f32 to i32` (rounds toward zero)."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(llvm.GenericCastOp):
    """`llvm.fptoui %x : f32 to i32` (rounds toward zero)."""

    name = "llvm.fptoui"


# ---------------------------------------------------------------------------------------------
# llvm.load / llvm.store in upstream's custom syntax
# ---------------------------------------------------------------------------------------------
# Upstream prints `llvm.store volatile %v, %p atomic monotonic <alignment = 4, nontemporal> : T, P`
# and rejects alignment in the attribute dictionary; xDSL prints `{alignment = 4 : i64}`. These
# subclasses keep xDSL's classes (so `isinstance(op, llvm.LoadOp)` holds) and fix the syntax.

_KEYWORD_ORDERING = {k: v for v, k in ATOMIC_ORDERING_KEYWORDS.items()}


def _parse_atomic(parser: Parser) -> int:
    if parser.parse_optional_keyword("atomic") is None:
        return 0
    if parser.parse_optional_keyword("syncscope") is not None:
        parser.raise_error("llvm memory accesses with a syncscope are not supported")
    keyword = parser.parse_identifier()
    if keyword not in _KEYWORD_ORDERING:
        parser.raise_error(f"unknown atomic ordering '{keyword}'")
    return _KEYWORD_ORDERING[keyword]


def _parse_access_properties(parser: Parser, allowed: tuple[str, ...]) -> dict[str, Attribute]:
    """`<alignment = 4, nontemporal>` (upstream's printed form) or `<{alignment = 4 : i64}>`."""
    props: dict[str, Attribute] = {}
    if parser.parse_optional_punctuation("<") is None:
        return props
    if parser.parse_optional_punctuation("{") is not None:
        while True:
            name = parser.parse_identifier()
            if parser.parse_optional_punctuation("=") is not None:
                props[name] = parser.parse_attribute()
            else:
                props[name] = UnitAttr()
            if parser.parse_optional_punctuation(",") is None:
                break
        parser.parse_punctuation("}")
    else:
        while True:
            name = parser.parse_identifier()
            if parser.parse_optional_punctuation("=") is not None:
                props[name] = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
            else:
                props[name] = UnitAttr()
            if parser.parse_optional_punctuation(",") is None:
                break
    parser.parse_punctuation(">")
    for name in props:
        if name not in allowed:
            parser.raise_error(f"memory access property '{name}' is not supported here")
    return props


def _int_property(props: dict[str, Attribute], name: str) -> int:
    value = props.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else 0


def _print_access_properties(printer: Printer, alignment: IntegerAttr | None, flags: list[str]) -> None:
    parts = [f"alignment = {alignment.value.data}"] if alignment is not None else []
    parts += flags
    if parts:
        printer.print_string(f" <{', '.join(parts)}>")


class LoadOp(llvm.LoadOp):
    """`%v = llvm.load %p [atomic <ordering>] [<alignment = N>] : !llvm.ptr<S> -> T` (upstream syntax)."""

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.ptr)
        if (ordering := self.ordering.value.data) != 0:
            printer.print_string(f" atomic {ATOMIC_ORDERING_KEYWORDS[ordering]}")
        _print_access_properties(printer, self.alignment, [])
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dereferenced_value.type)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        if parser.parse_optional_keyword("volatile") is not None:
            parser.raise_error("volatile llvm.load is not supported (xDSL's llvm.load has no such property)")
        ptr = parser.parse_unresolved_operand()
        ordering = _parse_atomic(parser)
        for hint in ("invariant", "invariant_group"):
            if parser.parse_optional_keyword(hint) is not None:
                parser.raise_error(f"llvm.load hint '{hint}' is not supported")
        props = _parse_access_properties(parser, ("alignment", "ordering"))
        ordering = ordering or _int_property(props, "ordering")
        attrs = parser.parse_optional_attr_dict()
        if "alignment" in attrs:  # xDSL's own older printing
            props["alignment"] = attrs.pop("alignment")
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        alignment = props.get("alignment")
        op = cls(
            parser.resolve_operand(ptr, ptr_type),
            result_type,
            alignment=alignment.value.data if isinstance(alignment, IntegerAttr) else None,
            ordering=ordering,
        )
        op.attributes |= attrs
        return op


class StoreOp(llvm.StoreOp):
    """`llvm.store [volatile] %v, %p [atomic <ordering>] [<alignment = N, nontemporal>] : T, !llvm.ptr<S>`."""

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.volatile_ is not None:
            printer.print_string("volatile ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.ptr)
        if self.ordering is not None and (ordering := self.ordering.value.data) != 0:
            printer.print_string(f" atomic {ATOMIC_ORDERING_KEYWORDS[ordering]}")
        _print_access_properties(printer, self.alignment, ["nontemporal"] if self.nontemporal else [])
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.ptr.type)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ptr = parser.parse_unresolved_operand()
        ordering = _parse_atomic(parser)
        props = _parse_access_properties(parser, ("alignment", "ordering", "nontemporal", "volatile_"))
        ordering = ordering or _int_property(props, "ordering")
        attrs = parser.parse_optional_attr_dict()
        for legacy in ("alignment", "nontemporal"):  # xDSL's own older printing
            if legacy in attrs:
                props[legacy] = attrs.pop(legacy)
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        ptr_type = parser.parse_type()
        alignment = props.get("alignment")
        op = cls(
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(ptr, ptr_type),
            alignment=alignment.value.data if isinstance(alignment, IntegerAttr) else None,
            ordering=ordering,
            volatile=volatile or "volatile_" in props,
            nontemporal="nontemporal" in props,
        )
        op.attributes |= attrs
        return op


def _extended() -> Dialect:
    from tmem_dialect.dialects import llvm_atomic, llvm_compat, llvm_switch

    replaced = {llvm.LoadOp: LoadOp, llvm.StoreOp: StoreOp, **llvm_compat.REPLACED}
    return Dialect(
        "llvm",
        [*(replaced.get(op, op) for op in LLVM.operations), PoisonOp, ExtractElementOp, AddrSpaceCastOp,
         UIToFPOp, FPToSIOp, FPToUIOp, *llvm_compat.OPERATIONS, *llvm_atomic.OPERATIONS,
         *llvm_switch.OPERATIONS],
        [*LLVM.attributes, ConstantRangeAttr, *llvm_compat.ATTRIBUTES],
    )


LLVM_EXTENDED = _extended()
