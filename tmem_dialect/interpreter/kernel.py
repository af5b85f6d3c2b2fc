"""run_kernel: parse, check and run one kernel on the machine model; collect buffers and findings."""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func, llvm, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation

from tmem_dialect import conventions, isa
from tmem_dialect import diagnostics as diag
from tmem_dialect.dialects import make_context
from tmem_dialect.dialects.interfaces import tmem_effect
from tmem_dialect.findings import FindingKind
from tmem_dialect.interpreter import cluster as cluster_semantics
from tmem_dialect.interpreter import lifecycle, producers
from tmem_dialect.interpreter import values as V
from tmem_dialect.interpreter.kernel_module import (
    call_problem,
    leaf_types,
    module_level_ops,
    reachable_functions,
    regroup,
    with_inline_asm_lifted,
)
from tmem_dialect.interpreter.machine import Finding, Machine, Options
from tmem_dialect.interpreter.memory import MemoryFault, MemRefValue
from tmem_dialect.interpreter.ops.cluster import ClusterFunctions
from tmem_dialect.interpreter.ops.control import ControlFunctions, LLVMControlFunctions
from tmem_dialect.interpreter.ops.gpu import GPUFunctions, generic_tmem_impl
from tmem_dialect.interpreter.ops.memory import MemoryFunctions, type_size
from tmem_dialect.interpreter.ops.producers import ProducerFunctions
from tmem_dialect.interpreter.ops.scalar import ScalarFunctions
from tmem_dialect.interpreter.ops.tma import TmaFunctions
from tmem_dialect.interpreter.ops.warp_level import WarpLevelFunctions
from tmem_dialect.interpreter.sync import Aborted
from tmem_dialect.interpreter.tensor_map import TensorMap
from tmem_dialect.interpreter.warp import WarpInterpreter
from tmem_dialect.ir import parse_module, verify_diagnostics
from tmem_dialect.memory_model import rules_version

Kernel = func.FuncOp | llvm.FuncOp


@dataclass
class RunResult:
    """What a run produced: the argument buffers after the run, findings, final TMEM contents."""

    args: list[Any]
    findings: list[Finding] = field(default_factory=list)
    tmem: list[np.ndarray] = field(default_factory=list)  # per CTA, [128 lanes, 512 columns] uint32
    warp_ops: int = 0
    cells_moved: int = 0
    sources: dict[str, str] = field(default_factory=dict)

    def _of(self, severity: diag.Severity) -> list[diag.Diagnostic]:
        return [f.diagnostic for f in self.findings if f.diagnostic.severity is severity]

    @property
    def diagnostics(self) -> list[diag.Diagnostic]:
        return [f.diagnostic for f in self.findings]

    @property
    def errors(self) -> list[diag.Diagnostic]:
        return self._of(diag.Severity.ERROR)

    @property
    def warnings(self) -> list[diag.Diagnostic]:
        return self._of(diag.Severity.WARNING)

    @property
    def notes(self) -> list[diag.Diagnostic]:
        return self._of(diag.Severity.NOTE)

    @property
    def ok(self) -> bool:
        return not self.errors

    def kinds(self, severity: str = "error") -> set[FindingKind]:
        """The misuse categories found (e.g. {FindingKind.LEAK, FindingKind.ANTI_DEPENDENCY})."""
        return {f.kind for f in self.findings if f.diagnostic.severity.value == severity}

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.diagnostics)


class _Setup(Exception):
    """The kernel cannot start; carries the diagnostics that say why."""

    def __init__(self, findings: list[Finding]):
        self.findings = findings


def _fail(kind: FindingKind, op: Operation | None, message: str) -> _Setup:
    return _Setup([Finding(kind, diag.error(op, message))])


def function_name(f: Kernel) -> str:
    return f.sym_name.data


def is_kernel(f: Operation) -> bool:
    return isinstance(f, (func.FuncOp, llvm.FuncOp)) and conventions.is_kernel(f)


def kernels_of(module: ModuleOp) -> list[Kernel]:
    return [op for op in module_level_ops(module) if is_kernel(op)]  # type: ignore[misc]


