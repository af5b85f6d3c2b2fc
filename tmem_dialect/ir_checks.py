"""Rules of upstream MLIR that xDSL 0.74's verifier lacks: dominance, terminators, symbols, globals, constants.

Each check reports at the op (with a note at the other op involved). Without them, xDSL accepts
IR that upstream MLIR (iree-opt) rejects, our lowering prints it again, and the interpreter
trips over it.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import arith, func, llvm, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    UnregisteredOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator, SymbolTable

from tmem_dialect.block_order import block_successors, immediate_dominators, reverse_post_order
from tmem_dialect.conventions import pointer_address_space
from tmem_dialect.diagnostics import Diagnostic, error


def ir_diagnostics(root: Operation) -> list[Diagnostic]:
    """Every violation of the rules below in `root` (a module, usually)."""
    found: list[Diagnostic] = []
    dominance = _Dominance()
    for op in root.walk():
        found.extend(_check_types(op))
        found.extend(_check_terminators(op))
        found.extend(_check_operands(op, dominance))
        found.extend(_check_symbol_table(op))
        if isinstance(op, llvm.GlobalOp):
            found.extend(_check_global(op))
        elif isinstance(op, llvm.AddressOfOp):
            found.extend(_check_addressof(op))
        elif isinstance(op, llvm.ConstantOp):
            found.extend(_check_llvm_constant(op))
        elif isinstance(op, llvm.GEPOp):
            found.extend(_check_gep(op))
        elif isinstance(op, arith.BitcastOp):
            found.extend(_check_bitcast(op))
        elif isinstance(op, llvm.ReturnOp):
            found.extend(_check_llvm_return(op))
        elif isinstance(op, (llvm.LoadOp, llvm.StoreOp)):
            found.extend(_check_atomic_access(op))
        elif isinstance(op, (vector.InsertOp, vector.ExtractOp)):
            found.extend(_check_vector_position(op))
    return found


def _check_vector_position(op: vector.InsertOp | vector.ExtractOp) -> Iterator[Diagnostic]:
    """Upstream rejects a static position outside its vector dimension (a dynamic one is -2^63)."""
    shape = op.dest.type.get_shape() if isinstance(op, vector.InsertOp) else op.vector.type.get_shape()
    for i, (position, dim) in enumerate(zip(op.static_position.get_values(), shape)):
        if position != vector.DYNAMIC_INDEX and not 0 <= position < dim:
            yield error(op, f"'{op.name}' op position {position} (index {i}) is outside its vector "
                        f"dimension of {dim} elements")
            return



def _check_atomic_access(op: llvm.LoadOp | llvm.StoreOp) -> Iterator[Diagnostic]:
    """An atomic llvm.load/store moves an integer of a power-of-2 width of 8 bits or more, a
    float or a pointer (upstream: "unsupported type 'i1' for atomic access"; fuzz finding)."""
    ordering = op.properties.get("ordering")
    if not isinstance(ordering, IntegerAttr) or ordering.value.data == 0:
        return  # not atomic
    value_type = op.dereferenced_value.type if isinstance(op, llvm.LoadOp) else op.value.type
    if isinstance(value_type, IntegerType):
        width = value_type.width.data
        if width < 8 or width & (width - 1):
            yield error(op, f"unsupported type '{value_type}' for atomic access: an atomic load or store "
                            "takes an integer of 8, 16, 32, 64 or 128 bits, a float or a pointer")


# ---- types ------------------------------------------------------------------------------------

ADDRESS_SPACE_LIMIT = 1 << 24  # LLVM's address spaces are 24-bit


def _check_types(op: Operation) -> Iterator[Diagnostic]:
    values = list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]
    for value in values:
        if (problem := _type_problem(value.type)) is not None:
            yield error(op, problem)
            return
    if op.name.startswith("llvm."):
        for value in (*op.operands, *op.results):
            if (signed := _signed_integer(value.type)) is not None:
                yield error(op, f"'{op.name}' op uses {value.type}, which is not an LLVM type: LLVM "
                            f"integers are signless ({signed})")
                return


def _signed_integer(t: Attribute) -> IntegerType | None:
    """A signed or unsigned integer type in `t` (upstream's LLVM ops reject them; fuzz finding)."""
    if isinstance(t, IntegerType):
        return t if t.signedness.data is not Signedness.SIGNLESS else None
    for param in getattr(t, "parameters", ()):
        inner = param.data if isinstance(param, ArrayAttr) else (param,)
        for attr in inner:
            if isinstance(attr, Attribute) and (found := _signed_integer(attr)) is not None:
                return found
    return None


def _type_problem(t: Attribute) -> str | None:
    if isinstance(t, llvm.LLVMArrayType) and t.size.data < 0:
        return f"{t} has a negative number of elements"
    if isinstance(t, llvm.LLVMArrayType) and t.size.data >= 1 << 64:
        return f"{t} has more elements than a 64-bit count holds (MLIR's LLVM arrays count in uint64)"
    if isinstance(t, llvm.LLVMPointerType):
        space = pointer_address_space(t)
        if not 0 <= space < ADDRESS_SPACE_LIMIT:
            return f"address space {space} of {t} is out of range (0 to {ADDRESS_SPACE_LIMIT - 1})"
    for param in getattr(t, "parameters", ()):
        if isinstance(param, Attribute) and (problem := _type_problem(param)) is not None:
            return problem
        if isinstance(param, ArrayAttr):
            for inner in param.data:
                if (problem := _type_problem(inner)) is not None:
                    return problem
    return None


# ---- terminators -----------------------------------------------------------------------------


def _check_terminators(op: Operation) -> Iterator[Diagnostic]:
    """Every block ends in a terminator, except in ops that say they need none (builtin.module)."""
    if op.has_trait(NoTerminator) or isinstance(op, (ModuleOp, UnregisteredOp)):
        return
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None:
                yield error(op, f"'{op.name}' op has an empty block: a block needs at least a terminator")
            elif not last.has_trait(IsTerminator) and not isinstance(last, UnregisteredOp):
                yield error(last, f"block with no terminator: it ends in '{last.name}'")


# ---- dominance -------------------------------------------------------------------------------


class _Dominance:
    """Dominator trees of the regions asked about, computed once per region."""

    def __init__(self) -> None:
        self._trees: dict[Region, dict[Block, Block | None]] = {}

    def _tree(self, region: Region) -> dict[Block, Block | None]:
        if region not in self._trees:
            entry = region.blocks.first
            order = reverse_post_order(entry, block_successors) if entry is not None else []
            preds: dict[Block, list[Block]] = {b: [] for b in order}
            for b in order:
                for s in block_successors(b):
                    preds.setdefault(s, []).append(b)
            self._trees[region] = immediate_dominators(order, lambda b: preds.get(b, ()))
        return self._trees[region]

    def reachable(self, block: Block) -> bool:
        return block.parent is None or block in self._tree(block.parent)

    def dominates(self, a: Block, b: Block) -> bool | None:
        """Whether block `a` dominates block `b` (same region); None when `b` is unreachable."""
        idom = self._tree(a.parent)  # type: ignore[arg-type]
        if b not in idom:
            return None  # MLIR does not check dominance in unreachable blocks
        here: Block | None = b
        while here is not None:
            if here is a:
                return True
            here = idom[here]
        return False


def _check_operands(op: Operation, dominance: _Dominance) -> Iterator[Diagnostic]:
    for i, value in enumerate(op.operands):
        if (problem := _dominance_problem(value, op, dominance)) is not None:
            d = error(op, f"operand #{i} {problem}")
            definer = value.owner if isinstance(value.owner, Operation) else value.owner.parent_op()
            if definer is not None:
                d.attach_note("operand defined here", definer)
            yield d
            return  # one per op, as MLIR: the others are usually the same mistake


def _dominance_problem(value: SSAValue, user: Operation, dominance: _Dominance) -> str | None:
    """Why `value` may not be used by `user` (None when it may)."""
    if isinstance(value, BlockArgument):
        block, definer = value.owner, None
    else:
        definer = value.owner
        block = definer.parent_block()  # type: ignore[union-attr]
    if block is None:
        return "is not defined in any block"
    region = block.parent
    # Walk up from the user to the op that sits in the defining region.
    here: Operation | None = user
    while here is not None and here.parent_region() is not region:
        parent = here.parent_op()
        if parent is not None and (parent.has_trait(IsolatedFromAbove) or isinstance(parent, llvm.FuncOp)):
            return f"uses a value defined outside the '{parent.name}' it is in (another function's value?)"
        here = parent
    if here is None:
        return "uses a value from a region that does not enclose it"
    if isinstance(value, BlockArgument):
        if here.parent_block() is block:
            return None
        ok = dominance.dominates(block, here.parent_block())  # type: ignore[arg-type]
        return None if ok in (True, None) else "does not dominate this use"
    assert definer is not None
    if not dominance.reachable(here.parent_block()):  # type: ignore[arg-type]
        return None  # MLIR checks no dominance in unreachable blocks (iree-opt accepts them)
    if here.parent_block() is block:
        if here is definer:
            return "is the result of the op that uses it"
        return None if definer.is_before_in_block(here) else "is used before it is defined (does not dominate this use)"
    ok = dominance.dominates(block, here.parent_block())  # type: ignore[arg-type]
    return None if ok in (True, None) else "does not dominate this use"


# ---- symbols ---------------------------------------------------------------------------------


def _check_symbol_table(op: Operation) -> Iterator[Diagnostic]:
    if isinstance(op, (llvm.FuncOp, func.FuncOp)) and (parent := op.parent_op()) is not None \
            and not parent.has_trait(SymbolTable):
        # A function nested in another's body (a fuzz finding): upstream's verifier rejects it.
        yield error(op, f"'{op.name}' op symbol's parent must have the SymbolTable trait (it is "
                    f"inside '{parent.name}', not a module)")
    if not op.has_trait(SymbolTable):
        return
    seen: dict[str, Operation] = {}
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                name = child.properties.get("sym_name") or child.attributes.get("sym_name")
                if not isinstance(name, StringAttr):
                    continue
                if name.data in seen:
                    yield error(child, f"redefinition of symbol '@{name.data}'").attach_note(
                        "the first definition", seen[name.data]
                    )
                else:
                    seen[name.data] = child


def _lookup(op: Operation, name: str) -> Operation | None:
    here = op.parent_op()
    while here is not None:
        if here.has_trait(SymbolTable):
            for region in here.regions:
                for block in region.blocks:
                    for child in block.ops:
                        sym = child.properties.get("sym_name") or child.attributes.get("sym_name")
                        if isinstance(sym, StringAttr) and sym.data == name:
                            return child
        here = here.parent_op()
    return None


def _check_addressof(op: llvm.AddressOfOp) -> Iterator[Diagnostic]:
    name = op.global_name.root_reference.data
    target = _lookup(op, name)
    if target is None:
        yield error(op, f"'llvm.mlir.addressof' op must reference a global or function: '@{name}' is not defined")
        return
    if isinstance(target, llvm.GlobalOp):
        space = target.addr_space.value.data if target.addr_space is not None else 0
        result = op.result.type
        have = pointer_address_space(result)
        if have is not None and have != space:
            yield error(
                op,
                f"'llvm.mlir.addressof' op pointer address space {have} must match the address space "
                f"{space} of global '@{name}'",
            ).attach_note("the global", target)
    elif not isinstance(target, llvm.FuncOp):
        yield error(op, f"'llvm.mlir.addressof' op must reference a global or function, '@{name}' is a '{target.name}'")


# ---- globals and constants -------------------------------------------------------------------


def _check_global(op: llvm.GlobalOp) -> Iterator[Diagnostic]:
    if (problem := _type_problem(op.global_type)) is not None:
        yield error(op, f"'llvm.mlir.global' op type: {problem}")
    t = op.global_type
    if isinstance(t, IndexType) or (isinstance(t, VectorType) and isinstance(t.get_element_type(), IndexType)):
        yield error(op, f"'llvm.mlir.global' op type {t} is not a valid element type for an LLVM global "
                        "(index has no LLVM layout)")
    if isinstance(t, IntegerType) and t.signedness.data is not Signedness.SIGNLESS:
        yield error(op, f"'llvm.mlir.global' op type {t} is not an LLVM type (LLVM integers are signless)")
    parent = op.parent_op()
    if parent is not None and not parent.has_trait(SymbolTable):  # a builtin or gpu.module (as upstream)
        yield error(op, "'llvm.mlir.global' op must appear at the module level, not inside "
                        f"'{parent.name}'")
    if op.addr_space is not None and not 0 <= op.addr_space.value.data < ADDRESS_SPACE_LIMIT:
        yield error(op, f"'llvm.mlir.global' op address space {op.addr_space.value.data} is out of range "
                        f"(0 to {ADDRESS_SPACE_LIMIT - 1})")
    if op.alignment is not None:
        align = op.alignment.value.data
        if align <= 0 or align & (align - 1):
            yield error(op, f"'llvm.mlir.global' op alignment {align} is not a power of 2")


def _check_llvm_constant(op: llvm.ConstantOp) -> Iterator[Diagnostic]:
    value, result = op.value, op.result.type
    if isinstance(value, (IntegerAttr, FloatAttr)) and isinstance(result, (IntegerType, type(value.type))):
        if value.type != result:
            yield error(op, f"'llvm.mlir.constant' op the value's type {value.type} does not match the "
                            f"result type {result}")


def _check_gep(op: llvm.GEPOp) -> Iterator[Diagnostic]:
    """Each dynamic index marker of rawConstantIndices stands for one index operand."""
    raw = list(op.rawConstantIndices.iter_values())
    dynamic = sum(1 for i in raw if i == llvm.GEP_USE_SSA_VAL)
    if dynamic != len(op.ssa_indices):
        yield error(op, f"'llvm.getelementptr' op has {len(op.ssa_indices)} index operands but "
                        f"rawConstantIndices marks {dynamic} dynamic indices (a constant index must be "
                        "a 32-bit integer above -2147483648)")


def _check_bitcast(op: arith.BitcastOp) -> Iterator[Diagnostic]:
    """arith.bitcast takes integers and floats of one width; index has no width to cast."""
    for what, t in (("operand", op.input.type), ("result", op.result.type)):
        inner = getattr(t, "element_type", t)
        if isinstance(inner, IndexType):
            yield error(op, f"'arith.bitcast' op {what} must be a signless integer or float of a fixed "
                            f"width, got {t} (use arith.index_cast)")
            return


def _check_llvm_return(op: llvm.ReturnOp) -> Iterator[Diagnostic]:
    """llvm.return returns what its llvm.func says it returns."""
    f = op.parent_op()
    while f is not None and not isinstance(f, llvm.FuncOp):
        f = f.parent_op()
    if f is None:
        return
    result = f.function_type.output
    returned = [v.type for v in op.operands]
    expected = [] if isinstance(result, llvm.LLVMVoidType) else [result]
    if returned != expected:
        got = ", ".join(map(str, returned)) or "nothing"
        want = ", ".join(map(str, expected)) or "nothing (void)"
        yield error(op, f"'llvm.return' op returns {got}, but the function returns {want}")
