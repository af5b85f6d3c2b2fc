"""tmem-opt's command line as MLIR users expect it: tmem-first help, --list-passes, checked pass specs."""

from __future__ import annotations

import argparse
import dataclasses
import difflib
from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline

from tmem_dialect.tools.registry import project_passes

DESCRIPTION = """\
tmem-opt: parse, verify, transform and lower tcgen05 / NVVM kernels for Blackwell Tensor Memory.

  tmem-opt kernel.mlir -p tmem-pipeline                  assign lanes, insert waits, verify
  tmem-opt kernel.mlir -p tmem-pipeline -t ptx --ptxas-check   and emit PTX, checked by ptxas
  tmem-opt kernel.mlir -p tmem-pipeline,convert-tcgen05-to-nvvm   upstream NVVM MLIR (iree-opt)

Our passes: {passes} (--list-passes describes them and their options).
Every xDSL pass works in -p as well; `xdsl-opt --help` lists those."""

HELP_OVERRIDES = {
    "passes": "comma-separated pass pipeline, e.g. tmem-pipeline or "
              "'tmem-verify{conservative=true}' (see --list-passes)",
    "verify_diagnostics": "check the diagnostics against the input's expected-error/-warning/-note "
                          "annotations (as mlir-opt -verify-diagnostics); exit 1 on a mismatch",
    "parsing_diagnostics": "accepted for compatibility with xdsl-opt: tmem-opt always reports parse "
                           "errors as diagnostics at their line",
    "time_passes": "print how long each pass took (to stderr)",
    "print_between_passes": "print the IR after each pass but the last (to stderr)",
}


def tmem_first_help(parser: argparse.ArgumentParser, available: dict[str, Callable[[], type[ModulePass]]]) -> None:
    """Put our passes first in --help, and say what the options really do in tmem-opt."""
    parser.prog = "tmem-opt"
    parser.description = DESCRIPTION.format(passes=", ".join(project_passes()))
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    for action in parser._actions:  # noqa: SLF001 -- argparse has no public way to edit help
        if action.dest in HELP_OVERRIDES:
            action.help = HELP_OVERRIDES[action.dest]


def pass_options(cls: type[ModulePass]) -> list[tuple[str, str, str]]:
    """(option name as written in a spec, its type, its default) of each option of a pass."""
    out = []
    for f in dataclasses.fields(cls):
        if f.name.startswith("_"):
            continue
        default = f.default if f.default is not dataclasses.MISSING else "required"
        out.append((f.name.replace("_", "-"), str(f.type).replace("typing.", ""), repr(default).lower()
                    if isinstance(default, bool) else str(default)))
    return out


def _summary(cls: type) -> str:
    paragraph = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
    sentence = paragraph.split(". ")[0].rstrip(".")
    return f"{sentence}." if sentence else "(no description)"


def list_passes(available: dict[str, Callable[[], type[ModulePass]]]) -> str:
    """Our passes, each with its one-line description and its options."""
    lines = ["tmem-dialect passes (use in -p, options in braces: -p 'tmem-verify{conservative=true}'):", ""]
    for name in project_passes():
        cls = available[name]()
        lines.append(f"  {name}")
        lines.append(f"      {_summary(cls)}")
        for option, kind, default in pass_options(cls):
            lines.append(f"      {option}: {kind} (default {default})")
        lines.append("")
    others = len([n for n in available if n not in project_passes()])
    lines.append(f"and {others} xDSL passes (xdsl-opt --help lists them).")
    return "\n".join(lines)


def check_pipeline_spec(available: dict[str, Callable[[], type[ModulePass]]], spec: str) -> None:
    """Reject an unknown pass (with "did you mean") or a bad option value, naming the option."""
    from tmem_dialect.tools.opt import InputError

    if not spec:
        return
    for p in parse_pipeline(spec):
        if p.name not in available:
            close = difflib.get_close_matches(p.name, list(project_passes()) + list(available), n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise InputError(f"tmem-opt: error: unknown pass '{p.name}'{hint} (--list-passes lists ours)")
        cls = available[p.name]()
        names = {f.name.replace("_", "-") for f in dataclasses.fields(cls)}
        for option, values in p.parameters.items():
            written = option.replace("_", "-")
            if written not in names:
                close = difflib.get_close_matches(written, sorted(names), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                raise InputError(f"tmem-opt: error: pass '{p.name}' has no option '{written}'{hint} "
                                 f"(its options: {', '.join(sorted(names)) or 'none'})")
            single = ArgSpec(p.name, {option: values})
            try:
                cls.from_pass_spec(single)
            except ValueError as e:
                kind = next(k for o, k, _ in pass_options(cls) if o == written)
                shown = ", ".join(str(v) for v in values)
                expected = "true or false" if kind == "bool" else f"a value of type {kind}"
                raise InputError(f"tmem-opt: error: pass '{p.name}': option '{written}' takes {expected}, "
                                 f"got '{shown}'") from e
