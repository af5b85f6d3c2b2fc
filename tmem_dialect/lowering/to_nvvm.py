"""convert-tcgen05-to-nvvm: tcgen05-level kernels to upstream MLIR's llvm + nvvm dialects.

Phases: check that every op can be lowered (diagnostics at the ops that cannot, nothing
changed); scf to branches (xDSL's patterns); memory accesses to getelementptr/load/store;
index to an integer type; then arith, vector, cf, tcgen05 and func patterns; finally the
casts between memrefs and pointers fold away and the result is checked to be llvm/nvvm only.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, cf, func, llvm, memref, scf, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    Signedness,
    StridedLayoutAttr,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.rewriter import Rewriter
from xdsl.transforms.reconcile_unrealized_casts import reconcile_unrealized_casts

from tmem_dialect.conventions import (
    CLUSTER_DIM_ATTR,
    GLOBAL_ADDRESS_SPACE,
    KERNEL_ATTR,
    REQNTID_ATTR,
    SHARED_ADDRESS_SPACE,
    memref_address_space,
)
from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, error, op_name
from tmem_dialect.dialects import tcgen05, tcgen05_tiles
from tmem_dialect.dialects.tcgen05_cp import CP_OPS
from tmem_dialect.dialects.tcgen05_desc import DESC_OPS
from tmem_dialect.dialects.tcgen05_mbarrier import MBARRIER_OPS
from tmem_dialect.dialects.tcgen05_mma import MmaOp
from tmem_dialect.dialects.tcgen05_tma import TMA_OPS
from tmem_dialect.lowering.arith_to_llvm import DIRECT_BINARY, MIN_MAX, arith_patterns
from tmem_dialect.lowering.control_flow import branch_patterns, lower_structured_control_flow
from tmem_dialect.lowering.llvm_builders import InheritLocation, TypeConverter
from tmem_dialect.lowering.memory_to_llvm import memory_patterns
from tmem_dialect.lowering.tcgen05_to_nvvm import tcgen05_patterns
from tmem_dialect.lowering.vector_to_llvm import vector_patterns

# The tcgen05-level ops this pass lowers (llvm.* and nvvm.* ops pass through unchanged).
LOWERABLE: frozenset[type[Operation]] = frozenset(
    {
        arith.ConstantOp,
        *DIRECT_BINARY,
        *MIN_MAX,
        arith.DivSIOp,
        arith.RemSIOp,
        arith.CmpiOp,
        arith.SelectOp,
        arith.IndexCastOp,
        arith.ExtUIOp,
        arith.ExtSIOp,
        arith.TruncIOp,
        arith.BitcastOp,
        scf.ForOp,
        scf.IfOp,
        scf.WhileOp,
        scf.YieldOp,
        scf.ConditionOp,
        cf.BranchOp,
        cf.ConditionalBranchOp,
        memref.LoadOp,
        memref.StoreOp,
        memref.GetGlobalOp,
        vector.LoadOp,
        vector.StoreOp,
        vector.BroadcastOp,
        vector.ExtractOp,
        vector.InsertOp,
        vector.ShuffleOp,
        vector.BitcastOp,
        tcgen05.AllocOp,
        tcgen05.DeallocOp,
        tcgen05.RelinquishAllocPermitOp,
        tcgen05.LdOp,
        tcgen05.StOp,
        tcgen05.WaitOp,
        tcgen05.FenceOp,
        tcgen05_tiles.DeclBufferOp,
        *DESC_OPS,
        MmaOp,
        *CP_OPS,
        *MBARRIER_OPS,
        *TMA_OPS,
        func.ReturnOp,
    }
)
PASS_THROUGH_DIALECTS = ("llvm.", "nvvm.")
TILE_OPS = (tcgen05_tiles.TileLoadOp, tcgen05_tiles.TileStoreOp)
SCALAR_TYPES = (IntegerType, IndexType, Float16Type, BFloat16Type, Float32Type, Float64Type)


@dataclass(frozen=True)
class ConvertTcgen05ToNVVMPass(ModulePass):
    """Lower tcgen05 kernels (func/arith/scf/memref/vector/tcgen05) to llvm.func + llvm/nvvm ops."""

    name = "convert-tcgen05-to-nvvm"

    index_bitwidth: int = 64
    """Width of the integer type `index` becomes (64, as upstream's default, or 32)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.index_bitwidth not in (32, 64):
            raise DiagnosticError(
                [error(op, f"index-bitwidth must be 32 or 64, got {self.index_bitwidth}")]
            )
        converter = TypeConverter(self.index_bitwidth)
        if problems := legality_errors(op) or _index_constant_errors(op, self.index_bitwidth):
            raise DiagnosticError(problems)
        lower_structured_control_flow(op)
        _walk(op, memory_patterns(converter))
        convert_index_values(op, converter)
        _walk(op, [*arith_patterns(converter), *vector_patterns(converter), *branch_patterns(),
                   *tcgen05_patterns(converter)])  # fmt: skip
        reconcile_unrealized_casts(op, warn_on_failure=False)
        if leftovers := [
            error(o, f"internal error: convert-tcgen05-to-nvvm left '{o.name}' unlowered")
            for o in op.walk()
            if o is not op and not o.name.startswith(PASS_THROUGH_DIALECTS)
        ]:
            raise DiagnosticError(leftovers)


def _index_constant_errors(module: ModuleOp, bitwidth: int) -> list[Diagnostic]:
    """index constants that the index-bitwidth integer cannot hold (a signed or unsigned value)."""
    low, high = -(1 << (bitwidth - 1)), 1 << bitwidth
    found = []
    for o in module.walk():
        if isinstance(o, arith.ConstantOp) and isinstance(_element(o.result.type), IndexType):
            values = o.value.get_values() if not isinstance(o.value, IntegerAttr) else [o.value.value.data]
            bad = next((int(v) for v in values if not low <= int(v) < high), None)
            if bad is not None:
                found.append(error(o, f"index constant {bad} does not fit in i{bitwidth} "
                                      f"(index-bitwidth={bitwidth})"))
    return found


def _walk(module: ModuleOp, patterns: list) -> None:  # type: ignore[type-arg]
    applier = InheritLocation(GreedyRewritePatternApplier(patterns))
    PatternRewriteWalker(applier, apply_recursively=True).rewrite_module(module)


def convert_index_values(module: ModuleOp, converter: TypeConverter) -> None:
    """Retype every index-typed result and block argument (ops are rewritten afterwards)."""
    for o in module.walk():
        for result in o.results:
            if (t := converter.convert(result.type)) != result.type and not isinstance(result.type, MemRefType):
                Rewriter.replace_value_with_new_type(result, t)
        for region in o.regions:
            for block in region.blocks:
                for arg in block.args:
                    if (t := converter.convert(arg.type)) != arg.type and not isinstance(arg.type, MemRefType):
                        Rewriter.replace_value_with_new_type(arg, t)


# ---------------------------------------------------------------------------------------------
# What the pass can lower: checked before anything changes, so errors leave the module intact
# ---------------------------------------------------------------------------------------------


def legality_errors(module: ModuleOp) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for top in module.ops:
        if isinstance(top, (func.FuncOp, llvm.FuncOp)):
            found += _function_errors(top)
            for o in top.walk():
                if o is not top:
                    found += _op_errors(o)
        elif isinstance(top, memref.GlobalOp):
            found += _global_errors(top)
        elif not isinstance(top, llvm.GlobalOp):
            found.append(error(top, f"'{op_name(top)}' at module level is outside the tcgen05-level op set; "
                                    "convert-tcgen05-to-nvvm cannot lower it"))
    return found


def _function_errors(f: func.FuncOp | llvm.FuncOp) -> list[Diagnostic]:
    if isinstance(f, llvm.FuncOp):
        return []
    found: list[Diagnostic] = []
    kernel = KERNEL_ATTR in f.attributes
    for i, t in enumerate(f.function_type.inputs.data):
        if isinstance(t, MemRefType):
            if (why := _memref_error(t)) is not None:
                found.append(error(f, f"parameter {i}: {why}"))
            elif memref_address_space(t) != GLOBAL_ADDRESS_SPACE:
                found.append(error(f, f"parameter {i}: a parameter memref must be in global memory, got {t}"))
        elif (why := _type_error(t)) is not None and isinstance(t, IntegerType):
            found.append(error(f, f"parameter {i}: {why}"))
        elif kernel and t == llvm.LLVMPointerType():
            continue  # a tensor map (the generic pointer the TMA ops take)
        elif kernel and not isinstance(t, SCALAR_TYPES):
            found.append(error(f, f"kernel parameter {i} has type {t}; kernel parameters are integers, "
                                  "index, floats, memrefs or !llvm.ptr (a tensor map)"))
        elif (why := _type_error(t)) is not None:
            found.append(error(f, f"parameter {i}: {why}"))
    for t in f.function_type.outputs.data:
        if (why := _type_error(t)) is not None:
            found.append(error(f, f"result: {why}"))
    if len(f.function_type.outputs.data) > 1:
        found.append(error(f, "a function with several results cannot become an llvm.func"))
    if f.is_declaration:
        return found
    for name in f.attributes:
        if name.startswith("tcgen05.") and name not in (KERNEL_ATTR, REQNTID_ATTR, CLUSTER_DIM_ATTR):
            found.append(error(f, f"unknown kernel attribute '{name}'"))
    return found


def _memref_error(t: MemRefType) -> str | None:
    if memref_address_space(t) is None:
        return f"memory space of {t} is not global (none, 1) or shared (3, #gpu.address_space<workgroup>)"
    shape = t.get_shape()
    if any(d < 0 for d in shape[1:]):
        return f"{t} has a dynamic inner dimension (a bare pointer carries no sizes)"
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        if any(s is None for s in layout.get_strides()) or layout.get_offset() is None:
            return f"{t} has a dynamic stride or offset"
    elif not isinstance(layout, NoneAttr):
        return f"{t} has a layout other than identity or static strides"
    return None


def _global_errors(g: memref.GlobalOp) -> list[Diagnostic]:
    if (why := _memref_error(g.type)) is not None:
        return [error(g, why)]
    if memref_address_space(g.type) != SHARED_ADDRESS_SPACE:
        return [error(g, f"memref.global @{g.sym_name.data} must be in shared memory (space 3)")]
    if not isinstance(g.initial_value, UnitAttr):
        return [error(g, f"shared-memory global @{g.sym_name.data} cannot have an initial value")]
    if any(d < 0 for d in g.type.get_shape()):
        return [error(g, f"memref.global @{g.sym_name.data} needs a static shape")]
    return []


def _op_errors(o: Operation) -> list[Diagnostic]:
    if isinstance(o, TILE_OPS):
        kind = "tcgen05.ld" if isinstance(o, tcgen05_tiles.TileLoadOp) else "tcgen05.st"
        return [error(o, f"'{o.name}' is a warpgroup tile op: run tmem-assign-lanes first to turn it into "
                         f"per-warp {kind} (e.g. -p tmem-assign-lanes,convert-tcgen05-to-nvvm or "
                         "-p tmem-pipeline,convert-tcgen05-to-nvvm)")]
    if o.name.startswith(PASS_THROUGH_DIALECTS):
        return []
    if o.name in ("tcgen05.buffer", "tcgen05.buffer_address"):
        return [error(o, f"'{o.name}' names a TMEM buffer not yet placed in columns: run "
                         "tmem-plan-columns first (e.g. -p tmem-pipeline,convert-tcgen05-to-nvvm)")]
    if type(o) not in LOWERABLE:
        return [error(o, f"'{op_name(o)}' is outside the tcgen05-level op set; convert-tcgen05-to-nvvm "
                         "cannot lower it")]
    found: list[Diagnostic] = []
    values: list[SSAValue] = [*o.results, *(a for r in o.regions for b in r.blocks for a in b.args)]
    if isinstance(o, tcgen05_tiles.DeclBufferOp):
        values = []  # a view for tile ops: erased once they are lowered
    for v in values:
        if (why := _type_error(v.type, memref_ok=isinstance(o, memref.GetGlobalOp))) is not None:
            found.append(error(o, why))
    if isinstance(o, (memref.LoadOp, memref.StoreOp, vector.LoadOp, vector.StoreOp)):
        ref = o.memref if isinstance(o, (memref.LoadOp, memref.StoreOp)) else o.base
        if isinstance(ref.type, MemRefType) and (why := _memref_error(ref.type)) is not None:
            found.append(error(o, why))
    if isinstance(o, (vector.ExtractOp, vector.InsertOp)):
        scalar = o.result.type if isinstance(o, vector.ExtractOp) else o.source.type
        if isinstance(scalar, VectorType):
            found.append(error(o, f"'{o.name}' of a sub-vector: only 1-D vectors and scalar elements lower"))
    if isinstance(o, arith.ConstantOp) and isinstance(o.result.type, VectorType):
        if not isinstance(o.result.type.get_element_type(), (IntegerType, IndexType, *SCALAR_TYPES)):
            found.append(error(o, f"constant of type {o.result.type} cannot be lowered"))
    if isinstance(o, arith.CmpiOp) and not isinstance(_element(o.lhs.type), (IntegerType, IndexType)):
        found.append(error(o, "arith.cmpi on non-integers"))
    return found


def _element(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, VectorType) else t


def _type_error(t: Attribute, memref_ok: bool = False) -> str | None:
    if isinstance(_element(t), IntegerType) and _element(t).signedness.data is not Signedness.SIGNLESS:
        return f"type {t}: only signless integers lower to the llvm dialect (it has no signed or unsigned types)"
    if isinstance(t, VectorType):
        if t.get_num_dims() != 1 or t.get_num_scalable_dims():
            return f"type {t}: only 1-D fixed-size vectors can be lowered"
        if not isinstance(t.get_element_type(), SCALAR_TYPES):
            return f"type {t}: vector elements must be integers, index or floats"
        return None
    if isinstance(t, MemRefType):
        if not memref_ok:
            return f"type {t}: memrefs are only kernel parameters or memref.get_global results"
        return _memref_error(t)
    if isinstance(t, (*SCALAR_TYPES, llvm.LLVMPointerType)):
        return None
    return f"type {t} cannot be lowered to the llvm dialect"

