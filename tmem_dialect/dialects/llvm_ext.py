"""Upstream llvm-dialect ops and attributes xDSL 0.74 lacks (llvm.mlir.poison, llvm.extractelement, #llvm.constant_range).

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
from xdsl.dialects.llvm import LLVM
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
from xdsl.parser import AttrParser
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


LLVM_EXTENDED = Dialect(
    "llvm",
    [*LLVM.operations, PoisonOp, ExtractElementOp],
    [*LLVM.attributes, ConstantRangeAttr],
)
