"""lift-inline-asm: PTX inside llvm.inline_asm becomes the equivalent llvm/nvvm ops, read by the PTX front end.

Each asm string is wrapped in a `.func` whose `.reg` parameters are the asm operands (`$0`, `$1`,
... in constraint order; `n` operands are spelled as their constant), imported, and spliced in
place of the llvm.inline_asm op; the asm's outputs are the registers' values at its end. Lifted ops
carry the inline_asm's location. Guarded or branching asm (Triton's `@$0 tcgen05.alloc ...`) splits the enclosing block, when it
is a function's block; asm the front end cannot lift stays as it is, and
when it mentions tcgen05 or mbarrier it gets a warning: TMEM work is never silently invisible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, IntegerType, ModuleOp, i1, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tmem_dialect.diagnostics import DiagnosticError, emit, warning
from tmem_dialect.dialects import llvm_ext, nvvm_sync

WATCHED = re.compile(r"\btcgen05\.|\bmbarrier\.")
_OPERAND = re.compile(r"\$(\d+)")
_PTX_TYPES = {"i1": "pred", "i16": "b16", "i32": "b32", "i64": "b64", "f32": "f32", "f64": "f64"}


class _NotLifted(Exception):
    """Why one asm string stays as inline asm."""


@dataclass(frozen=True)
class LiftInlineAsmPass(ModulePass):
    name = "lift-inline-asm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for asm, reason in lift_all(op).items():
            if WATCHED.search(asm.asm_string.data):
                emit(warning(asm, f"inline asm with TMEM or mbarrier instructions was not lifted ({reason}); "
                                  "tmem-verify does not see what it does"))


def lift_all(root: Operation) -> dict[llvm.InlineAsmOp, str]:
    """Lift every NVVM barrier intrinsic call and llvm.inline_asm under `root`; the asm ops left as
    they are, each with why."""
    for call in [o for o in root.walk() if isinstance(o, llvm.CallIntrinsicOp)]:
        lift_barrier_intrinsic(call)
    unlifted: dict[llvm.InlineAsmOp, str] = {}
    for asm in [o for o in root.walk() if isinstance(o, llvm.InlineAsmOp)]:
        try:
            lift(asm)
        except _NotLifted as e:
            unlifted[asm] = str(e)
    return unlifted


# LLVM's NVVM barrier intrinsics (Triton calls them, e.g. in its warp-specialize dispatch): the
# named barrier op each is, as (aligned, its operands, arrive only). The operands are the barrier
# id and then the thread count. PTX ISA "barrier{.cta}": `barrier.sync` is the non-aligned form.
BARRIER_INTRINSICS = {
    "llvm.nvvm.barrier0": (True, 0, False),
    "llvm.nvvm.barrier.cta.sync.aligned.all": (True, 1, False),
    "llvm.nvvm.barrier.cta.sync.all": (False, 1, False),
    "llvm.nvvm.barrier.cta.sync.aligned.count": (True, 2, False),
    "llvm.nvvm.barrier.cta.sync.count": (False, 2, False),
    "llvm.nvvm.barrier.cta.arrive.aligned.count": (True, 2, True),
    "llvm.nvvm.barrier.cta.arrive.count": (False, 2, True),
}


def lift_barrier_intrinsic(call: llvm.CallIntrinsicOp) -> None:
    """A call of an NVVM barrier intrinsic becomes the nvvm barrier op (same location), so the
    TMEM checks and the interpreter see the barrier; other intrinsic calls stay as they are."""
    form = BARRIER_INTRINSICS.get(call.intrin.data)
    if form is None or len(call.args) != form[1] or call.ress:
        return
    aligned, operands, arrive = form
    ident = call.args[0] if operands else None
    threads = call.args[1] if operands == 2 else None
    if arrive:
        assert threads is not None
        new: Operation = nvvm_sync.BarrierArriveOp(threads, ident)
    else:
        new = nvvm_sync.BarrierOp(ident, threads)
        new.properties["aligned"] = BoolAttr(aligned, i1)
    new.location = call.location
    Rewriter.replace_op(call, new, new_results=[])


def _register_type(t: Attribute) -> str:
    if isinstance(t, llvm.LLVMPointerType):
        return "b64"
    if str(t) not in _PTX_TYPES:
        raise _NotLifted(f"an operand of type {t}")
    return _PTX_TYPES[str(t)]


def _constant(value: SSAValue) -> int:
    owner = value.owner
    attr = getattr(owner, "value", None)
    if isinstance(owner, Operation) and owner.name in ("llvm.mlir.constant", "arith.constant") \
            and isinstance(attr, IntegerAttr):
        return attr.value.data
    raise _NotLifted("an immediate ('n') operand that is not a constant")


def lift(asm: llvm.InlineAsmOp) -> None:
    from tmem_dialect.frontend.importer import ModuleImporter, Options
    from tmem_dialect.frontend.syntax import parse_ptx

    constraints = [c.strip() for c in asm.constraints.data.split(",") if c.strip() and not c.strip().startswith("~")]
    outputs = [c for c in constraints if c.startswith("=")]
    inputs = constraints[len(outputs):]
    if any(c.startswith("+") for c in constraints) or len(inputs) != len(asm.operands_):
        raise _NotLifted("in/out ('+') or unmatched constraints")
    result_types: list[Attribute] = []
    if asm.res is not None and not isinstance(asm.res.type, llvm.LLVMVoidType):
        t = asm.res.type
        result_types = list(t.types.data) if isinstance(t, llvm.LLVMStructType) else [t]
    if len(result_types) != len(outputs):
        raise _NotLifted("outputs that do not match the result type")
    spelled: dict[int, str] = {}
    params: list[str] = []
    values: list[SSAValue] = []
    for i, t in enumerate(result_types):
        params.append(f".reg .{_register_type(t)} %__asm{i}")
    for k, (c, value) in enumerate(zip(inputs, asm.operands_), start=len(outputs)):
        if c == "n":
            spelled[k] = str(_constant(value))
            continue
        params.append(f".reg .{_register_type(value.type)} %__asm{k}")
        values.append(value)
    body = _OPERAND.sub(lambda m: spelled.get(int(m.group(1)), f"%__asm{m.group(1)}"), asm.asm_string.data)
    ptx = (".version 8.6\n.target sm_100a\n.address_size 64\n"
           f".visible .func __asm({', '.join(params)})\n{{\n{body}\n}}\n")
    names = tuple(f"%__asm{i}" for i in range(len(outputs)))
    try:
        importer = ModuleImporter(parse_ptx(ptx, "<inline asm>"), Options(return_registers=names))
        module = importer.run()
    except DiagnosticError as e:
        raise _NotLifted(e.diagnostics[0].message) from None
    func = next(o for o in module.ops if isinstance(o, llvm.FuncOp))
    blocks = list(func.body.blocks)
    returns = [o for b in blocks for o in b.ops if isinstance(o, llvm.ReturnOp)]
    if len(returns) != 1:
        raise _NotLifted("an asm string that returns")
    if len(blocks) > 1 and not isinstance(asm.parent_op(), llvm.FuncOp):
        raise _NotLifted("labels, branches or guards inside a structured region")
    block = blocks[0]
    function = importer.function_importers[0]
    outputs_at_end = function.returned
    rewriter = Rewriter()
    args = list(block.args)
    for arg in args[: len(outputs)]:  # an output's value before the asm writes it: none
        if arg.uses:
            arg.replace_all_uses_with(_insert(rewriter, asm, llvm_ext.PoisonOp(arg.type)))
    # inputs: the operands, as the register types (pointers as their 64-bit numbers)
    for arg, value in zip(args[len(outputs):], values):
        if isinstance(value.type, llvm.LLVMPointerType):
            cast = llvm.PtrToIntOp(value, i64)
            cast.location = asm.location
            rewriter.insert_op(cast, InsertPoint.before(asm))
            value = cast.results[0]
        arg.replace_all_uses_with(value)
    if len(blocks) > 1:
        _splice_blocks(asm, blocks, returns[0])
    for op in list(block.ops):
        if isinstance(op, llvm.ReturnOp):
            continue
        op.detach()
        op.location = asm.location
        rewriter.insert_op(op, InsertPoint.before(asm))
    if asm.res is not None and result_types:
        results = [v if v.type == t else _coerce(rewriter, asm, v, t) for v, t in zip(outputs_at_end, result_types)]
        if isinstance(asm.res.type, llvm.LLVMStructType):
            for use in list(asm.res.uses):  # `extractvalue %asm[i]` is output i itself
                user = use.operation
                if isinstance(user, llvm.ExtractValueOp) and len(position := tuple(user.position.get_values())) == 1:
                    user.results[0].replace_all_uses_with(results[position[0]])
                    rewriter.erase_op(user)
        if isinstance(asm.res.type, llvm.LLVMStructType) and asm.res.uses:
            aggregate: SSAValue = _insert(rewriter, asm, llvm.UndefOp(asm.res.type))
            for i, v in enumerate(results):
                aggregate = _insert(rewriter, asm, llvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), aggregate, v))
            asm.res.replace_all_uses_with(aggregate)
        elif not isinstance(asm.res.type, llvm.LLVMStructType):
            asm.res.replace_all_uses_with(results[0])
    rewriter.erase_op(asm)


def _splice_blocks(asm: llvm.InlineAsmOp, blocks: list[Block], ret: llvm.ReturnOp) -> None:
    """Guarded or branching asm: the enclosing block is split after the asm; the lifted blocks
    after the first go between the halves, and the lifted return branches to the second half.
    (The first lifted block's ops, its terminator included, are then moved before the asm.)"""
    parent = asm.parent_block()
    assert parent is not None and parent.parent is not None
    region = parent.parent
    rest = Block()
    after = list(parent.ops)[list(parent.ops).index(asm) + 1:]
    for op in after:
        op.detach()
        rest.add_op(op)
    position = parent
    for b in blocks[1:]:
        b.parent.detach_block(b)  # type: ignore[union-attr]
        region.insert_block_after(b, position)
        for op in b.ops:
            op.location = asm.location
        position = b
    region.insert_block_after(rest, position)
    branch = llvm.BrOp(rest)
    branch.location = asm.location
    ret_block = ret.parent_block()
    assert ret_block is not None
    ret_block.insert_op_before(branch, ret)
    ret.detach()
    ret.erase()


def _insert(rewriter: Rewriter, at: Operation, op: Operation) -> SSAValue:
    op.location = at.location
    rewriter.insert_op(op, InsertPoint.before(at))
    return op.results[0]


def _coerce(rewriter: Rewriter, at: Operation, value: SSAValue, t: Attribute) -> SSAValue:
    if isinstance(t, llvm.LLVMPointerType):
        return _insert(rewriter, at, llvm.IntToPtrOp.create(operands=[value], result_types=[t]))
    if isinstance(t, IntegerType) and isinstance(value.type, IntegerType):
        return _insert(rewriter, at, llvm.TruncOp(value, t) if value.type.width.data > t.width.data
                       else llvm.ZExtOp(value, t))
    return _insert(rewriter, at, llvm.BitcastOp(value, t))
