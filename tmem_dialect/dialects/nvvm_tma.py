"""Upstream NVVM's TMA ops: cp.async.bulk(.tensor) loads, stores and prefetch, bulk groups, prefetch tensormap.

Names, operand segments, properties and custom forms are iree-opt 3.13.0's (upstream MLIR):
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %mbar, box[%c0, %c1]
      (multicast_mask = %m)? (l2_cache_hint = %h)? (mode = tile)? (cta_only = true)?
      (group = cta_2)? (predicate = %p)? : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %src, box[...] (l2_cache_hint = %h)? (predicate = %p)? : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.prefetch %tmap, box[...] (l2_cache_hint = %h)? : !llvm.ptr
  nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %mbar, %size (multicast_mask = %m)? (l2_cache_hint = %h)? : !llvm.ptr<7>, !llvm.ptr<1>
  nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size (l2_cache_hint = %h)? (byte_mask = %b)? : !llvm.ptr<1>, !llvm.ptr<3>
  nvvm.cp.async.bulk.commit.group
  nvvm.cp.async.bulk.wait_group 0 (read)?
  nvvm.prefetch tensormap, %tmap : !llvm.ptr
iree-opt prints the pointer types after the first one short (`!llvm.ptr, <3>`); both spellings parse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import BoolAttr, IntAttr, IntegerAttr, IntegerType, UnitAttr, i1, i32, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.conventions import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import FALSE, CTAGroupKind, CTAGroupKindAttr, constant_int
from tmem_dialect.dialects.nvvm_custom import Angled, Clause, print_clauses
from tmem_dialect.memory_model import EffectKind

i16 = IntegerType(16)
SHARED_CLUSTER_ADDRESS_SPACE = 7  # upstream's shared::cluster pointers (!llvm.ptr<7>)
SHARED_POINTER = llvm.LLVMPointerType(IntAttr(SHARED_ADDRESS_SPACE))


class TMALoadMode(StrEnum):
    tile = "tile"
    im2col = "im2col"
    im2col_w = "im2col_w"
    im2col_w_128 = "im2col_w_128"
    tile_gather4 = "tile_gather4"


class TMAStoreMode(StrEnum):
    tile = "tile"
    im2col = "im2col"
    tile_scatter4 = "tile_scatter4"


@irdl_attr_definition
class TMALoadModeAttr(Angled, EnumAttribute[TMALoadMode]):
    name = "nvvm.tma_load_mode"


@irdl_attr_definition
class TMAStoreModeAttr(Angled, EnumAttribute[TMAStoreMode]):
    name = "nvvm.tma_store_mode"


LOAD_TILE = TMALoadModeAttr(TMALoadMode.tile)
STORE_TILE = TMAStoreModeAttr(TMAStoreMode.tile)


# ---- one custom-form engine for the ops of this module ----------------------------------------


@dataclass(frozen=True)
class Optional:
    """An optional operand printed `keyword = %v` (its type is fixed)."""

    keyword: str
    field: str
    type: Attribute


def _parse_pointer_type(parser: Parser) -> Attribute:
    """`!llvm.ptr<3>` or iree-opt's short `<3>` for an llvm pointer after the first type."""
    if parser.parse_optional_punctuation("<") is not None:
        space = parser.parse_integer()
        parser.parse_punctuation(">")
        return llvm.LLVMPointerType(IntAttr(space))
    return parser.parse_type()


