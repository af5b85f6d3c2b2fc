"""tmem-opt as users run it: bad input gives a located diagnostic and a non-zero exit, never a traceback or a partial output file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tmem_dialect.tools import opt

GOOD = """\
func.func @k(%a: i32) {
  %r = tcgen05.ld %a shape_16x64b x2 : vector<2xi32>
  tcgen05.wait load
  func.return
}
"""


def tmem_opt() -> list[str]:
    exe = shutil.which("tmem-opt") or str(Path(sys.executable).parent / "tmem-opt")
    if not Path(exe).exists():
        return [sys.executable, "-m", "tmem_dialect.tools.opt"]
    return [exe]


def run(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TMEM_TRACEBACK"}
    return subprocess.run(
        [*tmem_opt(), *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=env
    )


def assert_clean_failure(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "Traceback" not in result.stdout
    assert "error" in result.stderr


# Each case: (what is wrong, file text, text expected on stderr).
BAD_INPUTS = [
    ("parse error", "func.func @k() {\n  func.return\n", "<FILE>:3:1: error: "),
    ("unknown op", "func.func @k() {\n  tcgen05.bogus\n  func.return\n}\n", "<FILE>:2:3: error: unregistered operation 'tcgen05.bogus'"),
    ("unknown dialect", '"foo.bar"() : () -> ()\n', "<FILE>:1:1: error: unregistered operation 'foo.bar'"),
    ("unknown attribute", '"test.op"() {a = #tcgen05.nope<1>} : () -> ()\n', "<FILE>:1:"),
    ("unknown type", '"test.op"() : () -> !tcgen05.nope<1>\n', "<FILE>:1:"),
    (
        "unknown property",
        'func.func @k(%a: i32) {\n  "tcgen05.wait"() <{kind = #tcgen05<wait_kind load>, extra = 1}> : () -> ()\n  func.return\n}\n',
        "property 'extra' is not defined by the operation 'tcgen05.wait'",
    ),
    (
        "missing property",
        'func.func @k() {\n  "tcgen05.wait"() : () -> ()\n  func.return\n}\n',
        "property 'kind' expected in operation 'tcgen05.wait'",
    ),
    ("bad enum", "func.func @k() {\n  tcgen05.fence now\n  func.return\n}\n", "<FILE>:2:17: error: Expected `before_thread_sync`"),
    ("verifier", "func.func @k(%a: i32) {\n  tcgen05.dealloc %a, 100\n  func.return\n}\n", "<FILE>:2:3: error: nCols must be a power of 2"),
    (
        "bad layout",
        "func.func @k(%a: i32) {\n  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<4x4xf32, S[(4, 4) : (1@TLane, 1@TLane)]>\n  func.return\n}\n",
        "the shard is not injective",
    ),
    (
        "huge layout",
        '"test.op"() {l = #tcgen05.layout<S[123456789012345678901234567890 : 1@TCol]>} : () -> ()\n',
        "out of range",
    ),
    ("huge integer", "func.func @k(%s: !llvm.ptr<3>) {\n  tcgen05.alloc %s, 99999999999999 : !llvm.ptr<3>\n  func.return\n}\n", "out of range for type i32"),
    ("wrong type", "func.func @k(%a: i32) {\n  %r = tcgen05.ld %a shape_32x32b x1 : f32\n  func.return\n}\n", "<FILE>:2:3: error: 'tcgen05.ld' op"),
    ("undefined value", "func.func @k() {\n  tcgen05.dealloc %nope, 32\n  func.return\n}\n", "<FILE>:2:3: error: use of undefined value '%nope'"),
    ("unclosed region", "func.func @k() {\n  func.return\n", "<FILE>:3:1: error: expected an operation, a block label (^bb) or '}'"),
    # An empty input is an empty module, as in mlir-opt (tests/filecheck/dialects/parse_empty_inputs.mlir).
    ("stray character", "`\n", "<FILE>:1:1: error: Unexpected character"),
    (
        "integer literal of more than 4300 digits",
        "func.func @k() {\n  %a = arith.constant " + "9" * 5000 + " : i32\n  func.return\n}\n",
        "<FILE>:2:23: error: integer literal too long (5000 digits",
    ),
    ("named location", 'func.func @k(%a: i32) {\n  tcgen05.dealloc %a, 48 loc("n"("src.py":4:2))\n  func.return\n}\n', "src.py:4:2: error: nCols"),
]


@pytest.mark.parametrize(("what", "text", "expected"), BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_bad_input_is_a_located_diagnostic(what: str, text: str, expected: str, tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(text)
    result = run(str(src))
    assert_clean_failure(result)
    assert expected.replace("<FILE>", str(src)) in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("what", "text", "expected"), BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_errors_leave_no_output_file(what: str, text: str, expected: str, tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(text)
    out = tmp_path / "out.mlir"
    assert_clean_failure(run(str(src), "-o", str(out)))
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir"]  # no temporary left either


def test_an_error_does_not_clobber_an_existing_output_file(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(BAD_INPUTS[0][1])
    out = tmp_path / "out.mlir"
    out.write_text("previous result\n")
    assert_clean_failure(run(str(src), "-o", str(out)))
    assert out.read_text() == "previous result\n"


def test_split_input_file_error_in_one_chunk_writes_no_file(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(GOOD + "// -----\n" + BAD_INPUTS[8][1])
    out = tmp_path / "out.mlir"
    result = run(str(src), "--split-input-file", "-o", str(out))
    assert_clean_failure(result)
    assert f"{src}:8:3: error: nCols" in result.stderr
    assert not out.exists()


def test_success_writes_the_output_file(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    out = tmp_path / "out.mlir"
    result = run(str(src), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""
    assert "tcgen05.ld %a shape_16x64b x2 : vector<2xi32>" in out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "out.mlir"]
    # The written file is itself valid input.
    assert run(str(out)).returncode == 0


def test_stdin_is_read_when_no_file_is_given() -> None:
    result = run(stdin=GOOD)
    assert result.returncode == 0, result.stderr
    assert "tcgen05.wait load" in result.stdout
    bad = run(stdin=BAD_INPUTS[8][1])
    assert_clean_failure(bad)
    assert "<stdin>:2:3: error: nCols" in bad.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["does-not-exist.mlir"], "could not open input file 'does-not-exist.mlir'"),
        (["."], "could not open input file '.'"),
        (["-p", "no-such-pass", "<GOOD>"], "no-such-pass"),
        (["-p", "canonicalize{nope=1}", "<GOOD>"], "nope"),
        (["<GOOD>", "-o", "/nonexistent-dir/out.mlir"], "could not write output file '/nonexistent-dir/out.mlir'"),
        (["<GOOD>", "--no-implicit-module"], "builtin.module operation expected"),
    ],
)
def test_bad_invocations(args: list[str], expected: str, tmp_path: Path) -> None:
    good = tmp_path / "good.mlir"
    good.write_text(GOOD)
    result = run(*[str(good) if a == "<GOOD>" else a for a in args], cwd=tmp_path)
    assert_clean_failure(result)
    assert expected in result.stderr


def test_unknown_flag_is_a_usage_error(tmp_path: Path) -> None:
    result = run("--no-such-flag")
    assert result.returncode == 2
    assert "usage: tmem-opt" in result.stderr and "Traceback" not in result.stderr


def test_non_utf8_input(tmp_path: Path) -> None:
    src = tmp_path / "bin.mlir"
    src.write_bytes(b"func.func @k() {\n\xff\xfe\n}\n")
    result = run(str(src))
    assert_clean_failure(result)
    assert f"{src}:2:1: error: invalid UTF-8 byte 0xff (the input must be UTF-8 text)" in result.stderr


def test_verify_diagnostics_exit_codes(tmp_path: Path) -> None:
    src = tmp_path / "v.mlir"
    src.write_text(
        "func.func @k(%a: i32) {\n  // expected-error@+1 {{got 100}}\n  tcgen05.dealloc %a, 100\n  func.return\n}\n"
    )
    assert run(str(src), "--verify-diagnostics").returncode == 0
    src.write_text(src.read_text().replace("got 100", "got 101"))
    result = run(str(src), "--verify-diagnostics")
    assert_clean_failure(result)
    assert 'expected error "got 101" was not produced' in result.stderr
    assert "unexpected error: nCols must be a power of 2 in [32, 512], got 100" in result.stderr


def test_print_op_generic_round_trip(tmp_path: Path) -> None:
    generic = run(stdin=GOOD, *["--print-op-generic"])
    assert generic.returncode == 0
    assert '"tcgen05.ld"(%a) <{shape = #tcgen05<shape shape_16x64b>, num = #tcgen05<num x2>}>' in generic.stdout
    back = run(stdin=generic.stdout)
    assert back.returncode == 0
    assert back.stdout == run(stdin=GOOD).stdout


def test_internal_errors_are_one_line_without_traceback(capsys, monkeypatch) -> None:
    monkeypatch.delenv("TMEM_TRACEBACK", raising=False)

    def explode(_args):
        raise RuntimeError("something nobody anticipated")

    assert opt.run_tool(explode, "tmem-opt", []) == 2
    err = capsys.readouterr().err
    assert err.startswith("tmem-opt: internal error: RuntimeError: something nobody anticipated")
    assert "Traceback" not in err
    # The escape hatch for developers prints it.
    monkeypatch.setenv("TMEM_TRACEBACK", "1")
    assert opt.run_tool(explode, "tmem-opt", []) == 2
    assert "Traceback" in capsys.readouterr().err


DOCS = Path(__file__).parent.parent / "docs" / "dialect.md"


def doc_examples() -> list[str]:
    import re

    return re.findall(r"```mlir\n(.*?)```", DOCS.read_text(), re.S) if DOCS.exists() else []


@pytest.mark.parametrize("example", doc_examples(), ids=lambda text: text.split("\n")[0][:40])
def test_every_example_of_the_dialect_reference_is_accepted(example: str) -> None:
    result = run(stdin=example)
    assert result.returncode == 0, result.stderr
    # And it round-trips: what tmem-opt prints it reads back to the same text.
    assert run(stdin=result.stdout).stdout == result.stdout


def test_the_dialect_reference_has_examples() -> None:
    assert len(doc_examples()) >= 5


def test_an_unterminated_string_is_a_diagnostic_not_a_hang(tmp_path: Path) -> None:
    """xDSL's own string pattern backtracks exponentially here; ours is linear."""
    src = tmp_path / "s.mlir"
    src.write_text('func.func @k() {\n  %r4"= tcgen05.ld %a shape_16x64b x4 : vector<4xi32> and then some more words\n}\n')
    # The timeout only turns a regression (a hang) into a failure; it measures nothing.
    result = subprocess.run([*tmem_opt(), str(src)], capture_output=True, text=True, timeout=300)
    assert_clean_failure(result)
    assert f"{src}:2:6: error: End of file reached before closing string literal." in result.stderr


