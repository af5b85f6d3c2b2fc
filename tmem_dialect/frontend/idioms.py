"""PTX idioms the importer reads as one op: an mbarrier.try_wait loop is a blocking wait.

Compilers spell a blocking mbarrier wait as a loop around try_wait (PTX ISA 9.7.13.15.16), in two
shapes: Triton's `L: try_wait P, [bar], ph; @!P bra L;` and CuTe DSL's `L: try_wait P, [bar], ph;
@P bra D; bra L; D:`. Each becomes one try_wait marked blocking (nvvm.mbarrier.try_wait.parity,
which lowering/ptx_async.py emits as the same loop), after which P is true; the labels stay, so
any other branch to them still reaches the wait. The engine and the interpreter then see a wait
that completes, not a test in a loop.
"""

from __future__ import annotations

from tmem_dialect.frontend.tree import Branch, Instruction, Label, Reg


def _is_try_wait(item) -> bool:
    return isinstance(item, Instruction) and item.guard is None and item.opcode.startswith("mbarrier.try_wait") \
        and bool(item.operands) and isinstance(item.operands[0], Reg)


def _branch_to(item, key, guard_var=None, negated: bool | None = None) -> bool:
    if not isinstance(item, Instruction) or item.parts[0] != "bra" or len(item.operands) != 1:
        return False
    target = item.operands[0]
    if not isinstance(target, Branch) or target.key != key:
        return False
    if guard_var is None:
        return item.guard is None
    return item.guard is not None and item.guard.var is guard_var and item.guard.negated is negated


def blocking_waits(body: list) -> list:
    """`body` with each try_wait loop replaced by one blocking try_wait (labels kept)."""
    out: list = []
    copied = 0  # body[:copied] is in `out`, or replaced there
    # (Only a label can start a loop: the rest of the body is copied by slices, not item by item.)
    for i in [i for i, item in enumerate(body) if isinstance(item, Label)]:
        if i < copied or i + 2 >= len(body) or not _is_try_wait(body[i + 1]):
            continue
        label, wait = body[i], body[i + 1]
        flag = wait.operands[0].var
        # Triton: L: try_wait P; @!P bra L;
        if _branch_to(body[i + 2], label.key, flag, True):
            out += body[copied:i]
            out += [label, _blocking(wait)]
            copied = i + 3
            continue
        # CuTe: L: try_wait P; @P bra D; bra L; D:
        if i + 4 < len(body) and isinstance(body[i + 4], Label) and \
                _branch_to(body[i + 2], body[i + 4].key, flag, False) and _branch_to(body[i + 3], label.key):
            out += body[copied:i]
            out += [label, _blocking(wait), body[i + 4]]
            copied = i + 5
    out += body[copied:]
    return out


def _blocking(wait: Instruction) -> Instruction:
    return Instruction(wait.opcode, wait.operands, wait.start, None, wait.extra, blocking=True)
