"""Static and dynamic agree on the warp-specialized GEMMs: every synchronization op dropped in turn.

The mutants of examples/warp_specialized_gemm.mlir (one CTA) and warp_specialized_gemm_pair.mlir
(a cluster of 2), which declare their TMEM (tmem-plan-columns writes the allocation), and of the
pair allocated by hand (tests/data/warp_specialized_gemm_pair_hand.mlir: the mutants then drop
the fences and cluster barriers of the pair's alloc and dealloc too): each drops one op that orders the kernel (an mbarrier wait, arrive, expect_tx
or init fence, a tcgen05.commit, wait::ld/st, fence, barrier), so tmem-verify and the interpreter
judge the same broken protocol:
- an error of tmem-verify shows in a run (under one of the schedules);
- what a run reports, tmem-verify reports too: a kind the run reports, as an error or as a
  warning naming what it cannot decide. A run that hangs stops where it hangs, so later races
  are not seen there: tmem-verify then reports the hang (DEADLOCK), an error of the broken
  protocol, a kind the run reports, or at least a warning the intact kernel does not get.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import test_warp_specialized_gemm as single
import test_warp_specialized_gemm_pair as pair
from test_differential import parse_module, print_module

from tmem_dialect.diagnostics import Severity
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import Options
from tmem_dialect.passes.verify import verify_findings

SYNC = frozenset({
    EffectKind.MBARRIER_WAIT, EffectKind.MBARRIER_ARRIVE, EffectKind.COMMIT, EffectKind.WAIT_LD,
    EffectKind.WAIT_ST, EffectKind.FENCE_BEFORE, EffectKind.FENCE_AFTER, EffectKind.BARRIER,
    EffectKind.FENCE_PROXY_ASYNC, EffectKind.FENCE_MBARRIER_INIT,
})
SCHEDULES = ("round-robin", "reverse")
# Kinds the two tools name differently for one cause: a dealloc another warp's access is not
# ordered before (the run sees the access after the free); a slot read before the write that a
# barrier no longer orders (the run may see nothing written yet).
FAMILY = {FindingKind.USE_AFTER_FREE: FindingKind.DEALLOC_OUTSTANDING,
          FindingKind.UNINITIALIZED_READ: FindingKind.SHARED_RACE}
HANG = frozenset({FindingKind.DEADLOCK})

KERNELS = {"single": single, "pair": pair,
           "pair_hand": SimpleNamespace(EXAMPLE=pair.HAND, _module=pair._module, _run=pair._run)}


def _droppable(module) -> list:
    return [op for op in module.walk() if (e := tmem_effect(op)) is not None and e.kind in SYNC
            and all(not r.uses for r in op.results)]


def _mutants(name: str) -> list[tuple[str, int]]:
    return [(name, i) for i in range(len(_droppable(parse_module(KERNELS[name].EXAMPLE))))]


def _mutant(name: str, index: int) -> tuple[str, str]:
    module = parse_module(KERNELS[name].EXAMPLE)
    op = _droppable(module)[index]
    what = op.name
    op.detach()
    return what, print_module(module)


def _run(name: str, text: str, schedule: str):
    if name in ("pair", "pair_hand"):
        return pair._run(text, schedule=schedule)[-1]
    return single._run(text, schedule=schedule)[-1]


def _family(kind: FindingKind) -> FindingKind:
    return FAMILY.get(kind, kind)


def _dynamic(name: str, text: str) -> set[FindingKind]:
    kinds: set[FindingKind] = set()
    for schedule in SCHEDULES:
        for finding in _run(name, text, schedule).findings:
            kind = FindingKind.of(finding.kind)
            if finding.diagnostic.severity is Severity.ERROR and (kind.is_misuse or kind in HANG):
                kinds.add(_family(kind))
    return kinds


def _static(name: str, text: str) -> tuple[set[FindingKind], set[FindingKind], set[str]]:
    """tmem-verify's error kinds, every kind it reports (a warning: a fact it cannot decide), and
    the messages."""
    module = KERNELS[name]._module(text, False)  # as the example's own tests prepare it
    found = [(_family(k), d) for k, d in verify_findings(module, Options()) if d.severity is not Severity.NOTE]
    return ({k for k, d in found if d.severity is Severity.ERROR}, {k for k, _ in found},
            {d.message for _, d in found})


_BASELINE: dict[str, set[str]] = {}


def _baseline(name: str) -> set[str]:
    """What tmem-verify says of the unmutated example (its warnings)."""
    if name not in _BASELINE:
        _BASELINE[name] = _static(name, KERNELS[name].EXAMPLE)[2]
    return _BASELINE[name]


@pytest.mark.parametrize(("name", "index"), _mutants("single") + _mutants("pair") + _mutants("pair_hand"))
def test_both_tools_judge_the_dropped_op_alike(name: str, index: int):
    what, text = _mutant(name, index)
    dynamic = _dynamic(name, text)
    errors, seen, messages = _static(name, text)
    facts = (what, sorted(k.value for k in dynamic), sorted(k.value for k in seen))
    if errors:
        assert dynamic, facts  # tmem-verify's error shows in a run
    if dynamic & HANG:
        # The run stops at the hang: tmem-verify reports an error, or says something new (what it
        # cannot prove about the broken protocol).
        assert errors or seen & dynamic or messages - _baseline(name), facts
    elif dynamic:
        assert seen & dynamic, facts


def test_the_mutants_are_not_all_harmless():
    """The check has teeth: most dropped ops break the kernel in both tools."""
    broken = 0
    for name, index in _mutants("single"):
        _, text = _mutant(name, index)
        broken += bool(_static(name, text)[0])
    assert broken >= 8, broken


def test_the_examples_themselves_are_clean_in_both():
    for name, kernel in KERNELS.items():
        text = kernel.EXAMPLE
        assert _static(name, text)[0] == set()
        assert _dynamic(name, text) == set()
