"""The shipped examples run with the right output, and every pass and lowering preserves them.

Translation validation (tmem_dialect.interpreter.validation) runs each example before and after a
pass pipeline and compares the buffers bit for bit. Passes that are not registered yet are
skipped with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.passes import ModulePass

from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.interpreter.validation import PassUnavailable, validate

from example_sources import example_text

EXAMPLES = Path(__file__).parent.parent / "examples"


@dataclass
class Example:
    name: str
    args: Callable[[], list[np.ndarray]]
    check: Callable[[list[np.ndarray], list[np.ndarray]], None]  # (inputs, outputs after the run)
    has_waits: bool = False

    @property
    def text(self) -> str:
        return example_text(self.name)


def _ids(inputs, outputs):
    assert (outputs[0] == np.arange(128)).all()


def _chunked(inputs, outputs):
    t = np.arange(128)
    # thread t stores t + chunk into each of 8 chunks and adds them up: 8t + 28 in all 32 registers.
    assert (outputs[0].reshape(128, 32) == (8 * t + 28)[:, None]).all()


def _same_as_input(inputs, outputs):
    assert outputs[1].tobytes() == inputs[0].tobytes()


EXAMPLE_LIST = [
    Example("tmem_roundtrip", lambda: [np.zeros(128, np.int32)], _ids),
    Example("nvvm_roundtrip", lambda: [np.zeros(128, np.int32)], _ids, has_waits=True),
    Example("chunked_epilogue", lambda: [np.zeros(4096, np.int32)], _chunked),
    Example(
        "accumulator_readout",
        lambda: [np.random.default_rng(1).standard_normal(32768).astype(np.float32), np.zeros(32768, np.float32)],
        _same_as_input,
    ),
    Example(
        "m64_f16",
        lambda: [np.random.default_rng(2).standard_normal(4096).astype(np.float16), np.zeros(4096, np.float16)],
        _same_as_input,
    ),
]
TCGEN05_EXAMPLES = [e for e in EXAMPLE_LIST if not e.has_waits]


def _run(example: Example, source=None, **options):
    inputs = example.args()
    result = run_kernel(source if source is not None else example.text, kernel=example.name,
                        args=inputs, filename=f"{example.name}.mlir", **options)
    return inputs, result


def test_nvvm_example_runs_clean_with_the_right_output() -> None:
    example = EXAMPLE_LIST[1]
    inputs, result = _run(example)
    assert result.diagnostics == [], result.render()
    example.check(inputs, result.args)


@pytest.mark.parametrize("example", TCGEN05_EXAMPLES, ids=lambda e: e.name)
def test_examples_without_waits_report_the_missing_waits(example: Example) -> None:
    """As written (before tmem-pipeline) the examples race; the data still moves as programmed.

    An example that declares buffers runs as tmem-plan-columns allocated it: the dealloc then
    already waits for the loads, so only the store completion is missing; and not even that when
    the planner's wait::st for the dealloc sits before the read-back (chunked_epilogue: its store
    loop, then the load loop; rule 2 is served by the same wait)."""
    inputs, result = _run(example)
    if "tmem_plan_slot" not in example.text:
        missing = {FindingKind.STORE_COMPLETION, FindingKind.DEALLOC_OUTSTANDING}
    elif "tcgen05.wait store" in example.text:
        missing = set()
        assert result.diagnostics == [], result.render()
    else:
        missing = {FindingKind.STORE_COMPLETION}
    assert missing <= result.kinds(), result.render()
    example.check(inputs, result.args)


def test_the_racy_chunked_epilogue_reports_both_races() -> None:
    """examples/racy/chunked_epilogue.mlir, the example allocated by hand without waits (the
    demo of docs/pictures.md): the ld races the st, the dealloc every warp's outstanding access;
    the data still moves as programmed."""
    example = next(e for e in EXAMPLE_LIST if e.name == "chunked_epilogue")
    path = Path(__file__).parent.parent / "examples" / "racy" / "chunked_epilogue.mlir"
    inputs, result = _run(example, path.read_text())
    assert result.kinds() == {FindingKind.STORE_COMPLETION, FindingKind.DEALLOC_OUTSTANDING}, result.render()
    example.check(inputs, result.args)


def test_accumulator_tile_lands_row_by_row() -> None:
    """S[(128, 256) : (1@TLane, 1@TCol)] with the default fragment: thread i's row i is lane i."""
    example = next(e for e in EXAMPLE_LIST if e.name == "accumulator_readout")
    inputs, result = _run(example)
    cells = result.tmem[0][:, :256]
    assert (cells == inputs[0].view(np.uint32).reshape(128, 256)).all()


