"""op_types: the walk and the by-class index the passes scan with agree with xDSL's walk and isinstance."""

from __future__ import annotations

import json
from pathlib import Path

from xdsl.dialects import func, llvm, scf

from tmem_dialect.diagnostics import capture
from tmem_dialect.dialects.interfaces import has_tmem_effect, tmem_effect
from tmem_dialect.frontend import import_ptx
from tmem_dialect.op_types import OpIndex, walk_ops

CORPUS = Path(__file__).parent / "corpus"


def _modules():  # type: ignore[no-untyped-def]
    expected = json.loads((CORPUS / "expected.json").read_text())
    for path in sorted(CORPUS.glob("*/*.ptx")):
        allow = expected.get(str(path.relative_to(CORPUS)), {}).get("allow_unmodelled", False)
        with capture():
            yield path.name, import_ptx(path.read_text(), str(path), allow_unmodelled=allow)


def test_walk_ops_is_xdsl_walk() -> None:
    for name, module in _modules():
        assert walk_ops(module) == list(module.walk()), name
        for op in module.walk():
            if op.regions:
                assert walk_ops(op) == list(op.walk()), name


def test_index_selects_in_walk_order() -> None:
    classes = [
        llvm.GlobalOp, (func.FuncOp, llvm.FuncOp), (scf.ForOp, scf.WhileOp), (llvm.LoadOp, llvm.StoreOp),
    ]
    for name, module in _modules():
        ops = list(module.walk())
        index = OpIndex(ops)
        assert index.ops is ops
        for kind in classes:
            assert index.of(kind) == [op for op in ops if isinstance(op, kind)], (name, kind)
        nvvm = [op for op in ops if op.name.startswith("nvvm.")]
        assert index.named(lambda n: n.startswith("nvvm.")) == nvvm, name
        with_effect = [op for op in index.where(has_tmem_effect) if tmem_effect(op) is not None]
        assert with_effect == [op for op in ops if tmem_effect(op) is not None], name


def test_index_of_nothing() -> None:
    assert OpIndex([]).of(llvm.GlobalOp) == []

