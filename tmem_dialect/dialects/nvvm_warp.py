"""nvvm.vote.sync with upstream MLIR's syntax (warp ballots; nvvm.shfl.sync is in nvvm.py)."""

from __future__ import annotations

from enum import auto

from xdsl.dialects.builtin import IntegerType, i1, i32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


class VoteSyncKind(StrEnum):
    any = auto()
    all = auto()
    ballot = auto()
    uni = auto()


class _Bracketed:
    """Printed `#nvvm.vote_sync_kind<any>` (generic); the op prints the bare keyword, as upstream does."""

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")  # type: ignore[attr-defined]

    @classmethod
    def parse_parameter(cls, parser: AttrParser):  # type: ignore[no-untyped-def]
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # type: ignore[misc]


@irdl_attr_definition
class VoteSyncKindAttr(_Bracketed, EnumAttribute[VoteSyncKind]):
    name = "nvvm.vote_sync_kind"


def _parse_kind(parser: Parser, attr: type, enum: type) -> Attribute:
    return attr(parser.parse_str_enum(enum))


@irdl_op_definition
class VoteSyncOp(IRDLOperation):
    """`%r = nvvm.vote.sync ballot %mask, %pred -> i32` (PTX vote.sync.ballot.b32; any/all/uni give i1)."""

    name = "nvvm.vote.sync"

    mask = operand_def(i32)
    pred = operand_def(i1)
    kind = prop_def(VoteSyncKindAttr)
    res = result_def(IntegerType)

    @classmethod
    def parse(cls, parser: Parser) -> VoteSyncOp:
        kind = _parse_kind(parser, VoteSyncKindAttr, VoteSyncKind)
        mask = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        pred = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [parser.resolve_operand(mask, i32), parser.resolve_operand(pred, i1)]
        return cls.create(operands=operands, properties={"kind": kind}, attributes=attrs, result_types=[result_type])

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data.value} ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def __init__(self, kind: VoteSyncKind, mask: SSAValue, pred: SSAValue):
        super().__init__(
            operands=[mask, pred],
            properties={"kind": VoteSyncKindAttr(kind)},
            result_types=[i32 if kind is VoteSyncKind.ballot else i1],
        )

    def verify_(self) -> None:
        want = i32 if self.kind.data is VoteSyncKind.ballot else i1
        if self.res.type != want:
            raise VerifyException(f"vote.sync {self.kind.data.value} gives {want}, not {self.res.type}")


OPERATIONS = (VoteSyncOp,)
ATTRIBUTES = (VoteSyncKindAttr,)
