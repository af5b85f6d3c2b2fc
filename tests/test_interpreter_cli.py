"""tmem-run: buffers on stdout, diagnostics on stderr, exit status 1 on errors, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tmem_dialect.findings import FindingKind
from tmem_dialect.tools.opt import run_tool
from tmem_dialect.tools.run import TmemRun, parse_arg

EXAMPLES = Path(__file__).parent.parent / "examples"


def tmem_run(*args: str) -> int:
    return run_tool(lambda a: TmemRun(a), "tmem-run", list(args))


def test_clean_kernel_prints_buffers_and_exits_0(capsys) -> None:
    assert tmem_run(str(EXAMPLES / "nvvm_roundtrip.mlir"), "--arg", "i32:128") == 0
    out, err = capsys.readouterr()
    assert out.startswith("arg0: int32[128] = [  0   1   2")
    assert err == ""


def test_errors_go_to_stderr_with_exit_1(capsys) -> None:
    assert tmem_run(str(EXAMPLES / "tmem_roundtrip.mlir"), "--arg", "i32:128") == 1
    out, err = capsys.readouterr()
    assert "arg0" in out
    assert "tmem_roundtrip.mlir:29:3: error: tcgen05.ld of warp" in err
    assert "Traceback" not in err


def test_json_output(capsys) -> None:
    assert tmem_run(str(EXAMPLES / "tmem_roundtrip.mlir"), "--arg", "i32:128", "--json") == 1
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert data["args"][0] == list(range(128))
    assert data["errors"] and data["errors"][0]["location"].endswith(":29:3")
    assert data["errors"][0]["notes"][0]["severity"] == "note"
    # each finding names its kind by the FindingKind's stable spelling
    assert data["errors"][0]["kind"] == "store-completion"
    assert {e["kind"] for e in data["errors"]} <= {k.value for k in FindingKind}
    assert data["warnings"] == [] and data["notes"] == []


def test_conservative_and_ptx_version_options(capsys) -> None:
    path = str(EXAMPLES / "nvvm_roundtrip.mlir")
    assert tmem_run(path, "--arg", "i32:128", "--conservative", "--ptx-version", "9.4") == 0
    capsys.readouterr()


def test_threads_kernel_and_cta_pair_options(capsys) -> None:
    path = str(EXAMPLES / "nvvm_roundtrip.mlir")
    assert tmem_run(path, "--kernel", "nvvm_roundtrip", "--threads", "128", "--arg", "i32:128") == 0
    assert tmem_run(path, "--threads", "64", "--arg", "i32:128") == 1
    _, err = capsys.readouterr()
    assert "requires exactly 128 threads" in err


@pytest.mark.parametrize(
    "args,message",
    [
        (["missing.mlir"], "could not open input file"),
        (["EXAMPLE", "--arg", "q32:4"], "unknown element type 'q32'"),
        (["EXAMPLE", "--arg", "i32:x"], "the size must be a positive integer"),
        (["EXAMPLE", "--arg", "i32"], "a scalar needs a value"),
        (["EXAMPLE", "--arg", "i32:4=abc"], "is not a number"),
        (["EXAMPLE"], "argument 0 has type !llvm.ptr<1>: give its value (--arg)"),
        (["EXAMPLE", "--ptx-version", "nine"], "a PTX version looks like 8.6"),
        (["EXAMPLE", "--ptx-version", "7.0"], "tcgen05 exists from PTX ISA 8.6 on, got 7.0"),
        (["EXAMPLE", "--arg", "i8:128=300"], "300 does not fit in i8 (-128 .. 127)"),
        (["EXAMPLE", "--arg", "i32:128=1.5"], "'1.5' is not an integer (i32 elements)"),
        (["EXAMPLE", "--arg", "i32:128=nan"], "'nan' is not an integer"),
        (["EXAMPLE", "--arg", "i32:128=1e400"], "'1e400' is not an integer"),
        (["EXAMPLE", "--arg", "f16:128=1e10"], "1e10 overflows f16"),
        (["EXAMPLE", "--arg", "i1:128=2"], "an i1 value is 0 or 1"),
        (["EXAMPLE", "--arg", "i8:300=iota"], "iota up to 299 does not fit in i8"),
        (["EXAMPLE", "--arg", "i32:99999999999999"], "too large a buffer"),
    ],
)
def test_bad_input_is_one_line_never_a_traceback(capsys, args, message) -> None:
    args = [str(EXAMPLES / "nvvm_roundtrip.mlir") if a == "EXAMPLE" else a for a in args]
    assert tmem_run(*args) == 1
    _, err = capsys.readouterr()
    assert message in err
    assert "Traceback" not in err


def test_parse_error_is_a_diagnostic(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @k( {\n")
    assert tmem_run(str(bad)) == 1
    _, err = capsys.readouterr()
    assert "bad.mlir:1:" in err and "error:" in err


def test_verify_diagnostics_mode(tmp_path, capsys) -> None:
    text = (EXAMPLES / "tmem_roundtrip.mlir").read_text()
    f = tmp_path / "k.mlir"
    f.write_text(text)
    assert tmem_run(str(f), "--arg", "i32:128", "--verify-diagnostics") == 1  # nothing expected
    _, err = capsys.readouterr()
    assert "unexpected error" in err


def test_parse_arg_forms() -> None:
    assert parse_arg("f32:4=iota").tolist() == [0.0, 1.0, 2.0, 3.0]
    assert parse_arg("i32:3=7").tolist() == [7, 7, 7]
    assert parse_arg("i16:2").dtype == np.int16
    assert parse_arg("i64=5") == 5 and parse_arg("i64=5").dtype == np.int64
    assert parse_arg("i32:2=0x10").tolist() == [16, 16]


def test_non_utf8_input_is_a_one_line_error(tmp_path, capsys) -> None:
    bad = tmp_path / "bin.mlir"
    bad.write_bytes(b"\xc3\x28garbage")
    assert tmem_run(str(bad)) == 1
    _, err = capsys.readouterr()
    assert f"{bad}:1:1: error: invalid UTF-8 byte 0xc3 (the input must be UTF-8 text)" in err


@pytest.mark.parametrize("value", ["0", "-5"])
def test_max_ops_must_be_positive(value, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        TmemRun([str(EXAMPLES / "nvvm_roundtrip.mlir"), "--max-ops", value])
    assert e.value.code == 2
    assert f"must be at least 1, got {value}" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args", [["missing.mlir"], ["EXAMPLE", "--arg", "i8:4=300"], ["EXAMPLE", "--ptx-version", "x"]]
)
def test_json_errors_before_the_run_are_still_json(args, capsys) -> None:
    args = [str(EXAMPLES / "nvvm_roundtrip.mlir") if a == "EXAMPLE" else a for a in args]
    assert tmem_run(*args, "--json") == 1
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["args"] == [] and len(data["errors"]) == 1
    assert data["errors"][0]["message"] in err


def test_json_is_strict_with_nan_and_infinity(capsys) -> None:
    path = str(EXAMPLES / "nvvm_roundtrip.mlir")

    def reject(constant):
        raise ValueError(constant)

    for value in ("inf", "nan"):
        tmem_run(path, "--arg", f"f32:2={value}", "--json")
        out, _ = capsys.readouterr()
        data = json.loads(out, parse_constant=reject)  # NaN/Infinity are not JSON
        assert data["args"] == [[value, value]]


def test_tensor_maps_that_own_their_tensors_run_cutes_tma_gemm(capsys) -> None:
    """CuTe passes its TMA tensors only through byval tensor maps: `fill=` gives a map a tensor of
    its own. A (128x64) and B (64x64) all ones: C = A @ B^T is 64 everywhere."""
    corpus = Path(__file__).parent / "corpus" / "cute" / "gemm_tma_umma.ptx"
    flags = ["--arg", "i16=0"] * 3 + ["--arg", "i32=0"] * 4  # the TiledMma's fields: no negate, no masks
    maps = ["--arg", "tensormap:fill=1,type=f16,dims=64x128,box=64x128,swizzle=128B",
            "--arg", "tensormap:fill=1,type=f16,dims=64x64,box=64x64,swizzle=128B"]
    code = tmem_run(str(corpus), "--threads", "128", "--dynamic-smem", "65536", *flags, *maps,
                    "--arg", "f32:8192", "--json")
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["errors"] == []
    assert data["args"][-1] == [64.0] * 8192
