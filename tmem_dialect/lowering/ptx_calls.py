"""PTX for device functions: the `.func` header (and its prototype), llvm.call as a call sequence of `.param` variables, and llvm.return of a value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects import llvm
from xdsl.ir import Attribute, Operation

from tmem_dialect.lowering.ptx_values import RegClass, Unsupported, element_count, register_class

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)
RETVAL = "func_retval0"


def param_declaration(t: Attribute) -> str:
    """`.param .bN` of one scalar value of type `t` (pointers are .b64 numbers; .pred has no .param)."""
    cls = register_class(t) if not isinstance(t, llvm.LLVMPointerType) else RegClass.B64
    if cls is None or element_count(t) != 1:
        raise Unsupported(f"type {t} is not a scalar a device function's .param can hold")
    if cls is RegClass.PRED:
        raise Unsupported("an i1 value crosses a call: .param variables hold no predicates")
    return f".param .b{cls.bits}"


def prototype(func: llvm.FuncOp, name: str) -> str:
    """`.visible .func (.param .b32 func_retval0) name(.param .b32 name_param_0, ...)` (no ';')."""
    ftype = func.function_type
    if ftype.is_variadic:
        raise Unsupported(f"@{func.sym_name.data} is variadic")
    params = ", ".join(f"{param_declaration(t)} {name}_param_{i}" for i, t in enumerate(ftype.inputs.data))
    result = "" if isinstance(ftype.output, llvm.LLVMVoidType) else f"({param_declaration(ftype.output)} {RETVAL}) "
    return f".visible .func {result}{name}({params})"


def ret(em: Emitter, op: llvm.ReturnOp) -> None:
    if op.arg is not None:
        if em.is_kernel:
            raise Unsupported("kernels return no value")
        bits = param_declaration(op.arg.type).removeprefix(".param .b")
        em.out(f"st.param.b{bits} [{RETVAL}], {em.reg_or_imm(op.arg)};")
    em.out("ret;")


def call(em: Emitter, op: llvm.CallOp) -> None:
    """`{ .param .bN param0; st.param [param0], a; ... call (retval0), f, (param0, ...); ld.param r, [retval0]; }`."""
    if op.callee is None:
        raise Unsupported("indirect calls are outside the PTX target's subset")
    if op.op_bundle_operands:
        raise Unsupported("operand bundles")
    name = em.module.symbol(op.callee.root_reference.data)
    lines = ["{"]
    names = []
    for i, arg in enumerate(op.args):
        declaration = param_declaration(arg.type)
        bits = declaration.removeprefix(".param .b")
        lines += [f"{declaration} param{i};", f"st.param.b{bits} [param{i}], {em.reg_or_imm(arg)};"]
        names.append(f"param{i}")
    arguments = f", ({', '.join(names)})" if names else ""
    if op.returned is not None:
        declaration = param_declaration(op.returned.type)
        (reg,) = em.fresh(op.returned)
        lines += [f"{declaration} retval0;", f"call (retval0), {name}{arguments};",
                  f"ld.param.b{declaration.removeprefix('.param .b')} {reg}, [retval0];"]
    else:
        lines.append(f"call {name}{arguments};")
    lines.append("}")
    for line in lines:
        em.out(line)


CALL_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    llvm.ReturnOp: ret,
    llvm.CallOp: call,
}
