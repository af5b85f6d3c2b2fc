"""Mutations of MLIR text for the fuzz harness: tokens, integers, enum names, structure, truncation, bytes."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|%[\w.$#-]+|@[\w.$-]+|\^[\w.$-]+|#?[A-Za-z_][\w.$]*|-?\d+(?:\.\d+)?|\S')
_INTEGER = re.compile(r"(?<![\w.%@^#])-?\d+(?![\w.])")

# Values that sit on the edges of what the ISA, MLIR or Python allow.
INTERESTING_INTEGERS = [
    0, 1, -1, 2, 3, 7, 16, 31, 32, 33, 48, 63, 64, 127, 128, 129, 255, 256, 511, 512, 513, 1023,
    1024, 1025, 1472, 4096, 65535, 65536, 2**20, 2**22, 2**31 - 1, 2**31, -(2**31), 2**32, 2**34,
    2**63 - 1, 2**63, -(2**63), 2**64, 10**30,
]

# Names that a mutation swaps for one another: each group is one enum or one family.
ENUM_GROUPS = [
    ["shape_16x64b", "shape_16x128b", "shape_16x256b", "shape_32x32b", "shape_16x32bx2"],
    ["x1", "x2", "x4", "x8", "x16", "x32", "x64", "x128", "x3", "x256"],
    ["load", "store"],
    ["before_thread_sync", "after_thread_sync"],
    ["<before>", "<after>", "<load>", "<store>"],
    ["shape_32x32b", "shape_16x64b"],
    ["pack", "unpack"],
    ["i1", "i8", "i16", "i32", "i64", "i128", "i140", "f16", "f32", "f64", "bf16", "index", "si32"],
    ["!llvm.ptr<3>", "!llvm.ptr<6>", "!llvm.ptr<1>", "!llvm.ptr", "!llvm.ptr<5>"],
    ["addr_space = 3", "addr_space = 0", "addr_space = 1", "addr_space = 6"],
    ["TLane", "TCol", "warpid", "laneid"],
    ["tcgen05.ld", "tcgen05.st", "tcgen05.alloc", "tcgen05.dealloc", "tcgen05.wait", "tcgen05.fence"],
    ["nvvm.reqntid", "nvvm.maxntid", "nvvm.minctasm", "nvvm.maxnreg", "tcgen05.reqntid"],
    ["cta_group(1)", "cta_group(2)"],
    ["nvvm.barrier", "nvvm.barrier0", "tcgen05.relinquish_alloc_permit"],
    ["arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.shli", "arith.shrui", "arith.andi"],
    ["llvm.add", "llvm.sub", "llvm.mul", "llvm.udiv", "llvm.shl", "llvm.lshr", "llvm.and"],
    ["eq", "ne", "slt", "ult", "sge", "uge"],
    ["memref<128xi32>", "memref<?xi32>", "memref<128xf32>", "memref<4x32xi32>", "memref<0xi32>"],
    ["vector<1xi32>", "vector<2xi32>", "vector<4xi32>", "vector<128xi32>", "vector<1xf32>"],
    ["internal", "external", "private"],
    ["scf.if", "scf.for"],
]

Mutation = Callable[[random.Random, str, list[str]], str]


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def mutate_token(rng: random.Random, text: str, corpus: list[str]) -> str:
    """Replace, delete or duplicate one token; the replacement comes from any corpus file."""
    tokens = _tokens(text)
    if not tokens:
        return text
    t = rng.choice(tokens)
    action = rng.random()
    if action < 0.3:
        return text[: t.start()] + text[t.end():]
    if action < 0.5:
        return text[: t.end()] + " " + t.group() + text[t.end():]
    donor = _tokens(rng.choice(corpus)) or tokens
    return text[: t.start()] + rng.choice(donor).group() + text[t.end():]


def mutate_integer(rng: random.Random, text: str, corpus: list[str]) -> str:
    """Replace one integer literal with an edge value or a neighbour."""
    found = list(_INTEGER.finditer(text))
    if not found:
        return mutate_token(rng, text, corpus)
    m = rng.choice(found)
    old = int(m.group())
    choice = rng.random()
    if choice < 0.6:
        new = rng.choice(INTERESTING_INTEGERS)
    elif choice < 0.8:
        new = old + rng.choice([-1, 1, -32, 32])
    else:
        new = old * rng.choice([2, 4, 16, -1])
    return text[: m.start()] + str(new) + text[m.end():]


def mutate_enum(rng: random.Random, text: str, corpus: list[str]) -> str:
    """Swap one enum name (shape, num, wait kind, type, op name ...) for another of its group."""
    present = [(g, name) for g in ENUM_GROUPS for name in g if name in text]
    if not present:
        return mutate_token(rng, text, corpus)
    group, name = rng.choice(present)
    starts = [m.start() for m in re.finditer(re.escape(name), text)]
    at = rng.choice(starts)
    return text[:at] + rng.choice(group) + text[at + len(name):]


def mutate_structure(rng: random.Random, text: str, corpus: list[str]) -> str:
    """Delete, duplicate, move or swap lines; splice a line of another file; nest lines deeply."""
    lines = text.splitlines(keepends=True)
    if len(lines) < 2:
        return text + rng.choice(corpus)
    i, j = sorted(rng.sample(range(len(lines)), 2))
    action = rng.randrange(6)
    if action == 0:
        del lines[i : min(j, i + rng.randint(1, 3))]
    elif action == 1:
        lines.insert(j, lines[i])
    elif action == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif action == 3:
        lines.insert(j, lines.pop(i))
    elif action == 4:
        donor = rng.choice(corpus).splitlines(keepends=True) or ["\n"]
        lines.insert(i, rng.choice(donor))
    else:
        depth = rng.choice([2, 8, 40, 63, 64, 65, 130, 250])
        bracket = rng.choice(["[", "{", "("])
        close = {"[": "]", "{": "}", "(": ")"}[bracket]
        lines.insert(i, f'"test.op"() {{a = {bracket * depth}{close * depth}}} : () -> ()\n'
                     if bracket == "[" else "scf.if %true {\n" * depth + "}\n" * depth)
    return "".join(lines)


def mutate_truncate(rng: random.Random, text: str, corpus: list[str]) -> str:
    """Cut the text at a random point (or cut a random slice out of it)."""
    if not text:
        return text
    at = rng.randrange(len(text))
    if rng.random() < 0.5:
        return text[:at]
    return text[:at] + text[at + rng.randint(1, 40):]


def mutate_bytes(rng: random.Random, text: str, corpus: list[str]) -> str:
    """Insert, flip or replace characters (the harness encodes with surrogates for raw bytes)."""
    data = bytearray(text.encode("utf-8", "surrogateescape"))
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(data) + 1)
        choice = rng.random()
        if choice < 0.4 or not data:
            data[at:at] = bytes([rng.randrange(256)])
        elif choice < 0.7:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        else:
            data[at:at] = rng.choice([b"\x00", b"\xff", b'"', b"\\", b"\n", b"{", b"}", b"<", b">", b"// -----\n"])
    return data.decode("utf-8", "surrogateescape")


MUTATIONS: dict[str, Mutation] = {
    "token": mutate_token,
    "integer": mutate_integer,
    "enum": mutate_enum,
    "structure": mutate_structure,
    "truncate": mutate_truncate,
    "bytes": mutate_bytes,
}
# Integers and enum names find the most semantic bugs; bytes and truncation mostly test the parser.
WEIGHTS = {"token": 3, "integer": 4, "enum": 4, "structure": 3, "truncate": 1, "bytes": 1}


def mutate(rng: random.Random, text: str, corpus: list[str]) -> tuple[str, list[str]]:
    """One to three mutations of `text`: (the mutant, the names of the mutations applied)."""
    names = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()), k=rng.choice([1, 1, 1, 2, 3]))
    for name in names:
        text = MUTATIONS[name](rng, text, corpus)
    return text, names


def load_corpus(root: Path) -> list[str]:
    """The examples and the lit inputs, split at `// -----`, without RUN and expected-* lines."""
    from tmem_dialect.tools.opt import split_input

    files = sorted((root / "examples").glob("*.mlir")) + sorted((root / "tests" / "filecheck").rglob("*.mlir"))
    corpus: list[str] = []
    for path in files:
        for piece, _ in split_input(path.read_text(encoding="utf-8")):
            kept = [
                line for line in piece.splitlines(keepends=True)
                if not re.match(r"\s*//\s*(RUN|REQUIRES|CHECK|[A-Z]+(-NEXT|-SAME|-NOT)?:|expected-)", line)
            ]
            text = "".join(kept)
            if text.strip():
                corpus.append(text)
    return corpus
