"""Lowering speed: convert-tcgen05-to-nvvm and the PTX target on synthetic kernels of N TMEM ops.

For N = 1k, 4k, 16k tcgen05.ld/st (bench/kernel_gen.py: loops, branches, barrier phases) it
measures, in the same run: parsing + printing the input (the floor any xDSL tool pays), the
lowering pass alone, PTX emission of the lowered module, and PTX emission of the NVVM-level
twin kernel. It prints time per TMEM op, each step's ratio to the parse+print floor, and the
scaling exponent between the smallest and the largest N. Asserts nothing.

Run: python bench/bench_lowering.py [--sizes 1000 4000 16000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from io import StringIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_gen import generate  # noqa: E402
from xdsl.printer import Printer  # noqa: E402

from tmem_dialect.dialects import make_context  # noqa: E402
from tmem_dialect.ir import parse_module  # noqa: E402
from tmem_dialect.lowering.ptx_emitter import emit_ptx  # noqa: E402
from tmem_dialect.lowering.to_nvvm import ConvertTcgen05ToNVVMPass  # noqa: E402


def best_of(repeat: int, step):  # type: ignore[no-untyped-def]
    best, result = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = step()
        best = min(best, time.perf_counter() - start)
    return best, result


def measure(n: int, repeat: int) -> dict[str, float]:
    text = generate(n)
    nvvm_text = generate(n, nvvm=True)

    def parse_print() -> None:
        out = StringIO()
        Printer(stream=out).print_op(parse_module(make_context(), text))

    def lower():  # type: ignore[no-untyped-def]
        module = parse_module(make_context(), text)
        start = time.perf_counter()
        ConvertTcgen05ToNVVMPass().apply(make_context(), module)
        return time.perf_counter() - start, module

    floor, _ = best_of(repeat, parse_print)
    lowering = min(lower()[0] for _ in range(repeat))
    _, lowered = lower()
    emit, _ = best_of(repeat, lambda: emit_ptx(lowered))
    nvvm_module = parse_module(make_context(), nvvm_text)
    emit_nvvm, _ = best_of(repeat, lambda: emit_ptx(nvvm_module))
    return {"floor": floor, "lowering": lowering, "emit": emit, "emit_nvvm": emit_nvvm}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000, 16000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = {n: measure(n, args.repeat) for n in args.sizes}
    print(f"{'N':>6} {'parse+print':>12} {'lowering':>10} {'ratio':>6} {'ptx(lowered)':>13} {'ratio':>6} "
          f"{'ptx(nvvm)':>10} {'ratio':>6}   (us per TMEM op; ratio to parse+print)")
    for n, r in rows.items():
        us = {k: 1e6 * v / n for k, v in r.items()}
        print(f"{n:>6} {us['floor']:>12.1f} {us['lowering']:>10.1f} {r['lowering'] / r['floor']:>6.2f} "
              f"{us['emit']:>13.1f} {r['emit'] / r['floor']:>6.2f} {us['emit_nvvm']:>10.1f} "
              f"{r['emit_nvvm'] / r['floor']:>6.2f}")
    small, large = min(rows), max(rows)
    if small != large:
        for key in ("floor", "lowering", "emit", "emit_nvvm"):
            exponent = math.log(rows[large][key] / rows[small][key]) / math.log(large / small)
            print(f"scaling exponent {key}: {exponent:.2f}")


if __name__ == "__main__":
    main()
