"""The mbarrier rules' report on loop-carried stages and phases that are not a ring of the common form (carried.py): a warning naming the value and the op, or an error where the parity is provably wrong."""

from __future__ import annotations

from xdsl.ir import BlockArgument, Operation, SSAValue

from tmem_dialect.diagnostics import error, warning
from tmem_dialect.dialects.nvvm import constant_int
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import EffectKind
from tmem_dialect.passes.analysis import messages_mbarriers as text
from tmem_dialect.passes.analysis.messages_names import carried_name
from tmem_dialect.passes.analysis.ops import OpInfo, name_of
from tmem_dialect.passes.carried import Carried, CarriedRings, Mismatch
from tmem_dialect.passes.cfg import Loop
from tmem_dialect.passes.int_eval import BINARY_BY_NAME, CASTS

_SYNC = frozenset({EffectKind.COMMIT, EffectKind.MBARRIER_ARRIVE, EffectKind.MBARRIER_WAIT})


def _phase_source(phase: SSAValue) -> SSAValue:
    """The value a wait's parity is carried in: through casts and a `^ 1`."""
    while True:
        owner = phase.owner
        if isinstance(owner, Operation) and owner.name in CASTS and len(owner.operands) == 1:
            phase = owner.operands[0]
        elif isinstance(owner, Operation) and BINARY_BY_NAME.get(owner.name) == "xor" and len(owner.operands) == 2 \
                and constant_int(owner.operands[1]) == 1:
            phase = owner.operands[0]
        else:
            return phase


def _index_sources(pointer: SSAValue, depth: int = 8) -> list[BlockArgument]:
    """The block arguments an mbarrier address is computed from (GEP indices, integer adds,
    shifts and multiplies), where a ring keeps its stage."""
    found: list[BlockArgument] = []
    stack = [(pointer, 0)]
    while stack:
        value, d = stack.pop()
        if isinstance(value, BlockArgument):
            found.append(value)
            continue
        owner = value.owner
        if d >= depth or not isinstance(owner, Operation):
            continue
        if owner.name == "llvm.getelementptr" or owner.name in CASTS or BINARY_BY_NAME.get(owner.name) in (
                "add", "mul", "shl", "remu", "rems", "and"):
            stack.extend((o, d + 1) for o in owner.operands)
    return found


