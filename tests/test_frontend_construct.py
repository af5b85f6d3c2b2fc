"""construct.py builds IR objects without xDSL's per-call checks: pin every field equal to what the
constructors build, so that an xDSL upgrade which changes what an op or location holds fails here."""

from __future__ import annotations

import dataclasses

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FileLineColLoc,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Block, Operation
from xdsl.irdl import IRDLOperation, attr_def, irdl_op_definition, prop_def

from tmem_dialect.dialects import llvm_ext
from tmem_dialect.frontend import construct
from tmem_dialect.ir import verify_diagnostics


@irdl_op_definition
class _DefaultsOp(IRDLOperation):
    """Default properties and a default attribute, as no llvm op has (yet)."""

    name = "test.construct_defaults"
    first = prop_def(IntegerAttr, default_value=IntegerAttr(1, i32))
    second = prop_def(IntegerAttr, default_value=IntegerAttr(2, i32))
    third = attr_def(IntegerAttr, default_value=IntegerAttr(3, i32))


LOC = FileLineColLoc(StringAttr("k.ptx"), IntAttr(7), IntAttr(2))
PTR = llvm.LLVMPointerType(IntAttr(3))
V4 = VectorType(i32, [4])
# The kernels below: one .u64 pointer parameter p.
_KERNEL = """.version 8.7
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 p) {
"""


def test_checked_location_is_the_constructors() -> None:
    made = construct.checked_location(StringAttr("k.ptx"), IntAttr(12), IntAttr(3))
    built = FileLineColLoc(StringAttr("k.ptx"), IntAttr(12), IntAttr(3))
    assert made == built and hash(made) == hash(built) and str(made) == str(built)
    assert made.parameters == built.parameters


@pytest.mark.parametrize("n", [0, 1, 1740, -3, 1 << 70])
def test_checked_int_is_the_constructors(n: int) -> None:
    made, built = construct.checked_int(n), IntAttr(n)
    assert made == built and hash(made) == hash(built) and str(made) == str(built)
    assert vars(made) == vars(built) and type(made) is type(built)
    made.verify()


def _cases(block: Block):  # type: ignore[no-untyped-def]
    a, b, p, vec, flag = block.args
    load = {"ordering": IntegerAttr(0, i64), "alignment": IntegerAttr(4, i64)}
    return [
        (llvm.AddOp, [a, b], [i32], dict(llvm.AddOp(a, b).properties)),  # every property given
        (llvm.AddOp, [a, b], [i32], {}),  # the definition's defaults filled in
        (llvm.IntToPtrOp, [a], [PTR], {}),
        (llvm.ConstantOp, [], [i32], {"value": IntegerAttr(5, i32)}),
        (llvm_ext.LoadOp, [p], [i32], load),
        (llvm_ext.StoreOp, [a, p], [], {**load, "volatile_": UnitAttr()}),
        (llvm.InsertElementOp, [vec, a, b], [V4], {}),
        (llvm_ext.ExtractElementOp, [vec, b], [i32], {}),
        (llvm.SelectOp, [flag, a, b], [i32], {}),
        (_DefaultsOp, [], [], {"second": IntegerAttr(5, i32)}),  # the given one first, then the defaults
    ]


