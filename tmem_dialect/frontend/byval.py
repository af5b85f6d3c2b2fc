"""Byval (array) kernel parameters, as CuTe DSL passes its tensor structs: each field ld.param reads becomes one argument.

`.param .align 8 .b8 p[16]` is a struct passed by value; the kernel reads its fields with
`ld.param.b64 %rd, [p+8]` (also .v2/.v4). The importer gives each field read at a constant
offset an argument of its own, in offset order (a field whose value reaches an address is an
`!llvm.ptr<1>`, as for scalar parameters; a byte field is an i16, PTX's narrowest parameter), so
tmem-run and run_kernel pass a struct as its fields. Fields that overlap with different widths cannot be split: that parameter is unmodelled.
A parameter whose address is taken (`mov.b64 %rd, p` or Triton's `mov.b32 %r, p`, then `cvta.param`:
TMA descriptors) is one `!llvm.ptr<101>` argument, its .param-space address (llvm.byval and
llvm.align record its size and alignment): ld.param of its fields and generic loads through the
cvta'd address read its bytes (tmem-run passes a buffer of the bytes, or a tensor map).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tmem_dialect.frontend import types as T
from tmem_dialect.frontend.syntax import Address, Function, Instruction, Param, Symbol

_VECTORS = {"v2": 2, "v4": 4, "v8": 8}


@dataclass
class Field:
    offset: int
    ptype: str  # the PTX type it is read as (b64, u32, b8, ...)

    @property
    def bytes(self) -> int:
        return T.bits(T.storage_type(self.ptype)) // 8


@dataclass
class ByvalParam:
    param: Param
    fields: dict[int, Field] = field(default_factory=dict)
    address_taken_at: int | None = None  # offset in the source of the first use of its address
    conflict: str | None = None

    @property
    def ordered(self) -> list[Field]:
        return [self.fields[k] for k in sorted(self.fields)]


def is_byval(p: Param) -> bool:
    return p.register is None and p.count is not None


def analyse(fn: Function) -> dict[str, ByvalParam]:
    """The byval parameters of `fn` with the fields its ld.param instructions read."""
    found = {p.name: ByvalParam(p) for p in fn.params if is_byval(p)}
    if not found:
        return found
    for item in fn.body:
        if not isinstance(item, Instruction):
            continue
        for i, operand in enumerate(item.operands):
            name = _named(operand)
            if name not in found:
                continue
            byval = found[name]
            if item.parts[0] == "ld" and "param" in item.parts and i == len(item.operands) - 1 \
                    and isinstance(operand, Address):
                _read(byval, item, operand.offset)
            elif byval.address_taken_at is None:
                byval.address_taken_at = item.start
    return found


def _named(operand) -> str | None:
    if isinstance(operand, Symbol):
        return operand.name
    if isinstance(operand, Address) and isinstance(operand.base, Symbol):
        return operand.base.name
    return None


def _read(byval: ByvalParam, ins: Instruction, offset: int) -> None:
    vector = next((_VECTORS[p] for p in ins.parts[1:-1] if p in _VECTORS), 1)
    ptype = ins.parts[-1]
    if not T.is_type_name(ptype):
        return  # the ld handler reports it
    width = T.bits(T.storage_type(ptype)) // 8
    for k in range(vector):
        _add(byval, Field(offset + k * width, ptype))


def _add(byval: ByvalParam, new: Field) -> None:
    same = byval.fields.get(new.offset)
    if same is not None and same.bytes == new.bytes:
        return
    end = new.offset + new.bytes
    for other in byval.fields.values():
        if other.offset < end and new.offset < other.offset + other.bytes:
            byval.conflict = (f"its bytes {new.offset}..{end - 1} are read as .{new.ptype} and, at "
                              f"{other.offset}, as .{other.ptype}")
            return
    if end > (byval.param.count or 0) * T.bits(T.storage_type(byval.param.type)) // 8:
        byval.conflict = f"a read at bytes {new.offset}..{end - 1} is past its end"
        return
    byval.fields[new.offset] = new
