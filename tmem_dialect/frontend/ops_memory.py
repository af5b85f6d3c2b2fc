"""mov, ld, st and cvta: registers, parameters, global/shared/generic memory (scalar and .v2/.v4/.v8)."""

from __future__ import annotations

from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, UnitAttr, VectorType, i32, i64
from xdsl.ir import Attribute, SSAValue

from tmem_dialect.conventions import PARAM_ADDRESS_SPACE
from tmem_dialect.dialects import llvm_ext
from tmem_dialect.frontend import types as T
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.syntax import Address, Instruction, Reg, Symbol, VectorOperand

# .param is .param::entry in a kernel and .param::func in a device function (PTX ISA 9.7.9.8 ld)
SPACES = {"global": 1, "shared": 3, "shared::cta": 3, "shared::cluster": 7, "local": 5, "const": 4, "param": None,
          "param::entry": None, "param::func": None}
# Cache and eviction hints: they change performance, not values.
HINT_PREFIXES = ("ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "L1::", "L2::", "level::")
VECTORS = {"v2": 2, "v4": 4, "v8": 8}


def v(ctx: FunctionImporter, op) -> SSAValue:
    return ctx.add(op).results[0]


# The ops below are built by `ctx.create` with the properties their __init__ gives them: an op's
# __init__ rebuilds its argument lists and attributes on every call, most of an access's import.


@cache
def _i64(n: int) -> IntegerAttr:
    return IntegerAttr(n, i64)


def load(ctx: FunctionImporter, ptr: SSAValue, t: Attribute, alignment: int) -> SSAValue:
    """`llvm_ext.LoadOp(ptr, t, alignment=alignment)`, added at the instruction."""
    properties = {"ordering": _i64(0), "alignment": _i64(alignment)}
    (value,) = ctx.create(llvm_ext.LoadOp, [ptr], [t], properties).results  # (SSAValues' [] is Python code)
    return value


def store(ctx: FunctionImporter, value: SSAValue, ptr: SSAValue, alignment: int, volatile: bool) -> None:
    """`llvm_ext.StoreOp(value, ptr, alignment=alignment, volatile=volatile)`, added at the instruction."""
    properties: dict[str, Attribute] = {"ordering": _i64(0), "alignment": _i64(alignment)}
    if volatile:
        properties["volatile_"] = UnitAttr()
    ctx.create(llvm_ext.StoreOp, [value, ptr], [], properties)


def build_vector(ctx: FunctionImporter, values: list[SSAValue], element: Attribute) -> SSAValue:
    vector_type = T.vector_type(element, len(values))
    vec = ctx.undefined(vector_type)
    for i, x in enumerate(values):
        (vec,) = ctx.create(llvm.InsertElementOp, [vec, x, ctx.constant(i, i32)], [vector_type]).results
    return vec


def split_vector(ctx: FunctionImporter, vec: SSAValue, count: int) -> list[SSAValue]:
    element = vec.type.get_element_type()  # type: ignore[attr-defined]
    return [ctx.create(llvm_ext.ExtractElementOp, [vec, ctx.constant(i, i32)], [element]).results[0]
            for i in range(count)]


def mov(ctx: FunctionImporter, ins: Instruction) -> None:
    if len(ins.parts) != 2 or not T.is_type_name(ins.parts[1]):
        raise Invalid(f"'{ins.opcode}' needs one type suffix such as .u32")
    if len(ins.operands) != 2:
        raise Invalid(f"'{ins.opcode}' takes 2 operands")
    ptype = ins.parts[1]
    t = T.operand_type(ptype)
    d, a = ins.operands
    if isinstance(a, VectorOperand):  # pack: mov.b64 %rd, {%r1, %r2}
        n = len(a.elements)
        element = T.int_type(T.bits(t) // n)
        parts = [ctx.read(e, element) if e is not None else ctx.undefined(element) for e in a.elements]
        ctx.write(d, v(ctx, llvm.BitcastOp(build_vector(ctx, parts, element), t)))
        return
    if isinstance(d, VectorOperand):  # unpack: mov.b64 {%r1, %r2}, %rd
        n = len(d.elements)
        element = T.int_type(T.bits(t) // n)
        vec = v(ctx, llvm.BitcastOp(ctx.read(a, T.int_type(T.bits(t))), T.vector_type(element, n)))
        for e, x in zip(d.elements, split_vector(ctx, vec, n)):
            if e is not None:
                ctx.write(e, x)
        return
    ctx.write(d, ctx.read(a, t))


_ACCESSES: dict[str, tuple[int | None, str, int, bool]] = {}  # by opcode (the valid ones)


def parse_access(ins: Instruction) -> tuple[int | None, str, int, bool]:
    """(address space, type, vector length, volatile) of ld/st; param -> None, generic -> 0."""
    found = _ACCESSES.get(ins.opcode)
    if found is None:
        found = _ACCESSES[ins.opcode] = _parse_access(ins)
    return found


def _parse_access(ins: Instruction) -> tuple[int | None, str, int, bool]:
    space: int | None = 0
    vector = 1
    volatile = False
    for part in ins.parts[1:-1]:
        if part in SPACES:
            space = SPACES[part]
        elif part in VECTORS:
            vector = VECTORS[part]
        elif part == "volatile":
            volatile = True
        elif part == "weak" or part.startswith(HINT_PREFIXES):
            continue
        else:
            raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (modifier .{part})")
    ptype = ins.parts[-1]
    if not T.is_type_name(ptype):
        raise Invalid(f"'{ins.opcode}' needs a type suffix such as .b32")
    return space, ptype, vector, volatile


def _elements(operand, vector: int) -> list:
    if vector == 1:
        if isinstance(operand, VectorOperand):  # `{ %r }`, as Triton's inline asm writes a scalar access
            if len(operand.elements) != 1:
                raise Invalid("a vector operand needs a .v2/.v4 access")
            return operand.elements
        return [operand]
    if not isinstance(operand, VectorOperand) or len(operand.elements) != vector:
        raise Invalid(f"a .v{vector} access takes a vector operand of {vector} registers")
    return operand.elements


def ld(ctx: FunctionImporter, ins: Instruction) -> None:
    space, ptype, vector, _ = parse_access(ins)
    if len(ins.operands) != 2:
        raise Invalid(f"'{ins.opcode}' takes a destination and an address")
    d, a = ins.operands
    t = T.storage_type(ptype)
    signed = T.is_signed(ptype)
    size = T.bits(t) // 8
    dests = _elements(d, vector)
    if vector == 1:
        d = dests[0]
    if space is None and _param_variable(a) is not None:  # a call's return value, read back
        var = _param_variable(a)
        if vector != 1 or a.offset or var.count is not None:  # type: ignore[union-attr]
            raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (a part of a .param variable)")
        if d is not None:
            ctx.write(d, ctx.coerce(ctx.ssa.read(ctx.current, var), t), signed)
        return
    if space is None and isinstance(a, Address) and isinstance(a.base, Reg):
        space = PARAM_ADDRESS_SPACE  # through a parameter's address (`mov %r, p`, PTX ISA 5.1.6.1)
    if space is None:
        for k, e in enumerate(dests):
            if e is not None:
                ctx.write(e, ld_param(ctx, a, t, k * size, signed), signed)
        return
    ptr = ctx.address(a, space)
    if vector == 1:
        if d is not None:
            ctx.write(d, load(ctx, ptr, t, size), signed)
        return
    vec = load(ctx, ptr, VectorType(t, [vector]), size * vector)
    for e, x in zip(dests, split_vector(ctx, vec, vector)):
        if e is not None:
            ctx.write(e, x, signed)


def ld_param(ctx: FunctionImporter, a, t: Attribute, skip: int = 0, signed: bool = False) -> SSAValue:
    """The parameter (byval field) `[name+offset]` plus `skip` bytes, as type `t`."""
    if not isinstance(a, Address) or not isinstance(a.base, Symbol):
        raise Invalid("ld.param takes a parameter name: [name]")
    value = ctx.param_value(a.base.name, a.offset + skip)
    if isinstance(value.type, llvm.LLVMPointerType) and (a.base.name, a.offset + skip) not in ctx.field_values \
            and ctx.params[a.base.name].count is not None:  # an address-taken byval parameter: its bytes
        ptr = value
        if a.offset + skip:
            ptr = v(ctx, llvm.GEPOp(ptr, [a.offset + skip], IntegerType(8), result_type=ptr.type))  # type: ignore[arg-type]
        return load(ctx, ptr, t, T.bits(t) // 8)
    if isinstance(value.type, llvm.LLVMPointerType):
        value = ctx.pointer_as_int(value)
    if (a.base.name, a.offset + skip) in ctx.field_values:
        if T.bits(t) == 8:  # a byte field's argument is an i16: its low byte, extended (no i8 registers)
            i16 = IntegerType(16)
            if signed:
                eight = ctx.constant(8, i16)
                return v(ctx, llvm.AShrOp(v(ctx, llvm.ShlOp(value, eight)), eight))
            return v(ctx, llvm.AndOp(value, ctx.constant(255, i16)))
        return ctx.coerce(value, t)
    if T.bits(value.type) != T.bits(t):
        raise Invalid(f"ld.param of .{T.bits(t)} bits from a {T.bits(value.type)}-bit parameter")
    return ctx.coerce(value, t)


def _param_variable(a):  # type: ignore[no-untyped-def]
    """The `.param` variable `[name]` names (a call sequence's or a return value), or None."""
    if isinstance(a, Address) and isinstance(a.base, Reg) and a.base.var.param:
        return a.base.var
    return None


def st(ctx: FunctionImporter, ins: Instruction) -> None:
    space, ptype, vector, volatile = parse_access(ins)
    if len(ins.operands) != 2:
        raise Invalid(f"'{ins.opcode}' takes an address and a value")
    a, s = ins.operands
    if space is None:  # a call's argument, or a device function's return value
        var = _param_variable(a)
        if var is None:
            raise Invalid("st.param writes a .param variable of a call or the function's return value")
        if vector != 1 or a.offset or var.count is not None:  # type: ignore[union-attr]
            raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (a part of a .param variable)")
        value = ctx.read(s, T.storage_type(ptype))
        ctx.ssa.write(ctx.current, var, ctx.coerce(value, T.register_type(var.type)))
        return
    t = T.storage_type(ptype)
    ptr = ctx.address(a, space)
    size = T.bits(t) // 8
    if vector == 1 and not isinstance(s, VectorOperand):  # (most stores: without _elements' list)
        store(ctx, ctx.read(s, t), ptr, size, volatile)
        return
    values = [ctx.read(e, t) if e is not None else ctx.undefined(t) for e in _elements(s, vector)]
    if vector == 1:
        store(ctx, values[0], ptr, size, volatile)
        return
    vec = build_vector(ctx, values, t)
    store(ctx, vec, ptr, size * vector, volatile)


def cvta(ctx: FunctionImporter, ins: Instruction) -> None:
    """cvta[.to].space.size d, a.

    Global addresses are the same number in the generic window (the interpreter and hardware
    agree), so a global cvta is a copy. A shared or param cvta changes the number on hardware: it
    is an llvm.addrspacecast between !llvm.ptr and !llvm.ptr<3> (or <7>, or <101>, the .param
    space of a byval kernel parameter's own address, byval.py; `.param` is `.param::entry`).
    """
    parts = ins.parts
    to = len(parts) > 1 and parts[1] == "to"
    rest = parts[2:] if to else parts[1:]
    if len(rest) != 2 or rest[1] not in ("u32", "u64") or rest[0] not in _CVTA_SPACES:
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    if len(ins.operands) != 2:
        raise Invalid(f"'{ins.opcode}' takes 2 operands")
    d, a = ins.operands
    width = T.int_type(int(rest[1][1:]))
    value = ctx.read(a, width)  # a variable's own address (mov's), or a register
    if rest[0] == "global":
        ctx.write(d, value)
        return
    space = _CVTA_SPACES[rest[0]]
    source, target = (0, space) if to else (space, 0)
    ptr = ctx.int_to_pointer(value, _ptr(source))
    cast = v(ctx, llvm_ext.AddrSpaceCastOp(ptr, _ptr(target)))
    ctx.write(d, v(ctx, llvm.PtrToIntOp(cast, width)))


_CVTA_SPACES = {"global": 1, "shared": 3, "shared::cta": 3, "shared::cluster": 7, "param": PARAM_ADDRESS_SPACE,
                "param::entry": PARAM_ADDRESS_SPACE}
_ATOM_SEMANTICS = {"relaxed": "monotonic", "acquire": "acquire", "release": "release", "acq_rel": "acq_rel"}
# PTX scope -> LLVM NVPTX syncscope (PTX's default scope is .gpu, LLVM's default is the system)
_ATOM_SCOPES = {"cta": "block", "cluster": "cluster", "gpu": "device", "sys": None}
_ATOM_OPS = {"and": "_and", "or": "_or", "xor": "_xor", "exch": "xchg", "add": "add", "inc": "uinc_wrap",
             "dec": "udec_wrap", "min": "min", "max": "max"}


def atom(ctx: FunctionImporter, ins: Instruction) -> None:
    """atom/red{.sem}{.scope}{.space}.op.type: llvm.atomicrmw, or llvm.cmpxchg for .cas (PTX ISA 9.7.13.5)."""
    from tmem_dialect.dialects import llvm_atomic

    parts = ins.parts
    reduction = parts[0] == "red"
    ordering, scope, space = "monotonic", "device", 0
    operation = None
    for part in parts[1:-1]:
        if part in _ATOM_SEMANTICS:
            ordering = _ATOM_SEMANTICS[part]
        elif part in _ATOM_SCOPES:
            scope = _ATOM_SCOPES[part]  # type: ignore[assignment]
        elif part in ("global", "shared", "shared::cta"):
            space = SPACES[part]  # type: ignore[assignment]
        elif part in _ATOM_OPS or part == "cas":
            operation = part
        else:
            raise Unmodelled(f"unmodelled instruction '{ins.opcode}' (modifier .{part})")
    ptype = ins.parts[-1]
    if operation is None or not T.is_type_name(ptype) or (reduction and operation == "cas"):
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    t = T.operand_type(ptype)
    operands = ins.operands
    want = (2 if reduction else 3) + (operation == "cas")
    if len(operands) != want:
        raise Invalid(f"'{ins.opcode}' takes {want} operands")
    dest = None if reduction else operands[0]
    address, values = operands[0 if reduction else 1], operands[1 if reduction else 2:]
    ptr = ctx.address(address, space)
    if operation == "cas":
        op = llvm_atomic.CmpXchgOp(ptr, ctx.read(values[0], t), ctx.read(values[1], t), ordering, scope)
        ctx.write(dest, ctx.extract_value(v(ctx, op), 0, t))
        return
    name = _ATOM_OPS[operation]
    if T.is_float(t):
        if operation not in ("add", "min", "max", "exch"):
            raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
        name = {"add": "fadd", "min": "fmin", "max": "fmax", "exch": "xchg"}[operation]
    elif operation in ("min", "max") and not T.is_signed(ptype):
        name = "u" + name
    old = v(ctx, llvm_atomic.AtomicRMWOp(name, ptr, ctx.read(values[0], t, T.is_signed(ptype)), ordering, scope))
    if dest is not None:
        ctx.write(dest, old, T.is_signed(ptype))




def _ptr(space: int) -> llvm.LLVMPointerType:
    from xdsl.dialects.builtin import IntAttr

    return llvm.LLVMPointerType(IntAttr(space)) if space else llvm.LLVMPointerType()


HANDLERS = {"mov": mov, "ld": ld, "st": st, "cvta": cvta, "atom": atom, "red": atom}