def find_kernel(module: ModuleOp, name: str | None) -> Kernel:
    if name is not None:
        found = next((f for f in module_level_ops(module) if isinstance(f, (func.FuncOp, llvm.FuncOp))
                      and function_name(f) == name), None)
        if found is None:
            names = ", ".join(function_name(k) for k in kernels_of(module)) or "none"
            raise _fail(FindingKind.NO_KERNEL, module, f"no function named '{name}' in the module (kernels: {names})")
        return found
    kernels = kernels_of(module)
    if len(kernels) != 1:
        raise _fail(
            FindingKind.NO_KERNEL,
            module,
            f"the module has {len(kernels)} kernels; name one with kernel=... (--kernel)",
        )
    return kernels[0]


def block_dims(kernel: Kernel, threads: int | None) -> tuple[int, int, int]:
    """The CTA shape: reqntid when the kernel declares it (threads must agree), else (threads, 1, 1)."""
    try:
        declared = conventions.reqntid(kernel)
    except ValueError as e:
        raise _fail(FindingKind.BAD_THREADS, kernel, str(e)) from None
    if threads is None:
        if declared is None:
            raise _fail(FindingKind.BAD_THREADS, kernel, "the kernel declares no reqntid: give the thread count (--threads)")
        return declared  # type: ignore[return-value]
    if declared is not None and int(np.prod(declared)) != threads:
        raise _fail(
            FindingKind.BAD_THREADS,
            kernel,
            f"the kernel requires exactly {int(np.prod(declared))} threads (reqntid "
            f"{', '.join(map(str, declared))}) but the run asks for {threads}",
        )
    if threads <= 0 or threads > conventions.MAX_THREADS_PER_BLOCK:
        raise _fail(FindingKind.BAD_THREADS, kernel,
                    f"a CTA has 1 to {conventions.MAX_THREADS_PER_BLOCK} threads, got {threads}")
    return declared if declared is not None else (threads, 1, 1)  # type: ignore[return-value]


def _function_type(kernel: Kernel) -> list[Attribute]:
    """Parameter types (func.func and llvm.func both keep them in `function_type.inputs`)."""
    return list(kernel.function_type.inputs.data)


def precheck(module: ModuleOp, kernel: Kernel, probe: WarpInterpreter,
             unlifted: dict[Operation, str] | None = None) -> list[Finding]:
    """Static problems that stop a run: ops without semantics (inline asm the PTX front end could
    not lift: `unlifted` says why), mixed cta_group."""
    found: list[Finding] = []
    groups: dict[int, Operation] = {}
    for f in reachable_functions(module, kernel):
        for op in f.walk():
            if op is f:
                continue
            if isinstance(op, llvm.CallOp) and (problem := call_problem(module, op, (f.sym_name.data,))):
                found.append(Finding(FindingKind.UNSUPPORTED, diag.error(op, f"the interpreter cannot run {problem}")))
                continue
            if unlifted and op in unlifted:
                found.append(Finding(FindingKind.UNSUPPORTED, diag.error(
                    op, f"the interpreter cannot run this inline asm: the PTX front end could not lift it "
                        f"({unlifted[op]})")))
                continue
            if not probe.has_impl(op):
                found.append(Finding(
                    FindingKind.UNSUPPORTED,
                    diag.error(op, f"the interpreter has no semantics for '{op.name}': it cannot run this kernel"),
                ))
                continue
            effect = tmem_effect(op)
            if effect is not None and effect.cta_group is not None:
                groups.setdefault(effect.cta_group, op)
    if len(groups) > 1:
        first, second = sorted(groups.values(), key=lambda o: _position(o))[:2]
        g1 = tmem_effect(first).cta_group  # type: ignore[union-attr]
        g2 = tmem_effect(second).cta_group  # type: ignore[union-attr]
        found.append(Finding(
            FindingKind.CTA_GROUP_MISMATCH,
            diag.error(second, f"this op uses cta_group::{g2} but the kernel also uses cta_group::{g1}: "
                               "all tcgen05 instructions of a kernel use the same cta_group")
            .attach_note(f"cta_group::{g1} is used here", first),
        ))
    return found


def _position(op: Operation) -> tuple[int, int]:
    loc = diag.location_of(op)
    return (loc.line, loc.column) if loc else (0, 0)


