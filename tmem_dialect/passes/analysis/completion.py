"""Same-thread completion: rules 1, 2 and 4 within one warp (tcgen05.wait::ld / wait::st), and conservative register use."""

from __future__ import annotations

from tmem_dialect.diagnostics import error, note, warning
from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import (
    REGISTER_USE,
    EffectKind,
    Requirement,
    Wait,
    retired_by,
    same_thread_requirement,
)
from tmem_dialect.passes.analysis import messages_ordering as text
from tmem_dialect.passes.analysis.messages_names import access_verb, name_unknown
from tmem_dialect.passes.analysis.ops import OpInfo, name_of
from tmem_dialect.passes.analysis.state import Access, Local
from tmem_dialect.passes.cells import Certainty, overlap_at_distance
from tmem_dialect.passes.cfg import Loop
from tmem_dialect.passes.forms import Form, Sym

MAX_ENUMERATED = 512


def induction_values(sym: Sym, limit: int = MAX_ENUMERATED, structured_only: bool = True) -> list[int] | None:
    """Every value an induction variable with constant bounds takes, at most `limit` of them
    (None: unknown or too many); `structured_only`: of an scf.for with a constant trip count."""
    loop = sym.induction_of
    if loop is None or not sym.step or sym.step < 0 or not sym.bounded:
        return None
    if structured_only and (loop.op is None or loop.op.name != "scf.for" or loop.trip_count is None):
        return None
    values = range(sym.lo, sym.hi + 1, sym.step)  # type: ignore[arg-type]
    return list(values) if 0 < len(values) <= limit else None  # len() of a range is O(1): no list of 2^31


def combinations(variables: list[tuple[list[int], int]]) -> list[int] | None:
    """All sums of coeff * value over the variables' value lists (None when too many)."""
    sums = [0]
    for values, coeff in variables:
        sums = [s + coeff * v for s in sums for v in values]
        if len(sums) > MAX_ENUMERATED:
            return None
    return sums


