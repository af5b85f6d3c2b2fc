"""Parsing with source locations, and whole-module verification that reports diagnostics at ops."""

from __future__ import annotations

import os
import re
import struct
from bisect import bisect_right
from functools import cache

import xdsl
from xdsl.context import Context
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    NoneType,
    StringAttr,
    UnknownLoc,
    UnregisteredAttr,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Block, Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, Severity, SourceLocation, error


class LinearTimeLexer(MLIRLexer):
    """xDSL's MLIR lexer with a string-literal pattern that cannot backtrack exponentially.

    xDSL 0.74 nests `[^"...]+` inside `(...)*`, so an unterminated string of a few dozen
    characters hangs the lexer; each character class here matches exactly one character.
    """

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


MAX_NESTING = 64
"""Deepest nesting of op regions, and separately of attributes and types, that we parse.

xDSL's parser, verifier, printer and our passes recurse a few times per level; this bound keeps
every stage far from Python's recursion limit, so a deeper input is a located error instead of a
RecursionError. Depth is counted on the parsed structure (not on brackets), so the custom and
the generic print of what we accept parse again. Real kernels nest a handful of levels.
"""

MAX_INTEGER_WIDTH = (1 << 24) - 1
"""MLIR's IntegerType::kMaxWidth: `i16777216` and wider are not integer types."""


