"""Kernel attributes and resources against the ISA and sm_100: block size, tuning directives, shared memory, registers, cta_group.

Two tiers. `attribute_diagnostics` runs at every parse: a kernel attribute of the wrong form (a
zero or negative size, more than 1024 threads, `nvvm.kernel = 1`) is not a kernel we can reason
about. `kernel_diagnostics` holds the rules of the target: valid MLIR (iree-opt accepts it) that
ptxas rejects (cta_group::1 and ::2 mixed, too much shared memory) or whose registers do not fit;
tmem-verify and the PTX target report them, before ptxas does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, UnitAttr, VectorType, i32
from xdsl.ir import Attribute, Operation

from tmem_dialect import conventions, isa
from tmem_dialect.diagnostics import Diagnostic, error
from tmem_dialect.findings import FindingKind
from tmem_dialect.op_types import OpIndex, walk_ops

KERNEL_ATTRS = (conventions.KERNEL_ATTR, conventions.NVVM_KERNEL_ATTR)
BLOCK_SIZE_ATTRS = (conventions.REQNTID_ATTR, conventions.NVVM_REQNTID_ATTR, "nvvm.maxntid")
COUNT_ATTRS = ("nvvm.maxnreg", "nvvm.minctasm", "nvvm.cluster_max_blocks")
CLUSTER_ATTRS = (conventions.CLUSTER_DIM_ATTR, conventions.NVVM_CLUSTER_DIM_ATTR)
I32_MAX = (1 << 31) - 1

if TYPE_CHECKING:
    from tmem_dialect.dialects.interfaces import TMEMEffect


def attribute_diagnostics(module: Operation) -> list[Diagnostic]:
    """Every malformed kernel attribute in `module` (checked at parse)."""
    found: list[Diagnostic] = []
    for op in module.walk():
        if isinstance(op, (func.FuncOp, llvm.FuncOp)):
            found.extend(_check_attributes(op))
    return found


def kernel_diagnostics(
    kernel: Operation, module: Operation, kernel_ops: OpIndex | None = None,
    module_ops: OpIndex | None = None, effects: dict[Operation, TMEMEffect] | None = None,
) -> list[tuple[FindingKind, Diagnostic]]:
    """What ptxas or the hardware rejects in `kernel` (a function of `module`): one cta_group,
    registers per thread for the declared block size, static shared memory.

    `kernel_ops` / `module_ops`: `kernel.walk()` / `module.walk()` indexed, when the caller
    has them (tmem-verify walks each once for all its checks); `effects`: the TMEM effect of
    each op of `kernel_ops` that has one, in their order (its analysis has them)."""
    from tmem_dialect.dialects.interfaces import has_tmem_effect, tmem_effect

    kernel_ops = OpIndex(walk_ops(kernel)) if kernel_ops is None else kernel_ops
    module_ops = OpIndex(walk_ops(module)) if module_ops is None else module_ops
    if effects is None:
        effects = {op: e for op in kernel_ops.where(has_tmem_effect) if (e := tmem_effect(op)) is not None}
    found = [(FindingKind.CTA_GROUP_MISMATCH, d) for d in mixed_cta_groups(kernel, effects=effects)]
    found.extend((FindingKind.RESOURCE_LIMIT, d) for d in _check_registers(kernel, effects))
    found.extend((FindingKind.RESOURCE_LIMIT, d) for d in _check_shared_memory(kernel, kernel_ops, module_ops))
    return found


def module_diagnostics(module: Operation, ops: OpIndex | None = None) -> list[tuple[FindingKind, Diagnostic]]:
    """What ptxas rejects in `module` outside any one kernel: a global aligned to 2^32 bytes or
    more (ptxas: "Constant overflow"; it is emitted whether or not a kernel uses it), and a named
    barrier's constant id or thread count out of range in any function (device functions too).
    `ops`: `module.walk()` indexed, when the caller has it."""
    ops = OpIndex(walk_ops(module)) if ops is None else ops
    found = [
        (FindingKind.RESOURCE_LIMIT,
         error(op, f"alignment {op.alignment.value.data} of '@{op.sym_name.data}' is too large: "
                   f"ptxas takes alignments below 2^32 bytes"))
        for op in ops.of(llvm.GlobalOp)
        if op.alignment is not None and op.alignment.value.data >= isa.MAX_GLOBAL_ALIGNMENT
    ]
    found.extend((FindingKind.BARRIER_COUNT, d) for d in _check_named_barriers(ops))
    return found



def kernels(module: Operation) -> Iterator[Operation]:
    """The kernel functions of `module`."""
    return (op for op in module.walk() if isinstance(op, (func.FuncOp, llvm.FuncOp)) and conventions.is_kernel(op))


def _attr(f: Operation, name: str) -> Attribute | None:
    found = f.attributes.get(name)
    return found if found is not None else f.properties.get(name)


def block_size(f: Operation) -> tuple[int, int, int] | None:
    """The kernel's reqntid (x, y, z) when it declares a well-formed one."""
    try:
        return conventions.reqntid(f)
    except ValueError:
        return None


