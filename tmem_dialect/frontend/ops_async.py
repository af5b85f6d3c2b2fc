"""tcgen05.mma/cp/shift/commit, mbarrier.*, fence.proxy/mbarrier_init and elect.sync, as the nvvm ops of nvvm_async.

The tcgen05 spellings are tables built from isa.py's mnemonic functions (what lowering/ptx_async.py
emits), so the importer and the emitter are inverse by construction. mbarrier forms are read
qualifier by qualifier; the ones with no op (remote cluster scopes, .relaxed, .noComplete) are
unmodelled, not approximated.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerType, UnitAttr, i1, i32, i64
from xdsl.ir import SSAValue

from tmem_dialect import isa
from tmem_dialect.dialects import nvvm
from tmem_dialect.dialects import nvvm_async as up
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.ops_memory import build_vector
from tmem_dialect.frontend.syntax import Address, Imm, Instruction, Reg, Sink, VectorOperand

_PTR6 = llvm.LLVMPointerType(IntAttr(nvvm.TMEM_ADDRESS_SPACE))
_I16 = IntegerType(16)


def _unmodelled(ins: Instruction, why: str = "") -> Unmodelled:
    return Unmodelled(f"unmodelled instruction '{ins.opcode}'" + (f" ({why})" if why else ""))


def _operands(ins: Instruction, count: int | tuple[int, ...]) -> list:
    counts = (count,) if isinstance(count, int) else count
    if len(ins.operands) not in counts:
        raise Invalid(f"'{ins.opcode}' takes {' or '.join(map(str, counts))} operands")
    return ins.operands


def _tmem(ctx: FunctionImporter, operand) -> SSAValue:
    """`[%r]`: a TMEM address as an !llvm.ptr<6>."""
    if not isinstance(operand, Address) or operand.offset:
        raise Invalid("a TMEM address is written [%r], without an offset")
    value = ctx.read(operand.base, i32)
    return ctx.int_to_pointer(value, _PTR6)


# ---- tcgen05.mma --------------------------------------------------------------------------------

_COLLECTORS = {None: None, **{f"collector::a::{c.value}": up.CollectorOpAttr(c) for c in up.CollectorOp}}
_MMA = {
    isa.mma_mnemonic(kind, group, collector=spelled) + shift: (kind, group, collector, bool(shift))
    for kind in isa.Kind if not kind.block_scaled
    for group in isa.CTA_GROUPS
    for spelled, collector in _COLLECTORS.items()
    for shift in ("", ".ashift")
}  # fmt: skip


_MMA_SPARSE = {
    isa.mma_mnemonic(kind, group, sparse=True, collector=spelled) + shift: (kind, group, collector, bool(shift))
    for kind in isa.Kind if not kind.block_scaled
    for group in isa.CTA_GROUPS
    for spelled, collector in _COLLECTORS.items()
    for shift in ("", ".ashift")
}  # fmt: skip
# .ws: `.collector::bN::op` names the B collector buffer and its usage (9.7.16.10.9); none is b0,
# discard (the emitter's inverse, lowering/ptx_async._collector).
_WS_COLLECTORS = {
    None: (up.B0, up.DISCARD),
    **{f"collector::{b.value}::{c.value}": (up.CollectorBAttr(b), up.CollectorOpAttr(c))
       for b in up.CollectorB for c in up.CollectorOp},
}
_MMA_WS = {
    isa.mma_mnemonic(kind, 1, ws=True, sparse=sparse, collector=spelled): (kind, sparse, buffers)
    for kind in isa.Kind if not kind.block_scaled
    for sparse in (False, True)
    for spelled, buffers in _WS_COLLECTORS.items()
}  # fmt: skip


# upstream names the block size, PTX the scale vector: .scale_vec::1X (mxf8f6f4) and 2X (mxf4*) are
# 32-element blocks, 4X is 16 (9.7.16.10.7.1: ".block32 is alias for .scale_vec::1X or
# .scale_vec::2X based on .kind", ".block16 is alias for .scale_vec::4X"); no qualifier is the
# kind's default (32).
_BLOCK_SIZE = {
    None: up.BlockScale.default, isa.ScaleVec.X1: up.BlockScale.block32, isa.ScaleVec.X2: up.BlockScale.block32,
    isa.ScaleVec.BLOCK32: up.BlockScale.block32, isa.ScaleVec.X4: up.BlockScale.block16,
    isa.ScaleVec.BLOCK16: up.BlockScale.block16,
}  # fmt: skip
_MMA_BLOCK_SCALE = {
    isa.mma_mnemonic(kind, group, sparse=sparse, scale_vec=scale_vec, collector=spelled):
        (kind, group, sparse, scale_vec, collector)
    for kind in isa.Kind if kind.block_scaled
    for group in isa.CTA_GROUPS
    for sparse in (False, True)
    for scale_vec in (None, *isa.ScaleVec) if isa.scale_vec_error(kind, scale_vec) is None
    for spelled, collector in _COLLECTORS.items()
}  # fmt: skip


def tcgen05_mma(ctx: FunctionImporter, ins: Instruction) -> None:
    """tcgen05.mma.cta_group::N.kind::K{.collector::a::X}{.ashift} [d], a, b, idesc, {mask,}? en {, scale}?"""
    if ins.opcode in _MMA_BLOCK_SCALE:
        return _mma_block_scale(ctx, ins)
    if ins.opcode in _MMA_WS:
        return _mma_ws(ctx, ins)
    found = _MMA.get(ins.opcode) or _MMA_SPARSE.get(ins.opcode)
    if found is None:
        raise _unmodelled(ins, "not a tcgen05.mma form of PTX ISA 9.7.16.10.9")
    sparse = ins.opcode in _MMA_SPARSE
    kind, group, collector, ashift = found
    ops = list(ins.operands)
    if len(ops) < (6 if sparse else 5):
        raise Invalid(f"'{ins.opcode}' takes [d], a, b, {'[sp-meta], ' if sparse else ''}idesc and enable-input-d")
    d, a, b = ops[:3]
    meta = ops[3] if sparse else None
    if meta is not None and not isinstance(meta, Address):
        raise Invalid(f"'{ins.opcode}': the sparsity metadata is a TMEM address [%r]")
    idesc = ops[4 if sparse else 3]
    rest = ops[5 if sparse else 4:]
    mask = rest.pop(0) if rest and isinstance(rest[0], VectorOperand) else None
    if not rest or len(rest) > 2:
        raise Invalid(f"'{ins.opcode}' takes enable-input-d and an optional scale-input-d after idesc")
    enable = ctx.read(rest[0], i1)
    operands: dict[str, SSAValue] = {
        "matrixD": _tmem(ctx, d),
        "matrixA": _tmem(ctx, a) if isinstance(a, Address) else ctx.read(a, i64),
        "matrixB": ctx.read(b, i64),
        "idesc": ctx.read(idesc, i32),
        "enableInputD": enable,
    }
    if mask is not None:
        count = isa.disable_output_lane_count(group)
        if len(mask.elements) != count:
            raise Invalid(f"disable-output-lane with cta_group::{group} is {{...}} of {count} registers")
        values = [ctx.read(e, i32) if e is not None else ctx.undefined(i32) for e in mask.elements]
        operands["disableOutputLane"] = build_vector(ctx, values, i32)
    if len(rest) == 2:
        if not isinstance(rest[1], Imm) or rest[1].is_float:
            raise Invalid("scale-input-d is an immediate")
        operands["scaleInputD"] = ctx.constant(int(rest[1].value), i64)
    props = {"kind": up.MMAKindAttr(up.MMAKind(kind.value)), "ctaGroup": up.CTAGroupKindAttr(nvvm.CTAGroupKind.of(group))}
    if collector is not None:
        props["collectorOp"] = collector
    if ashift:
        props["aShift"] = UnitAttr()
    if meta is not None:
        operands["sparseMetadata"] = _tmem(ctx, meta)
    ctx.add((up.Tcgen05MMASparseOp if sparse else up.Tcgen05MMAOp).build_from(operands, props, {}))


def _mma_ws(ctx: FunctionImporter, ins: Instruction) -> None:
    """tcgen05.mma.ws{.sp}.cta_group::1.kind::K{.collector::bN::op} [d], a, b, {[sp-meta],}? idesc,
    enable-input-d {, zero-column-mask}? (9.7.16.10.9: the .ws forms are cta_group::1 only)."""
    kind, sparse, (buffer, usage) = _MMA_WS[ins.opcode]
    ops = list(_operands(ins, (6, 7) if sparse else (5, 6)))
    d, a, b = ops[:3]
    meta = ops[3] if sparse else None
    if meta is not None and not isinstance(meta, Address):
        raise Invalid(f"'{ins.opcode}': the sparsity metadata is a TMEM address [%r]")
    idesc, enable, *zero_columns = ops[4 if sparse else 3:]
    operands: dict[str, SSAValue] = {
        "matrixD": _tmem(ctx, d),
        "matrixA": _tmem(ctx, a) if isinstance(a, Address) else ctx.read(a, i64),
        "matrixB": ctx.read(b, i64),
        "idesc": ctx.read(idesc, i32),
        "enableInputD": ctx.read(enable, i1),
    }
    if meta is not None:
        operands["sparseMetadata"] = _tmem(ctx, meta)
    if zero_columns:
        operands["zeroColMask"] = ctx.read(zero_columns[0], i64)
    props = {"kind": up.MMAKindAttr(up.MMAKind(kind.value)), "collectorBBuffer": buffer, "collectorOp": usage}
    ctx.add((up.Tcgen05MMAWsSparseOp if sparse else up.Tcgen05MMAWsOp).build_from(operands, props, {}))


def _mma_block_scale(ctx: FunctionImporter, ins: Instruction) -> None:
    """tcgen05.mma{.sp}.cta_group::N.kind::K.block_scale{.scale_vec::NX|.blockN}{.collector::a::X}
    [d], a, b, {[sp-meta],}? idesc, [scale-A], [scale-B], enable-input-d (9.7.16.10.9)."""
    kind, group, sparse, scale_vec, collector = _MMA_BLOCK_SCALE[ins.opcode]
    if any(isinstance(o, VectorOperand) for o in ins.operands):
        raise Invalid(f"'{ins.opcode}' takes no disable-output-lane mask (block-scaled kinds)")
    ops = list(_operands(ins, 8 if sparse else 7))
    d, a, b = ops[:3]
    meta = ops[3] if sparse else None
    idesc, sfa, sfb, enable = ops[-4:]
    for what, operand in (("scale-A", sfa), ("scale-B", sfb)):
        if not isinstance(operand, Address):
            raise Invalid(f"'{ins.opcode}': the {what} operand is a TMEM address [%r]")
    operands: dict[str, SSAValue] = {
        "matrixD": _tmem(ctx, d),
        "matrixA": _tmem(ctx, a) if isinstance(a, Address) else ctx.read(a, i64),
        "matrixB": ctx.read(b, i64),
        "idesc": ctx.read(idesc, i32),
        "enableInputD": ctx.read(enable, i1),
        "scaleA": _tmem(ctx, sfa),
        "scaleB": _tmem(ctx, sfb),
    }
    if meta is not None:
        operands["sparseMetadata"] = _tmem(ctx, meta)
    props = {
        "kind": up.MMAKindAttr(up.MMAKind(kind.value)),
        "ctaGroup": up.CTAGroupKindAttr(nvvm.CTAGroupKind.of(group)),
        "blockScale": up.BlockScaleAttr(_BLOCK_SIZE[scale_vec]),
    }
    if collector is not None:
        props["collectorOp"] = collector
    cls = up.Tcgen05MMASparseBlockScaleOp if sparse else up.Tcgen05MMABlockScaleOp
    ctx.add(cls.build_from(operands, props, {}))


# ---- tcgen05.cp, shift, commit ------------------------------------------------------------------

_CP = {
    isa.cp_mnemonic(shape, group, multicast, source): (shape, group, multicast, source)
    for shape in isa.CpShape
    for group in isa.CTA_GROUPS
    for multicast in (None, *isa.CpMulticast)
    for source in (None, *isa.CpSourceFormat)
}  # fmt: skip
_SHIFT = {isa.shift_mnemonic(group): group for group in isa.CTA_GROUPS}
_COMMIT = {
    **{isa.commit_mnemonic(g, mc): (g, mc, 3) for g in isa.CTA_GROUPS for mc in (False, True)},
    # without .shared::cluster the mbarrier address is generic (what ptx_async emits for !llvm.ptr)
    **{isa.commit_mnemonic(g, mc).replace(".shared::cluster", ""): (g, mc, 0) for g in isa.CTA_GROUPS for mc in (False, True)},
}  # fmt: skip


def tcgen05_cp(ctx: FunctionImporter, ins: Instruction) -> None:
    found = _CP.get(ins.opcode)
    if found is None:
        raise _unmodelled(ins)
    shape, group, multicast, source = found
    taddr, desc = _operands(ins, 2)
    ctx.add(up.Tcgen05CpOp(_tmem(ctx, taddr), ctx.read(desc, i64), shape, group, multicast, source))


def tcgen05_shift(ctx: FunctionImporter, ins: Instruction) -> None:
    group = _SHIFT.get(ins.opcode)
    if group is None:
        raise _unmodelled(ins)
    (taddr,) = _operands(ins, 1)
    ctx.add(up.Tcgen05ShiftOp(_tmem(ctx, taddr), group))


def tcgen05_commit(ctx: FunctionImporter, ins: Instruction) -> None:
    found = _COMMIT.get(ins.opcode)
    if found is None:
        raise _unmodelled(ins)
    group, multicast, space = found
    ops = _operands(ins, 2 if multicast else 1)
    mask = ctx.read(ops[1], _I16) if multicast else None
    ctx.add(up.Tcgen05CommitOp(ctx.address(ops[0], space), group, mask))


# ---- mbarrier -----------------------------------------------------------------------------------

_SPACES = {"shared": 3, "shared::cta": 3}
_REMOTE = 7  # .shared::cluster: another CTA's mbarrier, through mapa (arrives only)


def _mbarrier_form(ins: Instruction, allowed: tuple[str, ...]) -> tuple[str, set[str], int]:
    """(operation, qualifiers, address space) of `mbarrier.OP{.quals}{.space}.b64`, the defaults dropped."""
    parts = ins.parts
    if parts[-1] != "b64":
        raise _unmodelled(ins)
    body = parts[1:-1]
    op = body[0]
    rest = body[1:]
    if op in ("arrive", "try_wait", "test_wait") and rest[:1] in (["expect_tx"], ["parity"]):
        op, rest = f"{op}.{rest[0]}", rest[1:]
    space = 0
    quals: set[str] = set()
    for q in rest:
        if q in _SPACES:
            space = _SPACES[q]
        elif q in allowed:
            quals.add(q)
        else:
            raise _unmodelled(ins, f"qualifier .{q}")
    return op, quals, space


def _state(ctx: FunctionImporter, ins: Instruction, operand, op) -> None:
    """An arrive's state destination: `_` discards it."""
    if isinstance(operand, Sink):
        return
    if not isinstance(operand, Reg):
        raise Invalid("the state destination is a .b64 register or '_'")
    ctx.write(operand, op.results[0])