class LocatedParser(Parser):
    """A parser that stamps every op without an explicit `loc(...)` with its file:line:col."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(_HostOpsIgnored(ctx), "", name)
        # Parser hard-wires MLIRLexer; lex the real input with the linear-time one instead.
        self._parser_state = ParserState(LinearTimeLexer(Input(text, name)))
        self._filename = StringAttr(name)
        self._line_starts = [0]
        self._line_starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
        self._line_offset = line_offset
        self._region_depth = 0
        self._attribute_depth = 0
        self._op_names: list[str | None] = []
        self._location_aliases = self._prescan_location_aliases(text)

    def _prescan_location_aliases(self, text: str) -> set[str]:
        """Location aliases (`#loc3 = loc(...)`), which MLIR lets ops use before their definition:
        upstream and Triton print them after the module. Each is parsed ahead (in dependency order)."""
        pending = {m.group(1): m.group(2) for m in _LOCATION_ALIAS.finditer(text)}
        done: set[str] = set()
        self._stripped_location_aliases: set[str] = set()
        self._parse_location_aliases(pending, done)
        if pending:  # `fused<#di_subprogram>[...]` (Triton): xDSL reads fused locations without metadata
            stripped = {name: _FUSED_METADATA.sub("fused[", body) for name, body in pending.items()}
            changed = {name: body for name, body in stripped.items() if body != pending[name]}
            if changed:
                for name in changed:
                    del pending[name]
                names = set(changed)
                self._parse_location_aliases(changed, done)
                self._stripped_location_aliases = names & done
                done -= self._stripped_location_aliases
        return done

    def _parse_location_aliases(self, pending: dict[str, str], done: set[str]) -> None:
        progress = True
        while pending and progress:
            progress = False
            for name, body in list(pending.items()):
                sub = Parser(self.ctx, body, self._filename.data)
                sub.attribute_aliases.update(self.attribute_aliases)
                try:
                    location = sub.parse_optional_location()
                except ParseError:
                    continue  # uses an alias not parsed yet (or is malformed: reported at its definition)
                if location is None:
                    continue
                self.attribute_aliases[name] = location
                done.add(name)
                del pending[name]
                progress = True

    def _parse_alias_def(self):
        token = self._current_token
        text = self.lexer.input.content
        line_end = text.find("\n", token.span.start)
        line_end = len(text) if line_end < 0 else line_end
        if token.text in self._location_aliases:
            self._consume_token()
            self.parse_punctuation("=")
            self.parse_optional_location()  # parsed ahead already
            return
        if token.text in self._stripped_location_aliases:  # parsed ahead without its metadata
            while self._current_token.span.start < line_end and self._current_token.text:
                self._consume_token()
            return
        if _DEBUG_INFO_ALIAS.match(text, token.span.start, line_end):
            # `#di_file = #llvm.di_file<...>`: debug-info metadata (of the fused locations above),
            # which nothing we read uses: skipped, not parsed.
            while self._current_token.span.start < line_end and self._current_token.text:
                self._consume_token()
            return
        super()._parse_alias_def()

    def _location(self, offset: int) -> FileLineColLoc:
        line = bisect_right(self._line_starts, offset)
        column = offset - self._line_starts[line - 1] + 1
        return FileLineColLoc(self._filename, IntAttr(line + self._line_offset), IntAttr(column))

    def _get_op_by_name(self, name: str) -> type[Operation]:
        found = self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)
        if found is not None:
            return found
        # Point at the op name (xDSL would point at the token after it).
        here = self._current_token.span.start
        text = self.lexer.input.content
        start = text.rfind(name, 0, here)
        if start < 0:
            self.raise_error(f"unregistered operation '{name}'")
        if start > 0 and text[start - 1] == '"':
            start -= 1  # the generic form: point at the opening quote, where the op starts
        self.raise_error(f"unregistered operation '{name}'", start, start + len(name))

    def _parse_block(self) -> Block:
        # xDSL's own message here is only " in block definition".
        token = self._current_token
        if token.kind is not MLIRTokenKind.CARET_IDENT:
            self.raise_error("expected an operation, a block label (^bb) or '}' to close the region")
        name = token.text[1:]
        if name in self.blocks and name not in self.forward_block_references:
            # xDSL 0.74 forgets where a forward-referenced block was defined and then fails with
            # a KeyError on the second definition.
            self.raise_error(f"redefinition of block '^{name}'", token.span.start, token.span.end)
        block = super()._parse_block()
        self.blocks[name] = (block, token.span)
        return block

    def _parse_optional_integer_or_float_type(self):
        token = self._current_token
        if token.kind is MLIRTokenKind.BARE_IDENT:
            match = self._builtin_integer_type_regex.match(token.text)
            if match is not None and int(match.group(1)) > MAX_INTEGER_WIDTH:
                self.raise_error(
                    f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits", token.span.start, token.span.end
                )
        return super()._parse_optional_integer_or_float_type()

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        # An empty or comment-only input (or the piece after a trailing `// -----`) is an empty
        # module, as in mlir-opt; xDSL says "Could not parse entire input!".
        if allow_implicit_module:
            while self._current_token.kind in (MLIRTokenKind.HASH_IDENT, MLIRTokenKind.EXCLAMATION_IDENT):
                self._parse_alias_def()
            if self._current_token.kind is MLIRTokenKind.EOF:
                module = ModuleOp([])
                module.location = self._location(0)
                return module
        module = super().parse_module(allow_implicit_module)
        if isinstance(module.location, UnknownLoc):
            # The implicit module (or one written without a location): diagnostics about the
            # whole module ("no kernel") point at the start of the file.
            module.location = self._location(0)
        return module

    def undefined_value_diagnostics(self) -> list[Diagnostic]:
        """One error per use of an SSA name that was never defined (xDSL reports them at the end)."""
        found: list[Diagnostic] = []
        for name, values in self.forward_ssa_references.items():
            for value in values.values():
                for use in value.uses:
                    found.append(error(use.operation, f"use of undefined value '%{name}'"))
        found.sort(key=lambda d: (d.location.line, d.location.column) if d.location else (0, 0))
        return found

    def _too_deep(self, what: str) -> None:
        token = self._current_token.span
        self.raise_error(f"{what} nested more than {MAX_NESTING} deep are not supported", token.start, token.end)

    def parse_optional_region(self, arguments=None):
        # The region of a builtin.module does not count: an input with and one without the
        # explicit top-level module (our print adds it) nest equally deep.
        counted = (
            bool(self._op_names)
            and self._op_names[-1] not in ("builtin.module", "module")
            and self._current_token.kind is MLIRTokenKind.L_BRACE
        )
        if counted:
            if self._region_depth >= MAX_NESTING:
                self._too_deep("regions")
            self._region_depth += 1
        try:
            return super().parse_optional_region(arguments)
        finally:
            if counted:
                self._region_depth -= 1

    def parse_optional_attribute(self):
        return self._nested_attribute(super().parse_optional_attribute)

    def parse_optional_type(self):
        return self._nested_attribute(super().parse_optional_type)

    def _nested_attribute(self, parse):
        if self._attribute_depth >= MAX_NESTING:
            self._too_deep("attributes and types")
        self._attribute_depth += 1
        try:
            return parse()
        finally:
            self._attribute_depth -= 1

    def skip_ignored_op(self, name: str) -> Operation:
        """The rest of an ignored host-side op (custom form), to the end of its line and its brackets."""
        text = self.lexer.input.content
        depth = 0
        last_end = self._current_token.span.start
        type_start = None  # after the last top-level `->` (or `:`): the result types
        while self._current_token.kind is not MLIRTokenKind.EOF:
            tok = self._current_token
            if depth == 0 and "\n" in text[last_end:tok.span.start]:
                break
            if tok.text in ("(", "[", "{", "<"):
                depth += 1
            elif tok.text in (")", "]", "}", ">"):
                depth -= 1
            elif depth == 0 and (tok.text == "->" or tok.text == ":" and (type_start is None or text[type_start - 1] == ":")):
                type_start = tok.span.end
            last_end = tok.span.end
            self._consume_token()
        results = self._ignored_results
        return UnregisteredOp.with_name(name).create(result_types=self._ignored_result_types(
            text[type_start:last_end] if type_start is not None else "", results))

    def _ignored_result_types(self, spelled: str, count: int) -> list[Attribute]:
        """The result types an ignored op spells (`-> !cuda.result`), so its users agree; else none."""
        if not count:
            return []
        try:
            sub = Parser(self.ctx, spelled.strip(), self._filename.data)
            sub.attribute_aliases.update(self.attribute_aliases)
            types = sub.parse_comma_separated_list(sub.Delimiter.NONE, sub.parse_type)
        except ParseError:
            types = []
        return types if len(types) == count else [NoneType()] * count

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        self._op_names.append(_op_name_at(self.lexer.input.content, start))
        self._ignored_results = _result_count(self.lexer.input.content, start)
        try:
            op = super().parse_operation()
        except VerifyException as e:
            # A custom form built the op with a type its constraints reject; xDSL raises
            # this without a position, so point at the op that was being parsed.
            name = _op_name_at(self.lexer.input.content, start)
            prefix = f"'{name}' op " if name else ""
            message = str(e.args[0]) if e.args else str(e)
            self.raise_error(f"{prefix}{message}", start, self._current_token.span.start)
        except _PARSER_BUGS as e:
            # xDSL's custom parsers assert or index where they should report (`alignment = 4 :
            # f16`, a float literal its type cannot hold): an error at the op, not a traceback.
            name = _op_name_at(self.lexer.input.content, start)
            prefix = f"'{name}' op: " if name else ""
            self.raise_error(f"{prefix}{_parser_bug_message(e)}", start, self._current_token.span.start)
        finally:
            self._op_names.pop()
        if isinstance(op.location, UnknownLoc):
            op.location = self._location(start)
        return op


def _today_spellings(module: ModuleOp) -> ModuleOp:
    """What an older MLIR (Triton's) wrote, in today's upstream form: `llvm.mlir.constant(0 : index)
    : i32` holds `0 : i32`; a function's `nvvm.kernel = 1 : ui1` is the unit attribute; an inherent
    attribute written in the attribute dictionary (CuTe's `nvvm.tcgen05.mma ... {kind = ...}`,
    `{isCTAOnly = true}`) is the property of that name, as upstream's parser reads it."""
    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, UnitAttr
    from xdsl.irdl import IRDLOperation

    for op in module.walk():
        if isinstance(op, IRDLOperation) and op.attributes:
            inherent = op.get_irdl_definition().properties
            for name in [n for n in op.attributes if n in inherent]:
                op.properties[name] = op.attributes.pop(name)
        if isinstance(op, llvm.ConstantOp) and isinstance(op.value, IntegerAttr) \
                and isinstance(op.value.type, IndexType) and isinstance(op.result.type, IntegerType):
            op.properties["value"] = IntegerAttr(op.value.value.data, op.result.type)
        elif isinstance(op, llvm.FuncOp):
            kernel = op.attributes.get("nvvm.kernel")
            if isinstance(kernel, IntegerAttr) and kernel.value.data == 1:
                op.attributes["nvvm.kernel"] = UnitAttr()
    return module


_PARSER_BUGS = (AssertionError, ArithmeticError, LookupError, TypeError, AttributeError, MemoryError, NotImplementedError, struct.error)


def _parser_bug_message(e: BaseException) -> str:
    """What an exception from inside xDSL's parser means for the text being parsed."""
    text = str(e.args[0]) if e.args else ""
    if isinstance(e, OverflowError) and "pack" in text:
        return "floating-point literal out of the range of its type"
    if isinstance(e, struct.error):
        return "integer literal out of the range of its type"
    if isinstance(e, OverflowError):
        return f"value out of range ({text})"
    if isinstance(e, MemoryError):
        return "value too large to represent"
    if isinstance(e, AssertionError) or not text:
        return "malformed syntax or attribute (an attribute of the wrong kind or type?)"
    return f"malformed syntax or attribute ({text})"



IGNORED_DIALECTS = ("cuda",)  # CuTe DSL's host-side ops, types and attributes: read and ignored


class _HostOpsIgnored:
    """The parser's context, but ops, types and attributes of IGNORED_DIALECTS parse as opaque ones."""

    def __init__(self, ctx: Context):
        self._ctx = ctx

    def __getattr__(self, name: str):
        return getattr(self._ctx, name)

    @staticmethod
    def _ignored(name: str) -> bool:
        return name.split(".", 1)[0] in IGNORED_DIALECTS

    def get_optional_op(self, name: str, *, dialect_stack=()):  # type: ignore[no-untyped-def]
        found = self._ctx.get_optional_op(name, dialect_stack=dialect_stack)
        if found is None and self._ignored(name):
            return _ignored_op(name)
        return found

    def get_optional_type(self, name: str):  # type: ignore[no-untyped-def]
        found = self._ctx.get_optional_type(name)
        if found is None and self._ignored(name):
            return _opaque_attribute(name, True)
        return found

    def get_optional_attr(self, name: str):  # type: ignore[no-untyped-def]
        found = self._ctx.get_optional_attr(name)
        if found is None and self._ignored(name):
            return _opaque_attribute(name, False)
        return found


@cache
def _opaque_attribute(name: str, is_type: bool) -> type[Attribute]:
    return UnregisteredAttr.with_name_and_type(name, is_type)


@cache
def _ignored_op(name: str) -> type[Operation]:
    base = UnregisteredOp.with_name(name)

    def parse(cls, parser):  # type: ignore[no-untyped-def]
        return parser.skip_ignored_op(name)

    return type(base.__name__, (base,), {"parse": classmethod(parse)})


_RESULTS = re.compile(r"\s*((?:%[\w.$#-]+(?::\d+)?\s*,?\s*)+)=(?!=)")


def _result_count(text: str, start: int) -> int:
    m = _RESULTS.match(text, start)
    if not m:
        return 0
    count = 0
    for name in re.findall(r"%[\w.$#-]+(?::(\d+))?", m.group(1)):
        count += int(name) if name else 1
    return count


_DEBUG_INFO_ALIAS = re.compile(r"#[\w$.-]+[ \t]*=[ \t]*#llvm\.di_")
_FUSED_METADATA = re.compile(r"\bfused<[^\[\]<>]*>\[")
_LOCATION_ALIAS = re.compile(r"^(#[A-Za-z_][\w$.-]*)[ \t]*=[ \t]*(loc\(.*\))[ \t]*$", re.M)
_OP_NAME = re.compile(r'\s*(?:(?:%[\w.$#:-]+\s*,?\s*)+=\s*)?"?([A-Za-z_][\w.$]*)')


def _op_name_at(text: str, start: int) -> str | None:
    """The op name of the operation whose text starts at `start` (results, `=`, then the name)."""
    m = _OP_NAME.match(text, start)
    return m.group(1) if m else None


def parse_error_diagnostic(e: ParseError, line_offset: int = 0) -> Diagnostic:
    loc = e.span.get_location()
    return Diagnostic(
        Severity.ERROR, e.msg, SourceLocation(loc.file, loc.line + line_offset, loc.col)
    )


def parse_module(
    ctx: Context,
    text: str,
    name: str = "<input>",
    line_offset: int = 0,
    allow_implicit_module: bool = True,
) -> ModuleOp:
    """Parse MLIR text; parse and attribute-verification failures raise DiagnosticError."""
    parser: LocatedParser | None = None
    try:
        # Constructing the parser lexes the first token, which can already fail.
        parser = LocatedParser(ctx, text, name, line_offset)
        return _today_spellings(parser.parse_module(allow_implicit_module))
    except ParseError as e:
        if e.msg.startswith("values used but not defined"):
            if undefined := parser.undefined_value_diagnostics():
                raise DiagnosticError(undefined) from None
        raise DiagnosticError([parse_error_diagnostic(e, line_offset)]) from None
    except VerifyException as e:
        # An attribute or type rejected its parameters while being built by the parser.
        pos = parser._current_token.span
        raise DiagnosticError(
            [parse_error_diagnostic(ParseError(pos, str(e)), line_offset)]
        ) from None
    except _PARSER_BUGS as e:
        pos = parser._current_token.span if parser is not None else Span(0, 0, Input(text, name))
        raise DiagnosticError(
            [parse_error_diagnostic(ParseError(pos, _parser_bug_message(e)), line_offset)]
        ) from None
    except ValueError as e:
        # Python itself rejected a token's text, e.g. an integer literal of more than 4300 digits
        # (int() refuses it); report it at the token the parser was on, like a parse error.
        pos = parser._current_token.span
        message = str(e)
        if "integer string conversion" in message:
            # The parser has moved past the literal: point back at its first digit.
            end = pos.start
            while end > 0 and text[end - 1].isspace():
                end -= 1
            start = end
            while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "-."):
                start -= 1
            pos = Span(start, end, pos.input)
            digits = message.split(";")[0].rsplit("value has ", 1)[-1]
            message = f"integer literal too long ({digits}; at most 4300 are supported)"
        raise DiagnosticError(
            [parse_error_diagnostic(ParseError(pos, message), line_offset)]
        ) from None


