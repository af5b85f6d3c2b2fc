"""Synthetic TMEM kernels for the pass benchmarks: N tcgen05 ld/st in loops, branches and barrier phases, at the tcgen05 or the upstream NVVM level.

The kernels are written without waits or fences and are correct once tmem-insert-waits has
run: one warpgroup, warp 0 allocates all 512 columns, each warp works in its lane quarter.
Column chunks are reused, so the passes meet every kind of hazard (st->ld, ld->st, st->st,
loop-carried ones, handoffs to the final dealloc) along with many that are not hazards.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

COLUMNS = 512
CHUNK = 8  # columns per access: 32x32b.x8
PATTERNS = ("straight", "loops", "branch", "warp_branch", "barrier")


@dataclass
class _Writer:
    lines: list[str] = field(default_factory=list[str])
    counter: int = 0
    tmem_ops: int = 0

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def emit(self, line: str, indent: int) -> None:
        self.lines.append("  " * indent + line)


def generate(n_ops: int, *, nvvm: bool = False, seed: int = 0) -> str:
    """A kernel with about `n_ops` tcgen05.ld/st ops (never fewer)."""
    gen = _NvvmKernel(seed) if nvvm else _Tcgen05Kernel(seed)
    return gen.build(n_ops)


class _Kernel:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.w = _Writer()
        self.column = 0

    def next_column(self) -> int:
        col = self.column
        self.column = (self.column + CHUNK) % (COLUMNS - 4 * CHUNK)
        return col

    def build(self, n_ops: int) -> str:
        self.prologue()
        patterns = self._patterns()
        while self.w.tmem_ops < n_ops:
            getattr(self, next(patterns))()
        self.epilogue()
        return "\n".join(self.w.lines) + "\n"

    def _patterns(self) -> Iterator[str]:
        while True:
            order = list(PATTERNS)
            self.rng.shuffle(order)
            yield from order

    def prologue(self) -> None: ...
    def epilogue(self) -> None: ...


class _Tcgen05Kernel(_Kernel):
    """`func.func` + scf + tcgen05 ops, as users write kernels."""

    def prologue(self) -> None:
        e = self.w.emit
        e("llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32", 0)
        e("func.func @bench(%flag: i1, %out: memref<4096xi32>) attributes {tcgen05.kernel, "
          "tcgen05.reqntid = array<i32: 128, 1, 1>} {", 0)
        for name, value in (("c0", 0), ("c3", 3), ("c5", 5), ("c21", 21), ("c1", 1), ("c2", 2)):
            e(f"%{name} = arith.constant {value} : i32", 1)
        e("%i0 = arith.constant 0 : index", 1)
        e("%i1 = arith.constant 1 : index", 1)
        e("%i4 = arith.constant 4 : index", 1)
        e(f"%chunk = arith.constant {CHUNK} : i32", 1)
        e("%tid = nvvm.read.ptx.sreg.tid.x : i32", 1)
        e("%warp = arith.shrui %tid, %c5 : i32", 1)
        e("%w0 = arith.cmpi eq, %warp, %c0 : i32", 1)
        e("%w1 = arith.cmpi eq, %warp, %c1 : i32", 1)
        e("%slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>", 1)
        e("scf.if %w0 {", 1)
        e(f"tcgen05.alloc %slot, {COLUMNS} : !llvm.ptr<3>", 2)
        e("tcgen05.relinquish_alloc_permit", 2)
        e("}", 1)
        e("nvvm.barrier", 1)
        e("%base = llvm.load %slot : !llvm.ptr<3> -> i32", 1)
        e("%quarter = arith.andi %warp, %c3 : i32", 1)
        e("%lanes = arith.shli %quarter, %c21 : i32", 1)
        e("%taddr = arith.addi %base, %lanes : i32", 1)
        e("%vals = vector.broadcast %tid : i32 to vector<8xi32>", 1)

    def epilogue(self) -> None:
        e = self.w.emit
        e("nvvm.barrier", 1)
        e("scf.if %w0 {", 1)
        e(f"tcgen05.dealloc %base, {COLUMNS}", 2)
        e("}", 1)
        e("func.return", 1)
        e("}", 0)

    def address(self, column: int, indent: int) -> str:
        c = self.w.fresh("col")
        a = self.w.fresh("a")
        self.w.emit(f"{c} = arith.constant {column} : i32", indent)
        self.w.emit(f"{a} = arith.addi %taddr, {c} : i32", indent)
        return a

    def st(self, address: str, indent: int, value: str = "%vals") -> None:
        self.w.emit(f"tcgen05.st {value}, {address} shape_32x32b x8 : vector<8xi32>", indent)
        self.w.tmem_ops += 1

    def ld(self, address: str, indent: int) -> str:
        v = self.w.fresh("v")
        self.w.emit(f"{v} = tcgen05.ld {address} shape_32x32b x8 : vector<8xi32>", indent)
        self.w.tmem_ops += 1
        return v

    def straight(self) -> None:
        a = self.address(self.next_column(), 1)
        self.st(a, 1)
        v = self.ld(a, 1)
        b = self.address(self.next_column(), 1)
        self.st(b, 1, v)

    def loops(self) -> None:
        """Four disjoint chunks stored in one loop, loaded in the next."""
        e = self.w.emit
        col = self.next_column()
        for _ in range(3):
            self.next_column()
        start = self.address(col, 1)
        for kind in ("st", "ld"):
            i = self.w.fresh("i")
            e(f"scf.for {i} = %i0 to %i4 step %i1 {{", 1)
            ii = self.w.fresh("ii")
            off = self.w.fresh("off")
            a = self.w.fresh("a")
            e(f"{ii} = arith.index_cast {i} : index to i32", 2)
            e(f"{off} = arith.muli {ii}, %chunk : i32", 2)
            e(f"{a} = arith.addi {start}, {off} : i32", 2)
            if kind == "st":
                self.st(a, 2)
            else:
                self.ld(a, 2)
            e("}", 1)

    def branch(self) -> None:
        e = self.w.emit
        col = self.next_column()
        e("scf.if %flag {", 1)
        self.st(self.address(col, 2), 2)
        e("} else {", 1)
        self.st(self.address(self.next_column(), 2), 2)
        e("}", 1)
        self.ld(self.address(col, 1), 1)

    def warp_branch(self) -> None:
        e = self.w.emit
        e("scf.if %w1 {", 1)
        a = self.address(self.next_column(), 2)
        self.st(a, 2)
        self.ld(a, 2)
        e("}", 1)

    def barrier(self) -> None:
        self.ld(self.address(self.next_column(), 1), 1)
        self.w.emit("nvvm.barrier", 1)


class _NvvmKernel(_Kernel):
    """`llvm.func` + llvm control flow + nvvm.tcgen05 ops, as other compilers emit them."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.blocks = 0

    def block(self, stem: str) -> str:
        self.blocks += 1
        return f"^{stem}{self.blocks}"

    def prologue(self) -> None:
        e = self.w.emit
        e("llvm.mlir.global internal @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32", 0)
        e("llvm.func @bench(%flag: i1, %out: !llvm.ptr<1>) attributes {nvvm.kernel, "
          "nvvm.reqntid = array<i32: 128, 1, 1>} {", 0)
        for name, value in (("c0", 0), ("c1", 1), ("c3", 3), ("c4", 4), ("c5", 5), ("c21", 21)):
            e(f"%{name} = llvm.mlir.constant({value} : i32) : i32", 1)
        e(f"%chunk = llvm.mlir.constant({CHUNK} : i32) : i32", 1)
        e(f"%ncols = llvm.mlir.constant({COLUMNS} : i32) : i32", 1)
        e("%vals = llvm.mlir.undef : vector<8xi32>", 1)
        e("%tid = nvvm.read.ptx.sreg.tid.x : i32", 1)
        e("%warp = llvm.lshr %tid, %c5 : i32", 1)
        e("%w0 = llvm.icmp \"eq\" %warp, %c0 : i32", 1)
        e("%w1 = llvm.icmp \"eq\" %warp, %c1 : i32", 1)
        e("%slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>", 1)
        e("llvm.cond_br %w0, ^alloc, ^start", 1)
        e("^alloc:", 0)
        e("nvvm.tcgen05.alloc %slot, %ncols : !llvm.ptr<3>, i32", 1)
        e("nvvm.tcgen05.relinquish_alloc_permit", 1)
        e("llvm.br ^start", 1)
        e("^start:", 0)
        e("nvvm.barrier", 1)
        e("%base = llvm.load %slot : !llvm.ptr<3> -> i32", 1)
        e("%quarter = llvm.and %warp, %c3 : i32", 1)
        e("%lanes = llvm.shl %quarter, %c21 : i32", 1)
        e("%taddr = llvm.add %base, %lanes : i32", 1)

    def epilogue(self) -> None:
        e = self.w.emit
        e("nvvm.barrier", 1)
        e("llvm.cond_br %w0, ^free, ^exit", 1)
        e("^free:", 0)
        e("%bptr = llvm.inttoptr %base : i32 to !llvm.ptr<6>", 1)
        e("nvvm.tcgen05.dealloc %bptr, %ncols : !llvm.ptr<6>, i32", 1)
        e("llvm.br ^exit", 1)
        e("^exit:", 0)
        e("llvm.return", 1)
        e("}", 0)

    def pointer(self, column: int | None, base: str = "%taddr", offset: str | None = None) -> str:
        e = self.w.emit
        a = self.w.fresh("a")
        if column is not None:
            c = self.w.fresh("col")
            e(f"{c} = llvm.mlir.constant({column} : i32) : i32", 1)
            offset = c
        e(f"{a} = llvm.add {base}, {offset} : i32", 1)
        p = self.w.fresh("p")
        e(f"{p} = llvm.inttoptr {a} : i32 to !llvm.ptr<6>", 1)
        return p

    def st(self, pointer: str, value: str = "%vals") -> None:
        self.w.emit(f"nvvm.tcgen05.st {pointer}, {value} shape = shape_32x32b : vector<8xi32>", 1)
        self.w.tmem_ops += 1

    def ld(self, pointer: str) -> str:
        v = self.w.fresh("v")
        self.w.emit(f"{v} = nvvm.tcgen05.ld {pointer} shape = shape_32x32b : vector<8xi32>", 1)
        self.w.tmem_ops += 1
        return v

    def straight(self) -> None:
        p = self.pointer(self.next_column())
        self.st(p)
        v = self.ld(p)
        self.st(self.pointer(self.next_column()), v)

    def loops(self) -> None:
        """Two loops of blocks (as scf-to-cf emits them) over four disjoint chunks."""
        e = self.w.emit
        col = self.next_column()
        for _ in range(3):
            self.next_column()
        start_c = self.w.fresh("col")
        e(f"{start_c} = llvm.mlir.constant({col} : i32) : i32", 1)
        start = self.w.fresh("start")
        e(f"{start} = llvm.add %taddr, {start_c} : i32", 1)
        for kind in ("st", "ld"):
            head, body, done = self.block("head"), self.block("body"), self.block("done")
            i = self.w.fresh("i")
            e(f"llvm.br {head}(%c0 : i32)", 1)
            e(f"{head}({i}: i32):", 0)
            more = self.w.fresh("more")
            e(f"{more} = llvm.icmp \"slt\" {i}, %c4 : i32", 1)
            e(f"llvm.cond_br {more}, {body}, {done}", 1)
            e(f"{body}:", 0)
            off = self.w.fresh("off")
            e(f"{off} = llvm.mul {i}, %chunk : i32", 1)
            p = self.pointer(None, start, off)
            if kind == "st":
                self.st(p)
            else:
                self.ld(p)
            nxt = self.w.fresh("next")
            e(f"{nxt} = llvm.add {i}, %c1 : i32", 1)
            e(f"llvm.br {head}({nxt} : i32)", 1)
            e(f"{done}:", 0)

    def branch(self) -> None:
        e = self.w.emit
        then, other, join = self.block("then"), self.block("else"), self.block("join")
        col = self.next_column()
        e(f"llvm.cond_br %flag, {then}, {other}", 1)
        e(f"{then}:", 0)
        self.st(self.pointer(col))
        e(f"llvm.br {join}", 1)
        e(f"{other}:", 0)
        self.st(self.pointer(self.next_column()))
        e(f"llvm.br {join}", 1)
        e(f"{join}:", 0)
        self.ld(self.pointer(col))

    def warp_branch(self) -> None:
        e = self.w.emit
        then, join = self.block("w1"), self.block("wjoin")
        e(f"llvm.cond_br %w1, {then}, {join}", 1)
        e(f"{then}:", 0)
        p = self.pointer(self.next_column())
        self.st(p)
        self.ld(p)
        e(f"llvm.br {join}", 1)
        e(f"{join}:", 0)

    def barrier(self) -> None:
        self.ld(self.pointer(self.next_column()))
        self.w.emit("nvvm.barrier", 1)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="number of tcgen05 ld/st ops")
    parser.add_argument("--nvvm", action="store_true", help="emit the upstream NVVM form")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(generate(args.n, nvvm=args.nvvm, seed=args.seed), end="")
