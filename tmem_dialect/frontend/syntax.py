"""The PTX recursive-descent parser (the tree is tree.py): directives, declarations, scoped bodies, instructions.

Register names are resolved while parsing, through the `{ }` scopes: each `.reg` declaration is
one `Variable`, so a scoped block's local `%r` is a different variable from an outer `%r`. Labels
are resolved per function after its body is read (branches may jump forward, and out of scopes).
"""

from __future__ import annotations

from tmem_dialect.diagnostics import DiagnosticError
from tmem_dialect.frontend.lexer import Kind, Source, Token, tokenize
from tmem_dialect.frontend.tree import (  # noqa: F401 (the tree's names, re-exported)
    SPECIAL_REGISTERS,
    TYPES,
    STATE_SPACES,
    _RANGE_NAME,
    Variable,
    Reg,
    Special,
    Imm,
    Symbol,
    Address,
    VectorOperand,
    Sink,
    Operand,
    Instruction,
    Label,
    Branch,
    BranchTargets,
    GlobalVar,
    Param,
    Function,
    Module,
    PERF_DIRECTIVES,
)


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


class Parser:
    def __init__(self, source: Source):
        self.source = source
        self.tokens = tokenize(source)
        self.i = 0
        self.scope_count = 0
        self.opcode = ""  # of the instruction being read

    # ---- token helpers ----------------------------------------------------------------------

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def error(self, message: str, token: Token | None = None) -> DiagnosticError:
        token = token or self.tok
        return DiagnosticError([self.source.error(token.start, message)])

    def take(self) -> Token:
        tok = self.tokens[self.i]
        if tok.kind is not Kind.EOF:
            self.i += 1
        return tok

    def accept(self, text: str) -> bool:
        tok = self.tokens[self.i]  # (not self.tok: a property is a call, and this runs per token)
        if tok.text == text and tok.kind is not Kind.STRING:
            self.i += 1
            return True
        return False

    def expect(self, text: str, what: str | None = None) -> Token:
        tok = self.tokens[self.i]
        if tok.text != text:
            found = tok.text or "end of file"
            raise self.error(f"expected '{text}'{' ' + what if what else ''}, found '{found}'")
        return self.take()

    def name(self, what: str) -> Token:
        tok = self.tokens[self.i]  # (a name is never EOF: no take)
        if tok.kind is not Kind.NAME or tok.text.startswith("."):
            raise self.error(f"expected {what}, found '{tok.text or 'end of file'}'")
        self.i += 1
        return tok

    def integer(self, what: str) -> int:
        negative = self.accept("-")
        if self.tok.kind is not Kind.INT:
            raise self.error(f"expected {what}, found '{self.tok.text or 'end of file'}'")
        value = parse_int(self.take().text)
        return -value if negative else value

    # ---- module ----------------------------------------------------------------------------

    def module(self) -> Module:
        mod = Module(self.source)
        while self.tok.kind is not Kind.EOF:
            tok = self.tok
            text = tok.text
            if text == ".version":
                self.take()
                v = self.take()
                major, _, minor = v.text.partition(".")
                if v.kind is not Kind.FLOAT or not major.isdigit() or not minor.isdigit():
                    raise self.error("expected a version such as 8.6 after .version", v)
                mod.version = (int(major), int(minor))
            elif text == ".target":
                self.take()
                mod.targets.append(self.name("a target such as sm_100a").text)
                while self.accept(","):
                    mod.targets.append(self.name("a target option").text)
            elif text == ".address_size":
                self.take()
                mod.address_size = self.integer("an address size")
                if mod.address_size != 64:
                    raise self.error("only .address_size 64 is supported", tok)
                continue
            elif text in (".file", ".loc", ".pragma"):
                self.skip_statement()
                continue
            elif text == ".section":
                self.skip_section()
                continue
            else:
                self.module_item(mod)
                continue
        return mod

    def skip_statement(self) -> None:
        tokens, i = self.tokens, self.i  # (Triton writes a .loc before most instructions)
        start = tokens[i]
        line_end = self.source.text.find("\n", start.start)
        if line_end < 0:
            line_end = len(self.source.text)
        while (tok := tokens[i]).kind is not Kind.EOF and tok.text != ";":
            # .file / .loc have no ';' in PTX: they end at the line's end
            if tok is not start and tok.start > line_end:
                self.i = i
                return
            i += 1
        self.i = i
        self.accept(";")

    def skip_section(self) -> None:
        """`.section .debug_x { ... }`: debug information, not program text."""
        self.take()
        self.take()
        self.expect("{")
        depth = 1
        while depth and self.tok.kind is not Kind.EOF:
            t = self.take().text
            depth += (t == "{") - (t == "}")

    def module_item(self, mod: Module) -> None:
        start = self.tok
        linkage = None
        while self.tok.text in (".visible", ".extern", ".weak", ".common"):
            linkage = self.take().text[1:]
        text = self.tok.text
        if text in (".entry", ".func"):
            mod.functions.append(self.function(start, text == ".entry"))
            return
        if text in (".shared", ".global", ".const", ".local"):
            mod.globals.append(self.variable(start, linkage))
            self.expect(";", "after the declaration")
            return
        raise self.error(f"expected a directive, '.entry', '.func' or a variable declaration, found '{text or 'end of file'}'")

    def variable(self, start: Token, linkage: str | None) -> GlobalVar:
        space = self.take().text[1:]
        if space == "shared" and self.tok.text.startswith(".shared"):
            self.take()
        align = None
        type_ = None
        while self.tok.text.startswith(".") and self.tok.kind is Kind.NAME:
            t = self.take()
            if t.text == ".align":
                align = self.integer("an alignment")
            elif t.text[1:] in TYPES:
                type_ = t.text[1:]
            elif t.text.startswith(".shared::") or t.text in (".ptr", ".v2", ".v4"):
                if t.text in (".v2", ".v4"):
                    raise self.error("vector-typed variables are not supported", t)
            else:
                raise self.error(f"unexpected '{t.text}' in a variable declaration", t)
        if type_ is None:
            raise self.error("expected the variable's type (.b32, .u64, ...)")
        name = self.name("a variable name")
        count = None
        if self.accept("["):
            count = 0 if self.tok.text == "]" else self.integer("an array length")
            self.expect("]")
            if self.tok.text == "[":
                raise self.error("multi-dimensional arrays are not supported")
        init = None
        if self.accept("="):
            init = self.initializer()
        return GlobalVar(space, name.text, type_, start.start, align, count, linkage, init)

    def initializer(self) -> list[int | float]:
        values: list[int | float] = []
        braced = self.accept("{")
        while True:
            imm = self.immediate()
            values.append(imm.value)
            if not braced or not self.accept(","):
                break
        if braced:
            self.expect("}")
        return values

    def params(self) -> list[Param]:
        params: list[Param] = []
        self.expect("(")
        if self.accept(")"):
            return params
        while True:
            start = self.tok
            space = self.take().text
            if space not in (".param", ".reg"):
                raise self.error(f"expected '.param', found '{space or 'end of file'}'", start)
            align, type_, ptr_space, name, count = self.param_declaration()
            param = Param(name.text, type_, start.start, align, count, ptr_space)
            if space == ".reg":
                param.register = Variable(name.text, type_)
            params.append(param)
            if not self.accept(","):
                break
        self.expect(")", "to close the parameter list")
        return params

    def function(self, start: Token, is_kernel: bool) -> Function:
        self.take()
        returns: list[Param] = []
        if not is_kernel and self.tok.text == "(":
            returns = self.params()
            for r in returns:
                if r.register is None:  # `.param` return value: st.param writes it
                    r.register = Variable(r.name, r.type, param=True, count=r.count)
        name = self.name("a function name")
        params = self.params() if self.tok.text == "(" else []
        fn = Function(name.text, is_kernel, params, returns, [], start.start)
        while self.tok.text in PERF_DIRECTIVES:
            d = self.take().text
            values: list[int] = []
            if d == ".pragma":
                self.take()
                self.accept(";")
                continue
            if self.tok.kind is Kind.INT:
                values.append(self.integer("a size"))
                while self.accept(","):
                    values.append(self.integer("a size"))
            fn.directives[d] = values
        if self.accept(";"):
            fn.declaration = True
            return fn
        self.block(fn, None)
        self.resolve_labels(fn)
        return fn

    # ---- function bodies -------------------------------------------------------------------

    def block(self, fn: Function, parent: _Scope | None) -> None:
        self.expect("{", "to open the function body" if parent is None else None)
        self.scope_count += 1
        scope = _Scope(self.scope_count, parent)
        if parent is None:
            self.labels: dict[tuple[int, str], Label] = {}
            self.branches: list[Branch] = []
            for p in fn.params + fn.returns:
                if p.register is not None:
                    scope.vars[p.name] = p.register
        tokens = self.tokens
        while not self.accept("}"):
            tok = tokens[self.i]
            text = tok.text
            # (most statements: an instruction, which is the last case below; tested first)
            if tok.kind is Kind.NAME and text[0] != "." and text[0] != "%" and tokens[self.i + 1].text != ":":
                fn.body.append(self.instruction(scope))
                continue
            if tok.kind is Kind.EOF:
                raise self.error("expected '}' to close the block")
            if tok.text == "{":
                self.block(fn, scope)
            elif tok.text == ".reg":
                self.take()
                self.registers(scope)
            elif tok.text == ".param":
                self.take()
                self.call_parameter(scope)
            elif tok.text in (".shared", ".global", ".const", ".local"):
                var = self.variable(tok, None)
                self.expect(";", "after the declaration")
                fn.local_globals.append(var)
            elif tok.text in (".loc", ".pragma", ".file"):
                self.skip_statement()
            elif tok.text.startswith("."):
                raise self.error(f"unsupported directive '{tok.text}' in a function body")
            elif tok.kind is Kind.NAME and self.tokens[self.i + 1].text == ":" and not tok.text.startswith("%"):
                self.take()
                self.take()
                key = (scope.ident, tok.text)
                if key in self.labels or key in fn.branch_targets:
                    raise self.error(f"label '{tok.text}' is defined twice", tok)
                if self.tok.text == ".branchtargets":
                    fn.branch_targets[key] = self.branch_targets(key, scope, tok)
                    continue
                label = Label(key, tok.start)
                self.labels[key] = label
                fn.body.append(label)
            else:
                fn.body.append(self.instruction(scope))

    def branch_targets(self, key: tuple[int, str], scope: _Scope, start: Token) -> BranchTargets:
        self.take()
        targets: list[Branch] = []
        while True:
            name = self.name("a label")
            branch = Branch(name.text, scope.chain, name.start)
            self.branches.append(branch)
            targets.append(branch)
            if not self.accept(","):
                break
        self.expect(";", "after the branch targets")
        return BranchTargets(key, targets, start.start)

    def registers(self, scope: _Scope) -> None:
        type_ = None
        while self.tok.text.startswith(".") and self.tok.kind is Kind.NAME:
            t = self.take()
            if t.text[1:] in TYPES:
                type_ = t.text[1:]
            elif t.text in (".v2", ".v4", ".v8"):
                raise self.error("vector registers are not supported", t)
            else:
                raise self.error(f"unexpected '{t.text}' in a register declaration", t)
        if type_ is None:
            raise self.error("expected the register type (.b32, .pred, ...)")
        while True:
            name = self.name("a register name")
            if self.accept("<"):
                count = self.integer("a register count")
                self.expect(">")
                scope.ranges[name.text] = (count, type_)
            else:
                scope.vars[name.text] = Variable(name.text, type_)
            if not self.accept(","):
                break
        self.expect(";", "after the register declaration")

    def param_declaration(self) -> tuple[int | None, str, str | None, Token, int | None]:
        """(alignment, type, .ptr state space, name, array length) of `{.align N} {.ptr{.space}} .type name{[n]}`."""
        align = None
        type_ = None
        ptr_space = None
        while self.tok.text.startswith(".") and self.tok.kind is Kind.NAME:
            t = self.take()
            if t.text == ".align":
                align = self.integer("an alignment")
            elif t.text == ".ptr":
                ptr_space = "generic"
            elif t.text in (".global", ".shared", ".const", ".local") and ptr_space:
                ptr_space = t.text[1:]
            elif t.text[1:] in TYPES:
                type_ = t.text[1:]
            else:
                raise self.error(f"unexpected '{t.text}' in a parameter declaration", t)
        if type_ is None:
            raise self.error("expected the parameter's type (.u64, .b32, ...)")
        name = self.name("a parameter name")
        count = None
        if self.accept("["):
            count = self.integer("an array length")
            self.expect("]")
        return align, type_, ptr_space, name, count

    def call_parameter(self, scope: _Scope) -> None:
        """`.param{.align N} .b32 name{[count]};` in a body (a call sequence's argument or return value)."""
        start = self.tok
        _, type_, ptr_space, name, count = self.param_declaration()
        if ptr_space is not None:
            raise self.error("'.ptr' is for kernel parameters", start)
        scope.vars[name.text] = Variable(name.text, type_, param=True, count=count)
        self.expect(";", "after the parameter declaration")

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
        if self.tok.text == "(":
            returns = group()
            self.expect(",", "after the return values")
        callee = self.name("the called function")
        arguments = VectorOperand([])
        if self.accept(","):
            arguments = group()
        ins.operands = [returns, Symbol(callee.text, callee.start), arguments]

    def instruction(self, scope: _Scope) -> Instruction:
        tokens = self.tokens
        start = tokens[self.i]
        guard = None
        if start.text == "@":  # (accept's test: a string token is never `@`)
            self.i += 1
            negated = self.accept("!")
            guard = Reg(self.register(scope), negated)
        op = tokens[self.i]
        if op.kind is not Kind.NAME or op.text.startswith(("%", ".")):
            raise self.error(f"expected an instruction, found '{op.text or 'end of file'}'")
        self.i += 1
        self.opcode = op.text
        ins = Instruction(op.text, [], start.start, guard)
        if ins.parts[0] == "call":
            self.call_operands(scope, ins)
        elif tokens[self.i].text != ";":
            operands = ins.operands
            while True:
                operands.append(self.operand(scope))
                punct = tokens[self.i].text
                if punct == "|":
                    self.i += 1
                    ins.extra = self.operand(scope)
                    punct = tokens[self.i].text
                if punct != ",":
                    break
                self.i += 1
        if tokens[self.i].text == ";":  # (expect's test, inline: once per instruction)
            self.i += 1
        else:
            self.expect(";", "at the end of the instruction")
        return ins

    def register(self, scope: _Scope) -> Variable:
        tok = self.name("a register")
        var = scope.lookup(tok.text)
        if var is None:
            raise self.error(f"use of undeclared register '{tok.text}'", tok)
        var.mentions += 1
        return var

    def operand(self, scope: _Scope) -> Operand:
        tok = self.tokens[self.i]
        if tok.kind is Kind.NAME:
            if tok.text[0] == "%":  # (most operands: a declared register, as name_operand reads it)
                var = scope.lookup(tok.text)
                if var is not None:
                    self.i += 1
                    var.mentions += 1
                    return Reg(var)
            if tok.text != "_":  # (`_` is the sink)
                return self.name_operand(scope)
        if tok.text == "[":
            self.take()
            base: Reg | Symbol | Imm
            if self.tok.kind is Kind.INT:
                base = self.immediate()
            else:
                base = self.name_operand(scope)  # type: ignore[assignment]
                if not isinstance(base, (Reg, Symbol)):
                    raise self.error("expected a register or a variable in an address", tok)
            offset = 0
            if self.accept("+"):
                offset = self.integer("an address offset")
            elif self.tok.text == "-":
                offset = self.integer("an address offset")
            coordinates = None
            if self.accept(","):
                if self.tok.text != "{":
                    raise self.error("expected '{' to open the tensor coordinates")
                coordinates = self.operand(scope)
            self.expect("]", "to close the address")
            return Address(base, offset, coordinates)  # type: ignore[arg-type]
        if tok.text == "{":
            self.take()
            elements: list[Reg | Imm | None] = []
            while True:
                if self.tok.text == "_":
                    self.take()
                    elements.append(None)
                elif self.tok.kind in (Kind.INT, Kind.FLOAT) or self.tok.text == "-":
                    elements.append(self.immediate())
                else:
                    elements.append(Reg(self.register(scope)))
                if not self.accept(","):
                    break
            self.expect("}", "to close the vector operand")
            return VectorOperand(elements)
        if tok.text == "!":
            self.take()
            return Reg(self.register(scope), negated=True)
        if tok.kind in (Kind.INT, Kind.FLOAT) or tok.text == "-":
            return self.immediate()
        if tok.text == "_":
            self.take()
            return Sink()
        return self.name_operand(scope)

    def name_operand(self, scope: _Scope) -> Operand:
        tok = self.name("an operand")
        text = tok.text
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
            raise self.error(f"use of undeclared register '{text}'", tok)
        if self.tok.text in ("[", "<"):
            raise self.error("indexed operands are not supported")
        if text.startswith("$") or self.instruction_wants_label(text):
            branch = Branch(text, scope.chain, tok.start)
            self.branches.append(branch)
            return branch  # type: ignore[return-value]
        return Symbol(text)

    def instruction_wants_label(self, text: str) -> bool:
        previous = self.tokens[self.i - 2].text if self.i >= 2 else ""
        return previous.startswith("bra") or self.opcode.startswith("brx")  # brx.idx %i, L

    def immediate(self) -> Imm:
        negative = self.accept("-")
        tok = self.take()
        if tok.kind is Kind.INT:
            value = parse_int(tok.text)
            return Imm(-value if negative else value, tok.text)
        if tok.kind is Kind.FLOAT:
            value_f = parse_float(tok.text)
            return Imm(-value_f if negative else value_f, tok.text, is_float=True)
        raise self.error(f"expected a number, found '{tok.text or 'end of file'}'", tok)

    def resolve_labels(self, fn: Function) -> None:
        for branch in self.branches:
            for scope in branch.scopes:
                if (scope, branch.name) in self.labels or (scope, branch.name) in fn.branch_targets:
                    branch.key = (scope, branch.name)
                    break
            else:
                raise DiagnosticError([self.source.error(branch.start, f"use of undefined label '{branch.name}'")])


def parse_int(text: str) -> int:
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
    import struct

    if text[:2] in ("0f", "0F"):
        return struct.unpack("<f", int(text[2:], 16).to_bytes(4, "little"))[0]
    if text[:2] in ("0d", "0D"):
        return struct.unpack("<d", int(text[2:], 16).to_bytes(8, "little"))[0]
    return float(text)


def parse_ptx(text: str, name: str = "<input>", line_offset: int = 0) -> Module:
    """The syntax tree of a PTX module; DiagnosticError at the first syntax error."""
    from tmem_dialect.passes.analysis import frozen_heap

    with frozen_heap():  # tokens and tree nodes are acyclic: no collection scans them (linear time)
        return Parser(Source(text, name, line_offset)).module()
