"""PTX front end speed: import (parse + SSA) and tmem-verify of PTX, against ptxas on the same file.

The PTX comes from bench/kernel_gen.py's NVVM-level kernels of N TMEM ops (loops, branches,
barrier phases) emitted with the PTX target, so it is real ptxas-accepted PTX. For each N it
measures CPU time, in the same run, of `ptxas -arch=sm_100a` (the subprocess, best of --repeat),
the import alone, and import + tmem-verify; it prints their ratios to ptxas and the scaling
exponent of the import between the smallest and the largest N (1.0 is linear). Asserts nothing.

Run: python bench/bench_frontend.py [--sizes 1000 4000 16000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import math
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_gen import generate  # noqa: E402

from tmem_dialect.diagnostics import DiagnosticError, capture  # noqa: E402
from tmem_dialect.dialects import make_context  # noqa: E402
from tmem_dialect.frontend import import_ptx  # noqa: E402
from tmem_dialect.ir import parse_module  # noqa: E402
from tmem_dialect.lowering.ptx_emitter import emit_ptx  # noqa: E402
from tmem_dialect.lowering.ptxas import find_ptxas  # noqa: E402
from tmem_dialect.passes.verify import TmemVerifyPass  # noqa: E402


def cpu_time() -> float:
    """CPU seconds of this process and its finished children (ptxas): robust to a shared, loaded machine."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def best_of(repeat: int, step) -> float:  # type: ignore[no-untyped-def]
    best = math.inf
    for _ in range(repeat):
        start = cpu_time()
        step()
        best = min(best, cpu_time() - start)
    return best


def measure(n: int, repeat: int, ptxas: str) -> dict[str, float]:
    ptx = emit_ptx(parse_module(make_context(), generate(n, nvvm=True))).text
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernel.ptx"
        path.write_text(ptx)

        def assemble() -> None:
            subprocess.run([ptxas, "-arch=sm_100a", str(path), "-o", str(Path(tmp) / "k.cubin")],
                           check=True, capture_output=True)

        ptxas_time = best_of(repeat, assemble)

    def verify() -> None:
        # the generated kernels have no waits: tmem-verify reports them (as on their MLIR twin)
        with capture():
            module = import_ptx(ptx, "kernel.ptx")
            try:
                TmemVerifyPass().apply(make_context(), module)
            except DiagnosticError:
                pass

    import_time = best_of(repeat, lambda: import_ptx(ptx, "kernel.ptx"))
    verify_time = best_of(repeat, verify)
    return {"lines": ptx.count("\n"), "ptxas": ptxas_time, "import": import_time, "import+verify": verify_time}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000, 16000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ptxas = find_ptxas()
    if ptxas is None:
        print("ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc): nothing to compare with")
        return
    measure(200, 1, ptxas)  # warm-up: imports and first-use costs stay out of the first row
    rows = [(n, measure(n, args.repeat, ptxas)) for n in args.sizes]
    print(f"{'N ops':>7} {'PTX lines':>9} {'ptxas s':>8} {'import s':>9} {'import/ptxas':>12} "
          f"{'import+verify s':>15} {'(import+verify)/ptxas':>21}")
    for n, r in rows:
        print(f"{n:>7} {r['lines']:>9} {r['ptxas']:>8.3f} {r['import']:>9.3f} {r['import'] / r['ptxas']:>12.2f} "
              f"{r['import+verify']:>15.3f} {r['import+verify'] / r['ptxas']:>21.2f}")
    r0, r1 = rows[0][1], rows[-1][1]
    if len(rows) > 1 and r0["import"] > 0:
        exponent = math.log(r1["import"] / r0["import"]) / math.log(r1["lines"] / r0["lines"])
        print(f"import time ~ lines^{exponent:.2f} between {r0['lines']} and {r1['lines']} lines")


if __name__ == "__main__":
    main()