@pytest.mark.parametrize("args", [["-p", "tmem-verify{"], ["-p", ",,"], ["-t", "ptx{"], ["-p", "tmem-verify{a=1"]])
def test_a_malformed_pipeline_or_target_spec_is_an_error_not_a_traceback(args: list[str], tmp_path: Path) -> None:
    good = tmp_path / "good.mlir"
    good.write_text(GOOD)
    result = run(str(good), *args)
    assert_clean_failure(result)
    assert result.returncode == 1
    assert "tmem-opt: error: malformed pass pipeline or target specification" in result.stderr


def test_non_utf8_stdin() -> None:
    result = subprocess.run([*tmem_opt(), "-"], input=b"\xc3\x28 junk\n", capture_output=True)
    assert result.returncode == 1
    assert b"<stdin>:1:1: error: invalid UTF-8 byte 0xc3 (the input must be UTF-8 text)" in result.stderr
    assert b"Traceback" not in result.stderr


def test_output_through_a_symlink_writes_its_target(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    real = tmp_path / "real.mlir"
    link = tmp_path / "link.mlir"
    link.symlink_to(real)
    assert run(str(src), "-o", str(link)).returncode == 0
    assert link.is_symlink() and "tcgen05.wait load" in real.read_text()


def test_output_to_a_fifo_is_written_in_place_not_replaced(tmp_path: Path) -> None:
    """-o /dev/null once replaced the device node with a regular file (rename over it)."""
    import threading

    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    result = run(str(src), "-o", str(fifo))
    reader.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert "tcgen05.wait load" in received[0]
    import stat

    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


EXAMPLES = Path(__file__).parent.parent / "examples"


def _fake_ptxas(tmp_path: Path, body: bytes | str, executable: bool = True) -> str:
    script = tmp_path / "fake-ptxas"
    script.write_bytes(body if isinstance(body, bytes) else body.encode())
    if executable:
        script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("#!/bin/sh\nexit 139\n", "ptxas failed: '<EXE>' exited with status 139 and printed nothing"),
        ("#!/bin/sh\nkill -SEGV $$\n", "was killed by SIGSEGV and printed nothing"),
        (b"\x7fELF not really", "--ptxas-check: could not run ptxas '<EXE>': Exec format error"),
        ("#!/nonexistent/interpreter\n", "--ptxas-check: could not run ptxas '<EXE>'"),
        (b"#!/bin/sh\nprintf 'ptxas fatal   : \\377\\376 broken\\n' >&2; exit 1\n", "error: --ptxas-check: ptxas: \ufffd\ufffd broken"),
    ],
    ids=["exit-status", "signal", "exec-format", "bad-interpreter", "non-utf8-output"],
)
def test_a_broken_ptxas_is_reported_as_such(body, expected: str, tmp_path: Path) -> None:
    exe = _fake_ptxas(tmp_path, body)
    out = tmp_path / "out.ptx"
    env = {k: v for k, v in os.environ.items() if k != "TMEM_TRACEBACK"} | {"PTXAS": exe}
    result = subprocess.run(
        [*tmem_opt(), str(EXAMPLES / "nvvm_roundtrip.mlir"), "-t", "ptx", "--ptxas-check", "-o", str(out)],
        capture_output=True, text=True, env=env,
    )
    assert_clean_failure(result)
    assert result.returncode == 1
    assert expected.replace("<EXE>", exe) in result.stderr
    assert "could not write output file" not in result.stderr
    assert not out.exists()


