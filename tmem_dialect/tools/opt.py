"""tmem-opt: the xDSL opt driver with our dialects, passes and targets, and MLIR-style diagnostics."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from tmem_dialect.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Severity,
    capture,
)
from tmem_dialect.dialects import all_dialects
from tmem_dialect.ir import parse_module, verify_or_raise
from tmem_dialect.tools import expected_diagnostics
from tmem_dialect.tools.registry import project_passes, project_targets

SPLIT_MARKER = "// -----"


class TmemOptMain(xDSLOptMain):
    """xdsl-opt with our registrations; runs each input chunk and reports diagnostics at ops."""

    version_format = "tmem-opt (tmem-dialect) built on xdsl {xdsl_version}"

    def register_all_dialects(self) -> None:
        dialects = dict(Universe.get_multiverse().all_dialects)
        dialects.update(all_dialects())
        for name, factory in dialects.items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in project_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        super().register_all_targets()
        self.available_targets.update(project_targets())

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        from tmem_dialect.tools.registry import register_target_arguments

        register_target_arguments(arg_parser)

    def setup_pipeline(self) -> None:
        def verify_between(
            previous: ModulePass | None, module: ModuleOp, following: ModulePass | None
        ) -> None:
            if previous is not None and not self.args.disable_verify:
                verify_or_raise(module)

        self.pipeline = PassPipeline.parse_spec(
            self.available_passes, self.args.passes, verify_between
        )

    def output_resulting_program(self, prog: ModuleOp) -> str:
        """Our targets also take their command-line options (--ptxas-check, --ptx-arch, ...)."""
        from io import StringIO

        from xdsl.utils.arg_spec import parse_spec

        from tmem_dialect.tools.registry import apply_target_arguments

        spec = parse_spec(self.args.target)
        if spec.name not in project_targets():
            return super().output_resulting_program(prog)
        target = apply_target_arguments(self.available_targets[spec.name]().from_spec(spec), self.args)
        output = StringIO()
        target.emit(self.ctx, prog, output)
        return output.getvalue()

    # ---- running ----------------------------------------------------------------------------

    def read_input(self) -> tuple[str, str]:
        name = self.args.input_file
        if name is None or name == "-":
            return sys.stdin.read(), "<stdin>"
        with open(name, "rb") as f:
            data = f.read()
        try:
            return data.decode("utf-8"), name
        except UnicodeDecodeError as e:
            raise InputError(
                f"error: input file '{name}' is not UTF-8 text "
                f"(byte 0x{data[e.start]:02x} at offset {e.start})"
            ) from None

    def chunks(self, text: str) -> list[tuple[str, int]]:
        if not self.args.split_input_file:
            return [(text, 0)]
        pieces = text.split(SPLIT_MARKER)
        out, line = [], 0
        for piece in pieces:
            out.append((piece, line))
            line += piece.count("\n")
        return out

    def process_chunk(self, text: str, name: str, line_offset: int) -> str:
        """Parse, verify, transform and emit one chunk; DiagnosticError on any failure."""
        module = parse_module(
            self.ctx, text, name, line_offset, not self.args.no_implicit_module
        )
        if not self.args.disable_verify:
            verify_or_raise(module)
        try:
            self.pipeline.apply(self.ctx, module)
        except DiagnosticError:
            raise
        except DiagnosticException as e:
            raise DiagnosticError([Diagnostic(Severity.ERROR, _first_line(e))]) from None
        try:
            return self.output_resulting_program(module)
        except DiagnosticError:
            raise
        except DiagnosticException as e:
            raise DiagnosticError([Diagnostic(Severity.ERROR, _first_line(e))]) from None

    def run(self) -> int:  # type: ignore[override]
        try:
            text, name = self.read_input()
        except OSError as e:
            print(f"error: could not open input file '{self.args.input_file}': {e.strerror}", file=sys.stderr)
            return 1
        except InputError as e:
            print(e, file=sys.stderr)
            return 1
        try:
            return self._run_on(text, name)
        except OSError as e:
            print(
                f"error: could not write output file '{self.args.output_file}': {e.strerror}",
                file=sys.stderr,
            )
            return 1

    def _run_on(self, text: str, name: str) -> int:
        outputs: list[str] = []
        diagnostics: list[Diagnostic] = []
        failed = False
        for chunk, offset in self.chunks(text):
            with capture() as engine:
                try:
                    outputs.append(self.process_chunk(chunk, name, offset))
                except DiagnosticError as e:
                    engine.diagnostics.extend(e.diagnostics)
                    failed = True
            diagnostics.extend(engine.diagnostics)

        if self.args.verify_diagnostics:
            problems = expected_diagnostics.check(text, name, diagnostics)
            for p in problems:
                print(p.render({name: text}), file=sys.stderr)
            self.write_output(SPLIT_MARKER.join(outputs) if not problems else None)
            return 1 if problems else 0

        for d in diagnostics:
            print(d.render({name: text}), file=sys.stderr)
        failed = failed or any(d.severity is Severity.ERROR for d in diagnostics)
        separator = SPLIT_MARKER + "\n"
        if self.args.output_file is None:
            sys.stdout.write(separator.join(outputs))
            sys.stdout.flush()
        elif not failed:
            self.write_output(separator.join(outputs))
        return 1 if failed else 0

    def write_output(self, content: str | None) -> None:
        """Write the result atomically; an error never leaves a partial output file behind."""
        if content is None:
            return
        path = self.args.output_file
        if path is None:
            sys.stdout.write(content)
            return
        directory = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmem-opt-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(content)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise


class InputError(Exception):
    """The input could not be read as MLIR text (the message is the whole diagnostic)."""


def _first_line(e: BaseException) -> str:
    text = str(e.args[0]) if e.args else str(e)
    return text.strip() or type(e).__name__


def run_tool(
    make: Callable[[Sequence[str] | None], object],
    tool_name: str,
    args: Sequence[str] | None = None,
) -> int:
    """Run a command-line tool; any unexpected Python exception becomes a one-line internal error."""
    try:
        tool = make(args)
        return tool.run()  # type: ignore[attr-defined]
    except DiagnosticError as e:
        for d in e.diagnostics:
            print(d.render(), file=sys.stderr)
        return 1
    except (ValueError, DiagnosticException) as e:
        print(f"{tool_name}: error: {_first_line(e)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 -- the tool's contract: never a traceback
        if os.environ.get("TMEM_TRACEBACK"):
            traceback.print_exc()
        print(
            f"{tool_name}: internal error: {type(e).__name__}: {_first_line(e)} "
            "(set TMEM_TRACEBACK=1 for the Python traceback, and please report it)",
            file=sys.stderr,
        )
        return 2


def main(args: Sequence[str] | None = None) -> None:
    sys.exit(run_tool(lambda a: TmemOptMain(args=a), "tmem-opt", args))


if __name__ == "__main__":
    main()
