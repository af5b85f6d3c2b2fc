"""nvvm.mapa and nvvm.setmaxregister with upstream MLIR's syntax (cluster addressing, register reconfiguration)."""

from __future__ import annotations

from enum import auto

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerAttr, i32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SSAValue
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

from tmem_dialect import isa
from tmem_dialect.conventions import (
    GENERIC_ADDRESS_SPACE,
    SHARED_ADDRESS_SPACE,
    SHARED_CLUSTER_ADDRESS_SPACE,
    pointer_address_space,
)


class SetMaxRegisterAction(StrEnum):
    increase = auto()
    decrease = auto()


@irdl_attr_definition
class SetMaxRegisterActionAttr(EnumAttribute[SetMaxRegisterAction]):
    """`#nvvm.action<increase>` (generic form); the op prints the bare keyword, as upstream does."""

    name = "nvvm.action"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser):  # type: ignore[no-untyped-def]
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)


@irdl_op_definition
class SetMaxRegisterOp(IRDLOperation):
    """`nvvm.setmaxregister increase 232`: setmaxnreg.{inc,dec}.sync.aligned.u32 (warpgroup-wide)."""

    name = "nvvm.setmaxregister"

    action = prop_def(SetMaxRegisterActionAttr)
    regCount = prop_def(IntegerAttr)

    def __init__(self, increase: bool, count: int):
        action = SetMaxRegisterAction.increase if increase else SetMaxRegisterAction.decrease
        super().__init__(properties={"action": SetMaxRegisterActionAttr(action),
                                     "regCount": IntegerAttr(count, i32)})

    @property
    def increase(self) -> bool:
        return self.action.data is SetMaxRegisterAction.increase

    @property
    def count(self) -> int:
        return self.regCount.value.data

    @classmethod
    def parse(cls, parser: Parser) -> SetMaxRegisterOp:
        action = SetMaxRegisterActionAttr(parser.parse_str_enum(SetMaxRegisterAction))
        count = parser.parse_integer(allow_boolean=False, allow_negative=False)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(properties={"action": action, "regCount": IntegerAttr(count, i32)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.action.data.value} {self.count}")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.regCount.type != i32:
            raise VerifyException(f"regCount must be an i32, got {self.regCount.type}")
        if err := isa.setmaxnreg_error(self.count):
            raise VerifyException(err)


_MAPA_SPACES = {SHARED_ADDRESS_SPACE: SHARED_CLUSTER_ADDRESS_SPACE, GENERIC_ADDRESS_SPACE: GENERIC_ADDRESS_SPACE}


@irdl_op_definition
class MapaOp(IRDLOperation):
    """`%d = nvvm.mapa %a, %rank : !llvm.ptr<3> -> !llvm.ptr<7>`: the address of the same shared
    variable in CTA `rank` of the cluster (a generic pointer maps to a generic pointer)."""

    name = "nvvm.mapa"

    a = operand_def(llvm.LLVMPointerType)
    b = operand_def(i32)
    res = result_def(llvm.LLVMPointerType)

    assembly_format = "$a `,` $b attr-dict `:` type($a) `->` type($res)"

    def __init__(self, a: SSAValue, rank: SSAValue):
        space = pointer_address_space(a.type)
        out = _MAPA_SPACES.get(space if space is not None else -1, GENERIC_ADDRESS_SPACE)
        super().__init__(operands=[a, rank], result_types=[llvm.LLVMPointerType(IntAttr(out))])

    @property
    def shared(self) -> bool:
        """The .shared::cluster form (a shared::cta address in, a shared::cluster address out)."""
        return pointer_address_space(self.a.type) == SHARED_ADDRESS_SPACE

    def verify_(self) -> None:
        space, out = pointer_address_space(self.a.type), pointer_address_space(self.res.type)
        if space not in _MAPA_SPACES or _MAPA_SPACES[space] != out:
            raise VerifyException(
                f"mapa maps !llvm.ptr<3> to !llvm.ptr<7> or !llvm.ptr to !llvm.ptr, not {self.a.type} to {self.res.type}"
            )


OPERATIONS = (SetMaxRegisterOp, MapaOp)
ATTRIBUTES = (SetMaxRegisterActionAttr,)
