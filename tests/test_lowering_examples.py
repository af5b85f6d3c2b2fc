"""Every shipped example through convert-tcgen05-to-nvvm (after the passes it needs) and -t ptx.

Checks, whenever the oracles are present: iree-opt parses and verifies the NVVM output unchanged,
ptxas -arch=sm_100a assembles the PTX, both outputs are deterministic, the lowered kernel computes
what the original does (the interpreter's translation validation), and the PTX of the upstream
round-trip kernel has the structure of the known-good tests/data/tmem_roundtrip_sm100a.ptx (the
team's hand-written kernel).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.printer import Printer

from tmem_dialect import isa
from tmem_dialect.interpreter import TensorMap, validation
from tmem_dialect.dialects import make_context
from tmem_dialect.dialects.nvvm_mma import _MmaBase
from tmem_dialect.ir import parse_module, verify_diagnostics
from tmem_dialect.lowering.ptx_emitter import emit_ptx as emit_ptx_at
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas
from tmem_dialect.tools.registry import project_passes

from example_sources import planned

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
# The PTX lit tests' inputs written at the NVVM level (tcgen05_level_input is the tcgen05 level).
PTX_INPUTS = sorted(
    p for p in (ROOT / "tests" / "filecheck" / "ptx").glob("*.mlir") if "tcgen05.kernel" not in p.read_text()
)
KNOWN_GOOD_PTX = ROOT / "tests" / "data" / "tmem_roundtrip_sm100a.ptx"
IREE_OPT = shutil.which("iree-opt")
PTXAS = find_ptxas()
LOWERING = "convert-tcgen05-to-nvvm"
# What every example needs: lanes, waits and verification (NVVM-level kernels are checked, not
# rewritten), then the lowering.
PIPELINE = f"tmem-pipeline,{LOWERING}"
# Examples whose protocol tmem-verify cannot prove yet take the pipeline without it (what it lacks,
# and its findings on them, are in the example's own test, an xfail naming the missing rules).
UNPROVEN: dict[str, str] = {}  # none today: the pair rings are proven (its remote arrives too)


def pipeline(example: Path, lowering: bool = True) -> str:
    if example.stem not in UNPROVEN:
        return PIPELINE if lowering else "tmem-pipeline"
    return f"{UNPROVEN[example.stem]},{LOWERING}" if lowering else UNPROVEN[example.stem]

# Arguments each example kernel runs on in the interpreter.
EXAMPLE_ARGS = {
    "tmem_roundtrip": lambda: [np.zeros(128, np.int32)],
    "nvvm_roundtrip": lambda: [np.zeros(128, np.int32)],
    "chunked_epilogue": lambda: [np.zeros(4096, np.int32)],
    "accumulator_readout": lambda: [np.arange(32768, dtype=np.float32), np.zeros(32768, np.float32)],
    "m64_f16": lambda: [np.arange(4096).astype(np.float16), np.zeros(4096, np.float16)],
    "warp_specialized_gemm": lambda: [
        TensorMap(buffer=2, dtype="f16", dims=(64, 128), box=(64, 128), swizzle="128B"),
        TensorMap(buffer=3, dtype="f16", dims=(64, 256), box=(64, 32), swizzle="128B"),
        (np.arange(8192) % 7 - 3).astype(np.float16),
        (np.arange(16384) % 5 - 2).astype(np.float16),
        np.zeros(32768, np.float32),
    ],
    "gemm_pair_tile": lambda: [
        (np.arange(16384) % 7 - 3).astype(np.float16),
        (np.arange(16384) % 5 - 2).astype(np.float16),
        np.zeros(65536, np.float32),
    ],
    "warp_specialized_gemm_pair": lambda: [
        TensorMap(buffer=2, dtype="f16", dims=(64, 256), box=(64, 128), swizzle="128B"),
        TensorMap(buffer=3, dtype="f16", dims=(64, 128), box=(64, 16), swizzle="128B"),
        (np.arange(16384) % 7 - 3).astype(np.float16),
        (np.arange(8192) % 5 - 2).astype(np.float16),
        np.zeros(32768, np.float32),
    ],
    "gemm_f16_tile": lambda: [
        (np.arange(8192) % 7 - 3).astype(np.float16),
        (np.arange(16384) % 5 - 2).astype(np.float16),
        np.zeros(32768, np.float32),
    ],
    "tmem_shift": lambda: [np.zeros(2048, np.int32)],
    "gemm_mxf8f6f4_tile": lambda: [
        (np.arange(4096) * 0x01030507 % 0x7E7E7E7E).astype(np.int32),  # e4m3 codes, none 0x7F
        (np.arange(8192) * 0x02040608 % 0x7E7E7E7E).astype(np.int32),
        np.full(128, 0x7F7E7F80, np.int32),  # ue8m0 scales 2^1, 2^0, 2^-1, 2^0
        np.full(256, 0x807F7E7F, np.uint32).view(np.int32),
        np.zeros(32768, np.float32),
    ],
    "gemm_mxf8f6f4_pair_tile": lambda: [
        (np.arange(8192) * 0x01030507 % 0x7E7E7E7E).astype(np.int32),  # e4m3 codes, none 0x7F
        (np.arange(8192) * 0x02040608 % 0x7E7E7E7E).astype(np.int32),
        np.full(256, 0x7F7E7F80, np.int32),  # ue8m0 scales 2^1, 2^0, 2^-1, 2^0
        np.full(256, 0x807F7E7F, np.uint32).view(np.int32),
        np.zeros(65536, np.float32),
    ],
    "gemm_mxf4nvf4_tile": lambda: [
        (np.arange(4096) * 0x01234567 % 0x7FFFFFFF).astype(np.int32),  # e2m1 codes, any nibble
        (np.arange(8192) * 0x07654321 % 0x7FFFFFFF).astype(np.int32),
        np.full(512, 0x40383038, np.int32),  # ue4m3 scales 1, 0.5, 1, 2
        np.full(1024, 0x38403830, np.int32),
        np.zeros(32768, np.float32),
    ],
}


def emit_ptx(module: ModuleOp):
    """The PTX of `module` at the default PTX ISA version, or the newer one its mma kinds need
    (isa.Kind.min_ptx_version: kind::mxf4nvf4 is 8.7)."""
    need = [op.isa_kind.min_ptx_version for op in module.walk() if isinstance(op, _MmaBase)]
    return emit_ptx_at(module, max([isa.DEFAULT_PTX_VERSION, *need]))


def run_pipeline(text: str, spec: str, name: str = "<example>") -> ModuleOp:
    module = parse_module(make_context(), text, name)
    PassPipeline.parse_spec(project_passes(), spec).apply(make_context(), module)
    assert not verify_diagnostics(module), f"{spec} produced IR that does not verify"
    return module


def mlir_text(module: ModuleOp) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue() + "\n"


@pytest.fixture(params=EXAMPLES, ids=[p.stem for p in EXAMPLES])
def example(request: pytest.FixtureRequest) -> Path:
    return request.param


def test_examples_exist() -> None:
    assert {p.stem for p in EXAMPLES} >= set(EXAMPLE_ARGS)


def test_lowering_is_llvm_and_nvvm_only(example: Path) -> None:
    text = example.read_text()
    module = run_pipeline(text, pipeline(example), str(example))
    names = {op.name for op in module.walk() if op is not module}
    assert names and all(n.startswith(("llvm.", "nvvm.")) for n in names), sorted(names)
    kernels = [op for op in module.walk() if op.name == "llvm.func" and "nvvm.kernel" in op.attributes]
    assert kernels and all("nvvm.reqntid" in k.attributes for k in kernels)


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt not found (pip install iree-base-compiler==3.13.0)")
def test_iree_opt_accepts_the_nvvm_output(example: Path) -> None:
    text = example.read_text()
    lowered = mlir_text(run_pipeline(text, pipeline(example), str(example)))
    proc = subprocess.run([IREE_OPT, "-"], input=lowered, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    generic = subprocess.run([IREE_OPT, "--mlir-print-op-generic", "-"], input=lowered, capture_output=True, text=True)
    assert generic.returncode == 0, generic.stderr


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")
def test_ptxas_accepts_the_ptx(example: Path) -> None:
    text = example.read_text()
    ptx = emit_ptx(run_pipeline(text, pipeline(example), str(example)))
    result = run_ptxas(ptx.text, "sm_100a", PTXAS)
    assert result.ok, result.output


def test_output_is_deterministic(example: Path) -> None:
    text = example.read_text()
    first, second = run_pipeline(text, pipeline(example)), run_pipeline(text, pipeline(example))
    assert mlir_text(first) == mlir_text(second)
    assert emit_ptx(first).text == emit_ptx(second).text


def test_lowering_preserves_what_the_kernel_computes(example: Path) -> None:
    """Translation validation with the interpreter: the lowering alone keeps buffers and findings
    (a lowering neither hides nor invents a race); after the whole pipeline the kernel is clean."""
    assert example.stem in EXAMPLE_ARGS, f"add the interpreter arguments of {example.stem} to EXAMPLE_ARGS"
    text = planned(example.read_text(), example.name)  # the interpreter runs allocated kernels
    source = mlir_text(run_pipeline(text, pipeline(example, lowering=False)))
    # Each example declares its block size (reqntid); the run takes it from there.
    alone = validation.validate(source, LOWERING, args=EXAMPLE_ARGS[example.stem]())
    whole = validation.validate(text, pipeline(example), args=EXAMPLE_ARGS[example.stem](), errors="fixed")
    assert alone.ok, "\n".join(alone.differences)
    assert whole.ok, "\n".join(whole.differences)


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt not found (pip install iree-base-compiler==3.13.0)")
@pytest.mark.parametrize("path", PTX_INPUTS, ids=[p.stem for p in PTX_INPUTS])
def test_ptx_target_inputs_are_upstream_nvvm(path: Path) -> None:
    """The hand-written kernels the PTX lit tests feed the target parse and verify upstream."""
    chunks = path.read_text().split("// -----")
    for chunk in chunks:
        proc = subprocess.run([IREE_OPT, "-"], input=chunk, capture_output=True, text=True)
        if "expected-error" in chunk and proc.returncode != 0:
            continue  # a chunk the verifier itself rejects (offset from a non-constant)
        assert proc.returncode == 0, proc.stderr


# ---- the known-good PTX kernel --------------------------------------------------------------

_REG = re.compile(r"%\w+(\.\w+)?")


def structure(ptx: str) -> dict[str, object]:
    """What a TMEM round-trip kernel does, independent of register names and scheduling."""
    instructions = []
    for raw in ptx.splitlines():
        line = raw.split("//")[0].strip().rstrip(";")
        if not line or line.startswith((".", "{", "}")) or line.endswith(":"):
            continue
        instructions.append(line)
    tcgen05 = [
        re.sub(r"\[[^\]]*\]|\{[^}]*\}|%\w+", "_", line).replace(" ", "")
        for line in instructions
        if line.startswith(("tcgen05.", "bar.sync"))
    ]
    directives = {
        m.group(1): m.group(2) for m in re.finditer(r"^\.(version|target|address_size)\s+(\S+)", ptx, re.M)
    }
    return {
        "directives": directives,
        "tcgen05_and_barriers": tcgen05,
        "special_registers": sorted(set(re.findall(r"%(tid\.[xyz]|laneid|warpid)", ptx))),
        "global_stores": sum(1 for line in instructions if line.startswith("st.global")),
        "lane_quarter": [bool(re.search(r"and\.b32.*, 3$", "\n".join(instructions), re.M)),
                         bool(re.search(r"shl\.b32.*, 21$", "\n".join(instructions), re.M))],
        "warp_index": bool(re.search(r"shr\.u32.*, 5$", "\n".join(instructions), re.M)),
        "shared_slot": len(re.findall(r"^\s*\.shared\s", ptx, re.M)),
    }


def test_nvvm_roundtrip_matches_the_known_good_ptx_structure() -> None:
    ours = emit_ptx(run_pipeline((ROOT / "examples" / "nvvm_roundtrip.mlir").read_text(), LOWERING)).text
    theirs = KNOWN_GOOD_PTX.read_text()
    a, b = structure(ours), structure(theirs)
    assert a == b, f"ours:\n{a}\nknown-good:\n{b}"
    assert a["tcgen05_and_barriers"] == [
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32_,32",
        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned",
        "tcgen05.fence::before_thread_sync",
        "bar.sync0",
        "tcgen05.fence::after_thread_sync",
        "tcgen05.st.sync.aligned.32x32b.x1.b32_,_",
        "tcgen05.wait::st.sync.aligned",
        "tcgen05.ld.sync.aligned.32x32b.x1.b32_,_",
        "tcgen05.wait::ld.sync.aligned",
        "tcgen05.fence::before_thread_sync",
        "bar.sync0",
        "tcgen05.fence::after_thread_sync",
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32_,32",
    ]


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt not found (pip install iree-base-compiler==3.13.0)")
def test_what_upstream_prints_parses_back(example: Path) -> None:
    """iree-opt's own custom-form print of our output is NVVM-level input we take again, unchanged
    in meaning: it lowers to the same PTX."""
    text = example.read_text()
    lowered = run_pipeline(text, pipeline(example))
    upstream = subprocess.run([IREE_OPT, "-"], input=mlir_text(lowered), capture_output=True, text=True)
    assert upstream.returncode == 0, upstream.stderr
    reparsed = parse_module(make_context(), upstream.stdout, "<iree-opt>")
    assert not verify_diagnostics(reparsed)
    assert emit_ptx(reparsed).text == emit_ptx(lowered).text


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found (set $PTXAS, put it on PATH, or pip install nvidia-cuda-nvcc)")
def test_known_good_ptx_assembles() -> None:
    """The reference kernel itself is valid for this ptxas (so the structure test compares with real PTX)."""
    result = run_ptxas(KNOWN_GOOD_PTX.read_text(), "sm_100a")
    assert result.ok, result.output
