"""Every message and note text of the TMEM analysis, keyed by FindingKind: the index of the messages_* modules.

The texts live in one module per rule family, each with one section per FindingKind (in the
enum's order) and one small function per message or note, which takes the facts its text names
(op names, warps, counts) and returns the text; the rule modules choose the kind, the severity
and the op, and take every word from there. `MESSAGES` maps each kind to the functions whose
text may be reported under it, in the enum's order.
"""

from __future__ import annotations

from collections.abc import Callable

from tmem_dialect.findings import FindingKind
from tmem_dialect.passes.analysis import (
    messages_allocations,
    messages_mbarriers,
    messages_names,
    messages_ordering,
    messages_warps,
)

FAMILIES = (messages_ordering, messages_allocations, messages_warps, messages_mbarriers)
"""The modules of message texts, one per rule family."""

FRAGMENTS: tuple[Callable[..., str], ...] = messages_names.FRAGMENTS
"""How messages name warps, values and mbarriers (shared by the families)."""


def _merged() -> dict[FindingKind, tuple[Callable[..., str], ...]]:
    merged: dict[FindingKind, tuple[Callable[..., str], ...]] = {}
    for kind in FindingKind:
        for family in FAMILIES:
            for function in family.MESSAGES.get(kind, ()):
                if function not in merged.get(kind, ()):
                    merged[kind] = (*merged.get(kind, ()), function)
    return merged


MESSAGES: dict[FindingKind, tuple[Callable[..., str], ...]] = _merged()
"""The functions whose text may be reported under each kind, in the enum's order."""


# Not a finding: a pass option the analysis cannot take (api.parse_options).


def bad_ptx_version(reason: str) -> str:
    """The ptx-version pass option does not name a PTX version with tcgen05 (`reason`: why)."""
    return f"option ptx-version: {reason}"
