"""The shared homes of kernel conventions, integer semantics and block orders."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects.builtin import DenseArrayBase, IntAttr, IntegerAttr, MemRefType, StringAttr, i32
from xdsl.dialects import func, llvm

from tmem_dialect import conventions, integers
from tmem_dialect.block_order import region_order, reverse_post_order
from tmem_dialect.dialects import make_context
from tmem_dialect.ir import parse_module

WIDTHS = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


@given(st.sampled_from(sorted(WIDTHS)), st.integers(-(2**70), 2**70))
def test_integer_readings_agree_with_numpy_twos_complement(width: int, value: int) -> None:
    dtype = np.dtype(WIDTHS[width])
    pattern = integers.wrap(value, width)
    assert 0 <= pattern < 2**width
    stored = np.array(pattern, dtype=np.dtype(f"u{width // 8}")).view(dtype)
    assert integers.as_signed(value, width) == int(stored)
    assert integers.as_unsigned(value, width) == pattern


@given(st.integers(-8, 8))
def test_i1_is_a_truth_value(value: int) -> None:
    assert integers.as_signed(value, 1) == value & 1
    assert integers.truth(value) is bool(value & 1)
    assert integers.truth(np.array([value], dtype=np.int32)).dtype == np.bool_


def _kernel(attrs: dict) -> func.FuncOp:
    f = func.FuncOp("k", ((), ()))
    for name, value in attrs.items():
        f.attributes[name] = value
    return f


def test_reqntid_is_padded_and_checked() -> None:
    assert conventions.reqntid(_kernel({})) is None
    assert conventions.reqntid(_kernel({conventions.REQNTID_ATTR: DenseArrayBase.from_list(i32, [128])})) == (128, 1, 1)
    assert conventions.reqntid(_kernel({conventions.NVVM_REQNTID_ATTR: IntegerAttr(64, i32)})) == (64, 1, 1)
    with pytest.raises(ValueError, match="1 to 1024 threads"):
        conventions.reqntid(_kernel({conventions.REQNTID_ATTR: DenseArrayBase.from_list(i32, [2048])}))
    with pytest.raises(ValueError, match="array<i32> of 1 to 3 sizes"):
        conventions.reqntid(_kernel({conventions.REQNTID_ATTR: StringAttr("128")}))


def test_kernel_attribute_at_both_levels() -> None:
    assert conventions.is_kernel(_kernel({conventions.KERNEL_ATTR: StringAttr("")}))
    assert not conventions.is_kernel(_kernel({}))
    g = llvm.FuncOp("g", llvm.LLVMFunctionType([]))
    g.attributes[conventions.NVVM_KERNEL_ATTR] = StringAttr("")
    assert conventions.is_kernel(g)


def test_address_spaces_of_memrefs_and_pointers() -> None:
    assert conventions.memref_address_space(MemRefType(i32, [4])) == conventions.GLOBAL_ADDRESS_SPACE
    assert conventions.memref_address_space(MemRefType(i32, [4], memory_space=IntegerAttr(3, i32))) == 3
    assert conventions.is_shared(llvm.LLVMPointerType(IntAttr(3)))
    assert not conventions.is_shared(llvm.LLVMPointerType())
    assert conventions.pointer_address_space(llvm.LLVMPointerType(IntAttr(6))) == conventions.TMEM_ADDRESS_SPACE
    assert conventions.pointer_address_space(i32) is None


def test_region_order_is_reverse_post_order_then_unreachable_blocks() -> None:
    module = parse_module(make_context(), """
llvm.func @f(%c: i1) {
  llvm.br ^a
^dead:
  llvm.return
^a:
  llvm.cond_br %c, ^b, ^c
^b:
  llvm.br ^d
^c:
  llvm.br ^d
^d:
  llvm.return
}""")
    f = next(iter(module.ops))
    blocks = list(f.body.blocks)
    entry, dead, a, b, c, d = blocks
    assert region_order(f.body) == [entry, a, c, b, d, dead]


@given(st.dictionaries(st.integers(0, 9), st.lists(st.integers(0, 9), max_size=3), min_size=1))
def test_reverse_post_order_puts_every_node_before_its_non_back_edge_successors(graph) -> None:
    start = min(graph)
    order = reverse_post_order(start, lambda n: graph.get(n, []))
    position = {n: i for i, n in enumerate(order)}
    assert order[0] == start and len(position) == len(order)
    for n in order:
        for m in graph.get(n, []):
            assert m in position
            # either a forward edge, or a back edge to a node that reaches n (a loop)
            if position[m] <= position[n]:
                reach = reverse_post_order(m, lambda x: graph.get(x, []))
                assert n in reach
