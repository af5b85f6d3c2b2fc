"""PTX for the producer and mbarrier ops: tcgen05.mma/cp/shift/commit, mma_smem_desc, mbarrier.*, fences, elect.

Each handler takes the function emitter (ptx_emitter._FunctionEmitter) and one op; the mnemonics
come from `isa`. Forms that need a later PTX ISA version than the target are reported, as ptxas
would reject them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation, SSAValue

from tmem_dialect import isa
from tmem_dialect.conventions import SHARED_ADDRESS_SPACE, SHARED_CLUSTER_ADDRESS_SPACE, pointer_address_space
from tmem_dialect.dialects import nvvm_async as up
from tmem_dialect.lowering.ptx_tma import TMA_HANDLERS
from tmem_dialect.lowering.ptx_values import Imm, RegClass, Unsupported

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)




def _space(op_value: SSAValue) -> str:
    """The state-space qualifier of an mbarrier address: .shared::cta for !llvm.ptr<3>,
    .shared::cluster for !llvm.ptr<7>, none for generic."""
    space = pointer_address_space(op_value.type)
    if space == SHARED_ADDRESS_SPACE:
        return ".shared::cta"
    if space == SHARED_CLUSTER_ADDRESS_SPACE:  # a remote arrive (the verifier allows only that)
        return ".shared::cluster"
    if space == 0:
        return ""
    raise Unsupported(f"an mbarrier address in !llvm.ptr<{space}>")


def _need_version(em: Emitter, version: tuple[int, int], what: str) -> None:
    target = em.module.version
    if target < version:
        raise Unsupported(
            f"{what} needs PTX ISA {version[0]}.{version[1]}, the target is {target[0]}.{target[1]}"
        )


def _imm(em: Emitter, value: SSAValue, what: str) -> int:
    found = em.operand(value)
    if not isinstance(found, Imm):
        raise Unsupported(f"{what} must be a constant (PTX takes an immediate)")
    return found.signed


def _tmem(em: Emitter, value: SSAValue) -> str:
    return f"[{em.reg(value)}]"


# ---- tcgen05.mma --------------------------------------------------------------------------------


def _scale_vec_spelling(kind: isa.Kind, op: up._MmaBase) -> isa.ScaleVec | None:
    """Upstream's block size as a .scale_vec::NX qualifier (legal from PTX 8.6/8.7, where
    .block16/.block32 need 8.8): 32-element blocks are 1X on mxf8f6f4 and 2X on mxf4*, 16 is 4X."""
    if not kind.block_scaled:
        return None
    block = op.properties.get("blockScale")
    size16 = isinstance(block, up.BlockScaleAttr) and block.data is up.BlockScale.block16
    if size16:
        return isa.ScaleVec.X4
    if isinstance(block, up.BlockScaleAttr) and block.data is up.BlockScale.default and kind is isa.Kind.MXF4NVF4:
        raise Unsupported("kind mxf4nvf4 needs block_scale = block16 or block32 (it has no default block size)")
    return isa.ScaleVec.X1 if kind is isa.Kind.MXF8F6F4 else isa.ScaleVec.X2


def _collector(op: up._MmaBase) -> str | None:
    a = op.properties.get("collectorOp")
    if op.WS:
        buffer = op.properties.get("collectorBBuffer")
        if a == up.DISCARD and buffer in (None, up.B0):
            return None
        name = buffer.data.value if isinstance(buffer, up.CollectorBAttr) else "b0"
        return f"collector::{name}::{a.data.value}"  # type: ignore[union-attr]
    b = op.properties.get("collectorOpB")
    if b is not None and b != up.DISCARD:
        raise Unsupported("collector_b on a non-.ws tcgen05.mma has no PTX spelling in this target")
    if a is None or a == up.DISCARD:
        return None
    return f"collector::a::{a.data.value}"  # type: ignore[union-attr]


def mma(em: Emitter, op: up._MmaBase) -> None:
    kind = op.isa_kind
    scale_vec = _scale_vec_spelling(kind, op)
    _need_version(em, isa.min_ptx_version(kind, scale_vec), f"tcgen05.mma kind::{kind.value}"
                  + (f".{scale_vec.value}" if scale_vec else ""))  # fmt: skip
    mnemonic = isa.mma_mnemonic(
        kind, op.cta_group_value, ws=op.WS, sparse=op.SPARSE, scale_vec=scale_vec, collector=_collector(op)
    )
    if op.properties.get("aShift") is not None:
        mnemonic += ".ashift"
    args = [_tmem(em, op.matrixD), _tmem(em, op.matrixA) if op.a_in_tmem else str(em.reg(op.matrixA)), str(em.reg(op.matrixB))]
    if op.SPARSE:
        args.append(_tmem(em, op.sparseMetadata))  # type: ignore[attr-defined]
    args.append(str(em.reg_or_imm(op.idesc)))
    if op.BLOCK_SCALED:
        args += [_tmem(em, op.scaleA), _tmem(em, op.scaleB)]  # type: ignore[attr-defined]
    mask = getattr(op, "disableOutputLane", None)
    if mask is not None:
        count = isa.disable_output_lane_count(op.cta_group_value)
        args.append("{" + ", ".join(str(em.reg(mask, i)) for i in range(count)) + "}")
    args.append(str(em.reg(op.enableInputD)))
    scale = getattr(op, "scaleInputD", None)
    if scale is not None:
        value = _imm(em, scale, "scale-input-d")
        if err := isa.scale_input_d_error(value):
            raise Unsupported(err)
        args.append(str(value))
    zero_cols = getattr(op, "zeroColMask", None)
    if zero_cols is not None:
        args.append(str(em.reg(zero_cols)))
    em.out(f"{mnemonic} {', '.join(args)};")


# ---- cp, shift, commit, descriptor -------------------------------------------------------------


def cp(em: Emitter, op: up.Tcgen05CpOp) -> None:
    mnemonic = isa.cp_mnemonic(op.isa_shape, op.cta_group_value, op.isa_multicast, op.isa_source)
    em.out(f"{mnemonic} {_tmem(em, op.taddr)}, {em.reg(op.smem_desc)};")


def shift(em: Emitter, op: up.Tcgen05ShiftOp) -> None:
    em.out(f"{isa.shift_mnemonic(op.cta_group_value)} {_tmem(em, op.taddr)};")


def commit(em: Emitter, op: up.Tcgen05CommitOp) -> None:
    mnemonic = isa.commit_mnemonic(op.cta_group_value, op.multicastMask is not None)
    if pointer_address_space(op.addr.type) == 0:
        mnemonic = mnemonic.replace(".shared::cluster", "")
    # ctaMask is a 16-bit register operand: ptxas rejects an immediate there.
    mask = f", {em.reg(op.multicastMask)}" if op.multicastMask is not None else ""
    em.out(f"{mnemonic} {em.address(op.addr)}{mask};")


_DESC_FIELDS = (
    ("startAddr", 0, 14),
    ("leadingDimOffset", 16, 14),
    ("strideDimOffset", 32, 14),
    ("baseOffset", 49, 3),
    ("leadingDimMode", 52, 1),
    ("swizzleMode", 61, 3),
)


def smem_desc(em: Emitter, op: up.Tcgen05MmaSmemDescOp) -> None:
    """Fields at their bit positions plus the fixed 0b001 at bit 46; constant fields fold."""
    const = 1 << 46
    parts: list[Any] = []
    for name, lo, width in _DESC_FIELDS:
        value = getattr(op, name)
        found = em.operand(value)
        if isinstance(found, Imm):
            const |= (found.bits & ((1 << width) - 1)) << lo
            continue
        reg = em.reg(value)
        wide = em.new_reg(RegClass.B64)
        if reg.cls is RegClass.PRED:
            em.out(f"selp.b64 {wide}, 1, 0, {reg};")
        else:
            em.out(f"cvt.u64.u{reg.cls.bits} {wide}, {reg};")
        em.out(f"and.b64 {wide}, {wide}, {(1 << width) - 1};")
        if lo:
            em.out(f"shl.b64 {wide}, {wide}, {lo};")
        parts.append(wide)
    if not parts:
        em.define(op.res, [Imm(RegClass.B64, const)])
        return
    (d,) = em.fresh(op.res)
    em.out(f"or.b64 {d}, {parts[0]}, {const};")
    for p in parts[1:]:
        em.out(f"or.b64 {d}, {d}, {p};")


# ---- mbarriers, fences, elect -------------------------------------------------------------------


def _state(em: Emitter, op: Operation) -> str:
    res = getattr(op, "res", None)
    if res is None or not res.uses:
        if res is not None:
            em.fresh(res)  # defined (never read): keeps every result mapped
        return "_"
    (d,) = em.fresh(res)
    return str(d)


def mbarrier_init(em: Emitter, op: up.MBarrierInitOp) -> None:
    if op.predicate is not None:
        raise Unsupported("a predicated mbarrier.init")
    em.out(f"mbarrier.init{_space(op.addr)}.b64 {em.address(op.addr)}, {em.reg_or_imm(op.count)};")


def mbarrier_arrive(em: Emitter, op: up.MBarrierArriveOp) -> None:
    _plain_scope(op)
    count = f", {em.reg_or_imm(op.count)}" if op.count is not None else ""
    em.out(f"mbarrier.arrive{_space(op.addr)}.b64 {_state(em, op)}, {em.address(op.addr)}{count};")


def mbarrier_arrive_expect_tx(em: Emitter, op: up.MBarrierArriveExpectTxOp) -> None:
    _plain_scope(op)
    em.out(
        f"mbarrier.arrive.expect_tx{_space(op.addr)}.b64 {_state(em, op)}, {em.address(op.addr)}, "
        f"{em.reg_or_imm(op.txcount)};"
    )


def _plain_scope(op: Operation) -> None:
    scope = op.properties.get("scope")
    relaxed = op.properties.get("relaxed")
    if scope not in (None, up.CTA_SCOPE) or (relaxed is not None and relaxed.value.data):  # type: ignore[union-attr]
        raise Unsupported("mbarrier scope/relaxed qualifiers other than the default (.release.cta)")


def mbarrier_tx(em: Emitter, op: up._TxBase) -> None:
    what = "expect_tx" if isinstance(op, up.MBarrierExpectTxOp) else "complete_tx"
    _plain_scope(op)
    em.out(f"mbarrier.{what}.relaxed.cta{_space(op.addr)}.b64 {em.address(op.addr)}, {em.reg_or_imm(op.txcount)};")


def mbarrier_wait(em: Emitter, op: up._WaitBase) -> None:
    _plain_scope(op)
    name = "try_wait" if isinstance(op, up.MBarrierTryWaitOp) else "test_wait"
    parity = ".parity" if op.parity_form else ""
    (p,) = em.fresh(op.res)
    ticks = ""
    if op.ticks is not None:
        if name == "test_wait":
            raise Unsupported("test_wait takes no suspend-time hint")
        ticks = f", {em.reg_or_imm(op.ticks)}"
    em.out(f"mbarrier.{name}{parity}{_space(op.addr)}.b64 {p}, {em.address(op.addr)}, {em.reg_or_imm(op.stateOrPhase)}{ticks};")


def mbarrier_wait_parity_loop(em: Emitter, op: up.MBarrierTryWaitParityOp) -> None:
    """Upstream's blocking wait: try_wait.parity until it succeeds (a local loop)."""
    n = getattr(em, "mbarrier_waits", 0) + 1
    em.mbarrier_waits = n
    label = f"$L__mbarrier_wait_{em.index}_{n}"
    p = em.new_reg(RegClass.PRED)
    ticks = em.operand(op.ticks)
    hint = "" if isinstance(ticks, Imm) and ticks.bits == 0 else f", {em.reg_or_imm(op.ticks)}"
    em.out(f"{label}:")
    em.out(f"mbarrier.try_wait.parity{_space(op.addr)}.b64 {p}, {em.address(op.addr)}, {em.reg_or_imm(op.phase)}{hint};")
    em.out(f"@!{p} bra.uni {label};")