def verify_diagnostics(root: Operation) -> list[Diagnostic]:
    """Run every op's verifier (structure, IRDL constraints, verify_) and report each failure at its op."""
    from tmem_dialect.ir_checks import ir_diagnostics
    from tmem_dialect.kernel_checks import attribute_diagnostics

    found: list[Diagnostic] = []
    failed: set[Operation] = set()
    for op in root.walk():
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            message = str(e.args[0]) if e.args else str(e)
            message = message.removeprefix("Operation does not verify: ")
            if message.startswith(("Redefinition of symbol", "Operation using value defined out of its")):
                continue  # ir_checks reports these at the op at fault, not at the module or function
            found.append(error(op, message))
            failed.add(op)
        except ValueError as e:
            found.append(error(op, f"malformed IR: {e}"))
            failed.add(op)
        except Exception as e:  # noqa: BLE001 -- a verifier bug must still end as a diagnostic
            if type(e) is Exception and e.args:
                # Some xDSL verifiers (memref.load/store) raise a bare Exception for invalid IR.
                found.append(error(op, f"'{op.name}' op: {e.args[0]}"))
                failed.add(op)
                continue
            failed.add(op)
            if _has_failed_ancestor(op, failed):
                continue  # e.g. func.return reading a malformed func.func: a consequence, not news
            if isinstance(e, AssertionError) and _raised_in_xdsl(e):
                # xDSL's verifiers assert on types they assume (llvm.trunc of an f32): invalid IR.
                operands = ", ".join(str(v.type) for v in op.operands)
                results = ", ".join(str(r.type) for r in op.results)
                found.append(error(op, f"'{op.name}' op: invalid operand or result types "
                                   f"({operands}) -> ({results})"))
                continue
            found.append(
                error(op, f"internal error in the verifier of '{op.name}': {type(e).__name__}: {e}")
            )
    if not found:
        # Whole-module rules; they assume every op verified (operands of the right kinds).
        found.extend(ir_diagnostics(root))
        found.extend(attribute_diagnostics(root))
    return found


def _has_failed_ancestor(op: Operation, failed: set[Operation]) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent in failed:
            return True
        parent = parent.parent_op()
    return False


def verify_or_raise(root: Operation) -> None:
    if found := verify_diagnostics(root):
        raise DiagnosticError(found)


def _raised_in_xdsl(e: BaseException) -> bool:
    """The exception's innermost frame is in the xdsl package (its verifier, not ours)."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and _XDSL_DIR in tb.tb_frame.f_code.co_filename


_XDSL_DIR = os.path.dirname(xdsl.__file__)
