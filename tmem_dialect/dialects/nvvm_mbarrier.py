"""Upstream NVVM's mbarrier ops, nvvm.fence.proxy, nvvm.fence.mbarrier.init and nvvm.elect.sync,
in iree-opt 3.13.0's exact custom syntax.
"""


from __future__ import annotations

from enum import auto
from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect.conventions import SHARED_CLUSTER_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import (
    FALSE,
    Bracketed,
)
from tmem_dialect.memory_model import EffectKind

i16 = IntegerType(16)
from tmem_dialect.dialects.nvvm_custom import (
    Angled,
    Clause,
    _print_operands,
    parse_clauses,
    print_clauses,
)


def _check_barrier_pointer(value: SSAValue, what: str = "the mbarrier") -> None:
    if pointer_address_space(value.type) not in (0, 3):
        raise VerifyException(f"{what} must be !llvm.ptr<3> or !llvm.ptr, got {value.type}")


class MemScope(StrEnum):
    cta = auto()
    cluster = auto()


class ProxyKind(StrEnum):
    alias = "alias"
    async_ = "async"
    async_global = "async.global"
    async_shared = "async.shared"


class SharedSpace(StrEnum):
    cta = auto()
    cluster = auto()



@irdl_attr_definition
class MemScopeAttr(Angled, EnumAttribute[MemScope]):
    name = "nvvm.mem_scope"


@irdl_attr_definition
class ProxyKindAttr(Bracketed, EnumAttribute[ProxyKind]):
    name = "nvvm.proxy_kind"


@irdl_attr_definition
class SharedSpaceAttr(Bracketed, EnumAttribute[SharedSpace]):
    name = "nvvm.shared_space"



CTA_SCOPE = MemScopeAttr(MemScope.cta)

# ---- mbarriers, fences, election ---------------------------------------------------------------


class _BarrierOp(IRDLOperation, TMEMEffectOp):
    """Shared by the nvvm.mbarrier ops; each op declares `addr` first (its operand order)."""
    EFFECT: ClassVar = EffectKind.MBARRIER_ARRIVE

    def verify_(self) -> None:
        _check_barrier_pointer(self.addr)

    def tmem_effect(self) -> TMEMEffect:
        count = getattr(self, "count", None) or getattr(self, "txcount", None)
        return TMEMEffect(self.EFFECT, mbarrier=self.addr, count=count)


@irdl_op_definition
class MBarrierInitOp(_BarrierOp):
    name = "nvvm.mbarrier.init"
    addr = operand_def(llvm.LLVMPointerType)
    count = operand_def(i32)
    predicate = opt_operand_def(i1)
    EFFECT: ClassVar = EffectKind.MBARRIER_INIT
    assembly_format = "$addr `,` $count (`,` `predicate` `=` $predicate^)? attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue | Operation, count: SSAValue | Operation):
        super().__init__(operands=[addr, count, []])


_SCOPE = Clause("scope", "scope", MemScopeAttr, default=CTA_SCOPE)


class _ArriveBase(_BarrierOp):
    scope = prop_def(MemScopeAttr, default_value=CTA_SCOPE)
    relaxed = prop_def(BoolAttr, default_value=FALSE)
    res = opt_result_def(i64)
    SECOND: ClassVar = "count"  # the optional second operand
    TYPED_SECOND: ClassVar = False  # whether the second operand's type is printed

    @classmethod
    def parse(cls, parser: Parser):
        addr = parser.parse_unresolved_operand()
        second = None
        if parser.parse_optional_punctuation(",") is not None:
            second = parser.parse_unresolved_operand()
        props = parse_clauses(parser, (_SCOPE,))
        if parser.parse_optional_keyword("relaxed") is not None:
            parser.parse_punctuation("=")
            props["relaxed"] = BoolAttr.from_bool(parser.parse_boolean())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        second_type: Attribute = i32
        if cls.TYPED_SECOND and parser.parse_optional_punctuation(",") is not None:
            second_type = parser.parse_type()
        results = []
        if parser.parse_optional_punctuation("->") is not None:
            results.append(parser.parse_type())
        operands = [parser.resolve_operand(addr, t)]
        if second is not None:
            operands.append(parser.resolve_operand(second, second_type))
        return cls.create(operands=operands, result_types=results, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_operands(printer, list(self.operands))
        print_clauses(printer, self, (_SCOPE,))
        if self.relaxed.value.data:
            printer.print_string(" relaxed = true")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.addr.type)
        if self.TYPED_SECOND and len(self.operands) > 1:
            printer.print_string(", ")
            printer.print_attribute(self.operands[1].type)
        if self.res is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.res.type)