class _TmaOp(IRDLOperation):
    """Custom form: LEAD operands, `box[...]`, `im2col[...]`, `k = %v` operands, property clauses,
    the predicate, `: ` the types of TYPED."""

    LEAD: ClassVar[tuple[str, ...]] = ()
    LEAD_TYPES: ClassVar[dict[str, Attribute]] = {}  # lead operands whose type is not printed
    BOX: ClassVar[bool] = False
    IM2COL: ClassVar[bool] = False
    OPTIONAL: ClassVar[tuple[Optional, ...]] = ()
    CLAUSES: ClassVar[tuple[Clause, ...]] = ()
    CTA_ONLY: ClassVar[bool] = False  # a `cta_only = true` clause after CLAUSES' mode
    GROUP: ClassVar[bool] = False  # a `group = cta_N` clause (bare enum) after cta_only
    TYPED: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def parse(cls, parser: Parser):
        names = [d[0] for d in cls.get_irdl_definition().operands]
        found: dict[str, list[UnresolvedOperand]] = {}
        for i, name in enumerate(cls.LEAD):
            if i:
                parser.parse_punctuation(",")
            found[name] = [parser.parse_unresolved_operand()]
        if cls.BOX:
            parser.parse_punctuation(",")
            parser.parse_keyword("box")
            found["coordinates"] = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        if cls.IM2COL and parser.parse_optional_keyword("im2col") is not None:
            found["im2colOffsets"] = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        props: dict[str, Attribute] = {}
        by_keyword = {o.keyword: o for o in cls.OPTIONAL}
        while True:  # iree-opt prints them in one order and parses any
            if (k := next((k for k in by_keyword if parser.parse_optional_keyword(k) is not None), None)) is not None:
                parser.parse_punctuation("=")
                found[by_keyword[k].field] = [parser.parse_unresolved_operand()]
            elif cls.CTA_ONLY and parser.parse_optional_keyword("cta_only") is not None:
                parser.parse_punctuation("=")
                props["isCTAOnly"] = BoolAttr.from_bool(parser.parse_boolean())
            elif cls.GROUP and parser.parse_optional_keyword("group") is not None:
                parser.parse_punctuation("=")
                props["group"] = CTAGroupKindAttr(parser.parse_str_enum(CTAGroupKind))
            elif cls.CLAUSES and parser.parse_optional_keyword("mode") is not None:
                parser.parse_punctuation("=")
                attr = cls.CLAUSES[0].attr
                props["mode"] = attr(parser.parse_str_enum(attr.enum_type))  # type: ignore[misc, union-attr]
            else:
                break
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types: dict[str, Attribute] = {}
        for i, name in enumerate(cls.TYPED):
            if i:
                parser.parse_punctuation(",")
            types[name] = _parse_pointer_type(parser)
        fixed = {**cls.LEAD_TYPES, "coordinates": i32, "im2colOffsets": i16,
                 **{o.field: o.type for o in cls.OPTIONAL}}  # fmt: skip
        operands = []
        for name in names:
            values = found.get(name, [])
            t = types.get(name, fixed.get(name))
            operands.append([parser.resolve_operand(v, t) for v in values])
        return cls.build(operands=operands, properties=props, attributes=attrs)

    def _print_optional(self, printer: Printer, group: tuple[Optional, ...]) -> None:
        for opt in group:
            value = getattr(self, opt.field)
            if value is not None:
                printer.print_string(f" {opt.keyword} = ")
                printer.print_operand(value)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([getattr(self, n) for n in self.LEAD], printer.print_operand)
        if self.BOX:
            printer.print_string(", box[")
            printer.print_list(self.coordinates, printer.print_operand)  # type: ignore[attr-defined]
            printer.print_string("]")
        if self.IM2COL and len(self.im2colOffsets):  # type: ignore[attr-defined]
            printer.print_string(" im2col[")
            printer.print_list(self.im2colOffsets, printer.print_operand)  # type: ignore[attr-defined]
            printer.print_string("]")
        self._print_optional(printer, self.OPTIONAL)
        print_clauses(printer, self, self.CLAUSES)
        if self.CTA_ONLY and self.cta_only:
            printer.print_string(" cta_only = true")
        group = self.properties.get("group")
        if self.GROUP and isinstance(group, CTAGroupKindAttr):
            printer.print_string(f" group = {group.data.value}")  # bare here, unlike tcgen05 ops' `<cta_2>`
        printer.print_op_attributes(self.attributes, reserved_attr_names=("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_list([getattr(self, n).type for n in self.TYPED], printer.print_attribute)

    @property
    def cta_only(self) -> bool:
        attr = self.properties.get("isCTAOnly")
        return attr is not None and bool(attr.value.data)  # type: ignore[attr-defined]


def _space(value: SSAValue) -> int | None:
    return pointer_address_space(value.type)


def _check_dims(op: _TmaOp) -> None:
    if err := isa.dims_error(len(op.coordinates)):  # type: ignore[attr-defined]
        raise VerifyException(err)


def _check_tile_mode(op: _TmaOp, mode: Attribute | None, tile: Attribute) -> None:
    """Tile mode takes no im2col offsets; the im2col modes need a 3-5 D tensor (upstream's rules)."""
    offsets = len(getattr(op, "im2colOffsets", ()))
    if mode in (None, tile):
        if offsets:
            raise VerifyException("im2col offsets are only valid in the im2col load modes")
        return
    if len(op.coordinates) < 3:  # type: ignore[attr-defined]
        raise VerifyException(f"to use {mode.data.value} mode, the tensor has to be at least 3-dimensional")  # type: ignore[attr-defined]


def _check_mask(value: SSAValue | None) -> None:
    if value is not None and (m := constant_int(value)) is not None and (err := isa.multicast_mask_error(m & 0xFFFF)):
        raise VerifyException(err)


# ---- tensor copies ------------------------------------------------------------------------------


@irdl_op_definition
class CpAsyncBulkTensorSharedClusterGlobalOp(_TmaOp, TMEMEffectOp):
    """The TMA load: a box of the tensor map at `coordinates` into shared memory (each CTA of
    `multicastMask`), completing `box bytes` of transactions on `mbar` in each."""

    name = "nvvm.cp.async.bulk.tensor.shared.cluster.global"
    dstMem = operand_def(llvm.LLVMPointerType)
    tmaDescriptor = operand_def(llvm.LLVMPointerType)
    coordinates = var_operand_def(i32)
    mbar = operand_def(llvm.LLVMPointerType)
    im2colOffsets = var_operand_def(i16)
    multicastMask = opt_operand_def(i16)
    l2CacheHint = opt_operand_def(i64)
    predicate = opt_operand_def(i1)
    mode = prop_def(TMALoadModeAttr, default_value=LOAD_TILE)
    isCTAOnly = prop_def(BoolAttr, default_value=FALSE)
    group = opt_prop_def(CTAGroupKindAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    LEAD: ClassVar = ("dstMem", "tmaDescriptor", "mbar")
    LEAD_TYPES: ClassVar = {"mbar": SHARED_POINTER}
    BOX: ClassVar = True
    IM2COL: ClassVar = True
    OPTIONAL: ClassVar = (Optional("multicast_mask", "multicastMask", i16), Optional("l2_cache_hint", "l2CacheHint", i64),
                          Optional("predicate", "predicate", i1))
    CLAUSES: ClassVar = (Clause("mode", "mode", TMALoadModeAttr, default=LOAD_TILE),)
    CTA_ONLY: ClassVar = True
    GROUP: ClassVar = True
    TYPED: ClassVar = ("dstMem", "tmaDescriptor")

    def __init__(self, dst: SSAValue, tmap: SSAValue, coordinates: list[SSAValue], mbar: SSAValue,
                 multicast_mask: SSAValue | None = None, cta_group: int | None = None, cta_only: bool = False):
        props: dict[str, Attribute] = {"isCTAOnly": BoolAttr.from_bool(cta_only)}
        if cta_group is not None:
            props["group"] = CTAGroupKindAttr(CTAGroupKind.of(cta_group))
        super().__init__(operands=[dst, tmap, coordinates, mbar, [], [multicast_mask] if multicast_mask else [], [], []],
                         properties=props)

    @property
    def cta_group_value(self) -> int | None:
        return None if self.group is None else self.group.data.count

    def verify_(self) -> None:
        _check_dims(self)
        _check_tile_mode(self, self.mode, LOAD_TILE)
        dst = _space(self.dstMem)
        if self.cta_only:
            if dst != SHARED_ADDRESS_SPACE:
                raise VerifyException("Shared::cta destination requires address-space 3.")
            if self.multicastMask is not None:
                raise VerifyException("Multicast is not supported with shared::cta mode.")
            if self.predicate is not None:
                raise VerifyException("Predicate is supported only for shared::cluster mode.")
            if self.group is not None:
                raise VerifyException("CTAGroup is not supported with shared::cta mode.")
        elif dst != SHARED_CLUSTER_ADDRESS_SPACE:
            raise VerifyException("Shared::cluster destination requires address-space 7.")
        if _space(self.mbar) != SHARED_ADDRESS_SPACE:
            raise VerifyException(f"the mbarrier must be !llvm.ptr<3>, got {self.mbar.type}")
        _check_mask(self.multicastMask)

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.TMA_LOAD, mbarrier=self.mbar, multicast=self.multicastMask)


@irdl_op_definition
class CpAsyncBulkTensorGlobalSharedCtaOp(_TmaOp, TMEMEffectOp):
    """The TMA store: a box of shared memory to the tensor map's tensor at `coordinates` (a bulk group)."""

    name = "nvvm.cp.async.bulk.tensor.global.shared.cta"
    tmaDescriptor = operand_def(llvm.LLVMPointerType)
    srcMem = operand_def(llvm.LLVMPointerType)
    coordinates = var_operand_def(i32)
    l2CacheHint = opt_operand_def(i64)
    predicate = opt_operand_def(i1)
    mode = prop_def(TMAStoreModeAttr, default_value=STORE_TILE)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    LEAD: ClassVar = ("tmaDescriptor", "srcMem")
    BOX: ClassVar = True
    OPTIONAL: ClassVar = (Optional("l2_cache_hint", "l2CacheHint", i64), Optional("predicate", "predicate", i1))
    CLAUSES: ClassVar = (Clause("mode", "mode", TMAStoreModeAttr, default=STORE_TILE),)
    TYPED: ClassVar = ("tmaDescriptor", "srcMem")

    def __init__(self, tmap: SSAValue, src: SSAValue, coordinates: list[SSAValue]):
        super().__init__(operands=[tmap, src, coordinates, [], []])

    def verify_(self) -> None:
        _check_dims(self)
        if self.predicate is not None and self.mode != STORE_TILE:
            raise VerifyException("Inline-ptx lowering supported only for Tile mode.")
        if _space(self.srcMem) != SHARED_ADDRESS_SPACE:
            raise VerifyException(f"the source of a TMA store is shared::cta memory (!llvm.ptr<3>), got {self.srcMem.type}")

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.BULK_STORE)


@irdl_op_definition
class CpAsyncBulkTensorPrefetchOp(_TmaOp, TMEMEffectOp):
    name = "nvvm.cp.async.bulk.tensor.prefetch"
    tmaDescriptor = operand_def(llvm.LLVMPointerType)
    coordinates = var_operand_def(i32)
    im2colOffsets = var_operand_def(i16)
    l2CacheHint = opt_operand_def(i64)
    mode = prop_def(TMALoadModeAttr, default_value=LOAD_TILE)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    LEAD: ClassVar = ("tmaDescriptor",)
    BOX: ClassVar = True
    IM2COL: ClassVar = True
    OPTIONAL: ClassVar = (Optional("l2_cache_hint", "l2CacheHint", i64),)
    CLAUSES: ClassVar = (Clause("mode", "mode", TMALoadModeAttr, default=LOAD_TILE),)
    TYPED: ClassVar = ("tmaDescriptor",)

    def __init__(self, tmap: SSAValue, coordinates: list[SSAValue]):
        super().__init__(operands=[tmap, coordinates, [], []])

    def verify_(self) -> None:
        _check_dims(self)
        _check_tile_mode(self, self.mode, LOAD_TILE)

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.TMA_PREFETCH)


