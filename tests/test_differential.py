"""Static and dynamic agree: tmem-verify and the interpreter on the same generated, mutated kernels.

Kernels come from bench/kernel_gen.py (one warpgroup, a fixed block size, loops with constant
trip counts, barrier phases, and a uniform flag argument), made correct by tmem-insert-waits and
then broken by one mutation: an inserted wait or fence removed, the dealloc removed, or a smaller
allocation. For each mutant:
- every misuse error the interpreter reports, under any of the schedules and flag values run,
  tmem-verify reports too (as an error, or a warning of the same kind it cannot decide);
- every error tmem-verify reports, the interpreter reports under some schedule or input.

How many examples CI runs: `DIFFERENTIAL_EXAMPLES` below (hypothesis, derandomized).
"""

from __future__ import annotations

import sys
from io import StringIO
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.printer import Printer

from tmem_dialect.diagnostics import Severity, capture
from tmem_dialect.dialects import make_context
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module as _parse
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import Options
from tmem_dialect.passes.insert_waits import insert_waits
from tmem_dialect.passes.verify import verify_findings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from kernel_gen import generate  # noqa: E402

DIFFERENTIAL_EXAMPLES = 25
SCHEDULES = ("round-robin", "reverse")
FLAGS = (0, 1)

# Kinds one tool sees as another: an access past its allocation may land in another one.
_FAMILY = {
    FindingKind.WRONG_ALLOCATION: FindingKind.OUT_OF_BOUNDS,
    FindingKind.UNALLOCATED: FindingKind.OUT_OF_BOUNDS,
}
# What only a run can add on top of a static finding (the same cause, seen later).
_CONSEQUENCES = frozenset({FindingKind.DEADLOCK, FindingKind.OUT_OF_TMEM})


def parse_module(text: str) -> ModuleOp:
    return _parse(make_context(), text, "<mutant>")


def print_module(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def _family(kind: FindingKind) -> FindingKind:
    return _FAMILY.get(kind, kind)


def _sync_ops(module: ModuleOp) -> list[Operation]:
    return [op for op in module.walk() if "tmem.rule" in op.attributes]


def _ops_of(module: ModuleOp, kind: EffectKind) -> list[Operation]:
    return [op for op in module.walk() if (e := tmem_effect(op)) is not None and e.kind is kind]


def _mutate(text: str, mutation: str, index: int) -> str | None:
    """One bug put into a correct kernel; None when the kernel has no place for it."""
    module = parse_module(text)
    if mutation == "drop-sync":
        ops = _sync_ops(module)
        if not ops:
            return None
        ops[index % len(ops)].detach()
    elif mutation == "drop-dealloc":
        ops = _ops_of(module, EffectKind.DEALLOC)
        if not ops:
            return None
        ops[0].detach()
    elif mutation == "small-alloc":
        # 32 columns allocated (and freed) while the accesses reach further.
        for full, half in ((", 512", ", 32"), ("constant(512 : i32)", "constant(32 : i32)")):
            if full in text:
                return text.replace(full, half)
        return None
    return print_module(module)


def _interpreted(text: str) -> tuple[set[FindingKind], set[FindingKind]]:
    """Misuse kinds the interpreter reports as errors, over every schedule and flag value; and
    every kind it reports at all."""
    errors: set[FindingKind] = set()
    seen: set[FindingKind] = set()
    for schedule in SCHEDULES:
        for flag in FLAGS:
            result = run_kernel(text, args=[flag, np.zeros(4096, np.int32)], schedule=schedule)
            for finding in result.findings:
                kind = _family(FindingKind.of(finding.kind))
                seen.add(kind)
                if finding.diagnostic.severity is Severity.ERROR and kind.is_misuse:
                    errors.add(kind)
    return errors, seen


def _verified(text: str) -> tuple[set[FindingKind], set[FindingKind]]:
    """Kinds tmem-verify reports as errors; and every kind it reports (warnings included)."""
    found = verify_findings(parse_module(text), Options())
    errors = {_family(k) for k, d in found if d.severity is Severity.ERROR}
    return errors, {_family(k) for k, _ in found}


def check_agreement(text: str) -> None:
    dynamic_errors, dynamic_seen = _interpreted(text)
    static_errors, static_seen = _verified(text)
    missed = dynamic_errors - static_seen - _CONSEQUENCES
    assert not missed, f"the interpreter reports {sorted(k.value for k in missed)}; tmem-verify does not"
    if dynamic_errors and not static_seen:
        raise AssertionError("the interpreter reports errors on a kernel tmem-verify passes")
    unseen = static_errors - dynamic_seen
    assert not unseen, f"tmem-verify reports {sorted(k.value for k in unseen)}; no run shows it"


def _correct_kernel(n: int, nvvm: bool, seed: int) -> str:
    module = parse_module(generate(n, nvvm=nvvm, seed=seed))
    with capture():
        insert_waits(module, Options(insert=True))
    return print_module(module)


@settings(max_examples=DIFFERENTIAL_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(4, 24),
    nvvm=st.booleans(),
    mutation=st.sampled_from(["drop-sync", "drop-sync", "drop-dealloc", "small-alloc"]),
    index=st.integers(0, 1_000),
)
def test_verify_and_interpreter_agree_on_mutants(seed: int, n: int, nvvm: bool, mutation: str, index: int) -> None:
    mutant = _mutate(_correct_kernel(n, nvvm, seed), mutation, index)
    if mutant is not None:
        check_agreement(mutant)


def test_agreement_on_the_correct_kernels() -> None:
    """The unmutated kernels: both tools clean."""
    for seed in range(3):
        text = _correct_kernel(12, seed % 2 == 1, seed)
        assert _interpreted(text)[0] == set()
        assert _verified(text)[0] == set()


def test_the_check_can_fail() -> None:
    """A kernel only the interpreter can judge wrong must fail the check (not vacuous)."""
    text = _correct_kernel(8, False, 0)
    waits = [i for i, op in enumerate(_sync_ops(parse_module(text))) if "wait" in op.name]
    mutant = _mutate(text, "drop-sync", waits[0])
    assert mutant is not None
    dynamic, _ = _interpreted(mutant)
    static, _ = _verified(mutant)
    assert dynamic and static, "removing an inserted wait is found by both tools"
