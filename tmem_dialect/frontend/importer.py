"""Build the NVVM-level module (llvm.func + llvm/nvvm ops, SSA, a location per instruction) from a PTX syntax tree."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue

from tmem_dialect.conventions import PARAM_ADDRESS_SPACE
from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, Severity
from tmem_dialect.dialects import llvm_ext
from tmem_dialect.frontend import types as T
from tmem_dialect.frontend.blocks import build_blocks, written_once
from tmem_dialect.frontend.construct import (
    append_op,
    checked_int,
    checked_integer_attr,
    checked_location,
    new_op,
)
from tmem_dialect.frontend.ssa import BasicBlock, Mispredicted, SSABuilder
from tmem_dialect.frontend.syntax import (
    Address,
    Function,
    GlobalVar,
    Imm,
    Instruction,
    Module,
    Operand,
    Param,
    Reg,
)

SPACE_OF = {"global": 1, "shared": 3, "const": 4, "local": 5, "generic": 0}
TUNING = {".reqntid": "nvvm.reqntid", ".maxntid": "nvvm.maxntid", ".minnctapersm": "nvvm.minctasm",
          ".maxnreg": "nvvm.maxnreg", ".reqnctapercluster": "nvvm.cluster_dim"}
ARRAY_DIRECTIVES = (".reqntid", ".maxntid", ".reqnctapercluster")


class Unmodelled(Exception):
    """The instruction is valid PTX that the importer has no op for (an error unless allowed)."""


class Invalid(Exception):
    """The instruction is malformed or outside what the importer reads (always an error)."""


class Reported(Exception):
    """The instruction uses something already reported as an error (a parameter): no second diagnostic."""


@dataclass
class Options:
    allow_unmodelled: bool = False
    # `.reg` parameters whose values at the function's return are wanted (lift-inline-asm's outputs)
    return_registers: tuple[str, ...] = ()


class ModuleImporter:
    def __init__(self, module: Module, options: Options):
        self.ptx = module
        self.source = module.source
        self.options = options
        self.diagnostics: list[Diagnostic] = []
        self.globals: dict[str, llvm.GlobalOp] = {}
        self.functions: dict[str, Function] = {f.name: f for f in module.functions if f.declaration}
        self.functions.update({f.name: f for f in module.functions if not f.declaration})  # bodies win
        self.filename = StringAttr(module.source.name)
        self._locations: dict[int, FileLineColLoc] = {}
        self._numbers: dict[int, IntAttr] = {}  # locations' lines and columns, constants' values (most recur)
        self.function_importers: list[FunctionImporter] = []

    def loc(self, offset: int) -> FileLineColLoc:
        found = self._locations.get(offset)
        if found is None:
            line, column = self.source.line_column(offset)
            column_attr = self._numbers.get(column)  # (number(), inlined: most columns recur)
            if column_attr is None:
                column_attr = self.number(column)
            found = self._locations[offset] = checked_location(self.filename, self.number(line), column_attr)
        return found

    def number(self, n: int) -> IntAttr:
        found = self._numbers.get(n)
        if found is None:
            found = self._numbers[n] = checked_int(n)
        return found

    def error(self, offset: int, message: str) -> None:
        self.diagnostics.append(self.source.error(offset, message))

    def warning(self, offset: int, message: str) -> None:
        self.diagnostics.append(Diagnostic(Severity.WARNING, message, self.source.location(offset)))

    def run(self) -> ModuleOp:
        from tmem_dialect.passes.analysis import frozen_heap

        with frozen_heap():  # the IR it builds is live, not garbage: collections meanwhile would only rescan it (superlinear)
            return self._run()

    def _run(self) -> ModuleOp:
        ops: list[Operation] = []
        for var in self.ptx.globals + [v for f in self.ptx.functions for v in f.local_globals]:
            if (op := self.global_op(var)) is not None:
                ops.append(op)
        for fn in self.ptx.functions:
            if fn.declaration:
                continue
            reported = len(self.diagnostics)
            try:
                importer = FunctionImporter(self, fn)
                func = importer.run()
            except Mispredicted:  # (ssa.py) a register written more than once: the general construction
                del self.diagnostics[reported:]
                importer = FunctionImporter(self, fn, predict=False)
                func = importer.run()
            self.function_importers.append(importer)
            ops.append(func)
        errors = [d for d in self.diagnostics if d.severity is Severity.ERROR]
        if errors:
            raise DiagnosticError(errors)
        return ModuleOp(ops)

    def signature(self, fn: Function) -> tuple[list[Attribute], Attribute | None]:
        """(parameter types, result type or None) of device function `fn`, as its import builds them."""
        result = fn.returns[0].register if len(fn.returns) == 1 else None
        return [T.register_type(p.type) for p in fn.params], T.register_type(result.type) if result else None

    def global_op(self, var: GlobalVar) -> llvm.GlobalOp | None:
        if var.name in self.globals:
            self.error(var.start, f"variable '{var.name}' is declared twice")
            return None
        if var.init is not None:
            self.error(var.start, "unmodelled: variables with initializers are not imported yet")
            return None
        elem = T.storage_type(var.type)
        t: Attribute = elem if var.count is None else llvm.LLVMArrayType(IntAttr(var.count), elem)
        linkage = "external" if var.linkage in ("extern", "visible") else "internal"
        op = llvm.GlobalOp(t, var.name, linkage, addr_space=SPACE_OF[var.space], alignment=var.align)
        op.location = self.loc(var.start)
        self.globals[var.name] = op
        return op


_DEFAULT_PROPERTIES: dict[type[Operation], dict[str, Attribute]] = {}
_NO_PROPERTIES: dict[str, Attribute] = {}
_CASTS = frozenset({llvm.IntToPtrOp, llvm.SExtOp, llvm.ZExtOp, llvm.TruncOp, llvm.BitcastOp})


def _default_properties(cls: type[Operation], operands: list[SSAValue], result_type: Attribute) -> dict[str, Attribute]:
    """The properties `cls`'s __init__ gives a binary op of these operands, or a cast of one operand to `result_type`."""
    op = cls(*operands) if len(operands) == 2 else cls(operands[0], result_type)  # type: ignore[call-arg]
    return dict(op.properties)