def mbarrier_inval(em: Emitter, op: up.MBarrierInvalOp) -> None:
    em.out(f"mbarrier.inval{_space(op.addr)}.b64 {em.address(op.addr)};")


def fence_mbarrier_init(em: Emitter, op: up.FenceMbarrierInitOp) -> None:
    em.out(f"{isa.FENCE_MBARRIER_INIT};")


def fence_proxy(em: Emitter, op: up.FenceProxyOp) -> None:
    kind = isa.ProxyKind(op.kind.data.value)
    space = op.space.data.value if op.space is not None else None
    em.out(f"{isa.fence_proxy_mnemonic(kind, space)};")


def elect_sync(em: Emitter, op: up.ElectSyncOp) -> None:
    (p,) = em.fresh(op.pred)
    mask = str(em.reg_or_imm(op.membermask)) if op.membermask is not None else "-1"
    em.out(f"elect.sync _|{p}, {mask};")


ASYNC_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    **{t: mma for t in up.MMA_OPS},
    up.Tcgen05CpOp: cp,
    up.Tcgen05ShiftOp: shift,
    up.Tcgen05CommitOp: commit,
    up.Tcgen05MmaSmemDescOp: smem_desc,
    up.MBarrierInitOp: mbarrier_init,
    up.MBarrierArriveOp: mbarrier_arrive,
    up.MBarrierArriveExpectTxOp: mbarrier_arrive_expect_tx,
    up.MBarrierExpectTxOp: mbarrier_tx,
    up.MBarrierCompleteTxOp: mbarrier_tx,
    up.MBarrierTryWaitOp: mbarrier_wait,
    up.MBarrierTestWaitOp: mbarrier_wait,
    up.MBarrierTryWaitParityOp: mbarrier_wait_parity_loop,
    up.MBarrierInvalOp: mbarrier_inval,
    up.FenceMbarrierInitOp: fence_mbarrier_init,
    up.FenceProxyOp: fence_proxy,
    up.ElectSyncOp: elect_sync,
    **TMA_HANDLERS,
}
