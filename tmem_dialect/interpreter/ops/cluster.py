"""Op implementations of nvvm.mapa and nvvm.setmaxregister (interpreter.cluster holds their semantics)."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls

from tmem_dialect.dialects import nvvm_cluster
from tmem_dialect.interpreter import cluster
from tmem_dialect.interpreter import values as V
from tmem_dialect.interpreter.warp import WarpInterpreter


@register_impls
class ClusterFunctions(InterpreterFunctions):
    @impl(nvvm_cluster.MapaOp)
    def run_mapa(self, w: WarpInterpreter, op: nvvm_cluster.MapaOp, args: PythonValues):
        address, rank = (np.broadcast_to(np.asarray(a), (V.WARP,)) for a in args)
        return (cluster.mapa(w.machine, w, op, address, rank).astype(V.POINTER_DTYPE),)

    @impl(nvvm_cluster.SetMaxRegisterOp)
    def run_setmaxregister(self, w: WarpInterpreter, op: nvvm_cluster.SetMaxRegisterOp, args: PythonValues):
        cluster.setmaxnreg(w.machine, w, op, op.increase, op.count)
        return ()
