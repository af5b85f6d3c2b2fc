"""The xdsl.universe entry point: plain xdsl-opt knows our dialects, passes and targets."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from xdsl.universe import Universe

from tmem_dialect.dialects import project_dialects
from tmem_dialect.tools.registry import project_passes, project_targets

KERNEL = Path(__file__).parent.parent / "examples" / "tmem_roundtrip.mlir"

TILES = """\
func.func @k(%a: i32, %v: vector<4xi32>) {
  %b = tcgen05.decl_buffer %a : !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]>
  %t = tcgen05.tile_load %b [0, 8] [128, 8] : !tcgen05.tmem<128x64xf32, S[(128, 64) : (1@TLane, 1@TCol)]> -> vector<8xf32>
  tcgen05.st %v, %a, offset 16 shape_16x32bx2 x4 unpack : vector<4xi32>
  func.return
}
"""


def xdsl_opt() -> str:
    exe = shutil.which("xdsl-opt") or str(Path(sys.executable).parent / "xdsl-opt")
    assert Path(exe).exists(), "xdsl is a runtime dependency: its xdsl-opt must be installed"
    return exe


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([xdsl_opt(), *args], input=stdin, capture_output=True, text=True)


def test_entry_point_is_installed() -> None:
    found = [ep for ep in entry_points(group="xdsl.universe") if ep.name == "tmem_dialect"]
    assert found, "pip install -e . registers the xdsl.universe entry point"
    universe = found[0].load()
    assert isinstance(universe, Universe)
    assert set(universe.all_dialects) == set(project_dialects())
    assert set(universe.all_passes) == set(project_passes())
    assert set(universe.all_targets) == set(project_targets())


def test_multiverse_contains_our_dialects_and_passes() -> None:
    multiverse = Universe.get_multiverse()
    for name in ("tcgen05", "nvvm"):
        assert multiverse.all_dialects[name]().name == name
    for name in project_passes():
        assert name in multiverse.all_passes


def test_xdsl_opt_parses_and_prints_a_tcgen05_kernel() -> None:
    first = run(str(KERNEL))
    assert first.returncode == 0, first.stderr
    assert "tcgen05.alloc %slot, 32 : !llvm.ptr<3>" in first.stdout
    assert "tcgen05.st %value, %taddr shape_32x32b x1 : vector<1xi32>" in first.stdout
    assert "attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>}" in first.stdout
    # What xdsl-opt prints it reads back unchanged.
    second = run(stdin=first.stdout)
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout


def test_xdsl_opt_handles_buffers_tiles_and_the_generic_form() -> None:
    custom = run(stdin=TILES)
    assert custom.returncode == 0, custom.stderr
    assert "tcgen05.tile_load %b [0, 8] [128, 8]" in custom.stdout
    assert "offset 16 shape_16x32bx2 x4 unpack" in custom.stdout
    generic = run("--print-op-generic", stdin=TILES)
    assert generic.returncode == 0, generic.stderr
    assert '"tcgen05.decl_buffer"(%a)' in generic.stdout
    back = run(stdin=generic.stdout)
    assert back.returncode == 0, back.stderr
    assert back.stdout == custom.stdout


def test_xdsl_opt_runs_our_verifiers() -> None:
    result = run(stdin="func.func @k(%a: i32) {\n  tcgen05.dealloc %a, 48\n  func.return\n}\n")
    assert result.returncode != 0
    assert "nCols must be a power of 2 in [32, 512], got 48" in result.stderr + result.stdout


@pytest.mark.parametrize("pass_name", sorted(project_passes()))
def test_xdsl_opt_recognizes_our_passes(pass_name: str) -> None:
    result = run("-p", pass_name, str(KERNEL))
    assert "Unrecognized passes" not in result.stderr, result.stderr
    assert run("-p", "no-such-pass-anywhere", str(KERNEL)).returncode != 0


EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.mlir"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.stem for e in EXAMPLES])
def test_plain_xdsl_opt_handles_every_example(example: Path) -> None:
    """Issue 14: xdsl-opt examples/nvvm_roundtrip.mlir printed a traceback (no llvm.mlir.poison)."""
    printed = run(str(example))
    assert printed.returncode == 0, printed.stderr
    assert "Traceback" not in printed.stderr
    back = subprocess.run([sys.executable, "-m", "tmem_dialect.tools.opt", "-"], input=printed.stdout,
                          capture_output=True, text=True)
    assert back.returncode == 0, back.stderr


def test_xdsl_llvm_dialect_is_not_shadowed() -> None:
    """Other users of xdsl-opt keep xDSL's own llvm dialect; our additions ride with nvvm."""
    from xdsl.dialects import llvm

    multiverse = Universe.get_multiverse()
    assert multiverse.all_dialects["llvm"]() is llvm.LLVM
    nvvm = multiverse.all_dialects["nvvm"]()
    assert {op.name for op in nvvm.operations} >= {"llvm.mlir.poison", "llvm.extractelement"}
    assert not {op.name for op in nvvm.operations} & {op.name for op in llvm.LLVM.operations}
