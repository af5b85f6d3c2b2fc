"""tmem-run: run a kernel on the interpreter's TMEM machine model; print its buffers and diagnostics."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence

import numpy as np

from tmem_dialect import isa
from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, Severity
from tmem_dialect.version import __version__
from tmem_dialect.memory_model import rules_version
from tmem_dialect.tools import expected_diagnostics, input_format
from tmem_dialect.tools.opt import InputError, _first_line, decode_input, run_tool
from tmem_dialect.tools.pictures import run_map
from xdsl.utils.exceptions import DiagnosticException

_DTYPES = {
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
}
ARG_HELP = (
    "a kernel argument, in parameter order: TYPE:SIZE for a zero-filled buffer, TYPE:SIZE=iota "
    "or TYPE:SIZE=VALUE to fill it, TYPE=VALUE for a scalar (TYPE: " + ", ".join(_DTYPES) + "), or "
    "tensormap:buffer=ARG,type=T,dims=D0xD1..,box=B0xB1..[,strides=S1x..][,swizzle=none|32B|64B|128B|"
    "128B_atom_32B][,offset=BYTES] for a tensor map over the buffer of argument ARG (dimension 0 first), "
    "with fill=iota|VALUE instead of buffer=ARG for a map that owns its tensor (CuTe's TMA tensors); "
    "without any --arg, statically shaped memref parameters are zero-filled"
)


MAX_BUFFER_ELEMENTS = 1 << 28  # 1 GiB of f32: far above any kernel the interpreter can run


def parse_arg(spec: str):
    """`i32:128`, `f32:64=iota`, `i32:4=7`, `i64=3` -> the numpy value; `tensormap:...` -> a
    TensorMap (ValueError when malformed)."""
    if spec.startswith("tensormap:"):
        from tmem_dialect.interpreter.tensor_map import parse_tensor_map

        return parse_tensor_map(spec)
    head, eq, init = spec.partition("=")
    type_name, colon, size_text = head.partition(":")
    if type_name not in _DTYPES:
        raise ValueError(f"argument '{spec}': unknown element type '{type_name}' (use one of {', '.join(_DTYPES)})")
    dtype = np.dtype(_DTYPES[type_name])
    if not colon:
        if not eq:
            raise ValueError(f"argument '{spec}': a scalar needs a value (TYPE=VALUE), a buffer a size (TYPE:SIZE)")
        return dtype.type(_element(init, spec, type_name, dtype))
    if not (size_text.isascii() and size_text.isdigit()) or int(size_text) <= 0:
        raise ValueError(f"argument '{spec}': the size must be a positive integer")
    size = int(size_text)
    if size > MAX_BUFFER_ELEMENTS:
        raise ValueError(f"argument '{spec}': {size} elements is too large a buffer (at most {MAX_BUFFER_ELEMENTS})")
    if not eq:
        return np.zeros(size, dtype=dtype)
    if init == "iota":
        iota = np.arange(size)
        if dtype.kind in "iu" and size - 1 > np.iinfo(dtype).max:
            raise ValueError(f"argument '{spec}': iota up to {size - 1} does not fit in {type_name}")
        return iota.astype(dtype)
    return np.full(size, _element(init, spec, type_name, dtype), dtype=dtype)


def _element(text: str, spec: str, type_name: str, dtype: np.dtype) -> float | int | bool:
    """The fill or scalar value, checked to be representable in the element type exactly."""
    value = _number(text, spec)
    if dtype.kind == "b":
        if value not in (0, 1):
            raise ValueError(f"argument '{spec}': an i1 value is 0 or 1, got '{text}'")
        return bool(value)
    if dtype.kind in "iu":
        if isinstance(value, float):
            if not value.is_integer():
                raise ValueError(f"argument '{spec}': '{text}' is not an integer ({type_name} elements)")
            value = int(value)
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise ValueError(f"argument '{spec}': {text} does not fit in {type_name} ({info.min} .. {info.max})")
        return value
    as_float = float(value)
    with np.errstate(over="ignore"):
        overflows = np.isfinite(as_float) and not np.isfinite(dtype.type(as_float))
    if overflows:
        raise ValueError(f"argument '{spec}': {text} overflows {type_name}")
    return as_float


def _number(text: str, spec: str) -> float | int:
    try:
        return int(text, 0)
    except ValueError:
        try:
            return float(text)
        except (ValueError, OverflowError):
            raise ValueError(f"argument '{spec}': '{text}' is not a number or 'iota'") from None


def _buffer_text(index: int, value, full: bool) -> str:
    from tmem_dialect.interpreter.tensor_map import TensorMap

    if isinstance(value, TensorMap):
        over = "its own tensor" if value.data is not None else f"arg{value.buffer}"
        return f"arg{index}: tensor map over {over} ({value.dtype}, dims {value.dims}, box {value.box})"
    arr = np.asarray(value)
    if full:
        with np.printoptions(threshold=sys.maxsize, linewidth=100):
            body = np.array2string(arr)
    else:
        with np.printoptions(threshold=64, edgeitems=8, linewidth=100):
            body = np.array2string(arr)
    return f"arg{index}: {arr.dtype}[{arr.size}] = {body}"


def _json_values(value) -> object:
    """A buffer as JSON: NaN and infinities (which strict JSON has not) as "nan", "inf", "-inf"."""
    from dataclasses import asdict

    from tmem_dialect.interpreter.tensor_map import TensorMap

    if isinstance(value, TensorMap):
        return {"tensor_map": {k: v for k, v in asdict(value).items() if k != "data"}}  # (the CLI's maps have none)
    arr = np.asarray(value)
    if arr.dtype.kind != "f" or np.isfinite(arr).all():
        return arr.tolist()

    def convert(x):
        if isinstance(x, list):
            return [convert(y) for y in x]
        return x if np.isfinite(x) else ("nan" if np.isnan(x) else ("inf" if x > 0 else "-inf"))

    return convert(arr.tolist())


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _diagnostic_json(d: Diagnostic) -> dict:
    return {
        "severity": d.severity.value,
        "message": d.message,
        "location": str(d.location) if d.location else None,
        "notes": [_diagnostic_json(n) for n in d.notes],
    }


def _cascade_key(d: Diagnostic) -> tuple:
    """Findings of one cause at one op differ only in their warp, thread, lane or column numbers."""
    return (str(d.location), d.severity, re.sub(r"\d+", "#", d.message))


def summarize(diagnostics: list[Diagnostic]) -> tuple[list[tuple[Diagnostic, int]], str]:
    """(each distinct finding with how many more of the same cascade followed it, the summary line)."""
    groups: dict[tuple, list[Diagnostic]] = {}
    for d in diagnostics:
        groups.setdefault(_cascade_key(d), []).append(d)
    shown = [(g[0], len(g) - 1) for g in groups.values()]
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = sum(d.severity is Severity.WARNING for d in diagnostics)
    plural = lambda n, w: f"{n} {w}{'' if n == 1 else 's'}"  # noqa: E731
    return shown, f"tmem-run: {plural(errors, 'error')}, {plural(warnings, 'warning')}"


def _xdsl_version() -> str:
    from importlib.metadata import version

    return version("xdsl")


def _findings_json(result, severity: Severity) -> list[dict]:
    """The findings of one severity; each names its kind by the FindingKind's stable spelling."""
    return [{"kind": f.kind.value, **_diagnostic_json(f.diagnostic)}
            for f in result.findings if f.diagnostic.severity is severity]


