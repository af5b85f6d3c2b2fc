"""IR objects built as xDSL's constructors build them, minus their per-call checks: the importer's hot path."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, IntegerAttr, IntegerType, LocationAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue, SSAValues, Use
from xdsl.irdl import IRDLOperation, OptionalDef

_new = object.__new__


def checked_location(filename: StringAttr, line: IntAttr, column: IntAttr) -> FileLineColLoc:
    """FileLineColLoc(filename, line, column) from parameters of the right types already, without
    its verifier (each of a file's ~one location per instruction cost 4.5 us, 1 us this way;
    tests/test_frontend_construct.py pins the result equal to the constructor's)."""
    loc = _new(FileLineColLoc)
    object.__setattr__(loc, "filename", filename)
    object.__setattr__(loc, "line", line)
    object.__setattr__(loc, "column", column)
    return loc


def checked_int(n: int) -> IntAttr:
    """IntAttr(n) without its verifier (the lines and columns of a file's locations, constants'
    values; tests/test_frontend_construct.py pins the result equal to the constructor's)."""
    attr = _new(IntAttr)
    object.__setattr__(attr, "data", n)
    return attr


def checked_integer_attr(value: IntAttr, t: IntegerType) -> IntegerAttr:
    """IntegerAttr(value, t) for a value already in t's signed range, without its verifier
    (tests/test_frontend_construct.py pins the result equal to the constructor's)."""
    attr = _new(IntegerAttr)
    object.__setattr__(attr, "value", value)
    object.__setattr__(attr, "type", t)
    return attr


_DEFAULTS: dict[type[Operation], tuple[dict[str, Attribute], dict[str, Attribute]]] = {}


def _defaults(cls: type[Operation]) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """The properties and attributes IRDLOperation.__post_init__ fills in when not given."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = ({}, {})
        if issubclass(cls, IRDLOperation):
            definition = cls.get_irdl_definition()
            for into, defs in zip(found, (definition.properties, definition.attributes)):
                for name, d in defs.items():
                    if not isinstance(d, OptionalDef) and d.default_value is not None:
                        into[name] = d.default_value
    return found


def new_op(cls: type[Operation], operands: Sequence[SSAValue], result_types: Sequence[Attribute],
           properties: Mapping[str, Attribute], location: LocationAttr, successors: Sequence[Block] = ()) -> Operation:
    """`cls.create(operands=..., result_types=..., properties=..., location=..., successors=...)`,
    an op with no regions, in a third of its time (1.8 us against 4.1 for an add): create runs
    Operation.__init__'s setters, which unlink the uses of operands the new op does not have yet,
    and __post_init__'s walk over the op's definition. The fields set here are Operation's whole
    instance state in the pinned xDSL; tests/test_frontend_construct.py checks that the two agree
    field by field, so an xDSL that adds one fails there, not here."""
    op = _new(cls)
    op._operands = values = SSAValues(operands)  # pyright: ignore[reportPrivateUsage]
    uses = []
    for i, value in enumerate(values):  # Use(op, i) and value.add_use(it), in one step
        first = value.first_use
        use = Use(op, i, None, first)
        if first is not None:
            first._prev_use = use  # pyright: ignore[reportPrivateUsage]
        value.first_use = use
        uses.append(use)
    op._operand_uses = tuple(uses)  # pyright: ignore[reportPrivateUsage]
    if len(result_types) == 1:  # (most ops: no comprehension, its own Python call)
        op.results = SSAValues((OpResult(result_types[0], op, 0),))
    else:
        op.results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
    found = _DEFAULTS.get(cls)
    default_properties, default_attributes = found if found is not None else _defaults(cls)
    op.properties = given = {**properties}
    op.attributes = {**default_attributes}
    if default_properties:
        for name, value in default_properties.items():  # after the given ones, as __post_init__ adds them
            if name not in given:
                given[name] = value
    op.location = location
    if successors:  # (else Operation's class defaults, the empty tuples, stand)
        op._successors = tuple(successors)  # pyright: ignore[reportPrivateUsage]
        op._successor_uses = tuple([Use(op, i) for i in range(len(successors))])  # pyright: ignore[reportPrivateUsage]
        for block, use in zip(successors, op._successor_uses):  # pyright: ignore[reportPrivateUsage]
            block.add_use(use)
    return op


def append_op(block: Block, op: Operation) -> None:
    """`block.add_op(op)` for an op outside any block and with no regions (which add_op checks,
    through two more calls and two properties: a third of an op's building). The links it sets
    are add_op's own; tests/test_frontend_construct.py pins them."""
    op.parent = block
    last = block._last_op  # pyright: ignore[reportPrivateUsage]
    if last is None:
        block._first_op = op  # pyright: ignore[reportPrivateUsage]
    else:
        op._prev_op = last  # pyright: ignore[reportPrivateUsage]
        op._next_op = None  # pyright: ignore[reportPrivateUsage]  (add_op sets it too)
        last._next_op = op  # pyright: ignore[reportPrivateUsage]
    block._last_op = op  # pyright: ignore[reportPrivateUsage]
