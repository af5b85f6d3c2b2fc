"""The PTX parser's token reader and its instruction rules (guards, opcodes, operands); syntax.py: the rest.

Register names are resolved while an instruction is read, through the `{ }` scopes: each `.reg`
declaration is one `Variable`, so a scoped block's local `%r` is a different variable from an
outer `%r`.
"""

from __future__ import annotations

import struct

from tmem_dialect.diagnostics import DiagnosticError
from tmem_dialect.frontend.lexer import Kind, Source, tokenize
from tmem_dialect.frontend.tree import (
    _RANGE_NAME,
    SPECIAL_REGISTERS,
    Address,
    Branch,
    Imm,
    Instruction,
    Operand,
    Reg,
    Sink,
    Special,
    Symbol,
    Variable,
    VectorOperand,
)

# (A member read through its Enum class, `Kind.NAME`, is a metaclass attribute lookup: several
# times slower than a global, and the parser tests a kind per token.)
NAME, INT, FLOAT, EOF = Kind.NAME, Kind.INT, Kind.FLOAT, Kind.EOF


class _Scope:
    def __init__(self, ident: int, parent: _Scope | None):
        self.ident = ident
        self.parent = parent
        self.vars: dict[str, Variable] = {}
        self.ranges: dict[str, tuple[int, str]] = {}  # `%r<4>`: prefix -> (count, type)
        self.chain: tuple[int, ...] = (ident, *(parent.chain if parent else ()))

    def lookup(self, name: str) -> Variable | None:
        scope: _Scope | None = self
        while scope is not None:
            found = scope.vars.get(name)
            if found is not None:
                return found
            m = _RANGE_NAME.fullmatch(name) if scope.ranges else None  # (most scopes declare no range)
            if m and m.group(1) in scope.ranges:
                count, type_ = scope.ranges[m.group(1)]
                digits = m.group(2)
                if int(digits) < count and (digits == "0" or not digits.startswith("0")):
                    var = scope.vars[name] = Variable(name, type_)
                    return var
            scope = scope.parent
        return None


class TokenReader:
    """A position in the source's tokens (by index: `self.i`), with the reads every rule uses.

    Tokens are named by their index in the parallel lists `kinds`, `texts` and `starts`."""

    def __init__(self, source: Source):
        self.source = source
        self.kinds, self.texts, self.starts = tokenize(source)
        self.i = 0

    def error(self, message: str, at: int | None = None) -> DiagnosticError:
        """A syntax error at token `at` (the current token if None)."""
        return DiagnosticError([self.source.error(self.starts[self.i if at is None else at], message)])

    def found(self, at: int | None = None) -> str:
        """Token `at` (the current one if None) as an error message names it."""
        return self.texts[self.i if at is None else at] or "end of file"

    def take(self) -> int:
        """The current token, which is then passed (unless it is the end)."""
        i = self.i
        if self.texts[i]:  # (only the end's text is empty)
            self.i = i + 1
        return i

    def accept(self, text: str) -> bool:
        # (`text` is punctuation or a directive: a string token, with its quotes, never equals it)
        if self.texts[self.i] == text:
            self.i += 1
            return True
        return False

    def expect(self, text: str, what: str | None = None) -> int:
        if self.texts[self.i] != text:
            raise self.error(f"expected '{text}'{' ' + what if what else ''}, found '{self.found()}'")
        return self.take()

    def name(self, what: str) -> int:
        i = self.i  # (a name is never the end: no take)
        if self.kinds[i] is not NAME or self.texts[i].startswith("."):
            raise self.error(f"expected {what}, found '{self.found()}'")
        self.i = i + 1
        return i

    def integer(self, what: str) -> int:
        negative = self.accept("-")
        if self.kinds[self.i] is not INT:
            raise self.error(f"expected {what}, found '{self.found()}'")
        value = parse_int(self.texts[self.take()])
        return -value if negative else value


