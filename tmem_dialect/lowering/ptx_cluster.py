"""PTX for the cluster ops: mapa, setmaxnreg, barrier.cluster (mnemonics from `isa`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation

from tmem_dialect import isa
from tmem_dialect.dialects import nvvm_cluster, nvvm_sync
from tmem_dialect.lowering.ptx_values import RegClass

Emitter = Any  # ptx_emitter._FunctionEmitter (not imported: that module imports this one)


def mapa(em: Emitter, op: nvvm_cluster.MapaOp) -> None:
    """`mapa.shared::cluster.u64 d, a, rank` (shared pointers are 64-bit registers here) or `mapa.u64`."""
    d = em.new_reg(RegClass.B64)
    em.out(f"{isa.mapa_mnemonic(op.shared)} {d}, {em.reg(op.a)}, {em.reg_or_imm(op.b)};")
    em.define(op.res, [d])


def setmaxnreg(em: Emitter, op: nvvm_cluster.SetMaxRegisterOp) -> None:
    em.out(f"{isa.setmaxnreg_mnemonic(op.increase)} {op.count};")


_CLUSTER_BARRIER = {nvvm_sync.ClusterArriveOp: "arrive", nvvm_sync.ClusterArriveRelaxedOp: "arrive.relaxed",
                    nvvm_sync.ClusterWaitOp: "wait"}


def cluster_barrier(em: Emitter, op: nvvm_sync.ClusterArriveOp | nvvm_sync.ClusterArriveRelaxedOp | nvvm_sync.ClusterWaitOp) -> None:
    em.out(f"{isa.cluster_barrier_mnemonic(_CLUSTER_BARRIER[type(op)], op.aligned is not None)};")


CLUSTER_HANDLERS: dict[type[Operation], Callable[[Emitter, Any], None]] = {
    nvvm_cluster.MapaOp: mapa,
    nvvm_cluster.SetMaxRegisterOp: setmaxnreg,
    **{t: cluster_barrier for t in _CLUSTER_BARRIER},
}
