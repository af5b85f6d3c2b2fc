"""llvm-dialect spellings real compilers print that xDSL 0.74 does not read (CuTe DSL, Triton, iree-opt's generic form).

- `#llvm.loop_annotation<...>`, `#llvm.loop_unroll<...>` and the other loop metadata, and
  `#nvvm.target<...>`: key = value attributes, kept and printed back as written;
- `llvm.br` / `llvm.cond_br` with `loop_annotation = #...` (upstream's property);
- `llvm.mlir.zero` of any LLVM-compatible type (vectors, structs, integers), `llvm.select` on a
  vector of i1, `llvm.trunc` with integer `overflowFlags` (iree-opt's generic form);
- `llvm.inline_asm ... operand_attrs = [...]`, `llvm.mlir.global` with `tls_mode` (generic);
- `llvm.intr.assume` (with operand bundles), `llvm.intr.trap`, `llvm.intr.fshl`/`fshr`.
Each class subclasses xDSL's op where one exists, so passes, the emitter and the interpreter,
which match by class, see the same op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    ParsePropInAttrDict,
    opt_result_def,
    successor_def,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


class KeyValueAttr(ParametrizedAttribute):
    """`#dialect.name<key = value, ...>`: the entries as written (upstream defines each key; we keep them)."""

    keys: ArrayAttr[StringAttr]
    values: ArrayAttr[Attribute]

    def __init__(self, entries: Sequence[tuple[str, Attribute]] = ()):
        super().__init__(ArrayAttr([StringAttr(k) for k, _ in entries]), ArrayAttr([v for _, v in entries]))

    def get(self, key: str) -> Attribute | None:
        for k, v in zip(self.keys.data, self.values.data):
            if k.data == key:
                return v
        return None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        keys: list[StringAttr] = []
        values: list[Attribute] = []
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation(">") is None and parser._current_token.text != ">":  # pyright: ignore[reportPrivateUsage]
                while True:
                    keys.append(StringAttr(parser.parse_identifier()))
                    parser.parse_punctuation("=")
                    values.append(_parse_value(parser))
                    if parser.parse_optional_punctuation(",") is None:
                        break
        return [ArrayAttr(keys), ArrayAttr(values)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for i, (k, v) in enumerate(zip(self.keys.data, self.values.data)):
            if i:
                printer.print_string(", ")
            printer.print_string(f"{k.data} = ")
            if isinstance(v, IntAttr):
                printer.print_string(str(v.data))
            else:
                printer.print_attribute(v)
        printer.print_string(">")


def _parse_value(parser: AttrParser) -> Attribute:
    """An untyped integer (`O = 3`) stays untyped; `1 : i32`, true/false, strings and attributes as MLIR reads them."""
    negative = parser.parse_optional_punctuation("-") is not None
    value = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
    if value is not None:
        value = -value if negative else value
        if parser.parse_optional_punctuation(":") is not None:
            return IntegerAttr(value, parser.parse_type())  # type: ignore[arg-type]
        return IntAttr(value)
    if parser.parse_optional_keyword("true") is not None:
        return BoolAttr.from_bool(True)
    if parser.parse_optional_keyword("false") is not None:
        return BoolAttr.from_bool(False)
    if parser._current_token.text == "loc":  # pyright: ignore[reportPrivateUsage]
        return parser.parse_location()  # type: ignore[attr-defined]
    return parser.parse_attribute()


def _key_value_attribute(name: str) -> type[KeyValueAttr]:
    cls = type(name.split(".")[1].title().replace("_", "") + "Attr", (KeyValueAttr,), {"name": name})
    return irdl_attr_definition(cls)


LOOP_ATTRIBUTES = tuple(
    _key_value_attribute(f"llvm.{n}")
    for n in ("loop_annotation", "loop_unroll", "loop_vectorize", "loop_interleave", "loop_unroll_and_jam",
              "loop_licm", "loop_distribute", "loop_pipeline", "loop_peeled", "loop_unswitch")
)
NVVMTargetAttr = _key_value_attribute("nvvm.target")


# ---- branches with loop metadata ------------------------------------------------------------------
# Subclasses of xDSL's ops re-declare every field (IRDL rebuilds the definition from the class) and
# reset parse/print to Operation's, so that the new assembly_format is the one used.

_DEFAULT_PARSE = Operation.__dict__["parse"]
_DEFAULT_PRINT = Operation.__dict__["print"]


@irdl_op_definition
class BrOp(llvm.BrOp):
    """`llvm.br ^bb(args : types) loop_annotation = #a` (upstream's custom form)."""

    arguments = var_operand_def()
    successor = successor_def()
    loop_annotation = opt_prop_def(Attribute)

    parse = _DEFAULT_PARSE
    print = _DEFAULT_PRINT
    assembly_format = (
        "$successor (`(` $arguments^ `:` type($arguments) `)`)? (`loop_annotation` `=` $loop_annotation^)? attr-dict"
    )

    def verify_(self) -> None:
        """Only this definition's constraints (xDSL's class would check its own, narrower ones)."""


@irdl_op_definition
class CondBrOp(llvm.CondBrOp):
    """`llvm.cond_br %c, ^a, ^b loop_annotation = #a` (upstream's custom form)."""

    cond = operand_def(IntegerType(1))
    then_arguments = var_operand_def()
    else_arguments = var_operand_def()
    then_block = successor_def()
    else_block = successor_def()
    loop_annotation = opt_prop_def(Attribute)
    branch_weights = opt_prop_def(DenseArrayBase)
    # irdl_options (operand segments) come from xDSL's class

    parse = _DEFAULT_PARSE
    print = _DEFAULT_PRINT
    assembly_format = (
        "$cond (`weights` `(` $branch_weights^ `)`)? `,`"
        " $then_block (`(` $then_arguments^ `:` type($then_arguments) `)`)? `,`"
        " $else_block (`(` $else_arguments^ `:` type($else_arguments) `)`)?"
        " (`loop_annotation` `=` $loop_annotation^)? attr-dict"
    )

    def verify_(self) -> None:
        """Only this definition's constraints (xDSL's class would check its own, narrower ones)."""


# ---- values ---------------------------------------------------------------------------------------


@irdl_op_definition
class ZeroOp(llvm.ZeroOp):
    """`llvm.mlir.zero : T` for any LLVM-compatible T (xDSL allows pointers and a few types only)."""

    res = result_def(Attribute)

    parse = _DEFAULT_PARSE
    print = _DEFAULT_PRINT
    assembly_format = "attr-dict `:` type($res)"

    def verify_(self) -> None:
        """Only this definition's constraints (xDSL's class would check its own, narrower ones)."""


@irdl_op_definition
class SelectOp(llvm.SelectOp):
    """`llvm.select %c, %a, %b : vector<4xi1>, vector<4xi32>`: a vector condition selects per element."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(Attribute)
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    parse = _DEFAULT_PARSE
    print = _DEFAULT_PRINT
    assembly_format = "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($res)"

    def verify_(self) -> None:
        c = self.cond.type
        if c == i1:
            return
        lhs = self.lhs.type
        if isinstance(c, VectorType) and c.get_element_type() == i1 and isinstance(lhs, VectorType) \
                and lhs.get_shape() == c.get_shape():
            return
        raise VerifyException(f"the condition must be i1 or a vector of i1 matching the operands, got {c}")


class TruncOp(llvm.TruncOp):
    """iree-opt's generic form writes `overflowFlags = 1 : i32`; xDSL wants `#llvm.overflow<nsw>`."""

    @classmethod
    def create(cls, *, properties=None, **kwargs):  # type: ignore[override]
        props = dict(properties or {})
        flags = props.get("overflowFlags")
        if isinstance(flags, IntegerAttr):
            names = [n for bit, n in ((1, "nsw"), (2, "nuw")) if flags.value.data & bit]
            if flags.value.data & ~3:
                raise VerifyException(f"unknown overflow flags {flags.value.data}")
            props["overflowFlags"] = llvm.OverflowAttr(
                [llvm.OverflowFlag(n) for n in names]  # type: ignore[arg-type]
            ) if names else llvm.OverflowAttr("none")
        return super().create(properties=props, **kwargs)


# ---- inline asm and globals -------------------------------------------------------------------------


@irdl_op_definition
class InlineAsmOp(llvm.InlineAsmOp):
    """`llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "...", "=r" %x : (i32) -> i32`."""

    operands_ = var_operand_def()
    res = opt_result_def()
    asm_dialect = opt_prop_def(IntegerAttr)
    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    has_side_effects = opt_prop_def(UnitAttr)
    is_align_stack = opt_prop_def(UnitAttr)
    tail_call_kind = prop_def(llvm.TailCallKindAttr, default_value=llvm.TailCallKindAttr(llvm.TailCallKind.NONE))
    operand_attrs = opt_prop_def(ArrayAttr)

    def verify_(self) -> None:
        """Only this definition's constraints (xDSL's class would check its own, narrower ones)."""

    def print(self, printer: Printer) -> None:
        if self.has_side_effects is not None:
            printer.print_string(" has_side_effects")
        if self.is_align_stack is not None:
            printer.print_string(" is_align_stack")
        if (tck := self.tail_call_kind.data) != llvm.TailCallKind.NONE:
            printer.print_string(f" tail_call_kind = <{tck.value}>")
        if self.asm_dialect is not None:
            printer.print_string(f" asm_dialect = {llvm.ASM_DIALECT_NAME_BY_KEY[self.asm_dialect.value.data]}")
        if self.operand_attrs is not None:
            printer.print_string(" operand_attrs = ")
            printer.print_attribute(self.operand_attrs)
        printer.print_string(" ")
        printer.print_string_literal(self.asm_string.data)
        printer.print_string(", ")
        printer.print_string_literal(self.constraints.data)
        if self.operands_:
            printer.print_string(" ")
            printer.print_list(self.operands_, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(
            [v.type for v in self.operands_], [self.res.type] if self.res is not None else []
        )

    @classmethod
    def parse(cls, parser: Parser) -> InlineAsmOp:
        # the flags come in upstream's order; operand_attrs sits right before the asm string
        flags: dict[str, Attribute] = {}
        has_side_effects = parser.parse_optional_keyword("has_side_effects") is not None
        is_align_stack = parser.parse_optional_keyword("is_align_stack") is not None
        if parser.parse_optional_keyword("tail_call_kind") is not None:
            parser.parse_punctuation("=")
            parser.parse_punctuation("<")
            flags["tail_call_kind"] = llvm.TailCallKindAttr(parser.parse_str_enum(llvm.TailCallKind))
            parser.parse_punctuation(">")
        asm_dialect = None
        if parser.parse_optional_keyword("asm_dialect") is not None:
            parser.parse_punctuation("=")
            name = parser.parse_identifier()
            if name not in llvm.ASM_DIALECT_KEY_BY_NAME:
                parser.raise_error("Expected one of 'att', 'intel' after 'asm_dialect ='")
            asm_dialect = llvm.ASM_DIALECT_KEY_BY_NAME[name]
        operand_attrs = None
        if parser.parse_optional_keyword("operand_attrs") is not None:
            parser.parse_punctuation("=")
            operand_attrs = parser.parse_attribute()
            if not isinstance(operand_attrs, ArrayAttr):
                parser.raise_error("operand_attrs must be an array attribute")
        attrs = parser.parse_optional_attr_dict()
        asm_string = parser.parse_str_literal()
        parser.parse_punctuation(",")
        constraints = parser.parse_str_literal()
        operands_pos = parser.pos
        operands = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        ) or []
        attrs |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        op = cls(
            asm_string, constraints, parser.resolve_operands(operands, ft.inputs.data, operands_pos),
            ft.outputs.data, asm_dialect=asm_dialect, has_side_effects=has_side_effects,
            is_align_stack=is_align_stack, tail_call_kind=flags.get("tail_call_kind"),  # type: ignore[arg-type]
        )
        if operand_attrs is not None:
            op.properties["operand_attrs"] = operand_attrs
        op.attributes |= attrs
        return op


class GlobalOp(llvm.GlobalOp):
    """Reads upstream's `tls_mode` property (generic form) as xDSL's `thread_local_`."""

    @classmethod
    def create(cls, *, properties=None, **kwargs):  # type: ignore[override]
        props = dict(properties or {})
        mode = props.pop("tls_mode", None)
        if isinstance(mode, IntegerAttr) and mode.value.data:
            props["thread_local_"] = UnitAttr()
        visibility = props.get("visibility_")
        if isinstance(visibility, IntegerAttr) and visibility.value.data == 0:
            del props["visibility_"]  # the default; xDSL would print it in the attribute dictionary
        return super().create(properties=props, **kwargs)


# ---- intrinsics -------------------------------------------------------------------------------------


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """`llvm.intr.assume %cond ["align"(%p, %n : !llvm.ptr<3>, i64), ...] : i1`, with operand bundles
    (CuTe DSL's alignment assumptions); the bundles are hints, which nothing here reads."""

    name = "llvm.intr.assume"

    cond = operand_def(i1)
    op_bundle_operands = var_operand_def()
    op_bundle_sizes = prop_def(DenseArrayBase, default_value=DenseArrayBase.from_list(i32, []))
    op_bundle_tags = opt_prop_def(ArrayAttr)

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, cond: SSAValue):
        super().__init__(operands=[cond, []])

    @classmethod
    def parse(cls, parser: Parser) -> AssumeOp:
        cond = parser.parse_unresolved_operand()
        tags: list[StringAttr] = []
        sizes: list[int] = []
        bundle: list = []
        if parser.parse_optional_punctuation("[") is not None:
            while True:
                tags.append(StringAttr(parser.parse_str_literal()))
                parser.parse_punctuation("(")
                names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
                parser.parse_punctuation(":")
                types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                parser.parse_punctuation(")")
                if len(names) != len(types):
                    parser.raise_error(f"operand bundle '{tags[-1].data}' has {len(names)} operands and {len(types)} types")
                bundle += [parser.resolve_operand(n, t) for n, t in zip(names, types)]
                sizes.append(len(names))
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation("]")
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        cond_value = parser.resolve_operand(cond, parser.parse_type())
        props: dict[str, Attribute] = {"op_bundle_sizes": DenseArrayBase.from_list(i32, sizes)}
        if tags:
            props["op_bundle_tags"] = ArrayAttr(tags)
        for name in ("op_bundle_sizes", "op_bundle_tags"):
            if name in attrs:
                props[name] = attrs.pop(name)
        return cls.create(operands=[cond_value, *bundle], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        sizes = tuple(self.op_bundle_sizes.get_values())
        if sizes:
            printer.print_string(" [")
            operands = list(self.op_bundle_operands)
            tags = self.op_bundle_tags.data if self.op_bundle_tags is not None else ()
            at = 0
            for k, (tag, size) in enumerate(zip(tags, sizes)):
                part = operands[at: at + size]
                at += size
                printer.print_string(", " if k else "")
                printer.print_string_literal(tag.data)  # type: ignore[attr-defined]
                printer.print_string("(")
                printer.print_list(part, printer.print_operand)
                printer.print_string(" : ")
                printer.print_list([o.type for o in part], printer.print_attribute)
                printer.print_string(")")
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)

    def verify_(self) -> None:
        sizes = tuple(self.op_bundle_sizes.get_values())
        tags = self.op_bundle_tags.data if self.op_bundle_tags is not None else ()
        if sum(sizes) != len(self.op_bundle_operands) or len(tags) != len(sizes):
            raise VerifyException("llvm.intr.assume: op_bundle_sizes, op_bundle_tags and the bundle operands disagree")