def test_m64_f16_tile_layout_value_by_value() -> None:
    """Element (row, col) of the 64x64 tile sits in lane 32*(row//16) + row%16, column col, low half.

    The fragment S[(4, 2, 8, 4, 4, 4) : (1@warpid, 4, 4@laneid, 8, 1@laneid, 1)] splits the flat
    index row*64+col into digits d0..d5: thread 32*d0 + 4*d2 + d4 holds it in register
    4*d1 + 8*d3 + d5, and thread T loaded registers in[32T .. 32T+31].
    """
    example = next(e for e in EXAMPLE_LIST if e.name == "m64_f16")
    inputs, result = _run(example)
    bits = inputs[0].view(np.uint16)
    tmem = result.tmem[0]
    for row in range(64):
        for col in range(64):
            flat = row * 64 + col
            d = [flat // 1024, (flat // 512) % 2, (flat // 64) % 8, (flat // 16) % 4, (flat // 4) % 4, flat % 4]
            thread = 32 * d[0] + 4 * d[2] + d[4]
            reg = 4 * d[1] + 8 * d[3] + d[5]
            lane = 32 * (row // 16) + row % 16
            assert int(tmem[lane, col]) & 0xFFFF == int(bits[thread * 32 + reg]), (row, col)


PASSES = [
    ("tmem-assign-lanes", "same"),
    ("tmem-insert-waits", "fixed"),
    ("tmem-assign-lanes,tmem-insert-waits", "fixed"),
    ("tmem-pipeline", "fixed"),
    ("convert-tcgen05-to-nvvm", "same"),
    ("tmem-assign-lanes,convert-tcgen05-to-nvvm", "same"),
    ("tmem-pipeline,convert-tcgen05-to-nvvm", "fixed"),
]


def _applies(example: Example, pipeline: str) -> bool:
    """Tile ops reach the other passes only after tmem-assign-lanes lowered them."""
    return not pipeline.startswith(("convert-tcgen05-to-nvvm", "tmem-insert-waits")) or (
        "tile_store" not in example.text
    )


VALIDATIONS = [
    pytest.param(example, pipeline, policy, id=f"{example.name}-{pipeline}")
    for example in TCGEN05_EXAMPLES
    for pipeline, policy in PASSES
    if _applies(example, pipeline)
]


@pytest.mark.parametrize("example,pipeline,policy", VALIDATIONS)
def test_translation_validation(example: Example, pipeline: str, policy: str) -> None:
    inputs = example.args()
    v = validate(example.text, pipeline, kernel=example.name, args=inputs, errors=policy)
    assert v.ok, "\n".join(v.differences)
    example.check(inputs, v.after.args)
    if policy == "fixed":
        assert v.after.diagnostics == [], v.after.render()


class ShiftLanesWrong(ModulePass):
    """A deliberately wrong 'pass': lane offsets (quarter << 21) become quarter << 22."""

    name = "shift-lanes-wrong"

    def apply(self, ctx, op) -> None:
        for o in op.walk():
            if isinstance(o, arith.ConstantOp) and isinstance(o.value, IntegerAttr) and o.value.value.data == 21:
                o.properties["value"] = IntegerAttr(22, o.value.type)


class DropWaits(ModulePass):
    """A deliberately wrong 'pass': removes every nvvm.tcgen05.wait."""

    name = "drop-waits"

    def apply(self, ctx, op) -> None:
        for o in list(op.walk()):
            if o.name == "nvvm.tcgen05.wait":
                o.detach()
                o.erase()


def test_validation_catches_wrong_data() -> None:
    example = next(e for e in EXAMPLE_LIST if e.name == "chunked_epilogue")
    v = validate(example.text, "shift-lanes-wrong", kernel=example.name, args=example.args(),
                 extra_passes={"shift-lanes-wrong": lambda: ShiftLanesWrong})
    assert not v.ok
    assert any("argument 0 differs" in d for d in v.differences), v.differences


def test_validation_catches_new_races() -> None:
    example = next(e for e in EXAMPLE_LIST if e.name == "nvvm_roundtrip")
    v = validate(example.text, "drop-waits", kernel=example.name, args=example.args(),
                 extra_passes={"drop-waits": lambda: DropWaits})
    assert not v.ok
    assert any("findings differ" in d for d in v.differences), v.differences
    assert v.before.ok and not v.after.ok


def test_identity_pipeline_validates() -> None:
    example = next(e for e in EXAMPLE_LIST if e.name == "tmem_roundtrip")
    v = validate(example.text, "canonicalize", kernel=example.name, args=example.args())
    assert v.ok, v.differences


def test_unknown_pass_is_reported_as_unavailable() -> None:
    with pytest.raises(PassUnavailable):
        validate(EXAMPLE_LIST[0].text, "no-such-pass", kernel="tmem_roundtrip", args=EXAMPLE_LIST[0].args())
