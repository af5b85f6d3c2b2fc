"""Integer, floating-point, logic, compare, select, conversion and bit-field instructions as llvm ops.

Semantics follow the PTX ISA (section 9.7, "Instructions"): shifts clamp amounts at the width,
mul.hi/.wide and mad.hi/.wide compute in twice the width, bfe/bfi/prmt by their pseudocode.
Rounding modes other than round-to-nearest-even, saturation and carry are unmodelled (an error
at the line), not approximated.
"""

from __future__ import annotations

from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i1, i32
from xdsl.ir import Attribute, Operation, SSAValue

from tmem_dialect.dialects import llvm_ext
from tmem_dialect.frontend import types as T
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.syntax import Imm, Instruction

ICMP_SIGNED = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}
ICMP_UNSIGNED = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge",
                 "lo": "ult", "ls": "ule", "hi": "ugt", "hs": "uge"}
FCMP = {"eq": "oeq", "ne": "one", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge",
        "equ": "ueq", "neu": "une", "ltu": "ult", "leu": "ule", "gtu": "ugt", "geu": "uge",
        "num": "ord", "nan": "uno"}
# Modifiers that do not change the result of the instructions that take them.
HARMLESS = {"rn", "lo", "full", "approx_never", "uni", "sync", "aligned"}
ROUNDING = {"rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"}


def v(ctx: FunctionImporter, op: Operation) -> SSAValue:
    return ctx.add(op).results[0]


itype = T.int_type  # (one object per width: see types.int_type)


def instruction_type(ins: Instruction) -> str:
    last = ins.parts[-1]
    if not T.is_type_name(last):
        raise Invalid(f"'{ins.opcode}' needs a type suffix such as .u32")
    return last


def modifiers(ins: Instruction) -> set[str]:
    return set(ins.parts[1:-1])


def reject(ins: Instruction, allowed: set[str]) -> None:
    """Unmodelled for any modifier outside `allowed` (e.g. a rounding mode or .sat)."""
    extra = modifiers(ins) - allowed - HARMLESS
    if extra:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (modifier .{sorted(extra)[0]})")


def operands(ins: Instruction, n: int) -> list:
    if len(ins.operands) != n:
        raise Invalid(f"'{ins.opcode}' takes {n} operands, got {len(ins.operands)}")
    return ins.operands


def arith(ctx: FunctionImporter, cls: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
    """`cls(a, b)`, a binary integer op, added at the instruction (built by ctx.build)."""
    return ctx.build(cls, [a, b], a.type)


@cache
def _predicate(pred: str) -> dict[str, Attribute]:
    return {"predicate": IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), 64)}


