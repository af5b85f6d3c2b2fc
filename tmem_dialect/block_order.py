"""Block orders: reverse post-order of a CFG region, or of any graph given its successors."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from xdsl.ir import Block, Region

N = TypeVar("N")


def reverse_post_order(start: N, successors: Callable[[N], Iterable[N]]) -> list[N]:
    """The nodes reachable from `start` in reverse post-order of a depth-first walk that visits
    successors in the order `successors` gives them."""
    seen = {start}
    post: list[N] = []
    stack = [(start, iter(successors(start)))]
    while stack:
        node, it = stack[-1]
        for nxt in it:
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(successors(nxt))))
                break
        else:
            stack.pop()
            post.append(node)
    post.reverse()
    return post


def block_successors(block: Block) -> tuple[Block, ...]:
    term = block.last_op
    return tuple(term.successors) if term is not None else ()


def region_order(region: Region) -> list[Block]:
    """The blocks of a CFG region in reverse post-order from the entry, then unreachable ones."""
    entry = region.blocks.first
    if entry is None:
        return []
    order = reverse_post_order(entry, block_successors)
    reached = set(order)
    order.extend(b for b in region.blocks if b not in reached)
    return order


def immediate_dominators(order: list[N], preds: Callable[[N], Iterable[N]]) -> dict[N, N | None]:
    """Immediate dominators (Cooper, Harvey, Kennedy) of the nodes of `order`, a reverse
    post-order from its first node (whose entry is None); nodes not in `order` are unreachable."""
    if not order:
        return {}
    start = order[0]
    position = {n: i for i, n in enumerate(order)}
    idom: dict[N, N] = {start: start}

    def intersect(a: N, b: N) -> N:
        while a is not b:
            while position[a] > position[b]:
                a = idom[a]
            while position[b] > position[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for node in order[1:]:
            new: N | None = None
            for p in preds(node):
                if p in idom:
                    new = p if new is None else intersect(p, new)
            if new is not None and idom.get(node) is not new:
                idom[node] = new
                changed = True
    result: dict[N, N | None] = dict(idom)
    result[start] = None
    return result