class CarriedRingRules:
    """Reports what carried.py could not match, at the mbarrier op that uses it."""

    _carried_rings: CarriedRings

    def _one_stage_ring(self, info: OpInfo, key: object | None) -> object | None:
        """A single mbarrier (a constant address) that a loop waits on with a carried phase
        flipping every iteration (Triton's `phase ^= 1`) is a ring of one stage: its ops in
        loops of that counter get the ring key (mbarrier, ("ring", counter, 1)), so that the
        release in iteration t completes phase t. Only when every release to it is in such a
        loop, one release op per loop (a release before the loop, or a second one in it, would
        shift the phases)."""
        if not isinstance(key, tuple) or not isinstance(key[1], int):
            return key
        counters = self._one_stage_counters().get(key)
        if not counters:
            return key
        for lp in self.cfg.loops_of(info.op):  # type: ignore[attr-defined]
            if (lk := self._loop_key(lp)) in counters:  # type: ignore[attr-defined]
                return (key, ("ring", lk, 1))
        return key

    def _one_stage_counters(self) -> dict[object, set[object]]:
        found = self.__dict__.get("_one_stage_memo")
        if found is not None:
            return found
        from tmem_dialect.passes.analysis.mbarriers import mbarrier_key

        waited: dict[object, set[object]] = {}
        releases: dict[object, list[OpInfo]] = {}
        for info in self.info_of.values():  # type: ignore[attr-defined]
            if info.kind not in _SYNC or info.effect is None or info.effect.mbarrier is None:
                continue
            key = mbarrier_key(info.effect.mbarrier, self._ring_counter)  # type: ignore[attr-defined]
            if not isinstance(key, tuple) or not isinstance(key[1], int):
                continue
            if info.kind is not EffectKind.MBARRIER_WAIT:
                releases.setdefault(key, []).append(info)
                continue
            phase = info.effect.phase
            carried = self._carried_rings.carried(_phase_source(phase)) if phase is not None else None
            if carried is not None and carried.parity() is not None and carried.parity()[0] == 1 \
                    and self._in_counter_loop(info, carried.key):
                waited.setdefault(key, set()).add(carried.key)
        found = {}
        for key, counters in waited.items():
            ops = releases.get(key, [])
            # Every release directly in a loop of the counter, one release op per loop (the
            # release in iteration t is then the t-th of its warp).
            innermost = [self.cfg.loops_of(r.op)[-1:] for r in ops]  # type: ignore[attr-defined]
            loops = [lp[0] if lp and self._loop_key(lp[0]) in counters else None for lp in innermost]  # type: ignore[attr-defined]
            ok = {lk for lk in counters if all(self._in_counter_loop(r, lk) for r in ops)}
            if ok and None not in loops and len(set(map(id, loops))) == len(loops):
                found[key] = ok
        self.__dict__["_one_stage_memo"] = found
        return found

    def _has_mbarrier_sync(self, loop: Loop) -> bool:
        return any(self.info_of[op].kind in _SYNC for n in loop.nodes for op in n.ops  # type: ignore[attr-defined]
                   if op in self.info_of)  # type: ignore[attr-defined]

    def _check_carried(self) -> None:
        for info in list(self.info_of.values()):  # type: ignore[attr-defined]
            if info.kind not in _SYNC or info.effect is None:
                continue
            if info.effect.mbarrier is not None:
                for arg in _index_sources(info.effect.mbarrier):
                    self._check_carried_stage(info, arg)
            if info.kind is EffectKind.MBARRIER_WAIT and info.effect.phase is not None:
                source = _phase_source(info.effect.phase)
                if isinstance(source, BlockArgument):
                    self._check_carried_phase(info, source)
                elif (c := constant_int(source)) is not None:
                    self._check_constant_phase(info, c)

    def _check_carried_stage(self, info: OpInfo, arg: BlockArgument) -> None:
        solved = self._carried_rings.solve(arg)
        if isinstance(solved, Carried) and solved.stage() is None and len(set(solved.values)) > 1:
            shifted = solved.shifted_stage()
            what = (text.stage_shifted(shifted[0], shifted[1]) if shifted is not None else
                    text.stage_not_counter(solved.describe()))
            self._carried_warning(info, solved.value, solved.update, what, phase=False)
        elif isinstance(solved, Mismatch) and self._mbarrier_of(info) is None:  # type: ignore[attr-defined]
            self._carried_warning(info, solved.value, solved.update, solved.why, phase=False)

    def _check_carried_phase(self, info: OpInfo, arg: BlockArgument) -> None:
        if self._chains.explains(info.op):  # type: ignore[attr-defined]
            return  # chains.py ran the carried values: the wait observes a release when it returns
        solved = self._carried_rings.solve(arg)
        if isinstance(solved, Mismatch):
            self._carried_warning(info, solved.value, solved.update, solved.why, phase=True)
            return
        if solved is None:
            return
        key = self._mbarrier_of(info)  # type: ignore[attr-defined]
        stages = key[1][2] if isinstance(key, tuple) and isinstance(key[1], tuple) and key[1][0] == "ring" else None
        if stages is None and key is not None and self._in_counter_loop(info, solved.key):
            stages = 1  # one mbarrier, waited on every iteration
        parity = solved.parity()
        if stages is None:
            if parity is None:
                self._carried_warning(info, solved.value, solved.update, text.phase_not_parity(solved.describe()),
                                      phase=True)
            return
        if parity is not None and parity[0] == stages:
            return  # the ring rules match it
        repeat = self._repeated_parity(solved, stages)
        what = text.phase_values(solved.describe(), len(set(solved.values)) == 1,
                                 parity[0] if parity is not None else None)
        name = carried_name(solved.value)
        if repeat is not None and self._trips(solved.key) is not None:
            diag = error(info.op, text.carried_phase_repeats(name, what, stages, repeat))
            kind = FindingKind.MBARRIER_PHASE
        else:
            diag = warning(info.op, text.carried_phase_unproven(name, what, stages))
            kind = FindingKind.UNPROVEN
        diag.attach_note(text.next_value_here(name), solved.update)
        self.findings.add(kind, ("carried-phase", info.op), diag)  # type: ignore[attr-defined]

    def _check_constant_phase(self, info: OpInfo, parity: int) -> None:
        """A ring stage waited on with a constant parity (a phase register that is never
        flipped, which the PTX front end folds to its initial value)."""
        key = self._mbarrier_of(info)  # type: ignore[attr-defined]
        if not (isinstance(key, tuple) and isinstance(key[1], tuple) and key[1][0] == "ring"):
            return
        stages, trips = key[1][2], self._trips(key[1][1])
        if trips is not None and trips > stages:
            diag = error(info.op, text.constant_phase_repeats(stages, parity))
            self.findings.add(FindingKind.MBARRIER_PHASE, ("carried-phase", info.op), diag)  # type: ignore[attr-defined]
        else:
            diag = warning(info.op, text.constant_phase_unproven(stages, parity))
            self.findings.add(FindingKind.UNPROVEN, ("carried-phase", info.op), diag)  # type: ignore[attr-defined]

    def _repeated_parity(self, carried: Carried, stages: int) -> int | None:
        """The first iteration t whose parity equals iteration t + stages' (both run), if any."""
        trips = self._trips(carried.key)
        values = carried.values
        limit = len(values) + stages if trips is None else min(trips - stages, len(values) + stages)
        for t in range(max(limit, 0)):
            if values[t % len(values)] == values[(t + stages) % len(values)]:
                return t
        return None

    def _trips(self, key: object) -> int | None:
        return self._ring_trips(key)  # type: ignore[attr-defined]

    def _in_counter_loop(self, info: OpInfo, key: object) -> bool:
        return any(self._loop_key(lp) == key for lp in self.cfg.loops_of(info.op))  # type: ignore[attr-defined]

    def _carried_warning(self, info: OpInfo, value: SSAValue, update: Operation, why: str, phase: bool) -> None:
        if self._chains.explains(info.op):  # type: ignore[attr-defined]
            return  # chains.py ran the carried values: each wait observes a release, or hangs
        diag = warning(info.op, text.carried_unmatched(phase, name_of(info), carried_name(value), why))
        diag.attach_note(text.next_value_here(carried_name(value)), update)
        self.findings.add(FindingKind.UNPROVEN, ("carried", info.op, phase), diag)  # type: ignore[attr-defined]
