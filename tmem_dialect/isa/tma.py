"""TMA facts: cp.async.bulk(.tensor) forms, tensor-map limits, TMA swizzle modes, bulk groups, mnemonics.

Sources (PTX ISA 8.7/9.0, cited by section title; numbers shift between versions):
- 5.5 "Tensors": "Tensor Dimension, size and format" (1-5 dimensions, strides in bytes, multiples
  of 16); "Tiled Mode" (the bounding box: the box at the tensor coordinates; box elements
  outside the tensor are out of bound and are filled with zero, or NaN on request, on loads,
  and are not written on stores); "Swizzling Modes" (32B/64B/128B: 16-byte chunks XORed
  within a span of 32/64/128 bytes, the pattern repeating every 256/512/1024 bytes; sm_100's
  128B modes with 32-byte and 64-byte atomicity); "Tensor-map" (an opaque 128-byte
  object, 64-byte aligned, in .param/.const/.global space).
- "Data Movement and Conversion Instructions: cp.async.bulk.tensor": `.dim` .1d-.5d, `.tile` load mode, `.shared::cluster`
  (PTX 8.0, sm_90) or `.shared::cta` (PTX 8.6) destination, `.multicast::cluster` with a
  16-bit ctaMask (sm_90a / sm_100a), `.cta_group::1/2` (PTX 8.6, sm_100a); the store form
  `.global.shared::cta.tile.bulk_group` (PTX 8.0).
- "cp.async.bulk": size and both addresses multiples of 16 (PTX 8.0, sm_90).
- "cp.async.bulk.prefetch.tensor"; "prefetch, prefetchu" (`prefetch.tensormap`, PTX 8.0).
- "cp.async.bulk.commit_group", "cp.async.bulk.wait_group" (`.read`: only the source reads) (the
  group count is an integer constant).
- Tensor-map encoding limits of cuTensorMapEncodeTiled (CUDA driver API, the only producer of
  tensor maps): box dims in [1, 256]; the inner box extent a multiple of 16 bytes (no
  interleave); with a swizzle, the inner box extent at most the swizzle span; global strides
  multiples of 16 below 2^40; element strides in [1, 8].
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tmem_dialect.isa.smem import Swizzle

TMA_MIN_DIMS = 1
TMA_MAX_DIMS = 5
BOX_MAX = 256  # each box dimension is in [1, 256]
BOX_INNER_ALIGN = 16  # bytes: boxDim[0] * element size is a multiple of 16 (no interleave)
GLOBAL_ALIGN = 16  # the tensor's global address and its strides are multiples of 16 bytes
GLOBAL_STRIDE_LIMIT = 1 << 40
GLOBAL_DIM_LIMIT = 1 << 32
SMEM_ALIGN = 128  # the shared destination of a tiled load: 128-byte aligned (1024 for the 128B swizzle pattern to start at row 0)
TENSOR_MAP_BYTES = 128
TENSOR_MAP_ALIGN = 64
BULK_ALIGN = 16  # cp.async.bulk: size and both addresses multiples of 16 [ptxas checks a constant size]
MULTICAST_MASK_BITS = 16  # ctaMask: one bit per CTA rank of the cluster (an i16 operand) [ptxas]

# PTX ISA version each form needs (the ptxas oracle agrees: .cta_group needs 8.6).
PTX_TMA = (8, 0)
PTX_TMA_SHARED_CTA = (8, 6)
PTX_TMA_CTA_GROUP = (8, 6)


class TmaSwizzle(Enum):
    """The tensor map's swizzle (CUtensorMapSwizzle) and the shared-memory swizzle it produces.

    The XOR pattern is the one the tcgen05 SMEM descriptor names with the same span (isa.smem
    Swizzle, geometry in isa.operands.SWIZZLE_GEOMETRY): a TMA load in mode X writes exactly the
    layout an mma reads through a descriptor with swizzle X. The 32-byte-atom-with-8-byte-flip
    and 64-byte-atom modes of sm_100 have no descriptor twin and are not modelled.
    """

    NONE = "none"
    B32 = "32B"
    B64 = "64B"
    B128 = "128B"
    B128_ATOM32 = "128B_atom_32B"
    B128_ATOM32_FLIP8 = "128B_atom_32B_flip_8B"
    B128_ATOM64 = "128B_atom_64B"

    @property
    def smem_swizzle(self) -> Swizzle | None:
        """The descriptor swizzle with this XOR pattern (None: not modelled)."""
        return _SMEM_SWIZZLE.get(self)

    @property
    def span_bytes(self) -> int:
        """The swizzle span: the inner box extent may not exceed it (no limit unswizzled)."""
        return 0 if self is TmaSwizzle.NONE else 32 if self is TmaSwizzle.B32 else 64 if self is TmaSwizzle.B64 else 128


_SMEM_SWIZZLE = {
    TmaSwizzle.NONE: Swizzle.NONE,
    TmaSwizzle.B32: Swizzle.B32,
    TmaSwizzle.B64: Swizzle.B64,
    TmaSwizzle.B128: Swizzle.B128,
    TmaSwizzle.B128_ATOM32: Swizzle.B128_ATOM32,
}

# Element types a tensor map names (CUtensorMapDataType), by our spelling: numpy dtype name.
TENSOR_MAP_TYPES = {
    "u8": "uint8", "i8": "int8", "u16": "uint16", "i16": "int16", "u32": "uint32", "i32": "int32",
    "u64": "uint64", "i64": "int64", "f16": "float16", "bf16": "uint16", "f32": "float32",
    "f64": "float64", "tf32": "float32", "e4m3": "uint8", "e5m2": "uint8",
}  # fmt: skip


def dims_error(n: int) -> str | None:
    """1-5 tensor coordinates (upstream's verifier message)."""
    if not TMA_MIN_DIMS <= n <= TMA_MAX_DIMS:
        return f"expects coordinates between 1 to 5 dimension, got {n}"
    return None


def bulk_size_error(size: int) -> str | None:
    if size <= 0 or size % BULK_ALIGN:
        return f"the size of cp.async.bulk must be a positive multiple of {BULK_ALIGN} bytes, got {size}"
    return None


def wait_group_error(n: int) -> str | None:
    if n < 0:
        return f"cp.async.bulk.wait_group takes a non-negative group count, got {n}"
    return None


def load_barrier_cta(destination: int, named: int, multicast: bool, cta_group: int | None) -> int:
    """The cluster rank of the mbarrier that the bytes a TMA load writes into CTA `destination`
    complete on, given the rank `named` by its mbarrier operand (a shared::cluster address).

    "cp.async.bulk.tensor": with .multicast::cluster the mbarrier signal is multicast to the same
    CTA-relative offset as the operand in each destination CTA; with .cta_group::2 the signalled
    mbarrier may be in either CTA of the destination's CTA pair (CTAs 2k, 2k + 1): the one the
    operand names (CUTLASS's 2-SM loads name the even CTA's, so the peer's bytes count on the
    leader's full barrier). Otherwise the named mbarrier, in the destination CTA."""
    if cta_group == 2:
        return (destination & ~1) | (named & 1)
    return destination if multicast else named


def multicast_mask_error(mask: int) -> str | None:
    if not 0 <= mask < 1 << MULTICAST_MASK_BITS:
        return f"a multicast ctaMask has {MULTICAST_MASK_BITS} bits, got {mask:#x}"
    return None


@dataclass(frozen=True)
class TensorMapFields:
    """The fields of a tiled tensor map that the ISA's copy depends on (dim 0 innermost).

    `strides` are the byte strides of dims 1..n-1 (dim 0 is contiguous), as cuTensorMapEncodeTiled
    takes them. Out-of-bound elements of a load are zero (the float NaN fill is not modelled).
    """

    element_bytes: int
    dims: tuple[int, ...]
    strides: tuple[int, ...]
    box: tuple[int, ...]
    swizzle: TmaSwizzle = TmaSwizzle.NONE
    element_strides: tuple[int, ...] | None = None

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def box_bytes(self) -> int:
        n = self.element_bytes
        for b in self.box:
            n *= b
        return n

    def errors(self) -> list[str]:
        """What cuTensorMapEncodeTiled would refuse (a tensor map that cannot exist)."""
        out: list[str] = []
        if err := dims_error(self.rank):
            return [err.replace("expects coordinates", "a tensor map has")]
        if len(self.box) != self.rank:
            out.append(f"the box has {len(self.box)} dimensions, the tensor {self.rank}")
        if len(self.strides) != self.rank - 1:
            out.append(f"a rank-{self.rank} tensor map has {self.rank - 1} strides (dims 1..{self.rank - 1}), got {len(self.strides)}")
        for i, d in enumerate(self.dims):
            if not 1 <= d <= GLOBAL_DIM_LIMIT:
                out.append(f"dimension {i} is {d}: it must be in [1, 2^32]")
        for i, s in enumerate(self.strides, start=1):
            if s <= 0 or s % GLOBAL_ALIGN or s >= GLOBAL_STRIDE_LIMIT:
                out.append(f"the stride of dimension {i} is {s} bytes: it must be a positive multiple of 16 below 2^40")
        for i, b in enumerate(self.box):
            if not 1 <= b <= BOX_MAX:
                out.append(f"box dimension {i} is {b}: it must be in [1, {BOX_MAX}]")
        if self.box:
            inner = self.box[0] * self.element_bytes
            if inner % BOX_INNER_ALIGN:
                out.append(f"the inner box extent is {inner} bytes: it must be a multiple of {BOX_INNER_ALIGN}")
            span = self.swizzle.span_bytes
            if span and inner > span:
                out.append(f"the inner box extent is {inner} bytes, more than the {self.swizzle.value} swizzle span ({span} bytes)")
        if self.element_strides is not None and any(not 1 <= e <= 8 for e in self.element_strides):
            out.append(f"element strides must be in [1, 8], got {self.element_strides}")
        if self.swizzle.smem_swizzle is None:
            out.append(f"the swizzle mode {self.swizzle.value} is not modelled")
        return out


def tensor_load_mnemonic(dims: int, cta_only: bool, multicast: bool, cta_group: int | None) -> str:
    """`cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes{.multicast::cluster}{.cta_group::N}`."""
    dst = "shared::cta" if cta_only else "shared::cluster"
    text = f"cp.async.bulk.tensor.{dims}d.{dst}.global.tile.mbarrier::complete_tx::bytes"
    if multicast:
        text += ".multicast::cluster"
    if cta_group is not None:
        text += f".cta_group::{cta_group}"
    return text


def tensor_store_mnemonic(dims: int) -> str:
    return f"cp.async.bulk.tensor.{dims}d.global.shared::cta.tile.bulk_group"


def tensor_prefetch_mnemonic(dims: int) -> str:
    return f"cp.async.bulk.prefetch.tensor.{dims}d.L2.global.tile"


def bulk_load_mnemonic(multicast: bool) -> str:
    text = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
    return text + (".multicast::cluster" if multicast else "")


BULK_STORE_MNEMONIC = "cp.async.bulk.global.shared::cta.bulk_group"
BULK_COMMIT_GROUP = "cp.async.bulk.commit_group"
PREFETCH_TENSORMAP = "prefetch.tensormap"


def bulk_wait_group_mnemonic(read: bool) -> str:
    return "cp.async.bulk.wait_group" + (".read" if read else "")


def l2_hint_suffix(has_hint: bool) -> str:
    return ".L2::cache_hint" if has_hint else ""
