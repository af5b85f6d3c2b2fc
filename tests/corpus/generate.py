"""Regenerates the corpus: compiles kernels_triton.py and kernels_cute.py for sm_100a and writes their PTX and MLIR.

    python tests/corpus/generate.py [--deps DIR]

The compilers (PyPI `triton`, `nvidia-cutlass-dsl`) are an optional extra; `--deps` names a
`pip install --target` directory holding them. A compiler that is absent is skipped with a
message. No GPU is needed: Triton compiles for an explicit GPUTarget, CuTe DSL ahead of time.
manifest.json records the compiler versions and, per file, its size and tcgen05 count.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import site
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Triton 3.9 would write PTX ISA 9.4 (its own ptxas); 8.8, as CuTe DSL writes, is what the CUDA 13.0
# ptxas oracle reads.
TRITON_PTX_VERSION = 88
REPO = HERE.parent.parent


def _relative_paths(text: str) -> str:
    """Source locations without this checkout's absolute path (stable across checkouts)."""
    return text.replace(str(REPO) + "/", "")


def _write(kind: str, name: str, ext: str, text: str, manifest: dict) -> None:
    path = HERE / kind / f"{name}.{ext}"
    path.parent.mkdir(exist_ok=True)
    text = _relative_paths(text)
    path.write_text(text)
    manifest["files"][f"{kind}/{name}.{ext}"] = {
        "bytes": len(text.encode()),
        "tcgen05": len(re.findall(r"\btcgen05\.", text)),
    }
    print(f"  wrote {kind}/{name}.{ext} ({len(text)} bytes)")


# ---- Triton ------------------------------------------------------------------------------------

def _triton_kernels():  # type: ignore[no-untyped-def]
    import kernels_triton as kt

    ptr16, ptr32 = "*fp16", "*fp32"
    dot_sig = {"a_ptr": ptr16, "b_ptr": ptr16, "c_ptr": ptr32, "K": "i32",
               "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    rt = {"src": ptr32, "dst": ptr32, "M": "constexpr", "N": "constexpr", "COL_STRIDE": "constexpr"}
    rt16 = {**rt, "src": ptr16, "dst": ptr16}
    mma = {"a_ptr": ptr16, "b_ptr": ptr16, "c_ptr": ptr32, "M": "constexpr", "N": "constexpr", "K": "constexpr"}
    return [
        # name, fn, gluon, signature, constexprs, num_warps
        ("gluon_tmem_roundtrip_f32", kt.tmem_roundtrip, True, rt, {"M": 128, "N": 32, "COL_STRIDE": 1}, 4),
        ("gluon_tmem_roundtrip_f16_packed", kt.tmem_roundtrip, True, rt16, {"M": 128, "N": 64, "COL_STRIDE": 1}, 4),
        ("gluon_tmem_roundtrip_m64", kt.tmem_roundtrip, True, rt, {"M": 64, "N": 32, "COL_STRIDE": 1}, 4),
        ("gluon_mma_mbarrier", kt.mma_mbarrier, True, mma, {"M": 128, "N": 64, "K": 32}, 4),
        ("gluon_tmem_copy", kt.tmem_copy, True, {"src": ptr32, "dst": ptr32, "M": "constexpr", "N": "constexpr"},
         {"M": 128, "N": 32}, 4),
        ("dot", kt.dot, False, dot_sig, {"BM": 128, "BN": 64, "BK": 32}, 4),
        ("dot_ws", kt.dot_ws, False, {"a_desc": "tensordesc<fp16[128, 32]>", "b_desc": "tensordesc<fp16[64, 32]>", **dict(list(dot_sig.items())[2:])},
         {"BM": 128, "BN": 64, "BK": 32}, 4),
    ]


def generate_triton(manifest: dict, only: set[str]) -> None:
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # the cache would skip make_llir, where the MLIR is captured
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    try:
        import triton
        import triton.backends.nvidia.compiler as nvidia
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        from triton.experimental.gluon._runtime import GluonASTSource
    except ImportError as e:
        print(f"triton: skipped ({e})")
        return
    manifest["compilers"]["triton"] = triton.__version__
    manifest["triton_ptx_version"] = TRITON_PTX_VERSION
    captured: dict[str, str] = {}
    to_module = nvidia.llvm.to_module

    def capture(mod, context):  # the LLVM-dialect module, just before translation to LLVM IR
        captured["mlir"] = str(mod)
        return to_module(mod, context)

    nvidia.llvm.to_module = capture
    try:
        for name, fn, is_gluon, signature, constexprs, num_warps in _triton_kernels():
            if only and name not in only:
                continue
            source = (GluonASTSource if is_gluon else ASTSource)(fn, signature, constexprs)
            try:
                compiled = triton.compile(source, target=GPUTarget("cuda", 100, 32),
                                          options={"num_warps": num_warps, "ptx_version": TRITON_PTX_VERSION})
            except Exception as e:  # a kernel this Triton cannot compile is reported, the rest go on
                print(f"  triton/{name}: not compiled: {type(e).__name__}: {str(e)[-600:]}")
                continue
            _write("triton", name, "ptx", compiled.asm["ptx"], manifest)
            _write("triton", name, "mlir", captured.pop("mlir"), manifest)
    finally:
        nvidia.llvm.to_module = to_module


# ---- CuTe DSL ----------------------------------------------------------------------------------

def generate_cute(manifest: dict, only: set[str]) -> None:
    os.environ["CUTE_DSL_ARCH"] = "sm_100a"
    try:
        import cutlass
        import cutlass.base_dsl.compiler as dsl_compiler
    except ImportError as e:
        print(f"cute: skipped ({e})")
        return
    import tempfile

    manifest["compilers"]["nvidia-cutlass-dsl"] = cutlass.__version__
    import kernels_cute as kc

    captured: dict[str, str] = {}
    compile_module = dsl_compiler.Compiler.compile

    def capture(self, module, pipeline, *args, **kwargs):  # cute-to-nvvm's llvm-only stop: NVVM/LLVM dialect
        clone = module.operation.clone()
        self.passmanager.PassManager.parse(pipeline.replace("cute-to-nvvm{", "cute-to-nvvm{llvm-only=true ", 1)).run(clone)
        captured["mlir"] = str(clone)
        return compile_module(self, module, pipeline, *args, **kwargs)

    dsl_compiler.Compiler.compile = capture
    try:
        for name, build in kc.KERNELS.items():
            if only and name not in only:
                continue
            with tempfile.TemporaryDirectory() as dump:
                try:
                    build(dump)
                except Exception as e:
                    print(f"  cute/{name}: not compiled: {type(e).__name__}: {str(e).strip()[:900]}")
                    continue
                (ptx,) = Path(dump).glob("*.ptx")
                _write("cute", name, "ptx", ptx.read_text(), manifest)
                _write("cute", name, "mlir", captured.pop("mlir"), manifest)
    finally:
        dsl_compiler.Compiler.compile = compile_module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deps", help="a pip --target directory holding triton and nvidia-cutlass-dsl")
    parser.add_argument("names", nargs="*", help="only these kernels")
    args = parser.parse_args()
    if args.deps:
        site.addsitedir(args.deps)  # also runs the packages' .pth files (CuTe DSL needs its own)
    sys.path.insert(0, str(HERE))
    manifest_path = HERE / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest.setdefault("compilers", {})
    manifest.setdefault("files", {})
    manifest["target"] = "sm_100a"
    only = set(args.names)
    generate_triton(manifest, only)
    generate_cute(manifest, only)
    manifest["files"] = dict(sorted(manifest["files"].items()))
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
