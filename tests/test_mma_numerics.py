"""Interpreter numerics of tcgen05.mma: formats, SMEM descriptors and swizzles, D layouts, the product.

Every expected value here comes from a formula written in this file, independently of isa.py and
the interpreter modules: per-code float decoders built from math.ldexp, the swizzles as
"16-byte chunk index XOR row of the atom", the accumulator layouts from PTX ISA 9.7.16.10.5.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from tmem_dialect import isa
from tmem_dialect.interpreter import formats
from tmem_dialect.interpreter import smem_descriptor as sd
from tmem_dialect.interpreter import tensor_core as tc

# ---- formats -----------------------------------------------------------------------------


def minifloat(code: int, e: int, m: int, bias: int, signed: bool = True, kind: str = "finite") -> float:
    """One code of a sign/exponent/mantissa format, decoded the textbook way."""
    sign = -1.0 if signed and code >> (e + m) & 1 else 1.0
    exp = (code >> m) & ((1 << e) - 1)
    man = code & ((1 << m) - 1)
    if kind == "fn" and exp == (1 << e) - 1 and man == (1 << m) - 1:
        return math.nan
    if kind == "ieee" and exp == (1 << e) - 1:
        return sign * math.inf if man == 0 else math.nan
    if exp == 0:
        return sign * math.ldexp(man / 2**m, 1 - bias)
    return sign * math.ldexp(1 + man / 2**m, exp - bias)


CASES = {
    "e4m3": (8, lambda c: minifloat(c, 4, 3, 7, kind="fn")),
    "e5m2": (8, lambda c: minifloat(c, 5, 2, 15, kind="ieee")),
    "e2m3": (6, lambda c: minifloat(c, 2, 3, 1)),
    "e3m2": (6, lambda c: minifloat(c, 3, 2, 3)),
    "e2m1": (4, lambda c: minifloat(c, 2, 1, 1)),
    "ue4m3": (7, lambda c: minifloat(c, 4, 3, 7, signed=False, kind="fn")),
    "ue8m0": (8, lambda c: math.nan if c == 255 else math.ldexp(1.0, c - 127)),
}


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_every_code_of_small_formats(fmt):
    bits, ref = CASES[fmt]
    codes = np.arange(1 << bits)
    got = formats.decode(codes, fmt)
    want = np.array([ref(int(c)) for c in codes])
    np.testing.assert_array_equal(got, want)  # NaN == NaN for assert_array_equal


def test_known_values():
    assert formats.decode(np.array([0x7E, 0xFE]), "e4m3").tolist() == [448.0, -448.0]
    assert formats.decode(np.array([0x7B]), "e5m2").tolist() == [57344.0]
    assert formats.decode(np.arange(8), "e2m1").tolist() == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert formats.decode(np.array([0x1F]), "e2m3").tolist() == [7.5]
    assert formats.decode(np.array([0x1F]), "e3m2").tolist() == [28.0]
    assert formats.decode(np.array([127, 0]), "ue8m0").tolist() == [1.0, 2.0**-127]


def test_every_f16_and_bf16_code():
    codes = np.arange(1 << 16)
    want16 = np.array([struct.unpack("<e", struct.pack("<H", int(c)))[0] for c in codes])
    np.testing.assert_array_equal(formats.decode(codes, "f16"), want16)
    wantbf = np.array([struct.unpack("<f", struct.pack("<I", int(c) << 16))[0] for c in codes])
    np.testing.assert_array_equal(formats.decode(codes, "bf16"), wantbf)


def test_tf32_ignores_the_low_13_mantissa_bits():
    x = struct.unpack("<I", struct.pack("<f", 1.0 + 2**-10 + 2**-11 + 2**-20))[0]
    assert formats.decode(np.array([x]), "tf32").tolist() == [1.0 + 2**-10]


def test_integers():
    assert formats.decode_int(np.array([0x80, 0xFF, 0x7F]), "s8").tolist() == [-128, -1, 127]
    assert formats.decode_int(np.array([0x80, 0xFF]), "u8").tolist() == [128, 255]


# ---- SMEM descriptors and swizzles ---------------------------------------------------------


def test_cute_descriptor_value():
    """CuTe DSL 4.8.1 emits 0x4000404000010000 | start for a K-major 128B-swizzled f16 operand."""
    d = sd.decode(0x4000404000010000 | (0x400 >> 4))
    assert (d.start_address, d.leading_byte_offset, d.stride_byte_offset, d.swizzle.value, d.base_offset) == (
        0x400, 16, 1024, 2, 0)
    assert sd.encode(0x400, 16, 1024, 2) == 0x4000404000010000 | (0x400 >> 4)


def test_reserved_swizzle_codes_are_rejected():
    for code in (3, 5, 7):
        with pytest.raises(sd.DescriptorError, match="swizzle"):
            sd.decode(sd.encode(0, 16, 1024, 0) | code << 61)


def kmajor_reference(start, sbo, lbo, mode, i, kb):
    """Byte address of row i, byte kb of the K extent (kb < 32), K-major (written from Table 38)."""
    if mode == 0:  # core matrices of 8 rows x 16 bytes
        return start + (i // 8) * sbo + (i % 8) * 16 + (kb // 16) * lbo + kb % 16
    width = {6: 32, 4: 64, 2: 128}[mode]  # row bytes of the atom
    row = i % 8
    linear = row * width + kb  # inside an 8-row atom that starts on its repeat boundary
    phase = (linear >> 7) & ({32: 1, 64: 3, 128: 7}[width])
    chunk = (kb // 16) ^ phase
    return start + (i // 8) * sbo + row * width + chunk * 16 + kb % 16


def mnmajor_reference(start, sbo, lbo, mode, mb, k):
    """Byte address of byte mb of the MN extent at K index k, MN-major."""
    if mode == 0:
        return start + (mb // 16) * sbo + (k // 8) * lbo + (k % 8) * 16 + mb % 16
    if mode == 1:  # 128-byte rows, 4 rows per atom, 32-byte units XOR row
        unit = ((mb // 32) % 4) ^ (k % 4)
        return start + (mb // 128) * lbo + (k // 4) * sbo + (k % 4) * 128 + unit * 32 + mb % 32
    width = {6: 32, 4: 64, 2: 128}[mode]
    row = k % 8
    phase = ((row * width) >> 7) & ({32: 1, 64: 3, 128: 7}[width])
    chunk = ((mb // 16) % (width // 16)) ^ phase
    return start + (mb // width) * lbo + (k // 8) * sbo + row * width + chunk * 16 + mb % 16


@pytest.mark.parametrize("mode", [0, 6, 4, 2])
@pytest.mark.parametrize("elem_bits", [8, 16, 32])
def test_kmajor_addresses(mode, elem_bits):
    start, sbo, lbo = 0x2000, 1024 if mode else 256, 128
    desc = sd.decode(sd.encode(start, lbo, sbo, mode))
    mn, k = 64, 256 // elem_bits
    addr, shift = sd.element_addresses(desc, mn, k, elem_bits, k_major=True)
    eb = elem_bits // 8
    want = np.array([[kmajor_reference(start, sbo, lbo, mode, i, kk * eb) for kk in range(k)] for i in range(mn)])
    np.testing.assert_array_equal(addr, want)
    assert not shift.any()


@pytest.mark.parametrize("mode", [0, 1, 6, 4, 2])
@pytest.mark.parametrize("elem_bits", [8, 16, 32])
def test_mnmajor_addresses(mode, elem_bits):
    start, sbo, lbo = 0x4000, 2048, 4096
    desc = sd.decode(sd.encode(start, lbo, sbo, mode))
    eb = elem_bits // 8
    mn, k = 512 // eb, 16
    addr, _ = sd.element_addresses(desc, mn, k, elem_bits, k_major=False)
    want = np.array([[mnmajor_reference(start, sbo, lbo, mode, i * eb, kk) for kk in range(k)] for i in range(mn)])
    np.testing.assert_array_equal(addr, want)


def test_base_offset_names_the_pattern_row_of_an_unaligned_start():
    """A 128B pattern starting 3 rows past a 1024-byte boundary: base offset 3 (Table 41), and the
    swizzle counts rows from the pattern start."""
    start = 0x2000 + 3 * 128
    desc = sd.decode(sd.encode(start, 16, 1024, 2, base_offset=3))
    addr, _ = sd.element_addresses(desc, 8, 16, 16, k_major=True)
    for i in range(8):
        for kk in range(16):
            kb = kk * 2
            assert addr[i, kk] == start + i * 128 + ((kb // 16) ^ i) * 16 + kb % 16


def test_packed_e2m1_nibbles():
    desc = sd.decode(sd.encode(0x1000, 16, 128, 0))
    addr, shift = sd.element_addresses(desc, 8, 64, 4, k_major=True)
    raw = np.arange(0x1000 + 8 * 16 * 2 + 512, dtype=np.int64).astype(np.uint8)
    codes = sd.gather_codes(raw, addr, shift, 4, 4)
    # element kk of row i: byte i*16 + (kk//32)*16 + (kk%32)//2, low nibble for even kk
    for i in range(8):
        for kk in range(64):
            byte = raw[0x1000 + i * 16 + (kk // 32) * 16 + (kk % 32) // 2]
            assert codes[i, kk] == (byte >> (4 * (kk % 2))) & 0xF


# ---- instruction descriptor ----------------------------------------------------------------

F16, F32 = isa.DType.F16, isa.DType.F32


def idesc(kind, m, n, a, b, d=isa.DType.F32, **kw):
    return tc.decode_instr(isa.InstrDescriptor(kind, m, n, a, b, d, **kw).encode(), kind)


def test_instruction_descriptor_of_cute():
    """CuTe DSL emits 0x08200010 for M = N = 128, f16 inputs, f32 D."""
    d = tc.decode_instr(0x08200010, isa.Kind.F16)
    assert (d.m, d.n, d.a_type, d.b_type, d.d_type) == (128, 128, F16, F16, F32)
    assert d.kind.dense_k == 16


def test_bad_type_codes_are_descriptor_errors():
    with pytest.raises(sd.DescriptorError):
        tc.decode_instr(6 << 7 | 1 << 4, isa.Kind.F8F6F4)


# ---- accumulator layouts -------------------------------------------------------------------


def layout_reference(m, cta_group, r, j, n):
    """PTX ISA 9.7.16.10.5: layouts D, A (identity), B (column halves in lanes 64+), F (16 per warp)."""
    if (m, cta_group) in ((128, 1), (256, 2)):
        return r, j
    if (m, cta_group) == (128, 2):
        return (r, j) if j < n // 2 else (r + 64, j - n // 2)
    if (m, cta_group) == (64, 1):
        return (r // 16) * 32 + r % 16, j
    raise AssertionError


@pytest.mark.parametrize("m,cta_group", [(64, 1), (128, 1), (128, 2), (256, 2)])
def test_accumulator_layouts_value_by_value(m, cta_group):
    n = 64
    taddr = (0 << 16) | 32
    flat = tc.accumulator_flat(taddr, m, n, cta_group)
    assert flat.shape == (m // cta_group, n)
    for r in range(m // cta_group):
        for j in range(n):
            lane, col = layout_reference(m, cta_group, r, j, n)
            assert flat[r, j] == lane * 512 + 32 + col
    assert np.unique(flat).size == flat.size


# ---- the product -------------------------------------------------------------------------


def test_f16_128x256x16_matches_numpy():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((128, 16)).astype(np.float16)
    b = rng.standard_normal((256, 16)).astype(np.float16)
    d0 = rng.standard_normal((128, 256)).astype(np.float32)
    got = tc.multiply(idesc(isa.Kind.F16, 128, 256, F16, F16), a.astype(np.float64), b.astype(np.float64), d0)
    want = (a.astype(np.float64) @ b.astype(np.float64).T + d0).astype(np.float32)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.float32


def test_i8_is_bit_exact_and_wraps_or_saturates():
    rng = np.random.default_rng(2)
    a = rng.integers(-128, 128, (128, 32))
    b = rng.integers(0, 256, (64, 32))
    d0 = np.full((128, 64), 2**31 - 1, dtype=np.int32)
    S8, U8, S32 = isa.DType.S8, isa.DType.U8, isa.DType.S32
    wrap = idesc(isa.Kind.I8, 128, 64, S8, U8, S32)
    sat = idesc(isa.Kind.I8, 128, 64, S8, U8, S32, saturate=True)
    exact = a @ b.T + (2**31 - 1)
    got = tc.multiply(wrap, a, b, d0)
    assert got.dtype == np.int32
    assert (got.astype(np.int64) == ((exact + 2**31) % 2**32) - 2**31).all()
    assert (tc.multiply(sat, a, b, d0).astype(np.int64) == np.clip(exact, -2**31, 2**31 - 1)).all()


def test_block_scaled_applies_one_scale_per_32_elements():
    rng = np.random.default_rng(3)
    a = formats.decode(rng.integers(0, 256, (128, 32 * 4)), "e4m3")
    b = formats.decode(rng.integers(0, 16, (64, 32 * 4)), "e2m1")
    a[np.isnan(a)] = 0
    sfa = formats.decode(rng.integers(120, 134, (128, 4)), "ue8m0")
    sfb = formats.decode(rng.integers(120, 134, (64, 4)), "ue8m0")
    d = idesc(isa.Kind.MXF8F6F4, 128, 64, isa.DType.E4M3, isa.DType.E2M1, scale_type=isa.DType.UE8M0)
    got = tc.multiply(d, a, b, None, sfa, sfb)
    want = np.zeros((128, 64))
    for blk in range(4):
        s = slice(32 * blk, 32 * blk + 32)
        want += (a[:, s] @ b[:, s].T) * sfa[:, blk : blk + 1] * sfb[:, blk][None, :]
    np.testing.assert_array_equal(got, want.astype(np.float32))


def test_swizzled_operand_round_trip():
    """An f16 128x16 tile written into smem with the independent 128B K-major formula and read
    back through a descriptor is the tile."""
    rng = np.random.default_rng(4)
    tile = rng.standard_normal((128, 16)).astype(np.float16)
    start = 0x2000
    raw = np.zeros(start + 128 * 128, dtype=np.uint8)
    bits = tile.view(np.uint16)
    for i in range(128):
        for kk in range(16):
            at = kmajor_reference(start, 1024, 16, 2, i, 2 * kk)
            raw[at], raw[at + 1] = bits[i, kk] & 0xFF, bits[i, kk] >> 8
    desc = sd.decode(sd.encode(start, 16, 1024, 2))
    addr, shift = sd.element_addresses(desc, 128, 16, 16, k_major=True)
    codes = sd.gather_codes(raw, addr, shift, 16, 16)
    via = tc.read_smem_operand(lambda x: raw[x], sd.encode(start, 16, 1024, 2), isa.Kind.F16, F16, 128, 16, False)
    np.testing.assert_array_equal(via, tile.astype(np.float64))
    np.testing.assert_array_equal(formats.decode(codes, "f16"), tile.astype(np.float64))