def _check_attributes(f: Operation) -> Iterator[Diagnostic]:
    for name in KERNEL_ATTRS:
        attr = _attr(f, name)
        if attr is not None and not isinstance(attr, UnitAttr):
            yield error(f, f"'{name}' is a unit attribute (written alone), got {attr}")
    for name in BLOCK_SIZE_ATTRS:
        attr = _attr(f, name)
        if attr is None:
            continue
        if not (isinstance(attr, DenseArrayBase) and attr.elt_type == i32):  # signless, as upstream's DenseI32ArrayAttr
            yield error(f, f"'{name}' must be an array<i32: ...> of 1 to 3 sizes, got {attr}")
            continue
        dims = [int(v) for v in attr.get_values()]
        if not 1 <= len(dims) <= 3:
            yield error(f, f"'{name}' must have 1 to 3 sizes (x, y, z), got {len(dims)}")
        elif any(not 1 <= d <= I32_MAX for d in dims):
            yield error(f, f"'{name}' sizes must be positive 32-bit integers, got {', '.join(map(str, dims))}")
        elif name != "nvvm.maxntid" and (total := _product(dims)) > isa.MAX_THREADS_PER_CTA:
            yield error(f, f"'{name}' asks for {total} threads ({' x '.join(map(str, dims))}); a CTA has at "
                           f"most {isa.MAX_THREADS_PER_CTA} threads")
    for name in CLUSTER_ATTRS:
        attr = _attr(f, name)
        if attr is None:
            continue
        dims = [int(v) for v in attr.get_values()] if isinstance(attr, DenseArrayBase) and attr.elt_type == i32 else []
        if not 1 <= len(dims) <= 3 or any(not 1 <= d <= I32_MAX for d in dims):
            yield error(f, f"'{name}' must be an array<i32: ...> of 1 to 3 positive sizes, got {attr}")
    for name in COUNT_ATTRS:
        attr = _attr(f, name)
        if attr is None:
            continue
        if not (isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType)):
            yield error(f, f"'{name}' must be an integer (e.g. {name} = 1 : i32), got {attr}")
        elif not 1 <= attr.value.data <= I32_MAX:
            yield error(f, f"'{name}' must be a positive 32-bit integer, got {attr.value.data}")


def _product(dims: list[int]) -> int:
    total = 1
    for d in dims:
        total *= d
    return total


def cta_group_uses(
    kernel: Operation, ops: list[Operation] | None = None, effects: dict[Operation, TMEMEffect] | None = None
) -> Iterator[tuple[int, Operation]]:
    """The cta_group of each op of the kernel that carries one (lifecycle, mma, cp, shift, commit);
    `ops`: `kernel.walk()` as a list, `effects`: the TMEM effects of its ops in order, when the
    caller has them."""
    from tmem_dialect.dialects.interfaces import tmem_effect

    pairs = effects.items() if effects is not None else (
        (op, tmem_effect(op)) for op in (kernel.walk() if ops is None else ops)
    )
    for op, effect in pairs:
        if effect is not None and effect.cta_group is not None:
            yield effect.cta_group, op


