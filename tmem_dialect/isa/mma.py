"""tcgen05.mma: kinds, legal M/N/K, instruction descriptors, operand forms, accumulator layouts.

Sources (PTX ISA 8.6-9.0, section 9.7.16 "TensorCore 5th Generation Family Instructions"):
- 9.7.16.2.1 "Matrix Shape" (the table of .kind x .ws x cta_group x sparsity -> shapes), with the
  i8 and block-scaled N steps as CUTLASS's SM100 MMA atoms assert them (cute/arch/mma_sm100_umma.hpp);
- 9.7.16.4.2 "Instruction descriptor" (both formats: .kind::f16/tf32/f8f6f4/i8, and the block-scaled
  kinds);
- 9.7.16.10.9 "tcgen05.mma" (operand forms, disable-output-lane, scale-input-d, block_scale,
  scale_vec_size) and the forms ptxas 13.0 accepts [ptxas];
- 9.7.16.2.2 / 9.7.16.10.6 "Data path layout organization" (where D's rows sit in TMEM).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tmem_dialect.isa.core import LANES_PER_WARP, TMEM_LANES


class Kind(Enum):
    """`.kind::*` of tcgen05.mma."""

    F16 = "f16"
    TF32 = "tf32"
    F8F6F4 = "f8f6f4"
    I8 = "i8"
    MXF8F6F4 = "mxf8f6f4"
    MXF4 = "mxf4"
    MXF4NVF4 = "mxf4nvf4"

    @property
    def block_scaled(self) -> bool:
        return self in (Kind.MXF8F6F4, Kind.MXF4, Kind.MXF4NVF4)

    @property
    def dense_k(self) -> int:
        """K of one dense MMA, in elements (sparse: twice this)."""
        return _DENSE_K[self]

    @property
    def min_ptx_version(self) -> tuple[int, int]:
        """The first PTX ISA version with this kind [ptxas: mxf4nvf4 needs 8.7]."""
        return (8, 7) if self is Kind.MXF4NVF4 else (8, 6)

    @property
    def allows_scale_input_d(self) -> bool:
        """scale-input-d (D = A*B + D * 2^-scale) exists for .kind::f16 and .kind::tf32 only
        (9.7.16.10.9); ptxas 13.0 also assembles it on f8f6f4 and i8, which the ISA does not
        allow, so we follow the ISA and report it."""
        return self in (Kind.F16, Kind.TF32)

    @property
    def allows_ws(self) -> bool:
        """.ws exists for the kinds without block scaling [ptxas]."""
        return not self.block_scaled


_DENSE_K = {
    Kind.F16: 16, Kind.TF32: 8, Kind.F8F6F4: 32, Kind.I8: 32,
    Kind.MXF8F6F4: 32, Kind.MXF4: 64, Kind.MXF4NVF4: 64,
}  # fmt: skip


class ScaleVec(Enum):
    """`.scale_vec::NX` / `.blockN` of the block-scaled kinds: elements of K per scale factor.

    .scale_vec::1X = one scale per 32 K elements (mxf8f6f4), 2X = per 32 (mxf4, mxf4nvf4 with
    ue8m0), 4X = per 16 (mxf4nvf4 with ue4m3). .block32 / .block16 (PTX 8.8) name the block size
    directly: block32 is 1X for mxf8f6f4 and 2X for mxf4/mxf4nvf4; block16 is 4X [ptxas].
    """

    X1 = "scale_vec::1X"
    X2 = "scale_vec::2X"
    X4 = "scale_vec::4X"
    BLOCK16 = "block16"
    BLOCK32 = "block32"

    @property
    def min_ptx_version(self) -> tuple[int, int]:
        if self in (ScaleVec.BLOCK16, ScaleVec.BLOCK32):
            return (8, 8)
        return (8, 7) if self is ScaleVec.X4 else (8, 6)


# kind -> the scale-vector qualifiers it may take (None: the default, no qualifier) [ptxas]
_SCALE_VECS: dict[Kind, frozenset[ScaleVec | None]] = {
    Kind.MXF8F6F4: frozenset({None, ScaleVec.X1, ScaleVec.BLOCK32}),
    Kind.MXF4: frozenset({None, ScaleVec.X2, ScaleVec.BLOCK32}),
    Kind.MXF4NVF4: frozenset({ScaleVec.X2, ScaleVec.X4, ScaleVec.BLOCK16, ScaleVec.BLOCK32}),
}


def scale_vec_error(kind: Kind, scale_vec: ScaleVec | None) -> str | None:
    if not kind.block_scaled:
        if scale_vec is not None:
            return f".{scale_vec.value} needs a block-scaled kind (mxf8f6f4, mxf4, mxf4nvf4), not kind::{kind.value}"
        return None
    legal = _SCALE_VECS[kind]
    if scale_vec not in legal:
        names = sorted("(none)" if s is None else s.value for s in legal)
        got = "no scale_vec qualifier" if scale_vec is None else f".{scale_vec.value}"
        return f"kind::{kind.value} takes {', '.join(names)}; got {got}"
    return None


def scale_block_size(kind: Kind, scale_vec: ScaleVec | None) -> int:
    """K elements that share one scale factor."""
    if scale_vec in (ScaleVec.BLOCK16, ScaleVec.X4):
        return 16
    if kind is Kind.MXF4NVF4 and scale_vec is None:
        raise ValueError("kind::mxf4nvf4 needs a scale_vec qualifier")
    return 32


def scale_factors_per_row(kind: Kind, scale_vec: ScaleVec | None, k96: bool = False) -> int:
    """Scale factors each row of A (and column of B) has per MMA: K / block size (1, 2 or 4;
    3 or 6 with K = 96, 9.7.16.10.7.1 Table 54: "M x 3" for .block32, "M x 6" for .block16).

    They sit in the 8-bit slots of one 32-bit TMEM cell per row, starting at the slot the
    instruction descriptor's scale-factor data ID names (9.7.16.10.9, "scale-A/B-tmem").
    """
    return mma_k(kind, k96=k96) // scale_block_size(kind, scale_vec)


def scale_id_error(kind: Kind, scale_vec: ScaleVec | None, scale_id: int, k96: bool = False) -> str | None:
    """A scale-factor data ID must leave room for the row's scale factors in the 4-slot cell.

    K = 96 (9.7.16.10.7.2.4/.5, 9.7.16.10.7.3.4/.5): the three .block32 scales of a row may
    start at any byte (Figures 234-237: SFA_ID 0-3), the six .block16 scales at byte 0 or 2
    (Figures 238-239); both run on into the next 4-byte sub-column.
    """
    per_row = scale_factors_per_row(kind, scale_vec, k96)
    if per_row == 3:
        legal_ids = (0, 1, 2, 3)
    elif per_row == 6:
        legal_ids = (0, 2)
    else:
        legal_ids = tuple(range(0, 4, per_row))
    if scale_id not in legal_ids:
        legal = ", ".join(map(str, legal_ids))
        return f"with {per_row} scale factor(s) per row the scale-factor data ID is one of {legal}, got {scale_id}"
    return None


def k96_error(kind: Kind, cta_group: int, m: int, sparse: bool) -> str | None:
    """Why K = 96 (the mxf4/mxf4nvf4 descriptor's K-dimension bit) is illegal for this shape, or None.

    9.7.16.2.1 Table 39: kind::mxf4 and kind::mxf4nvf4 have the dense cta_group::2 shape 256xNxK1,
    K1 = 96, besides K = 64; no other kind, sparsity, cta_group or M has it.
    """
    if kind not in (Kind.MXF4, Kind.MXF4NVF4):
        return f"K = 96 exists for kind::mxf4 and kind::mxf4nvf4 only, not kind::{kind.value}"
    if sparse:
        return "K = 96 is a dense shape (.sp has K = 128)"
    if cta_group != 2 or m != 256:
        return f"K = 96 is the 256xNx96 shape of cta_group::2 (got M = {m} with cta_group::{cta_group})"
    return None


def k96_scale_vec_error(scale_vec: ScaleVec | None) -> str | None:
    """9.7.16.10.7.1 Table 54: with K = 96 the block size is named .block32 (3 scales per row) or
    .block16 (kind::mxf4nvf4, 6 per row); .scale_vec::NX has no K = 96 row."""
    if scale_vec not in (ScaleVec.BLOCK16, ScaleVec.BLOCK32):
        got = "no block-size qualifier" if scale_vec is None else f".{scale_vec.value}"
        return f"K = 96 names its block size with .block32 or .block16, got {got}"
    return None


# ---- legal shapes (9.7.16.2.1) -----------------------------------------------------------------


def _steps(start: int, step: int, stop: int = 256) -> frozenset[int]:
    return frozenset(range(start, stop + 1, step))


@dataclass(frozen=True)
class ShapeRule:
    ms: frozenset[int]
    ns: frozenset[int]


def shape_rule(kind: Kind, cta_group: int, ws: bool = False, sparse: bool = False) -> ShapeRule | None:
    """Legal M and N for a form; None when the form itself does not exist (e.g. .ws with cta_group::2)."""
    if ws:
        if cta_group != 1 or not kind.allows_ws:
            return None
        return ShapeRule(frozenset({32, 64, 128}), frozenset({64, 128} if sparse else {64, 128, 256}))
    if kind is Kind.I8:
        if cta_group == 1:
            return ShapeRule(frozenset({64, 128}), frozenset({8}) | _steps(16, 16))
        return ShapeRule(frozenset({128, 256}), _steps(32, 32))
    if kind.block_scaled:
        if cta_group == 1:
            return ShapeRule(frozenset({128}), _steps(8, 8))
        return ShapeRule(frozenset({256} if sparse else {128, 256}), _steps(16, 16))  # .sp: 256xNxK only
    if cta_group == 1:
        return ShapeRule(frozenset({64, 128}), _steps(8, 8))
    return ShapeRule(frozenset({128, 256}), _steps(16, 16))


def mma_k(kind: Kind, sparse: bool = False, k96: bool = False) -> int:
    """K of one mma (9.7.16.2.1 Table 39): the kind's dense K, twice that with .sp; 96 with the
    mxf4/mxf4nvf4 descriptor's K-dimension bit (k96_error says where that is legal)."""
    if k96:
        return 96
    return kind.dense_k * (2 if sparse else 1)


def shape_error(kind: Kind, cta_group: int, m: int, n: int, ws: bool = False, sparse: bool = False) -> str | None:
    """Why M x N is illegal for this form, or None."""
    rule = shape_rule(kind, cta_group, ws, sparse)
    form = f"kind::{kind.value}{'.ws' if ws else ''}{'.sp' if sparse else ''} with cta_group::{cta_group}"
    if rule is None:
        return f"tcgen05.mma{'.ws' if ws else ''} has no {form} form"
    if m not in rule.ms:
        return f"M = {m} is not legal for {form} (M in {{{', '.join(map(str, sorted(rule.ms)))}}})"
    if n not in rule.ns:
        ns = sorted(rule.ns)
        return f"N = {n} is not legal for {form} (N in {ns[0]}..{ns[-1]}, {_describe_steps(ns)})"
    return None


def _describe_steps(ns: list[int]) -> str:
    if len(ns) <= 4:
        return "one of " + ", ".join(map(str, ns))
    step = ns[-1] - ns[-2]
    return f"steps of {step}" + (f" after {ns[0]}" if ns[1] - ns[0] != step else "")


# ---- operand forms (9.7.16.10.9 and ptxas) -----------------------------------------------------


def disable_output_lane_count(cta_group: int) -> int:
    """disable-output-lane is a vector of 4 (cta_group::1) or 8 (cta_group::2) 32-bit masks."""
    return 4 * cta_group


def form_error(
    kind: Kind,
    cta_group: int,
    *,
    ws: bool = False,
    sparse: bool = False,
    a_tmem: bool = False,
    scale_input_d: bool = False,
    disable_output_lane: bool = False,
    scale_vec: ScaleVec | None = None,
    zero_column_mask: bool = False,
) -> str | None:
    """Why this combination of qualifiers and optional operands is not a tcgen05.mma form, or None."""
    if cta_group not in (1, 2):
        return f"cta_group must be 1 or 2, got {cta_group}"
    if ws and cta_group != 1:
        return "tcgen05.mma.ws exists only with cta_group::1"
    if ws and not kind.allows_ws:
        return f"tcgen05.mma.ws has no kind::{kind.value} (block-scaled kinds have no .ws form)"
    if err := scale_vec_error(kind, scale_vec):
        return err
    if kind.block_scaled and (scale_input_d or disable_output_lane):
        return f"kind::{kind.value} (block scaled) takes neither scale-input-d nor disable-output-lane"
    if ws and (scale_input_d or disable_output_lane):
        return "tcgen05.mma.ws takes neither scale-input-d nor disable-output-lane"
    if zero_column_mask and not ws:
        return "the zero-column mask is an operand of tcgen05.mma.ws only"
    if scale_input_d and not kind.allows_scale_input_d:
        return f"scale-input-d is allowed only with kind::f16 and kind::tf32, not kind::{kind.value}"
    return None


SCALE_INPUT_D_MAX = 15  # D = A*B + D * 2^-scale, scale in [0, 15]


def scale_input_d_error(value: int) -> str | None:
    if not 0 <= value <= SCALE_INPUT_D_MAX:
        return f"scale-input-d must be in [0, {SCALE_INPUT_D_MAX}], got {value}"
    return None


def min_ptx_version(kind: Kind, scale_vec: ScaleVec | None) -> tuple[int, int]:
    """The first PTX ISA version with this form [ptxas]: no scale_vec on mxf8f6f4/mxf4 means
    .block32 and needs 8.8."""
    version = kind.min_ptx_version
    if scale_vec is not None:
        version = max(version, scale_vec.min_ptx_version)
    elif kind in (Kind.MXF8F6F4, Kind.MXF4):
        version = max(version, (8, 8))
    return version


# ---- instruction descriptor (9.7.16.4.2) -------------------------------------------------------


class DType(Enum):
    """Element types an instruction descriptor names: (name, bits)."""

    F16 = "f16"
    BF16 = "bf16"
    TF32 = "tf32"
    F32 = "f32"
    E4M3 = "e4m3"
    E5M2 = "e5m2"
    E2M3 = "e2m3"
    E3M2 = "e3m2"
    E2M1 = "e2m1"
    U8 = "u8"
    S8 = "s8"
    S32 = "s32"
    UE8M0 = "ue8m0"
    UE4M3 = "ue4m3"

    @property
    def bits(self) -> int:
        return _BITS[self]


_BITS = {
    DType.F16: 16, DType.BF16: 16, DType.TF32: 32, DType.F32: 32, DType.E4M3: 8, DType.E5M2: 8,
    DType.E2M3: 6, DType.E3M2: 6, DType.E2M1: 4, DType.U8: 8, DType.S8: 8, DType.S32: 32,
    DType.UE8M0: 8, DType.UE4M3: 8,
}  # fmt: skip

# dtype field (bits 4-5) of the non-block-scaled format
D_TYPE_CODES = {DType.F16: 0, DType.F32: 1, DType.S32: 2}
# atype/btype codes (bits 7-9 and 10-12) per kind
AB_TYPE_CODES: dict[Kind, dict[DType, int]] = {
    Kind.F16: {DType.F16: 0, DType.BF16: 1},
    Kind.TF32: {DType.TF32: 2},
    Kind.F8F6F4: {DType.E4M3: 0, DType.E5M2: 1, DType.E2M3: 3, DType.E3M2: 4, DType.E2M1: 5},
    Kind.I8: {DType.U8: 0, DType.S8: 1},
    Kind.MXF8F6F4: {DType.E4M3: 0, DType.E5M2: 1, DType.E2M3: 3, DType.E3M2: 4, DType.E2M1: 5},
    Kind.MXF4: {DType.E2M1: 1},
    Kind.MXF4NVF4: {DType.E2M1: 1},
}
# legal D types per kind
D_TYPES: dict[Kind, frozenset[DType]] = {
    Kind.F16: frozenset({DType.F16, DType.F32}),
    Kind.TF32: frozenset({DType.F32}),
    Kind.F8F6F4: frozenset({DType.F16, DType.F32}),
    Kind.I8: frozenset({DType.S32}),
    Kind.MXF8F6F4: frozenset({DType.F32}),
    Kind.MXF4: frozenset({DType.F32}),
    Kind.MXF4NVF4: frozenset({DType.F32}),
}
# scale-factor types (bit 23 of the block-scaled format: 0 = UE4M3, 1 = UE8M0)
SCALE_TYPE_CODES = {DType.UE4M3: 0, DType.UE8M0: 1}
SCALE_TYPES: dict[Kind, frozenset[DType]] = {
    Kind.MXF8F6F4: frozenset({DType.UE8M0}),
    Kind.MXF4: frozenset({DType.UE8M0}),
    Kind.MXF4NVF4: frozenset({DType.UE8M0, DType.UE4M3}),
}

# (lo, width) of each field, common to both formats unless noted
IDESC_FIELDS: dict[str, tuple[int, int]] = {
    "sparse_selector": (0, 2),
    "sparse": (2, 1),
    "saturate": (3, 1),  # i8 only; reserved in the block-scaled format
    "d_type": (4, 2),  # non-block-scaled format
    "b_scale_id": (4, 2),  # block-scaled format: matrix B scale-factor data ID
    "a_type": (7, 3),
    "b_type": (10, 3),
    "negate_a": (13, 1),
    "negate_b": (14, 1),
    "transpose_a": (15, 1),  # 0 = K-major
    "transpose_b": (16, 1),
    "n_shr3": (17, 6),
    "scale_type": (23, 1),  # block-scaled format
    "m_shr4": (24, 5),
    "a_scale_id": (29, 2),  # block-scaled format: matrix A scale-factor data ID
    "k96": (31, 1),  # mxf4/mxf4nvf4 format: K dimension, 0 = dense K 64 / sparse K 128, 1 = K 96
    "ws_max_shift": (30, 2),  # other format, .ws only: maximum B-reuse shift (0 none, 1: 8, 2: 16, 3: 32)
}


@dataclass(frozen=True)
class InstrDescriptor:
    """The named fields of a 32-bit instruction descriptor (M and N as numbers, not shifted)."""

    kind: Kind
    m: int
    n: int
    a_type: DType
    b_type: DType
    d_type: DType = DType.F32
    transpose_a: bool = False
    transpose_b: bool = False
    negate_a: bool = False
    negate_b: bool = False
    sparse: bool = False
    sparse_selector: int = 0
    saturate: bool = False
    scale_type: DType | None = None  # block-scaled kinds
    a_scale_id: int = 0
    b_scale_id: int = 0
    ws_max_shift: int = 0
    k96: bool = False  # kind::mxf4 / mxf4nvf4: K = 96 (k96_error)

    def errors(self, cta_group: int | None = 1, ws: bool = False) -> list[str]:
        """What the ISA forbids in these fields; M x N legality needs the mma's cta_group and .ws
        (cta_group None: check the fields alone)."""
        out: list[str] = []
        codes = AB_TYPE_CODES[self.kind]
        for role, t in (("A", self.a_type), ("B", self.b_type)):
            if t not in codes:
                out.append(f"kind::{self.kind.value} has no {role} type {t.value} (one of {', '.join(c.value for c in codes)})")
        if not self.kind.block_scaled and self.d_type not in D_TYPES[self.kind]:
            legal = ", ".join(sorted(d.value for d in D_TYPES[self.kind]))
            out.append(f"kind::{self.kind.value} accumulates into {legal}, not {self.d_type.value}")
        if self.kind is Kind.F16 and self.d_type is DType.F16 and DType.BF16 in (self.a_type, self.b_type):
            out.append("bf16 inputs accumulate into f32 only")
        if self.kind.block_scaled:
            if self.scale_type not in SCALE_TYPES[self.kind]:
                legal = ", ".join(sorted(t.value for t in SCALE_TYPES[self.kind]))
                out.append(f"kind::{self.kind.value} scale factors are {legal}, got {getattr(self.scale_type, 'value', None)}")
        elif self.scale_type is not None:
            out.append(f"kind::{self.kind.value} has no scale factors")
        if self.saturate and self.kind is not Kind.I8:
            out.append("saturate exists for kind::i8 only")
        if (self.negate_a or self.negate_b) and self.kind is Kind.I8:
            out.append("kind::i8 cannot negate A or B")
        if self.kind in (Kind.MXF4, Kind.MXF4NVF4) and (self.transpose_a or self.transpose_b):
            out.append(f"kind::{self.kind.value} operands are K-major only (no transpose)")
        if not 0 <= self.sparse_selector <= 3 or not 0 <= self.a_scale_id <= 3 or not 0 <= self.b_scale_id <= 3:
            out.append("sparsity selector and scale-factor IDs are 2-bit fields (0-3)")
        if self.k96 and self.kind not in (Kind.MXF4, Kind.MXF4NVF4):
            out.append(f"kind::{self.kind.value} has no K-dimension field (K = 96 is mxf4 / mxf4nvf4 only)")
        elif self.k96 and cta_group is not None and (err := k96_error(self.kind, cta_group, self.m, self.sparse)):
            out.append(err)
        if self.ws_max_shift and not ws:
            out.append("the maximum B-reuse shift is a .ws field")
        if self.m % 16 or self.n % 8:
            out.append(f"M must be a multiple of 16 and N of 8 to be encoded, got M = {self.m}, N = {self.n}")
        if cta_group is not None and (err := shape_error(self.kind, cta_group, self.m, self.n, ws, self.sparse)):
            out.append(err)
        return out

    def encode(self) -> int:
        f = IDESC_FIELDS
        v = 0

        def put(name: str, value: int) -> None:
            nonlocal v
            lo, width = f[name]
            v |= (value & ((1 << width) - 1)) << lo

        put("sparse_selector", self.sparse_selector)
        put("sparse", int(self.sparse))
        codes = AB_TYPE_CODES[self.kind]
        put("a_type", codes.get(self.a_type, 0))
        put("b_type", codes.get(self.b_type, 0))
        put("negate_a", int(self.negate_a))
        put("negate_b", int(self.negate_b))
        put("transpose_a", int(self.transpose_a))
        put("transpose_b", int(self.transpose_b))
        put("n_shr3", self.n >> 3)
        put("m_shr4", self.m >> 4)
        if self.kind.block_scaled:
            put("b_scale_id", self.b_scale_id)
            put("a_scale_id", self.a_scale_id)
            put("scale_type", SCALE_TYPE_CODES.get(self.scale_type, 0) if self.scale_type else 0)
            put("k96", int(self.k96))
        else:
            put("saturate", int(self.saturate))
            put("d_type", D_TYPE_CODES.get(self.d_type, 0))
            put("ws_max_shift", self.ws_max_shift)  # bits 30-31: the A scale ID's place in the other format
        return v


def decode_instr_descriptor(kind: Kind, value: int) -> InstrDescriptor:
    """The fields of a 32-bit descriptor for `kind` (the kind comes from the instruction)."""

    def get(name: str) -> int:
        lo, width = IDESC_FIELDS[name]
        return (value >> lo) & ((1 << width) - 1)

    def ab(code: int) -> DType:
        for t, c in AB_TYPE_CODES[kind].items():
            if c == code:
                return t
        raise ValueError(f"type code {code} names no kind::{kind.value} operand type")

    common = {
        "kind": kind,
        "m": get("m_shr4") << 4,
        "n": get("n_shr3") << 3,
        "a_type": ab(get("a_type")),
        "b_type": ab(get("b_type")),
        "transpose_a": bool(get("transpose_a")),
        "transpose_b": bool(get("transpose_b")),
        "negate_a": bool(get("negate_a")),
        "negate_b": bool(get("negate_b")),
        "sparse": bool(get("sparse")),
        "sparse_selector": get("sparse_selector"),
    }
    if kind.block_scaled:
        scale = DType.UE8M0 if get("scale_type") else DType.UE4M3
        k96 = bool(get("k96"))
        if k96 and kind is Kind.MXF8F6F4:
            raise ValueError("bit 31 of the kind::mxf8f6f4 instruction descriptor is reserved")
        return InstrDescriptor(
            **common, scale_type=scale, a_scale_id=get("a_scale_id"), b_scale_id=get("b_scale_id"), k96=k96
        )
    codes = {c: t for t, c in D_TYPE_CODES.items()}
    if get("d_type") not in codes:
        raise ValueError(f"D type code {get('d_type')} is reserved")
    return InstrDescriptor(
        **common, d_type=codes[get("d_type")], saturate=bool(get("saturate")), ws_max_shift=get("ws_max_shift")
    )


# ---- accumulator layout in TMEM (9.7.16.2.2 "Data path layout organization") ------------------


def accumulator_lane(m: int, cta_group: int, row: int) -> tuple[int, int]:
    """(CTA of the pair, TMEM lane) holding row `row` of an M-row accumulator; column j of D is
    column (taddr column + j) for 32-bit D types.

    - M = 128, cta_group::1: row i in lane i (all four lane quarters).
    - M = 64, cta_group::1: 16 rows per lane quarter: row i in lane 32*(i // 16) + i % 16.
    - M = 256, cta_group::2: rows 0-127 in the issuing CTA's lanes 0-127, rows 128-255 in the
      peer CTA's (each CTA of the pair holds half of D).
    Other forms (M = 128 with cta_group::2, the .ws layouts) are not in this table: raises ValueError.
    """
    if not 0 <= row < m:
        raise ValueError(f"row {row} is outside an M = {m} accumulator")
    if cta_group == 1 and m == 128:
        return 0, row
    if cta_group == 1 and m == 64:
        return 0, LANES_PER_WARP * (row // 16) + row % 16
    if cta_group == 2 and m == 256:
        return row // TMEM_LANES, row % TMEM_LANES
    raise ValueError(f"the accumulator layout of M = {m} with cta_group::{cta_group} is not modelled")


def accumulator_columns(n: int, d_type: DType) -> int:
    """TMEM columns an N-column accumulator occupies: one 32-bit cell per element of f32/s32 D."""
    if d_type.bits != 32:
        raise ValueError(f"the TMEM footprint of a {d_type.value} accumulator is not modelled")
    return n


def d_extent(desc: InstrDescriptor) -> tuple[int, int] | None:
    """(lanes, columns) of TMEM an mma writes from its D address, for a 32-bit D: its rows
    spread over all four lane quarters for every M (accumulator_lane); None when not modelled."""
    if desc.d_type.bits != 32:
        return None
    return (TMEM_LANES, accumulator_columns(desc.n, desc.d_type))


# ---- PTX spelling -------------------------------------------------------------------------------


def mma_mnemonic(
    kind: Kind,
    cta_group: int,
    *,
    ws: bool = False,
    sparse: bool = False,
    scale_vec: ScaleVec | None = None,
    collector: str | None = None,
) -> str:
    """`tcgen05.mma{.sp}{.ws}.cta_group::N.kind::K{.block_scale{.scale_vec}}{.collector::...}`.

    Spelled as given, legal or not, so a checker can spell the forms ptxas rejects.
    """
    parts = ["tcgen05.mma"]
    if ws:
        parts.append("ws")
    if sparse:
        parts.append("sp")
    parts += [f"cta_group::{cta_group}", f"kind::{kind.value}"]
    if kind.block_scaled:
        parts.append("block_scale")
        if scale_vec is not None:
            parts.append(scale_vec.value)
    if collector is not None:
        parts.append(collector)
    return ".".join(parts)
