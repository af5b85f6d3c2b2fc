"""The tcgen05 dialect: Tensor Memory allocation, warp-level ld/st, waits and fences; the Dialect object.

TMEM buffer types and warpgroup tiles are in tcgen05_tiles, descriptors in tcgen05_desc, mma in
tcgen05_mma, cp/shift/commit in tcgen05_cp, mbarriers in tcgen05_mbarrier, TMA in tcgen05_tma; `TCGEN05` collects them all.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import (
    I32,
    I64,
    IntAttr,
    IntegerAttr,
    MemRefType,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect import isa
from tmem_dialect.conventions import SHARED_ADDRESS_SPACE
from tmem_dialect.dialects.cta_group import CtaGroupOp
from tmem_dialect.dialects.interfaces import TMEMEffect, TMEMEffectOp
from tmem_dialect.dialects.nvvm import verify_isa
from tmem_dialect.memory_model import EffectKind

# ---------------------------------------------------------------------------------------------
# Enum attributes
# ---------------------------------------------------------------------------------------------


class ShapeKind(StrEnum):
    """`.shape` of tcgen05.ld/st, spelled as MLIR's NVVM dialect spells it."""

    shape_16x64b = auto()
    shape_16x128b = auto()
    shape_16x256b = auto()
    shape_32x32b = auto()
    shape_16x32bx2 = auto()

    @property
    def isa_shape(self) -> isa.Shape:
        return isa.shape_from_ptx(self.value.removeprefix("shape_"))

    @staticmethod
    def of(shape: isa.Shape) -> ShapeKind:
        return ShapeKind("shape_" + shape.value)


class NumKind(StrEnum):
    """`.num` of tcgen05.ld/st: how many times the shape repeats along columns."""

    x1 = auto()
    x2 = auto()
    x4 = auto()
    x8 = auto()
    x16 = auto()
    x32 = auto()
    x64 = auto()
    x128 = auto()

    @property
    def count(self) -> int:
        return int(self.value[1:])

    @staticmethod
    def of(count: int) -> NumKind:
        return NumKind(f"x{count}")


class WaitKind(StrEnum):
    load = auto()
    store = auto()


class FenceKind(StrEnum):
    before_thread_sync = auto()
    after_thread_sync = auto()


