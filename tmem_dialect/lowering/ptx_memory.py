"""PTX for memory access: llvm.load/store (vectorized by alignment) and getelementptr."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects import llvm
from xdsl.ir import Attribute, Operation, SSAValue

from tmem_dialect.conventions import (
    GLOBAL_ADDRESS_SPACE,
    PARAM_ADDRESS_SPACE,
    SHARED_ADDRESS_SPACE,
    SHARED_CLUSTER_ADDRESS_SPACE,
    TMEM_ADDRESS_SPACE,
    pointer_address_space,
)
from tmem_dialect.lowering.ptx_values import (
    BYTE_CLASS,
    Address,
    Imm,
    Reg,
    RegClass,
    Unsupported,
    byte_size,
    element_count,
    is_byte,
)

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)

STATE_SPACES = {0: "", GLOBAL_ADDRESS_SPACE: ".global", SHARED_ADDRESS_SPACE: ".shared",
                SHARED_CLUSTER_ADDRESS_SPACE: ".shared::cluster", PARAM_ADDRESS_SPACE: ".param"}
MAX_VECTOR_ACCESS_BYTES = 16  # ld/st .v2/.v4 move at most 128 bits


def state_space(pointer: SSAValue) -> str:
    space = pointer_address_space(pointer.type)
    if space not in STATE_SPACES:
        what = "Tensor Memory is accessed with tcgen05.ld/st only" if space == TMEM_ADDRESS_SPACE else ""
        raise Unsupported(f"loads and stores through !llvm.ptr<{space}> are not supported. {what}".strip())
    return STATE_SPACES[space]


def access_type(em: Emitter, t: Attribute) -> tuple[RegClass, int, str]:
    """(register class, element bytes, ld/st type suffix) of a load or store of `t`: an i8 is
    `.u8` in the low byte of a .b16 register (ld.u8 zero-extends it; st.u8 stores the low byte)."""
    if is_byte(t):
        return BYTE_CLASS, 1, "u8"
    cls = em.class_of(t)
    if cls is RegClass.PRED:
        raise Unsupported("loads and stores of i1 values")
    return cls, cls.bits // 8, f"b{cls.bits}"


def access_chunks(em: Emitter, t: Attribute, alignment: int | None) -> list[tuple[int, int]]:
    """(first element, element count) of each ld/st a load/store of `t` becomes."""
    _, elem_bytes, _ = access_type(em, t)
    n = element_count(t)
    # Without an alignment only the element's own alignment is known.
    align = alignment if alignment is not None else elem_bytes
    width = 1
    for w in (4, 2):
        if w * elem_bytes <= min(align, MAX_VECTOR_ACCESS_BYTES) and n % w == 0:
            width = w
            break
    return [(i, width) for i in range(0, n, width)]


def load(em: Emitter, op: llvm.LoadOp) -> None:
    if op.ordering.value.data != 0:
        raise Unsupported("atomic loads are not supported")
    space = state_space(op.ptr)
    t = op.dereferenced_value.type
    cls, elem_bytes, suffix = access_type(em, t)
    alignment = op.alignment.value.data if op.alignment is not None else None
    chunks = access_chunks(em, t, alignment)
    out = [em.new_reg(cls) for _ in range(element_count(t))]
    em.define(op.dereferenced_value, list(out))
    for first, width in chunks:
        regs = out[first : first + width]
        vec = f".v{width}" if width > 1 else ""
        dst = f"{{{', '.join(map(str, regs))}}}" if width > 1 else str(regs[0])
        em.out(f"ld{space}{vec}.{suffix} {dst}, {em.access_address(op.ptr, first * elem_bytes)};")


def store(em: Emitter, op: llvm.StoreOp) -> None:
    if op.ordering is not None and op.ordering.value.data != 0:
        raise Unsupported("atomic stores are not supported")
    space = state_space(op.ptr)
    volatile = ".volatile" if op.volatile_ is not None else ""
    t = op.value.type
    _, elem_bytes, suffix = access_type(em, t)
    alignment = op.alignment.value.data if op.alignment is not None else None
    for first, width in access_chunks(em, t, alignment):
        if width == 1:
            src = str(em.reg_or_imm(op.value, first))
        else:
            src = "{" + ", ".join(str(em.reg(op.value, first + j)) for j in range(width)) + "}"
        vec = f".v{width}" if width > 1 else ""
        em.out(f"st{volatile}{space}{vec}.{suffix} {em.access_address(op.ptr, first * elem_bytes)}, {src};")


def gep(em: Emitter, op: llvm.GEPOp) -> None:
    indices = tuple(op.rawConstantIndices.iter_values())
    if len(indices) != 1:
        raise Unsupported(f"getelementptr with {len(indices)} indices (the PTX target supports one)")
    if pointer_address_space(op.ptr.type) == TMEM_ADDRESS_SPACE:
        raise Unsupported("getelementptr on a TMEM pointer: compute TMEM addresses as i32")
    size = byte_size(op.elem_type)
    if size is None:
        raise Unsupported(f"getelementptr over {op.elem_type}, which has no PTX layout here")
    base = em.operand(op.ptr)
    if indices[0] != llvm.GEP_USE_SSA_VAL:
        offset = indices[0] * size
    else:
        index = op.ssa_indices[0]
        found = em.operand(index)
        if isinstance(found, Imm):
            offset = found.signed * size
        else:
            scaled = scaled_index(em, em.reg(index), size)
            d = em.new_reg(RegClass.B64)
            em.out(f"add.s64 {d}, {em.reg(op.ptr)}, {scaled};")
            em.define(op.result, [d])
            return
    if isinstance(base, Address):
        em.define(op.result, [Address(RegClass.B64, base.base, base.offset + offset)])
    elif isinstance(base, Reg):
        em.define(op.result, [Address(RegClass.B64, base, offset)] if offset else [base])
    else:
        d = em.new_reg(RegClass.B64)
        em.out(f"add.s64 {d}, {em.reg(op.ptr)}, {offset};")
        em.define(op.result, [d])


def scaled_index(em: Emitter, index: Reg, size: int) -> Reg:
    """index * size as a 64-bit byte offset (getelementptr indices are signed)."""
    if index.cls is RegClass.B32:
        d = em.new_reg(RegClass.B64)
        em.out(f"mul.wide.s32 {d}, {index}, {size};")
        return d
    if index.cls is RegClass.B16:
        wide = em.new_reg(RegClass.B64)
        em.out(f"cvt.s64.s16 {wide}, {index};")
        index = wide
    if index.cls is not RegClass.B64:
        raise Unsupported("getelementptr index must be i16, i32 or i64")
    if size == 1:
        return index
    d = em.new_reg(RegClass.B64)
    if size & (size - 1) == 0:
        em.out(f"shl.b64 {d}, {index}, {size.bit_length() - 1};")
    else:
        em.out(f"mul.lo.s64 {d}, {index}, {size};")
    return d


MEMORY_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    llvm.GEPOp: gep,
    llvm.LoadOp: load,
    llvm.StoreOp: store,
}