def mixed_cta_groups(
    kernel: Operation, declared: tuple[int, Operation] | None = None, ops: list[Operation] | None = None,
    effects: dict[Operation, TMEMEffect] | None = None,
) -> Iterator[Diagnostic]:
    """All tcgen05 instructions of a kernel use one cta_group [ptxas: "uses single CTA
    (.cta_group::1) and CTA pair granularity (.cta_group::2)"]: an error at each op using another
    than the first (or than `declared`, a cta_group the kernel states, and where)."""
    first = declared
    for group, op in cta_group_uses(kernel, ops, effects):
        if first is None:
            first = (group, op)
        elif group != first[0]:
            yield error(op, f"{op.name} uses cta_group::{group} but this kernel already "
                        f"uses cta_group::{first[0]}: all tcgen05 instructions of a kernel use the "
                        "same cta_group").attach_note(f"cta_group::{first[0]} is used here", first[1])


def _check_named_barriers(ops: OpIndex) -> Iterator[Diagnostic]:
    """Constant barrier ids and thread counts of bar.sync / bar.arrive (nvvm.barrier,
    nvvm.barrier.arrive) that the ISA allows."""
    from tmem_dialect.dialects.nvvm import constant_int

    for op in ops.named(lambda name: name.startswith("nvvm.barrier")):
        ident = getattr(op, "barrierId", None)
        count = getattr(op, "numberOfThreads", None)
        if ident is None and count is None:
            continue
        problem = isa.named_barrier_error(
            constant_int(ident) if ident is not None else None,
            constant_int(count) if count is not None else None,
        )
        if problem:
            yield error(op, problem)


def _check_registers(kernel: Operation, effects: dict[Operation, TMEMEffect]) -> Iterator[Diagnostic]:
    """Each tcgen05.ld/st message's registers fit the per-thread share of the SM's registers."""
    dims = block_size(kernel)
    if dims is None:
        return
    threads = _product(list(dims))
    budget = isa.REGISTERS_PER_SM // threads
    for op, effect in effects.items():
        if effect.shape is None or effect.num is None:
            continue
        regs = isa.regs_per_thread(effect.shape, effect.num)
        if regs > budget:
            yield error(op, f"this message needs {regs} registers per thread, but a CTA of {threads} "
                            f"threads has at most {budget} ({isa.REGISTERS_PER_SM} registers per SM)")


def _check_shared_memory(kernel: Operation, kernel_ops: OpIndex, module_ops: OpIndex) -> Iterator[Diagnostic]:
    """The shared globals the kernel takes the address of fit the CTA's shared memory."""
    globals_by_name = {op.sym_name.data: op for op in module_ops.of(llvm.GlobalOp)}
    used: dict[str, llvm.GlobalOp] = {}
    for op in kernel_ops.of(llvm.AddressOfOp):
        g = globals_by_name.get(op.global_name.root_reference.data)
        if g is not None and g.addr_space is not None and g.addr_space.value.data == 3:
            used[g.sym_name.data] = g
    total = 0
    for g in (g for g in globals_by_name.values() if g.sym_name.data in used):  # declaration order
        size = type_size(g.global_type)
        if size is None:
            continue
        # ptxas lays the globals out in order, each at its alignment ("uses too much shared
        # data (0x100004 bytes)" for 4 bytes after a 4-byte global aligned to 2^20).
        align = g.alignment.value.data if g.alignment is not None else 1
        padded = -(-total // align) * align if align > 0 else total
        at = f" at byte {padded} (aligned to {align} bytes)" if padded > total else ""
        total = padded + size
        if total > isa.MAX_SHARED_BYTES_PER_CTA:
            yield error(kernel, f"the kernel's shared globals take at least {total} bytes; a CTA has at most "
                                f"{isa.MAX_SHARED_BYTES_PER_CTA} bytes of shared memory").attach_note(
                f"'@{g.sym_name.data}' takes {size} bytes{at}", g)
            return


def type_size(t: Attribute) -> int | None:
    """Bytes of an LLVM type: a global's, or what a store of it writes (None when we cannot tell)."""
    if isinstance(t, IntegerType):
        return max(1, (t.width.data + 7) // 8)
    if isinstance(t, VectorType) and t.get_num_dims() == 1:
        inner = type_size(t.get_element_type())
        return None if inner is None else inner * t.get_shape()[0]
    if isinstance(t, llvm.LLVMArrayType):
        inner = type_size(t.type)
        return None if inner is None else inner * t.size.data
    bits = getattr(t, "bitwidth", None)
    if isinstance(bits, int):
        return max(1, bits // 8)
    if isinstance(t, llvm.LLVMPointerType):
        return 8
    return None
