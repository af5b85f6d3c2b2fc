"""The PTX front end: PTX text to the project's NVVM-level IR (llvm.func, llvm and nvvm ops, in SSA form)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from tmem_dialect.frontend.importer import ModuleImporter, Options
from tmem_dialect.frontend.syntax import parse_ptx

PTX_SUFFIXES = (".ptx",)


def import_ptx(
    text: str, filename: str = "<input>", *, allow_unmodelled: bool = False, line_offset: int = 0
) -> ModuleOp:
    """The module for PTX `text`; raises DiagnosticError (located at PTX lines) when it cannot.

    Warnings (opaque ops under `allow_unmodelled`) are emitted to the active diagnostics engine.
    """
    from tmem_dialect.diagnostics import Severity, emit
    from tmem_dialect.passes.analysis import frozen_heap

    with frozen_heap():  # one collection after the whole import, not one after parsing too
        module, diagnostics = _import(text, filename, allow_unmodelled, line_offset)
    for d in diagnostics:
        if d.severity is not Severity.ERROR:
            emit(d)
    return module


def _import(text: str, filename: str, allow_unmodelled: bool, line_offset: int):  # type: ignore[no-untyped-def]
    """The module and the importer's diagnostics. (The syntax tree and the importer are freed
    when this returns, by reference counting: the collection after frozen_heap scans the module
    only.)"""
    importer = ModuleImporter(parse_ptx(text, filename, line_offset), Options(allow_unmodelled))
    module = importer.run()
    importer.function_importers.clear()  # (they refer back to it)
    return module, importer.diagnostics


def is_ptx_input(filename: str | None, input_format: str | None) -> bool:
    """PTX by `--input-format ptx`, else by the file's extension."""
    if input_format is not None:
        return input_format == "ptx"
    return filename is not None and filename.endswith(PTX_SUFFIXES)


def get_passes():  # type: ignore[no-untyped-def]
    """The front end's passes (lift-inline-asm), imported lazily."""

    def lift() -> type:
        from tmem_dialect.frontend.lift_inline_asm import LiftInlineAsmPass

        return LiftInlineAsmPass

    return {"lift-inline-asm": lift}
