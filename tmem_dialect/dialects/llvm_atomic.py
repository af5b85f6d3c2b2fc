"""llvm.atomicrmw and llvm.cmpxchg with upstream MLIR's syntax (xDSL 0.74 has neither)."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, StringAttr, i1, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

# upstream's AtomicBinOp enum, in order (bin_op = index)
BIN_OPS = ("xchg", "add", "sub", "_and", "nand", "_or", "_xor", "max", "min", "umax", "umin", "fadd", "fsub",
           "fmax", "fmin", "uinc_wrap", "udec_wrap", "usub_cond", "usub_sat", "fmaximum", "fminimum")
ORDERINGS = {v: k for k, v in llvm.ATOMIC_ORDERING_KEYWORDS.items()}  # keyword -> upstream enum value


def _parse_ordering(parser: Parser) -> int:
    keyword = parser.parse_identifier()
    if keyword not in ORDERINGS:
        parser.raise_error(f"unknown atomic ordering '{keyword}'")
    return ORDERINGS[keyword]


def _parse_syncscope(parser: Parser) -> StringAttr | None:
    if parser.parse_optional_keyword("syncscope") is None:
        return None
    parser.parse_punctuation("(")
    scope = parser.parse_str_literal()
    parser.parse_punctuation(")")
    return StringAttr(scope)


def _print_syncscope(printer: Printer, scope: StringAttr | None) -> None:
    if scope is not None:
        printer.print_string(f' syncscope("{scope.data}")')


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`%old = llvm.atomicrmw add %ptr, %v [syncscope("block")] monotonic : !llvm.ptr<1>, i32`."""

    name = "llvm.atomicrmw"

    ptr = operand_def(llvm.LLVMPointerType)
    val = operand_def(Attribute)
    res = result_def(Attribute)
    bin_op = prop_def(IntegerAttr)
    ordering = prop_def(IntegerAttr)
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr)

    def __init__(self, op: str, ptr: SSAValue, value: SSAValue, ordering: str = "monotonic",
                 syncscope: str | None = None):
        props: dict[str, Attribute] = {
            "bin_op": IntegerAttr(BIN_OPS.index(op), i64),
            "ordering": IntegerAttr(ORDERINGS[ordering], i64),
        }
        if syncscope is not None:
            props["syncscope"] = StringAttr(syncscope)
        super().__init__(operands=[ptr, value], result_types=[value.type], properties=props)

    @property
    def operation(self) -> str:
        return BIN_OPS[self.bin_op.value.data]

    def verify_(self) -> None:
        if not 0 <= self.bin_op.value.data < len(BIN_OPS):
            raise VerifyException(f"unknown atomic operation {self.bin_op.value.data}")
        if self.res.type != self.val.type:
            raise VerifyException("the result has the value's type")

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        op = parser.parse_identifier()
        if op not in BIN_OPS:
            parser.raise_error(f"unknown atomic operation '{op}'")
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        scope = _parse_syncscope(parser)
        ordering = _parse_ordering(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation(",")
        value_type = parser.parse_type()
        props: dict[str, Attribute] = {"bin_op": IntegerAttr(BIN_OPS.index(op), i64),
                                       "ordering": IntegerAttr(ordering, i64)}
        if scope is not None:
            props["syncscope"] = scope
        return cls.create(operands=[parser.resolve_operand(ptr, ptr_type), parser.resolve_operand(value, value_type)],
                          result_types=[value_type], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.operation} ")
        printer.print_list([self.ptr, self.val], printer.print_operand)
        _print_syncscope(printer, self.syncscope)
        printer.print_string(f" {llvm.ATOMIC_ORDERING_KEYWORDS[self.ordering.value.data]}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.val.type)


@irdl_op_definition
class CmpXchgOp(IRDLOperation):
    """`%r = llvm.cmpxchg %ptr, %cmp, %new monotonic monotonic : !llvm.ptr<1>, i32` -> !llvm.struct<(i32, i1)>."""

    name = "llvm.cmpxchg"

    ptr = operand_def(llvm.LLVMPointerType)
    cmp = operand_def(Attribute)
    val = operand_def(Attribute)
    res = result_def(llvm.LLVMStructType)
    success_ordering = prop_def(IntegerAttr)
    failure_ordering = prop_def(IntegerAttr)
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr)

    def __init__(self, ptr: SSAValue, cmp: SSAValue, value: SSAValue, ordering: str = "monotonic",
                 syncscope: str | None = None):
        props: dict[str, Attribute] = {"success_ordering": IntegerAttr(ORDERINGS[ordering], i64),
                                       "failure_ordering": IntegerAttr(ORDERINGS["monotonic"], i64)}
        if syncscope is not None:
            props["syncscope"] = StringAttr(syncscope)
        result = llvm.LLVMStructType.from_type_list([value.type, i1])
        super().__init__(operands=[ptr, cmp, value], result_types=[result], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> CmpXchgOp:
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        cmp = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        scope = _parse_syncscope(parser)
        success = _parse_ordering(parser)
        failure = _parse_ordering(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation(",")
        value_type = parser.parse_type()
        props: dict[str, Attribute] = {"success_ordering": IntegerAttr(success, i64),
                                       "failure_ordering": IntegerAttr(failure, i64)}
        if scope is not None:
            props["syncscope"] = scope
        return cls.create(
            operands=[parser.resolve_operand(ptr, ptr_type), parser.resolve_operand(cmp, value_type),
                      parser.resolve_operand(value, value_type)],
            result_types=[llvm.LLVMStructType.from_type_list([value_type, i1])], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.ptr, self.cmp, self.val], printer.print_operand)
        _print_syncscope(printer, self.syncscope)
        orderings = llvm.ATOMIC_ORDERING_KEYWORDS
        printer.print_string(f" {orderings[self.success_ordering.value.data]} "
                             f"{orderings[self.failure_ordering.value.data]}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.val.type)


OPERATIONS = (AtomicRMWOp, CmpXchgOp)
