"""gpu.module with targets and scf.for unsigned as CuTe DSL and iree-opt print them (xDSL 0.74 reads neither).

The ops subclass xDSL's, so passes and the interpreter see the same classes. Upstream properties
xDSL does not define (`targets`, `unsignedCmp`) are kept as attributes of the same name: the custom
form prints them as upstream does, and the generic form as attributes, which upstream's generic
parser accepts for inherent attributes.
"""

from __future__ import annotations

from xdsl.dialects import gpu, scf
from xdsl.dialects.builtin import ArrayAttr, UnitAttr
from xdsl.ir import Attribute, Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer


class _PropertiesAsAttributes:
    """`create` moves the named upstream properties into the attribute dictionary."""

    MOVED: tuple[str, ...] = ()

    @classmethod
    def create(cls, *, properties=None, attributes=None, **kwargs):  # type: ignore[override]
        props = dict(properties or {})
        attrs = dict(attributes or {})
        for name in cls.MOVED:
            if name in props:
                attrs[name] = props.pop(name)
        return super().create(properties=props, attributes=attrs, **kwargs)  # type: ignore[misc]


class GPUModuleOp(_PropertiesAsAttributes, gpu.ModuleOp):
    """`gpu.module @kernels [#nvvm.target<...>] attributes {...} { ... }`."""

    MOVED = ("targets", "offloadingHandler")

    @classmethod
    def parse(cls, parser: Parser) -> GPUModuleOp:
        name = parser.parse_symbol_name()
        attrs: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("<") is not None:
            attrs["offloadingHandler"] = parser.parse_attribute()
            parser.parse_punctuation(">")
        if parser._current_token.text == "[":  # pyright: ignore[reportPrivateUsage]
            targets = parser.parse_attribute()
            if not isinstance(targets, ArrayAttr):
                parser.raise_error("gpu.module targets must be an array of target attributes")
            attrs["targets"] = targets
        if parser.parse_optional_keyword("attributes") is not None:
            attrs |= parser.parse_optional_attr_dict()
        body = parser.parse_region()
        if not body.blocks:
            from xdsl.ir import Block

            body.add_block(Block())
        op = cls.create(properties={"sym_name": name}, regions=[body], attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" @")
        printer.print_string(self.sym_name.data)
        attrs = dict(self.attributes)
        if "offloadingHandler" in attrs:
            printer.print_string(" <")
            printer.print_attribute(attrs.pop("offloadingHandler"))
            printer.print_string(">")
        if "targets" in attrs:
            printer.print_string(" ")
            printer.print_attribute(attrs.pop("targets"))
        if attrs:
            printer.print_string(" attributes")
            printer.print_op_attributes(attrs)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


class ForOp(scf.ForOp):
    """`scf.for unsigned %i = %lb to %ub step %s : i32`: bounds compared as unsigned integers.

    Only unsigned loops are of this class; every other scf.for parses as xDSL's own op. Passes and
    lowerings that match scf.for by exact class therefore reject an unsigned loop (they would
    compare its bounds as signed) instead of miscompiling it.
    """

    @property
    def unsigned(self) -> bool:
        return "unsignedCmp" in self.attributes

    @classmethod
    def create(cls, *, properties=None, attributes=None, **kwargs):  # type: ignore[override]
        props = dict(properties or {})
        attrs = dict(attributes or {})
        if "unsignedCmp" in props:
            attrs["unsignedCmp"] = props.pop("unsignedCmp")
        if "unsignedCmp" not in attrs and cls is ForOp:
            return scf.ForOp.create(properties=props, attributes=attrs, **kwargs)
        return super().create(properties=props, attributes=attrs, **kwargs)

    @classmethod
    def parse(cls, parser: Parser) -> scf.ForOp:  # type: ignore[override]
        if parser.parse_optional_keyword("unsigned") is None:
            return scf.ForOp.parse(parser)
        op = super().parse(parser)
        op.attributes["unsignedCmp"] = UnitAttr()
        return op

    def print(self, printer: Printer) -> None:
        flag = self.attributes.pop("unsignedCmp", None)
        try:
            if flag is not None:
                printer.print_string(" unsigned")
            super().print(printer)
        finally:
            if flag is not None:
                self.attributes["unsignedCmp"] = flag


def _replace(dialect: Dialect, replaced: dict[type, type]) -> Dialect:
    return Dialect(dialect.name, [replaced.get(op, op) for op in dialect.operations], list(dialect.attributes))


def extended_gpu() -> Dialect:
    return _replace(gpu.GPU, {gpu.ModuleOp: GPUModuleOp})


def extended_scf() -> Dialect:
    return _replace(scf.Scf, {scf.ForOp: ForOp})


