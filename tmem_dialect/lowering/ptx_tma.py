"""PTX for the TMA ops: cp.async.bulk(.tensor) loads, stores and prefetches, bulk groups, prefetch.tensormap.

Mnemonics come from isa.tma; forms the target PTX version or architecture cannot express are
reported before ptxas sees them (ptxas: `.cta_group` needs PTX 8.6; multicast and cta_group need
an arch-specific target such as sm_100a).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.conventions import SHARED_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.dialects import nvvm_tma as t
from tmem_dialect.lowering.ptx_values import Imm, Unsupported

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)


def _need_version(em: Emitter, version: tuple[int, int], what: str) -> None:
    target = em.module.version
    if target < version:
        raise Unsupported(f"{what} needs PTX ISA {version[0]}.{version[1]}, the target is {target[0]}.{target[1]}")


def _need_arch_specific(em: Emitter, what: str) -> None:
    arch = em.module.arch
    if not arch.endswith(("a", "f")):
        raise Unsupported(f"{what} needs an architecture-specific target (sm_90a, sm_100a, ...), the target is {arch}")


def _guard(em: Emitter, predicate: SSAValue | None) -> str:
    return "" if predicate is None else f"@{em.reg(predicate)} "


def _tensor(em: Emitter, op: Any) -> str:
    coords = ", ".join(str(em.reg(c)) for c in op.coordinates)
    return f"[{em.reg(op.tmaDescriptor)}, {{{coords}}}]"


def _hint(em: Emitter, op: Any) -> tuple[str, str]:
    hint = getattr(op, "l2CacheHint", None)
    if hint is None:
        return "", ""
    return isa.l2_hint_suffix(True), f", {em.reg(hint)}"


def _tile_only(op: Any) -> None:
    mode = op.properties.get("mode")
    if mode is not None and mode.data.value != "tile":
        raise Unsupported(f"{op.name} in {mode.data.value} mode (only the tile mode is emitted)")


def tensor_load(em: Emitter, op: t.CpAsyncBulkTensorSharedClusterGlobalOp) -> None:
    _tile_only(op)
    multicast = op.multicastMask is not None
    group = op.cta_group_value
    if op.cta_only:
        _need_version(em, isa.PTX_TMA_SHARED_CTA, "a shared::cta TMA destination")
    if group is not None:
        _need_version(em, isa.PTX_TMA_CTA_GROUP, f"cp.async.bulk.tensor .cta_group::{group}")
    if multicast or group is not None:
        _need_arch_specific(em, "cp.async.bulk.tensor with multicast or cta_group")
    suffix, hint = _hint(em, op)
    mnemonic = isa.tensor_load_mnemonic(len(op.coordinates), op.cta_only, multicast, group) + suffix
    mask = f", {em.reg_or_imm(op.multicastMask)}" if multicast else ""
    em.out(f"{_guard(em, op.predicate)}{mnemonic} {em.address(op.dstMem)}, {_tensor(em, op)}, "
           f"{em.address(op.mbar)}{mask}{hint};")


def tensor_store(em: Emitter, op: t.CpAsyncBulkTensorGlobalSharedCtaOp) -> None:
    _tile_only(op)
    suffix, hint = _hint(em, op)
    mnemonic = isa.tensor_store_mnemonic(len(op.coordinates)) + suffix
    em.out(f"{_guard(em, op.predicate)}{mnemonic} {_tensor(em, op)}, {em.address(op.srcMem)}{hint};")


def tensor_prefetch(em: Emitter, op: t.CpAsyncBulkTensorPrefetchOp) -> None:
    _tile_only(op)
    suffix, hint = _hint(em, op)
    em.out(f"{isa.tensor_prefetch_mnemonic(len(op.coordinates))}{suffix} {_tensor(em, op)}{hint};")


def _size(em: Emitter, size: SSAValue) -> str:
    found = em.operand(size)
    if isinstance(found, Imm) and (err := isa.bulk_size_error(found.signed)):
        raise Unsupported(err)
    return str(em.reg_or_imm(size))


def bulk_load(em: Emitter, op: t.CpAsyncBulkSharedClusterGlobalOp) -> None:
    multicast = op.multicastMask is not None
    if multicast:
        _need_arch_specific(em, "cp.async.bulk with multicast")
    mnemonic = isa.bulk_load_mnemonic(multicast)
    if pointer_address_space(op.dstMem.type) == SHARED_ADDRESS_SPACE:
        if multicast:
            raise Unsupported("a multicast cp.async.bulk needs a shared::cluster destination (!llvm.ptr<7>)")
        _need_version(em, isa.PTX_TMA_SHARED_CTA, "a shared::cta cp.async.bulk destination")
        mnemonic = mnemonic.replace(".shared::cluster.", ".shared::cta.", 1)
    suffix, hint = _hint(em, op)
    mask = f", {em.reg_or_imm(op.multicastMask)}" if multicast else ""
    em.out(f"{mnemonic}{suffix} {em.address(op.dstMem)}, {em.address(op.srcMem)}, {_size(em, op.size)}, "
           f"{em.address(op.mbar)}{mask}{hint};")


def bulk_store(em: Emitter, op: t.CpAsyncBulkGlobalSharedCtaOp) -> None:
    if op.byteMask is not None:
        raise Unsupported("cp.async.bulk with a byte mask (.cp_mask, PTX 8.6 sm_100) is not emitted")
    suffix, hint = _hint(em, op)
    em.out(f"{isa.BULK_STORE_MNEMONIC}{suffix} {em.address(op.dstMem)}, {em.address(op.srcMem)}, "
           f"{_size(em, op.size)}{hint};")


def commit_group(em: Emitter, op: t.CpAsyncBulkCommitGroupOp) -> None:
    em.out(f"{isa.BULK_COMMIT_GROUP};")


def wait_group(em: Emitter, op: t.CpAsyncBulkWaitGroupOp) -> None:
    em.out(f"{isa.bulk_wait_group_mnemonic(op.read is not None)} {op.group.value.data};")


def prefetch_tensormap(em: Emitter, op: t.PrefetchOp) -> None:
    em.out(f"{isa.PREFETCH_TENSORMAP} {em.address(op.addr)};")


TMA_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    t.CpAsyncBulkTensorSharedClusterGlobalOp: tensor_load,
    t.CpAsyncBulkTensorGlobalSharedCtaOp: tensor_store,
    t.CpAsyncBulkTensorPrefetchOp: tensor_prefetch,
    t.CpAsyncBulkSharedClusterGlobalOp: bulk_load,
    t.CpAsyncBulkGlobalSharedCtaOp: bulk_store,
    t.CpAsyncBulkCommitGroupOp: commit_group,
    t.CpAsyncBulkWaitGroupOp: wait_group,
    t.PrefetchOp: prefetch_tensormap,
}