class InstructionReader(TokenReader):
    """`@guard opcode operand, ...;`: instructions and their operands."""

    def __init__(self, source: Source):
        super().__init__(source)
        self.opcode = ""  # of the instruction being read
        self.branches: list[Branch] = []  # label references of the function being read

    def instruction(self, scope: _Scope) -> Instruction:
        texts = self.texts
        start = i = self.i
        guard = None
        if texts[i] == "@":
            self.i = i + 1
            negated = self.accept("!")
            guard = Reg(self.register(scope), negated)
            i = self.i
        opcode = texts[i]
        if self.kinds[i] is not NAME or opcode.startswith(("%", ".")):
            raise self.error(f"expected an instruction, found '{self.found()}'")
        self.i = i + 1
        self.opcode = opcode
        ins = Instruction(opcode, [], self.starts[start], guard)
        if ins.parts[0] == "call":
            self.call_operands(scope, ins)
        elif texts[self.i] != ";":
            operands = ins.operands
            kinds, local = self.kinds, scope.vars
            while True:
                # The most frequent operands, a register of this scope and a plain integer, are read
                # here rather than by `operand` (one call or two fewer per operand), as it reads
                # them: a register of this scope is what its lookup finds first. A declared name is
                # never the end's empty text; `_` (the sink) and registers named without `%` are
                # left to `operand`.
                i = self.i
                text = texts[i]
                var = local.get(text)
                if var is not None and text[0] == "%":
                    self.i = i + 1
                    var.mentions += 1
                    operands.append(Reg(var))
                elif kinds[i] is INT:
                    self.i = i + 1
                    operands.append(Imm(parse_int(text), text))
                else:
                    operands.append(self.operand(scope))
                punct = texts[self.i]
                if punct == "|":
                    self.i += 1
                    ins.extra = self.operand(scope)
                    punct = texts[self.i]
                if punct != ",":
                    break
                self.i += 1
        if texts[self.i] == ";":  # (expect's test, inline: once per instruction)
            self.i += 1
        else:
            self.expect(";", "at the end of the instruction")
        return ins

    def call_operands(self, scope: _Scope, ins: Instruction) -> None:
        """`call{.uni} (r), f, (a, b);`, `call f, (a);`, `call f;`: operands [returns, f, arguments]."""

        def group() -> VectorOperand:
            self.expect("(")
            elements: list[Reg | Imm | None] = []
            if not self.accept(")"):
                while True:
                    operand = self.operand(scope)
                    if not isinstance(operand, (Reg, Imm)):
                        raise self.error("expected a register, a .param variable or a number")
                    elements.append(operand)
                    if not self.accept(","):
                        break
                self.expect(")", "to close the list")
            return VectorOperand(elements)

        returns = VectorOperand([])
        if self.texts[self.i] == "(":
            returns = group()
            self.expect(",", "after the return values")
        callee = self.name("the called function")
        arguments = VectorOperand([])
        if self.accept(","):
            arguments = group()
        ins.operands = [returns, Symbol(self.texts[callee], self.starts[callee]), arguments]

    def register(self, scope: _Scope) -> Variable:
        at = self.name("a register")
        var = scope.lookup(self.texts[at])
        if var is None:
            raise self.error(f"use of undeclared register '{self.texts[at]}'", at)
        var.mentions += 1
        return var

    def operand(self, scope: _Scope) -> Operand:
        i = self.i
        text = self.texts[i]
        kind = self.kinds[i]
        if kind is NAME:
            if text[0] == "%":  # (most operands: a declared register, as name_operand reads it)
                var = scope.lookup(text)
                if var is not None:
                    self.i = i + 1
                    var.mentions += 1
                    return Reg(var)
            if text != "_":  # (`_` is the sink)
                return self.name_operand(scope)
        if text == "[":
            return self.address(scope)
        if text == "{":
            return self.vector(scope)
        if text == "!":
            self.i = i + 1
            return Reg(self.register(scope), negated=True)
        if kind is INT or kind is FLOAT or text == "-":
            return self.immediate()
        if text == "_":
            self.i = i + 1
            return Sink()
        return self.name_operand(scope)

    def address(self, scope: _Scope) -> Address:
        """`[base]`, `[base+offset]`, `[base-offset]`, `[tensor map, {coordinates}]`."""
        texts, kinds = self.texts, self.kinds
        opening = self.i
        i = opening + 1
        text = texts[i]
        base: Reg | Symbol | Imm
        var = scope.vars.get(text)
        if var is not None and text[0] == "%":  # (a register of this scope, as name_operand reads it)
            i += 1
            var.mentions += 1
            base = Reg(var)
        else:
            self.i = i
            if kinds[i] is INT:
                base = self.immediate()
            else:
                base = self.name_operand(scope)  # type: ignore[assignment]
                if not isinstance(base, (Reg, Symbol)):
                    raise self.error("expected a register or a variable in an address", opening)
            i = self.i
        offset = 0
        punct = texts[i]
        if punct == "+" and kinds[i + 1] is INT:  # (as `integer` reads an unsigned offset)
            offset = parse_int(texts[i + 1])
            i += 2
        elif punct == "+" or punct == "-":
            self.i = i + 1 if punct == "+" else i  # (`integer` reads the sign '-')
            offset = self.integer("an address offset")
            i = self.i
        if texts[i] == "]":  # (the usual end, read as `expect` does)
            self.i = i + 1
            return Address(base, offset)
        self.i = i
        coordinates = None
        if self.accept(","):
            if self.texts[self.i] != "{":
                raise self.error("expected '{' to open the tensor coordinates")
            coordinates = self.operand(scope)
        self.expect("]", "to close the address")
        return Address(base, offset, coordinates)  # type: ignore[arg-type]

    def vector(self, scope: _Scope) -> VectorOperand:
        """`{a, b, _, 1}`: registers, numbers and sinks."""
        texts, kinds, local = self.texts, self.kinds, scope.vars
        self.i += 1
        elements: list[Reg | Imm | None] = []
        while True:
            i = self.i
            text = texts[i]
            if text == "_":
                self.i = i + 1
                elements.append(None)
            elif (var := local.get(text)) is not None:  # (as `register` reads a register of this scope)
                self.i = i + 1
                var.mentions += 1
                elements.append(Reg(var))
            elif kinds[i] is INT or kinds[i] is FLOAT or text == "-":
                elements.append(self.immediate())
            else:
                elements.append(Reg(self.register(scope)))
            if texts[self.i] != ",":
                break
            self.i += 1
        if texts[self.i] == "}":  # (expect's test, inline)
            self.i += 1
        else:
            self.expect("}", "to close the vector operand")
        return VectorOperand(elements)

    def name_operand(self, scope: _Scope) -> Operand:
        at = self.name("an operand")
        text = self.texts[at]
        if not text.startswith("%") and (declared := scope.lookup(text)) is not None:
            declared.mentions += 1
            return Reg(declared)  # registers need no '%' (`.reg .pred P1;`)
        if text.startswith("%"):
            var = scope.lookup(text)
            if var is not None:
                var.mentions += 1
                return Reg(var)
            base = text[1:].split(".")[0]
            if base in SPECIAL_REGISTERS:
                return Special(text[1:])
            raise self.error(f"use of undeclared register '{text}'", at)
        if self.texts[self.i] in ("[", "<"):
            raise self.error("indexed operands are not supported")
        if text.startswith("$") or self.instruction_wants_label():
            branch = Branch(text, scope.chain, self.starts[at])
            self.branches.append(branch)
            return branch  # type: ignore[return-value]
        return Symbol(text)

    def instruction_wants_label(self) -> bool:
        previous = self.texts[self.i - 2] if self.i >= 2 else ""
        return previous.startswith("bra") or self.opcode.startswith("brx")  # brx.idx %i, L

    def immediate(self) -> Imm:
        negative = self.accept("-")
        at = self.take()
        kind, text = self.kinds[at], self.texts[at]
        if kind is INT:
            value = parse_int(text)
            return Imm(-value if negative else value, text)
        if kind is FLOAT:
            value_f = parse_float(text)
            return Imm(-value_f if negative else value_f, text, is_float=True)
        raise self.error(f"expected a number, found '{text or 'end of file'}'", at)


def parse_int(text: str) -> int:
    if text.isdigit() and text[0] != "0":  # (the most frequent: decimal, no suffix)
        return int(text)
    text = text.rstrip("U")
    if text.startswith(("0x", "0X")):
        return int(text[2:], 16)
    if text.startswith(("0b", "0B")):
        return int(text[2:], 2)
    if len(text) > 1 and text.startswith("0"):
        return int(text, 8)
    return int(text)


def parse_float(text: str) -> float:
    """`0f3F800000` (f32 bits), `0d3FF0000000000000` (f64 bits) or a decimal literal (f64)."""
    if text[:2] in ("0f", "0F"):
        return struct.unpack("<f", int(text[2:], 16).to_bytes(4, "little"))[0]
    if text[:2] in ("0d", "0D"):
        return struct.unpack("<d", int(text[2:], 16).to_bytes(8, "little"))[0]
    return float(text)