# ---- non-tensor bulk copies ---------------------------------------------------------------------


def _check_size(size: SSAValue) -> None:
    if (n := constant_int(size)) is not None and (err := isa.bulk_size_error(n)):
        raise VerifyException(err)


@irdl_op_definition
class CpAsyncBulkSharedClusterGlobalOp(_TmaOp, TMEMEffectOp):
    name = "nvvm.cp.async.bulk.shared.cluster.global"
    dstMem = operand_def(llvm.LLVMPointerType)
    srcMem = operand_def(llvm.LLVMPointerType)
    mbar = operand_def(llvm.LLVMPointerType)
    size = operand_def(i32)
    multicastMask = opt_operand_def(i16)
    l2CacheHint = opt_operand_def(i64)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    LEAD: ClassVar = ("dstMem", "srcMem", "mbar", "size")
    LEAD_TYPES: ClassVar = {"mbar": SHARED_POINTER, "size": i32}
    OPTIONAL: ClassVar = (Optional("multicast_mask", "multicastMask", i16), Optional("l2_cache_hint", "l2CacheHint", i64))
    TYPED: ClassVar = ("dstMem", "srcMem")

    def __init__(self, dst: SSAValue, src: SSAValue, mbar: SSAValue, size: SSAValue,
                 multicast_mask: SSAValue | None = None):
        super().__init__(operands=[dst, src, mbar, size, [multicast_mask] if multicast_mask else [], []])

    def verify_(self) -> None:
        if _space(self.dstMem) not in (SHARED_CLUSTER_ADDRESS_SPACE, SHARED_ADDRESS_SPACE):
            raise VerifyException(f"the destination is shared memory (!llvm.ptr<7> or !llvm.ptr<3>), got {self.dstMem.type}")
        if _space(self.srcMem) != GLOBAL_ADDRESS_SPACE:
            raise VerifyException(f"the source is global memory (!llvm.ptr<1>), got {self.srcMem.type}")
        if _space(self.mbar) != SHARED_ADDRESS_SPACE:
            raise VerifyException(f"the mbarrier must be !llvm.ptr<3>, got {self.mbar.type}")
        _check_size(self.size)
        _check_mask(self.multicastMask)

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.TMA_LOAD, mbarrier=self.mbar, count=self.size, multicast=self.multicastMask)


