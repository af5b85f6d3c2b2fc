"""The PTX front end imports block-scaled tcgen05.mma (.block_scale, .scale_vec::NX / .blockN, [scale-A], [scale-B]): import, verify, -t ptx, ptxas, and the same numbers.

The PTX is what `tmem-opt -p tmem-pipeline -t ptx` emits for the block-scaled examples (ptxas
accepts it), and its .blockN respelling (PTX ISA 9.7.16.10.7.1: .block32 is an alias of
.scale_vec::1X / 2X by kind, .block16 of .scale_vec::4X). The pair tile's numbers are also
checked against the numpy reference of tests/test_block_scaled_pair.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_block_scaled_pair import operands, pack_scale_tiles, reference

from tmem_dialect.diagnostics import DiagnosticError, capture
from tmem_dialect.frontend import import_ptx
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import verify_diagnostics
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas

ROOT = Path(__file__).parent.parent
PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")


def emitted(example: str, *flags: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "tmem_dialect.tools.opt", str(ROOT / "examples" / f"{example}.mlir"),
                           "-p", "tmem-pipeline", "-t", "ptx", *flags], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def pair_args():
    a, b, sfa, sfb = operands(0)
    return (a, b, sfa, sfb), [a.reshape(-1).view(np.int32), b.reshape(-1).view(np.int32), pack_scale_tiles(sfa),
                              pack_scale_tiles(sfb), np.zeros(256 * 256, np.float32)]


def single_args():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 0x7E7E7E7E, 4096).astype(np.int32)  # e4m3 codes, none 0x7F / 0xFF
    b = rng.integers(0, 0x7E7E7E7E, 8192).astype(np.int32)
    return [a, b, np.full(128, 0x7F7E7F80, np.int32), np.full(256, 0x807F7E7F, np.uint32).view(np.int32),
            np.zeros(32768, np.float32)]


def _import(ptx: str, name: str):
    module = import_ptx(ptx, name)
    assert verify_diagnostics(module) == []
    return module


def _run(module, name: str, args):
    res = run_kernel(module, kernel=name, args=args)
    assert res.errors == [], res.render()
    return res


@needs_ptxas
@pytest.mark.parametrize("spelling", ["scale_vec", "block"])
def test_the_pair_tile_imports_and_runs_to_numpys_numbers(spelling):
    ptx = emitted("gemm_mxf8f6f4_pair_tile")
    assert ".block_scale.scale_vec::1X" in ptx
    if spelling == "block":
        ptx = ptx.replace(".scale_vec::1X", ".block32").replace(".version 8.6", ".version 8.8")
        assert run_ptxas(ptx, "sm_100a", PTXAS).ok
    module = _import(ptx, "pair.ptx")
    again = emit_ptx(module).text
    result = run_ptxas(again, "sm_100a", PTXAS)
    assert result.ok, result.output
    (a, b, sfa, sfb), args = pair_args()
    res = _run(module, "gemm_mxf8f6f4_pair_tile", args)
    np.testing.assert_array_equal(res.args[4].reshape(256, 256), reference(a, b, sfa, sfb))
    _, args = pair_args()
    res2 = _run(_import(again, "pair.again.ptx"), "gemm_mxf8f6f4_pair_tile", args)
    assert res2.args[4].tobytes() == res.args[4].tobytes()


@needs_ptxas
@pytest.mark.parametrize("example,flags,mnemonic,alias", [
    ("gemm_mxf8f6f4_tile", (), ".kind::mxf8f6f4.block_scale.scale_vec::1X", ".block32"),
    ("gemm_mxf4nvf4_tile", ("--ptx-version", "8.7"), ".kind::mxf4nvf4.block_scale.scale_vec::4X", ".block16"),
])
def test_the_cta_group_1_tiles_round_trip(example, flags, mnemonic, alias):
    """Import -> -t ptx -> ptxas; the imported PTX, its re-emission and its .blockN respelling compute
    what the MLIR source computes, bit for bit."""
    ptx = emitted(example, *flags)
    assert mnemonic in ptx
    if example == "gemm_mxf8f6f4_tile":
        make = single_args
    else:
        rng = np.random.default_rng(2)

        def make():  # e2m1 codes: any nibble; ue4m3 scales 1, 0.5, 1, 2
            return [rng.integers(0, 0x7FFFFFFF, 4096).astype(np.int32),
                    rng.integers(0, 0x7FFFFFFF, 8192).astype(np.int32),
                    np.full(512, 0x40383038, np.int32), np.full(1024, 0x38403830, np.int32),
                    np.zeros(32768, np.float32)]  # fmt: skip
    args = make()
    source = run_kernel((ROOT / "examples" / f"{example}.mlir").read_text(), kernel=example,
                        args=[np.array(x, copy=True) for x in args])
    aliased = ptx.replace(mnemonic, mnemonic.replace(mnemonic.rsplit(".", 1)[1], alias[1:]))
    aliased = aliased.replace(".version 8.6", ".version 8.8").replace(".version 8.7", ".version 8.8")
    assert alias in aliased and run_ptxas(aliased, "sm_100a", PTXAS).ok
    for text in (ptx, aliased):
        module = _import(text, f"{example}.ptx")
        again = emit_ptx(module, version=(8, 7)).text
        result = run_ptxas(again, "sm_100a", PTXAS)
        assert result.ok, result.output
        for m in (module, _import(again, f"{example}.again.ptx")):
            res = _run(m, example, [np.array(x, copy=True) for x in args])
            assert res.args[4].tobytes() == source.args[4].tobytes()


def _mma_kernel(line: str, version: str = "8.6") -> str:
    return (f".version {version}\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{{\n"
            "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<2>;\n\tmov.u32 %r1, 0;\n"
            "\tmov.u64 %rd1, 0;\n\tsetp.ne.u32 %p1, %r1, 0;\n" + line + "\tret;\n}\n")


@pytest.mark.parametrize("line, message", [
    ("\ttcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%r1], %rd1, %rd1, %r1, %r2, [%r3], %p1;\n",
     "the scale-A operand is a TMEM address"),
    (("\ttcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%r1], %rd1, %rd1, %r1, [%r2], [%r3], "
     "{%r4, %r4, %r4, %r4}, %p1;\n"), "takes no disable-output-lane mask"),
    ("\ttcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%r1], %rd1, %rd1, %r1, [%r2], %p1;\n", "takes 7 operands"),
])
def test_malformed_block_scaled_mma_is_a_located_error(line, message):
    with capture(), pytest.raises(DiagnosticError) as e:
        import_ptx(_mma_kernel(line), "bad.ptx")
    assert any(message in d.message and d.location is not None for d in e.value.diagnostics), e.value.diagnostics


@needs_ptxas
def test_the_sparse_block_scaled_form_imports_and_re_emits():
    line = ("\ttcgen05.mma.sp.cta_group::2.kind::mxf4.block_scale.block32 [%r1], %rd1, %rd1, [%r2], %r3, [%r4], "
            "[%r5], %p1;\n")
    ptx = _mma_kernel(line, "8.8")
    assert run_ptxas(ptx, "sm_100a", PTXAS).ok
    module = _import(ptx, "sp.ptx")
    again = emit_ptx(module, version=(8, 8)).text
    assert "tcgen05.mma.sp.cta_group::2.kind::mxf4.block_scale.scale_vec::2X" in again
    result = run_ptxas(again, "sm_100a", PTXAS)
    assert result.ok, result.output