def mbarrier(ctx: FunctionImporter, ins: Instruction) -> None:
    op, quals, space = _mbarrier_form(ins, ("release", "acquire", "relaxed", "cta", "shared::cluster"))
    if "shared::cluster" in quals:
        if op not in ("arrive", "arrive.expect_tx"):
            raise _unmodelled(ins, "qualifier .shared::cluster")
        quals.discard("shared::cluster")
        space = _REMOTE
    if op in ("init", "inval"):
        if quals:
            raise _unmodelled(ins)
        ops = _operands(ins, 2 if op == "init" else 1)
        addr = ctx.address(ops[0], space)
        ctx.add(up.MBarrierInitOp(addr, ctx.read(ops[1], i32)) if op == "init" else up.MBarrierInvalOp(addr))
        return
    if op in ("arrive", "arrive.expect_tx"):
        if quals - {"release", "cta"}:
            raise _unmodelled(ins, "arrive takes the default .release.cta semantics here")
        expect = op == "arrive.expect_tx"
        ops = _operands(ins, 3 if expect else (2, 3))
        state, where = ops[0], ops[1]
        addr = ctx.address(where, space)
        wants = not isinstance(state, Sink)
        if space == _REMOTE and wants:
            raise Invalid("an arrive on a .shared::cluster mbarrier returns no state: its destination is '_'")
        if expect:
            built = up.MBarrierArriveExpectTxOp(addr, ctx.read(ops[2], i32), result=wants)
        else:
            built = up.MBarrierArriveOp(addr, ctx.read(ops[2], i32) if len(ops) == 3 else None, result=wants)
        ctx.add(built)
        _state(ctx, ins, state, built)
        return
    if op in ("try_wait", "try_wait.parity", "test_wait", "test_wait.parity"):
        if quals - {"acquire", "cta"}:
            raise _unmodelled(ins, "the wait takes the default .acquire.cta semantics here")
        parity = op.endswith("parity")
        ops = _operands(ins, (3, 4) if op.startswith("try") else 3)
        dest, where, phase = ops[:3]
        if ins.blocking:  # a try_wait loop (idioms.py): wait until the phase completes; P is then true
            if not parity:
                raise _unmodelled(ins, "a blocking wait on a state token")
            ticks = ctx.read(ops[3], i32) if len(ops) == 4 else ctx.constant(0, i32)
            ctx.add(up.MBarrierTryWaitParityOp(ctx.address(where, space), ctx.read(phase, i32), ticks))
            ctx.write(dest, ctx.constant(1, i1))
            return
        cls = up.MBarrierTryWaitOp if op.startswith("try") else up.MBarrierTestWaitOp
        built = cls(ctx.address(where, space), ctx.read(phase, i32 if parity else i64))
        if len(ops) == 4:
            built = cls.create(operands=[*built.operands, ctx.read(ops[3], i32)], result_types=[i1])
        ctx.add(built)
        ctx.write(dest, built.results[0])
        return
    if op in ("expect_tx", "complete_tx"):
        if quals - {"relaxed", "cta"}:
            raise _unmodelled(ins)
        addr_operand, count = _operands(ins, 2)
        cls = up.MBarrierExpectTxOp if op == "expect_tx" else up.MBarrierCompleteTxOp
        ctx.add(cls(ctx.address(addr_operand, space), ctx.read(count, i32)))
        return
    raise _unmodelled(ins)