def icmp(ctx: FunctionImporter, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
    return ctx.build(llvm.ICmpOp, [a, b], i1, _predicate(pred))


_SELECT = {"fastmathFlags": llvm.FastMathAttr(None)}  # the properties llvm.SelectOp's __init__ gives


def select(ctx: FunctionImporter, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
    return ctx.build(llvm.SelectOp, [c, a, b], a.type, _SELECT)  # type: ignore[arg-type]


def const(ctx: FunctionImporter, value: int, t: Attribute) -> SSAValue:
    return ctx.constant(value, t)


# ---- arithmetic ----------------------------------------------------------------------------

_INT_BINARY = {"add": llvm.AddOp, "sub": llvm.SubOp, "and": llvm.AndOp, "or": llvm.OrOp, "xor": llvm.XOrOp,
               "rem": None, "div": None}
_FLOAT_BINARY = {"add": llvm.FAddOp, "sub": llvm.FSubOp, "mul": llvm.FMulOp, "div": llvm.FDivOp}


# By opcode, once an instruction of it was translated: what the checks and decoding of an integer
# binary / logic / mad.lo instruction give ((type, signed, op class), (type, op class), (type,
# signed)). The checks depend on the opcode alone, so a hit skips them (the operand count is
# still checked); dot.ptx has ~300 such instructions of a few opcodes.
_INTEGER_BINARY: dict[str, tuple[Attribute, bool, type[Operation]]] = {}
_LOGIC: dict[str, tuple[Attribute, type[Operation]]] = {}
_MAD_LO: dict[str, tuple[Attribute, bool]] = {}


def binary(ctx: FunctionImporter, ins: Instruction) -> None:
    form = _INTEGER_BINARY.get(ins.opcode)
    if form is not None:
        d, a, b = operands(ins, 3)
        t, signed, op_type = form
        x, y = ctx.read(a, t, signed), ctx.read(b, t, signed)
        ctx.write(d, arith(ctx, op_type, x, y), signed)
        return
    head = ins.parts[0]
    ptype = instruction_type(ins)
    d, a, b = operands(ins, 3)
    t = T.operand_type(ptype)
    signed = T.is_signed(ptype)
    if T.is_float(t):
        reject(ins, {"ftz"} if head != "div" else {"ftz", "rn"})
        if head == "div" and "rn" not in modifiers(ins) and ptype != "f64":
            raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (div.approx/div.full round differently)")
        op_type = _FLOAT_BINARY[head]
        ctx.write(d, v(ctx, op_type(ctx.read(a, t), ctx.read(b, t))))
        return
    reject(ins, set())
    x, y = ctx.read(a, t, signed), ctx.read(b, t, signed)
    if head in ("div", "rem"):
        op_type = {("div", True): llvm.SDivOp, ("div", False): llvm.UDivOp,
                   ("rem", True): llvm.SRemOp, ("rem", False): llvm.URemOp}[(head, signed)]
    else:
        op_type = _INT_BINARY[head]  # type: ignore[assignment]
    ctx.write(d, arith(ctx, op_type, x, y), signed)
    _INTEGER_BINARY[ins.opcode] = (t, signed, op_type)


def logic(ctx: FunctionImporter, ins: Instruction) -> None:
    """and/or/xor on .b and .pred types (predicate operands may be negated: `!%p`)."""
    form = _LOGIC.get(ins.opcode)
    if form is not None:
        d, a, b = operands(ins, 3)
        t, op_type = form
        ctx.write(d, arith(ctx, op_type, ctx.read(a, t), ctx.read(b, t)))
        return
    head = ins.parts[0]
    ptype = instruction_type(ins)
    d, a, b = operands(ins, 3)
    t = T.operand_type(ptype)
    reject(ins, set())
    ctx.write(d, arith(ctx, _INT_BINARY[head], ctx.read(a, t), ctx.read(b, t)))  # type: ignore[arg-type]
    _LOGIC[ins.opcode] = (t, _INT_BINARY[head])  # type: ignore[assignment]


def unary(ctx: FunctionImporter, ins: Instruction) -> None:
    head = ins.parts[0]
    ptype = instruction_type(ins)
    d, a = operands(ins, 2)
    t = T.operand_type(ptype)
    if T.is_float(t):
        reject(ins, {"ftz"})
        x = ctx.read(a, t)
        if head == "neg":
            ctx.write(d, v(ctx, llvm.FNegOp(x)))
        elif head == "abs":
            ctx.write(d, v(ctx, llvm.FAbsOp(x)))
        else:
            raise Invalid(f"'{ins.opcode}' is not a floating-point instruction")
        return
    reject(ins, set())
    signed = T.is_signed(ptype)
    x = ctx.read(a, t, signed)
    zero = const(ctx, 0, t)
    if head == "not":
        ctx.write(d, arith(ctx, llvm.XOrOp, x, const(ctx, -1 if t != i1 else 1, t)))
    elif head == "cnot":
        ctx.write(d, select(ctx, icmp(ctx, "eq", x, zero), const(ctx, 1, t), zero))
    elif head == "neg":
        ctx.write(d, arith(ctx, llvm.SubOp, zero, x))
    elif head == "abs":
        negated = arith(ctx, llvm.SubOp, zero, x)
        ctx.write(d, select(ctx, icmp(ctx, "slt", x, zero), negated, x))


def min_max(ctx: FunctionImporter, ins: Instruction) -> None:
    head = ins.parts[0]
    ptype = instruction_type(ins)
    d, a, b = operands(ins, 3)
    t = T.operand_type(ptype)
    if T.is_float(t):
        reject(ins, {"ftz"})
        x, y = ctx.read(a, t), ctx.read(b, t)
        # PTX: a NaN operand yields the other operand (NaN only if both are).
        pick = v(ctx, llvm.FCmpOp(x, y, "olt" if head == "min" else "ogt"))
        chosen = select(ctx, pick, x, y)
        x_nan = v(ctx, llvm.FCmpOp(x, x, "uno"))
        ctx.write(d, select(ctx, x_nan, y, chosen))
        return
    reject(ins, set())
    signed = T.is_signed(ptype)
    x, y = ctx.read(a, t, signed), ctx.read(b, t, signed)
    pred = ("s" if signed else "u") + ("lt" if head == "min" else "gt")
    ctx.write(d, select(ctx, icmp(ctx, pred, x, y), x, y), signed)


def _extend(ctx: FunctionImporter, x: SSAValue, t: IntegerType, signed: bool) -> SSAValue:
    return ctx.build(llvm.SExtOp if signed else llvm.ZExtOp, [x], t)


def mul(ctx: FunctionImporter, ins: Instruction) -> None:
    ptype = instruction_type(ins)
    t = T.operand_type(ptype)
    if T.is_float(t):
        binary(ctx, ins)
        return
    d, a, b = operands(ins, 3)
    ctx.write(d, _product(ctx, ins, t, ctx.read(a, t, T.is_signed(ptype)), ctx.read(b, t, T.is_signed(ptype))),
              T.is_signed(ptype))


def _product(ctx: FunctionImporter, ins: Instruction, t: Attribute, x: SSAValue, y: SSAValue) -> SSAValue:
    mods = modifiers(ins)
    reject(ins, {"hi", "wide"})
    signed = T.is_signed(ins.parts[-1])
    width = T.bits(t)
    if "hi" in mods or "wide" in mods:
        wide = itype(2 * width)
        p = arith(ctx, llvm.MulOp, _extend(ctx, x, wide, signed), _extend(ctx, y, wide, signed))
        if "wide" in mods:
            return p
        return v(ctx, llvm.TruncOp(arith(ctx, llvm.LShrOp, p, const(ctx, width, wide)), t))
    return arith(ctx, llvm.MulOp, x, y)


def mad(ctx: FunctionImporter, ins: Instruction) -> None:
    form = _MAD_LO.get(ins.opcode)
    if form is not None:
        d, a, b, c = operands(ins, 4)
        t, signed = form
        p = arith(ctx, llvm.MulOp, ctx.read(a, t, signed), ctx.read(b, t, signed))  # (_product's .lo)
        ctx.write(d, arith(ctx, llvm.AddOp, p, ctx.read(c, p.type, signed)), signed)
        return
    ptype = instruction_type(ins)
    t = T.operand_type(ptype)
    d, a, b, c = operands(ins, 4)
    if T.is_float(t):
        reject(ins, {"ftz", "rn"})
        # mad.f32 on sm_20+ is fma.rn.f32 (PTX ISA, mad: "mad.f32 ... identical to mad.rn.f32").
        ctx.write(d, v(ctx, llvm.FMAOp(ctx.read(a, t), ctx.read(b, t), ctx.read(c, t))))
        return
    signed = T.is_signed(ptype)
    p = _product(ctx, ins, t, ctx.read(a, t, signed), ctx.read(b, t, signed))
    ctx.write(d, arith(ctx, llvm.AddOp, p, ctx.read(c, p.type, signed)), signed)
    if not {"hi", "wide"} & modifiers(ins):
        _MAD_LO[ins.opcode] = (t, signed)


def fma(ctx: FunctionImporter, ins: Instruction) -> None:
    if "rn" not in modifiers(ins):
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (only fma.rn is modelled)")
    mad(ctx, ins)


def shift(ctx: FunctionImporter, ins: Instruction) -> None:
    """shl/shr: the amount is .u32, and amounts past the width clamp to it (PTX ISA 9.7.8.8)."""
    head = ins.parts[0]
    ptype = instruction_type(ins)
    reject(ins, set())
    d, a, b = operands(ins, 3)
    t = T.operand_type(ptype)
    width = T.bits(t)
    signed = head == "shr" and T.is_signed(ptype)
    x = ctx.read(a, t)
    if isinstance(b, Imm):
        amount = min(int(b.value) & 0xFFFFFFFF, width)
        if amount == width:
            result = ctx.constant(0, t) if not signed else arith(ctx, llvm.AShrOp, x, const(ctx, width - 1, t))
        else:
            op_type = llvm.ShlOp if head == "shl" else (llvm.AShrOp if signed else llvm.LShrOp)
            result = arith(ctx, op_type, x, const(ctx, amount, t))
        ctx.write(d, result)
        return
    amount32 = ctx.read(b, i32)
    clamp = icmp(ctx, "ugt", amount32, const(ctx, width - 1, i32))
    if signed:
        limited = select(ctx, clamp, const(ctx, width - 1, i32), amount32)
        ctx.write(d, arith(ctx, llvm.AShrOp, x, ctx.coerce(limited, t)))
        return
    op_type = llvm.ShlOp if head == "shl" else llvm.LShrOp
    safe = select(ctx, clamp, const(ctx, 0, i32), amount32)
    shifted = arith(ctx, op_type, x, ctx.coerce(safe, t))
    ctx.write(d, select(ctx, clamp, const(ctx, 0, t), shifted))


def setp(ctx: FunctionImporter, ins: Instruction) -> None:
    """setp.CmpOp[.BoolOp].type p[|q], a, b[, {!}c]."""
    parts = ins.parts
    ptype = instruction_type(ins)
    t = T.operand_type(ptype)
    cmp = parts[1]
    boolop = parts[2] if len(parts) > 3 and parts[2] in ("and", "or", "xor") else None
    extra = set(parts[2 + (boolop is not None):-1]) - {"ftz"}
    if extra:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    n = 4 if boolop else 3
    ops = operands(ins, n)
    d, a, b = ops[:3]
    if T.is_float(t):
        if cmp not in FCMP:
            raise Invalid(f"unknown floating-point comparison '.{cmp}'")
        r = v(ctx, llvm.FCmpOp(ctx.read(a, t), ctx.read(b, t), FCMP[cmp]))
    else:
        signed = T.is_signed(ptype)
        table = ICMP_SIGNED if signed else ICMP_UNSIGNED
        if cmp not in table:
            raise Invalid(f"comparison '.{cmp}' is not valid for .{ptype}")
        r = icmp(ctx, table[cmp], ctx.read(a, t, signed), ctx.read(b, t, signed))
    results = [r]
    if ins.extra is not None:
        results.append(arith(ctx, llvm.XOrOp, r, const(ctx, 1, i1)))
    if boolop:
        c = ctx.read(ops[3], i1)
        op_type = {"and": llvm.AndOp, "or": llvm.OrOp, "xor": llvm.XOrOp}[boolop]
        results = [arith(ctx, op_type, x, c) for x in results]
    ctx.write(d, results[0])
    if ins.extra is not None:
        ctx.write(ins.extra, results[1])


def selp(ctx: FunctionImporter, ins: Instruction) -> None:
    ptype = instruction_type(ins)
    d, a, b, c = operands(ins, 4)
    t = T.operand_type(ptype)
    ctx.write(d, select(ctx, ctx.read(c, i1), ctx.read(a, t), ctx.read(b, t)))


def cvt(ctx: FunctionImporter, ins: Instruction) -> None:
    """cvt[.rnd][.ftz][.sat].dtype.atype: int widths, int<->float (rn / rzi), float widths (rn)."""
    parts = ins.parts
    if len(parts) < 3 or not T.is_type_name(parts[-1]) or not T.is_type_name(parts[-2]):
        raise Invalid(f"'{ins.opcode}' needs a destination and a source type")
    dtype, atype = parts[-2], parts[-1]
    mods = set(parts[1:-2])
    d, a = operands(ins, 2)
    dt, at = T.operand_type(dtype), T.operand_type(atype)
    x = ctx.read(a, at, T.is_signed(atype))
    d_float, a_float = T.is_float(dt), T.is_float(at)
    if mods - {"rn", "rzi", "ftz"} or ("rzi" in mods and not (a_float and not d_float)):
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    if not d_float and not a_float:
        if T.bits(dt) == T.bits(at):
            result = x
        elif T.bits(dt) < T.bits(at):
            result = v(ctx, llvm.TruncOp(x, dt))
        else:
            result = _extend(ctx, x, dt, T.is_signed(atype))  # type: ignore[arg-type]
        ctx.write(d, result, T.is_signed(dtype))
        return
    if d_float and a_float:
        if dt == at:
            result = x
        elif T.bits(dt) > T.bits(at):
            result = v(ctx, llvm.FPExtOp(x, dt))
        else:
            result = v(ctx, llvm.FPTruncOp(x, dt))
        ctx.write(d, result)
        return
    if d_float:
        op_type = llvm.SIToFPOp if T.is_signed(atype) else llvm_ext.UIToFPOp
        ctx.write(d, v(ctx, op_type(x, dt)))
        return
    if "rzi" not in mods:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (float to integer needs .rzi)")
    op_type = llvm_ext.FPToSIOp if T.is_signed(dtype) else llvm_ext.FPToUIOp
    ctx.write(d, v(ctx, op_type(x, dt)), T.is_signed(dtype))


# ---- bit fields --------------------------------------------------------------------------------


def _min_u(ctx: FunctionImporter, x: SSAValue, limit: int) -> SSAValue:
    c = const(ctx, limit, x.type)
    return select(ctx, icmp(ctx, "ugt", x, c), c, x)


def bfe(ctx: FunctionImporter, ins: Instruction) -> None:
    """bfe.{u,s}{32,64} d, a, pos, len (PTX ISA 9.7.1.15 pseudocode; pos and len are bytes 0 of b, c)."""
    ptype = instruction_type(ins)
    reject(ins, set())
    d, a, b, c = operands(ins, 4)
    t = T.operand_type(ptype)
    n = T.bits(t)
    x = ctx.read(a, t)
    pos = ctx.coerce(arith(ctx, llvm.AndOp, ctx.read(b, i32), const(ctx, 0xFF, i32)), t)
    length = ctx.coerce(arith(ctx, llvm.AndOp, ctx.read(c, i32), const(ctx, 0xFF, i32)), t)
    zero = const(ctx, 0, t)
    pos_c = _min_u(ctx, pos, n - 1)
    past = icmp(ctx, "uge", pos, const(ctx, n, t))
    if not T.is_signed(ptype):
        shifted = select(ctx, past, zero, arith(ctx, llvm.LShrOp, x, pos_c))
        len_c = _min_u(ctx, length, n - 1)
        mask = arith(ctx, llvm.SubOp, arith(ctx, llvm.ShlOp, const(ctx, 1, t), len_c), const(ctx, 1, t))
        full = icmp(ctx, "uge", length, const(ctx, n, t))
        ctx.write(d, select(ctx, full, shifted, arith(ctx, llvm.AndOp, shifted, mask)))
        return
    # signed: sign bit at min(pos+len-1, msb); keep bits pos..min(pos+len,n)-1, sign-extended.
    end = _min_u(ctx, arith(ctx, llvm.AddOp, pos, length), n)  # pos, len <= 255: no overflow
    up = arith(ctx, llvm.SubOp, const(ctx, n, t), end)
    field = arith(ctx, llvm.AShrOp, arith(ctx, llvm.ShlOp, x, _min_u(ctx, up, n - 1)), _min_u(ctx, arith(ctx, llvm.AddOp, up, pos), n - 1))
    all_sign = arith(ctx, llvm.AShrOp, x, const(ctx, n - 1, t))
    result = select(ctx, past, all_sign, field)
    # len == 0: the sign bit is bit pos-1 (clamped to msb), 0 when pos is 0 as well.
    empty = icmp(ctx, "eq", length, zero)
    below = arith(ctx, llvm.SubOp, pos_c, const(ctx, 1, t))
    top_bit = select(ctx, past, const(ctx, n - 1, t), below)
    sign_of_empty = arith(ctx, llvm.AShrOp, arith(ctx, llvm.ShlOp, x, arith(ctx, llvm.SubOp, const(ctx, n - 1, t), top_bit)),
                                       const(ctx, n - 1, t))
    at_zero = icmp(ctx, "eq", pos, zero)
    empty_value = select(ctx, at_zero, zero, sign_of_empty)
    ctx.write(d, select(ctx, empty, empty_value, result))


def bfi(ctx: FunctionImporter, ins: Instruction) -> None:
    """bfi.b{32,64} f, a, b, pos, len: b with bits pos..pos+len-1 replaced by a's low bits."""
    ptype = instruction_type(ins)
    reject(ins, set())
    f, a, b, c, e = operands(ins, 5)
    t = T.operand_type(ptype)
    n = T.bits(t)
    x, y = ctx.read(a, t), ctx.read(b, t)
    pos = ctx.coerce(arith(ctx, llvm.AndOp, ctx.read(c, i32), const(ctx, 0xFF, i32)), t)
    length = ctx.coerce(arith(ctx, llvm.AndOp, ctx.read(e, i32), const(ctx, 0xFF, i32)), t)
    ones = const(ctx, -1, t)
    len_c = _min_u(ctx, length, n - 1)
    low = select(ctx, icmp(ctx, "uge", length, const(ctx, n, t)), ones,
                 arith(ctx, llvm.SubOp, arith(ctx, llvm.ShlOp, const(ctx, 1, t), len_c), const(ctx, 1, t)))
    pos_c = _min_u(ctx, pos, n - 1)
    mask = arith(ctx, llvm.ShlOp, low, pos_c)
    inserted = arith(ctx, llvm.AndOp, arith(ctx, llvm.ShlOp, x, pos_c), mask)
    kept = arith(ctx, llvm.AndOp, y, arith(ctx, llvm.XOrOp, mask, ones))
    merged = arith(ctx, llvm.OrOp, kept, inserted)
    ctx.write(f, select(ctx, icmp(ctx, "uge", pos, const(ctx, n, t)), y, merged))


def prmt(ctx: FunctionImporter, ins: Instruction) -> None:
    """prmt.b32 d, a, b, c (default mode): byte i of d is byte c[4i+2:4i] of {b, a}, sign-replicated if c[4i+3]."""
    if ins.parts[1:] != ["b32"]:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (only the default prmt mode is modelled)")
    d, a, b, c = operands(ins, 4)
    i64t = IntegerType(64)
    both = arith(ctx, llvm.OrOp, arith(ctx, llvm.ShlOp, ctx.read(b, i64t), const(ctx, 32, i64t)), ctx.read(a, i64t))
    if isinstance(c, Imm):
        selectors = [(int(c.value) >> (4 * i)) & 0xF for i in range(4)]
        result = None
        for i, s in enumerate(selectors):
            byte = arith(ctx, llvm.AndOp, arith(ctx, llvm.LShrOp, both, const(ctx, 8 * (s & 7), i64t)), const(ctx, 0xFF, i64t))
            if s & 8:
                sign = arith(ctx, llvm.AndOp, arith(ctx, llvm.LShrOp, byte, const(ctx, 7, i64t)), const(ctx, 1, i64t))
                byte = arith(ctx, llvm.MulOp, sign, const(ctx, 0xFF, i64t))
            placed = arith(ctx, llvm.ShlOp, byte, const(ctx, 8 * i, i64t)) if i else byte
            result = placed if result is None else arith(ctx, llvm.OrOp, result, placed)
        ctx.write(d, v(ctx, llvm.TruncOp(result, i32)))
        return
    sel = ctx.read(c, i32)
    result = None
    for i in range(4):
        s = arith(ctx, llvm.AndOp, arith(ctx, llvm.LShrOp, sel, const(ctx, 4 * i, i32)), const(ctx, 0xF, i32))
        amount = v(ctx, llvm.ZExtOp(arith(ctx, llvm.ShlOp, arith(ctx, llvm.AndOp, s, const(ctx, 7, i32)), const(ctx, 3, i32)), i64t))
        byte = arith(ctx, llvm.AndOp, arith(ctx, llvm.LShrOp, both, amount), const(ctx, 0xFF, i64t))
        sign = arith(ctx, llvm.AndOp, arith(ctx, llvm.LShrOp, byte, const(ctx, 7, i64t)), const(ctx, 1, i64t))
        replicate = icmp(ctx, "ne", arith(ctx, llvm.AndOp, s, const(ctx, 8, i32)), const(ctx, 0, i32))
        byte = select(ctx, replicate, arith(ctx, llvm.MulOp, sign, const(ctx, 0xFF, i64t)), byte)
        placed = arith(ctx, llvm.ShlOp, byte, const(ctx, 8 * i, i64t)) if i else byte
        result = placed if result is None else arith(ctx, llvm.OrOp, result, placed)
    ctx.write(d, v(ctx, llvm.TruncOp(result, i32)))


def _int_or_float(ctx: FunctionImporter, ins: Instruction) -> None:
    head = ins.parts[0]
    if head in ("and", "or", "xor"):
        logic(ctx, ins)
    else:
        binary(ctx, ins)


HANDLERS = {
    "add": _int_or_float, "sub": _int_or_float, "div": binary, "rem": binary,
    "and": logic, "or": logic, "xor": logic,
    "not": unary, "cnot": unary, "neg": unary, "abs": unary,
    "min": min_max, "max": min_max,
    "mul": mul, "mad": mad, "fma": fma,
    "shl": shift, "shr": shift,
    "setp": setp, "selp": selp, "cvt": cvt,
    "bfe": bfe, "bfi": bfi, "prmt": prmt,
}  # fmt: skip

