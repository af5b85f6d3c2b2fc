"""The PTX syntax tree: registers, operands, instructions, labels, declarations, functions and the module."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tmem_dialect.frontend.lexer import Source

SPECIAL_REGISTERS = frozenset(
    "tid ntid ctaid nctaid laneid warpid nwarpid smid nsmid gridid clock clock64 globaltimer "
    "lanemask_eq lanemask_le lanemask_lt lanemask_ge lanemask_gt dynamic_smem_size total_smem_size "
    "clusterid nclusterid cluster_ctaid cluster_nctaid cluster_ctarank cluster_nctarank is_explicit_cluster "
    "aggr_smem_size".split()
)
TYPES = frozenset(
    "pred b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64 tf32".split()
)
STATE_SPACES = ("reg", "param", "shared", "global", "local", "const", "tex", "sreg")
_RANGE_NAME = re.compile(r"(.*?)(\d+)")


@dataclass(eq=False)
class Variable:
    """One declared register (a PTX register is mutable: the importer builds SSA for it)."""

    name: str
    type: str  # PTX type without the dot: b32, pred, f32, ...
    param: bool = False  # a `.param` variable of a call sequence or a .func's return value (st/ld.param)
    count: int | None = None  # a `.param` array (byte struct), which calls do not model
    mentions: int = 0  # operands that name it (the parser counts them)


@dataclass
class Reg:
    var: Variable
    negated: bool = False  # `!%p` as a predicate operand


@dataclass
class Special:
    name: str  # tid.x, laneid, ...


@dataclass
class Imm:
    value: int | float
    text: str
    is_float: bool = False


@dataclass
class Symbol:
    name: str  # a variable, parameter, function or label name
    start: int = -1  # its offset in the source, where known (a called function's name)


@dataclass
class Address:
    base: Reg | Symbol | Imm
    offset: int = 0
    coordinates: VectorOperand | None = None  # `[tmap, {x, y}]`: a tensor (TMA) address


@dataclass
class VectorOperand:
    elements: list[Reg | Imm | None]  # None: the sink `_`


@dataclass
class Sink:
    pass


Operand = Reg | Special | Imm | Symbol | Address | VectorOperand | Sink


@dataclass
class Instruction:
    opcode: str  # the whole mnemonic: "tcgen05.ld.sync.aligned.32x32b.x1.b32"
    operands: list[Operand]
    start: int  # offset of the instruction (its guard, if any) in the source
    guard: Reg | None = None
    extra: Operand | None = None  # the `|%p` second destination (shfl, setp)
    blocking: bool = False  # an mbarrier try_wait loop read as one blocking wait (idioms.py)
    # The opcode's dot-separated parts (read by every handler: split once; not to be mutated).
    # Split when the instruction is made, not by a cached_property: its __get__ is Python code
    # (with a lock, in 3.11) and every instruction's parts are read.
    parts: list[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.parts = self.opcode.split(".")


@dataclass
class Label:
    key: tuple[int, str]  # (scope id, name)
    start: int


@dataclass
class Branch:
    """A label reference: `bra L` (resolved against the scopes it was written in)."""

    name: str
    scopes: tuple[int, ...]
    start: int
    key: tuple[int, str] | None = None


@dataclass
class BranchTargets:
    """`L: .branchtargets A, B, C;`: the list `brx.idx %r, L` indexes."""

    key: tuple[int, str]
    targets: list[Branch]
    start: int


@dataclass
class GlobalVar:
    space: str  # shared | global | const | local
    name: str
    type: str
    start: int
    align: int | None = None
    count: int | None = None  # array length (None: a scalar); 0: `[]` (extern, unsized)
    linkage: str | None = None
    init: list[int | float] | None = None


@dataclass
class Param:
    name: str
    type: str
    start: int
    align: int | None = None
    count: int | None = None
    ptr_space: str | None = None  # `.ptr .global` -> "global"; `.ptr` alone -> "generic"
    register: Variable | None = None  # a `.reg` parameter (of a .func) is a register of the body


@dataclass
class Function:
    name: str
    is_kernel: bool
    params: list[Param]
    returns: list[Param]
    body: list[Instruction | Label]
    start: int
    directives: dict[str, list[int]] = field(default_factory=dict)
    local_globals: list[GlobalVar] = field(default_factory=list)
    declaration: bool = False
    branch_targets: dict[tuple[int, str], BranchTargets] = field(default_factory=dict)


@dataclass
class Module:
    source: Source
    version: tuple[int, int] | None = None
    targets: list[str] = field(default_factory=list)
    address_size: int = 64
    globals: list[GlobalVar] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)


PERF_DIRECTIVES = (".reqntid", ".maxntid", ".minnctapersm", ".maxnreg", ".reqnctapercluster",
                   ".maxclusterrank", ".explicitcluster", ".noreturn", ".pragma", ".blocksareclusters")