def test_new_op_with_successors_is_what_create_builds() -> None:
    """Branches (terminate builds them with new_op): successors, their uses, and the blocks' use lists."""
    blocks = [Block(arg_types=[i1, i32]), Block(arg_types=[i32]), Block()]
    flag, a = blocks[0].args
    segments = DenseArrayBase.from_list(i32, [1, 1, 0])
    cases = [(llvm.BrOp, [a], {}, [blocks[1]]),
             (llvm.CondBrOp, [flag, a], {"operandSegmentSizes": segments}, [blocks[1], blocks[2]]),
             (llvm.CondBrOp, [flag], {"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 0])},
              [blocks[2], blocks[2]])]  # one block twice: two uses of it
    for cls, operands, properties, successors in cases:
        made = construct.new_op(cls, operands, [], properties, LOC, successors)
        built = cls.create(operands=operands, properties=properties, location=LOC, successors=successors)
        assert _state(made) == _state(built) and list(made.properties) == list(built.properties)
        for block in set(successors):
            uses = [(u.operation, u.index) for u in block.uses]
            for index, successor in enumerate(successors):
                if successor is block:
                    assert (made, index) in uses and (built, index) in uses


_BINARY = [llvm.AddOp, llvm.SubOp, llvm.MulOp, llvm.AndOp, llvm.OrOp, llvm.XOrOp, llvm.ShlOp, llvm.LShrOp,
           llvm.AShrOp, llvm.SDivOp, llvm.UDivOp, llvm.SRemOp, llvm.URemOp]


@pytest.mark.parametrize("cls", _BINARY, ids=lambda c: c.__name__)
def test_built_binary_ops_are_the_constructors(cls) -> None:  # type: ignore[no-untyped-def]
    """ops_scalar builds its integer ops by ctx.build (properties: importer._default_properties):
    an op equal to `cls(a, b)`, overflow flags and exactness included, in the same order."""
    from tmem_dialect.frontend.importer import _default_properties

    block = Block(arg_types=[i64, i64])
    a, b = block.args
    made = construct.new_op(cls, [a, b], [a.type], _default_properties(cls, [b, a], i64), LOC)
    built = cls(a, b)
    built.location = LOC
    assert _state(made) == _state(built) and list(made.properties) == list(built.properties)


@pytest.mark.parametrize(("operands", "aligned"), [(1, True), (2, True), (1, False), (2, False)])
def test_barrier_properties_are_the_constructors(operands: int, aligned: bool) -> None:
    from tmem_dialect.dialects import nvvm, nvvm_sync
    from tmem_dialect.frontend.ops_sync import barrier_properties

    block = Block(arg_types=[i32, i32])
    values = list(block.args[:operands])
    made = construct.new_op(nvvm_sync.BarrierOp, values, [], barrier_properties(operands, aligned), LOC)
    built = nvvm_sync.BarrierOp(*values)
    built.properties["aligned"] = nvvm.TRUE if aligned else nvvm.FALSE  # (as the importer did)
    built.location = LOC
    assert _state(made) == _state(built) and list(made.properties) == list(built.properties)
    made.verify()


@pytest.mark.parametrize(("count", "transpose"), [(1, False), (2, True), (4, False), (4, True)])
def test_ldmatrix_form_is_the_constructors(count: int, transpose: bool) -> None:
    from tmem_dialect.dialects import nvvm_warp
    from tmem_dialect.frontend.ops_warp import ldmatrix_form

    block = Block(arg_types=[PTR])
    result_type, properties = ldmatrix_form(count, transpose)
    made = construct.new_op(nvvm_warp.LdMatrixOp, [block.args[0]], [result_type], properties, LOC)
    built = nvvm_warp.LdMatrixOp(block.args[0], count, transpose)
    built.location = LOC
    assert _state(made) == _state(built) and list(made.properties) == list(built.properties)
    made.verify()


def test_elect_sync_without_a_mask_is_the_constructors() -> None:
    from tmem_dialect.dialects import nvvm_async

    made = construct.new_op(nvvm_async.ElectSyncOp, [], [i1], {}, LOC)
    built = nvvm_async.ElectSyncOp()
    built.location = LOC
    assert _state(made) == _state(built) and list(made.properties) == list(built.properties)


def _state(op: Operation) -> dict[str, object]:
    """Everything an op holds, with its results and uses by position (they are new objects)."""
    fields = [f.name for f in dataclasses.fields(Operation)]
    assert set(vars(op)) <= set(fields)  # nothing outside Operation's fields
    state = {name: getattr(op, name) for name in fields}
    state["results"] = [(r.type, r.index, r.op is op, r.first_use) for r in op.results]
    state["_operand_uses"] = [(u.operation is op, u.index) for u in op._operand_uses]  # pyright: ignore[reportPrivateUsage]
    state["_successor_uses"] = [(u.operation is op, u.index) for u in op._successor_uses]  # pyright: ignore[reportPrivateUsage]
    return state


@pytest.mark.parametrize("case", range(10))
def test_new_op_is_what_create_builds(case: int) -> None:
    block = Block(arg_types=[i32, i32, PTR, V4, i1])
    cls, operands, result_types, properties = _cases(block)[case]
    made = construct.new_op(cls, operands, result_types, properties, LOC)
    built = cls.create(operands=operands, result_types=result_types, properties=properties, location=LOC)
    assert _state(made) == _state(built)
    assert list(made.properties) == list(built.properties)  # (the generic form prints them in this order)
    assert type(made) is type(built) and made.successors == built.successors and made.regions == built.regions
    for value in operands:  # each operand has one use by each op, at the same index
        uses = [(u.operation, u.index) for u in value.uses]
        assert (made, operands.index(value)) in uses and (built, operands.index(value)) in uses
    block.add_op(made)
    made.verify()


def _use_lists(values) -> list[list[tuple[int, int]]]:  # type: ignore[no-untyped-def]
    """Each value's uses, in use-list order, as (which op: 0 or 1, operand index), walked both ways."""
    found = []
    for value in values:
        forward, use, last = [], value.first_use, None
        while use is not None:
            forward.append(use)
            last, use = use, use._next_use  # pyright: ignore[reportPrivateUsage]
        backward = []
        while last is not None:
            backward.append(last)
            last = last._prev_use  # pyright: ignore[reportPrivateUsage]
        assert backward == forward[::-1] and (not forward or forward[0]._prev_use is None)  # pyright: ignore[reportPrivateUsage]
        found.append([(u.operation.attributes.get("test.which").data, u.index) for u in forward])  # type: ignore[union-attr]
    return found


def test_new_op_links_uses_as_create_does() -> None:
    """The use lists, repeated operands included: the same order, and the same links both ways."""
    lists = []
    for build in (construct.new_op, None):
        block = Block(arg_types=[i32, i32])
        a, b = block.args
        for which, operands in enumerate([[a, b], [a, a], [b, a, b]]):
            cls = llvm.AddOp if len(operands) == 2 else llvm.SelectOp
            if build is None:
                op = cls.create(operands=operands, result_types=[i32], location=LOC)
            else:
                op = build(cls, operands, [i32], {}, LOC)
            op.attributes["test.which"] = IntAttr(which)
        lists.append(_use_lists([a, b]))
    assert lists[0] == lists[1]


def test_append_op_links_as_add_op_does() -> None:
    """append_op's block and op links are add_op's, for the first op of a block and the next ones."""
    states = []
    for append in (construct.append_op, Block.add_op):
        block = Block()
        ops = [construct.new_op(llvm.ConstantOp, [], [i32], {"value": IntegerAttr(k, i32)}, LOC) for k in range(3)]
        for op in ops:
            append(block, op)  # type: ignore[operator]
        states.append(([dict(vars(op)) for op in ops], block.first_op is ops[0], block.last_op is ops[-1],
                       list(block.ops) == ops, [op.parent is block for op in ops],
                       [(ops.index(op.prev_op) if op.prev_op else None, ops.index(op.next_op) if op.next_op else None)
                        for op in ops]))
    made, added = states
    assert made[1:] == added[1:]
    assert [sorted(state) for state in made[0]] == [sorted(state) for state in added[0]]  # the same fields set


def test_new_op_sets_every_field_of_operation() -> None:
    """Operation's instance fields are those new_op sets, or fields whose class default is right
    for an op with no successors or regions, outside any block."""
    by_default = {"_successors", "_successor_uses", "regions", "parent", "_next_op", "_prev_op"}
    fields = {f.name for f in dataclasses.fields(Operation)}
    made = construct.new_op(llvm.ConstantOp, [], [i32], {"value": IntegerAttr(1, i32)}, LOC)
    assert fields == set(vars(made)) | by_default
    assert all(getattr(Operation, name) in ((), None) for name in by_default)


def test_imported_ops_verify() -> None:
    from tmem_dialect.frontend import import_ptx

    text = _KERNEL + """    .reg .b32 %r<4>; .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd1];
    add.s32 %r0, %r0, %r1;
    st.global.v4.u32 [%rd1], {%r0, %r1, %r2, %r3};
    ret;
}
"""
    module = import_ptx(text, "k.ptx")
    assert verify_diagnostics(module) == []
    assert all(isinstance(op.location, FileLineColLoc) for op in module.walk() if op.name != "builtin.module")


@pytest.mark.parametrize("t", [i1, IntegerType(8), IntegerType(16), i32, i64])
def test_checked_integer_attr_is_the_constructors(t: IntegerType) -> None:
    width = t.width.data
    for value in {0, -1, (1 << (width - 1)) - 1, -(1 << (width - 1))}:  # t's signed range: i1's is -1..0
        made = construct.checked_integer_attr(IntAttr(value), t)
        built = IntegerAttr(value, t)
        assert made == built and hash(made) == hash(built) and str(made) == str(built)
        made.verify()


def test_imported_constants_are_the_constructors() -> None:
    """Every constant the importer makes (its own normalization of PTX literals to a type's
    signed range) equals the IntegerAttr constructor's of the same value."""
    from tmem_dialect.frontend import import_ptx

    text = _KERNEL + """    .reg .pred %p<3>; .reg .b16 %h<3>; .reg .b32 %r<4>; .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];
    mov.b32 %r1, 0xFFFFFFFF; mov.b32 %r2, 2147483648; mov.b16 %h1, 65535; mov.b16 %h2, -32768;
    mov.b64 %rd2, 0xFFFFFFFFFFFFFFFF; add.s64 %rd2, %rd2, -9223372036854775808;
    setp.eq.u32 %p1, %r1, 4294967295; setp.ne.u32 %p2, %r2, 0; not.pred %p2, %p2;
    @%p1 st.global.u32 [%rd1], %r1;
    @!%p2 st.global.u16 [%rd1+4], %h1;
    st.global.u16 [%rd1+6], %h2;
    st.global.u64 [%rd1+8], %rd2;
    ret;
}
"""
    module = import_ptx(text, "k.ptx")
    constants = [op.properties["value"] for op in module.walk() if isinstance(op, llvm.ConstantOp)]
    assert len(constants) >= 7
    for attr in constants:
        if isinstance(attr, IntegerAttr):
            built = IntegerAttr(attr.value.data, attr.type)
            assert attr == built and str(attr) == str(built)
            attr.verify()
    assert verify_diagnostics(module) == []


def test_negative_zero_is_its_own_constant() -> None:
    """Constants are shared by bit pattern: -0.0 == 0.0 in Python, but 0f80000000 is not 0f00000000."""
    import numpy as np

    from tmem_dialect.frontend import import_ptx
    from tmem_dialect.interpreter import run_kernel

    text = _KERNEL + """    .reg .f32 %f<3>; .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    mov.f32 %f1, 0f00000000;
    mov.f32 %f2, 0f80000000;
    st.global.f32 [%rd1], %f1;
    st.global.f32 [%rd1+4], %f2;
    ret;
}
"""
    result = run_kernel(import_ptx(text, "k.ptx"), threads=1, args=[np.full(2, 7, np.float32)])
    assert not result.errors
    assert result.args[0].view(np.uint32).tolist() == [0x00000000, 0x80000000]
