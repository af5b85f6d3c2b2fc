"""PTX for control flow: llvm.br/cond_br as bra with block arguments copied on each edge, and ret."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import llvm
from xdsl.ir import Block, Operation, SSAValue

from tmem_dialect.lowering.ptx_values import Address, Imm, Operand, Reg, Undef

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)


@dataclass
class _Edge:
    target: Block
    args: Sequence[SSAValue]


def edge_moves(em: Emitter, edge: _Edge) -> list[str]:
    """A parallel copy of the branch operands into the target's block-argument registers."""
    dests: list[Reg] = []
    sources: list[tuple[SSAValue, int]] = []
    for arg, value in zip(edge.target.args, edge.args, strict=True):
        for i, d in enumerate(em.operands(arg)):
            assert isinstance(d, Reg)
            dests.append(d)
            sources.append((value, i))
    saved, em.current = em.current, []
    dest_set = set(dests)
    resolved: list[Operand] = []
    for value, i in sources:
        found = em.operand(value, i)
        if isinstance(found, Address):
            found = em.reg(value, i)
        resolved.append(found)
    temps: dict[Reg, Reg] = {}
    for (d, s) in zip(dests, resolved):
        if isinstance(s, Reg) and s in dest_set and s != d and s not in temps:
            t = em.new_reg(s.cls)
            em.out(f"{s.cls.mov} {t}, {s};")
            temps[s] = t
    for d, s in zip(dests, resolved):
        if isinstance(s, Undef) or s == d:
            continue
        src = temps.get(s, s) if isinstance(s, Reg) else s
        em.out(f"{d.cls.mov} {d}, {src};")
    moves, em.current = em.current, saved
    return moves


def jump(em: Emitter, edge: _Edge, moves: list[str]) -> None:
    for line in moves:
        em.out(line)
    if edge.target is not em.next_block:
        em.out(f"bra.uni {em.labels[edge.target]};")


def br(em: Emitter, op: llvm.BrOp) -> None:
    edge = _Edge(op.successor, op.arguments)
    jump(em, edge, edge_moves(em, edge))


def cond_br(em: Emitter, op: llvm.CondBrOp) -> None:
    then_edge = _Edge(op.then_block, op.then_arguments)
    else_edge = _Edge(op.else_block, op.else_arguments)
    cond = em.operand(op.cond)
    if isinstance(cond, Imm):
        edge = then_edge if cond.bits & 1 else else_edge
        jump(em, edge, edge_moves(em, edge))
        return
    c = em.reg(op.cond)
    then_moves, else_moves = edge_moves(em, then_edge), edge_moves(em, else_edge)
    if not then_moves and not (then_edge.target is em.next_block and not else_moves):
        em.out(f"@{c} bra {em.labels[then_edge.target]};")
        jump(em, else_edge, else_moves)
    elif not else_moves:
        em.out(f"@!{c} bra {em.labels[else_edge.target]};")
        jump(em, then_edge, then_moves)
    else:
        em.edge_labels += 1
        label = f"$L__BB{em.index}_edge{em.edge_labels}"
        em.out(f"@!{c} bra {label};")
        for line in then_moves:
            em.out(line)
        em.out(f"bra.uni {em.labels[then_edge.target]};")
        em.out(f"{label}:")
        jump(em, else_edge, else_moves)


BRANCH_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    llvm.BrOp: br,
    llvm.CondBrOp: cond_br,
}