@irdl_op_definition
class MBarrierArriveOp(_ArriveBase):
    name = "nvvm.mbarrier.arrive"
    addr = operand_def(llvm.LLVMPointerType)
    count = opt_operand_def(i32)

    def verify_(self) -> None:
        if pointer_address_space(self.addr.type) == SHARED_CLUSTER_ADDRESS_SPACE:
            # a remote arrive on another CTA's mbarrier (mapa's !llvm.ptr<7>): no state comes back
            if self.res is not None:
                raise VerifyException("mbarrier in shared_cluster space cannot return any value")
            return
        super().verify_()

    def __init__(self, addr: SSAValue | Operation, count: SSAValue | Operation | None = None, result: bool = True):
        super().__init__(operands=[addr, [] if count is None else [count]], result_types=[[i64] if result else []])


@irdl_op_definition
class MBarrierArriveExpectTxOp(_ArriveBase):
    name = "nvvm.mbarrier.arrive.expect_tx"
    addr = operand_def(llvm.LLVMPointerType)
    txcount = operand_def(i32)
    TYPED_SECOND: ClassVar = True

    def __init__(self, addr: SSAValue | Operation, txcount: SSAValue | Operation, result: bool = True):
        super().__init__(operands=[addr, txcount], result_types=[[i64] if result else []])


class _TxBase(_BarrierOp):
    txcount = operand_def(i32)
    scope = prop_def(MemScopeAttr, default_value=CTA_SCOPE)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$addr `,` $txcount attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue | Operation, txcount: SSAValue | Operation):
        super().__init__(operands=[addr, txcount])


@irdl_op_definition
class MBarrierExpectTxOp(_TxBase):
    name = "nvvm.mbarrier.expect_tx"
    addr = operand_def(llvm.LLVMPointerType)
    EFFECT: ClassVar = EffectKind.MBARRIER_EXPECT_TX


@irdl_op_definition
class MBarrierCompleteTxOp(_TxBase):
    name = "nvvm.mbarrier.complete_tx"
    addr = operand_def(llvm.LLVMPointerType)
    EFFECT: ClassVar = EffectKind.MBARRIER_COMPLETE_TX


class _WaitBase(_BarrierOp):
    """`%ready = nvvm.mbarrier.try_wait %bar, %phase (, %ticks)? : types -> i1`: phase is a parity
    (i32) or a state token (i64)."""

    stateOrPhase = operand_def(IntegerType)
    ticks = opt_operand_def(i32)
    scope = prop_def(MemScopeAttr, default_value=CTA_SCOPE)
    relaxed = prop_def(BoolAttr, default_value=FALSE)
    res = result_def(i1)
    EFFECT: ClassVar = EffectKind.MBARRIER_WAIT
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$addr `,` $stateOrPhase (`,` $ticks^)? attr-dict `:` type(operands) `->` type($res)"

    def __init__(self, addr: SSAValue | Operation, phase: SSAValue | Operation):
        super().__init__(operands=[addr, phase, []], result_types=[i1])

    @property
    def parity_form(self) -> bool:
        return self.stateOrPhase.type == i32

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(self.EFFECT, mbarrier=self.addr, phase=self.stateOrPhase)


