"""PTX front end speed on the compiler corpus: import and tmem-verify of each tests/corpus PTX file, against ptxas.

Issue 12's bar: importing and verifying the largest corpus kernel costs at most what ptxas takes on
the same PTX, measured in the same run. For every tests/corpus/*/*.ptx file (largest first) it
prints the CPU time (user + system, getrusage; the best of --repeat) of:
  - `ptxas -arch=sm_100a` assembling the file: a subprocess, so ptxas's own start-up (process
    creation, loading its binary) is counted in its time;
  - the import (parse_ptx + SSA construction, with the flag --allow-unmodelled where
    tests/corpus/expected.json says the file needs it);
  - tmem-verify (verify_module) on the imported module;
  - import + verify, one after the other;
and their ratios to ptxas (the target is import+verify <= 1.00 on the largest file). Ours are
measured in this process: Python's start-up and the imports of our modules are not counted (a
warm-up round on every file runs first, so first-use costs stay out). Asserts nothing.

Run: python bench/bench_corpus.py [--repeat 5] [--files triton/dot.ptx ...] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_frontend import best_of

from tmem_dialect.diagnostics import capture
from tmem_dialect.frontend import import_ptx
from tmem_dialect.lowering.ptxas import find_ptxas
from tmem_dialect.passes.analysis import Options as VerifyOptions
from tmem_dialect.passes.verify import verify_module

CORPUS = ROOT / "tests" / "corpus"


class Case:
    """One corpus PTX file and the steps measured on it."""

    def __init__(self, path: Path, allow_unmodelled: bool) -> None:
        self.path, self.name = path, str(path.relative_to(CORPUS))
        self.text, self.allow_unmodelled = path.read_text(), allow_unmodelled

    def load(self):  # type: ignore[no-untyped-def]
        with capture():  # the warnings of opaque ops under --allow-unmodelled
            return import_ptx(self.text, str(self.path), allow_unmodelled=self.allow_unmodelled)

    def verify(self, module) -> None:  # type: ignore[no-untyped-def]
        verify_module(module, VerifyOptions())

    def both(self) -> None:
        self.verify(self.load())

    def assemble(self, ptxas: str, out: Path) -> None:
        subprocess.run([ptxas, "-arch=sm_100a", str(self.path), "-o", str(out)], check=True, capture_output=True)


def cases(names: list[str] | None) -> list[Case]:
    expected = json.loads((CORPUS / "expected.json").read_text())
    paths = [CORPUS / n for n in names] if names else sorted(CORPUS.glob("*/*.ptx"))
    found = [Case(p, expected.get(str(p.relative_to(CORPUS)), {}).get("allow_unmodelled", False)) for p in paths]
    return sorted(found, key=lambda c: -len(c.text))


def measure(case: Case, repeat: int, ptxas: str, tmp: Path) -> dict[str, float]:
    module = case.load()
    return {
        "ptxas": best_of(repeat, lambda: case.assemble(ptxas, tmp / "k.cubin")),
        "import": best_of(repeat, case.load),
        "verify": best_of(repeat, lambda: case.verify(module)),
        "import+verify": best_of(repeat, case.both),
    }


def profile(case: Case, top: int) -> None:
    module = case.load()
    for label, step in (("import", case.load), ("tmem-verify", lambda: case.verify(module))):
        profiler = cProfile.Profile()
        profiler.runcall(step)
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
        print(f"--- {case.name}: {label}, top {top} by own time")
        print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--files", nargs="+", help="corpus-relative paths (default: every PTX file)")
    parser.add_argument("--profile", action="store_true", help="cProfile the largest file's import and verify")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    ptxas = find_ptxas()
    if ptxas is None:
        print("ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc): nothing to compare with")
        return
    selected = cases(args.files)
    if args.profile:
        profile(selected[0], args.top)
        return
    for case in selected:  # warm-up: imports and first-use costs stay out of the rows
        case.both()
    print(f"{'file':<42} {'lines':>5} {'ptxas s':>8} {'import s':>8} {'verify s':>8} {'imp+ver s':>9} "
          f"{'imp/ptxas':>9} {'ver/ptxas':>9} {'(imp+ver)/ptxas':>15}")
    with tempfile.TemporaryDirectory() as tmp:
        for case in selected:
            r = measure(case, args.repeat, ptxas, Path(tmp))
            print(f"{case.name:<42} {case.text.count(chr(10)):>5} {r['ptxas']:>8.3f} {r['import']:>8.3f} "
                  f"{r['verify']:>8.3f} {r['import+verify']:>9.3f} {r['import'] / r['ptxas']:>9.2f} "
                  f"{r['verify'] / r['ptxas']:>9.2f} {r['import+verify'] / r['ptxas']:>15.2f}", flush=True)


if __name__ == "__main__":
    main()
