"""Hand-written PTX for each instruction class: ptxas accepts it, the imported kernel computes what the PTX ISA says.

Each case is one kernel body over four 32-bit inputs per thread (%a, %b, %c, %e, loaded with
ld.global.v4) that leaves its result in %d. The reference is a per-element Python model written
from the ISA's pseudocode (bfe, bfi, prmt, the shift clamp, mul.hi, ...), independent of the
importer's op sequences. Integer cases also round trip: re-emitted with -t ptx, assembled, imported
again, and run to the same bits.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from tmem_dialect.diagnostics import DiagnosticError
from tmem_dialect.frontend import import_ptx
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import verify_diagnostics
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas

PTXAS = find_ptxas()
M32 = 0xFFFFFFFF
THREADS = 32

TEMPLATE = """.version 8.6
.target sm_100a
.address_size 64

.visible .entry k(.param .u64 out, .param .u64 inp)
{{
  .reg .b32 %t, %a, %b, %c, %e, %d, %x;
  .reg .b64 %rd<8>;
  .reg .pred %p, %q;
  .reg .f32 %fa, %fb, %fc, %fd;
  .reg .b16 %h;
  mov.u32 %t, %tid.x;
  ld.param.u64 %rd0, [out];
  ld.param.u64 %rd1, [inp];
  cvta.to.global.u64 %rd0, %rd0;
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %t, 16;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.v4.u32 {{%a, %b, %c, %e}}, [%rd3];
  mov.b32 %fa, %a;
  mov.b32 %fb, %b;
  mov.b32 %fc, %c;
  mov.u32 %d, 0;
{body}
  mul.wide.u32 %rd4, %t, 4;
  add.u64 %rd5, %rd0, %rd4;
  st.global.u32 [%rd5], %d;
  ret;
}}
"""


def s32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & M32))[0]


def bits32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", np.float32(x)))[0]


def bfe_ref(a: int, pos: int, length: int, signed: bool, n: int = 32) -> int:
    """PTX ISA bfe pseudocode, bit by bit."""
    msb = n - 1
    pos, length = pos & 0xFF, length & 0xFF
    if not signed or length == 0 and pos == 0:
        sbit = 0
    else:
        sbit = (a >> min(pos + length - 1, msb)) & 1 if length else (a >> min(pos - 1, msb)) & 1
    d = 0
    for i in range(n):
        bit = (a >> (pos + i)) & 1 if i < length and pos + i <= msb else sbit
        d |= bit << i
    return d


def bfi_ref(a: int, b: int, pos: int, length: int, n: int = 32) -> int:
    pos, length = pos & 0xFF, length & 0xFF
    f = b
    for i in range(length):
        if pos + i > n - 1:
            break
        f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
    return f & ((1 << n) - 1)


def prmt_ref(a: int, b: int, c: int) -> int:
    data = (b << 32) | a
    d = 0
    for i in range(4):
        s = (c >> (4 * i)) & 0xF
        byte = (data >> (8 * (s & 7))) & 0xFF
        if s & 8:
            byte = 0xFF if byte & 0x80 else 0
        d |= byte << (8 * i)
    return d


def shift_ref(a: int, amount: int, kind: str) -> int:
    amount &= M32
    if kind == "shl":
        return (a << min(amount, 32)) & M32
    if kind == "shr.u":
        return a >> min(amount, 32)
    return (s32(a) >> min(amount, 31)) & M32


def min_f32_ref(a: int, b: int) -> int:
    x, y = f32(a), f32(b)
    if np.isnan(x):
        return bits32(y) if not np.isnan(y) else 0x7FFFFFFF
    if np.isnan(y):
        return bits32(x)
    return bits32(min(x, y))


@dataclass
class Case:
    name: str
    body: str
    ref: Callable[[int, int, int, int], int]
    round_trip: bool = True  # the PTX target emits every op of the import
    floats: bool = False


CASES = [
    Case("add", "add.u32 %d, %a, %b;", lambda a, b, c, e: (a + b) & M32),
    Case("sub_s32", "sub.s32 %d, %a, %b;", lambda a, b, c, e: (a - b) & M32),
    Case("mul_lo", "mul.lo.u32 %d, %a, %b;", lambda a, b, c, e: (a * b) & M32),
    Case("mul_hi_u32", "mul.hi.u32 %d, %a, %b;", lambda a, b, c, e: (a * b) >> 32),
    Case("mul_hi_s32", "mul.hi.s32 %d, %a, %b;", lambda a, b, c, e: ((s32(a) * s32(b)) >> 32) & M32),
    Case("mul_wide_hi", "mul.wide.s32 %rd6, %a, %b;\n  shr.u64 %rd6, %rd6, 32;\n  cvt.u32.u64 %d, %rd6;",
         lambda a, b, c, e: ((s32(a) * s32(b)) >> 32) & M32),
    Case("mad_lo", "mad.lo.u32 %d, %a, %b, %c;", lambda a, b, c, e: (a * b + c) & M32),
    Case("mad_wide", "mad.wide.u32 %rd6, %a, %b, %rd3;\n  sub.u64 %rd6, %rd6, %rd3;\n  cvt.u32.u64 %d, %rd6;",
         lambda a, b, c, e: (a * b) & M32),
    Case("div_u32", "or.b32 %x, %b, 1;\n  div.u32 %d, %a, %x;", lambda a, b, c, e: a // (b | 1)),
    Case("rem_s32", "or.b32 %x, %b, 1;\n  rem.s32 %d, %a, %x;",
         lambda a, b, c, e: (int(np.fmod(s32(a), s32(b | 1)))) & M32),
    Case("min_s32", "min.s32 %d, %a, %b;", lambda a, b, c, e: min(s32(a), s32(b)) & M32),
    Case("max_u32", "max.u32 %d, %a, %b;", lambda a, b, c, e: max(a, b)),
    Case("abs_neg", "abs.s32 %x, %a;\n  neg.s32 %d, %x;", lambda a, b, c, e: (-abs(s32(a))) & M32),
    Case("not_cnot", "not.b32 %x, %a;\n  cnot.b32 %d, %c;\n  xor.b32 %d, %d, %x;",
         lambda a, b, c, e: (~a & M32) ^ (1 if c == 0 else 0)),
    Case("logic", "and.b32 %x, %a, %b;\n  or.b32 %d, %x, %c;\n  xor.b32 %d, %d, 0xF0F0;",
         lambda a, b, c, e: ((a & b) | c) ^ 0xF0F0),
    Case("shl_reg", "and.b32 %x, %c, 63;\n  shl.b32 %d, %a, %x;", lambda a, b, c, e: shift_ref(a, c & 63, "shl")),
    Case("shr_u_reg", "and.b32 %x, %c, 63;\n  shr.u32 %d, %a, %x;", lambda a, b, c, e: shift_ref(a, c & 63, "shr.u")),
    Case("shr_s_reg", "and.b32 %x, %c, 63;\n  shr.s32 %d, %a, %x;", lambda a, b, c, e: shift_ref(a, c & 63, "shr.s")),
    Case("shr_s_imm", "shr.s32 %d, %a, 40;", lambda a, b, c, e: shift_ref(a, 40, "shr.s")),
    Case("setp_selp", "setp.lt.s32 %p, %a, %b;\n  selp.b32 %d, %c, %e, %p;",
         lambda a, b, c, e: c if s32(a) < s32(b) else e),
    Case("setp_bool_pair", "setp.hi.and.u32 %p|%q, %a, %b, %p;\n  setp.ne.u32 %p, %c, 0;\n"
         "  setp.hi.and.u32 %p|%q, %a, %b, %p;\n  selp.u32 %d, 1, 0, %p;\n  selp.u32 %x, 2, 0, %q;\n  or.b32 %d, %d, %x;",
         lambda a, b, c, e: (1 if (a > b and c != 0) else 0) | (2 if (a <= b and c != 0) else 0)),
    Case("pred_logic", "setp.eq.u32 %p, %c, 0;\n  setp.lt.u32 %q, %a, %b;\n  or.pred %p, !%p, %q;\n  selp.u32 %d, 7, 9, %p;",
         lambda a, b, c, e: 7 if (c != 0 or a < b) else 9),
    Case("guarded", "setp.lt.u32 %p, %a, %b;\n  mov.u32 %d, %c;\n  @%p add.u32 %d, %d, 1;\n  @!%p sub.u32 %d, %d, 1;",
         lambda a, b, c, e: (c + 1) & M32 if a < b else (c - 1) & M32),
    Case("bfe_u32", "bfe.u32 %d, %a, %b, %c;", lambda a, b, c, e: bfe_ref(a, b, c, False)),
    Case("bfe_s32", "bfe.s32 %d, %a, %b, %c;", lambda a, b, c, e: bfe_ref(a, b, c, True)),
    Case("bfe_imm", "bfe.s32 %d, %a, 4, 8;", lambda a, b, c, e: bfe_ref(a, 4, 8, True)),
    Case("bfi", "bfi.b32 %d, %a, %b, %c, %e;", lambda a, b, c, e: bfi_ref(a, b, c, e)),
    Case("prmt_imm", "prmt.b32 %d, %a, %b, 0x7531;", lambda a, b, c, e: prmt_ref(a, b, 0x7531)),
    Case("prmt_sign", "prmt.b32 %d, %a, %b, 0x8C40;", lambda a, b, c, e: prmt_ref(a, b, 0x8C40)),
    Case("prmt_reg", "prmt.b32 %d, %a, %b, %c;", lambda a, b, c, e: prmt_ref(a, b, c)),
    Case("cvt_narrow", "cvt.u16.u32 %h, %a;\n  cvt.s32.s16 %d, %h;", lambda a, b, c, e: s32(((a & 0xFFFF) ^ 0x8000) - 0x8000) & M32),
    Case("mov_pack", "mov.b64 %rd6, {%a, %b};\n  mov.b64 {%x, %d}, %rd6;\n  sub.u32 %d, %d, %x;", lambda a, b, c, e: (b - a) & M32),
    Case("scoped", "{\n  .reg .b32 %a;\n  add.u32 %a, %b, 5;\n  mov.u32 %d, %a;\n  }\n  add.u32 %d, %d, %a;",
         lambda a, b, c, e: (b + 5 + a) & M32),
    Case("shared_vector", "{\n  .shared .align 16 .b32 buf[128];\n  .reg .b32 %s;\n  mov.u32 %s, buf;\n  shl.b32 %x, %t, 4;\n"
         "  add.u32 %s, %s, %x;\n  st.shared.v4.u32 [%s], {%a, %b, %c, %e};\n  ld.shared.v2.u32 {%x, %d}, [%s+8];\n"
         "  sub.u32 %d, %d, %x;\n  }", lambda a, b, c, e: (e - c) & M32),
    Case("loop", "mov.u32 %x, 0;\n  and.b32 %e, %e, 7;\nL1:\n  setp.eq.u32 %p, %x, %e;\n  @%p bra L2;\n"
         "  add.u32 %d, %d, %a;\n  add.u32 %x, %x, 1;\n  bra.uni L1;\nL2:", lambda a, b, c, e: (a * (e & 7)) & M32),
    Case("f32_arith", "add.f32 %fd, %fa, %fb;\n  mul.rn.f32 %fd, %fd, %fc;\n  mov.b32 %d, %fd;",
         lambda a, b, c, e: bits32(np.float32(np.float32(f32(a)) + np.float32(f32(b))) * np.float32(f32(c))),
         round_trip=False, floats=True),
    Case("f32_setp", "setp.ltu.f32 %p, %fa, %fb;\n  selp.u32 %d, 1, 0, %p;",
         lambda a, b, c, e: 1 if (np.isnan(f32(a)) or np.isnan(f32(b)) or f32(a) < f32(b)) else 0,
         round_trip=False, floats=True),
    Case("f32_min", "min.f32 %fd, %fa, %fb;\n  mov.b32 %d, %fd;", lambda a, b, c, e: min_f32_ref(a, b),
         round_trip=False, floats=True),
    Case("f32_cvt", "cvt.rn.f32.s32 %fd, %a;\n  mov.b32 %d, %fd;", lambda a, b, c, e: bits32(np.float32(s32(a))),
         round_trip=False, floats=True),
]


def inputs(floats: bool) -> np.ndarray:
    rng = np.random.default_rng(12)
    if floats:
        vals = rng.standard_normal(THREADS * 4).astype(np.float32).view(np.uint32).copy()
        vals[:4] = [0x7FC00000, 0x3F800000, 0, 0x80000000]  # a NaN, 1.0, +0, -0
        return vals
    vals = rng.integers(0, 2**32, THREADS * 4, dtype=np.uint64).astype(np.uint32)
    small = rng.integers(0, 40, THREADS * 4, dtype=np.uint32)
    vals[THREADS * 2:] = small[THREADS * 2:]  # threads 16..31: small positions/lengths/amounts
    vals[:8] = [0, 0xFFFFFFFF, 0x80000000, 1, 0x7FFFFFFF, 31, 32, 0]
    return vals


def expected(case: Case, inp: np.ndarray) -> np.ndarray:
    rows = inp.reshape(THREADS, 4).astype(np.int64)
    return np.array([case.ref(*(int(x) for x in r)) & M32 for r in rows], dtype=np.uint32)


def run(module, inp: np.ndarray) -> np.ndarray:
    result = run_kernel(module, kernel="k", threads=THREADS, args=[np.zeros(THREADS, np.uint32), inp.copy()])
    assert result.errors == [], result.render()
    return np.asarray(result.args[0])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_instruction_semantics(case: Case) -> None:
    ptx = TEMPLATE.format(body="  " + case.body)
    if PTXAS is not None:
        checked = run_ptxas(ptx, "sm_100a", PTXAS)
        assert checked.ok, checked.output  # the test's own PTX is valid
    module = import_ptx(ptx, f"{case.name}.ptx")
    assert verify_diagnostics(module) == []
    inp = inputs(case.floats)
    got = run(module, inp)
    want = expected(case, inp)
    bad = np.flatnonzero(got != want)
    assert not len(bad), f"thread {bad[0]}: inputs {inp.reshape(THREADS, 4)[bad[0]]}, got {got[bad[0]]:#x}, want {want[bad[0]]:#x}"
    if not case.round_trip:
        with pytest.raises(DiagnosticError):
            emit_ptx(module)  # the PTX target has no float arithmetic yet: a diagnostic, not a crash
        return
    again = emit_ptx(module).text
    if PTXAS is not None:
        checked = run_ptxas(again, "sm_100a", PTXAS)
        assert checked.ok, checked.output
    assert (run(import_ptx(again, f"{case.name}.again.ptx"), inp) == want).all()


# ---- .param-space addresses of byval parameters (PTX ISA 5.1.6.1, cvta 9.7.9.20) ----------------

PARAM_ADDRESSES = """.version 8.8
.target sm_100a
.address_size 64

