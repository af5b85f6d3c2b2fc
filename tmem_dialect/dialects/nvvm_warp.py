"""Warp-level nvvm ops with upstream MLIR's syntax: shfl.sync, vote.sync, bar.warp.sync, ldmatrix."""

from __future__ import annotations

from enum import auto

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, i1, i32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.dialects.nvvm import Bracketed


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


@irdl_op_definition
class BarWarpSyncOp(IRDLOperation):
    """`nvvm.bar.warp.sync %mask : i32` (PTX bar.warp.sync membermask): the lanes of the mask converge.
    Every executing lane must be in the mask (PTX ISA, bar.warp.sync)."""

    name = "nvvm.bar.warp.sync"

    mask = operand_def(i32)

    assembly_format = "$mask attr-dict `:` type($mask)"

    def __init__(self, mask: SSAValue):
        super().__init__(operands=[mask])


class MMALayout(StrEnum):
    row = auto()
    col = auto()


@irdl_attr_definition
class MMALayoutAttr(_Bracketed, EnumAttribute[MMALayout]):
    name = "nvvm.mma_layout"


class LdStMatrixEltType(StrEnum):
    b16 = auto()
    b8 = auto()


@irdl_attr_definition
class LdStMatrixEltTypeAttr(_Bracketed, EnumAttribute[LdStMatrixEltType]):
    name = "nvvm.ld_st_matrix_elt_type"