@irdl_op_definition
class TrapOp(IRDLOperation):
    """`llvm.intr.trap`: abort the kernel."""

    name = "llvm.intr.trap"

    assembly_format = "attr-dict"


REPLACED: dict[type, type] = {
    llvm.BrOp: BrOp,
    llvm.CondBrOp: CondBrOp,
    llvm.ZeroOp: ZeroOp,
    llvm.SelectOp: SelectOp,
    llvm.TruncOp: TruncOp,
    llvm.InlineAsmOp: InlineAsmOp,
    llvm.GlobalOp: GlobalOp,
}
class _FunnelShiftOp(IRDLOperation):
    """`llvm.intr.fsh{l,r}(%a, %b, %n) : (iN, iN, iN) -> iN`: a funnel shift of the 2N-bit a:b by n mod N
    (CuTe DSL packs f16 halves with it)."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    a = operand_def(T)
    b = operand_def(T)
    c = operand_def(T)
    res = result_def(T)
    assembly_format = "`(` $a `,` $b `,` $c `)` attr-dict `:` functional-type(operands, results)"

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue):
        super().__init__(operands=[a, b, c], result_types=[a.type])


@irdl_op_definition
class FshlOp(_FunnelShiftOp):
    name = "llvm.intr.fshl"


@irdl_op_definition
class FshrOp(_FunnelShiftOp):
    name = "llvm.intr.fshr"


OPERATIONS = (AssumeOp, TrapOp, FshlOp, FshrOp)
ATTRIBUTES = LOOP_ATTRIBUTES