@cache
def _position(index: int) -> dict[str, Attribute]:
    """The properties of `llvm.extractvalue %s[index]` (by index: T.dense_array hashes a type)."""
    return {"position": T.dense_array(i64, (index,))}


@cache
def _segment_sizes(then_count: int, else_count: int) -> dict[str, Attribute]:
    """The properties of a cond_br with these numbers of block arguments."""
    return {"operandSegmentSizes": T.dense_array(i32, (1, then_count, else_count))}


class FunctionImporter:
    """The state instruction handlers work on: the current block, SSA reads and writes, op insertion."""

    def __init__(self, module: ModuleImporter, fn: Function, predict: bool = True):
        self.module = module
        self.fn = fn
        self.predict = predict  # of the registers written once (ssa.py)
        self.ins: Instruction | None = None
        # The location of the instruction `located` (most instructions build several ops and
        # constants: one loc() call for all of them, see location()).
        self.located: Instruction | None = None
        self.location_of_located: FileLineColLoc | None = None
        self.constants: dict[tuple[Attribute, object], SSAValue] = {}
        self.undefs: dict[Attribute, SSAValue] = {}
        # The current block's casts (build), by class and id(operand): [(result type, result), ...]
        self.casts: dict[tuple[type[Operation], int], list[tuple[Attribute, SSAValue]]] = {}
        self.param_values: dict[str, SSAValue] = {}
        self.field_values: dict[tuple[str, int], SSAValue] = {}  # byval parameters' fields, by offset
        self.params: dict[str, Param] = {p.name: p for p in fn.params}
        self.arg_attrs: dict[int, DictionaryAttr] = {}  # by argument index: byval parameters' size and alignment

    # ---- building --------------------------------------------------------------------------

    def run(self) -> llvm.FuncOp:
        from tmem_dialect.frontend import byval, instructions, pointers

        self.instructions = instructions  # (the handlers' module imports this one: not at the top)
        fn = self.fn
        result_var = None
        if len(fn.returns) > 1:
            self.module.error(fn.start, "unmodelled: a device function with more than one return value")
        elif fn.returns:
            result_var = fn.returns[0].register
            if result_var is not None and result_var.count is not None:
                self.module.error(fn.returns[0].start, "unmodelled: an array (byte struct) return value")
                result_var = None
        if not fn.is_kernel:
            for item in fn.body:
                if isinstance(item, Instruction) and item.parts[0] == "exit":
                    self.module.error(item.start, "unmodelled: exit in a device function (it ends the thread, not the call)")
        self.blocks = build_blocks(fn, self.module.source)
        self.entry = self.blocks[0]
        self.ssa = SSABuilder(self.blocks, self.undefined, lambda v: T.register_type(v.type), self.module.loc,
                              written_once(fn, self.blocks) if self.predict else None)
        # Kernel parameters that reach an address are pointers (tmem-run passes buffers); a device
        # function's are the numbers its callers pass.
        pointer_params = pointers.pointer_parameters(fn) if fn.is_kernel else set()
        byvals = byval.analyse(fn)
        arg_types: list[Attribute] = []
        for p in fn.params:
            if p.name in byvals:
                self.byval_arguments(byvals[p.name], pointer_params, arg_types)
                continue
            t = self.param_type(p, pointer_params)
            arg_types.append(t)
            self.param_values[p.name] = self.entry.block.insert_arg(
                t, len(self.entry.block.args), self.module.loc(p.start)
            )
            if p.register is not None:
                self.ssa.write(self.entry, p.register, self.param_values[p.name])
        registers = {p.name: p.register for p in fn.params if p.register is not None}
        wanted = [registers[name] for name in self.module.options.return_registers if name in registers]
        self.returned: list[SSAValue] = []
        handler_of = instructions.HANDLER_OF  # (instructions.translate's table, read in the loop)
        for bb in self.blocks:
            self.current = bb
            self.casts = {}
            for ins in bb.instructions:
                self.ins = ins
                try:
                    handler_of[ins.opcode](self, ins)
                except Unmodelled as e:
                    if self.module.options.allow_unmodelled:
                        self.module.warning(ins.start, f"{e}; treated as an opaque op (verification only)")
                        instructions.opaque(self, ins)
                    else:
                        self.module.error(ins.start, f"{e} (--allow-unmodelled treats it as an opaque op)")
                except Invalid as e:
                    self.module.error(ins.start, str(e))
                except Reported:
                    pass
            self.ins = None
            if bb.end[0] == "ret" and wanted:
                self.returned = [self.ssa.read(bb, var) for var in wanted]
            if bb.end[0] == "ret" and result_var is not None:
                bb.result = self.ssa.read(bb, result_var)
            self.end_block(bb)
            self.ssa.filled(bb)
        self.ssa.finish()
        self.returned = [self.ssa.resolve(v) for v in self.returned]
        for bb in self.blocks:
            self.terminate(bb)
        body = Region([bb.block for bb in self.blocks])
        result_type = T.register_type(result_var.type) if result_var is not None else llvm.LLVMVoidType()
        func = llvm.FuncOp(fn.name, llvm.LLVMFunctionType(arg_types, result_type),
                           linkage=llvm.LinkageAttr("external"), body=body)
        func.location = self.module.loc(fn.start)
        if self.arg_attrs:
            func.properties["arg_attrs"] = ArrayAttr([self.arg_attrs.get(i, DictionaryAttr({})) for i in range(len(arg_types))])
        if fn.is_kernel:
            func.attributes["nvvm.kernel"] = UnitAttr()
        for directive, values in fn.directives.items():
            if directive in TUNING and values:
                func.attributes[TUNING[directive]] = (
                    DenseArrayBase.from_list(i32, values) if directive in ARRAY_DIRECTIVES
                    else IntegerAttr(values[0], i32)
                )
        self._release()
        return func

    def _release(self) -> None:
        """Unlink the SSA construction's graph (blocks and edges, blocks and phis, the builder
        and this importer's bound methods refer to each other) once the function is built, so
        that reference counting frees it, not a cyclic collection (11k objects on dot.ptx)."""
        for bb in self.blocks:
            bb.in_edges.clear()
            bb.out_edges.clear()
            bb.phis.clear()
            bb.end = ("ret", None)  # (a branch's end names its target blocks)
        del self.ssa

    def byval_arguments(self, byval, pointers: set[tuple[str, int]], arg_types: list[Attribute]) -> None:
        """One argument per field of a byval parameter (byval.py), or a pointer to its bytes."""
        p = byval.param
        if byval.conflict is not None:
            self.module.error(p.start, f"unmodelled: byval parameter '{p.name}' cannot be split into fields: {byval.conflict}")
            return
        if byval.address_taken_at is not None:  # its .param-space address (a TMA descriptor's, ...)
            t: Attribute = llvm.LLVMPointerType(IntAttr(PARAM_ADDRESS_SPACE))
            size = p.count * T.bits(T.storage_type(p.type)) // 8  # type: ignore[operator]
            self.arg_attrs[len(arg_types)] = DictionaryAttr({
                "llvm.byval": llvm.LLVMArrayType(IntAttr(size), IntegerType(8)),
                "llvm.align": IntegerAttr(p.align or 1, i32)})
            arg_types.append(t)
            self.param_values[p.name] = self.entry.block.insert_arg(t, len(self.entry.block.args), self.module.loc(p.start))
            return
        for f in byval.ordered:
            pointer = (p.name, f.offset) in pointers and f.bytes == 8
            t = llvm.LLVMPointerType(IntAttr(1)) if pointer else T.storage_type(f.ptype)
            if isinstance(t, IntegerType) and t.width.data < 16:
                t = IntegerType(16)  # a byte field as the 16-bit argument PTX parameters can have
            arg_types.append(t)
            self.field_values[(p.name, f.offset)] = self.entry.block.insert_arg(
                t, len(self.entry.block.args), self.module.loc(p.start))

    def param_type(self, p: Param, pointers: set[tuple[str, int]]) -> Attribute:
        if p.register is not None or not self.fn.is_kernel:
            return T.register_type(p.type)  # a device function's parameters are register values
        if (p.name, 0) in pointers or p.ptr_space is not None:
            space = SPACE_OF.get(p.ptr_space or "global", 1)
            return llvm.LLVMPointerType(IntAttr(space)) if space else llvm.LLVMPointerType()
        return T.storage_type(p.type) if p.type != "pred" else IntegerType(1)

    def end_block(self, bb: BasicBlock) -> None:
        """Read what the terminator needs while the block's definitions are current."""
        if bb.end[0] == "cond":
            self.ins = bb.end[4]
            guard: Reg = bb.end[1]
            if guard.var.type != "pred":
                self.module.error(bb.end[4].start, f"the guard '{guard.var.name}' is a .{guard.var.type} register; guards are .pred")
                bb.condition = self.undefined(IntegerType(1))  # type: ignore[attr-defined]
                return
            bb.condition = self.ssa.read(bb, guard.var)  # type: ignore[attr-defined]
            self.ins = None

    def terminate(self, bb: BasicBlock) -> None:
        end = bb.end
        loc_item = end[-1]
        offset = loc_item.start if isinstance(loc_item, Instruction) else bb.start
        location = self.module.loc(offset)
        # Branches are built as `create` builds them (their __init__ costs several times more: it
        # rebuilds the operand segments from the argument lists), with the properties it gives them.
        if end[0] == "br":
            edge = bb.out_edges[0]
            op: Operation = new_op(llvm.BrOp, SSABuilder.edge_arguments(edge), (), _NO_PROPERTIES, location,
                                   [end[1].block])
        elif end[0] == "cond":
            then_edge, else_edge = bb.out_edges
            cond = self.ssa.resolve(bb.condition)  # type: ignore[attr-defined]
            if end[1].negated:
                then_edge, else_edge = else_edge, then_edge
            then_args, else_args = SSABuilder.edge_arguments(then_edge), SSABuilder.edge_arguments(else_edge)
            segments = _segment_sizes(len(then_args), len(else_args))
            op = new_op(llvm.CondBrOp, [cond, *then_args, *else_args], (), segments,
                        location, [then_edge.target.block, else_edge.target.block])
        else:
            op = llvm.ReturnOp(self.ssa.resolve(bb.result)) if bb.result is not None else llvm.ReturnOp.create()
            op.location = location
        append_op(bb.block, op)

    def location(self) -> FileLineColLoc:
        """The location of the instruction being translated."""
        ins = self.ins
        assert ins is not None
        if ins is not self.located:
            self.location_of_located = self.module.loc(ins.start)
            self.located = ins
        return self.location_of_located  # type: ignore[return-value]

    def add(self, op: Operation) -> Operation:
        op.location = self.location()
        self.current.block.add_op(op)
        return op

    def create(self, cls: type[Operation], operands: list[SSAValue], result_types: list[Attribute],
               properties: dict[str, Attribute] = _NO_PROPERTIES) -> Operation:
        """A `cls` op added at the instruction, as `cls.create` builds it (construct.new_op: an op's
        own __init__ rebuilds its argument lists and default properties on every call, create
        its setters' bookkeeping, most of the import's cost)."""
        ins = self.ins
        assert ins is not None
        # (location(), inlined: one Python call per op less)
        location = self.location_of_located if ins is self.located else self.location()
        op = new_op(cls, operands, result_types, properties, location)  # type: ignore[arg-type]
        append_op(self.current.block, op)
        return op

    def build(self, cls: type[Operation], operands: list[SSAValue], result_type: Attribute,
              properties: dict[str, Attribute] | None = None) -> SSAValue:
        """The result of a `cls` op added at the instruction, built by `create`: the op's own
        __init__ builds its default properties and rebuilds its argument lists on every call,
        most of the import's cost. Without `properties`, those a `cls(*operands)` builds
        (the same for every op of the class: binary ops, casts). A cast of a value the block
        has cast the same way already is that cast (PTX reads a register as its address or as a
        wider operand at every use: one op per register and type in a block, not one per use)."""
        if cls in _CASTS:
            # By id(): hashing a value and a type are Python calls (5 for a pointer type). The
            # operand's id stays its own while the entry lives: the cast kept there uses it.
            key = (cls, id(operands[0]))
            casts = self.casts.get(key)
            if casts is None:
                casts = self.casts[key] = []
            for t, cast in casts:
                if t is result_type or t == result_type:
                    return cast
            cast = self._build(cls, operands, result_type, properties)
            casts.append((result_type, cast))
            return cast
        return self._build(cls, operands, result_type, properties)

    def _build(self, cls: type[Operation], operands: list[SSAValue], result_type: Attribute,
               properties: dict[str, Attribute] | None) -> SSAValue:
        if properties is None:
            properties = _DEFAULT_PROPERTIES.get(cls)
            if properties is None:
                properties = _DEFAULT_PROPERTIES[cls] = _default_properties(cls, operands, result_type)
        (result,) = self.create(cls, operands, [result_type], properties).results  # (SSAValues' [] is Python code)
        return result

    def extract_value(self, aggregate: SSAValue, index: int, t: Attribute) -> SSAValue:
        """`llvm.extractvalue` of field `index` (of type `t`) of a struct."""
        (result,) = self.create(llvm.ExtractValueOp, [aggregate], [t], _position(index)).results
        return result

    def int_to_pointer(self, value: SSAValue, t: Attribute) -> SSAValue:
        """`llvm.inttoptr` of `value` to pointer type `t` (one per value and type in a block: build)."""
        return self.build(llvm.IntToPtrOp, [value], t, _NO_PROPERTIES)

    def add_in_entry(self, op: Operation) -> Operation:
        op.location = self._entry_location()
        self.entry.block.add_op(op)
        return op

    def _entry_location(self) -> FileLineColLoc:
        """Where an op hoisted to the entry block is from: the instruction that asked for it."""
        return self.location() if self.ins is not None else self.module.loc(self.fn.start)

    def undefined(self, t: Attribute) -> SSAValue:
        if t not in self.undefs:
            op = llvm_ext.PoisonOp(t)
            op.location = self.module.loc(self.fn.start)
            block = self.entry.block
            if block.first_op is not None:
                block.insert_op_before(op, block.first_op)
            else:
                block.add_op(op)
            self.undefs[t] = op.results[0]
        return self.undefs[t]

    # ---- values ----------------------------------------------------------------------------

    def constant(self, value: int | float, t: Attribute) -> SSAValue:
        """`llvm.mlir.constant` in the entry block, one per type and bit pattern."""
        key: tuple[object, object]
        if isinstance(t, IntegerType):
            width = t.width.data
            v: int | float = int(value) & ((1 << width) - 1)
            if v >= 1 << (width - 1):  # the signed range, as IntegerAttr keeps it (true is -1 : i1)
                v -= 1 << width
            key = (width if t.signedness.data is Signedness.SIGNLESS else t, v)  # (hashing a type: 5 Python calls)
        else:
            v = float(value)
            # By bit pattern: -0.0 == 0.0 (and NaN != NaN) would merge (or split) constants.
            key = (t, struct.pack("<d", v))
        found = self.constants.get(key)
        if found is None:  # the attribute is built only for a new constant (building it is most of the cost)
            attr: Attribute = (checked_integer_attr(self.module.number(v), t) if isinstance(t, IntegerType)  # type: ignore[arg-type]
                               else FloatAttr(v, t))
            op = new_op(llvm.ConstantOp, (), (t,), {"value": attr}, self._entry_location())
            append_op(self.entry.block, op)
            (found,) = op.results
            self.constants[key] = found
        return found

    def read(self, operand: Operand, t: Attribute, signed: bool = False) -> SSAValue:
        """The operand's value as type `t` (PTX's relaxed type rules: extend, truncate or reinterpret)."""
        if isinstance(operand, Reg):
            if operand.var.param:
                raise Unmodelled(f"the address of .param variable '{operand.var.name}' (ld.param and st.param read and write it)")
            value = self.ssa.read(self.current, operand.var)
            if operand.negated:
                if T.bits(value.type) != 1:
                    raise Invalid("'!' negates predicates only")
                value = self.build(llvm.XOrOp, [value, self.constant(1, T.int_type(1))], value.type)
            # (coerce()'s first test, inlined: most reads are of the type wanted, one Python call less)
            return value if value.type is t else self.coerce(value, t, signed)
        if isinstance(operand, Imm):
            if T.is_float(t) and not operand.is_float:
                return self.constant(float(operand.value), t)
            if not T.is_float(t) and operand.is_float:
                raise Invalid(f"a floating-point literal '{operand.text}' where an integer is expected")
            return self.constant(operand.value, t)
        return self.instructions.read_other(self, operand, t)

    def coerce(self, value: SSAValue, t: Attribute, signed: bool = False) -> SSAValue:
        have = value.type
        if have is t or have == t:  # (most often the same object: == is a Python-level call)
            return value
        hb, tb = T.bits(have), T.bits(t)
        if T.is_float(have):
            value = self.build(llvm.BitcastOp, [value], T.int_type(hb))
            return self.coerce(value, t, signed)
        if T.is_float(t):
            if hb != tb:
                value = self.coerce(value, T.int_type(tb), signed)
            return self.build(llvm.BitcastOp, [value], t)
        if not isinstance(have, IntegerType) or not isinstance(t, IntegerType):
            raise Invalid(f"cannot use a {have} value as {t}")
        owner = value.owner
        if isinstance(owner, llvm.ConstantOp) and isinstance(owner.value, IntegerAttr):
            bits_value = owner.value.value.data & ((1 << hb) - 1)  # a constant converts to a constant
            if signed and hb > 1 and bits_value >> (hb - 1):
                bits_value -= 1 << hb
            return self.constant(bits_value, t)
        if hb > tb:
            return self.build(llvm.TruncOp, [value], t)
        if signed and hb > 1:
            return self.build(llvm.SExtOp, [value], t)
        return self.build(llvm.ZExtOp, [value], t)

    def write(self, operand: Operand, value: SSAValue, signed: bool = False) -> None:
        if not isinstance(operand, Reg) or operand.negated:
            from tmem_dialect.frontend.syntax import Sink

            if isinstance(operand, Sink):
                return
            raise Invalid("the destination must be a register")
        var = operand.var
        t = T.register_type(var.type)
        self.ssa.write(self.current, var, value if value.type is t else self.coerce(value, t, signed))

    def pointer_as_int(self, pointer: SSAValue) -> SSAValue:
        """A pointer parameter as the 64-bit number PTX's ld.param gives (made once, in the entry block)."""
        key = ("ptrtoint", pointer)
        if key not in self.constants:
            self.constants[key] = self.add_in_entry(llvm.PtrToIntOp(pointer, i64)).results[0]  # type: ignore[index]
        return self.constants[key]  # type: ignore[index]

    def is_read(self, var) -> bool:
        """Whether any instruction reads register `var` (one that is written only can be left undefined).
        Asked of a destination: one the parser saw named once is named only there."""
        if var.mentions == 1:
            return False
        if not hasattr(self, "_read_registers"):
            from tmem_dialect.frontend.instructions import writes_first_operand
            from tmem_dialect.frontend.syntax import Reg, VectorOperand

            found: set[int] = set()
            add = found.add

            def reads(op) -> None:  # type: ignore[no-untyped-def]
                if isinstance(op, Reg):
                    add(id(op.var))
                elif isinstance(op, VectorOperand):
                    for r in op.elements:
                        if isinstance(r, Reg):
                            add(id(r.var))
                elif isinstance(op, Address):
                    reads(op.base)
                    if op.coordinates is not None:
                        reads(op.coordinates)

            for item in self.fn.body:
                if not isinstance(item, Instruction):
                    continue
                operands = item.operands
                if item.guard is not None:
                    add(id(item.guard.var))
                if not operands:
                    continue
                first = operands[0]
                if not writes_first_operand(item):
                    reads(first)
                elif isinstance(first, Address) and isinstance(first.base, Reg):  # st [%r], ...: read
                    add(id(first.base.var))
                for op in operands[1:]:
                    reads(op)
            self._read_registers = found
        return id(var) in self._read_registers

    def param_value(self, name: str, offset: int = 0) -> SSAValue:
        """The value of parameter `name` (of its field at `offset`, for a byval parameter)."""
        if (name, offset) in self.field_values:
            return self.field_values[(name, offset)]
        if offset and name in self.param_values and self.params[name].count is None:
            raise Unmodelled(f"ld.param at an offset of scalar parameter '{name}'")
        if name in self.params and name not in self.param_values and self.params[name].count is not None:
            raise Reported()  # a byval parameter the importer reported
        if name not in self.param_values:
            raise Invalid(f"'{name}' is not a parameter of {self.fn.name}")
        return self.param_values[name]

    def global_op(self, name: str) -> llvm.GlobalOp:
        found = self.module.globals.get(name)
        if found is None:
            raise Invalid(f"use of undeclared variable '{name}'")
        return found

    def address(self, operand: Operand, space: int) -> SSAValue:
        """The pointer `[base+offset]` names, in address space `space`."""
        if not isinstance(operand, Address):
            raise Invalid("expected an address operand [...]")
        return self.instructions.address(self, operand, space)