def _global_data(op: Operation) -> tuple[str, int, tuple[int, ...], np.dtype, Any, bool]:
    """(name, bytes, shape, dtype, initial values or None, shared) of a module-level global."""
    if isinstance(op, llvm.GlobalOp):
        t = op.global_type
        inner = t
        shape: tuple[int, ...] = ()
        while isinstance(inner, llvm.LLVMArrayType):
            shape += (inner.size.data,)
            inner = inner.type
        shape += V.lane_shape(inner)
        space = op.addr_space.value.data if op.addr_space is not None else conventions.GENERIC_ADDRESS_SPACE
        init = op.value if isinstance(op.value, DenseIntOrFPElementsAttr) else None
        init_values = None
        if init is not None:
            init_values = np.array(init.get_values())
        elif op.value is not None and hasattr(op.value, "value"):
            init_values = np.array([op.value.value.data])  # type: ignore[attr-defined]
        shared = space == conventions.SHARED_ADDRESS_SPACE
        return op.sym_name.data, type_size(t), shape or (1,), V.element_dtype(inner), init_values, shared
    assert isinstance(op, memref.GlobalOp)
    t = op.type
    shared = conventions.is_shared(t)
    dtype = V.element_dtype(t.get_element_type())
    shape = tuple(t.get_shape())
    init_values = None
    if isinstance(op.initial_value, DenseIntOrFPElementsAttr):
        init_values = np.array(op.initial_value.get_values())
    return op.sym_name.data, int(np.prod(shape)) * dtype.itemsize, shape, dtype, init_values, shared


MAX_GLOBAL_BYTES = 1 << 30  # what one run may allocate for a global (buffers are 4 GiB apart)