@irdl_attr_definition
class LdStMatrixShapeAttr(ParametrizedAttribute):
    """`#nvvm.ld_st_matrix_shape<m = 8, n = 8>`."""

    name = "nvvm.ld_st_matrix_shape"

    m: IntAttr
    n: IntAttr

    def __init__(self, m: int, n: int):
        super().__init__(IntAttr(m), IntAttr(n))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            parser.parse_keyword("m")
            parser.parse_punctuation("=")
            m = parser.parse_integer(allow_boolean=False, allow_negative=False)
            parser.parse_punctuation(",")
            parser.parse_keyword("n")
            parser.parse_punctuation("=")
            n = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return [IntAttr(m), IntAttr(n)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<m = {self.m.data}, n = {self.n.data}>")


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """`%r = nvvm.ldmatrix %ptr, num = 4, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16>
    : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>` (PTX ldmatrix.sync.aligned.m8n8.x4.shared.b16;
    layout col is .trans). Also read: the older `%ptr {num = 4 : i32, layout = ..., ...}` spelling."""

    name = "nvvm.ldmatrix"

    ptr = operand_def(llvm.LLVMPointerType)
    num = prop_def(IntegerAttr)
    layout = prop_def(MMALayoutAttr)
    shape = prop_def(LdStMatrixShapeAttr)
    eltType = prop_def(LdStMatrixEltTypeAttr)
    res = result_def()

    traits = traits_def(MemoryReadEffect())

    def __init__(self, ptr: SSAValue, num: int, transpose: bool = False):
        result = i32 if num == 1 else llvm.LLVMStructType.from_type_list([i32] * num)
        super().__init__(
            operands=[ptr], result_types=[result],
            properties={"num": IntegerAttr(num, i32), "layout": MMALayoutAttr(MMALayout.col if transpose else MMALayout.row),
                        "shape": LdStMatrixShapeAttr(8, 8), "eltType": LdStMatrixEltTypeAttr(LdStMatrixEltType.b16)},
        )

    @property
    def count(self) -> int:
        return self.num.value.data

    @property
    def transpose(self) -> bool:
        return self.layout.data is MMALayout.col

    @classmethod
    def parse(cls, parser: Parser) -> LdMatrixOp:
        ptr = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:  # today's form
            names = {"num": "num", "layout": "layout", "shape": "shape", "element_type": "eltType"}
            while True:
                key = parser.parse_identifier()
                if key not in names:
                    parser.raise_error(f"unknown nvvm.ldmatrix property '{key}'")
                parser.parse_punctuation("=")
                if key == "num":
                    props["num"] = IntegerAttr(parser.parse_integer(allow_boolean=False), i32)
                elif key == "layout":
                    props["layout"] = MMALayoutAttr(MMALayoutAttr.parse_parameter(parser))
                elif key == "shape":
                    props["shape"] = LdStMatrixShapeAttr(*(p.data for p in LdStMatrixShapeAttr.parse_parameters(parser)))
                else:
                    props["eltType"] = LdStMatrixEltTypeAttr(LdStMatrixEltTypeAttr.parse_parameter(parser))
                if parser.parse_optional_punctuation(",") is None:
                    break
        attrs = parser.parse_optional_attr_dict()
        for key in ("num", "layout", "shape", "eltType"):  # the older spelling: properties in the dict
            if key in attrs:
                props[key] = attrs.pop(key)
        props.setdefault("shape", LdStMatrixShapeAttr(8, 8))  # the oldest spelling has neither
        props.setdefault("eltType", LdStMatrixEltTypeAttr(LdStMatrixEltType.b16))
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        ptr_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        for key in ("num", "layout"):
            if key not in props:
                parser.raise_error(f"nvvm.ldmatrix needs '{key}'")
        return cls.create(operands=[parser.resolve_operand(ptr, ptr_type)], result_types=[result_type],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        printer.print_string(f", num = {self.count}, layout = <{self.layout.data.value}>, "
                             f"shape = <m = {self.shape.m.data}, n = {self.shape.n.data}>, "
                             f"element_type = <{self.eltType.data.value}>")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.ptr.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        if self.count not in isa.LDMATRIX_COUNTS:
            raise VerifyException(f"ldmatrix loads 1, 2 or 4 matrices, not {self.count}")
        if (self.shape.m.data, self.shape.n.data) != (8, 8) or self.eltType.data is not LdStMatrixEltType.b16:
            raise VerifyException(
                f"only the m8n8 b16 ldmatrix is modelled here, not m{self.shape.m.data}n{self.shape.n.data} "
                f"{self.eltType.data.value}")
        space = self.ptr.type.addr_space.data
        if space != 3:
            raise VerifyException(f"ldmatrix reads shared memory: the pointer must be !llvm.ptr<3>, not {self.ptr.type}")
        want = i32 if self.count == 1 else llvm.LLVMStructType.from_type_list([i32] * self.count)
        if self.res.type != want:
            raise VerifyException(f"ldmatrix with num = {self.count} gives {want}, not {self.res.type}")


class ShflKind(StrEnum):
    bfly = auto()
    up = auto()
    down = auto()
    idx = auto()


@irdl_attr_definition
class ShflKindAttr(Bracketed, EnumAttribute[ShflKind]):
    name = "nvvm.shfl_kind"


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """`shfl.sync.{bfly,up,down,idx}.b32 d, a, b, c, membermask` (upstream nvvm.shfl.sync).

    `idx` with offset 0 and clamp 31 broadcasts lane 0's value: CuTe's "make warp uniform"."""

    name = "nvvm.shfl.sync"

    kind = prop_def(ShflKindAttr)
    thread_mask = operand_def(i32)
    val = operand_def()
    offset = operand_def(i32)
    mask_and_clamp = operand_def(i32)
    res = result_def()

    # Upstream prints the kind bare here (`nvvm.shfl.sync idx ...`) but bracketed in the generic
    # form (`#nvvm.shfl_kind<idx>`); a declarative format would print ShflKindAttr's brackets.
    @classmethod
    def parse(cls, parser: Parser) -> ShflSyncOp:
        kind = ShflKindAttr(parser.parse_str_enum(ShflKind))
        unresolved = [parser.parse_unresolved_operand()]
        for _ in range(3):
            parser.parse_punctuation(",")
            unresolved.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        val_type = parser.parse_type()
        parser.parse_punctuation("->")
        res_type = parser.parse_type()
        types = (i32, val_type, i32, i32)
        op = cls.create(
            operands=[parser.resolve_operand(u, ty) for u, ty in zip(unresolved, types)],
            result_types=[res_type],
            properties={"kind": kind},
            attributes=attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data.value} ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.val.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        # (upstream's return_value_and_is_valid form, a struct with the valid bit, is not modelled)
        if self.res.type != self.val.type:
            raise VerifyException(f"the result type {self.res.type} must be the value type {self.val.type}")


OPERATIONS = (VoteSyncOp, BarWarpSyncOp, LdMatrixOp)  # (ShflSyncOp joins the dialect next to the barriers)
ATTRIBUTES = (VoteSyncKindAttr, MMALayoutAttr, LdStMatrixEltTypeAttr, LdStMatrixShapeAttr)
