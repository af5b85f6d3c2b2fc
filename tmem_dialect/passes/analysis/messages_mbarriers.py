"""Message texts of the mbarrier rules (rings, their parities, carried stages and phases, cluster arrivals, TMA refills): one section per FindingKind."""

from __future__ import annotations

from collections.abc import Callable

from tmem_dialect.findings import FindingKind
from tmem_dialect.memory_model import HANDOFF
from tmem_dialect.passes.analysis.messages_names import barrier_name, the_op_of_warp

# FindingKind.HANDOFF (ASYNC_PENDING for a ring's use of an async fill)


def ring_refill_race(filler: str, wf: int, stages: int, user: str, wu: int) -> str:
    """The filler refills a stage in iteration t + N that the user may still use from iteration t."""
    return (f"{filler} of warp {wf} refills stage t % {stages} in iteration t + {stages} while "
            f"{user} of warp {wu} may still use it from iteration t: {filler}'s "
            f"side never waits on a barrier that {user}'s side releases after its use ({HANDOFF.cite()})")


def ring_use_race(user: str, wu: int, stages: int, filler: str, wf: int) -> str:
    """The user of a stage does not wait, in its iteration, for the fill."""
    return (f"{user} of warp {wu} uses stage t % {stages} of iteration t while {filler} of "
            f"warp {wf} may still fill it: {user}'s side does not wait, in the same "
            f"iteration, on the barrier that {filler}'s fill releases ({HANDOFF.cite()})")


def early_release(earlier: str, we: int, wait: str, later: str, wl: int) -> str:
    """An arrive releases cells before its warp's wait for `earlier` (`wait`: wait::ld)."""
    return (f"this arrive releases TMEM cells that {earlier} of warp {we} may still be "
            f"accessing: warp {we} waits for it (tcgen05.{wait}) only after the arrive, "
            f"and {later} of warp {wl}, which observes this mbarrier, touches the same "
            f"cells ({HANDOFF.cite()})")


# FindingKind.DEADLOCK


def ring_parity_deadlock(stages: int) -> str:
    """Both sides of a ring wait with the plain parity."""
    return (f"this wait on stage t % {stages} of the ring has parity (t / {stages}) & 1, as "
            "does the other side's: in iteration t each side waits for the other's release of "
            "iteration t, which follows the other's own wait (deadlock); the side that fills "
            "the stages waits with the flipped parity ((t / N) & 1) ^ 1, which a fresh mbarrier "
            "passes at once")


def other_sides_wait() -> str:
    return "the other side's wait"


def cluster_starved(ctas: list[int], given: list[int] | None, needed: int | None) -> str:
    """A wait whose mbarrier in CTAs `ctas` gets `given` arrivals of `needed` (None: none at all)."""
    named = ", ".join(str(r) for r in ctas)
    if given is None:
        what = f"no arrive or commit of any CTA arrives on CTA {named}'s mbarrier"
    else:
        what = (f"of the {needed} arrivals its mbarrier.init asks for per phase, the cluster's releases "
                f"give CTA {named} only {', '.join(str(n) for n in given)} (threads of the "
                "releasing warps, in every CTA that runs them)")
    return (f"this wait never completes in CTA {named} of the cluster: {what} (a commit "
            "reaches other CTAs only with .multicast::cluster and their bits in the mask; an "
            "arrive, through mapa)")


def starved(given: int | None, needed: int | None) -> str:
    """A wait of a one-CTA kernel whose mbarrier gets `given` arrivals of `needed` (None: none)."""
    if given is None:
        what = "no arrive or commit arrives on its mbarrier (a TMA's complete_tx counts bytes, not arrivals)"
    else:
        what = (f"of the {needed} arrivals its mbarrier.init asks for per phase, the releases give only "
                f"{given} (threads of the releasing warps)")
    return f"this wait never completes: {what}"


def release_arrives(release: str, ctas: list[int] | None) -> str:
    """Note at a release that arrives on the mbarrier of `ctas` (None: its own CTA's)."""
    where = ("on its own CTA's mbarrier" if ctas is None else
             f"only on the mbarrier of CTA {', '.join(map(str, ctas))}")
    return f"{release} arrives {where}"


# FindingKind.UNPROVEN


def carried_unmatched(phase: bool, op_name: str, value: str, why: str) -> str:
    """The stage index (or, with `phase`, the phase) of an op is carried in `value`, not a ring's."""
    role = "the phase" if phase else "the stage index"
    return (f"cannot match {role} of this {op_name} with a ring of the common form: "
            f"it is carried by its loop in {value}, and {why}")


