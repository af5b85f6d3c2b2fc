"""tmem-opt: the xDSL opt driver with our dialects, passes and targets, and MLIR-style diagnostics."""

from __future__ import annotations

import argparse
import errno
import functools
import os
import stat
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.universe import Universe
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from tmem_dialect.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Severity,
    capture,
)
from tmem_dialect.version import __version__
from tmem_dialect.dialects import all_dialects
from tmem_dialect.ir import parse_module, verify_or_raise
from tmem_dialect.tools import expected_diagnostics, input_format
from tmem_dialect.tools.registry import project_passes, project_targets

SPLIT_MARKER = "// -----"


@functools.cache
def multiverse() -> Universe:
    """xDSL's registry of every installed dialect, pass and target, read once per process.

    Universe.get_multiverse() scans the installed packages' entry points on each call (about
    0.2 s), and xDSLOptMain asks three times per run.
    """
    return Universe.get_multiverse()


class TmemOptMain(xDSLOptMain):
    """xdsl-opt with our registrations; runs each input chunk and reports diagnostics at ops."""

    version_format = "tmem-opt (tmem-dialect {version}) built on xdsl {{xdsl_version}}".format(
        version=__version__
    )

    def register_all_dialects(self) -> None:
        dialects = dict(multiverse().all_dialects)
        dialects.update(all_dialects())
        for name, factory in dialects.items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        for name, factory in {**multiverse().all_passes, **project_passes()}.items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        for name, factory in multiverse().all_targets.items():
            self.available_targets.setdefault(name, factory)
        self.available_targets.update(project_targets())

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        from tmem_dialect.tools.cli_help import tmem_first_help
        from tmem_dialect.tools.registry import register_target_arguments

        register_target_arguments(arg_parser)
        arg_parser.add_argument(
            "--list-passes", action="store_true",
            help="list our passes with a one-line description and their options, then exit",
        )
        input_format.add_arguments(arg_parser)
        tmem_first_help(arg_parser, self.available_passes)

    def setup_pipeline(self) -> None:
        """The pass pipeline, verifying between passes (at the ops), and timing and printing
        between them as --time-passes and --print-between-passes ask (to stderr, as mlir-opt)."""
        from tmem_dialect.tools.cli_help import check_pipeline_spec

        check_pipeline_spec(self.available_passes, self.args.passes)
        started = time.perf_counter()

        def between(previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
            nonlocal started
            if previous is not None and self.args.time_passes:
                print(f"tmem-opt: pass '{previous.name}' took {time.perf_counter() - started:.4f} s",
                      file=sys.stderr)
            if previous is not None and not self.args.disable_verify:
                verify_or_raise(module)
            if previous is not None and following is not None and self.args.print_between_passes:
                print(f"// -----// IR after {previous.name} //----- //", file=sys.stderr)
                Printer(stream=sys.stderr).print_op(module)
                print(file=sys.stderr)
            started = time.perf_counter()

        self.pipeline = PassPipeline.parse_spec(self.available_passes, self.args.passes, between)

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
            return decode_input(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
        with open(name, "rb") as f:
            return decode_input(f.read(), name), name

    def chunks(self, text: str) -> list[tuple[str, int]]:
        if not self.args.split_input_file:
            return [(text, 0)]
        return split_input(text)

    def process_chunk(self, text: str, name: str, line_offset: int) -> str:
        """Parse, verify, transform and emit one chunk; DiagnosticError on any failure."""
        if input_format.is_ptx(self.args, self.args.input_file):
            module = input_format.import_ptx(self.args, text, name, line_offset)
        else:
            module = parse_module(self.ctx, text, name, line_offset, not self.args.no_implicit_module)
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

    def check_target_options(self) -> None:
        """Reject a bad target configuration once, before any chunk runs (not once per chunk)."""
        from xdsl.utils.arg_spec import parse_spec

        from tmem_dialect import isa
        from tmem_dialect.tools.registry import TARGET_ARGUMENTS, apply_target_arguments

        spec = parse_spec(self.args.target)
        if spec.name != "ptx":
            for option in TARGET_ARGUMENTS:
                if getattr(self.args, option, None) is not None:
                    flag = "--" + option.replace("_", "-")
                    print(
                        f"tmem-opt: warning: {flag} has no effect without -t ptx (the target is '{spec.name}')",
                        file=sys.stderr,
                    )
            return
        target = apply_target_arguments(self.available_targets[spec.name]().from_spec(spec), self.args)
        try:
            version = isa.parse_ptx_version(str(target.version))  # type: ignore[attr-defined]
        except ValueError as e:
            raise InputError(f"tmem-opt: error: -t ptx: {e}") from None
        if problem := isa.ptx_target_error(version, target.arch):  # type: ignore[attr-defined]
            raise InputError(f"tmem-opt: error: -t ptx: {problem}")
        if version > isa.MAX_PTX_VERSION:
            newest = "%d.%d" % isa.MAX_PTX_VERSION
            raise InputError(
                f"tmem-opt: error: -t ptx: version={version[0]}.{version[1]} is newer than PTX ISA "
                f"{newest}, the newest version this target emits (use version={newest} or older)"
            )

    def run(self) -> int:  # type: ignore[override]
        if self.args.list_passes:
            from tmem_dialect.tools.cli_help import list_passes

            print(list_passes(self.available_passes))
            return 0
        self.check_target_options()
        try:
            text, name = self.read_input()
        except OSError as e:
            print(f"error: could not open input file '{self.args.input_file}': {e.strerror}", file=sys.stderr)
            return 1
        except InputError as e:
            print(e, file=sys.stderr)
            return 1
        return self._run_on(text, name)

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
        """Write the result (see `write_file_atomically`); a failure is an error message."""
        if content is None:
            return
        path = self.args.output_file
        if path is None:
            sys.stdout.write(content)
            return
        try:
            write_file_atomically(path, content)
        except OSError as e:
            raise InputError(
                f"tmem-opt: error: could not write output file '{path}': {e.strerror or e}"
            ) from None


def write_file_atomically(path: str, content: str) -> None:
    """Write `content` to `path`; an error never leaves a partial output file behind.

    A regular file (or a new one) is written to a temporary beside it and renamed over it, through
    symlinks. Anything else that exists (/dev/null, /dev/stdout, a FIFO) is written in place:
    renaming over it would replace the device node or pipe with a regular file.
    """
    target = os.path.realpath(path)
    if os.path.exists(target) and not stat.S_ISREG(os.stat(target).st_mode):
        if stat.S_ISDIR(os.stat(target).st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        with open(target, "w", encoding="utf-8") as f:
            f.write(content)
        return
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmem-opt-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(content)
        if os.path.exists(target):
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def decode_input(data: bytes, name: str) -> str:
    """The input bytes as text; InputError (a one-line message) when they are not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise InputError(
            f"{name}:{line}:{column}: error: invalid UTF-8 byte 0x{data[e.start]:02x} "
            "(the input must be UTF-8 text)"
        ) from None


def split_input(text: str) -> list[tuple[str, int]]:
    """The pieces of a `--split-input-file` input with the line each starts at.

    A split marker is a line that is `// -----` (as in mlir-opt); the text in a comment that
    mentions the marker does not split.
    """
    out: list[tuple[str, int]] = []
    piece: list[str] = []
    start = line = 0
    for text_line in text.splitlines(keepends=True):
        if text_line.strip() == SPLIT_MARKER:
            out.append(("".join(piece), start))
            piece, start = [], line + 1
            # The marker line itself is blank in the piece after it, keeping line numbers.
            piece.append("\n")
            start -= 1
        else:
            piece.append(text_line)
        line += 1
    out.append(("".join(piece), start))
    return out


class InputError(Exception):
    """The input could not be read as MLIR text (the message is the whole diagnostic)."""


def _first_line(e: BaseException) -> str:
    text = str(e.args[0]) if e.args else str(e)
    return text.strip() or type(e).__name__


class OutputError(OSError):
    """Standard output could not be written (a full disk, a closed descriptor)."""


class _CheckedStdout:
    """sys.stdout, with write failures raised as OutputError (a broken pipe stays BrokenPipeError)."""

    def __init__(self, stream):
        self._stream = stream

    def _call(self, method: str, *args):
        if self._stream is None:
            raise OutputError(errno.EBADF, "standard output is closed")
        try:
            return getattr(self._stream, method)(*args)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as e:  # ValueError: "I/O operation on closed file"
            code = getattr(e, "errno", None) or errno.EBADF
            raise OutputError(code, os.strerror(code)) from None

    def write(self, text: str) -> int:
        return self._call("write", text)

    def flush(self) -> None:
        if self._stream is not None:
            self._call("flush")

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the exit-time flush is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass
    sys.stdout = None  # type: ignore[assignment]


def run_tool(
    make: Callable[[Sequence[str] | None], object],
    tool_name: str,
    args: Sequence[str] | None = None,
) -> int:
    """Run a command-line tool; any unexpected Python exception becomes a one-line internal error.

    Standard output that cannot be written ends the tool with a one-line error (exit 1); a reader
    that went away (`tmem-opt ... | head`) ends it quietly, with the status of a SIGPIPE (141).
    """
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 -- lives as long as the process
    real_stdout = sys.stdout
    sys.stdout = _CheckedStdout(real_stdout)  # type: ignore[assignment]
    try:
        code = _run_tool(make, tool_name, args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return 141
    except OutputError as e:
        print(f"{tool_name}: error: could not write to standard output: {e.strerror}", file=sys.stderr)
        if real_stdout is not None:
            _quiet_stdout()
        return 1
    finally:
        if isinstance(sys.stdout, _CheckedStdout):
            sys.stdout = real_stdout


def _run_tool(
    make: Callable[[Sequence[str] | None], object],
    tool_name: str,
    args: Sequence[str] | None,
) -> int:
    try:
        tool = make(args)
        return tool.run()  # type: ignore[attr-defined]
    except (BrokenPipeError, OutputError):
        raise
    except DiagnosticError as e:
        for d in e.diagnostics:
            print(d.render(), file=sys.stderr)
        return 1
    except InputError as e:
        print(e, file=sys.stderr)
        return 1
    except ArgSpecParseError as e:  # a BaseException in xDSL: `-p 'pass{'`, `-t 'ptx{'`
        detail = str(e).removeprefix("Error parsing pass pipeline specification:\n").rstrip()
        print(f"{tool_name}: error: malformed pass pipeline or target specification:\n{detail}", file=sys.stderr)
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
