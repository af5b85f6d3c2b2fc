"""tmem-insert-waits: its output passes tmem-verify and the interpreter, is minimal (every inserted
wait or fence is needed), idempotent, tagged with its rules, and matches the hand-written examples."""

from __future__ import annotations

import re
import sys
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.printer import Printer

from tmem_dialect import memory_model
from tmem_dialect.diagnostics import Severity, capture
from tmem_dialect.dialects import make_context
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.ir import parse_module

from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes import get_passes
from tmem_dialect.passes.analysis import Options
from tmem_dialect.passes.insert_waits import RULE_ATTR, insert_waits
from tmem_dialect.passes.verify import verify_module

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from kernel_gen import generate  # noqa: E402

from example_sources import example_text  # noqa: E402

WAIT_OR_FENCE = re.compile(r"tcgen05\.(wait|fence)\b")
RULES = {
    r.cite()
    for r in (
        memory_model.ANTI_DEPENDENCY,
        memory_model.STORE_COMPLETION,
        memory_model.HANDOFF,
        memory_model.DEALLOC_COMPLETION,
        memory_model.REGISTER_USE,
    )
}


def parse(text: str) -> ModuleOp:
    return parse_module(make_context(), text, "<test>")


def show(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def inserted(text: str, **options: object) -> tuple[str, ModuleOp]:
    module = parse(text)
    if "tile_" in text:
        get_passes()["tmem-assign-lanes"]()().apply(make_context(), module)
    insert_waits(module, Options(insert=True, **options))  # type: ignore[arg-type]
    return show(module), module


def diagnostics(module: ModuleOp, **options: object):
    return verify_module(module, Options(**options))  # type: ignore[arg-type]


def strip(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not WAIT_OR_FENCE.search(line))


def counts(text: str) -> tuple[int, int]:
    kinds = [m.group(1) for m in WAIT_OR_FENCE.finditer(text)]
    return kinds.count("wait"), kinds.count("fence")


def sync_ops(module: ModuleOp) -> list[Operation]:
    kinds = (EffectKind.WAIT_LD, EffectKind.WAIT_ST, EffectKind.FENCE_BEFORE, EffectKind.FENCE_AFTER)
    return [op for op in module.walk() if (e := tmem_effect(op)) is not None and e.kind in kinds]


EXAMPLES = ["tmem_roundtrip", "chunked_epilogue", "accumulator_readout", "m64_f16"]


def test_nvvm_example_with_waits_removed() -> None:
    """The shipped NVVM kernel, waits and fences stripped: the same counts come back, the result
    verifies without a diagnostic and runs in the interpreter with the original's output."""
    original = (ROOT / "examples" / "nvvm_roundtrip.mlir").read_text()
    text, module = inserted(strip(original))
    assert counts(text) == counts(original) == (2, 4)
    assert diagnostics(module) == []
    want = run_kernel(original, args=[np.zeros(128, np.int32)])
    got = run_kernel(text, args=[np.zeros(128, np.int32)])
    assert want.ok and got.ok and not got.warnings
    assert (got.args[0] == want.args[0]).all() and (got.args[0] == np.arange(128)).all()


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_match_hand_written_minimum(name: str) -> None:
    hand = (ROOT / "bench" / "handwritten" / f"{name}.mlir").read_text()
    text, module = inserted(example_text(name))
    assert counts(text) == counts(hand)
    assert diagnostics(module) == []


@pytest.mark.parametrize("name", EXAMPLES + ["nvvm_roundtrip"])
def test_idempotent(name: str) -> None:
    text, _ = inserted(example_text(name))
    again, _ = inserted(text)
    assert again == text


def test_every_inserted_op_names_its_rules() -> None:
    for name in EXAMPLES:
        _, module = inserted(example_text(name))
        for op in sync_ops(module):
            attr = op.attributes.get(RULE_ATTR)
            assert isinstance(attr, StringAttr), op
            assert set(attr.data.split("; ")) <= RULES, attr.data


def test_every_inserted_op_is_needed() -> None:
    """Minimality: removing any one inserted wait or fence makes tmem-verify complain."""
    for name in EXAMPLES + ["nvvm_roundtrip"]:
        source = example_text(name)
        text, module = inserted(strip(source))
        for i in range(len(sync_ops(module))):
            copy = parse(text)
            sync_ops(copy)[i].detach()
            assert diagnostics(copy), f"{name}: inserted op #{i} was not needed"


@pytest.mark.parametrize("nvvm", [False, True], ids=["tcgen05", "nvvm"])
@pytest.mark.parametrize("seed", range(6))
def test_generated_kernels_are_minimal(seed: int, nvvm: bool) -> None:
    """Minimality on random kernels with loops, branches and barriers: every inserted wait and
    fence is needed (found by review: an idle wait::st before the dealloc's barrier, and a
    wait hoisted in front of a loop whose body waits anyway)."""
    text, module = inserted(generate(8 + 5 * seed, nvvm=nvvm, seed=seed))
    for i in range(len(sync_ops(module))):
        copy = parse(text)
        op = sync_ops(copy)[i]
        op.detach()
        assert diagnostics(copy), f"inserted op #{i} was not needed: {op}"


def test_conservative_waits_before_first_use() -> None:
    text, module = inserted((ROOT / "examples" / "tmem_roundtrip.mlir").read_text(), conservative=True)
    lines = text.splitlines()
    use = next(i for i, line in enumerate(lines) if "vector.extract %back" in line)
    assert "tcgen05.wait load" in lines[use - 1] and "rule 0 (conservative register use)" in lines[use - 1]
    # The wait before the use already covers the handoff: still two waits.
    assert counts(text)[0] == 2
    assert diagnostics(module, conservative=True) == []


def test_ptx_94_pipelines_same_warp_pairs() -> None:
    """PTX 9.4 pipelines st->ld: the round trip needs no wait between them, only before the
    handoff (both the st and the ld are still outstanding there)."""
    text, module = inserted((ROOT / "examples" / "tmem_roundtrip.mlir").read_text(), ptx_version=(9, 4))
    lines = [line.strip() for line in text.splitlines()]
    st_at = next(i for i, line in enumerate(lines) if line.startswith("tcgen05.st"))
    assert lines[st_at + 1].startswith("%back = tcgen05.ld")
    assert counts(text) == (2, 4)
    assert diagnostics(module, ptx_version=(9, 4)) == []
    assert diagnostics(module), "the default PTX 8.6 rules still need wait::st between them"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n=st.integers(5, 60), nvvm=st.booleans())
def test_generated_kernels(seed: int, n: int, nvvm: bool) -> None:
    """Random kernels with loops, branches and barriers: after insertion tmem-verify reports
    nothing, the interpreter finds no misuse, and a second insertion changes nothing."""
    text, module = inserted(generate(n, nvvm=nvvm, seed=seed))
    assert diagnostics(module) == []
    again, _ = inserted(text)
    assert again == text
    result = run_kernel(text, args=[1, np.zeros(4096, np.int32)])
    assert result.ok and not result.warnings, [str(d) for d in result.diagnostics[:3]]


def test_insert_waits_reports_unanalysable_tmem_use() -> None:
    """Tile ops before lane assignment cannot get waits: a warning, never a silent pass."""
    module = parse(example_text("accumulator_readout"))
    with capture() as engine:
        get_passes()["tmem-insert-waits"]()().apply(make_context(), module)
    assert any(
        d.severity is Severity.WARNING and "run tmem-assign-lanes" in d.message for d in engine.diagnostics
    )