def stage_shifted(stages: int, ahead: int) -> str:
    """Why a carried stage is not a ring's: (t + ahead) % stages (a pipelined prologue)."""
    return (f"it is (t + {ahead}) % {stages}, {ahead} stage{'s' if ahead > 1 else ''} "
            "ahead of the loop's counter t (a pipelined prologue), which the ring rules do not match")


def stage_not_counter(described: str) -> str:
    return f"{described}, which is not the stage t % N of the loop's counter t"


def phase_not_parity(described: str) -> str:
    return f"{described}, which is not a phase parity (t / N) & 1 of the loop's counter t"


def next_value_here(value: str) -> str:
    return f"the loop makes the next value of {value} here"


def _carried_phase(value: str, what: str, stages: int) -> str:
    return (f"the phase this wait uses, carried in {value}, is not the parity of the "
            f"ring's round: {what}, while the wait's mbarrier (stage t % {stages}) completes a phase every "
            f"{stages} iteration{'s' if stages > 1 else ''}")


def phase_values(described: str, never_flips: bool, period: int | None) -> str:
    """What a carried phase is (`period`: it flips every so many iterations)."""
    return (f"{described} (it never flips)" if never_flips else
            f"{described}, flipping every {period} iterations" if period is not None else
            described)


def carried_phase_unproven(value: str, what: str, stages: int) -> str:
    return f"{_carried_phase(value, what, stages)}; cannot prove this wait observes the release it is for"


def _constant_phase(stages: int, parity: int) -> str:
    return (f"this wait on stage t % {stages} of the ring has the constant parity {parity & 1}, while its "
            f"mbarrier completes a phase every {stages} iteration{'s' if stages > 1 else ''}")


def constant_phase_unproven(stages: int, parity: int) -> str:
    return f"{_constant_phase(stages, parity)}; cannot prove this wait observes the release it is for"


def tma_not_a_ring(op_name: str, barrier: object | None, pointer: str | None) -> str:
    """A TMA load in a loop completing on `barrier` (a key; None: unnamed) via %`pointer`."""
    named = f"the mbarrier {barrier_name(barrier)}" if barrier is not None else "its mbarrier"
    pointer_text = f" (%{pointer})" if pointer else ""
    return (f"this {op_name} in a loop completes on {named}{pointer_text}, which is "
            "not the stage t % N of a ring of the common form (full[t % N] of a loop counter t): "
            "cannot prove it does not refill shared memory an mma of an earlier iteration still reads")


def _refill_unwaited(op_name: str, stages: int, empty: object | None, mma: str) -> str:
    empty_text = (f"on {barrier_name(empty)}[t % {stages}]" if empty is not None else
                  "on the barrier the mma's commit releases")
    return (f"this {op_name} refills stage t % {stages} of the ring in iteration t + {stages} without waiting, "
            f"before it in its iteration, {empty_text}: the {mma} of iteration t may still be "
            "reading the stage")


def refill_unwaited_unproven(op_name: str, stages: int, empty: object | None, mma: str) -> str:
    """The TMA refill of `_refill_unwaited` when the trip count is not a constant (`empty`: the one barrier)."""
    return (f"{_refill_unwaited(op_name, stages, empty, mma)} when the loop runs more than {stages} times "
            "(its trip count is not a constant)")


# FindingKind.MBARRIER_PHASE


def ring_stages_disagree(base: object, stages: int, other: int) -> str:
    return (f"this op indexes the mbarriers of '{base}' by t % {stages}, another by t % {other}: "
            "the two sides of a ring disagree on its number of stages")


def stages_here(stages: int) -> str:
    return f"t % {stages} here"


def ring_parity_flipped(stages: int) -> str:
    """The using side of a ring waits with the flipped parity, as the filling side does."""
    return (f"this wait on stage t % {stages} of the ring has the flipped parity "
            f"((t / {stages}) & 1) ^ 1, as does the filling side's: in iteration t it observes "
            f"the release of iteration t - {stages}, so the first {stages} iterations use their "
            "stage before it is filled; the side that uses the stages waits with "
            f"(t / {stages}) & 1")


def filling_sides_wait() -> str:
    return "the filling side's wait"