@irdl_op_definition
class MBarrierTryWaitOp(_WaitBase):
    name = "nvvm.mbarrier.try_wait"
    addr = operand_def(llvm.LLVMPointerType)


@irdl_op_definition
class MBarrierTestWaitOp(_WaitBase):
    name = "nvvm.mbarrier.test.wait"
    addr = operand_def(llvm.LLVMPointerType)


@irdl_op_definition
class MBarrierTryWaitParityOp(_BarrierOp):
    """Blocks until the phase of `phase`'s parity completes (upstream lowers it to a try_wait loop)."""

    name = "nvvm.mbarrier.try_wait.parity"
    addr = operand_def(llvm.LLVMPointerType)
    phase = operand_def(i32)
    ticks = operand_def(i32)
    EFFECT: ClassVar = EffectKind.MBARRIER_WAIT
    assembly_format = "$addr `,` $phase `,` $ticks attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue | Operation, phase: SSAValue | Operation, ticks: SSAValue | Operation):
        super().__init__(operands=[addr, phase, ticks])

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(self.EFFECT, mbarrier=self.addr, phase=self.phase)


@irdl_op_definition
class MBarrierInvalOp(_BarrierOp):
    name = "nvvm.mbarrier.inval"
    addr = operand_def(llvm.LLVMPointerType)
    EFFECT: ClassVar = EffectKind.MBARRIER_INVAL
    assembly_format = "$addr attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue | Operation):
        super().__init__(operands=[addr])


@irdl_op_definition
class FenceMbarrierInitOp(IRDLOperation, TMEMEffectOp):
    name = "nvvm.fence.mbarrier.init"
    assembly_format = "attr-dict"

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.FENCE_MBARRIER_INIT)


@irdl_op_definition
class FenceProxyOp(IRDLOperation, TMEMEffectOp):
    name = "nvvm.fence.proxy"
    kind = prop_def(ProxyKindAttr)
    space = opt_prop_def(SharedSpaceAttr)

    @classmethod
    def parse(cls, parser: Parser) -> FenceProxyOp:
        """Today's `<async.shared>, space = <cta>`, or an older MLIR's (Triton's) attr-dict
        `{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}`."""
        props: dict[str, Attribute] = {}
        if parser._current_token.text == "<":
            props["kind"] = ProxyKindAttr(ProxyKindAttr.parse_parameter(parser))
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("space")
                parser.parse_punctuation("=")
                props["space"] = SharedSpaceAttr(SharedSpaceAttr.parse_parameter(parser))
        attrs = dict(parser.parse_optional_attr_dict())
        for name in ("kind", "space"):
            if name in attrs and name not in props:
                props[name] = attrs.pop(name)
        if "kind" not in props:
            parser.raise_error("nvvm.fence.proxy needs a proxy kind")
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.kind.print_parameter(printer)
        if self.space is not None:
            printer.print_string(", space = ")
            self.space.print_parameter(printer)
        printer.print_op_attributes(self.attributes)

    def __init__(self, kind: ProxyKind, space: SharedSpace | None = None):
        props: dict[str, Attribute] = {"kind": ProxyKindAttr(kind)}
        if space is not None:
            props["space"] = SharedSpaceAttr(space)
        super().__init__(properties=props)

    def verify_(self) -> None:
        if (self.kind.data is ProxyKind.async_shared) != (self.space is not None):
            raise VerifyException("fence.proxy async.shared needs a space (cta or cluster), and only it takes one")

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.FENCE_PROXY_ASYNC)


@irdl_op_definition
class ElectSyncOp(IRDLOperation, TMEMEffectOp):
    name = "nvvm.elect.sync"
    membermask = opt_operand_def(i32)
    pred = result_def(i1)
    assembly_format = "($membermask^)? attr-dict `->` type(results)"

    def __init__(self):
        super().__init__(operands=[[]], result_types=[i1])

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.ELECT)


