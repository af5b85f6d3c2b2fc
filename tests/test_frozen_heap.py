"""frozen_heap: no cyclic collection while a pass runs, and the collector as it was after it: the
IR's reference cycles (op and result, block and op) made inside are still freed by later
collections, so a process that imports and verifies many kernels keeps a bounded heap."""

from __future__ import annotations

import gc
import weakref

from tmem_dialect.passes.analysis import frozen_heap


def _garbage_of(package: str, run) -> int:  # type: ignore[no-untyped-def]
    """How many objects of `package`'s own classes the cyclic collector frees after `run()`.
    (Only those: other tests' IR may become garbage meanwhile, through a cache that drops it.)"""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.disable()
    try:
        run()
        gc.collect()
    finally:
        gc.enable()
        gc.set_debug(0)
    found = sum(type(o).__module__.startswith(package) for o in gc.garbage)
    gc.garbage.clear()
    return found


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cyclic collector frees it


def test_no_collection_inside() -> None:
    assert gc.isenabled()
    before = gc.get_stats()[0]["collections"]
    with frozen_heap():
        assert not gc.isenabled()
        garbage = [_Node() for _ in range(5000)]  # past gen 0's threshold: would collect
        assert gc.get_stats()[0]["collections"] == before
        del garbage
    assert gc.isenabled()


def test_cycles_made_inside_are_freed_by_the_collectors_own_schedule() -> None:
    """No explicit gc.collect(): the automatic collections alone must reach what each pass
    left behind (a freeze/unfreeze on exit would hide it from them for good)."""
    refs = []
    for _ in range(60):
        with frozen_heap():
            garbage = [_Node() for _ in range(3000)]
            refs.append(weakref.ref(garbage[0]))
            del garbage
        for _ in range(3000):  # ordinary work after the pass: the collector runs on its own
            _Node()
    alive = sum(ref() is not None for ref in refs)
    assert alive < len(refs) // 2


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


def test_verify_leaves_no_cyclic_garbage() -> None:
    """tmem-verify releases its analysis (interned states, the CFG, memos holding its own bound
    methods) before it returns: reference counting frees it, and no collection has to scan it
    (13k objects per verify of dot.ptx before)."""
    from pathlib import Path

    from tmem_dialect.diagnostics import capture
    from tmem_dialect.frontend import import_ptx
    from tmem_dialect.passes.analysis import Options
    from tmem_dialect.passes.verify import verify_module

    path = Path(__file__).parent / "corpus" / "triton" / "dot.ptx"
    with capture():
        module = import_ptx(path.read_text(), str(path))
    verify_module(module, Options())  # first-use caches
    found: list = []
    assert _garbage_of("tmem_dialect.passes", lambda: found.extend(verify_module(module, Options()))) < 20
    assert found  # (dot.ptx has warnings: the analysis ran)


def test_import_leaves_no_cyclic_garbage() -> None:
    """The PTX importer unlinks its syntax tree's and SSA construction's graphs when the module
    is built: nothing of them is left for the cyclic collector (11k objects on dot.ptx before)."""
    from pathlib import Path

    from tmem_dialect.diagnostics import capture
    from tmem_dialect.frontend import import_ptx

    path = Path(__file__).parent / "corpus" / "triton" / "dot.ptx"
    text = path.read_text()
    with capture():
        import_ptx(text, str(path))  # first-use caches
    modules: list = []

    def run() -> None:
        with capture():
            modules.append(import_ptx(text, str(path)))

    assert _garbage_of("tmem_dialect.frontend", run) < 20
    assert modules[0].ops
