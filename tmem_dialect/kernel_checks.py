"""Kernel attributes and resources against the ISA and sm_100: block size, tuning directives, shared memory, registers, cta_group.

A kernel that breaks one of these can never be assembled or launched: ptxas rejects it (a zero
dimension, a non power-of-2 alignment, too much shared memory, cta_group::1 and ::2 mixed), the
hardware cannot launch it (more than 1024 threads), or its registers do not fit. We report each at
the op before ptxas (or a hung interpreter) does.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, UnitAttr
from xdsl.ir import Attribute, Operation

from tmem_dialect import isa
from tmem_dialect.diagnostics import Diagnostic, error

KERNEL_ATTRS = ("tcgen05.kernel", "nvvm.kernel")
BLOCK_SIZE_ATTRS = ("tcgen05.reqntid", "nvvm.reqntid", "nvvm.maxntid")
COUNT_ATTRS = ("nvvm.maxnreg", "nvvm.minctasm")
I32_MAX = (1 << 31) - 1


def kernel_diagnostics(module: Operation) -> list[Diagnostic]:
    """Every kernel-level violation in `module`."""
    from tmem_dialect.dialects.interfaces import tmem_effect
    from tmem_dialect.memory_model import EffectKind

    found: list[Diagnostic] = []
    for op in module.walk():
        effect = tmem_effect(op)
        if effect is not None and effect.kind in (EffectKind.ALLOC, EffectKind.DEALLOC) and effect.ncols is not None:
            # The tcgen05 ops check their nCols property; an nvvm op's is a constant operand.
            if problem := isa.ncols_error(effect.ncols):
                found.append(error(op, problem))
        if isinstance(op, (func.FuncOp, llvm.FuncOp)):
            found.extend(_check_attributes(op))
            if _is_kernel(op):
                found.extend(_check_kernel(op, module))
    return found


def _is_kernel(f: Operation) -> bool:
    return any(name in f.attributes or name in f.properties for name in KERNEL_ATTRS)


def _attr(f: Operation, name: str) -> Attribute | None:
    found = f.attributes.get(name)
    return found if found is not None else f.properties.get(name)


def block_size(f: Operation) -> tuple[int, int, int] | None:
    """The kernel's reqntid (x, y, z) when it declares a well-formed one."""
    for name in ("tcgen05.reqntid", "nvvm.reqntid"):
        attr = _attr(f, name)
        if isinstance(attr, DenseArrayBase) and isinstance(attr.elt_type, IntegerType):
            dims = tuple(int(v) for v in attr.get_values())
            if 1 <= len(dims) <= 3 and all(d >= 1 for d in dims):
                return (dims + (1, 1))[:3]  # type: ignore[return-value]
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
        if not (isinstance(attr, DenseArrayBase) and isinstance(attr.elt_type, IntegerType)
                and attr.elt_type.width.data == 32):
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


def _check_kernel(kernel: Operation, module: Operation) -> Iterator[Diagnostic]:
    from tmem_dialect.dialects.interfaces import tmem_effect

    dims = block_size(kernel)
    threads = _product(list(dims)) if dims is not None else None
    groups: dict[int, Operation] = {}
    for op in kernel.walk():
        effect = tmem_effect(op)
        if effect is None:
            continue
        if effect.cta_group is not None and effect.cta_group not in groups:
            if groups:
                other, first = next(iter(groups.items()))
                yield error(op, f"this kernel mixes cta_group::{effect.cta_group} with cta_group::{other}: "
                                "every tcgen05 instruction of a kernel must use the same cta_group"
                            ).attach_note(f"the cta_group::{other} op", first)
            groups[effect.cta_group] = op
        if threads is not None and effect.shape is not None and effect.num is not None:
            regs = isa.regs_per_thread(effect.shape, effect.num)
            budget = isa.REGISTERS_PER_SM // threads
            if regs > budget:
                yield error(op, f"this message needs {regs} registers per thread, but a CTA of {threads} "
                                f"threads has at most {budget} ({isa.REGISTERS_PER_SM} registers per SM)")
    yield from _check_shared_memory(kernel, module)


def _check_shared_memory(kernel: Operation, module: Operation) -> Iterator[Diagnostic]:
    """The shared globals the kernel takes the address of fit the CTA's shared memory."""
    globals_by_name = {
        op.sym_name.data: op for op in module.walk() if isinstance(op, llvm.GlobalOp)
    }
    used: dict[str, llvm.GlobalOp] = {}
    for op in kernel.walk():
        if isinstance(op, llvm.AddressOfOp):
            g = globals_by_name.get(op.global_name.root_reference.data)
            if g is not None and g.addr_space is not None and g.addr_space.value.data == 3:
                used[g.sym_name.data] = g
    total = 0
    for g in used.values():
        size = type_size(g.global_type)
        if size is None:
            continue
        total += size
        if total > isa.MAX_SHARED_BYTES_PER_CTA:
            yield error(kernel, f"the kernel's shared globals take at least {total} bytes; a CTA has at most "
                                f"{isa.MAX_SHARED_BYTES_PER_CTA} bytes of shared memory").attach_note(
                f"'@{g.sym_name.data}' takes {size} bytes", g)
            return


def type_size(t: Attribute) -> int | None:
    """Bytes of an LLVM global's type (None when we cannot tell)."""
    if isinstance(t, IntegerType):
        return max(1, (t.width.data + 7) // 8)
    if isinstance(t, llvm.LLVMArrayType):
        inner = type_size(t.type)
        return None if inner is None else inner * t.size.data
    bits = getattr(t, "bitwidth", None)
    if isinstance(bits, int):
        return max(1, bits // 8)
    if isinstance(t, llvm.LLVMPointerType):
        return 8
    return None
