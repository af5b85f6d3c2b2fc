"""PTX for the llvm value ops: constants, integer arithmetic and compares, select, casts, vector elements.

Each handler takes the function emitter (ptx_emitter._FunctionEmitter) and one op. Constant operands
fold: an op on constants defines a constant, emitting nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType
from xdsl.ir import Operation

from tmem_dialect.conventions import (
    GLOBAL_ADDRESS_SPACE,
    PARAM_ADDRESS_SPACE,
    SHARED_ADDRESS_SPACE,
    SHARED_CLUSTER_ADDRESS_SPACE,
    pointer_address_space,
)
from tmem_dialect.dialects import llvm_ext
from tmem_dialect.lowering.ptx_values import (
    BYTE_CLASS,
    Address,
    Imm,
    Operand,
    Reg,
    RegClass,
    Undef,
    Unsupported,
    element_count,
    element_type,
    float_imm,
    int_imm,
    is_byte,
    is_float,
)

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)


ICMP_PTX = {
    "eq": "eq", "ne": "ne",
    "slt": "lt", "sle": "le", "sgt": "gt", "sge": "ge",
    "ult": "lt", "ule": "le", "ugt": "gt", "uge": "ge",
}  # fmt: skip
ICMP_SWAPPED = {
    "eq": "eq", "ne": "ne",
    "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
    "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule",
}  # fmt: skip

# icmp on i1: predicate -> (and/or, which operand is negated). Unsigned i1 is {0, 1}, signed {0, -1}.
I1_ORDER = {
    "ult": ("and", 0), "ule": ("or", 0), "ugt": ("and", 1), "uge": ("or", 1),
    "slt": ("and", 1), "sle": ("or", 1), "sgt": ("and", 0), "sge": ("or", 0),
}  # fmt: skip

# llvm binary op -> (PTX mnemonic pattern with {s}/{u}/{b} + width, commutative)
BINARY_OPS: dict[type[Operation], tuple[str, bool]] = {
    llvm.AddOp: ("add.s{w}", True),
    llvm.SubOp: ("sub.s{w}", False),
    llvm.MulOp: ("mul.lo.s{w}", True),
    llvm.UDivOp: ("div.u{w}", False),
    llvm.SDivOp: ("div.s{w}", False),
    llvm.URemOp: ("rem.u{w}", False),
    llvm.SRemOp: ("rem.s{w}", False),
    llvm.AndOp: ("and.b{w}", True),
    llvm.OrOp: ("or.b{w}", True),
    llvm.XOrOp: ("xor.b{w}", True),
    llvm.ShlOp: ("shl.b{w}", False),
    llvm.LShrOp: ("shr.u{w}", False),
    llvm.AShrOp: ("shr.s{w}", False),
}
CVTA = {
    (SHARED_ADDRESS_SPACE, 0): "cvta.shared.u64", (0, SHARED_ADDRESS_SPACE): "cvta.to.shared.u64",
    (GLOBAL_ADDRESS_SPACE, 0): "cvta.global.u64", (0, GLOBAL_ADDRESS_SPACE): "cvta.to.global.u64",
    (SHARED_CLUSTER_ADDRESS_SPACE, 0): "cvta.shared::cluster.u64",
    (0, SHARED_CLUSTER_ADDRESS_SPACE): "cvta.to.shared::cluster.u64",
    (PARAM_ADDRESS_SPACE, 0): "cvta.param.u64", (0, PARAM_ADDRESS_SPACE): "cvta.to.param.u64",
}  # fmt: skip
PREDICATE_OPS = {llvm.AndOp: "and.pred", llvm.OrOp: "or.pred", llvm.XOrOp: "xor.pred"}
SHIFT_OPS = (llvm.ShlOp, llvm.LShrOp, llvm.AShrOp)


# ---- constants ------------------------------------------------------------------------------


def constant(em: Emitter, op: llvm.ConstantOp) -> None:
    t = op.result.type
    if t == IntegerType(8) and isinstance(op.value, IntegerAttr):
        # i8 constants (the descriptor fields of nvvm.tcgen05.mma_smem_desc, bytes st.u8 stores)
        # live in the low byte of a 16-bit register when one is needed (ptx_values.BYTE_CLASS)
        em.define(op.result, [int_imm(BYTE_CLASS, op.value.value.data & 0xFF)])
        return
    cls = em.class_of(t)
    attr = op.value
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        if len(values) != element_count(t):
            raise Unsupported(f"dense constant has {len(values)} elements for type {t}")
    else:
        values = [attr.value.data]  # type: ignore[union-attr]
    elem = element_type(t)
    if is_float(elem):
        em.define(op.result, [float_imm(elem, float(v)) for v in values])
    else:
        em.define(op.result, [int_imm(cls, int(v)) for v in values])


def undefined(em: Emitter, op: Operation) -> None:
    t = op.results[0].type
    cls = em.class_of(t)
    em.define(op.results[0], [Undef(cls) for _ in range(element_count(t))])


def zero(em: Emitter, op: llvm.ZeroOp) -> None:
    t = op.res.type
    cls = em.class_of(t)
    em.define(op.res, [int_imm(cls, 0) for _ in range(element_count(t))])


def address_of(em: Emitter, op: llvm.AddressOfOp) -> None:
    name = op.global_name.root_reference.data
    glob = em.module.globals.get(name)
    if glob is None:
        raise Unsupported(f"@{name} is not an llvm.mlir.global of this module")
    if pointer_address_space(op.result.type) != glob.addr_space.value.data:
        raise Unsupported(f"result type {op.result.type} does not match the address space of @{name}")
    em.define(op.result, [Address(RegClass.B64, em.module.symbol(name))])


# ---- integer arithmetic ---------------------------------------------------------------------


def binary(em: Emitter, op: Operation) -> None:
    lhs, rhs = op.operands
    result = op.results[0]
    cls = em.class_of(result.type)
    if isinstance(element_type(result.type), IntegerType) is False:
        raise Unsupported(f"integer arithmetic on {result.type}")
    if cls is RegClass.PRED:
        mnemonic = PREDICATE_OPS.get(type(op))
        if mnemonic is None:
            raise Unsupported("i1 operands are supported by and/or/xor only")
        commutative = True
    else:
        pattern, commutative = BINARY_OPS[type(op)]
        mnemonic = pattern.format(w=cls.bits)
    if all(isinstance(x, Imm) for x in (*em.operands(lhs), *em.operands(rhs))):
        folded = [
            fold_binary(type(op), cls, a, b)  # type: ignore[arg-type]
            for a, b in zip(em.operands(lhs), em.operands(rhs))
        ]
        if all(f is not None for f in folded):
            em.define(result, folded)  # type: ignore[arg-type]
            return
    out = em.fresh(result)
    for i, d in enumerate(out):
        a, b = em.operand(lhs, i), em.operand(rhs, i)
        if isinstance(a, Imm) and commutative and not isinstance(b, Imm):
            a_text: Reg | Imm = em.reg(rhs, i)
            b_op: Reg | Imm = a
        else:
            a_text = em.reg(lhs, i)
            b_op = em.reg_or_imm(rhs, i)
        if cls is RegClass.PRED and isinstance(b_op, Imm):
            b_op = em.as_reg(b_op)
        if isinstance(op, SHIFT_OPS) and isinstance(b_op, Reg) and cls is not RegClass.B32:
            amount = em.new_reg(RegClass.B32)
            em.out(f"cvt.u32.u{cls.bits} {amount}, {b_op};")
            b_op = amount
        em.out(f"{mnemonic} {d}, {a_text}, {b_op};")


def icmp(em: Emitter, op: llvm.ICmpOp) -> None:
    predicate = llvm.ICmpPredicateFlag.from_int(op.predicate.value.data).value
    cls = em.class_of(op.lhs.type)
    out = em.fresh(op.res)
    for i, d in enumerate(out):
        a, b = em.operand(op.lhs, i), em.operand(op.rhs, i)
        pred = predicate
        if isinstance(a, Imm) and not isinstance(b, Imm):
            lhs_op: Reg | Imm = em.reg(op.rhs, i)
            rhs_op: Reg | Imm = a
            pred = ICMP_SWAPPED[predicate]
        else:
            lhs_op, rhs_op = em.reg(op.lhs, i), em.reg_or_imm(op.rhs, i)
        if cls is RegClass.PRED:
            rhs_reg = em.as_reg(rhs_op)
            if pred == "ne":
                em.out(f"xor.pred {d}, {lhs_op}, {rhs_reg};")
                continue
            tmp = em.new_reg(RegClass.PRED)
            if pred == "eq":
                em.out(f"xor.pred {tmp}, {lhs_op}, {rhs_reg};")
                em.out(f"not.pred {d}, {tmp};")
                continue
            # i1 as unsigned is {0, 1}, as signed {0, -1}: each order is one operand negated
            # and combined with the other (ult: !a & b, ule: !a | b, ...).
            combine, negated = I1_ORDER[pred]
            a, b = (lhs_op, rhs_reg) if negated == 0 else (rhs_reg, lhs_op)
            em.out(f"not.pred {tmp}, {a};")
            em.out(f"{combine}.pred {d}, {tmp}, {b};")
            continue
        kind = "b" if pred in ("eq", "ne") else pred[0]
        em.out(f"setp.{ICMP_PTX[pred]}.{kind}{cls.bits} {d}, {lhs_op}, {rhs_op};")


def select(em: Emitter, op: llvm.SelectOp) -> None:
    cls = em.class_of(op.res.type)
    cond = em.operand(op.cond)
    if isinstance(cond, Imm):
        em.define(op.res, list(em.operands(op.lhs if cond.bits & 1 else op.rhs)))
        return
    c = em.reg(op.cond)
    out = em.fresh(op.res)
    for i, d in enumerate(out):
        if cls is RegClass.PRED:
            a, b = em.reg(op.lhs, i), em.reg(op.rhs, i)
            t1, t2, nc = em.new_reg(cls), em.new_reg(cls), em.new_reg(cls)
            em.out(f"and.pred {t1}, {c}, {a};")
            em.out(f"not.pred {nc}, {c};")
            em.out(f"and.pred {t2}, {nc}, {b};")
            em.out(f"or.pred {d}, {t1}, {t2};")
            continue
        em.out(f"selp.b{cls.bits} {d}, {em.reg_or_imm(op.lhs, i)}, {em.reg_or_imm(op.rhs, i)}, {c};")


# ---- casts ----------------------------------------------------------------------------------


def int_cast(em: Emitter, op: Operation) -> None:
    (arg,) = op.operands
    result = op.results[0]
    if is_byte(arg.type) or is_byte(result.type):
        byte_cast(em, op)
        return
    src_cls, dst_cls = em.class_of(arg.type), em.class_of(result.type)
    signed = isinstance(op, llvm.SExtOp)
    operands: list[Operand] = []
    for i in range(element_count(result.type)):
        src = em.operand(arg, i)
        if isinstance(src, Imm):
            value = src.signed if signed else src.bits
            operands.append(int_imm(dst_cls, value if not (src_cls is RegClass.PRED and signed) else -value))
            continue
        if isinstance(src, Undef):
            operands.append(Undef(dst_cls))
            continue
        operands.append(convert(em, em.reg(arg, i), src_cls, dst_cls, signed))
    em.define(result, operands)


def byte_cast(em: Emitter, op: Operation) -> None:
    """zext/sext from i8 and trunc to i8 (ptx_values.BYTE_CLASS): cvt reads the low byte of the
    .b16 register and extends it; a trunc to i8 keeps the low 16 bits (cvt.u16), whose low byte is
    the i8 every consumer reads."""
    (arg,) = op.operands
    result = op.results[0]
    src_byte, dst_byte = is_byte(arg.type), is_byte(result.type)
    src_cls = BYTE_CLASS if src_byte else em.class_of(arg.type)
    dst_cls = BYTE_CLASS if dst_byte else em.class_of(result.type)
    if RegClass.PRED in (src_cls, dst_cls):
        raise Unsupported("casts between i1 and i8")
    signed = isinstance(op, llvm.SExtOp)
    operands: list[Operand] = []
    for i in range(element_count(result.type)):
        src = em.operand(arg, i)
        if isinstance(src, Imm):
            low = src.bits & 0xFF if src_byte else src.bits
            operands.append(int_imm(dst_cls, (low - 256 if signed and low >> 7 else low) if src_byte else low))
            continue
        if isinstance(src, Undef):
            operands.append(Undef(dst_cls))
            continue
        d = em.new_reg(dst_cls)
        if src_byte and dst_byte:
            em.out(f"mov.b16 {d}, {em.reg(arg, i)};")
        elif src_byte:
            s = "s" if signed else "u"
            em.out(f"cvt.{s}{dst_cls.bits}.{s}8 {d}, {em.reg(arg, i)};")
        elif src_cls is RegClass.B16:
            em.out(f"mov.b16 {d}, {em.reg(arg, i)};")
        else:
            em.out(f"cvt.u16.u{src_cls.bits} {d}, {em.reg(arg, i)};")
        operands.append(d)
    em.define(result, operands)


def convert(em: Emitter, src: Reg, src_cls: RegClass, dst_cls: RegClass, signed: bool) -> Reg:
    if src_cls is dst_cls:
        return src
    d = em.new_reg(dst_cls)
    if src_cls is RegClass.PRED:
        em.out(f"selp.b{dst_cls.bits} {d}, {-1 if signed else 1}, 0, {src};")
    elif dst_cls is RegClass.PRED:
        low = em.new_reg(src_cls)
        em.out(f"and.b{src_cls.bits} {low}, {src}, 1;")
        em.out(f"setp.ne.b{src_cls.bits} {d}, {low}, 0;")
    else:
        s = "s" if signed and dst_cls.bits > src_cls.bits else "u"
        em.out(f"cvt.{s}{dst_cls.bits}.{s}{src_cls.bits} {d}, {src};")
    return d


def pointer_cast(em: Emitter, op: Operation) -> None:
    (arg,) = op.operands
    result = op.results[0]
    src_cls, dst_cls = em.class_of(arg.type), em.class_of(result.type)
    src = em.operand(arg)
    if src_cls is dst_cls:
        em.define(result, [src if not isinstance(src, Address) else Address(dst_cls, src.base, src.offset)])
        return
    if isinstance(src, Imm):
        em.define(result, [int_imm(dst_cls, src.bits)])
        return
    em.define(result, [convert(em, em.reg(arg), src_cls, dst_cls, signed=False)])


def addrspacecast(em: Emitter, op: llvm_ext.AddrSpaceCastOp) -> None:
    """Between generic and shared, global or param pointers: cvta (what the PTX front end reads it from)."""
    spaces = (pointer_address_space(op.arg.type), pointer_address_space(op.result.type))
    if spaces == (SHARED_ADDRESS_SPACE, SHARED_CLUSTER_ADDRESS_SPACE):
        # a shared::cta address is the executing CTA's shared::cluster address (PTX ISA
        # "Shared State Space"): the same value
        em.define(op.result, list(em.operands(op.arg)))
        return
    mnemonic = CVTA.get(spaces)  # type: ignore[arg-type]
    if mnemonic is None:
        raise Unsupported(f"address space cast from {op.arg.type} to {op.result.type}")
    d = em.new_reg(RegClass.B64)
    em.out(f"{mnemonic} {d}, {em.reg(op.arg)};")
    em.define(op.result, [d])


def bitcast(em: Emitter, op: llvm.BitcastOp) -> None:
    src_t, dst_t = op.arg.type, op.result.type
    src_cls, dst_cls = em.class_of(src_t), em.class_of(dst_t)
    if RegClass.PRED in (src_cls, dst_cls):
        raise Unsupported("bitcast of i1 values")
    n_src, n_dst = element_count(src_t), element_count(dst_t)
    if src_cls.bits * n_src != dst_cls.bits * n_dst:
        raise Unsupported(f"bitcast from {src_t} to {dst_t} changes the size")
    srcs = em.operands(op.arg)
    if src_cls is dst_cls:
        em.define(op.result, list(srcs))
        return
    out: list[Operand] = []
    if src_cls.bits < dst_cls.bits:
        k = dst_cls.bits // src_cls.bits
        for j in range(n_dst):
            group = srcs[j * k : (j + 1) * k]
            if all(isinstance(s, Imm) for s in group):
                bits = sum((s.bits << (src_cls.bits * n)) for n, s in enumerate(group))  # type: ignore[union-attr]
                out.append(Imm(dst_cls, bits))
                continue
            d = em.new_reg(dst_cls)
            parts = ", ".join(str(em.reg(op.arg, j * k + n)) for n in range(k))
            em.out(f"mov.b{dst_cls.bits} {d}, {{{parts}}};")
            out.append(d)
    else:
        k = src_cls.bits // dst_cls.bits
        for j in range(n_src):
            s = srcs[j]
            if isinstance(s, Imm):
                mask = (1 << dst_cls.bits) - 1
                out.extend(Imm(dst_cls, (s.bits >> (dst_cls.bits * n)) & mask) for n in range(k))
                continue
            parts = [em.new_reg(dst_cls) for _ in range(k)]
            em.out(f"mov.b{src_cls.bits} {{{', '.join(map(str, parts))}}}, {em.reg(op.arg, j)};")
            out.extend(parts)
    em.define(op.result, out)


# ---- vectors --------------------------------------------------------------------------------


def insert_element(em: Emitter, op: llvm.InsertElementOp) -> None:
    elements = list(em.operands(op.vector))
    position = em.operand(op.index)
    if isinstance(position, Imm):
        index = position.bits
        if index >= len(elements):
            raise Unsupported(f"position {index} is outside {op.vector.type}")
        elements[index] = em.operand(op.value)
        em.define(op.res, elements)
        return
    cls = em.class_of(op.res.type)
    index_cls = em.class_of(op.index.type)
    value = em.reg_or_imm(op.value)
    out: list[Operand] = []
    for j in range(len(elements)):
        hit = em.new_reg(RegClass.PRED)
        em.out(f"setp.eq.b{index_cls.bits} {hit}, {em.reg(op.index)}, {j};")
        d = em.new_reg(cls)
        em.out(f"selp.b{cls.bits} {d}, {value}, {em.reg_or_imm(op.vector, j)}, {hit};")
        out.append(d)
    em.define(op.res, out)


def extract_element(em: Emitter, op: llvm_ext.ExtractElementOp) -> None:
    elements = em.operands(op.vector)
    position = em.operand(op.position)
    if isinstance(position, Imm):
        index = position.bits
        if index >= len(elements):
            raise Unsupported(f"position {index} is outside {op.vector.type}")
        em.define(op.res, [elements[index]])
        return
    cls = em.class_of(op.res.type)
    index_cls = em.class_of(op.position.type)
    current: Reg | Imm = em.reg_or_imm(op.vector, 0)
    for j in range(1, len(elements)):
        hit = em.new_reg(RegClass.PRED)
        em.out(f"setp.eq.b{index_cls.bits} {hit}, {em.reg(op.position)}, {j};")
        d = em.new_reg(cls)
        em.out(f"selp.b{cls.bits} {d}, {em.reg_or_imm(op.vector, j)}, {current}, {hit};")
        current = d
    em.define(op.res, [current])


def shuffle(em: Emitter, op: llvm.ShuffleVectorOp) -> None:
    cls = em.class_of(op.res.type)
    first, second = em.operands(op.v1), em.operands(op.v2)
    both = [*first, *second]
    out: list[Operand] = []
    for m in op.mask.iter_values():
        out.append(Undef(cls) if m < 0 else both[m])
    em.define(op.res, out)


def fold_binary(kind: type[Operation], cls: RegClass, a: Imm, b: Imm) -> Imm | None:
    """The constant result of an integer op on two constants (None: leave it to the instruction)."""
    width = cls.bits
    mask = (1 << width) - 1
    ua, ub, sa, sb = a.bits & mask, b.bits & mask, a.signed, b.signed
    if kind in (llvm.UDivOp, llvm.URemOp, llvm.SDivOp, llvm.SRemOp) and ub == 0:
        return None  # undefined: let the instruction do what the hardware does
    if kind in SHIFT_OPS and ub >= width:
        return None
    value = {
        llvm.AddOp: lambda: ua + ub,
        llvm.SubOp: lambda: ua - ub,
        llvm.MulOp: lambda: ua * ub,
        llvm.UDivOp: lambda: ua // ub,
        llvm.URemOp: lambda: ua % ub,
        llvm.SDivOp: lambda: _truncating_div(sa, sb),
        llvm.SRemOp: lambda: sa - _truncating_div(sa, sb) * sb,
        llvm.AndOp: lambda: ua & ub,
        llvm.OrOp: lambda: ua | ub,
        llvm.XOrOp: lambda: ua ^ ub,
        llvm.ShlOp: lambda: ua << ub,
        llvm.LShrOp: lambda: ua >> ub,
        llvm.AShrOp: lambda: sa >> ub,
    }[kind]()
    return int_imm(cls, value)


def _truncating_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


ARITH_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    llvm.ConstantOp: constant,
    llvm_ext.PoisonOp: undefined,
    llvm.UndefOp: undefined,
    llvm.ZeroOp: zero,
    llvm.AddressOfOp: address_of,
    **{t: binary for t in BINARY_OPS},
    llvm.ICmpOp: icmp,
    llvm.SelectOp: select,
    llvm.ZExtOp: int_cast,
    llvm.SExtOp: int_cast,
    llvm.TruncOp: int_cast,
    llvm.IntToPtrOp: pointer_cast,
    llvm.PtrToIntOp: pointer_cast,
    llvm.BitcastOp: bitcast,
    llvm_ext.AddrSpaceCastOp: addrspacecast,
    llvm.InsertElementOp: insert_element,
    llvm_ext.ExtractElementOp: extract_element,
    llvm.ShuffleVectorOp: shuffle,
}