@irdl_attr_definition
class ShapeAttr(EnumAttribute[ShapeKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.shape"


@irdl_attr_definition
class NumAttr(EnumAttribute[NumKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.num"


@irdl_attr_definition
class WaitKindAttr(EnumAttribute[WaitKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.wait_kind"


@irdl_attr_definition
class FenceKindAttr(EnumAttribute[FenceKind], SpacedOpaqueSyntaxAttribute):
    name = "tcgen05.fence_kind"


# ---------------------------------------------------------------------------------------------
# Shared verification helpers
# ---------------------------------------------------------------------------------------------


def _int(attr: IntegerAttr | None) -> int | None:
    return None if attr is None else attr.value.data




def is_shared_slot_type(t: Attribute) -> bool:
    """A 32-bit shared-memory slot tcgen05.alloc can write the TMEM address into.

    Either an upstream-style `!llvm.ptr<3>` (from llvm.mlir.addressof of an addrspace-3
    global) or a `memref<1xi32, 3>`.
    """
    if isinstance(t, llvm.LLVMPointerType):
        space = t.addr_space
        return isinstance(space, IntAttr) and space.data == SHARED_ADDRESS_SPACE
    if not isinstance(t, MemRefType) or t.get_element_type() != i32:
        return False
    if t.get_shape() != (1,):
        return False
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        return space.value.data == SHARED_ADDRESS_SPACE
    return str(space) == "#gpu.address_space<workgroup>"


def slot_symbol(slot: SSAValue) -> str | None:
    """The global a shared slot addresses (llvm.mlir.addressof / memref.get_global), if visible."""
    owner = slot.owner
    if isinstance(owner, llvm.AddressOfOp):
        return owner.global_name.root_reference.data
    if isinstance(owner, memref.GetGlobalOp):
        return owner.name_.root_reference.data
    return None


def loaded_slot(value: SSAValue) -> SSAValue | None:
    """The shared slot `value` was loaded from (llvm.load / memref.load), if it was."""
    owner = value.owner
    if isinstance(owner, llvm.LoadOp):
        return owner.ptr
    if isinstance(owner, memref.LoadOp):
        return owner.memref
    return None


def same_slot(a: SSAValue, b: SSAValue) -> bool:
    if a == b:
        return True
    sym = slot_symbol(a)
    return sym is not None and sym == slot_symbol(b)




# ---------------------------------------------------------------------------------------------
# Allocation lifecycle
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class AllocOp(CtaGroupOp, TMEMEffectOp):
    """Allocate `ncols` TMEM columns and write the base address into a shared-memory slot.

    Warp-collective and blocking (`tcgen05.alloc.cta_group::N.sync.aligned.shared::cta.b32`).
    """

    name = "tcgen05.alloc"

    # Any type parses; verify_ says precisely which slot types are shared memory.
    slot = operand_def()
    ncols = prop_def(IntegerAttr[I32])

    assembly_format = "$slot `,` $ncols (`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($slot)"

    def __init__(self, slot: SSAValue | Operation, ncols: int, cta_group: int = 1):
        super().__init__(
            operands=[slot],
            properties={"ncols": IntegerAttr(ncols, i32), "cta_group": IntegerAttr(cta_group, i32)},
        )

    def verify_(self) -> None:
        super().verify_()
        verify_isa(isa.ncols_error(self.ncols.value.data))
        if not is_shared_slot_type(self.slot.type):
            raise VerifyException(
                "the address slot must be shared memory, !llvm.ptr<3> or memref<1xi32, 3>, "
                f"got {self.slot.type}"
            )

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(
            EffectKind.ALLOC, self.slot, self.cta_group_value, ncols=self.ncols.value.data
        )


@irdl_op_definition
class DeallocOp(CtaGroupOp, TMEMEffectOp):
    """Free `ncols` TMEM columns at `taddr` (`tcgen05.dealloc.cta_group::N.sync.aligned.b32`)."""

    name = "tcgen05.dealloc"

    taddr = operand_def(i32)
    ncols = prop_def(IntegerAttr[I32])

    assembly_format = "$taddr `,` $ncols (`cta_group` `(` $cta_group^ `)`)? attr-dict"

    def __init__(self, taddr: SSAValue | Operation, ncols: int, cta_group: int = 1):
        super().__init__(
            operands=[taddr],
            properties={"ncols": IntegerAttr(ncols, i32), "cta_group": IntegerAttr(cta_group, i32)},
        )

    def verify_(self) -> None:
        super().verify_()
        verify_isa(isa.ncols_error(self.ncols.value.data))

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(
            EffectKind.DEALLOC, self.taddr, self.cta_group_value, ncols=self.ncols.value.data
        )


@irdl_op_definition
class RelinquishAllocPermitOp(CtaGroupOp, TMEMEffectOp):
    """Give up the CTA's right to allocate; any later alloc by this CTA is illegal."""

    name = "tcgen05.relinquish_alloc_permit"

    assembly_format = "(`cta_group` `(` $cta_group^ `)`)? attr-dict"

    def __init__(self, cta_group: int = 1):
        super().__init__(properties={"cta_group": IntegerAttr(cta_group, i32)})

    def tmem_effect(self) -> TMEMEffect:
        return TMEMEffect(EffectKind.RELINQUISH, cta_group=self.cta_group_value)


# ---------------------------------------------------------------------------------------------
# Warp-level data movement
# ---------------------------------------------------------------------------------------------


class _LdStOp(IRDLOperation, TMEMEffectOp):
    """Shared by tcgen05.ld and tcgen05.st: shape, num, 16-bit packing, half-split offset."""

    taddr = operand_def(i32)
    shape = prop_def(ShapeAttr)
    num = prop_def(NumAttr)
    pack = opt_prop_def(UnitAttr)
    unpack = opt_prop_def(UnitAttr)
    offset = opt_prop_def(IntegerAttr[I64])

    @property
    def isa_shape(self) -> isa.Shape:
        return self.shape.data.isa_shape

    @property
    def num_count(self) -> int:
        return self.num.data.count

    @property
    def packed(self) -> bool:
        return self.pack is not None or self.unpack is not None

    @property
    def offset_value(self) -> int | None:
        return _int(self.offset)

    @property
    def register_type(self) -> Attribute:
        raise NotImplementedError

    def verify_(self) -> None:
        shape, num = self.isa_shape, self.num_count
        verify_isa(isa.num_error(shape, num))
        verify_isa(isa.half_split_offset_error(shape, self.offset_value))
        regs = isa.regs_per_thread(shape, num)
        expected = VectorType(i32, [regs])
        if self.register_type != expected:
            raise VerifyException(
                f"shape {shape.value} x{num} moves {regs} registers per thread "
                f"(num x {shape.regs_per_num}), so the register value must be {expected}, "
                f"got {self.register_type}"
            )

    def _effect(self, kind: EffectKind, registers: SSAValue) -> TMEMEffect:
        return TMEMEffect(
            kind,
            self.taddr,
            shape=self.isa_shape,
            num=self.num_count,
            packed=self.packed,
            offset=self.offset_value,
            registers=registers,
        )


def _ldst_properties(
    shape: isa.Shape, num: int, offset: int | None, packing: str | None
) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {
        "shape": ShapeAttr(ShapeKind.of(shape)),
        "num": NumAttr(NumKind.of(num)),
    }
    if offset is not None:
        props["offset"] = IntegerAttr(offset, i64)
    if packing is not None:
        props[packing] = UnitAttr()
    return props


@irdl_op_definition
class LdOp(_LdStOp):
    """Asynchronously load a warp's fragment from TMEM (`tcgen05.ld.sync.aligned`)."""

    name = "tcgen05.ld"

    result = result_def(VectorType)

    assembly_format = (
        "$taddr (`,` `offset` $offset^)? $shape $num (`pack` $pack^)? (`unpack` $unpack^)? "
        "attr-dict `:` type($result)"
    )

    def __init__(
        self,
        taddr: SSAValue | Operation,
        shape: isa.Shape,
        num: int,
        *,
        pack: bool = False,
        offset: int | None = None,
    ):
        super().__init__(
            operands=[taddr],
            result_types=[VectorType(i32, [isa.regs_per_thread(shape, num)])],
            properties=_ldst_properties(shape, num, offset, "pack" if pack else None),
        )

    @property
    def register_type(self) -> Attribute:
        return self.result.type

    def verify_(self) -> None:
        if self.unpack is not None:
            raise VerifyException("unpack::16b is only valid on tcgen05.st; tcgen05.ld takes pack::16b")
        super().verify_()

    def tmem_effect(self) -> TMEMEffect:
        return self._effect(EffectKind.LD, self.result)


@irdl_op_definition
class StOp(_LdStOp):
    """Asynchronously store a warp's fragment into TMEM (`tcgen05.st.sync.aligned`)."""

    name = "tcgen05.st"

    value = operand_def(VectorType)

    assembly_format = (
        "$value `,` $taddr (`,` `offset` $offset^)? $shape $num (`pack` $pack^)? "
        "(`unpack` $unpack^)? attr-dict `:` type($value)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        taddr: SSAValue | Operation,
        shape: isa.Shape,
        num: int,
        *,
        unpack: bool = False,
        offset: int | None = None,
    ):
        # IRDL orders operands by definition: StOp's own `value` precedes the inherited `taddr`.
        super().__init__(
            operands=[value, taddr],
            properties=_ldst_properties(shape, num, offset, "unpack" if unpack else None),
        )

    @property
    def register_type(self) -> Attribute:
        return self.value.type

    def verify_(self) -> None:
        if self.pack is not None:
            raise VerifyException("pack::16b is only valid on tcgen05.ld; tcgen05.st takes unpack::16b")
        super().verify_()

    def tmem_effect(self) -> TMEMEffect:
        return self._effect(EffectKind.ST, self.value)


@irdl_op_definition
class WaitOp(IRDLOperation, TMEMEffectOp):
    """Block until all prior tcgen05.ld (load) or tcgen05.st (store) of this thread completed."""

    name = "tcgen05.wait"

    kind = prop_def(WaitKindAttr)

    assembly_format = "$kind attr-dict"

    def __init__(self, kind: WaitKind):
        super().__init__(properties={"kind": WaitKindAttr(kind)})

    def tmem_effect(self) -> TMEMEffect:
        load = self.kind.data is WaitKind.load
        return TMEMEffect(EffectKind.WAIT_LD if load else EffectKind.WAIT_ST)


@irdl_op_definition
class FenceOp(IRDLOperation, TMEMEffectOp):
    """Order async tcgen05 ops against a thread synchronization (`tcgen05.fence::*`)."""

    name = "tcgen05.fence"

    kind = prop_def(FenceKindAttr)

    assembly_format = "$kind attr-dict"

    def __init__(self, kind: FenceKind):
        super().__init__(properties={"kind": FenceKindAttr(kind)})

    def tmem_effect(self) -> TMEMEffect:
        before = self.kind.data is FenceKind.before_thread_sync
        return TMEMEffect(EffectKind.FENCE_BEFORE if before else EffectKind.FENCE_AFTER)


# Kernel attributes on func.func (the tcgen05-level equivalents of nvvm.kernel / nvvm.reqntid)
# are KERNEL_ATTR and REQNTID_ATTR of tmem_dialect.conventions.


def _build_dialect() -> Dialect:
    # tcgen05_tiles builds on this module's allocations and slots, so the families join lazily.
    from tmem_dialect.dialects.tcgen05_cp import CP_ATTRS, CP_OPS
    from tmem_dialect.dialects.tcgen05_desc import DESC_ATTRS, DESC_OPS
    from tmem_dialect.dialects.tcgen05_mbarrier import MBARRIER_ATTRS, MBARRIER_OPS
    from tmem_dialect.dialects.tcgen05_mma import MmaOp, ScaleVecAttr
    from tmem_dialect.dialects.tcgen05_tiles import (
        DeclBufferOp,
        LayoutAttr,
        TileLoadOp,
        TileStoreOp,
        TMEMBufferType,
    )
    from tmem_dialect.dialects.tcgen05_tma import TMA_OPS

    return Dialect(
        "tcgen05",
        [
            *DESC_OPS,
            MmaOp,
            *CP_OPS,
            *MBARRIER_OPS,
            *TMA_OPS,
            AllocOp,
            DeallocOp,
            RelinquishAllocPermitOp,
            LdOp,
            StOp,
            WaitOp,
            FenceOp,
            DeclBufferOp,
            TileLoadOp,
            TileStoreOp,
        ],
        [
            ShapeAttr,
            NumAttr,
            WaitKindAttr,
            FenceKindAttr,
            LayoutAttr,
            TMEMBufferType,
            *DESC_ATTRS,
            ScaleVecAttr,
            *CP_ATTRS,
            *MBARRIER_ATTRS,
        ],
    )


_DIALECT: list[Dialect] = []


def __getattr__(name: str) -> Dialect:
    if name == "TCGEN05":
        if not _DIALECT:
            _DIALECT.append(_build_dialect())
        return _DIALECT[0]
    raise AttributeError(name)