def test_ptxas_override_that_does_not_exist_is_named(tmp_path: Path) -> None:
    env = dict(os.environ, PTXAS=str(tmp_path / "no-ptxas"))
    result = subprocess.run(
        [*tmem_opt(), str(EXAMPLES / "nvvm_roundtrip.mlir"), "-t", "ptx", "--ptxas-check"],
        capture_output=True, text=True, env=env,
    )
    assert_clean_failure(result)
    assert f"$PTXAS is '{tmp_path / 'no-ptxas'}', which is not an executable file" in result.stderr


def test_a_bad_ptx_target_configuration_is_reported_once(tmp_path: Path) -> None:
    nvvm = (EXAMPLES / "nvvm_roundtrip.mlir").read_text()
    src = tmp_path / "two.mlir"
    src.write_text(nvvm + "// -----\n" + nvvm)
    out = tmp_path / "out.ptx"
    for args, message in [
        (["--ptx-arch", "sm_90"], "tmem-opt: error: -t ptx: target sm_90 has no tcgen05 instructions"),
        (["--ptx-version", "7.0"], "tmem-opt: error: -t ptx: target sm_100a needs PTX ISA 8.6 or later, got 7.0"),
    ]:
        result = run(str(src), "--split-input-file", "-t", "ptx", *args, "-o", str(out))
        assert_clean_failure(result)
        assert result.stderr.count(message) == 1, result.stderr
        assert not out.exists()


def test_ptx_options_without_the_ptx_target_warn(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    result = run(str(src), "--ptxas-check")
    assert result.returncode == 0
    assert "tmem-opt: warning: --ptxas-check has no effect without -t ptx" in result.stderr


def test_an_unregistered_op_is_named_by_its_own_name_when_lowering(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text('llvm.func @k() attributes {nvvm.kernel} {\n  "foo.bar"() : () -> ()\n  llvm.return\n}\n')
    result = run(str(src), "--allow-unregistered-dialect", "-t", "ptx")
    assert_clean_failure(result)
    assert f"{src}:2:3: error: 'foo.bar' is outside the tcgen05-level op set" in result.stderr
    assert "builtin.unregistered" not in result.stderr