def carried_phase_repeats(value: str, what: str, stages: int, t: int) -> str:
    """Iterations t and t + stages wait on one mbarrier with one carried parity."""
    return (f"{_carried_phase(value, what, stages)}; iterations {t} and {t + stages} wait on the same mbarrier "
            "with the same parity, so the later one observes the phase the earlier one did (it passes before "
            "the release it waits for)")


def constant_phase_repeats(stages: int, parity: int) -> str:
    return (f"{_constant_phase(stages, parity)}: iterations 0 and {stages} wait on the same mbarrier with the "
            "same parity, so the later one observes the phase the earlier one did (it passes before the "
            "release it waits for; a phase register that is never flipped)")


# FindingKind.MBARRIER_UNINITIALIZED


def init_not_visible(op_name: str) -> str:
    """A use of an mbarrier that another warp initialized, with no barrier after the init."""
    return (f"this {op_name} uses an mbarrier that another warp initializes, and no barrier orders "
            "that mbarrier.init before it on any path: it may see the mbarrier uninitialized")


def the_init() -> str:
    return "the mbarrier.init"


def init_unfenced() -> str:
    """An mbarrier.init another CTA relies on, with a path to a cluster arrive and no fence."""
    return ("this mbarrier.init reaches a cluster barrier on some path without "
            "fence.mbarrier_init.release.cluster after it: another CTA of the cluster uses the "
            "mbarrier, and may see it uninitialized")


def used_from_another_cta(op_name: str) -> str:
    return f"the {op_name} from another CTA"


def init_unfenced_too() -> str:
    return "this mbarrier.init, used from another CTA, is not fenced either"


# FindingKind.ASYNC_PENDING


def fill_unwaited(mma: str, full: object, stages: int, load: str) -> str:
    """An mma in a TMA ring's loop that never waits on the ring's full barrier."""
    return (f"this {mma} runs in the ring's loop but does not wait, in its iteration, on "
            f"{barrier_name(full)}[t % {stages}], which the {load} completes: if it reads the stage "
            "that load fills, it may read it before the load has written it")


def filling_the_stage(load: str) -> str:
    return f"the {load} filling the stage"



def refill_untracked(op_name: str, stages: int, empty: object, mma: str) -> str:
    """A TMA refill after a wait on `empty`, which no commit of the reading mma releases."""
    return (f"this {op_name} refills stage t % {stages} of the ring after waiting on "
            f"{barrier_name(empty)}[t % {stages}], but nothing tracking the {mma} that reads the "
            f"stage releases that barrier: only a tcgen05.commit of the mma completes its phase after "
            f"the mma has read its operands, so the refill may overwrite them")


def refill_unwaited(op_name: str, stages: int, empty: object | None, mma: str, trips: int) -> str:
    return f"{_refill_unwaited(op_name, stages, empty, mma)} (the loop runs {trips} times, more than its {stages} stages)"


def reading_the_stage(mma: str) -> str:
    return f"the {mma} reading the stage"


def release_not_tracking(empty: object) -> str:
    return f"the release of {barrier_name(empty)}, which does not track the mma"


def commit_releasing(empty: object) -> str:
    return f"the commit releasing the stage on {barrier_name(empty)}"


MESSAGES: dict[FindingKind, tuple[Callable[..., str], ...]] = {
    FindingKind.HANDOFF: (ring_refill_race, ring_use_race, early_release, the_op_of_warp),
    FindingKind.DEADLOCK: (ring_parity_deadlock, other_sides_wait, cluster_starved, starved, release_arrives),
    FindingKind.UNPROVEN: (carried_unmatched, stage_shifted, stage_not_counter, phase_not_parity, next_value_here,
                           phase_values, carried_phase_unproven, constant_phase_unproven, tma_not_a_ring,
                           refill_unwaited_unproven, reading_the_stage, commit_releasing),
    FindingKind.MBARRIER_PHASE: (ring_stages_disagree, stages_here, ring_parity_flipped, filling_sides_wait,
                                 carried_phase_repeats, constant_phase_repeats, next_value_here, phase_values),
    FindingKind.MBARRIER_UNINITIALIZED: (init_not_visible, the_init, init_unfenced, used_from_another_cta,
                                         init_unfenced_too),
    FindingKind.ASYNC_PENDING: (ring_use_race, the_op_of_warp, refill_untracked, refill_unwaited, reading_the_stage,
                                release_not_tracking, commit_releasing, fill_unwaited, filling_the_stage),
}
