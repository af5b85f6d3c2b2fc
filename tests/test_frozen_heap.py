"""frozen_heap: no cyclic collection while a pass runs, and nothing of the program's own gc state
disturbed after it (the freeze a pre-fork server made stays; cycles made inside are collectable)."""

from __future__ import annotations

import gc
import weakref

from tmem_dialect.passes.analysis import frozen_heap


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cyclic collector frees it


def test_no_collection_inside_and_cycles_made_inside_are_collected_after() -> None:
    assert gc.isenabled()
    before = gc.get_stats()[0]["collections"]
    with frozen_heap():
        assert not gc.isenabled()
        garbage = [_Node() for _ in range(5000)]  # past gen 0's threshold: would collect
        ref = weakref.ref(garbage[0])
        assert gc.get_stats()[0]["collections"] == before
        del garbage
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert ref() is not None  # moved to the oldest generation, unscanned
    gc.collect()
    assert ref() is None


def test_the_programs_own_freeze_is_kept() -> None:
    kept = [_Node() for _ in range(10)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with frozen_heap():
            _Node()
        assert gc.get_freeze_count() == frozen and gc.isenabled()
    finally:
        gc.unfreeze()
    del kept


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        with frozen_heap():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
