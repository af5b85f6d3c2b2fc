"""Units of the lowering: ptxas discovery and messages, PTX identifiers and constant folding, the
target's options on the command line, and the arithmetic the NVVM level spells differently
(signed division, min/max, casts) checked against the tcgen05 level by running both."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import llvm
from xdsl.utils.arg_spec import parse_spec

from tmem_dialect.diagnostics import Severity
from tmem_dialect.interpreter import validation
from tmem_dialect.lowering import ptx_arith, ptx_emitter, ptxas
from tmem_dialect.lowering.ptx_target import PTXTarget
from tmem_dialect.lowering.ptx_values import Imm, RegClass, int_imm

ROOT = Path(__file__).resolve().parent.parent
TMEM_OPT = [sys.executable, "-m", "tmem_dialect.tools.opt"]
EXAMPLE = ROOT / "examples" / "nvvm_roundtrip.mlir"


# ---- ptxas discovery and messages ------------------------------------------------------------


def _fake_ptxas(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_find_ptxas_prefers_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake_ptxas(tmp_path / "my-ptxas")
    monkeypatch.setenv("PTXAS", str(fake))
    assert ptxas.find_ptxas() == str(fake)
    monkeypatch.setenv("PTXAS", str(tmp_path / "missing"))
    assert ptxas.find_ptxas() is None  # an explicit choice that does not exist is not replaced


def test_find_ptxas_falls_back_to_the_nvcc_wheel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing on PATH, the `nvidia` namespace package of nvidia-cuda-nvcc is searched."""
    site = tmp_path / "site"
    fake = _fake_ptxas(site / "nvidia" / "cu13" / "bin" / "ptxas")
    monkeypatch.delenv("PTXAS", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "nvidia", raising=False)
    assert ptxas.find_ptxas() == str(fake)


def test_ptxas_messages_are_parsed_with_lines() -> None:
    out = (
        "ptxas /tmp/x/module.ptx, line 16; error   : Argument 1 of 'tcgen05.alloc' instruction: value must be power of 2\n"
        "ptxas /tmp/x/module.ptx, line 3; warning : something odd\n"
        "ptxas error   : Function 'k' uses single CTA(.cta_group::1) and CTA pair granularity(.cta_group::2)\n"
        "ptxas fatal   : Ptx assembly aborted due to errors\n"
    )
    messages = ptxas.parse_messages(out)
    assert [(m.line, m.severity) for m in messages] == [
        (16, Severity.ERROR),
        (3, Severity.WARNING),
        (None, Severity.ERROR),
    ]
    assert messages[0].text.endswith("value must be power of 2")


def test_run_ptxas_without_ptxas_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PTXAS", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="ptxas not found"):
        ptxas.run_ptxas("", "sm_100a")


def test_a_ptxas_that_hangs_is_stopped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    stuck = tmp_path / "stuck-ptxas"
    stuck.write_text("#!/bin/sh\nexec sleep 30\n")
    stuck.chmod(stuck.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(ptxas, "TIMEOUT_SECONDS", 0.5)
    with pytest.raises(ptxas.PtxasNotRunnable, match="did not finish within 0.5 s"):
        ptxas.run_ptxas("", "sm_100a", str(stuck))


def test_ptxas_check_without_ptxas_is_a_diagnostic(tmp_path: Path) -> None:
    env = dict(os.environ, PTXAS=str(tmp_path / "missing"))
    proc = subprocess.run([*TMEM_OPT, str(EXAMPLE), "-t", "ptx", "--ptxas-check"], capture_output=True, text=True, env=env)
    assert proc.returncode == 1
    assert "error: --ptxas-check: ptxas not found" in proc.stderr
    assert "Traceback" not in proc.stderr


# ---- the target and its options -------------------------------------------------------------


def test_target_spec_takes_version_and_arch() -> None:
    target = PTXTarget.from_spec(parse_spec("ptx{version=8.8 arch=sm_103a}"))
    assert (str(target.version), target.arch) == ("8.8", "sm_103a")
    assert PTXTarget.from_spec(parse_spec('ptx{version="9.0"}')).version == "9.0"


@pytest.mark.parametrize(
    "args,expected",
    [
        (["-t", "ptx{version=8.8 arch=sm_103a}"], [".version 8.8", ".target sm_103a"]),
        (["-t", "ptx", "--ptx-version", "9.0", "--ptx-arch", "sm_110a"], [".version 9.0", ".target sm_110a"]),
        (["-t", "ptx"], [".version 8.6", ".target sm_100a", ".address_size 64", ".reqntid 128, 1, 1"]),
    ],
)
def test_cli_target_options(args: list[str], expected: list[str]) -> None:
    proc = subprocess.run([*TMEM_OPT, str(EXAMPLE), *args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert all(e in lines for e in expected), proc.stdout[:400]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--ptx-arch", "sm_90a"], "target sm_90a has no tcgen05 instructions"),
        (["--ptx-arch", "sm_103a"], "target sm_103a needs PTX ISA 8.8 or later, got 8.6"),
        (["--ptx-version", "9.9"], "version=9.9 is newer than PTX ISA 9.0"),
        (["--ptx-version", "eight"], "a PTX version looks like 8.6, got 'eight'"),
    ],
)
def test_cli_rejects_targets_without_tcgen05(args: list[str], message: str) -> None:
    proc = subprocess.run([*TMEM_OPT, str(EXAMPLE), "-t", "ptx", *args], capture_output=True, text=True)
    assert proc.returncode == 1
    assert message in proc.stderr and "Traceback" not in proc.stderr


# ---- emitter details -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,expected",
    [("kernel", "kernel"), ("tmem.slot", "tmem_$_slot"), ("_x1", "_x1"), ("9lives", "_9lives")],
)
def test_ptx_identifiers(name: str, expected: str) -> None:
    assert ptx_emitter.ptx_identifier(name) == expected


