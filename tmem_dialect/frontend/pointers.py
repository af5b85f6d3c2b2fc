"""Which kernel parameters are pointers: those whose loaded value reaches a memory address.

PTX passes a buffer as a `.u64` parameter; the module only says it is a pointer through how the
value is used. A register is address-like when it is the base of a global or generic access or
the source of a cvta, or is copied or offset (mov, add, sub, cvta) into an address-like register;
a parameter (or a byval parameter's field, by offset) loaded into an address-like register becomes an
`!llvm.ptr<1>` argument, so tmem-run and run_kernel pass it a buffer. The worklist visits each copy edge once: linear in the body.
"""

from __future__ import annotations

from tmem_dialect.frontend.syntax import Address, Function, Instruction, Reg, Symbol, Variable

_MEMORY = ("ld", "st", "atom", "red", "prefetch", "cp")
_COPIES = ("mov", "add", "sub", "cvta", "mad")  # a pointer plus an offset is still the pointer


_ROLES: dict[str, tuple[bool, bool, bool, bool]] = {}  # by opcode


def _roles(opcode: str) -> tuple[bool, bool, bool, bool]:
    """What an instruction with this opcode tells about pointers (memoized: few distinct
    opcodes): (an ld.param, a global or generic access, a cvta to a generic address not of
    shared memory, a copy)."""
    found = _ROLES.get(opcode)
    if found is None:
        parts = opcode.split(".")
        head = parts[0]
        param_load = head == "ld" and "param" in parts
        memory = not param_load and head in _MEMORY and not {"shared", "param", "local", "const"} & {
            p.split("::")[0] for p in parts}
        cvta = head == "cvta" and "shared" not in parts[1:3] and not any(p.startswith("shared") for p in parts)
        found = _ROLES[opcode] = (param_load, memory, cvta, head in _COPIES)
    return found


def pointer_parameters(fn: Function) -> set[tuple[str, int]]:
    """(parameter name, byte offset) of each parameter field that is a pointer."""
    address_like: set[Variable] = set()
    sources: dict[Variable, list[Variable]] = {}
    loads: list[tuple[tuple[str, int], Variable]] = []
    for item in fn.body:
        if not isinstance(item, Instruction):
            continue
        roles = _ROLES.get(item.opcode)  # (_roles()'s memo, read here: one Python call per instruction less)
        param_load, memory, cvta, copy = roles if roles is not None else _roles(item.opcode)
        if param_load:
            if item.operands:
                dest, src = item.operands[0], item.operands[-1]
                if isinstance(dest, Reg) and isinstance(src, Address) and isinstance(src.base, Symbol):
                    loads.append(((src.base.name, src.offset), dest.var))
            continue
        if memory:
            for op in item.operands:
                if isinstance(op, Address) and isinstance(op.base, Reg):
                    address_like.add(op.base.var)
        if cvta and len(item.operands) == 2 and isinstance(item.operands[1], Reg):
            address_like.add(item.operands[1].var)
        if copy and item.operands and isinstance(item.operands[0], Reg):
            dest = item.operands[0].var
            if not dest.type.endswith("64"):
                continue
            for op in item.operands[1:]:
                if isinstance(op, Reg) and op.var.type.endswith("64"):
                    sources.setdefault(dest, []).append(op.var)
    work = list(address_like)
    while work:
        var = work.pop()
        for src in sources.get(var, ()):
            if src not in address_like:
                address_like.add(src)
                work.append(src)
    return {key for key, var in loads if var in address_like}
