"""Kernel conventions every layer shares: which function is a kernel, its block size, address spaces.

Dialects, passes, lowering and the interpreter all read these facts here; none restates them.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, IntAttr, IntegerAttr, IntegerType, MemRefType
from xdsl.ir import Attribute, Operation

from tmem_dialect.isa.core import MAX_THREADS_PER_CTA

# Kernel attributes: the tcgen05-level spellings on func.func and their nvvm equivalents on
# llvm.func (the lowering renames one to the other).
KERNEL_ATTR = "tcgen05.kernel"
REQNTID_ATTR = "tcgen05.reqntid"
NVVM_KERNEL_ATTR = "nvvm.kernel"
NVVM_REQNTID_ATTR = "nvvm.reqntid"
CLUSTER_DIM_ATTR = "tcgen05.cluster_dim"  # the CTAs of a cluster (PTX .reqnctapercluster)
NVVM_CLUSTER_DIM_ATTR = "nvvm.cluster_dim"
CTA_GROUP_ATTR = "tcgen05.cta_group"  # a kernel's cta_group when no op of it says (tmem-plan-columns)
NVVM_SPELLING = {KERNEL_ATTR: NVVM_KERNEL_ATTR, REQNTID_ATTR: NVVM_REQNTID_ATTR,
                 CLUSTER_DIM_ATTR: NVVM_CLUSTER_DIM_ATTR}

MAX_THREADS_PER_BLOCK = MAX_THREADS_PER_CTA  # the ISA's limit, under the name the layers use

# NVPTX address spaces (LLVM numbering; PTX state spaces .global, .shared, and TMEM).
GENERIC_ADDRESS_SPACE = 0
GLOBAL_ADDRESS_SPACE = 1
SHARED_ADDRESS_SPACE = 3
SHARED_CLUSTER_ADDRESS_SPACE = 7  # .shared::cluster: any CTA of the cluster (upstream !llvm.ptr<7>)
TMEM_ADDRESS_SPACE = 6
PARAM_ADDRESS_SPACE = 101  # .param: a byval kernel parameter's own address (mov %r, p; PTX ISA 5.1.6.1)
WORKGROUP_MEMORY_SPACE = "#gpu.address_space<workgroup>"  # the gpu dialect's name of shared memory
GLOBAL_MEMORY_SPACE = "#gpu.address_space<global>"


def _attribute(op: Operation, name: str) -> Attribute | None:
    """A function attribute, wherever the function keeps it (llvm.func: properties too)."""
    return op.attributes.get(name) or op.properties.get(name)


def is_kernel(op: Operation) -> bool:
    """A function marked as a kernel at either level (`tcgen05.kernel` or `nvvm.kernel`)."""
    return _attribute(op, KERNEL_ATTR) is not None or _attribute(op, NVVM_KERNEL_ATTR) is not None


def reqntid_attribute(op: Operation) -> tuple[str, Attribute] | None:
    """(name, value) of the block-size declaration of a kernel, if it has one."""
    for name in (REQNTID_ATTR, NVVM_REQNTID_ATTR):
        attr = _attribute(op, name)
        if attr is not None:
            return name, attr
    return None


def integer_list(attr: Attribute) -> list[int] | None:
    """The integers of `array<i32: ...>` or of a single integer attribute; None for anything else."""
    if isinstance(attr, DenseArrayBase) and isinstance(attr.elt_type, IntegerType):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, IntegerAttr):
        return [attr.value.data]
    return None


def reqntid(op: Operation) -> tuple[int, int, int] | None:
    """The block size a kernel declares, padded to (x, y, z); None when it declares none.

    Raises ValueError for a declaration that is not 1 to 3 positive sizes of at most
    MAX_THREADS_PER_BLOCK threads in all.
    """
    found = reqntid_attribute(op)
    if found is None:
        return None
    name, attr = found
    values = integer_list(attr)
    if values is None or not 1 <= len(values) <= 3:
        raise ValueError(f"'{name}' must be an array<i32> of 1 to 3 sizes, got {attr}")
    x, y, z = (values + [1, 1])[:3]
    if min(x, y, z) < 1 or x * y * z > MAX_THREADS_PER_BLOCK:
        raise ValueError(f"'{name}' declares {x}x{y}x{z} threads; a CTA has 1 to "
                         f"{MAX_THREADS_PER_BLOCK} threads")
    return x, y, z


def cluster_dim(op: Operation) -> tuple[int, int, int] | None:
    """The cluster shape a kernel declares (`tcgen05.cluster_dim` / `nvvm.cluster_dim`), padded to
    (x, y, z); None when it declares none. Raises ValueError for 1 to 3 positive sizes it is not."""
    for name in (CLUSTER_DIM_ATTR, NVVM_CLUSTER_DIM_ATTR):
        attr = _attribute(op, name)
        if attr is None:
            continue
        values = integer_list(attr)
        if values is None or not 1 <= len(values) <= 3 or min(values) < 1:
            raise ValueError(f"'{name}' must be an array<i32> of 1 to 3 positive sizes, got {attr}")
        x, y, z = (values + [1, 1])[:3]
        return x, y, z
    return None


def pointer_address_space(t: Attribute) -> int | None:
    """The address space of an `!llvm.ptr<N>` (0 for a plain `!llvm.ptr`), None for other types."""
    if not isinstance(t, llvm.LLVMPointerType):
        return None
    return t.addr_space.data if isinstance(t.addr_space, IntAttr) else GENERIC_ADDRESS_SPACE


def memref_address_space(t: MemRefType) -> int | None:
    """The address space a memref lives in: none/1/global -> 1, 3/workgroup -> 3; else None."""
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        value = space.value.data
        return value if value in (GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE) else None
    text = str(space)
    if space is None or text in ("#builtin.none", "none", GLOBAL_MEMORY_SPACE):
        return GLOBAL_ADDRESS_SPACE
    if text == WORKGROUP_MEMORY_SPACE:
        return SHARED_ADDRESS_SPACE
    return None


def is_shared(t: Attribute) -> bool:
    """A pointer or memref type in shared memory (addrspace 3, #gpu.address_space<workgroup>)."""
    if isinstance(t, MemRefType):
        return memref_address_space(t) == SHARED_ADDRESS_SPACE
    return pointer_address_space(t) == SHARED_ADDRESS_SPACE