def _setup_globals(machine: Machine, module: ModuleOp) -> None:
    for op in module_level_ops(module):
        if not isinstance(op, (llvm.GlobalOp, memref.GlobalOp)):
            continue
        name, nbytes, shape, dtype, init, shared = _global_data(op)
        if shared and nbytes == 0 and isinstance(op, llvm.GlobalOp) and op.linkage is not None \
                and op.linkage.linkage.data == "external":  # dynamic shared memory: its launch size
            nbytes = machine.options.dynamic_shared_bytes
        if shared and nbytes > isa.MAX_SHARED_BYTES_PER_CTA:
            raise _fail(FindingKind.RESOURCE_LIMIT, op, f"shared global '@{name}' takes {nbytes} bytes; a CTA has at most "
                                            f"{isa.MAX_SHARED_BYTES_PER_CTA} bytes of shared memory")
        if not shared and nbytes > MAX_GLOBAL_BYTES:
            raise _fail(FindingKind.UNSUPPORTED, op, f"global '@{name}' takes {nbytes} bytes; the interpreter holds "
                                           f"globals of at most {MAX_GLOBAL_BYTES} bytes")
        count = max(nbytes // dtype.itemsize, 1)

        def make() -> np.ndarray:
            data = np.zeros(count, dtype=dtype)
            if init is not None:
                data[:] = np.broadcast_to(init.astype(dtype), data.shape) if init.size in (1, count) else 0
            return data

        if shared:
            # The alignment matters: swizzled operands are read at absolute shared addresses.
            align = max(16, getattr(getattr(op, "alignment", None), "value", None) and op.alignment.value.data or 16)
            try:
                machine.globals[name] = [machine.memory.add_shared(c, f"@{name}", make(), align)
                                         for c in range(len(machine.ctas))]
            except MemoryFault as e:  # e.g. an alignment of 2^34: no placement in a CTA's window
                raise _fail(FindingKind.RESOURCE_LIMIT, op, f"shared global '@{name}' (aligned to {align} "
                            f"bytes) cannot be placed: {e}") from None
            if init is not None:
                for buf in machine.globals[name]:
                    machine.shared.mark_initialized(buf)
        else:
            buf = machine.memory.add_global(f"@{name}", make())
            machine.globals[name] = [buf] * len(machine.ctas)
        machine.global_shapes[name] = (shape, dtype)


def _zero_args(kernel: Kernel) -> list[Any]:
    """A zero-filled buffer for each statically shaped memref parameter (the run gave no args)."""
    out = []
    for i, t in enumerate(_function_type(kernel)):
        if isinstance(t, MemRefType) and all(d >= 0 for d in t.get_shape()):
            out.append(np.zeros(tuple(t.get_shape()), dtype=V.element_dtype(t.get_element_type())))
        else:
            raise _fail(FindingKind.BAD_ARGUMENTS, kernel, f"argument {i} has type {t}: give its value (--arg); only "
                                             "statically shaped memrefs are zero-filled by default")
    return out


def _setup_args(machine: Machine, kernel: Kernel, args: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """(per-warp argument values, the arrays the result reports) for the kernel's parameters."""
    params = _function_type(kernel)
    types = [leaf for t in params for leaf in leaf_types(t)]  # by-value structs: their fields
    if len(args) != len(types):
        fields = f" (the fields of its {len(params)} parameters)" if len(params) != len(types) else ""
        raise _fail(FindingKind.BAD_ARGUMENTS, kernel, f"the kernel takes {len(types)} arguments{fields}, "
                                                       f"the run passes {len(args)}")
    values: list[Any] = []
    arrays: list[Any] = []
    maps: list[tuple[int, TensorMap]] = []
    for i, (t, a) in enumerate(zip(types, args)):
        if isinstance(a, TensorMap):
            values.append(None)  # bound below, once every buffer exists
            arrays.append(a)
            maps.append((i, a))
        elif isinstance(t, MemRefType) or isinstance(t, llvm.LLVMPointerType):
            arr = np.array(a, copy=True)
            if isinstance(t, MemRefType):
                want = V.element_dtype(t.get_element_type())
                shape = tuple(t.get_shape())
                if arr.dtype != want:
                    raise _fail(FindingKind.BAD_ARGUMENTS, kernel,
                                f"argument {i} is {t}: it needs {want} elements, the run passes {arr.dtype}")
                if any(d < 0 for d in shape) or arr.size != int(np.prod(shape)):
                    raise _fail(FindingKind.BAD_ARGUMENTS, kernel,
                                f"argument {i} is {t}: it needs {int(np.prod(shape))} elements, the run "
                                f"passes {arr.size}")
                buf = machine.memory.add_global(f"argument {i}", np.ascontiguousarray(arr).reshape(-1))
                values.append(MemRefValue(buf, shape, want))
            else:
                place = machine.memory.add_param if _is_param(t) else machine.memory.add_global
                buf = place(f"argument {i}", np.ascontiguousarray(arr).reshape(-1))
                values.append(np.full(V.WARP, buf.base, dtype=np.int64))
            arrays.append(buf.data.reshape(arr.shape))
        elif isinstance(t, (IntegerType, IndexType)) or V.element_dtype(t).kind == "f":
            arr = np.asarray(a)
            if arr.size != 1:
                raise _fail(FindingKind.BAD_ARGUMENTS, kernel, f"argument {i} is a scalar {t}, the run passes {arr.size} values")
            values.append(V.splat(arr.reshape(()).astype(V.element_dtype(t)), t))
            arrays.append(a)
        else:
            raise _fail(FindingKind.BAD_ARGUMENTS, kernel, f"argument {i} has type {t}, which the interpreter cannot pass")
    for i, tm in maps:
        values[i] = _bind_tensor_map(machine, kernel, i, types[i], tm, values)
    leaves = iter(values)
    return [regroup(t, leaves) for t in params], arrays


def cluster_shape(kernel: Kernel, cluster: int | None, cta_pair: bool) -> tuple[int, int, int]:
    """The cluster the run is: the kernel's cluster_dim when it declares one (a `cluster` asked for
    must agree), else (cluster, 1, 1); cta_pair is cluster 2. At most isa.MAX_CLUSTER_CTAS CTAs."""
    try:
        declared = conventions.cluster_dim(kernel)
    except ValueError as e:
        raise _fail(FindingKind.BAD_THREADS, kernel, str(e)) from None
    asked = cluster if cluster is not None else 2 if cta_pair else None
    if declared is not None and asked is not None and int(np.prod(declared)) != asked:
        raise _fail(FindingKind.BAD_THREADS, kernel,
                    f"the kernel declares a cluster of {int(np.prod(declared))} CTAs (cluster_dim "
                    f"{', '.join(map(str, declared))}) but the run asks for {asked}")
    shape = declared if declared is not None else (asked or 1, 1, 1)
    ctas = int(np.prod(shape))
    if not 1 <= ctas <= isa.MAX_CLUSTER_CTAS or (cta_pair and ctas % 2):
        raise _fail(FindingKind.BAD_THREADS, kernel,
                    f"a cluster has 1 to {isa.MAX_CLUSTER_CTAS} CTAs (an even number for CTA pairs), "
                    f"the run asks for {ctas}")
    return shape


def _is_param(t: Attribute) -> bool:
    """A byval parameter's own address (!llvm.ptr<101>): its bytes go in the param window."""
    return conventions.pointer_address_space(t) == conventions.PARAM_ADDRESS_SPACE


def _bind_tensor_map(machine: Machine, kernel: Kernel, i: int, t: Attribute, tm: TensorMap, values: list[Any]) -> Any:
    """A 128-byte global object stands for the CUtensorMap; its address is the parameter's value."""
    from tmem_dialect.interpreter import tma

    if not isinstance(t, llvm.LLVMPointerType):
        raise _fail(FindingKind.BAD_ARGUMENTS, kernel, f"argument {i} is a tensor map: its parameter must be !llvm.ptr, not {t}")
    if errors := tm.errors():
        raise _fail(FindingKind.BAD_ARGUMENTS, kernel, f"argument {i} is not a tensor map cuTensorMapEncodeTiled could make: {errors[0]}")
    if tm.data is not None:  # the tensor lives only behind its map (CuTe DSL's TMA tensors)
        buf = machine.memory.add_global(f"tensor of the tensor map (argument {i})",
                                        np.ascontiguousarray(tm.data).reshape(-1))
        target = None
    else:
        target = values[tm.buffer] if 0 <= tm.buffer < len(values) else None
        buf = target.buffer if isinstance(target, MemRefValue) else None
    if buf is None and isinstance(target, np.ndarray) and target.dtype == np.int64:
        buf = machine.memory.global_space.find(int(target[0]))
    if buf is None:
        raise _fail(FindingKind.BAD_ARGUMENTS, kernel,
                    f"argument {i} is a tensor map over argument {tm.buffer}, which is not a buffer argument")
    place = machine.memory.add_param if _is_param(t) else machine.memory.add_global
    obj = place(f"tensor map (argument {i})", np.zeros(isa.TENSOR_MAP_BYTES, dtype=np.uint8))
    tma.of(machine).maps[obj.base] = (tm, buf)
    return np.full(V.WARP, obj.base, dtype=np.int64)


def _special_registers(dims: tuple[int, int, int], linear: np.ndarray, warp_in_cta: int, cta: int,
                       cluster: tuple[int, int, int], warps_per_cta: int) -> dict[str, np.ndarray]:
    x, y, z = dims
    cx, cy, cz = cluster
    ctas = cx * cy * cz
    full = lambda v: np.full(V.WARP, v, dtype=np.int32)  # noqa: E731
    # The run is one cluster and the grid is that cluster: %ctaid is the position in it.
    at = {"x": cta % cx, "y": cta // cx % cy, "z": cta // (cx * cy)}
    size = {"x": cx, "y": cy, "z": cz}
    return {
        "tid.x": (linear % x).astype(np.int32),
        "tid.y": ((linear // x) % y).astype(np.int32),
        "tid.z": (linear // (x * y)).astype(np.int32),
        "ntid.x": full(x), "ntid.y": full(y), "ntid.z": full(z),
        **{f"ctaid.{d}": full(at[d]) for d in "xyz"},
        **{f"nctaid.{d}": full(size[d]) for d in "xyz"},
        **{f"cluster.ctaid.{d}": full(at[d]) for d in "xyz"},
        **{f"cluster.nctaid.{d}": full(size[d]) for d in "xyz"},
        "cluster.ctarank": full(cta), "cluster.nctarank": full(ctas),
        "clusterid.x": full(0), "clusterid.y": full(0), "clusterid.z": full(0),
        "nclusterid.x": full(1), "nclusterid.y": full(1), "nclusterid.z": full(1),
        "laneid": np.arange(V.WARP, dtype=np.int32),
        "warpid": full(warp_in_cta),
        "nwarpid": full(warps_per_cta),
    }


FUNCTIONS = (ScalarFunctions, ControlFunctions, LLVMControlFunctions, MemoryFunctions, GPUFunctions,
             ProducerFunctions, ClusterFunctions, TmaFunctions, WarpLevelFunctions)


def _new_warp(module: ModuleOp, machine: Machine, warp: int, dims, cluster: tuple[int, int, int]) -> WarpInterpreter:
    cta, warp_in_cta = divmod(warp, machine.warps_per_cta)
    linear = warp_in_cta * V.WARP + np.arange(V.WARP)
    alive = linear < machine.threads
    w = WarpInterpreter(module, machine, warp, cta, warp_in_cta, alive, linear, generic_tmem_impl())
    w.special_registers = _special_registers(dims, linear, warp_in_cta, cta, cluster, machine.warps_per_cta)
    return w


def _planned(module: ModuleOp, copy: bool) -> ModuleOp:
    """The module with its tcgen05.buffer ops placed in columns by tmem-plan-columns (the
    machine runs allocated TMEM); unchanged, and not copied, when it declares none."""
    from tmem_dialect.dialects.tcgen05_buffers import BUFFER_OPS
    from tmem_dialect.passes.plan_columns import TmemPlanColumnsPass

    if not any(isinstance(o, BUFFER_OPS) for o in module.walk()):
        return module
    if copy:
        module = module.clone()
    TmemPlanColumnsPass().apply(make_context(), module)
    return module


def run_kernel(
    source: str | os.PathLike[str] | ModuleOp,
    kernel: str | None = None,
    threads: int | None = None,
    args: Sequence[Any] | None = (),
    cta_pair: bool = False,
    *,
    cluster: int | None = None,
    ptx_version: tuple[int, int] | str = isa.DEFAULT_PTX_VERSION,
    conservative: bool = False,
    max_warp_ops: int = Options.max_warp_ops,
    schedule: str = Options.schedule,
    dynamic_shared_bytes: int = Options.dynamic_shared_bytes,
    filename: str = "<input>",
    progress: bool = False,
    on_machine: Callable[[Machine], None] | None = None,
) -> RunResult:
    """Run `kernel` of `source` (MLIR text or a module) on one cluster of `cluster` CTAs (default 1;
    `cta_pair=True` is cluster=2) of `threads` threads each; cta_group::2 pairs are CTAs (2k, 2k+1).

    `args` are numpy arrays (memref and pointer parameters, copied: `result.args` holds them after
    the run) or numbers (scalar parameters); `args=None` zero-fills every statically shaped memref
    parameter (and needs no other kind). `source` may be a path (pathlib.Path). Errors, warnings
    and notes are in the result; this
    function raises only for a bug in the interpreter itself. `ptx_version` selects the ordering
    rules (9.4 pipelines same-warp st->ld, st->st, ld->st); `conservative` adds a note for every
    use of tcgen05.ld registers before wait::ld; `schedule` picks the interleaving of warps (the
    findings must not depend on it); `dynamic_shared_bytes` sizes `.extern .shared x[]` (the
    launch's dynamic shared memory). `progress` prints the count of interpreted operations to
    stderr every second while the run lasts (tmem-run does on a terminal). `on_machine`, when
    given, is called with the machine just before the warps start (an observation hook:
    tools.pictures records TMEM maps through it).
    """
    if isinstance(source, os.PathLike):
        filename = os.fspath(source) if filename == "<input>" else filename
        with open(source, encoding="utf-8") as f:
            source = f.read()
    if isinstance(ptx_version, str):
        ptx_version = rules_version(ptx_version)
    options = Options(ptx_version=ptx_version, conservative=conservative, max_warp_ops=max_warp_ops,
                      schedule=schedule, dynamic_shared_bytes=dynamic_shared_bytes)
    sources: dict[str, str] = {}
    if isinstance(source, str):
        sources[filename] = source
        try:
            module = parse_module(make_context(), source, filename)
        except diag.DiagnosticError as e:
            return RunResult(list(args or ()), [Finding(FindingKind.PARSE, d) for d in e.diagnostics], sources=sources)
    else:
        module = source
    broken = verify_diagnostics(module)
    if broken:
        return RunResult(list(args or ()), [Finding(FindingKind.INVALID_IR, d) for d in broken], sources=sources)
    try:
        lifted, unlifted = with_inline_asm_lifted(module, copy=not isinstance(source, str))
        module = _planned(lifted, copy=lifted is source)
    except diag.DiagnosticError as e:
        return RunResult(list(args or ()), [Finding(FindingKind.INVALID_IR, d) for d in e.diagnostics], sources=sources)
    try:
        k = find_kernel(module, kernel)
        dims = block_dims(k, threads)
    except _Setup as e:
        return RunResult(list(args or ()), e.findings, sources=sources)
    try:
        shape = cluster_shape(k, cluster, cta_pair)
    except _Setup as e:
        return RunResult(list(args or ()), e.findings, sources=sources)
    ctas = int(np.prod(shape))
    machine = Machine(int(np.prod(dims)), ctas, options)
    warps = [_new_warp(module, machine, w, dims, shape) for w in range(machine.warp_count)]
    shared = warps[0]
    for functions in FUNCTIONS:
        shared.register_implementations(functions())
    for w in warps[1:]:
        w.share_implementations(shared)
    machine.warp_interpreters = warps
    problems = precheck(module, k, warps[0], unlifted)
    if problems:
        return RunResult(list(args or ()), problems, sources=sources)
    try:
        _setup_globals(machine, module)
        if args is None:
            args = _zero_args(k)
        arg_values, arrays = _setup_args(machine, k, args)
    except _Setup as e:
        return RunResult(list(args or ()), e.findings, sources=sources)
    except V.UnsupportedType as e:
        return RunResult(list(args or ()), [Finding(FindingKind.UNSUPPORTED, diag.error(k, str(e)))], sources=sources)

    def body(w: WarpInterpreter) -> None:
        try:
            w.run_ssacfg_region(k.body, tuple(arg_values), function_name(k))
        except Aborted:
            raise
        except V.UnsupportedType as e:
            machine.report(FindingKind.UNSUPPORTED, "error", w.current_op, f"{e} (warp {w.warp})")
        except Exception as e:  # noqa: BLE001 -- becomes a diagnostic at the op, never a traceback
            if os.environ.get("TMEM_TRACEBACK"):
                traceback.print_exc()
            machine.report(
                FindingKind.INTERNAL,
                "error",
                w.current_op,
                f"interpreter internal error while executing '{w.current_op.name if w.current_op else '?'}' "
                f"in warp {w.warp}: {type(e).__name__}: {e}",
            )
            machine.scheduler.abort()
        finally:
            w.finished = True
            machine.exit_clocks[w.warp] = machine.clocks[w.warp].vc.copy()

    if on_machine is not None:
        on_machine(machine)
    with _progress(machine, progress):
        machine.scheduler.run([lambda w=w: body(w) for w in warps], machine.deadlock)
    producers.finish(machine)  # issue 10: stuck mbarrier waits, unfinished phases
    stopped = any(f.kind in (FindingKind.DEADLOCK, FindingKind.OUT_OF_TMEM, FindingKind.STEP_LIMIT, FindingKind.INTERNAL) for f in machine.findings)
    if not stopped:
        lifecycle.check_leaks(machine)
        cluster_semantics.check_setmaxnreg_at_exit(machine)
        cluster_semantics.check_remote_accesses(machine)
    findings = sorted(machine.findings, key=_finding_order)
    return RunResult(
        arrays,
        findings,
        [cta.tmem.cells.reshape(isa.TMEM_LANES, isa.TMEM_COLUMNS).copy() for cta in machine.ctas],
        machine.total_ops,
        machine.cells_moved,
        sources,
    )


@contextmanager
def _progress(machine: Machine, enabled: bool) -> Iterator[None]:
    """While the run lasts, a line on stderr saying how far it is (rewritten in place)."""
    if not enabled:
        yield
        return
    done = threading.Event()

    def report() -> None:
        while not done.wait(1.0):
            print(f"\rtmem-run: {machine.total_ops} warp operations of at most "
                  f"{machine.options.max_warp_ops}...", end="", file=sys.stderr, flush=True)

    reporter = threading.Thread(target=report, name="tmem-run progress", daemon=True)
    reporter.start()
    try:
        yield
    finally:
        done.set()
        reporter.join()
        print("\r\033[K", end="", file=sys.stderr, flush=True)


def _finding_order(f: Finding) -> tuple:
    loc = f.diagnostic.location
    return (0 if loc is None else 1, loc.file if loc else "", loc.line if loc else 0,
            loc.column if loc else 0)