.visible .entry k(.param .align 64 .b8 t[32], .param .u64 .ptr .global .align 1 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  mov.b32 %r0, t;                 // Triton: the 32-bit .param-space address
  cvt.u64.u32 %rd0, %r0;
  cvta.param.u64 %rd1, %rd0;
  mov.b64 %rd2, t;                // CuTe: the 64-bit one
  cvta.param.u64 %rd3, %rd2;
  cvta.to.param.u64 %rd4, %rd3;   // and back to .param
  ld.u32 %r1, [%rd1+4];
  ld.param.u32 %r2, [%r0+8];
  ld.param.u32 %r3, [%rd4+12];
  ld.param.u32 %r4, [t+16];
  ld.param.u64 %rd5, [out];
  cvta.to.global.u64 %rd5, %rd5;
  mov.u32 %r5, %tid.x;
  mul.wide.u32 %rd6, %r5, 48;
  add.s64 %rd7, %rd5, %rd6;
  st.global.v4.u32 [%rd7], {%r1, %r2, %r3, %r4};
  st.global.v2.u64 [%rd7+16], {%rd1, %rd3};
  st.global.v2.u64 [%rd7+32], {%rd0, %rd2};
  ret;
}
"""


def _run_param_addresses(module) -> np.ndarray:
    words = np.arange(8, dtype=np.uint32) * 7 + 3
    result = run_kernel(module, kernel="k", threads=THREADS, args=[words.view(np.uint8), np.zeros(THREADS * 12, np.uint32)])
    assert result.errors == [], result.render()
    return np.asarray(result.args[1]).reshape(THREADS, 12)


ENTRY_SPELLING = {"cvta.to.param.u64": "cvta.to.param::entry.u64", "ld.param.u32 %r3": "ld.param::entry.u32 %r3"}


@pytest.mark.parametrize("spelling", ["param", "param::entry"])
def test_param_space_addresses_of_32_and_64_bits_reach_the_same_bytes(spelling: str) -> None:
    """mov.b32 + cvt.u64.u32 + cvta.param (Triton) and mov.b64 + cvta.param (CuTe) give one generic
    address; ld through it, ld.param through the 32-bit address and through cvta.to.param of the
    generic one, and ld.param [t+16] read the parameter's bytes; the 32-bit address is the 64-bit
    one, zero-extended. `.param` is `.param::entry` in a kernel (PTX ISA 9.7.9.8, 9.7.9.20). The
    re-emitted PTX declares the byval again and computes the same."""
    ptx = PARAM_ADDRESSES
    if spelling == "param::entry":
        for old, new in ENTRY_SPELLING.items():
            assert old in ptx
            ptx = ptx.replace(old, new)
    if PTXAS is not None:
        checked = run_ptxas(ptx, "sm_100a", PTXAS)
        assert checked.ok, checked.output
    module = import_ptx(ptx, "param_addresses.ptx")
    assert verify_diagnostics(module) == []
    words = np.arange(8, dtype=np.uint32) * 7 + 3
    got = _run_param_addresses(module)
    assert (got[:, :4] == words[1:5]).all()
    addresses = got[:, 4:].view(np.uint64)  # (generic via 32 bits, generic via 64, param 32 zext, param 64)
    assert (addresses[:, 0] == addresses[:, 1]).all() and (addresses[:, 2] == addresses[:, 3]).all()
    assert (addresses[:, 2] < 2**32).all()  # the param window fits the 32-bit form
    again = emit_ptx(module).text
    assert ".param .align 64 .b8 k_param_0[32]" in again
    if PTXAS is not None:
        checked = run_ptxas(again, "sm_100a", PTXAS)
        assert checked.ok, checked.output
    assert (_run_param_addresses(import_ptx(again, "param_addresses.again.ptx"))[:, :4] == words[1:5]).all()


def test_the_address_of_a_scalar_parameter_is_unmodelled() -> None:
    """`mov.u32 %r, n` of a .b32 parameter is valid PTX (PTX ISA 5.1.6.1's own example), but the
    importer keeps scalar parameters as values: unmodelled, at its line, never a wrong number."""
    ptx = PARAM_ADDRESSES.replace(".param .align 64 .b8 t[32]", ".param .u32 n, .param .align 64 .b8 t[32]")
    ptx = ptx.replace("  cvt.u64.u32 %rd0, %r0;", "  mov.b32 %r6, n;\n  cvt.u64.u32 %rd0, %r0;")
    if PTXAS is not None:
        checked = run_ptxas(ptx, "sm_100a", PTXAS)
        assert checked.ok, checked.output
    with pytest.raises(DiagnosticError) as info:
        import_ptx(ptx, "scalar_address.ptx")
    messages = [d.message for d in info.value.diagnostics]
    assert any("unmodelled" in m and "scalar parameter 'n'" in m for m in messages), messages


# ---- 8-bit loads and stores (PTX ISA 5.2.2: .u8/.s8/.b8 are ld/st/cvt types, in wider registers) --

BYTES = """.version 8.8
.target sm_100a
.address_size 64

.visible .entry k(.param .u64 .ptr .global .align 1 out, .param .u64 .ptr .global .align 1 inp)
{
  .reg .b16 %rs<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 bytes[64];
  ld.param.u64 %rd0, [out];
  ld.param.u64 %rd1, [inp];
  cvta.to.global.u64 %rd0, %rd0;
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r0, %tid.x;
  cvt.u64.u32 %rd2, %r0;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u8 %r1, [%rd3];          // zero-extended into 32 bits
  ld.global.s8 %r2, [%rd3];          // sign-extended
  ld.global.b8 %rs1, [%rd3];         // into a 16-bit register
  cvt.s32.s8 %r3, %rs1;              // its low byte, sign-extended
  mov.u32 %r4, bytes;
  add.s32 %r5, %r4, %r0;
  xor.b32 %r6, %r2, 0x5A5;           // st.b8 stores the low byte alone
  st.shared.b8 [%r5], %r6;
  bar.sync 0;
  xor.b32 %r7, %r0, 1;
  add.s32 %r8, %r4, %r7;
  ld.shared.b8 %r9, [%r8];           // the neighbour's byte, as Triton reads its partition index
  cvt.u16.u32 %rs2, %r9;
  cvt.u32.u8 %r10, %rs2;
  st.global.u8 [%rd3+32], %rs1;      // a byte from a 16-bit register
  mul.wide.u32 %rd4, %r0, 16;
  add.s64 %rd5, %rd0, %rd4;
  st.global.v4.u32 [%rd5], {%r1, %r2, %r3, %r10};
  ret;
}
"""


def _run_bytes(module) -> tuple[np.ndarray, np.ndarray]:
    inp = np.arange(64, dtype=np.uint8) * 37 + 5  # half the bytes have the top bit set
    result = run_kernel(module, kernel="k", threads=THREADS, args=[np.zeros(THREADS * 4, np.uint32), inp.copy()])
    assert result.errors == [], result.render()
    return np.asarray(result.args[0]).reshape(THREADS, 4), np.asarray(result.args[1])


def test_byte_loads_and_stores_extend_and_truncate_as_the_isa_says_and_round_trip() -> None:
    """ld.u8 zero-extends, ld.s8 and cvt.s32.s8 sign-extend, st.b8 stores the low byte; -t ptx keeps
    each i8 in a .b16 register (ld.shared.u8, cvt.u32.u8, st.global.u8), and the re-emitted kernel
    assembles and computes the same."""
    if PTXAS is not None:
        checked = run_ptxas(BYTES, "sm_100a", PTXAS)
        assert checked.ok, checked.output
    inp = np.arange(64, dtype=np.uint8) * 37 + 5
    x = inp[:THREADS]
    signed = x.view(np.int8).astype(np.int32)
    neighbour = (signed[np.arange(THREADS) ^ 1] ^ 0x5A5) & 0xFF
    want = np.stack([x.astype(np.uint32), signed.view(np.uint32), signed.view(np.uint32), neighbour.astype(np.uint32)], axis=1)
    want_inp = inp.copy()
    want_inp[32:64] = x
    module = import_ptx(BYTES, "bytes.ptx")
    got, got_inp = _run_bytes(module)
    assert (got == want).all() and (got_inp == want_inp).all()
    again = emit_ptx(module).text
    assert "ld.shared.u8" in again and "st.shared.u8" in again and "st.global.u8" in again
    if PTXAS is not None:
        checked = run_ptxas(again, "sm_100a", PTXAS)
        assert checked.ok, checked.output
    got, got_inp = _run_bytes(import_ptx(again, "bytes.again.ptx"))
    assert (got == want).all() and (got_inp == want_inp).all()


def test_i8_arithmetic_has_no_register_class() -> None:
    """Only ld, st and cvt take 8-bit types (PTX ISA 5.2.2): an llvm.add on i8 is a diagnostic at
    the op, not 16-bit arithmetic on a register whose high byte nobody defined."""
    from tmem_dialect.dialects import make_context
    from tmem_dialect.ir import parse_module

    module = parse_module(make_context(), """llvm.func @k(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %b = llvm.load %p : !llvm.ptr<1> -> i8
  %s = llvm.add %b, %b : i8
  llvm.store %s, %p : i8, !llvm.ptr<1>
  llvm.return
}""")
    with pytest.raises(DiagnosticError) as info:
        emit_ptx(module)
    assert any("i8 has no PTX register class" in d.message for d in info.value.diagnostics)


def test_a_store_to_a_kernel_parameter_is_a_finding() -> None:
    """Kernel parameters are read-only variables (PTX ISA 5.1.6.1): a generic st through the
    cvta.param'd address (which ptxas cannot see) is reported, and the bytes stay as passed."""
    ptx = PARAM_ADDRESSES.replace("  ld.u32 %r1, [%rd1+4];", "  st.u32 [%rd1+4], %r0;\n  ld.u32 %r1, [%rd1+4];")
    if PTXAS is not None:
        checked = run_ptxas(ptx, "sm_100a", PTXAS)
        assert checked.ok, checked.output
    words = np.arange(8, dtype=np.uint32) * 7 + 3
    result = run_kernel(import_ptx(ptx, "param_store.ptx"), kernel="k", threads=THREADS,
                        args=[words.view(np.uint8), np.zeros(THREADS * 12, np.uint32)])
    assert {k.value for k in result.kinds()} == {"memory-fault"}, result.render()
    assert "read-only" in result.render()
    assert (np.asarray(result.args[0]).view(np.uint32) == words).all()