@irdl_op_definition
class CpAsyncBulkGlobalSharedCtaOp(_TmaOp, TMEMEffectOp):
    name = "nvvm.cp.async.bulk.global.shared.cta"
    dstMem = operand_def(llvm.LLVMPointerType)
    srcMem = operand_def(llvm.LLVMPointerType)
    size = operand_def(i32)
    l2CacheHint = opt_operand_def(i64)
    byteMask = opt_operand_def(i16)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    LEAD: ClassVar = ("dstMem", "srcMem", "size")
    LEAD_TYPES: ClassVar = {"size": i32}
    OPTIONAL: ClassVar = (Optional("l2_cache_hint", "l2CacheHint", i64), Optional("byte_mask", "byteMask", i16))
    TYPED: ClassVar = ("dstMem", "srcMem")

    def __init__(self, dst: SSAValue, src: SSAValue, size: SSAValue):
        super().__init__(operands=[dst, src, size, [], []])

    def verify_(self) -> None:
        if _space(self.dstMem) != GLOBAL_ADDRESS_SPACE:
            raise VerifyException(f"the destination is global memory (!llvm.ptr<1>), got {self.dstMem.type}")
        if _space(self.srcMem) != SHARED_ADDRESS_SPACE:
            raise VerifyException(f"the source is shared::cta memory (!llvm.ptr<3>), got {self.srcMem.type}")
        _check_size(self.size)

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.BULK_STORE, count=self.size)