@pytest.mark.parametrize("kind", ["add", "sub", "mul", "udiv", "urem", "sdiv", "srem", "and", "or", "xor", "shl", "lshr", "ashr"])
@pytest.mark.parametrize("cls", [RegClass.B16, RegClass.B32, RegClass.B64])
def test_constant_folding_matches_two_complement_arithmetic(kind: str, cls: RegClass) -> None:
    op = {"add": llvm.AddOp, "sub": llvm.SubOp, "mul": llvm.MulOp, "udiv": llvm.UDivOp, "urem": llvm.URemOp,
          "sdiv": llvm.SDivOp, "srem": llvm.SRemOp, "and": llvm.AndOp, "or": llvm.OrOp, "xor": llvm.XOrOp,
          "shl": llvm.ShlOp, "lshr": llvm.LShrOp, "ashr": llvm.AShrOp}[kind]
    dtype = {16: np.int16, 32: np.int32, 64: np.int64}[cls.bits]
    udtype = {16: np.uint16, 32: np.uint32, 64: np.uint64}[cls.bits]
    rng = np.random.default_rng(cls.bits)
    samples = [(-7, 2), (7, -2), (-(2 ** (cls.bits - 1)), 3), (5, cls.bits - 1), (-1, 1)]
    samples += [tuple(int(x) for x in rng.integers(-(2**15), 2**15, 2)) for _ in range(20)]
    for a, b in samples:
        if kind in ("shl", "lshr", "ashr"):
            b = abs(b) % cls.bits
        if kind in ("udiv", "urem", "sdiv", "srem") and b == 0:
            continue
        folded = ptx_arith.fold_binary(op, cls, int_imm(cls, a), int_imm(cls, b))
        assert isinstance(folded, Imm)
        sa, sb = np.array(a).astype(dtype), np.array(b).astype(dtype)
        ua, ub = sa.view(udtype), sb.view(udtype)
        with np.errstate(over="ignore"):
            expected = {
                "add": lambda: sa + sb, "sub": lambda: sa - sb, "mul": lambda: sa * sb,
                "udiv": lambda: ua // ub, "urem": lambda: ua % ub,
                "sdiv": lambda: np.fix(int(sa) / int(sb)) if abs(int(sa)) < 2**52 else None,
                "srem": lambda: np.fmod(sa, sb), "and": lambda: sa & sb, "or": lambda: sa | sb,
                "xor": lambda: sa ^ sb, "shl": lambda: ua << ub, "lshr": lambda: ua >> ub, "ashr": lambda: sa >> sb,
            }[kind]()
        if expected is None:
            continue
        assert folded.bits == int(np.array(expected).astype(dtype).view(udtype)), (kind, a, b)


def test_undivisible_constants_are_left_to_the_instruction() -> None:
    assert ptx_arith.fold_binary(llvm.UDivOp, RegClass.B32, int_imm(RegClass.B32, 1), int_imm(RegClass.B32, 0)) is None
    assert ptx_arith.fold_binary(llvm.ShlOp, RegClass.B32, int_imm(RegClass.B32, 1), int_imm(RegClass.B32, 32)) is None


# ---- arithmetic the NVVM level spells differently, run at both levels ------------------------

