"""tmem-draw: pictures of TMEM without a run: an ld/st fragment map, or a kernel's tmem-assign-lanes plan."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tmem_dialect.tools.opt import InputError, decode_input, run_tool


def _int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None


class TmemDraw:
    """The tmem-draw command line."""

    def __init__(self, args: Sequence[str] | None = None):
        parser = argparse.ArgumentParser(
            prog="tmem-draw",
            description="Draw TMEM pictures (SVG or PNG, by the output's name; needs the 'pictures' extra: matplotlib).",
        )
        sub = parser.add_subparsers(dest="what", required=True, metavar="{fragment,plan}")
        frag = sub.add_parser("fragment", help="the fragment map of one tcgen05.ld/st form: TMEM lanes x "
                              "columns beside threads x registers")
        frag.add_argument("form", help="e.g. 16x128b.x4, 32x32b.x2.pack, st.16x64b.x1.unpack, 16x32bx2.x2")
        frag.add_argument("--offset", type=_int, default=None, help="16x32bx2: the immHalfSplitoff immediate "
                          "(added to the whole address: 16 columns is 16, 16 lanes is 1048576; default: the "
                          "access's width, halves side by side)")
        frag.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.svg or FILE.png")
        plan = sub.add_parser("plan", help="the messages tmem-assign-lanes gives each warp for each tile op")
        plan.add_argument("input_file", help="MLIR file with tcgen05.tile_load/tile_store ('-' for stdin)")
        plan.add_argument("--maxnreg", type=_int, default=None, help="as tmem-assign-lanes{maxnreg=N}")
        plan.add_argument("--regs-per-message", type=_int, default=None,
                          help="as tmem-assign-lanes{regs-per-message=N}")
        plan.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.svg or FILE.png")
        self.args = parser.parse_args(args)

    def run(self) -> int:
        from tmem_dialect.tools.pictures import canvas, require_matplotlib

        canvas.picture_format(self.args.output)  # a bad name is an error before any work
        require_matplotlib()
        if self.args.what == "fragment":
            from tmem_dialect.tools.pictures.fragment_map import draw_fragment, parse_form

            fig = draw_fragment(parse_form(self.args.form, self.args.offset))
        else:
            fig = self._plan()
            if fig is None:
                return 1
        try:
            canvas.save(fig, self.args.output)
        except OSError as e:
            raise InputError(f"tmem-draw: error: cannot write '{self.args.output}': {e.strerror or e}") from None
        return 0

    def _plan(self):
        from tmem_dialect.dialects import make_context
        from tmem_dialect.diagnostics import DiagnosticError
        from tmem_dialect.ir import parse_module, verify_diagnostics
        from tmem_dialect.passes.assign_lanes import AssignLanesPass
        from tmem_dialect.tools.pictures.plan_map import draw_plan, tile_pictures

        a = self.args
        name = a.input_file
        try:
            raw = sys.stdin.buffer.read() if name == "-" else open(name, "rb").read()
        except OSError as e:
            raise InputError(f"tmem-draw: error: could not open input file '{name}': {e.strerror}") from None
        name = "<stdin>" if name == "-" else name
        text = decode_input(raw, name)
        options = {}
        if a.maxnreg is not None:
            options["maxnreg"] = a.maxnreg
        if a.regs_per_message is not None:
            options["regs_per_message"] = a.regs_per_message
        budget = AssignLanesPass(**options).budget
        if budget < 1:
            raise ValueError(f"the register budget per message must be at least 1, got {budget}")
        try:
            module = parse_module(make_context(), text, name)
        except DiagnosticError as e:
            return self._report(e.diagnostics, name, text)
        if broken := verify_diagnostics(module):
            return self._report(broken, name, text)
        try:
            tiles, problems = tile_pictures(module, budget)
        except DiagnosticError as e:
            return self._report(e.diagnostics, name, text)
        if problems:
            return self._report(problems, name, text)
        if not tiles:
            raise ValueError(f"{name} has no tcgen05.tile_load or tcgen05.tile_store: there is no plan to draw")
        return draw_plan(tiles, os.path.basename(name), budget)

    @staticmethod
    def _report(diagnostics, name: str, text: str) -> None:
        for d in diagnostics:
            print(d.render({name: text}), file=sys.stderr)
        return None


def main(args: Sequence[str] | None = None) -> None:
    sys.exit(run_tool(lambda a: TmemDraw(a), "tmem-draw", args))


if __name__ == "__main__":
    main()
