"""The PTX recursive-descent parser (the tree is tree.py): directives, declarations, scoped bodies.

Instructions and their operands are read by operands.py, which resolves register names through
the `{ }` scopes. Labels are resolved per function after its body is read (branches may jump
forward, and out of scopes).
"""

from __future__ import annotations

from tmem_dialect.diagnostics import DiagnosticError
from tmem_dialect.frontend.lexer import Source
from tmem_dialect.frontend.operands import (  # noqa: F401 (parse_int, parse_float: re-exported)
    EOF,
    FLOAT,
    INT,
    NAME,
    InstructionReader,
    _Scope,
    parse_float,
    parse_int,
)
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


class Parser(InstructionReader):
    def __init__(self, source: Source):
        super().__init__(source)
        self.scope_count = 0

    # ---- module ----------------------------------------------------------------------------

    def module(self) -> Module:
        mod = Module(self.source)
        kinds, texts = self.kinds, self.texts
        while kinds[self.i] is not EOF:
            at = self.i
            text = texts[at]
            if text == ".version":
                self.take()
                v = self.take()
                major, _, minor = texts[v].partition(".")
                if kinds[v] is not FLOAT or not major.isdigit() or not minor.isdigit():
                    raise self.error("expected a version such as 8.6 after .version", v)
                mod.version = (int(major), int(minor))
            elif text == ".target":
                self.take()
                mod.targets.append(texts[self.name("a target such as sm_100a")])
                while self.accept(","):
                    mod.targets.append(texts[self.name("a target option")])
            elif text == ".address_size":
                self.take()
                mod.address_size = self.integer("an address size")
                if mod.address_size != 64:
                    raise self.error("only .address_size 64 is supported", at)
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
        texts, starts, i = self.texts, self.starts, self.i  # (Triton writes a .loc before most instructions)
        line_end = self.source.text.find("\n", starts[i])
        if line_end < 0:
            line_end = len(self.source.text)
        i += 1  # (past the directive: it is neither the end nor ';')
        while (text := texts[i]) and text != ";":
            # .file / .loc have no ';' in PTX: they end at the line's end
            if starts[i] > line_end:
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
        while depth and self.kinds[self.i] is not EOF:
            t = self.texts[self.take()]
            depth += (t == "{") - (t == "}")

    def module_item(self, mod: Module) -> None:
        start = self.i
        linkage = None
        while self.texts[self.i] in (".visible", ".extern", ".weak", ".common"):
            linkage = self.texts[self.take()][1:]
        text = self.texts[self.i]
        if text in (".entry", ".func"):
            mod.functions.append(self.function(start, text == ".entry"))
            return
        if text in (".shared", ".global", ".const", ".local"):
            mod.globals.append(self.variable(start, linkage))
            self.expect(";", "after the declaration")
            return
        raise self.error(f"expected a directive, '.entry', '.func' or a variable declaration, found '{text or 'end of file'}'")

    def variable(self, start: int, linkage: str | None) -> GlobalVar:
        texts = self.texts
        space = texts[self.take()][1:]
        if space == "shared" and texts[self.i].startswith(".shared"):
            self.take()
        align = None
        type_ = None
        while texts[self.i].startswith(".") and self.kinds[self.i] is NAME:
            t = self.take()
            text = texts[t]
            if text == ".align":
                align = self.integer("an alignment")
            elif text[1:] in TYPES:
                type_ = text[1:]
            elif text.startswith(".shared::") or text in (".ptr", ".v2", ".v4"):
                if text in (".v2", ".v4"):
                    raise self.error("vector-typed variables are not supported", t)
            else:
                raise self.error(f"unexpected '{text}' in a variable declaration", t)
        if type_ is None:
            raise self.error("expected the variable's type (.b32, .u64, ...)")
        name = self.name("a variable name")
        count = None
        if self.accept("["):
            count = 0 if texts[self.i] == "]" else self.integer("an array length")
            self.expect("]")
            if texts[self.i] == "[":
                raise self.error("multi-dimensional arrays are not supported")
        init = None
        if self.accept("="):
            init = self.initializer()
        return GlobalVar(space, texts[name], type_, self.starts[start], align, count, linkage, init)

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
            start = self.i
            space = self.texts[self.take()]
            if space not in (".param", ".reg"):
                raise self.error(f"expected '.param', found '{space or 'end of file'}'", start)
            align, type_, ptr_space, name, count = self.param_declaration()
            param = Param(self.texts[name], type_, self.starts[start], align, count, ptr_space)
            if space == ".reg":
                param.register = Variable(self.texts[name], type_)
            params.append(param)
            if not self.accept(","):
                break
        self.expect(")", "to close the parameter list")
        return params

    def function(self, start: int, is_kernel: bool) -> Function:
        self.take()
        returns: list[Param] = []
        if not is_kernel and self.texts[self.i] == "(":
            returns = self.params()
            for r in returns:
                if r.register is None:  # `.param` return value: st.param writes it
                    r.register = Variable(r.name, r.type, param=True, count=r.count)
        name = self.name("a function name")
        params = self.params() if self.texts[self.i] == "(" else []
        fn = Function(self.texts[name], is_kernel, params, returns, [], self.starts[start])
        while self.texts[self.i] in PERF_DIRECTIVES:
            d = self.texts[self.take()]
            values: list[int] = []
            if d == ".pragma":
                self.take()
                self.accept(";")
                continue
            if self.kinds[self.i] is INT:
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
            self.branches = []
            for p in fn.params + fn.returns:
                if p.register is not None:
                    scope.vars[p.name] = p.register
        kinds, texts = self.kinds, self.texts
        body = fn.body
        while True:
            i = self.i
            text = texts[i]
            if text == "}":  # (accept's test, inline: once per statement)
                self.i = i + 1
                return
            # (most statements: an instruction, which is the last case below; tested first)
            if kinds[i] is NAME and text[0] != "." and text[0] != "%" and texts[i + 1] != ":":
                body.append(self.instruction(scope))
                continue
            if kinds[i] is EOF:
                raise self.error("expected '}' to close the block")
            if text in (".loc", ".pragma", ".file"):  # (the next most frequent: Triton's .loc lines)
                self.skip_statement()
            elif text == "{":
                self.block(fn, scope)
            elif text == ".reg":
                self.take()
                self.registers(scope)
            elif text == ".param":
                self.take()
                self.call_parameter(scope)
            elif text in (".shared", ".global", ".const", ".local"):
                var = self.variable(i, None)
                self.expect(";", "after the declaration")
                fn.local_globals.append(var)
            elif text.startswith("."):
                raise self.error(f"unsupported directive '{text}' in a function body")
            elif kinds[i] is NAME and texts[i + 1] == ":" and not text.startswith("%"):
                self.i = i + 2
                key = (scope.ident, text)
                if key in self.labels or key in fn.branch_targets:
                    raise self.error(f"label '{text}' is defined twice", i)
                if texts[self.i] == ".branchtargets":
                    fn.branch_targets[key] = self.branch_targets(key, scope, i)
                    continue
                label = Label(key, self.starts[i])
                self.labels[key] = label
                body.append(label)
            else:
                body.append(self.instruction(scope))

    def branch_targets(self, key: tuple[int, str], scope: _Scope, start: int) -> BranchTargets:
        self.take()
        targets: list[Branch] = []
        while True:
            name = self.name("a label")
            branch = Branch(self.texts[name], scope.chain, self.starts[name])
            self.branches.append(branch)
            targets.append(branch)
            if not self.accept(","):
                break
        self.expect(";", "after the branch targets")
        return BranchTargets(key, targets, self.starts[start])

    def registers(self, scope: _Scope) -> None:
        texts = self.texts
        type_ = None
        while texts[self.i].startswith(".") and self.kinds[self.i] is NAME:
            t = self.take()
            text = texts[t]
            if text[1:] in TYPES:
                type_ = text[1:]
            elif text in (".v2", ".v4", ".v8"):
                raise self.error("vector registers are not supported", t)
            else:
                raise self.error(f"unexpected '{text}' in a register declaration", t)
        if type_ is None:
            raise self.error("expected the register type (.b32, .pred, ...)")
        while True:
            name = texts[self.name("a register name")]
            if self.accept("<"):
                count = self.integer("a register count")
                self.expect(">")
                scope.ranges[name] = (count, type_)
            else:
                scope.vars[name] = Variable(name, type_)
            if not self.accept(","):
                break
        self.expect(";", "after the register declaration")

    def param_declaration(self) -> tuple[int | None, str, str | None, int, int | None]:
        """(alignment, type, .ptr state space, name (its token), array length) of
        `{.align N} {.ptr{.space}} .type name{[n]}`."""
        texts = self.texts
        align = None
        type_ = None
        ptr_space = None
        while texts[self.i].startswith(".") and self.kinds[self.i] is NAME:
            t = self.take()
            text = texts[t]
            if text == ".align":
                align = self.integer("an alignment")
            elif text == ".ptr":
                ptr_space = "generic"
            elif text in (".global", ".shared", ".const", ".local") and ptr_space:
                ptr_space = text[1:]
            elif text[1:] in TYPES:
                type_ = text[1:]
            else:
                raise self.error(f"unexpected '{text}' in a parameter declaration", t)
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
        start = self.i
        _, type_, ptr_space, name, count = self.param_declaration()
        if ptr_space is not None:
            raise self.error("'.ptr' is for kernel parameters", start)
        text = self.texts[name]
        scope.vars[text] = Variable(text, type_, param=True, count=count)
        self.expect(";", "after the parameter declaration")

    def resolve_labels(self, fn: Function) -> None:
        for branch in self.branches:
            for scope in branch.scopes:
                if (scope, branch.name) in self.labels or (scope, branch.name) in fn.branch_targets:
                    branch.key = (scope, branch.name)
                    break
            else:
                raise DiagnosticError([self.source.error(branch.start, f"use of undefined label '{branch.name}'")])


def parse_ptx(text: str, name: str = "<input>", line_offset: int = 0) -> Module:
    """The syntax tree of a PTX module; DiagnosticError at the first syntax error."""
    from tmem_dialect.passes.analysis import frozen_heap

    with frozen_heap():  # tokens and tree nodes are acyclic: no collection scans them (linear time)
        return Parser(Source(text, name, line_offset)).module()