# ---- bulk async-groups, prefetch.tensormap ------------------------------------------------------


@irdl_op_definition
class CpAsyncBulkCommitGroupOp(IRDLOperation, TMEMEffectOp):
    """Closes the thread's open bulk async-group (the stores issued since the last commit)."""

    name = "nvvm.cp.async.bulk.commit.group"
    assembly_format = "attr-dict"

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.BULK_COMMIT_GROUP)


class WaitGroupForm(TMEMEffectOp):
    """`N (read)?`: the form, verifier and effect of the wait_group ops of both dialects (each
    declares `group = prop_def(IntegerAttr[IntegerType])` and `read = opt_prop_def(UnitAttr)`)."""

    def __init__(self, group: int, read: bool = False):
        props: dict[str, Attribute] = {"group": IntegerAttr(group, i32)}
        if read:
            props["read"] = UnitAttr()
        super().__init__(properties=props)  # type: ignore[call-arg]

    @classmethod
    def parse(cls, parser: Parser):
        n = parser.parse_integer()
        props: dict[str, Attribute] = {"group": IntegerAttr(n, i32)}
        if parser.parse_optional_keyword("read") is not None:
            props["read"] = UnitAttr()
        attrs = parser.parse_optional_attr_dict()
        return cls.create(properties=props, attributes=attrs)  # type: ignore[attr-defined]

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.group.value.data}")  # type: ignore[attr-defined]
        if self.read is not None:  # type: ignore[attr-defined]
            printer.print_string(" read")
        printer.print_op_attributes(self.attributes)  # type: ignore[attr-defined]

    def verify_(self) -> None:
        if err := isa.wait_group_error(self.group.value.data):  # type: ignore[attr-defined]
            raise VerifyException(err)

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.BULK_WAIT_GROUP)