class TmemRun:
    """The tmem-run command line."""

    def __init__(self, args: Sequence[str] | None = None):
        parser = argparse.ArgumentParser(
            prog="tmem-run",
            description="Run a tcgen05 or NVVM kernel on an exact model of Tensor Memory and report misuse.",
        )
        parser.add_argument("input_file", help="MLIR file ('-' for stdin)")
        parser.add_argument("--version", action="version",
                            version=f"tmem-run (tmem-dialect {__version__}) built on xdsl {_xdsl_version()}")
        parser.add_argument("--kernel", help="kernel function (default: the only kernel in the file)")
        parser.add_argument("--threads", type=int, help="threads per CTA (default: the kernel's reqntid)")
        parser.add_argument("--arg", action="append", default=[], metavar="SPEC", help=ARG_HELP)
        parser.add_argument("--cta-pair", action="store_true", help="run a CTA pair (for cta_group::2): --cluster 2")
        parser.add_argument("--cluster", type=int, default=None, metavar="N",
                            help="run one cluster of N CTAs (cta_group::2 pairs are CTAs 2k and 2k+1)")
        parser.add_argument(
            "--ptx-version",
            default="%d.%d" % isa.DEFAULT_PTX_VERSION,
            help="the PTX ISA version whose ordering rules apply (9.4 pipelines same-warp st->ld, st->st, ld->st)",
        )
        parser.add_argument(
            "--conservative",
            action="store_true",
            help="note every use of tcgen05.ld registers before tcgen05.wait::ld (legal, but a common rule)",
        )
        parser.add_argument("--max-ops", type=_positive_int, default=None, help="stop after this many warp operations")
        parser.add_argument("--dynamic-smem", type=_positive_int, default=0, metavar="BYTES",
                            help="the size of the kernel's dynamic shared memory (.extern .shared x[]), as at launch")
        parser.add_argument("--json", action="store_true", help="print buffers and diagnostics as JSON")
        parser.add_argument("--print-full", action="store_true", help="print whole buffers, not a summary")
        parser.add_argument(
            "--verify-diagnostics",
            action="store_true",
            help="check the diagnostics against expected-error/warning/note annotations in the file",
        )
        input_format.add_arguments(parser)
        run_map.add_arguments(parser)
        self.args = parser.parse_args(args)

    def run(self) -> int:
        try:
            return self._run()
        except (ValueError, InputError, DiagnosticException) as e:
            # Bad input before the kernel ran: with --json still one JSON document on stdout.
            message = str(e) if isinstance(e, InputError) else f"tmem-run: error: {_first_line(e)}"
            if self.args.json:
                text = message.removeprefix("tmem-run: ").removeprefix("error: ")
                print(json.dumps({
                    "args": [], "errors": [_diagnostic_json(Diagnostic(Severity.ERROR, text))],
                    "warnings": [], "notes": [], "warp_ops": 0,
                }, indent=1, allow_nan=False))
            print(message, file=sys.stderr)
            return 1

    def _run(self) -> int:
        from tmem_dialect.interpreter import run_kernel
        from tmem_dialect.interpreter.machine import Options

        a = self.args
        name = a.input_file
        try:
            if name == "-":
                text = decode_input(sys.stdin.buffer.read(), "<stdin>")
            else:
                with open(name, "rb") as f:
                    text = decode_input(f.read(), name)
        except OSError as e:
            raise InputError(f"tmem-run: error: could not open input file '{name}': {e.strerror}") from None
        name = "<stdin>" if name == "-" else name
        values = [parse_arg(s) for s in a.arg] if a.arg else None
        source = text
        if input_format.is_ptx(a, a.input_file):
            try:
                source = input_format.import_ptx(a, text, name)
            except DiagnosticError as e:
                return input_format.report(e, text, name)
        recorder = run_map.recorder_for(a)
        result = run_kernel(
            source,
            kernel=a.kernel,
            threads=a.threads,
            args=values,
            progress=sys.stderr.isatty() and not a.json,
            cta_pair=a.cta_pair,
            cluster=a.cluster,
            ptx_version=rules_version(a.ptx_version),
            conservative=a.conservative,
            max_warp_ops=a.max_ops or Options.max_warp_ops,
            dynamic_shared_bytes=a.dynamic_smem,
            filename=name,
            on_machine=recorder.attach if recorder is not None else None,
        )
        map_error = self._write_map(recorder, name) if recorder is not None else None
        if a.verify_diagnostics:
            problems = expected_diagnostics.check(text, name, result.diagnostics)
            for p in problems:
                print(p.render({name: text}), file=sys.stderr)
            if map_error:
                print(map_error, file=sys.stderr)
            return 1 if problems or map_error else 0
        started = result.warp_ops > 0  # setup failures (no kernel, bad args) never ran a warp
        if a.json:
            print(json.dumps({
                "args": [_json_values(v) for v in result.args] if started else [],
                "errors": _findings_json(result, Severity.ERROR),
                "warnings": _findings_json(result, Severity.WARNING),
                "notes": _findings_json(result, Severity.NOTE),
                "warp_ops": result.warp_ops,
            }, indent=1, allow_nan=False))
        elif started:
            for i, v in enumerate(result.args):
                print(_buffer_text(i, v, a.print_full))
        shown, summary = summarize(result.diagnostics)
        for d, more in shown:
            print(d.render({name: text}), file=sys.stderr)
            if more:
                print(f"note: and {more} more like it at this op (other warps, threads or cells)",
                      file=sys.stderr)
        if result.diagnostics:
            print(summary, file=sys.stderr)
        if map_error:
            print(map_error, file=sys.stderr)
        return 1 if map_error or any(d.severity is Severity.ERROR for d in result.diagnostics) else 0

    def _write_map(self, recorder, name: str) -> str | None:
        """--map: draw the TMEM map; None, or the one-line error when it cannot be made or written."""
        try:
            run_map.write(recorder, self.args.map, f"tmem-run {os.path.basename(name)}",
                          run_map.column_range(self.args.map_columns))
        except (ValueError, OSError) as e:
            detail = e.strerror if isinstance(e, OSError) and e.strerror else e  # not the temporary's name
            return f"tmem-run: error: cannot write the TMEM map '{self.args.map}': {detail}"
        return None


def main(args: Sequence[str] | None = None) -> None:
    sys.exit(run_tool(lambda a: TmemRun(a), "tmem-run", args))


if __name__ == "__main__":
    main()