class SameThreadRules:
    """Rules 1, 2 and 4 within one warp, and conservative register use."""

    def _same_thread(self, info: OpInfo, local: Local, mask: int) -> Local:
        if not local.outstanding:
            return local
        assert info.kind is not None
        conflicts: dict[Wait, list[tuple[Access, Certainty, Requirement]]] = {}
        needs = self._requirements_after(info.kind)
        for access in local.outstanding:
            req = needs.get(access.info.op.name) if needs else None
            if req is None:
                continue
            certainty = self._same_thread_overlap(access, info, mask)
            if certainty is not Certainty.NONE:
                conflicts.setdefault(req.wait, []).append((access, certainty, req))
        for wait, found in sorted(conflicts.items(), key=lambda kv: kv[0].value):
            definite = [f for f in found if f[1] is Certainty.DEFINITE]
            if self._report:
                self._report_same_thread(info, found)
            if self.options.insert or definite:
                rule = (definite or found)[0][2].rule
                anchor = self._wait_position(info, wait, [a for a, _, _ in found], local)
                local = self._place_wait(anchor, info, wait, rule, local)
        return local

    def _requirements_after(self, later: EffectKind) -> dict[str, Requirement]:
        """By op name (a cheap key) of an outstanding access, the wait `later` needs after it."""
        found = self._requirements.get(later)
        if found is None:
            found = {}
            for op_name, earlier in self._access_kinds.items():
                req = same_thread_requirement(earlier, later, self.options.ptx_version)
                if req is not None and req.wait is not None:
                    found[op_name] = req
            self._requirements[later] = found
        return found

    def _same_thread_overlap(self, access: Access, info: OpInfo, mask: int) -> Certainty:
        key = (access, info, mask)
        found = self._distance_memo.get(key)
        if found is None:
            found = self._distance_overlap(access, info, mask)
            self._distance_memo[key] = found
        return found

    def _distance_overlap(self, access: Access, info: OpInfo, mask: int) -> Certainty:
        earlier = access.info
        if earlier.rects is None or info.rects is None:
            return Certainty.MAY
        if earlier.anchor is None or info.anchor is None:
            return Certainty.MAY
        if earlier.slot is not None and info.slot is not None and earlier.slot != info.slot:
            return Certainty.NONE  # two live allocations never share cells
        if (
            earlier.box is not None
            and info.box is not None
            and earlier.anchor == info.anchor
            and not earlier.box.meets(info.box)
        ):
            return Certainty.NONE  # every value the addresses can take keeps them apart
        if access.stale:
            return Certainty.MAY
        assert earlier.rest is not None and info.rest is not None
        terms = dict(info.terms)
        for sym, c in earlier.terms.items():
            terms[sym] = terms.get(sym, 0) - c
        diff = Form(info.rest.const - earlier.rest.const, tuple((t, c) for t, c in terms.items() if c))
        extra_lo: int | None = 0
        extra_hi: int | None = 0
        shifted = False
        for sym, lo, hi in access.shifts:
            c = earlier.terms.get(sym, 0)
            if not c:
                continue
            shifted = True
            a = c * lo
            b = c * hi if hi is not None else None
            if b is None:
                if c > 0:
                    extra_lo = None if extra_lo is None else extra_lo + a
                    extra_hi = None
                else:
                    extra_hi = None if extra_hi is None else extra_hi + a
                    extra_lo = None
            else:
                extra_lo = None if extra_lo is None else extra_lo + min(a, b)
                extra_hi = None if extra_hi is None else extra_hi + max(a, b)
        ranged = False
        for sym, c in diff.terms:
            if not sym.bounded:
                return Certainty.MAY
            a, b = c * sym.lo, c * sym.hi  # type: ignore[operator]
            ranged = True
            extra_lo = None if extra_lo is None else extra_lo + min(a, b)
            extra_hi = None if extra_hi is None else extra_hi + max(a, b)
        best = Certainty.NONE
        if isinstance(diff.const, int):
            consts = [(diff.const, diff.const)]
        else:
            lo_arr, hi_arr = self.space.warp_min_max(diff.const)
            consts = [(int(lo_arr[w]), int(hi_arr[w])) for w in self.space.warps(mask)]
        for c_lo, c_hi in consts:
            d_lo = None if extra_lo is None else c_lo + extra_lo
            d_hi = None if extra_hi is None else c_hi + extra_hi
            found = overlap_at_distance(d_lo, d_hi, earlier.rects, info.rects)
            if found is Certainty.MAY and shifted and not ranged and d_lo is not None:
                # The nearest earlier iteration (distance lo) is a real one when the loop
                # repeats: overlapping there is definite.
                if overlap_at_distance(d_lo, d_lo, earlier.rects, info.rects) is Certainty.DEFINITE:
                    found = Certainty.DEFINITE if self._repeats(access) else found
            if found is Certainty.MAY and ranged and not shifted and c_lo == c_hi:
                if self._overlaps_for_every_iteration(access, info, diff, c_lo):
                    found = Certainty.DEFINITE
            best = max(best, found)
            if best is Certainty.DEFINITE:
                break
        return best

    def _overlaps_for_every_iteration(self, access: Access, info: OpInfo, diff: Form, const: int) -> bool:
        """Definite for loops over chunks: the earlier access ran in loops that have finished
        (every iteration's instance still outstanding: no retiring wait in them), and for every
        iteration of the loops around `info` some earlier instance overlaps exactly."""
        earlier = access.info
        assert earlier.rects is not None and info.rects is not None
        here = set(self.cfg.loops_of(info.op))
        later_vars: list[tuple[list[int], int]] = []
        earlier_vars: list[tuple[list[int], int]] = []
        for sym, c in diff.terms:
            values = induction_values(sym)
            loop = sym.induction_of
            if values is None or loop is None:
                return False
            if sym in info.terms and sym not in earlier.terms and loop in here:
                later_vars.append((values, c))
            elif sym in earlier.terms and sym not in info.terms and loop not in here:
                if access.kind in self._loop_waits(loop):
                    return False
                earlier_vars.append((values, c))
            else:
                return False
        later_sums = combinations(later_vars)
        earlier_sums = combinations(earlier_vars)
        if later_sums is None or earlier_sums is None:
            return False
        return all(
            any(
                overlap_at_distance(const + a + b, const + a + b, earlier.rects, info.rects)
                is Certainty.DEFINITE
                for b in earlier_sums
            )
            for a in later_sums
        )

    def _loop_waits(self, loop: Loop) -> set[EffectKind]:
        """The access kinds a wait somewhere inside `loop` retires."""
        found = self._waits_in.get(loop)
        if found is None:
            found = set()
            for node in loop.nodes:
                for i in self.infos[node]:
                    if i.kind in (EffectKind.WAIT_LD, EffectKind.WAIT_ST):
                        found.add(retired_by(i.kind))
            self._waits_in[loop] = found  # type: ignore[assignment]
        return found  # type: ignore[return-value]

    def _repeats(self, access: Access) -> bool:
        for sym, _, _ in access.shifts:
            loop = sym.induction_of
            op = loop.op if loop is not None else None
            if op is None or loop is None or (loop.trip_count or 0) < 2:
                return False
        return True

    def _report_same_thread(self, info: OpInfo, found: list[tuple[Access, Certainty, Requirement]]) -> None:
        definite = [f for f in found if f[1] is Certainty.DEFINITE]
        access, certainty, req = (definite or found)[0]
        earlier = access.info
        assert req.wait is not None
        wait = req.wait.value
        reads = access.kind is EffectKind.LD
        if certainty is Certainty.DEFINITE:
            if info.kind is EffectKind.DEALLOC:
                message = text.same_thread_dealloc(name_of(info), name_of(earlier), reads, wait, req.rule)
            else:
                message = text.same_thread(name_of(info), access_verb(info.kind), name_of(earlier), reads, wait,
                                           req.rule)
            diag = error(info.op, message)
        else:
            diag = warning(info.op, text.same_thread_unproven(name_of(info), name_of(earlier), wait, req.rule,
                                                              name_unknown(info.rest, earlier.rest)))
        diag.attach_note(text.the_outstanding(name_of(earlier)), earlier.op)
        self.findings.add(FindingKind.of_rule(req.rule), ("same-thread", info.op, req.wait), diag)

    def _register_use(self, info: OpInfo, local: Local, mask: int) -> Local:
        pending = [a for a in local.outstanding if a.info.op in info.lds_used]
        if not pending:
            return local
        if self._report:
            diag = note(info.op, text.register_use())
            diag.attach_note(text.the_ld(), pending[0].info.op)
            self.findings.add(FindingKind.REGISTER_USE, ("register-use", info.op), diag)
        anchor = self._wait_position(info, Wait.LD, pending, local)
        return self._place_wait(anchor, info, Wait.LD, REGISTER_USE, local)