# ---- fences and election ------------------------------------------------------------------------

_PROXY = {
    isa.fence_proxy_mnemonic(kind, space): (kind, space)
    for kind in isa.ProxyKind
    for space in ((None,) if kind is not isa.ProxyKind.ASYNC_SHARED else ("cta", "cluster"))
}  # fmt: skip


def fence(ctx: FunctionImporter, ins: Instruction) -> None:
    if ins.opcode == isa.FENCE_MBARRIER_INIT:
        ctx.add(up.FenceMbarrierInitOp())
        return
    found = _PROXY.get(ins.opcode)
    if found is None:
        raise _unmodelled(ins)
    kind, space = found
    ctx.add(up.FenceProxyOp(up.ProxyKind(kind.value), None if space is None else up.SharedSpace(space)))


def elect(ctx: FunctionImporter, ins: Instruction) -> None:
    """elect.sync d|p, membermask: nvvm.elect.sync gives p; the elected lane's id d must be `_` or unread."""
    if ins.opcode != isa.ELECT_SYNC:
        raise _unmodelled(ins)
    lane, mask = _operands(ins, 2)
    if not isinstance(ins.extra, Reg):
        raise Invalid("elect.sync writes d|p: a predicate after '|'")
    if isinstance(lane, Reg) and ctx.is_read(lane.var):
        raise _unmodelled(ins, "the elected lane's id is read; nvvm.elect.sync gives only the predicate")
    full = isinstance(mask, Imm) and int(mask.value) & 0xFFFFFFFF == 0xFFFFFFFF  # (ElectSyncOp() has no mask)
    op = ctx.create(up.ElectSyncOp, [] if full else [ctx.read(mask, i32)], [i1])
    ctx.write(ins.extra, op.results[0])


HANDLERS = {
    "tcgen05.mma": tcgen05_mma, "tcgen05.cp": tcgen05_cp, "tcgen05.shift": tcgen05_shift,
    "tcgen05.commit": tcgen05_commit, "mbarrier": mbarrier, "fence": fence, "elect": elect,
}  # fmt: skip
