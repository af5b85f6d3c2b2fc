"""The upstream-compatible subset of MLIR's NVVM dialect: shared attributes, special registers, the Dialect.

Names, properties and custom assembly follow upstream MLIR (as shipped in
iree-base-compiler 3.13.0), so text printed here parses there unchanged and vice versa.
The op families are in their own modules: nvvm_tmem (nvvm.tcgen05.* TMEM ops), nvvm_sync
(barriers), nvvm_warp (shfl.sync, vote.sync), nvvm_cluster, nvvm_mma, nvvm_cp, nvvm_mbarrier, nvvm_tma;
`NVVM` collects them all.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BoolAttr,
    IntAttr,
    IntegerAttr,
    i32,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tmem_dialect.conventions import SHARED_ADDRESS_SPACE, TMEM_ADDRESS_SPACE
from tmem_dialect.dialects.llvm_compat import NVVMTargetAttr
from tmem_dialect.dialects.llvm_ext import ConstantRangeAttr


class CTAGroupKind(StrEnum):
    cta_1 = auto()
    cta_2 = auto()

    @property
    def count(self) -> int:
        return int(self.value[-1])

    @staticmethod
    def of(count: int) -> CTAGroupKind:
        return CTAGroupKind(f"cta_{count}")


class Bracketed:
    """Mixin for enum attributes printed `<value>` in both forms, as upstream prints
    `#nvvm.cta_group<cta_2>` (generic) and `group = <cta_2>` (custom)."""

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        super().print_parameter(printer)  # type: ignore[misc]
        printer.print_string(">")

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # type: ignore[misc]


@irdl_attr_definition
class CTAGroupKindAttr(Bracketed, EnumAttribute[CTAGroupKind]):
    name = "nvvm.cta_group"


CTA_1 = CTAGroupKindAttr(CTAGroupKind.cta_1)
FALSE = BoolAttr.from_bool(False)
TRUE = BoolAttr.from_bool(True)


TMEM_POINTER = llvm.LLVMPointerType(IntAttr(TMEM_ADDRESS_SPACE))
SHARED_POINTER = llvm.LLVMPointerType(IntAttr(SHARED_ADDRESS_SPACE))


class SpecialRegister(IRDLOperation):
    """`nvvm.read.ptx.sreg.*`: one PTX special register, read as i32."""

    res = result_def(i32)
    range = opt_prop_def(ConstantRangeAttr)

    assembly_format = "(`range` $range^)? attr-dict `:` type($res)"

    def __init__(self):
        super().__init__(result_types=[i32])

    @property
    def ptx_register(self) -> str:
        """The PTX spelling, e.g. `%tid.x`, `%cluster_ctarank` (upstream: `sreg.cluster.ctarank`)."""
        return "%" + ptx_register_name(self.name.removeprefix("nvvm.read.ptx.sreg."))


def ptx_register_name(sreg: str) -> str:
    """The PTX name of upstream's `nvvm.read.ptx.sreg.<sreg>`: `cluster.ctaid.x` is `cluster_ctaid.x`."""
    return sreg.replace("cluster.", "cluster_", 1) if sreg.startswith("cluster.") else sreg


def sreg_name(ptx: str) -> str:
    """The inverse of ptx_register_name: `cluster_ctarank` -> `cluster.ctarank`."""
    return ptx.replace("cluster_", "cluster.", 1) if ptx.startswith("cluster_") else ptx


def _special_register(op_name: str, register: str) -> type[SpecialRegister]:
    cls = type(
        "Read" + register.replace("%", "").replace(".", "_").title().replace("_", "") + "Op",
        (SpecialRegister,),
        {"name": op_name, "__doc__": f"Read `{register}`."},
    )
    return irdl_op_definition(cls)


SPECIAL_REGISTERS: tuple[type[SpecialRegister], ...] = tuple(
    _special_register(f"nvvm.read.ptx.sreg.{name}", f"%{name}")
    for name in (
        *(f"{base}.{d}" for base in ("tid", "ntid", "ctaid", "nctaid") for d in "xyz"),
        "laneid",
        "warpid",
        "nwarpid",
        # clusters (PTX %clusterid, %nclusterid, %cluster_ctaid, %cluster_nctaid, %cluster_ctarank, ...)
        *(f"{base}.{d}" for base in ("clusterid", "nclusterid", "cluster.ctaid", "cluster.nctaid") for d in "xyz"),
        "cluster.ctarank",
        "cluster.nctarank",
    )
)
SPECIAL_REGISTER_BY_NAME = {op.name: op for op in SPECIAL_REGISTERS}


def verify_isa(error: str | None) -> None:
    """A verifier's use of an `isa.*_error` rule: its message, when there is one, as the op's error."""
    if error is not None:
        raise VerifyException(error)


def constant_int(value: SSAValue) -> int | None:
    """The integer a value is defined to be by llvm.mlir.constant / arith.constant, if it is."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None  # a block argument
    attr = getattr(owner, "value", None)
    if owner.name in ("llvm.mlir.constant", "arith.constant") and isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def _build_dialect() -> Dialect:
    # The op families build on this module's attributes, so they join the dialect lazily.
    from tmem_dialect.dialects import nvvm_cluster, nvvm_sync, nvvm_tmem, nvvm_warp
    from tmem_dialect.dialects.nvvm_async import ASYNC_ATTRS, ASYNC_OPS

    return Dialect(
        "nvvm",
        [
            *ASYNC_OPS,
            *nvvm_tmem.OPERATIONS,
            *nvvm_sync.BAR_OPERATIONS,
            nvvm_warp.ShflSyncOp,
            *nvvm_sync.CLUSTER_OPERATIONS,
            *SPECIAL_REGISTERS,
            *nvvm_warp.OPERATIONS,
            *nvvm_cluster.OPERATIONS,
        ],
        [
            CTAGroupKindAttr, *nvvm_tmem.ATTRIBUTES, nvvm_warp.ShflKindAttr, *ASYNC_ATTRS,
            NVVMTargetAttr, *nvvm_warp.ATTRIBUTES, *nvvm_cluster.ATTRIBUTES,
        ],
    )


_DIALECT: list[Dialect] = []


def __getattr__(name: str) -> Dialect:
    if name == "NVVM":
        if not _DIALECT:
            _DIALECT.append(_build_dialect())
        return _DIALECT[0]
    raise AttributeError(name)
