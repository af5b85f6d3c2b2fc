"""`llvm.switch` (upstream syntax and properties), which xDSL 0.74 lacks: a multi-way branch on an integer."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, IntegerType, VectorType, i32
from xdsl.ir import Block, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """`llvm.switch %v : i32, ^default(%a : i32) [0: ^bb1, 1: ^bb2(%x : i32)]`: the case whose value
    equals %v is taken, the default block when none does."""

    name = "llvm.switch"

    value = operand_def(IntegerType)
    default_operands = var_operand_def()
    case_operands = var_operand_def()
    default_destination = successor_def()
    case_destinations = var_successor_def()
    case_values = opt_prop_def(DenseIntOrFPElementsAttr)
    case_operand_segments = prop_def(DenseArrayBase)
    branch_weights = opt_prop_def(DenseArrayBase)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator())

    def __init__(self, value: SSAValue, default: Block, default_operands: Sequence[SSAValue] = (),
                 cases: Sequence[tuple[int, Block, Sequence[SSAValue]]] = ()):
        value_type = SSAValue.get(value).type
        assert isinstance(value_type, IntegerType)
        props = {"case_operand_segments": DenseArrayBase.from_list(i32, [len(c[2]) for c in cases])}
        if cases:
            props["case_values"] = DenseIntOrFPElementsAttr.from_list(
                VectorType(value_type, [len(cases)]), [c[0] for c in cases])
        super().__init__(
            operands=[value, default_operands, [a for c in cases for a in c[2]]],
            successors=[default, [c[1] for c in cases]],
            properties=props,
        )

    def case_list(self) -> list[tuple[int, Block, tuple[SSAValue, ...]]]:
        """(value, destination, operands) of each case, in order."""
        values = self.case_values.get_values() if self.case_values is not None else ()
        segments = self.case_operand_segments.get_values()
        cases, start = [], 0
        for value, block, n in zip(values, self.case_destinations, segments):
            cases.append((int(value), block, tuple(self.case_operands[start : start + n])))
            start += n
        return cases

    def successor_operands(self, index: int) -> tuple[SSAValue, ...]:
        """The operands passed to successor `index` (0 is the default destination)."""
        if index == 0:
            return tuple(self.default_operands)
        return self.case_list()[index - 1][2]

    def verify_(self) -> None:
        n = len(self.case_destinations)
        values = self.case_values.get_values() if self.case_values is not None else ()
        segments = self.case_operand_segments.get_values()
        if len(values) != n or len(segments) != n:
            raise VerifyException(
                f"expects {n} case values and operand segments (one per case), got {len(values)} and {len(segments)}")
        if sum(segments) != len(self.case_operands):
            raise VerifyException("case_operand_segments do not add up to the number of case operands")
        if self.case_values is not None:
            element = self.case_values.get_element_type()
            if element != self.value.type:
                raise VerifyException(f"case values have type {element}, the switch value {self.value.type}")
        if len(set(values)) != len(values):
            raise VerifyException("duplicate case values")
        for i, block in enumerate(self.successors):
            passed = [a.type for a in self.successor_operands(i)]
            wanted = [a.type for a in block.args]
            if passed != wanted:
                raise VerifyException(f"successor #{i} takes {len(wanted)} arguments of types ({', '.join(map(str, wanted))}), "
                                      f"the switch passes ({', '.join(map(str, passed))})")

    @staticmethod
    def _parse_target(parser: Parser) -> tuple[Block, list[UnresolvedOperand], list]:
        block = parser.parse_successor()
        operands: list[UnresolvedOperand] = []
        types: list = []
        if parser.parse_optional_punctuation("(") is not None:
            operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            if len(types) != len(operands):
                parser.raise_error(f"{len(operands)} successor operands but {len(types)} types")
        return block, operands, types

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        if not isinstance(value_type, IntegerType):
            parser.raise_error(f"llvm.switch needs an integer value, got {value_type}")
        parser.parse_punctuation(",")
        default, d_ops, d_types = cls._parse_target(parser)
        cases: list[tuple[int, Block, list[SSAValue]]] = []
        parser.parse_punctuation("[")
        if parser.parse_optional_punctuation("]") is None:
            while True:
                case_value = parser.parse_integer(allow_boolean=False)
                parser.parse_punctuation(":")
                block, ops, types = cls._parse_target(parser)
                cases.append((case_value, block, [parser.resolve_operand(o, t) for o, t in zip(ops, types)]))
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        op = cls(parser.resolve_operand(value, value_type), default,
                 [parser.resolve_operand(o, t) for o, t in zip(d_ops, d_types)], cases)
        if "branch_weights" in attrs:
            op.properties["branch_weights"] = attrs.pop("branch_weights")
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        def target(block: Block, operands: Sequence[SSAValue]) -> None:
            printer.print_block_name(block)
            if operands:
                printer.print_string("(")
                printer.print_list(operands, printer.print_ssa_value)
                printer.print_string(" : ")
                printer.print_list([v.type for v in operands], printer.print_attribute)
                printer.print_string(")")

        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        target(self.default_destination, self.default_operands)
        printer.print_string(" [")
        for i, (value, block, operands) in enumerate(self.case_list()):
            printer.print_string(", " if i else "")
            printer.print_string(f"{value}: ")
            target(block, operands)
        printer.print_string("]")
        attrs = dict(self.attributes)
        if self.branch_weights is not None:
            attrs["branch_weights"] = self.branch_weights
        printer.print_op_attributes(attrs)


OPERATIONS = (SwitchOp,)