@irdl_op_definition
class CpAsyncBulkWaitGroupOp(WaitGroupForm, IRDLOperation):
    """Waits until at most `group` of the thread's bulk async-groups are pending (`read`: only
    their reads of the source)."""

    name = "nvvm.cp.async.bulk.wait_group"
    group = prop_def(IntegerAttr[IntegerType])
    read = opt_prop_def(UnitAttr)


@irdl_op_definition
class PrefetchOp(IRDLOperation, TMEMEffectOp):
    """`nvvm.prefetch tensormap, %p : !llvm.ptr` (upstream's prefetch op; only its tensormap form
    is modelled: the cache-line forms have no TMEM or TMA meaning)."""

    name = "nvvm.prefetch"
    addr = operand_def(llvm.LLVMPointerType)
    tensormap = opt_prop_def(UnitAttr)

    def __init__(self, addr: SSAValue):
        super().__init__(operands=[addr], properties={"tensormap": UnitAttr()})

    @classmethod
    def parse(cls, parser: Parser):
        if parser.parse_optional_keyword("tensormap") is None:
            parser.raise_error("only the tensormap form of nvvm.prefetch is supported (`nvvm.prefetch tensormap, %p : !llvm.ptr`)")
        parser.parse_punctuation(",")
        addr = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(addr, t)], properties={"tensormap": UnitAttr()},
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" tensormap, ")
        printer.print_operand(self.addr)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.addr.type)

    def verify_(self) -> None:
        if self.tensormap is None:
            raise VerifyException("only the tensormap form of nvvm.prefetch is supported")

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.TMA_PREFETCH)


TMA_OPS = [
    CpAsyncBulkTensorSharedClusterGlobalOp,
    CpAsyncBulkTensorGlobalSharedCtaOp,
    CpAsyncBulkTensorPrefetchOp,
    CpAsyncBulkSharedClusterGlobalOp,
    CpAsyncBulkGlobalSharedCtaOp,
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkWaitGroupOp,
    PrefetchOp,
]
TMA_ATTRS = [TMALoadModeAttr, TMAStoreModeAttr]
