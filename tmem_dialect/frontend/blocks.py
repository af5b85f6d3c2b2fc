"""A PTX function body's basic blocks: split at labels and branches, a block per guarded instruction, and edges."""

from __future__ import annotations

from tmem_dialect.diagnostics import DiagnosticError
from tmem_dialect.frontend.ssa import BasicBlock, connect
from tmem_dialect.frontend.syntax import Branch, Function, Imm, Instruction, Label, Reg, VectorOperand

ENDS_BLOCK = ("bra", "ret", "exit")


def build_blocks(fn: Function, source) -> list[BasicBlock]:
    """Split the body at labels and after branches; a guarded instruction gets its own block.

    Block ends: ("br", target, instruction), ("cond", guard, then, else, instruction), ("ret", instruction).
    """
    blocks: list[BasicBlock] = []
    by_label: dict[tuple[int, str], BasicBlock] = {}

    def new_block(start: int) -> BasicBlock:
        b = BasicBlock(start=start)
        blocks.append(b)
        return b

    from tmem_dialect.frontend.idioms import blocking_waits

    current = new_block(fn.start)
    open_block = True  # `current` can still fall through to what follows
    for item in blocking_waits(fn.body):
        if isinstance(item, Label):
            following = new_block(item.start)
            if open_block:
                current.end = ("br", following, None)
            by_label[item.key] = following
            current, open_block = following, True
            continue
        if not open_block:
            current = new_block(item.start)  # unreachable code after a branch
            open_block = True
        head = item.parts[0]
        if head == "brx":
            current = _indexed_branch(fn, source, item, current, new_block)
            open_block = False
            continue
        if head == "bra":
            target = item.operands[0] if len(item.operands) == 1 else None
            if not isinstance(target, Branch):
                raise DiagnosticError([source.error(item.start, "bra takes one label operand")])
            if item.guard is None:
                current.end = ("br", target, item)
                open_block = False
                continue
            following = new_block(item.start)
            current.end = ("cond", item.guard, target, following, item)
            current = following
            continue
        if item.guard is not None:
            guarded = new_block(item.start)
            following = new_block(item.start)
            current.end = ("cond", item.guard, guarded, following, item)
            unguarded = Instruction(item.opcode, item.operands, item.start, None, item.extra)
            if head in ENDS_BLOCK:
                guarded.end = ("ret", unguarded)
            else:
                guarded.instructions.append(unguarded)
                guarded.end = ("br", following, None)
                following.merges = (current, guarded)  # (ssa.py: reads there skip the trivial phi)
            current = following
            continue
        if head in ENDS_BLOCK:
            current.end = ("ret", item)
            open_block = False
            continue
        current.instructions.append(item)
    if open_block:
        current.end = ("ret", None)
    for b in blocks:
        end = b.end
        if end[0] == "br" and isinstance(end[1], Branch):
            b.end = ("br", by_label[end[1].key], end[2])
        elif end[0] == "cond" and isinstance(end[2], Branch):
            b.end = ("cond", end[1], by_label[end[2].key], end[3], end[4])
        if b.end[0] == "br":
            connect(b, b.end[1])
        elif b.end[0] == "cond":
            connect(b, b.end[2])
            connect(b, b.end[3])
    if blocks[0].in_edges:
        entry = BasicBlock(start=fn.start, end=("br", blocks[0], None))
        connect(entry, blocks[0])
        blocks.insert(0, entry)
    blocks[0].entry = True
    return blocks


def written_once(fn: Function, blocks: list[BasicBlock]) -> set:
    """The registers that one destination operand names, once in the function (the destinations
    are the first operand and the `|%p` one): a prediction, which the SSA builder checks."""
    writes: dict = {p.register: 1 for p in fn.params if p.register is not None}
    for bb in blocks:
        for ins in bb.instructions:
            if not ins.operands:
                continue
            first = ins.operands[0]
            for r in (first.elements if isinstance(first, VectorOperand) else (first,)):
                if isinstance(r, Reg):
                    writes[r.var] = writes.get(r.var, 0) + 1
            if isinstance(ins.extra, Reg):
                writes[ins.extra.var] = writes.get(ins.extra.var, 0) + 1
    return {var for var, n in writes.items() if n == 1}


def _indexed_branch(fn: Function, source, item: Instruction, current: BasicBlock, new_block) -> BasicBlock:
    """`brx.idx{.uni} %i, L`: a chain of `setp.eq %i, k` tests branching to L's k-th target (PTX ISA
    9.7.12.3: an index past the list is undefined behaviour; here it takes the last target)."""
    from tmem_dialect.frontend.syntax import Variable

    operands = item.operands
    if item.parts[1:] not in (["idx"], ["idx", "uni"]) or len(operands) != 2 or not isinstance(operands[1], Branch):
        raise DiagnosticError([source.error(item.start, "brx.idx{.uni} takes an index and a .branchtargets label")])
    if item.guard is not None:
        raise DiagnosticError([source.error(item.start, "unmodelled: a guarded brx.idx")])
    targets = fn.branch_targets[operands[1].key].targets  # type: ignore[index]
    for k, target in enumerate(targets[:-1]):
        test = Variable(f"%__brx{item.start}_{k}", "pred")
        current.instructions.append(Instruction("setp.eq.b32", [Reg(test), operands[0], Imm(k, str(k))], item.start))
        following = new_block(item.start)
        current.end = ("cond", Reg(test), target, following, item)
        current = following
    current.end = ("br", targets[-1], item)
    return current
