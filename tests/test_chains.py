"""A software-pipelined commit chain (passes/analysis/chains.py), on Triton's tl.dot (tests/corpus/triton/dot.ptx).

tl.dot commits once before its K loop, waits in iteration t for the commit of iteration t - 1,
commits to stage (t + 1) % 2 and, after the loop, waits on the exit values of the carried stage
address and parity before the epilogue's tcgen05.ld. tmem-verify proves the chain for every trip
count (the corpus test has it clean); here the interpreter runs it with no loop, one and several
iterations, and mutants that break the chain are reported by both tools.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tmem_dialect.frontend.importer import ModuleImporter, Options
from tmem_dialect.frontend.syntax import parse_ptx
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.passes.analysis import Options as VerifyOptions
from tmem_dialect.passes.verify import verify_module

DOT = Path(__file__).parent / "corpus" / "triton" / "dot.ptx"
SMEM = 64 * 1024
SCRATCH = [np.zeros(16, np.uint8), np.zeros(16, np.uint8)]
EXIT_WAIT = re.compile(r"^\s*mbarrier\.try_wait\.parity\.shared::cta\.b64 complete, \[%r280\], %r281;$", re.MULTILINE)


def _import(text: str):
    return ModuleImporter(parse_ptx(text, "dot.ptx"), Options()).run()


def _run(text: str, k: int):
    rng = np.random.default_rng(k)
    a = rng.integers(-8, 8, (128, k)).astype(np.float16)
    b = rng.integers(-8, 8, (k, 64)).astype(np.float16)
    args = [a.ravel(), b.ravel(), np.zeros(128 * 64, np.float32), np.int32(k), *SCRATCH]
    result = run_kernel(_import(text), threads=128, args=args, dynamic_shared_bytes=SMEM)
    return result, a.astype(np.float32) @ b.astype(np.float32)


def _errors(text: str) -> list[str]:
    return [d.message for d in verify_module(_import(text), VerifyOptions()) if d.severity.name == "ERROR"]


@pytest.mark.parametrize("k", [32, 64, 96, 128])
def test_every_trip_count_runs_to_the_product(k: int) -> None:
    """K = 32: the prologue's mma only (the loop does not run); 64: one iteration; 96, 128:
    both stages, and stage 0's second phase."""
    result, want = _run(DOT.read_text(), k)
    assert result.errors == [], result.render()
    assert np.array_equal(result.args[2].reshape(128, 64), want)


def test_the_chain_is_proven() -> None:
    assert _errors(DOT.read_text()) == []


def _mutant(replacement: str) -> str:
    text, n = EXIT_WAIT.subn(replacement, DOT.read_text())
    assert n == 1
    return text


@pytest.mark.parametrize("name, replacement", [
    # no wait after the loop (its spin loop passes at once): the epilogue reads D while the last
    # mma may run. (Deleting the try_wait line would leave the loop spinning on an undefined
    # predicate, which only the interpreter's step limit ends.)
    ("no-exit-wait", "mov.pred complete, -1;"),
    # the wait on mbarrier 0 whatever stage the last commit went to
    ("stage-0-always", "mbarrier.try_wait.parity.shared::cta.b64 complete, [%r109], %r281;"),
])
def test_a_broken_chain_is_reported_by_both_tools(name: str, replacement: str) -> None:
    text = _mutant(replacement)
    if name == "stage-0-always":  # %r109 (mbarrier 0) is defined after the wait: define it before
        assert "add.s32 \t%r109, %r12, 24576;" in text
        text = text.replace("add.s32 \t%r109, %r12, 24576;", "", 1).replace(
            "@%p9 bra \t$L__BB0_9;", "add.s32 \t%r109, %r12, 24576;\n\t@%p9 bra \t$L__BB0_9;", 1)
    result, _ = _run(text, 64)
    assert result.errors, f"{name}: the interpreter found nothing"
    assert {k.value for k in result.kinds()} == {"async-pending"}, result.render()  # the ld races the mma
    errors = _errors(text)
    assert any("tcgen05.ld" in e and "tcgen05.mma" in e for e in errors), errors


def test_the_counting_run_shares_the_first_runs_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """A block run's values do not depend on the counts: the counting run of dot.ptx's issuing
    warp enters only entries its first run entered, and plans none of its own; the plans (a
    loop links them in a cycle) are dropped when the proofs are built."""
    from tmem_dialect.passes.analysis import chain_values, chains

    built: list[chains.Chains] = []
    planned: list[bool] = []  # per block run planned: whether in a counting run
    counting = [False]
    explore, run, init = chains.Chains._explore, chain_values.BlockRun.run, chains.Chains.__init__

    def _explore(self, warp, entry, releasers, inits, others, visited, proving):  # type: ignore[no-untyped-def]
        counting[0] = proving
        return explore(self, warp, entry, releasers, inits, others, visited, proving)

    def _run(self) -> None:  # type: ignore[no-untyped-def]
        planned.append(counting[0])
        run(self)

    def _init(self, *args) -> None:  # type: ignore[no-untyped-def]
        init(self, *args)
        built.append(self)

    monkeypatch.setattr(chains.Chains, "_explore", _explore)
    monkeypatch.setattr(chain_values.BlockRun, "run", _run)
    monkeypatch.setattr(chains.Chains, "__init__", _init)
    assert _errors(DOT.read_text()) == []
    [proofs] = built
    assert proofs.ok and proofs._tracked_ops.get(0)
    assert planned and not any(planned)
    assert proofs._plans == {}
