"""Loop-carried ring registers (passes/carried.py): the closed form found for a carried stage or phase is the value the loop computes in every iteration, and the ring forms are found whenever they hold.

CUTLASS's PipelineState `(index, phase)` stepped with `++index; if (index == W) { index = 0;
phase ^= 1; }`, written with arith.select or with an scf.if yielding the pair, and Triton's
`phase ^= 1` (W = 1), in an scf.for from `lb`, are compared against the recurrence run here.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import scf

from tmem_dialect.dialects import make_context
from tmem_dialect.ir import parse_module
from tmem_dialect.passes.analysis.rings import scf_counter
from tmem_dialect.passes.carried import Carried, CarriedRings, Mismatch
from tmem_dialect.passes.cfg import CFG

TRIPS = 40


def _kernel(lb: int, i0: int, p0: int, wrap: int, form: str, flips: bool) -> str:
    flipped = "%f" if flips else "%ph"
    if form == "select":
        update = f"""
      %w = arith.cmpi eq, %s1, %cw : i32
      %s2 = arith.select %w, %c0_i32, %s1 : i32
      %f = arith.xori %ph, %c1_i32 : i32
      %ph2 = arith.select %w, {flipped}, %ph : i32
      scf.yield %s2, %ph2 : i32, i32"""
    else:
        update = f"""
      %w = arith.cmpi eq, %s1, %cw : i32
      %n:2 = scf.if %w -> (i32, i32) {{
        %f = arith.xori %ph, %c1_i32 : i32
        scf.yield %c0_i32, {flipped} : i32, i32
      }} else {{
        scf.yield %s1, %ph : i32, i32
      }}
      scf.yield %n#0, %n#1 : i32, i32"""
    return f"""
func.func @k() {{
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %cw = arith.constant {wrap} : i32
  %i0 = arith.constant {i0} : i32
  %p0 = arith.constant {p0} : i32
  %lb = arith.constant {lb} : index
  %ub = arith.constant {lb + TRIPS} : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %lb to %ub step %c1 iter_args(%s = %i0, %ph = %p0) -> (i32, i32) {{
      %s1 = arith.addi %s, %c1_i32 : i32{update}
  }}
  func.return
}}
"""


def _solve(text: str) -> tuple[Carried | Mismatch | None, Carried | Mismatch | None]:
    module = parse_module(make_context(), text, "carried.mlir")
    func = next(op for op in module.walk() if op.name == "func.func")
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    rings = CarriedRings(CFG(func), scf_counter, lambda _: None)
    index, phase = loop.body.block.args[1:]
    return rings.solve(index), rings.solve(phase)


def _run(i0: int, p0: int, wrap: int, flips: bool) -> tuple[list[int], list[int]]:
    """The recurrence itself: (index, phase) in iterations 0 .. TRIPS - 1."""
    index, phase, s, p = [], [], i0, p0
    for _ in range(TRIPS):
        index.append(s)
        phase.append(p)
        s += 1
        if s == wrap:
            s, p = 0, (p ^ 1 if flips else p)
    return index, phase


@settings(max_examples=60, deadline=None)
@given(lb=st.integers(0, 5), wrap=st.integers(1, 5), data=st.data(), p0=st.integers(0, 1),
       form=st.sampled_from(["select", "if"]), flips=st.booleans())
def test_closed_forms_are_the_loops_values(lb: int, wrap: int, data, p0: int, form: str, flips: bool) -> None:
    i0 = data.draw(st.integers(0, wrap - 1))
    index, phase = _solve(_kernel(lb, i0, p0, wrap, form, flips))
    want_index, want_phase = _run(i0, p0, wrap, flips)
    assert isinstance(index, Carried) and isinstance(phase, Carried)
    assert index.key == (lb, 1, lb + TRIPS) and index.first == lb
    for t in range(TRIPS):  # the solved sequences are the loop's
        assert index.values[t % len(index.values)] == want_index[t]
        assert phase.values[t % len(phase.values)] == want_phase[t]
    # A stage or parity is claimed only where it holds: t is the counter lb + iteration
    if (n := index.stage()) is not None:
        assert all(want_index[t] == (lb + t) % n for t in range(TRIPS))
    if (found := phase.parity()) is not None:
        n, flip = found
        assert all(want_phase[t] == flip ^ (((lb + t) // n) & 1) for t in range(TRIPS))
    # ... and is found whenever the state starts in step with the counter.
    if (i0 - lb) % wrap == 0:
        assert index.stage() == wrap
        if flips:
            assert phase.parity() == (wrap, p0 ^ (((i0 - lb) // wrap) & 1))
    if not flips:
        assert phase.parity() is None and set(phase.values) == {p0}


def test_a_value_that_never_returns_to_its_start_is_a_mismatch() -> None:
    # the index starts at 3 with a wrap at 2: 3, 4, 5, ... never wraps
    index, _ = _solve(_kernel(0, 3, 0, 2, "select", True))
    assert isinstance(index, Mismatch) and "does not repeat" in index.why


def test_an_update_from_outside_the_carried_values_is_a_mismatch() -> None:
    text = _kernel(0, 0, 0, 2, "select", True).replace("%s1 = arith.addi %s, %c1_i32", "%s1 = arith.addi %s, %x")
    text = text.replace("func.func @k() {", "func.func @k(%x: i32) {")
    index, _ = _solve(text)
    assert isinstance(index, Mismatch)
