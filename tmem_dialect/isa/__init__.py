"""The tcgen05 ISA tables, one module per family; `from tmem_dialect import isa` sees them all.

This package is the single source of truth for the static facts of docs/tmem_facts.md and
the PTX ISA sections each module cites. Verifiers, passes, the lowering and the interpreter ask
it; none of them re-derive these facts.
- core: TMEM geometry, tcgen05.ld/st shapes and fragments, alloc nCols, PTX targets;
- mma: tcgen05.mma kinds, shapes, instruction descriptors, accumulator layouts;
- mma_masks: disable-output-lane, the .ws zero-column mask descriptor and B collector buffers;
- smem: the shared-memory matrix descriptor, swizzle modes, canonical layouts;
- cp: tcgen05.cp shapes/multicast/footprints, decompression, and tcgen05.shift;
- sync: tcgen05.commit, mbarriers, proxy fences, elect.sync, pipelined pairs;
- operands: swizzle XOR geometry, D layouts B and E, smem and TMEM containers (the interpreter's tensor core).
- tma: cp.async.bulk(.tensor) forms, tensor-map limits and swizzles, bulk groups.
"""

from tmem_dialect.isa.core import *
from tmem_dialect.isa.cp import *
from tmem_dialect.isa.mma import *
from tmem_dialect.isa.mma_masks import *
from tmem_dialect.isa.smem import *
from tmem_dialect.isa.sync import *
from tmem_dialect.isa.operands import *
from tmem_dialect.isa.tma import *