ARITH_KERNEL = """
func.func @arith(%a: memref<64xi32>, %b: memref<64xi32>, %out: memref<512xi32>) attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 64, 1, 1>} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = arith.index_cast %tid : i32 to index
  %c31 = arith.constant 31 : i32
  %x = memref.load %a[%i] : memref<64xi32>
  %y = memref.load %b[%i] : memref<64xi32>
  %q = arith.divsi %x, %y : i32
  %r = arith.remsi %x, %y : i32
  %mx = arith.maxsi %x, %y : i32
  %mn = arith.minui %x, %y : i32
  %amount = arith.andi %y, %c31 : i32
  %sh = arith.shrsi %x, %amount : i32
  %wide = arith.extsi %x : i32 to i64
  %zw = arith.extui %y : i32 to i64
  %sum = arith.addi %wide, %zw : i64
  %narrow = arith.trunci %sum : i64 to i32
  %lt = arith.cmpi slt, %x, %y : i32
  %sel = arith.select %lt, %q, %r : i32
  %vx = vector.broadcast %x : i32 to vector<4xi32>
  %vy = vector.broadcast %y : i32 to vector<4xi32>
  %vq = arith.remsi %vx, %vy : vector<4xi32>
  %vr = vector.extract %vq[3] : i32 from vector<4xi32>
  %zero = arith.constant dense<0> : vector<8xi32>
  %p0 = vector.insert %q, %zero[0] : i32 into vector<8xi32>
  %p1 = vector.insert %r, %p0[1] : i32 into vector<8xi32>
  %p2 = vector.insert %mx, %p1[2] : i32 into vector<8xi32>
  %p3 = vector.insert %mn, %p2[3] : i32 into vector<8xi32>
  %p4 = vector.insert %sh, %p3[4] : i32 into vector<8xi32>
  %p5 = vector.insert %narrow, %p4[5] : i32 into vector<8xi32>
  %p6 = vector.insert %sel, %p5[6] : i32 into vector<8xi32>
  %results = vector.insert %vr, %p6[7] : i32 into vector<8xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %e = vector.extract %results[%k] : i32 from vector<8xi32>
    %row = arith.muli %k, %c64 : index
    %at = arith.addi %row, %i : index
    memref.store %e, %out[%at] : memref<512xi32>
  }
  func.return
}
"""


def test_signed_division_min_max_and_casts_survive_the_lowering() -> None:
    """The NVVM level has no sdiv/srem/min/max: their expansions must compute what arith does."""
    rng = np.random.default_rng(4)
    a = rng.integers(-(2**31), 2**31, 64, dtype=np.int64).astype(np.int32)
    b = rng.integers(-(2**31), 2**31, 64, dtype=np.int64).astype(np.int32)
    a[:8] = [7, -7, 7, -7, -(2**31), 0, 5, -1]
    b[:8] = [2, 2, -2, -2, 3, 9, 31, 31]
    b[b == 0] = 1
    result = validation.validate(
        ARITH_KERNEL, "convert-tcgen05-to-nvvm", threads=64, args=[a, b, np.zeros(512, np.int32)]
    )
    assert result.ok, "\n".join(result.differences)
    out = result.after.args[2].reshape(8, 64)
    x, y = a.astype(np.int64), b.astype(np.int64)
    q = np.where((x < 0) != (y < 0), -(np.abs(x) // np.abs(y)), np.abs(x) // np.abs(y))
    assert (out[0] == q.astype(np.int32)).all()  # truncating division, as arith.divsi
    assert (out[1] == (x - q * y).astype(np.int32)).all()  # remainder with the sign of x
    assert (out[7] == out[1]).all()  # the scalarized vector remsi agrees
    assert (out[2] == np.maximum(x, y).astype(np.int32)).all()
    assert (out[3] == np.minimum(a.view(np.uint32), b.view(np.uint32)).view(np.int32)).all()


@pytest.mark.skipif(ptxas.find_ptxas() is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
def test_the_arithmetic_kernel_assembles() -> None:
    proc = subprocess.run(
        [*TMEM_OPT, "-", "-p", "convert-tcgen05-to-nvvm", "-t", "ptx", "--ptxas-check"],
        input=ARITH_KERNEL,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "div.u32" in proc.stdout and "div.s32" not in proc.stdout


def test_signed_i1_comparisons_read_true_as_minus_one() -> None:
    """i1 is {0, -1} signed: the interpreter (the translation-validation oracle) must agree with PTX."""
    from tmem_dialect.interpreter.ops.scalar import icmp

    a = np.array([False, False, True, True])
    b = np.array([False, True, False, True])
    expected = {  # arith.cmpi / llvm.icmp predicate numbers
        2: [False, False, True, False],  # slt: -1 < 0
        3: [True, False, True, True],  # sle
        4: [False, True, False, False],  # sgt: 0 > -1
        5: [True, True, False, True],  # sge
        6: [False, True, False, False],  # ult: 0 < 1
        7: [True, True, False, True],  # ule
        8: [False, False, True, False],  # ugt
        9: [True, False, True, True],  # uge
    }
    for predicate, values in expected.items():
        assert icmp(predicate, a, b).tolist() == values, predicate
