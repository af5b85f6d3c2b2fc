"""Benchmark of tmem-verify against ptxas on the same kernel: the tool users already run on every kernel.

For N = 1k, 4k, 16k TMEM ops of kernel_gen.py (made correct by tmem-insert-waits), at the
tcgen05 and the upstream NVVM level, it reports, measured in the same run:
  - ptxas -arch=sm_100a assembling the kernel's PTX (`-t ptx` of the same module): CPU time of
    the child process (user + system), the best of --repeat runs;
  - tmem-verify on the parsed module (CPU time of this process), and parse + verify;
  - their ratio (target: verify <= 2x ptxas) and the scaling exponent of each (target <= 1.1);
  - with --profile, where tmem-verify's time goes (cProfile, top functions by own time).

Usage: python bench/bench_verify_ptxas.py [--sizes 1000 4000 16000] [--repeat 1] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import math
import os
import pstats
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_passes import _apply, best_of, exponent  # noqa: E402
from kernel_gen import generate  # noqa: E402

from tmem_dialect.dialects import make_context  # noqa: E402
from tmem_dialect.ir import parse_module  # noqa: E402
from tmem_dialect.lowering.ptxas import find_ptxas  # noqa: E402
from tmem_dialect.passes import get_passes  # noqa: E402
from tmem_dialect.tools.opt import main as tmem_opt  # noqa: E402


def correct_kernel(n: int, nvvm: bool) -> str:
    """The generated kernel after tmem-insert-waits (what tmem-verify must pass clean)."""
    ctx = make_context()
    module = parse_module(ctx, generate(n, nvvm=nvvm), "<bench>")
    _apply(get_passes()["tmem-insert-waits"]()(), ctx, module)
    return str(module)


def to_ptx(text: str, directory: Path) -> Path:
    source, ptx = directory / "kernel.mlir", directory / "kernel.ptx"
    source.write_text(text)
    try:
        tmem_opt([str(source), "-t", "ptx", "-o", str(ptx)])
    except SystemExit as e:
        if e.code:
            raise
    return ptx


def ptxas_time(ptxas: str, ptx: Path, repeat: int) -> float:
    best = math.inf
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([ptxas, "-arch=sm_100a", str(ptx), "-o", os.devnull], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def verify_times(text: str, repeat: int) -> tuple[float, float]:
    """tmem-verify alone on a parsed module; parse + verify."""
    verify = get_passes()["tmem-verify"]()()
    ctx = make_context()
    module = parse_module(ctx, text, "<bench>")
    alone = best_of(repeat, lambda: _apply(verify, ctx, module))
    both = best_of(repeat, lambda: _apply(verify, ctx, parse_module(make_context(), text, "<bench>")))
    return alone, both


def profile(text: str, top: int = 12) -> str:
    verify = get_passes()["tmem-verify"]()()
    ctx = make_context()
    module = parse_module(ctx, text, "<bench>")
    profiler = cProfile.Profile()
    profiler.runcall(_apply, verify, ctx, module)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000, 16000])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    ptxas = find_ptxas()
    if ptxas is None:
        raise SystemExit("ptxas not found (PATH, $PTXAS, or pip install nvidia-cuda-nvcc): nothing to compare")
    for nvvm in (False, True):
        level = "NVVM" if nvvm else "tcgen05"
        print(f"\n{level} kernels: tmem-verify vs ptxas -arch=sm_100a on the same kernel (CPU s)")
        print(f"{'N':>6} {'ptxas':>8} {'verify':>8} {'ratio':>6} {'parse+verify':>13} {'ratio':>6}")
        rows = []
        for n in args.sizes:
            text = correct_kernel(n, nvvm)
            with tempfile.TemporaryDirectory() as tmp:
                assembled = ptxas_time(ptxas, to_ptx(text, Path(tmp)), args.repeat)
            alone, both = verify_times(text, args.repeat)
            rows.append((n, assembled, alone, both))
            print(f"{n:>6} {assembled:8.3f} {alone:8.3f} {alone / assembled:5.2f}x {both:13.3f} "
                  f"{both / assembled:5.2f}x")
        sizes = [r[0] for r in rows]
        if len(rows) > 1:
            print(f"exponent: ptxas {exponent(sizes, [r[1] for r in rows]):.2f}, "
                  f"verify {exponent(sizes, [r[2] for r in rows]):.2f}, "
                  f"parse+verify {exponent(sizes, [r[3] for r in rows]):.2f}")
        if args.profile:
            print(profile(correct_kernel(sizes[-1], nvvm)))


if __name__ == "__main__":
    main()
