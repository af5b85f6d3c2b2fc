"""call{.uni}: a device function call as llvm.call; `.param` arguments and results are the values st.param and ld.param move."""

from __future__ import annotations

from xdsl.dialects import llvm

from tmem_dialect.frontend import types as T
from tmem_dialect.frontend.importer import FunctionImporter, Invalid, Unmodelled
from tmem_dialect.frontend.syntax import Imm, Instruction, Reg, Symbol, VectorOperand


def call(ctx: FunctionImporter, ins: Instruction) -> None:
    """`call{.uni} (r), f, (a, b)` (PTX ISA 9.7.12.8 "call"): `.uni` only promises a non-divergent
    call, so both are one llvm.call; an argument or result is a `.param` variable (the values
    st.param wrote / ld.param reads) or a register (`.reg` parameters)."""
    if ins.parts[1:] not in ([], ["uni"]):
        raise Unmodelled(f"unmodelled instruction '{ins.opcode}'")
    returns, callee, arguments = ins.operands
    assert isinstance(returns, VectorOperand) and isinstance(callee, Symbol) and isinstance(arguments, VectorOperand)
    fn = ctx.module.functions.get(callee.name)
    if fn is None:
        raise Invalid(f"call to unknown function '{callee.name}'")
    if fn.is_kernel:
        raise Invalid(f"'{callee.name}' is a kernel (.entry): only .func functions are called")
    if fn.declaration:
        raise Unmodelled(f"a call of '{fn.name}', which has no body here (an .extern declaration)")
    if any(p.register is None and p.count is not None for p in fn.params):
        raise Unmodelled(f"a call of '{fn.name}', whose byval (array) parameters calls do not pass yet")
    params, result = ctx.module.signature(fn)
    if len(arguments.elements) != len(params):
        raise Invalid(f"'{fn.name}' takes {len(params)} arguments, the call passes {len(arguments.elements)}")
    if len(returns.elements) != (result is not None):
        raise Invalid(f"'{fn.name}' returns {int(result is not None)} values, the call takes {len(returns.elements)}")
    values = [_argument(ctx, a, t) for a, t in zip(arguments.elements, params)]
    op = ctx.add(llvm.CallOp(fn.name, *values, return_type=result))
    if result is not None:
        target = returns.elements[0]
        if not isinstance(target, Reg):
            raise Invalid("a call's return value is a register or a .param variable")
        ctx.ssa.write(ctx.current, target.var, ctx.coerce(op.results[0], T.register_type(target.var.type)))


def _argument(ctx: FunctionImporter, a, t):  # type: ignore[no-untyped-def]
    if isinstance(a, Reg) and a.var.param:
        if a.var.count is not None:
            raise Unmodelled(f"a byval (array) argument '{a.var.name}'")
        return ctx.coerce(ctx.ssa.read(ctx.current, a.var), t)
    if isinstance(a, (Reg, Imm)):
        return ctx.read(a, t)
    raise Invalid("a call's argument is a register, a .param variable or a number")


HANDLERS = {"call": call}
