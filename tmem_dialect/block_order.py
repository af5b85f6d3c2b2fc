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
