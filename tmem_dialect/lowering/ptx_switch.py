"""PTX for llvm.switch: a chain of `setp.eq` and predicated branches, then the default edge."""

from __future__ import annotations

from typing import Any

from tmem_dialect.dialects.llvm_switch import SwitchOp
from tmem_dialect.lowering.ptx_branches import _Edge, edge_moves, jump
from tmem_dialect.lowering.ptx_values import Imm, RegClass, int_imm

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)


def switch(em: Emitter, op: SwitchOp, edge: Any) -> None:
    """Each case compares the value and branches; an edge that moves block arguments jumps over its
    moves when the compare fails. `edge(block, operands)` builds the emitter's edge record."""
    value = em.operand(op.value)
    cls = em.class_of(op.value.type)
    default = edge(op.default_destination, op.default_operands)
    if isinstance(value, Imm):  # a constant value: one edge, as LLVM folds it
        taken = next((edge(b, ops) for v, b, ops in op.case_list() if int_imm(cls, v).bits == value.bits), default)
        jump(em, taken, edge_moves(em, taken))
        return
    reg = em.reg(op.value)
    for case_value, block, operands in op.case_list():
        target = edge(block, operands)
        hit = em.new_reg(RegClass.PRED)
        if cls is RegClass.PRED:
            em.out(f"{'mov.pred' if case_value & 1 else 'not.pred'} {hit}, {reg};")
        else:
            em.out(f"setp.eq.b{cls.bits} {hit}, {reg}, {int_imm(cls, case_value)};")
        moves = edge_moves(em, target)
        if not moves:
            em.out(f"@{hit} bra {em.labels[target.target]};")
            continue
        em.edge_labels += 1
        label = f"$L__BB{em.index}_edge{em.edge_labels}"
        em.out(f"@!{hit} bra {label};")
        for line in moves:
            em.out(line)
        em.out(f"bra.uni {em.labels[target.target]};")
        em.out(f"{label}:")
    jump(em, default, edge_moves(em, default))


SWITCH_HANDLERS = {SwitchOp: lambda em, op: switch(em, op, _Edge)}
